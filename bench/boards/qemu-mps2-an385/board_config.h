/* qemu-mps2-an385: QEMU's MPS2 with the AN385 image, a Cortex-M3 (common/mps2_board_config.h). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "qemu-mps2-an385"
#include "mps2_board_config.h"

#endif
