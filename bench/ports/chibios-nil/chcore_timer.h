/*
 * The system-timer functions NIL's ARMv6-M port calls in tick-less mode (chcore.h includes
 * "chcore_timer.h" when CH_CFG_ST_TIMEDELTA > 0). Upstream they forward to the HAL's ST
 * driver (stStartAlarm, stGetCounter, ...), which is not in the pinned archive, nor is this
 * header: this is the port's own, on the board layer's free-running cycle counter
 * (board_cycles()) and compare alarm (board_alarm_set/cancel, handler board_alarm_isr in
 * nil_board.c). The bench image runs CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ: one system tick
 * is one cycle. A configuration with a lower frequency (NIL's own test suite, whose time
 * windows assume a 1 kHz tick as in its testbuild) divides the 64-bit cycle counter.
 */
#ifndef CHCORE_TIMER_H
#define CHCORE_TIMER_H

#include "board.h"

extern systime_t rtb_nil_alarm_at; /* the last compare value (port_timer_get_alarm) */

#define RTB_NIL_ST_DIV (BOARD_CLOCK_HZ / CH_CFG_ST_FREQUENCY) /* cycles per system tick */

#if RTB_NIL_ST_DIV == 1
static inline uint32_t rtb_nil_st_cycle(systime_t t) { return (uint32_t)t; }
static inline systime_t port_timer_get_time(void) { return (systime_t)board_cycles(); }
#else
static inline uint32_t rtb_nil_st_cycle(systime_t t) { return (uint32_t)((uint64_t)t * RTB_NIL_ST_DIV); }
static inline systime_t port_timer_get_time(void) { return (systime_t)(board_cycles64() / RTB_NIL_ST_DIV); }
#endif

static inline void port_timer_start_alarm(systime_t time)
{
    rtb_nil_alarm_at = time;
    board_alarm_set(rtb_nil_st_cycle(time));
}

static inline void port_timer_stop_alarm(void)
{
    board_alarm_cancel();
}

static inline void port_timer_set_alarm(systime_t time)
{
    rtb_nil_alarm_at = time;
    board_alarm_set(rtb_nil_st_cycle(time));
}

static inline systime_t port_timer_get_alarm(void)
{
    return rtb_nil_alarm_at;
}

#endif
