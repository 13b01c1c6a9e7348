/*
 * The scheduler's hot primitives (ready rings, choice of the next thread, waking, switching),
 * as inline functions when K_CONFIG_INLINE (the default: each call site gets the code, no
 * call overhead), or as ordinary functions defined once in sched.c (K_CONFIG_INLINE=0, the
 * size-optimised build). Compiles on its own (kernel/tests/headers); the modules include kernel_internal.h.
 *
 * Ready structure: one ring (circular singly linked list) per priority, the kernel keeping a
 * pointer to its tail (so head = tail->z_next), plus a bitmap of non-empty rings. The running
 * thread stays at the head of its ring. With K_CONFIG_READY_LIST: one list sorted by priority
 * (FIFO among equals), kept with the wait queues' code; the running thread is its head.
 */
#ifndef RTOSLAB_SCHED_H
#define RTOSLAB_SCHED_H

#include "kcheck.h"
#include "kstate.h"
#include "ktime.h"

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

/* The priority-ordered lists (every wait queue, and the ready list of K_CONFIG_READY_LIST),
 * linked through z_next: highest priority first, FIFO among equals; one implementation. */
/* Link t into the list *q behind every thread of priority p or more: p = t's priority puts
 * it behind its equals, one more ahead of them. */
void z_list_insert(struct k_thread **q, struct k_thread *t, unsigned p);
static inline __attribute__((always_inline)) void z_waitq_insert(struct k_thread **q,
                                                                 struct k_thread *t)
{
    K_ASSERT(Z_STATE_IS_BLOCKED(t->z_state));
    z_list_insert(q, t, t->z_prio);
}
/* Unlink t from the list *q (nothing if it is not there). */
void z_waitq_remove(struct k_thread **q, struct k_thread *t);

/* Block the caller on the wait queue `q` (NULL: only sleep; the waiter's z_wait.obj) until
 * woken or the deadline passes.
 * IRQs disabled on entry, enabled on return. (z_block_prepare: the mutex's first half.)
 * With timed waits a finite `timeout` counts from `start`, the clock as the caller read it
 * first thing (Z_WAIT_START(): so the deadline is as close to the call as it can be, not
 * 85 cycles of checks and prologues later); both arguments exist only in those builds
 * (Z_TIMEOUT_ARG: without timed waits every block is K_FOREVER, and its callers pass
 * nothing, 4 bytes a call on ARMv6-M). */
#if K_CONFIG_WAIT_TIMEOUT
#define Z_TIMEOUT_PARAM , k_timeout_t timeout, uint32_t start
#define Z_TIMEOUT_ARG(t, s) , (t), (s)
#define Z_WAIT_START() z_now()
#else
#define Z_TIMEOUT_PARAM
#define Z_TIMEOUT_ARG(t, s)
#define Z_WAIT_START() 0u
#endif
#if K_CONFIG_MUTEX
void z_block_prepare(struct k_thread **q, uint8_t state Z_TIMEOUT_PARAM);
#endif
int z_block(struct k_thread **q, uint8_t state Z_TIMEOUT_PARAM);
/* Give `t` effective priority `prio`, repositioning it wherever it is queued. */
void z_set_prio(struct k_thread *t, unsigned prio);
/* Called by the PendSV handler with the saved SP of the current thread (0: it comes from the
 * idle loop); returns the thread to run, NULL to idle. */
struct k_thread *z_sched_pendsv(uint32_t sp);
void z_stack_check(struct k_thread *t, uint32_t sp);

/* Fast paths (arch assembly) in front of the C versions: the C functions take these names.
 * Only the assembly calls them: `used` keeps them through link-time optimisation (the speed
 * profile), which cannot see a call from a .S file pulled out of the archive after it ran. */
