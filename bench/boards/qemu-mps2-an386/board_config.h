/* qemu-mps2-an386: QEMU's MPS2 with the AN386 image, a Cortex-M4F (common/mps2_board_config.h). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "qemu-mps2-an386"
/* An FPU core: a thread's stack may hold its s16-s31 (16 words, saved at a switch) and two
 * extended exception frames (18 words more each than an integer frame: an interrupt's and a
 * port's return frame), 208 bytes more than on an integer core. The suite's test stacks
 * grow by it (bench.h), alike for every RTOS. */
#define BOARD_FPU_STACK_BYTES 208
#include "mps2_board_config.h"

#endif
