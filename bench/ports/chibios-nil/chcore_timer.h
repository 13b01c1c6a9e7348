/*
 * The system-timer functions NIL's ARMv6-M port calls in tick-less mode (chcore.h includes
 * "chcore_timer.h" when CH_CFG_ST_TIMEDELTA > 0). Upstream they forward to the HAL's ST
 * driver (stStartAlarm, stGetCounter, ...), which is not in the pinned archive, nor is this
 * header: this is the port's own, on the board layer's free-running cycle counter
 * (board_cycles()) and compare alarm (board_alarm_set/cancel, handler board_alarm_isr in
 * port.c). CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ: one system tick is one cycle.
 */
#ifndef CHCORE_TIMER_H
#define CHCORE_TIMER_H

#include "board.h"

extern systime_t rtb_nil_alarm_at; /* the last compare value (port_timer_get_alarm) */

static inline void port_timer_start_alarm(systime_t time)
{
    rtb_nil_alarm_at = time;
    board_alarm_set((uint32_t)time);
}

static inline void port_timer_stop_alarm(void)
{
    board_alarm_cancel();
}

static inline void port_timer_set_alarm(systime_t time)
{
    rtb_nil_alarm_at = time;
    board_alarm_set((uint32_t)time);
}

static inline systime_t port_timer_get_time(void)
{
    return (systime_t)board_cycles();
}

static inline systime_t port_timer_get_alarm(void)
{
    return rtb_nil_alarm_at;
}

#endif