#define Z_ASM_CALLED __attribute__((used))
#if K_CONFIG_FASTPATH
#define Z_FAST(name) z_##name##_c
#else
#define Z_FAST(name) k_##name
#endif
Z_ASM_CALLED int z_sem_wait_c(struct k_sem *s, k_timeout_t timeout);
Z_ASM_CALLED int z_sem_signal_c(struct k_sem *s);
Z_ASM_CALLED int z_sem_signal_isr_c(struct k_sem *s);
Z_ASM_CALLED int z_mutex_lock_c(struct k_mutex *m, k_timeout_t timeout);
Z_ASM_CALLED int z_mutex_unlock_c(struct k_mutex *m);
Z_ASM_CALLED int z_thread_prio_set_c(struct k_thread *t, unsigned prio);
Z_ASM_CALLED int z_thread_suspend_c(struct k_thread *t);
Z_ASM_CALLED int z_thread_resume_c(struct k_thread *t);
Z_ASM_CALLED void *z_mempool_alloc_c(struct k_mempool *p);
Z_ASM_CALLED int z_mempool_free_c(struct k_mempool *p, void *block);
#if K_CONFIG_FASTPATH && defined(ARCH_FAST_QUEUE)
Z_ASM_CALLED int z_queue_send_c(struct k_queue *q, const void *item, k_timeout_t timeout);
Z_ASM_CALLED int z_queue_recv_c(struct k_queue *q, void *item, k_timeout_t timeout);
/* (the arguments checked: the fast paths' slow paths) */
Z_ASM_CALLED int z_queue_send_slow(struct k_queue *q, const void *item, k_timeout_t timeout);
Z_ASM_CALLED int z_queue_recv_slow(struct k_queue *q, void *item, k_timeout_t timeout);
#endif

/* The hot primitives: z_top, z_ready_add_tail/_head, z_ready_remove, z_reschedule (thread
 * context, IRQs disabled: run the top thread if it is not the caller; enables IRQs),
 * z_switch_away (the caller is no longer ready: switch to the top thread and return its
 * wake-up result, IRQs enabled), z_wake (make a blocked thread ready with `result`). */
void z_timeout_remove(struct k_thread *t);

#if K_CONFIG_INLINE
#define Z_SCHED_FN static inline __attribute__((always_inline))
#else
#define Z_SCHED_FN
#endif

#if K_CONFIG_READY_LIST
/* (no bitmap, no table: the top thread is the head of the ready list) */
#elif K_CONFIG_PRIO_LEVELS > 8
/* More than 8 levels: bit (K-1-p) stands for priority p, so the highest priority is the
 * lowest set bit; x & -x isolates it and a de Bruijn multiply (MULS: 1 cycle on the
 * fast-multiplier Cortex-M0) indexes a 32-entry table. The port's assembly does the same. */
#define Z_PRIO_BIT(p) (1u << (K_CONFIG_PRIO_LEVELS - 1u - (p)))
extern const uint8_t z_debruijn[32];
#else
/* Up to 8 levels: bit p stands for priority p; a 16-entry table gives the highest set bit of
 * a nibble (Cortex-M0 has no CLZ). */
#define Z_PRIO_BIT(p) (1u << (p))
extern const uint8_t z_msb4[16];
#endif

/* Primitives that are one load or one call in this configuration: inline whatever
 * K_CONFIG_INLINE says (a call would cost more than the body). z_wake is at the end. */
#if K_CONFIG_READY_LIST
static inline __attribute__((always_inline)) struct k_thread *z_top(void)
{
    return z_kernel.ready;
}
static inline __attribute__((always_inline)) void z_ready_remove(struct k_thread *t)
{
    K_ASSERT(t->z_state == Z_STATE_READY);
    z_waitq_remove(&z_kernel.ready, t);
}
#endif
#if !K_CONFIG_SYNC_SWITCH
static inline __attribute__((always_inline)) int z_switch_away(struct k_thread *cur)
{
    return arch_switch_pend(cur); /* PendSV chooses the thread, or idles */
}
#endif

#if K_CONFIG_INLINE || defined(Z_SCHED_DEFINE)

#if K_CONFIG_READY_LIST

