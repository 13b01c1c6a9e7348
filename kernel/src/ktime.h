/*
 * Kernel internals: the kernel clock, the timeout list and the time source (time.c). Not
 * API. Compiles on its own (kernel/tests/headers).
 */
#ifndef RTOSLAB_KTIME_H
#define RTOSLAB_KTIME_H

#include "kstate.h"
#include "rtoslab/board_if.h"

/* ---- Time (time.c) --------------------------------------------------------------------------- */

/* The kernel clock (inline: one load on the lab boards). The tick count changes under the
 * caller's feet (the tick interrupt): a volatile load, or a spin on it (z_spin_until, a
 * thread's busy wait on k_now()) is one load hoisted out of the loop, an endless loop once
 * k_now() is inlined (LTO: the speed profile). */
static inline __attribute__((always_inline)) uint32_t z_now(void)
{
#if K_CONFIG_TICKLESS
    return board_cycles();
#else
    return *(volatile uint32_t *)&z_kernel.ticks;
#endif
}
/* Put `t` in the timeout list to expire at `at` (a sleep: its deadline less Z_LEAD; a
 * timed wait: its deadline, never earlier). */
void z_timeout_add(struct k_thread *t, uint32_t at);
void z_timeout_remove(struct k_thread *t);
/* Program the alarm for the earliest expiry (tickless). Inline without timers: one test
 * and a call, from two places. */
#if K_CONFIG_TIMER && K_CONFIG_TICKLESS
void z_time_reprogram(void);
#else
static inline __attribute__((always_inline)) void z_time_reprogram(void)
{
#if K_CONFIG_TICKLESS /* (only running threads add deadlines: none before k_start) */
    if (z_kernel.timeouts)
        board_alarm_set(z_kernel.timeouts->z_wake); /* an expiry time: the lead is in it */
#endif
}
#endif
/* Start the time source (k_start, once). */
static inline __attribute__((always_inline)) void z_time_start(void)
{
#if K_CONFIG_TICKLESS
    board_irq_enable(BOARD_ALARM_IRQ, 0);
#if K_CONFIG_TIMER
    z_time_reprogram(); /* (for the timers started before k_start: nothing else is due yet) */
#endif
#else
    arch_tick_start(K_CONFIG_CLOCK_HZ / K_CONFIG_TICK_HZ);
#endif
}
void z_time_tick(void);
/* The idle loop's choice of sleep, before its WFI (time.c; config.h, K_CONFIG_DEEP_IDLE). */
void z_idle_prepare(void);
static inline __attribute__((always_inline)) void z_spin_until(uint32_t deadline)
{
    while ((int32_t)(z_now() - deadline) < 0) {
    }
}
#define Z_NOT_TIMED(t) ((t)->z_tnext == (t))
/* Periodic tick: a relative duration of n ticks ends at the (n+1)-th tick from now, so that
 * it is never shorter than n tick periods. */
#if K_CONFIG_TICKLESS
#define Z_TICK_ROUND 0u
#define Z_LEAD K_CONFIG_TIMER_LEAD
#else
#define Z_TICK_ROUND 1u
#define Z_LEAD 0u
#endif

#endif
