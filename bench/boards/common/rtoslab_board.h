/*
 * The suite's boards implement the rtoslab kernel's board interface
 * (kernel/include/rtoslab/board_if.h): BOARD_CLOCK_HZ, BOARD_ALARM_IRQ and the inline
 * board_cycles() are the board's own (board_config.h); the functions are in board.h.
 */
#ifndef RTOSLAB_BOARD_H
#define RTOSLAB_BOARD_H

#include "board_config.h"

#endif
