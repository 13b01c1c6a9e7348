/*
 * rtimer-arch.h - Contiki-NG's real-time timer on the board of the suite (this port's own
 * file): rtimer ticks are the board's clock cycles, RTIMER_NOW() is one load of the cycle
 * counter, rtimer_arch_schedule() programs the board's compare timer (platform.c shares it
 * with the etimer wake-up: the earlier of the two deadlines is armed).
 */
#ifndef RTIMER_ARCH_H_
#define RTIMER_ARCH_H_

#include "board_config.h"

#define RTIMER_ARCH_SECOND BOARD_CLOCK_HZ
#define rtimer_arch_now() board_cycles()

#endif /* RTIMER_ARCH_H_ */
