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

#if K_CONFIG_MUTEX
/* A waiter left mutex `m` otherwise than by getting it (timeout, destroy, priority change):
 * keep the contended list and the owner's inherited priority right. */
void z_mutex_waiters_changed(struct k_mutex *m);
void z_mutex_release_all(struct k_thread *t);
#endif
#if K_CONFIG_TIMER
uint32_t z_timer_process(uint32_t now, int *have_next);
#endif

#endif
