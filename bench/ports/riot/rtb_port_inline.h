/*
 * The RIOT port's inline hot calls (docs/porting.md, "Inline hot calls"): the tests call
 * RIOT directly (thread_yield, sched_change_priority, sema_*, mutex_*), the same calls and
 * result mapping as the out-of-line versions would make; port.c has no definition of these.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "mutex.h"
#include "sched.h"
#include "sema.h"
#include "thread.h"
#include "ztimer.h"
#include "ztimer/periph_timer.h"

extern kernel_pid_t rtb_riot_pids[RTB_MAX_THREADS];
extern sema_t rtb_riot_sems[RTB_MAX_SEMS];
extern mutex_t rtb_riot_mutexes[RTB_MAX_MUTEXES];
extern ztimer_periph_timer_t rtb_riot_clock; /* ztimer on the board's cycle counter */

#define RTB_RIOT_PRIO(p) ((uint8_t)(RTB_PRIO_CTRL + 1 - (p)))

/* A delay or timeout of `us` in ticks of rtb_riot_clock (cycles): at least `us`, plus one
 * tick. The boards' clocks are whole MHz (48, 16): one multiplication, no 64-bit division
 * (a software division on the Cortex-M0 would add hundreds of cycles to every timed call);
 * saturated below 2^31 ticks (ztimer's longest interval here: 44 s at 48 MHz). */
#if BOARD_CLOCK_HZ % 1000000u == 0
#define RTB_RIOT_TICKS_PER_US (BOARD_CLOCK_HZ / 1000000u)
static inline uint32_t rtb_riot_ticks(uint32_t us)
{
    if (us >= 0x7FFFFFFFu / RTB_RIOT_TICKS_PER_US)
        return 0x7FFFFFFFu;
    return us * RTB_RIOT_TICKS_PER_US + 1u;
}
#else
static inline uint32_t rtb_riot_ticks(uint32_t us)
{
    uint64_t t = ((uint64_t)us * BOARD_CLOCK_HZ + 999999u) / 1000000u + 1u;
    return t > 0x7FFFFFFFu ? 0x7FFFFFFFu : (uint32_t)t;
}
#endif

#define RTB_INLINE_rtb_yield 1
static inline void rtb_yield(void) { thread_yield(); }

#define RTB_INLINE_rtb_prio_set 1
static inline void rtb_prio_set(int id, int prio)
{
    thread_t *t = id == RTB_SELF ? thread_get_active() : thread_get(rtb_riot_pids[id]);
    sched_change_priority(t, RTB_RIOT_PRIO(prio));
}

#define RTB_INLINE_rtb_sem_wait 1
static inline int rtb_sem_wait(int id, uint32_t timeout_us)
{
    int r;
    if (timeout_us == RTB_FOREVER)
        r = sema_wait(&rtb_riot_sems[id]);
    else if (timeout_us == 0)
        r = sema_try_wait(&rtb_riot_sems[id]);
    else
        r = sema_wait_timed_ztimer(&rtb_riot_sems[id], &rtb_riot_clock.super, rtb_riot_ticks(timeout_us));
    return r == 0 ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline void rtb_sem_signal(int id) { sema_post(&rtb_riot_sems[id]); }

#define RTB_INLINE_rtb_sem_signal_isr 1
static inline void rtb_sem_signal_isr(int id) { sema_post(&rtb_riot_sems[id]); }

#define RTB_INLINE_rtb_mutex_lock 1
static inline int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        mutex_lock(&rtb_riot_mutexes[id]);
        return RTB_OK;
    }
    if (timeout_us == 0)
        return mutex_trylock(&rtb_riot_mutexes[id]) ? RTB_OK : RTB_TIMEOUT;
    return ztimer_mutex_lock_timeout(&rtb_riot_clock.super, &rtb_riot_mutexes[id],
                                     rtb_riot_ticks(timeout_us)) == 0
               ? RTB_OK
               : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline void rtb_mutex_unlock(int id) { mutex_unlock(&rtb_riot_mutexes[id]); }

#endif