Z_SCHED_FN void z_ready_add_tail(struct k_thread *t)
{
    t->z_state = Z_STATE_READY;
    z_list_insert(&z_kernel.ready, t, t->z_prio);
}

Z_SCHED_FN void z_ready_add_head(struct k_thread *t)
{
    t->z_state = Z_STATE_READY;
    z_list_insert(&z_kernel.ready, t, t->z_prio + 1u);
}

#else

static inline __attribute__((always_inline)) unsigned z_top_prio(unsigned bm)
{
#if defined(__ARM_FEATURE_CLZ) /* ARMv7-M: one CLZ instead of a table */
#if K_CONFIG_PRIO_LEVELS > 8
    return K_CONFIG_PRIO_LEVELS - 1u - (31u - (unsigned)__builtin_clz(bm & -bm));
#else
    return 31u - (unsigned)__builtin_clz(bm);
#endif
#elif K_CONFIG_PRIO_LEVELS > 8
    return K_CONFIG_PRIO_LEVELS - 1u - z_debruijn[((bm & -bm) * 0x077CB531u) >> 27];
#elif K_CONFIG_PRIO_LEVELS > 4
    unsigned hi = bm >> 4;
    if (hi)
        return 4u + z_msb4[hi];
    return z_msb4[bm];
#else
    return z_msb4[bm];
#endif
}

Z_SCHED_FN struct k_thread *z_top(void)
{
    unsigned bm = z_kernel.bitmap;
    if (!bm)
        return NULL;
    return z_kernel.ready[z_top_prio(bm)]->z_next;
}

/* Link t into the ring of its priority, just after the tail: as the new tail (FIFO: it runs
 * after every thread already ready) or, with at_tail false, as the new head. */
static inline __attribute__((always_inline)) void z_ready_link(struct k_thread *t, int at_tail)
{
    unsigned p = t->z_prio;
    K_ASSERT(p < K_CONFIG_PRIO_LEVELS);
    struct k_thread *tail = z_kernel.ready[p];
    if (tail) {
        t->z_next = tail->z_next;
        tail->z_next = t;
        if (at_tail)
            z_kernel.ready[p] = t;
    } else {
        t->z_next = t;
        z_kernel.bitmap |= Z_PRIO_BIT(p);
        z_kernel.ready[p] = t;
    }
    t->z_state = Z_STATE_READY;
}

Z_SCHED_FN void z_ready_add_tail(struct k_thread *t)
{
    z_ready_link(t, 1);
}

Z_SCHED_FN void z_ready_add_head(struct k_thread *t)
{
    z_ready_link(t, 0);
}

Z_SCHED_FN void z_ready_remove(struct k_thread *t)
{
    unsigned p = t->z_prio;
    struct k_thread *tail = z_kernel.ready[p];
    K_ASSERT(t->z_state == Z_STATE_READY && tail && (z_kernel.bitmap & Z_PRIO_BIT(p)));
    if (t->z_next == t) {
        z_kernel.ready[p] = NULL;
        z_kernel.bitmap &= ~Z_PRIO_BIT(p);
        return;
    }
    struct k_thread *prev = tail;
    while (prev->z_next != t)
        prev = prev->z_next;
    prev->z_next = t->z_next;
    if (tail == t)
        z_kernel.ready[p] = prev;
}

#endif

Z_SCHED_FN void z_reschedule(void)
{
    /* Callers are thread-only calls that have already refused interrupt context. */
    struct k_thread *cur = z_kernel.current;
    struct k_thread *next = z_top();
    K_ASSERT_THREAD();
    K_ASSERT_LOCKED();
    K_ASSERT(!next || !cur || cur->z_state != Z_STATE_READY || next->z_prio >= cur->z_prio);
    if (next == cur || !cur) {
        arch_irq_enable();
        return;
    }
    z_switch_to(cur, next);
}

#if K_CONFIG_SYNC_SWITCH
Z_SCHED_FN int z_switch_away(struct k_thread *cur)
{
    struct k_thread *next = z_top();
    if (next)
        return arch_switch(cur, next);
    return arch_switch_pend(cur);
}
#endif

