/* qemu-mps2-an386: QEMU's MPS2 with the AN386 image, a Cortex-M4F (common/mps2_board_config.h). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "qemu-mps2-an386"
#include "mps2_board_config.h"

#endif
