/*
 * chcore_timer.h: the system timer of the ChibiOS/RT tick-less mode (CH_CFG_ST_TIMEDELTA > 0),
 * written for this port on top of the rtoslab board layer (bench/include/board.h).
 *
 * ChibiOS ships this file with its HAL (the ST driver: stStartAlarm/stStopAlarm/stSetAlarm/
 * stGetCounter), which is not in the pinned archive. RT 7 (os/rt/src/chvt.c, chvt.h) needs four
 * calls; here each is the board's compare timer or counter:
 *   port_timer_start_alarm / port_timer_set_alarm -> board_alarm_set (absolute 32-bit cycle;
 *                                                    a time already past fires at once)
 *   port_timer_stop_alarm                         -> board_alarm_cancel
 *   port_timer_get_time                           -> board_cycles (the free-running counter)
 * The benchmark's system time is therefore the board's cycle counter itself
 * (CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ, CH_CFG_ST_RESOLUTION 32), as is the own benchmarks'
 * (owntest-chibios-rt-bench); the other own tests use a divided rate (10 kHz, like the demo)
 * from the 64-bit counter. The alarm interrupt calls chSysTimerHandlerI()
 * from board_alarm_isr() in port.c.
 */
#ifndef CHCORE_TIMER_H
#define CHCORE_TIMER_H

#include "board.h"

#if (CH_CFG_ST_FREQUENCY == BOARD_CLOCK_HZ)

static inline void port_timer_start_alarm(systime_t time) {

  board_alarm_set((uint32_t)time);
}

static inline void port_timer_stop_alarm(void) {

  board_alarm_cancel();
}

static inline void port_timer_set_alarm(systime_t time) {

  board_alarm_set((uint32_t)time);
}

static inline systime_t port_timer_get_time(void) {

  return (systime_t)board_cycles();
}

#else /* A divided rate (the own tests, chconf.h): tick t starts at cycle t * DIV. */

#define RTB_ST_DIV (BOARD_CLOCK_HZ / CH_CFG_ST_FREQUENCY)
#if (BOARD_CLOCK_HZ % CH_CFG_ST_FREQUENCY) != 0
#error "CH_CFG_ST_FREQUENCY must divide BOARD_CLOCK_HZ"
#endif

static inline void port_timer_start_alarm(systime_t time) {

  board_alarm_set((uint32_t)time * (uint32_t)RTB_ST_DIV);
}

static inline void port_timer_stop_alarm(void) {

  board_alarm_cancel();
}

static inline void port_timer_set_alarm(systime_t time) {

  board_alarm_set((uint32_t)time * (uint32_t)RTB_ST_DIV);
}

static inline systime_t port_timer_get_time(void) {

  return (systime_t)(board_cycles64() / RTB_ST_DIV);
}

#endif

#endif /* CHCORE_TIMER_H */