#if Z_HAS_WAIT_OBJ
Z_SCHED_FN void z_wake(struct k_thread *t, int result)
{
    K_ASSERT(Z_STATE_IS_BLOCKED(t->z_state));
#if K_CONFIG_WAIT_TIMEOUT
    if (!Z_NOT_TIMED(t))
        z_timeout_remove(t);
#else
    K_ASSERT(Z_NOT_TIMED(t)); /* (see below) */
#endif
    t->z_wait.result = result;
    z_ready_add_tail(t);
}
#endif

#else

#if !K_CONFIG_READY_LIST
struct k_thread *z_top(void);
#endif
void z_ready_add_tail(struct k_thread *t);
void z_ready_add_head(struct k_thread *t);
#if !K_CONFIG_READY_LIST
void z_ready_remove(struct k_thread *t);
#endif
void z_reschedule(void);
#if K_CONFIG_SYNC_SWITCH
int z_switch_away(struct k_thread *cur);
#endif
#if Z_HAS_WAIT_OBJ
void z_wake(struct k_thread *t, int result);
#endif

#endif

/* The top thread when the caller knows that it has priority `p`: nothing above p is ready
 * and p's ring is not empty (O(1), no bitmap search). */
static inline __attribute__((always_inline)) struct k_thread *z_top_at(unsigned p)
{
#if K_CONFIG_READY_LIST
    (void)p;
    return z_kernel.ready;
#else
    K_ASSERT(z_kernel.ready[p] && z_top() == z_kernel.ready[p]->z_next);
    return z_kernel.ready[p]->z_next;
#endif
}

/* `t` has just been made ready by the running thread (thread context, after k_start, IRQs
 * disabled): run it now if it outranks the caller, which is the top thread until then (alone
 * at its priority then: no bitmap search, as z_reschedule would make); enables IRQs. */
static inline __attribute__((always_inline)) void z_reschedule_readied(struct k_thread *t)
{
#if K_CONFIG_SYNC_SWITCH && !K_CONFIG_READY_LIST
    struct k_thread *cur = z_kernel.current;
    K_ASSERT(cur && z_top() == (t->z_prio > cur->z_prio ? t : cur));
    if (t->z_prio > cur->z_prio)
        z_switch_to(cur, t);
    else
        arch_irq_enable();
#else
    (void)t;
    z_reschedule();
#endif
}

/* The end of a thread call that may have readied a thread outranking the caller, with
 * `key` the arch_irq_lock() it entered with (issue 31): a caller with interrupts masked
 * keeps its mask, the switch pended (PendSV runs as it unmasks); otherwise z_reschedule. */
static inline __attribute__((always_inline)) void z_reschedule_key(uint32_t key)
{
    if (Z_UNLIKELY(arch_irq_key_masked(key))) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule();
    }
}

static inline __attribute__((always_inline)) void z_reschedule_readied_key(struct k_thread *t,
                                                                           uint32_t key)
{
    if (Z_UNLIKELY(arch_irq_key_masked(key))) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule_readied(t);
    }
}

#if !Z_HAS_WAIT_OBJ
/* No wait objects, hence no wait timeouts: only sleepers are timed, and the alarm unlinks
 * them before it wakes them; no result to store (a wait always succeeds). */
static inline __attribute__((always_inline)) void z_wake(struct k_thread *t, int result)
{
    K_ASSERT(t->z_state == Z_STATE_BLOCKED && Z_NOT_TIMED(t));
    (void)result;
    z_ready_add_tail(t);
}
#endif

#if K_CONFIG_DESTROY
/* Wake every thread of wait queue `q` with `result` (an object being destroyed). Inline:
 * each object's destroy keeps its own loop, with z_wake inlined as before. */
static inline __attribute__((always_inline)) void z_waitq_wake_all(struct k_thread **q, int result)
{
    struct k_thread *w;
    while ((w = *q) != NULL) {
        *q = w->z_next;
        z_wake(w, result);
    }
}
#endif
#endif
