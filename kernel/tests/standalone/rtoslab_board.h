/* A board that is only the kernel's board interface (rtoslab/board_if.h): the standalone
 * build's (kernel/tests/standalone). The counter is a variable, so nothing here is a device. */
#ifndef RTOSLAB_BOARD_H
#define RTOSLAB_BOARD_H

#include <stdint.h>

#define BOARD_CLOCK_HZ 1000000u
#define BOARD_ALARM_IRQ 1u

extern volatile uint32_t null_board_counter;
static inline uint32_t board_cycles(void) { return null_board_counter; }

#endif
