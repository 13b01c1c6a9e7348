/*
 * Kernel internals shared by the modules of kernel/src (z_ names). Not API.
 */
#ifndef RTOSLAB_KERNEL_INTERNAL_H
#define RTOSLAB_KERNEL_INTERNAL_H

#include "arch.h"
#include "rtoslab/kernel.h"

/* ---- Thread states (high nibble 0xA0 marks a valid thread) ------------------------------- */

#define Z_STATE_READY 0xA1u         /* ready or running: in its priority's ready ring */
#define Z_STATE_BLOCKED 0xA2u       /* on a wait queue or sleeping */
#define Z_STATE_BLOCKED_MUTEX 0xA3u /* on a mutex's wait queue (z_wait.obj is the mutex) */
#define Z_STATE_SUSPENDED 0xA4u
#define Z_STATE_DEAD 0xA5u
#define Z_STATE_VALID(s) (((s) & 0xF0u) == 0xA0u)

/* ---- The kernel state: one struct ---------------------------------------------------------- */

struct z_kernel {
    struct k_thread *current;                    /* offset 0: used by the port's assembly */
#if K_CONFIG_READY_LIST
    struct k_thread *ready;                      /* offset 4: the ready list, highest first */
#else
#if K_CONFIG_PRIO_LEVELS > 8                     /* offset 4 (within reach of LDRH/LDRB) */
    uint16_t bitmap;                             /* bit of priority p: ring p is not empty */
#else
    uint8_t bitmap;
#endif
    uint8_t started;
    struct k_thread *ready[K_CONFIG_PRIO_LEVELS]; /* tail of each priority's ring, or NULL */
#endif
    struct k_thread *timeouts;                   /* sleeping / timed waiters, by deadline */
#if K_CONFIG_MUTEX
    struct k_mutex *contended;                   /* mutexes with waiters */
#endif
#if K_CONFIG_TIMER
    struct k_timer *timers;                      /* running timers, by expiry */
#endif
#if !K_CONFIG_TICKLESS
    uint32_t ticks;
#endif
#if K_CONFIG_READY_LIST
    uint8_t started;
#endif
};

extern struct z_kernel z_kernel;

/* ---- Checks and assertions ----------------------------------------------------------------- */

#if K_CONFIG_CHECKS
#define Z_CHECK(cond, err) \
    do {                   \
        if (!(cond))       \
            return (err);  \
    } while (0)
#else
#define Z_CHECK(cond, err) ((void)0)
#endif

#if K_CONFIG_ASSERT
void z_assert_fail(const char *file, int line) __attribute__((noreturn));
#define K_ASSERT(cond)                          \
    do {                                        \
        if (!(cond))                            \
            z_assert_fail(__FILE__, __LINE__);  \
    } while (0)
#else
#define K_ASSERT(cond) ((void)0)
#endif

/* Calling contexts (checked in the K_CONFIG_ASSERT build): a thread (not an interrupt
 * handler), inside the kernel's critical section (interrupts masked). */
#define K_ASSERT_THREAD() K_ASSERT(!arch_in_isr())
#if K_CONFIG_TICKLESS /* (the alarm's handler, priority 0, needs no mask: time.c) */
#define K_ASSERT_LOCKED() \
    K_ASSERT(arch_irq_locked() || arch_exception() == 16u + BOARD_ALARM_IRQ)
#else
#define K_ASSERT_LOCKED() K_ASSERT(arch_irq_locked())
#endif

#define Z_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- Scheduler (sched.c) ------------------------------------------------------------------- */

/* Switch from the running thread `cur` to `next` (NULL: idle until a thread is ready), IRQs
 * disabled. Out of line on purpose: with the light switch (arch.h) the function that
 * contains the switch saves r8-r11 in its prologue, which a caller that switches only
 * sometimes should not pay when it does not. */
#if K_CONFIG_SYNC_SWITCH
void z_switch_to(struct k_thread *cur, struct k_thread *next);
#else
#define z_switch_to(cur, next) ((void)(next), (void)arch_switch_pend(cur)) /* PendSV chooses */
#endif

/* Any context, IRQs disabled: request the switch for interrupt-made changes. */
void z_reschedule_isr(void);

/* Wait queues: highest priority first, FIFO among equals. */
#if K_CONFIG_READY_LIST
/* Link t into the priority-ordered list *q behind every thread of priority p or more: p =
 * t's priority puts it behind its equals, one more ahead of them. The ready list's too. */
void z_list_insert(struct k_thread **q, struct k_thread *t, unsigned p);
static inline __attribute__((always_inline)) void z_waitq_insert(struct k_thread **q,
                                                                 struct k_thread *t)
{
    K_ASSERT(t->z_state == Z_STATE_BLOCKED || t->z_state == Z_STATE_BLOCKED_MUTEX);
    z_list_insert(q, t, t->z_prio);
}
#else
void z_waitq_insert(struct k_thread **q, struct k_thread *t);
#endif
void z_waitq_remove(struct k_thread **q, struct k_thread *t);

/* Block the caller on `q` (NULL: only sleep) until woken or the deadline passes.
 * IRQs disabled on entry, enabled on return. (z_block_prepare: the mutex's first half.) */
#if K_CONFIG_MUTEX
void z_block_prepare(struct k_thread **q, void *obj, uint8_t state, k_timeout_t timeout);
#endif
int z_block(struct k_thread **q, void *obj, uint8_t state, k_timeout_t timeout);
/* Give `t` effective priority `prio`, repositioning it wherever it is queued. */
void z_set_prio(struct k_thread *t, unsigned prio);
/* Called by the PendSV handler with the saved SP of the current thread (0: it comes from the
 * idle loop); returns the thread to run, NULL to idle. */
struct k_thread *z_sched_pendsv(uint32_t sp);
void z_stack_check(struct k_thread *t, uint32_t sp);

/* Fast paths (arch assembly) in front of the C versions: the C functions take these names. */
#if K_CONFIG_FASTPATH
#define Z_FAST(name) z_##name##_c
#else
#define Z_FAST(name) k_##name
#endif
int z_sem_wait_c(struct k_sem *s, k_timeout_t timeout);
int z_sem_signal_c(struct k_sem *s);
int z_sem_signal_isr_c(struct k_sem *s);
int z_mutex_lock_c(struct k_mutex *m, k_timeout_t timeout);
int z_mutex_unlock_c(struct k_mutex *m);
int z_thread_prio_set_c(struct k_thread *t, unsigned prio);

/* ---- Time (time.c) --------------------------------------------------------------------------- */

#include "rtoslab/board_if.h"
/* The kernel clock (inline: one load on the lab boards). */
static inline __attribute__((always_inline)) uint32_t z_now(void)
{
#if K_CONFIG_TICKLESS
    return board_cycles();
#else
    return z_kernel.ticks;
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

/* The hot primitives: z_top, z_ready_add_tail/_head, z_ready_remove, z_reschedule (thread
 * context, IRQs disabled: run the top thread if it is not the caller; enables IRQs),
 * z_switch_away (the caller is no longer ready: switch to the top thread and return its
 * wake-up result, IRQs enabled), z_wake (make a blocked thread ready with `result`). */
void z_timeout_remove(struct k_thread *t);
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
