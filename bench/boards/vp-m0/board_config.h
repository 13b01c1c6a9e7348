/* vp-m0: the simulated lab board, zero wait states, 48 MHz nominal. */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "vp-m0"
#include "lab_board_config.h"

#endif
