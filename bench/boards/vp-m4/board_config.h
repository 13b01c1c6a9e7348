/* vp-m4: the simulated lab board with a Cortex-M4F (the simulator's side: vp/, issue 13). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "vp-m4"
/* An FPU core: a thread's stack may hold its s16-s31 (16 words, saved at a switch) and two
 * extended exception frames (18 words more each than an integer frame: an interrupt's and a
 * port's return frame), 208 bytes more than on an integer core. The suite's test stacks
 * grow by it (bench.h), alike for every RTOS. */
#define BOARD_FPU_STACK_BYTES 208
/* 64 KiB of RAM (memory.ld; the simulator's default for vp-m4): 16 KiB no longer holds the
 * larger stacks of every RTOS. */
#include "lab_regs.h"
#define BOARD_RAM_BYTES LAB_RAM_SIZE_M4
#include "lab_board_config.h"

#endif
