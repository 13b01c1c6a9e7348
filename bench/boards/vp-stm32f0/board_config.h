/* vp-stm32f0: the lab board at 48 MHz with one flash wait state (STM32F0-like timing). */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME "vp-stm32f0"
#include "lab_board_config.h"

#endif
