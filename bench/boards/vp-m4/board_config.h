/* vp-m4: the simulated lab board with a Cortex-M4F (the simulator's side: vp/, issue 13). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "vp-m4"
#include "lab_board_config.h"

#endif
