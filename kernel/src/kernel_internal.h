/*
 * Kernel internals shared by the modules of kernel/src (z_ names). Not API. One header for
 * the modules, made of headers that each compile on their own (kernel/tests/headers):
 * kstate.h (thread states, the kernel state), kcheck.h (checks, assertions), ktime.h (the
 * clock, the timeout list, the time source), sched.h (the scheduler), and the objects'
 * kernel-internal calls below.
 */
#ifndef RTOSLAB_KERNEL_INTERNAL_H
#define RTOSLAB_KERNEL_INTERNAL_H

#include "kcheck.h"
#include "kstate.h"
#include "ktime.h"
#include "sched.h"

/* ---- Objects --------------------------------------------------------------------------------- */

/* The objects' side of the scheduler, the timeouts and the thread calls, which call these
 * hooks without knowing what a thread waits on or holds. The objects whose waiters lend
 * their priority to a holder (mutexes, mutex.c) do the work; without them the hooks are
 * empty. */
#if K_CONFIG_MUTEX
void z_mutex_waiters_changed(struct k_mutex *m);
void z_mutex_release_all(struct k_thread *t);
#endif
/* A waiter left the wait queue `q`, or moved on it, otherwise than by being given the object
 * (timeout, abort, priority change); `state` is the blocked state it waited in. The object
 * repairs what depends on its waiters (a mutex: its place in the contended list, its
 * owner's inherited priority). IRQs disabled. */
static inline __attribute__((always_inline)) void z_waiter_left(uint8_t state,
                                                                struct k_thread **q)
{
#if K_CONFIG_MUTEX
    if (state == Z_STATE_BLOCKED_MUTEX)
        z_mutex_waiters_changed((struct k_mutex *)q); /* (the wait queue is its first member) */
#else
    (void)state;
    (void)q;
#endif
}
/* The effective priority of `t` given its base `prio`: no lower than what the objects it
 * holds lend it (a mutex: its best waiter's, from the contended mutexes it owns; inline: a
 * call cost k_thread_prio_set 20 cycles). IRQs disabled. */
static inline __attribute__((always_inline)) unsigned z_prio_lent(const struct k_thread *t,
                                                                  unsigned prio)
{
#if K_CONFIG_MUTEX
    for (struct k_mutex *m = z_kernel.contended; m; m = m->z_cnext)
        if ((m->z_owner & ~(uintptr_t)3u) == (uintptr_t)t && m->z_waitq->z_prio > prio)
            prio = m->z_waitq->z_prio;
    return prio;
#else
    (void)t;
    return prio;
#endif
}
/* `t` ends (exit, abort): give away what it holds. IRQs disabled. */
static inline __attribute__((always_inline)) void z_release_all(struct k_thread *t)
{
#if K_CONFIG_MUTEX
    z_mutex_release_all(t);
#else
    (void)t;
#endif
}
#if K_CONFIG_TIMER
uint32_t z_timer_process(uint32_t now, int *have_next, uint32_t key);
#endif

#endif
