/* vp-m3: the simulated lab board with a Cortex-M3 (the simulator's side: vp/, issue 13). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "vp-m3"
#include "lab_board_config.h"

#endif
