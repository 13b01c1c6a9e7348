/*
 * periph_conf.h - the board's peripheral configuration for RIOT: one timer device
 * (TIMER_DEV(0)) with one channel, the board's cycle counter and compare alarm, and the core
 * clock (RIOT's coreclk()). The board's own board.h (bench/include/board.h) also serves as
 * RIOT's board.h, where a RIOT header includes one. Written for this port.
 */
#ifndef RTB_RIOT_PERIPH_CONF_H
#define RTB_RIOT_PERIPH_CONF_H

#include "board_config.h" /* the board's BOARD_CLOCK_HZ */

#define CLOCK_CORECLOCK BOARD_CLOCK_HZ
#define TIMER_NUMOF (1U)
#define TIMER_CHANNEL_NUMOF (1U)

#endif
