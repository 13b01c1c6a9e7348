/*
 * Scheduler: ready rings, the O(1) choice of the next thread, wait queues, blocking and
 * waking, priority changes.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * Ready structure: one ring (circular singly linked list) per priority, the kernel keeping a
 * pointer to its tail (so head = tail->z_next), plus a bitmap of non-empty rings. The running
 * thread stays at the head of its ring; the bitmap's top priority, found with a small table
 * (Cortex-M0 has no CLZ), names the ring whose head runs next. K_CONFIG_READY_LIST (the
 * footprint build) keeps instead one list sorted by priority, whose head runs next, with the
 * wait queues' insertion and removal. The hot primitives are in sched.h (inlined, or defined
 * here when K_CONFIG_INLINE=0).
 */
#include <stddef.h>

#define Z_SCHED_DEFINE /* the non-inline build defines the primitives of sched.h here */
#include "kernel_internal.h"
#include "offsets.h"

_Static_assert(offsetof(struct k_thread, z_sp) == ZT_SP, "offset");
_Static_assert(offsetof(struct k_thread, z_next) == ZT_NEXT, "offset");
#if K_CONFIG_STACK_CHECK
_Static_assert(offsetof(struct k_thread, z_lim) == ZT_LIM, "offset");
#endif
#if Z_HAS_WAIT_OBJ
_Static_assert(offsetof(struct k_thread, z_wait) == ZT_WAIT, "offset");
#endif
_Static_assert(offsetof(struct k_thread, z_tnext) == ZT_TNEXT, "offset");
_Static_assert(offsetof(struct k_thread, z_prio) == ZT_PRIO, "offset");
_Static_assert(offsetof(struct k_thread, z_state) == ZT_STATE, "offset");
_Static_assert(offsetof(struct k_thread, z_base) == ZT_BASE, "offset");
#if K_CONFIG_MUTEX
_Static_assert(offsetof(struct z_kernel, contended) == ZK_CONTENDED, "offset");
#endif
_Static_assert(offsetof(struct z_kernel, ready) == ZK_READY, "offset");
#if !K_CONFIG_READY_LIST
_Static_assert(offsetof(struct z_kernel, bitmap) == ZK_BITMAP, "offset");
_Static_assert(offsetof(struct z_kernel, pendsv_saved) == ZK_SAVED, "offset");
#endif
_Static_assert(offsetof(struct k_sem, z_count) == ZS_COUNT, "offset");
_Static_assert(offsetof(struct k_sem, z_type) == ZS_TYPE, "offset");
_Static_assert(offsetof(struct k_mutex, z_owner) == ZM_OWNER, "offset");
_Static_assert(offsetof(struct k_mutex, z_type) == ZM_TYPE, "offset");
_Static_assert(offsetof(struct k_mutex, z_waitq) == ZM_WAITQ, "offset");
_Static_assert(offsetof(struct k_mutex, z_cnext) == ZM_CNEXT, "offset");
_Static_assert(Z_STATE_BLOCKED_MUTEX == ZS_BLOCKED_MUTEX && Z_STATE_SUSPENDED == ZS_SUSPENDED, "state");
_Static_assert(Z_STATE_READY == ZS_READY && Z_STATE_BLOCKED == ZS_BLOCKED, "state");
/* A waiter's z_wait.obj is the address of the wait queue it is on (z_block sets it;
 * z_waitq_remove on a timeout, an abort or a priority change): the objects that the code
 * finds from it (the mutex's C and assembly, the objects' hooks) must have the wait queue
 * first. */
_Static_assert(offsetof(struct k_sem, z_waitq) == 0, "the wait queue first");
_Static_assert(offsetof(struct k_mutex, z_waitq) == 0, "the wait queue first");
#if K_CONFIG_EVENT
_Static_assert(offsetof(struct k_event, z_waitq) == 0, "the wait queue first");
#endif
_Static_assert(Z_OBJ_SEM == ZO_SEM && Z_OBJ_MUTEX == ZO_MUTEX && Z_OBJ_MEMPOOL == ZO_MEMPOOL &&
                   Z_OBJ_QUEUE == ZO_QUEUE,
               "type");
#if K_CONFIG_QUEUE
_Static_assert(offsetof(struct k_queue, z_waitq) == ZQ_WAITQ, "offset");
_Static_assert(offsetof(struct k_queue, z_swaitq) == ZQ_SWAITQ, "offset");
_Static_assert(offsetof(struct k_queue, z_buf) == ZQ_BUF, "offset");
_Static_assert(offsetof(struct k_queue, z_count) == ZQ_COUNT, "offset");
_Static_assert(offsetof(struct k_queue, z_type) == ZQ_TYPE, "offset");
_Static_assert(offsetof(struct k_queue, z_item) == ZQ_ITEM, "offset");
_Static_assert(offsetof(struct k_queue, z_cap) == ZQ_CAP, "offset");
_Static_assert(offsetof(struct k_queue, z_head) == ZQ_HEAD, "offset");
#endif
#if K_CONFIG_MEMPOOL
_Static_assert(offsetof(struct k_mempool, z_free) == ZP_FREE, "offset");
_Static_assert(offsetof(struct k_mempool, z_buf) == ZP_BUF, "offset");
_Static_assert(offsetof(struct k_mempool, z_used) == ZP_USED, "offset");
_Static_assert(offsetof(struct k_mempool, z_block) == ZP_BLOCK, "offset");
_Static_assert(offsetof(struct k_mempool, z_count) == ZP_COUNT, "offset");
_Static_assert(offsetof(struct k_mempool, z_type) == ZP_TYPE, "offset");
_Static_assert(offsetof(struct k_mempool, z_shift) == ZP_SHIFT, "offset");
#endif

/* ---- Definitions --------------------------------------------------------------------------- */

#if K_CONFIG_READY_LIST
/* (no table) */
#elif K_CONFIG_PRIO_LEVELS > 8
const uint8_t z_debruijn[32] = {0,  1,  28, 2,  29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
                                31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9};
#else
const uint8_t z_msb4[16] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
#endif

/* ---- State --------------------------------------------------------------------------------- */

#if K_CONFIG_MUTEX && K_CONFIG_FASTPATH
/* In .data, so below every thread stack (.bss or above) and above the interrupt stack (the
 * bottom of RAM): the mutex fast paths tell a thread from an interrupt by comparing SP with
 * this address (kernel.h). Costs its size in flash (the initial image). */
__attribute__((section(".data.z_kernel")))
#endif
struct z_kernel z_kernel;

/* ---- Internal functions -------------------------------------------------------------------- */

/* (none) */

/* ---- Kernel-internal API ------------------------------------------------------------------- */

void z_reschedule_isr(void)
{
    K_ASSERT_LOCKED();
#if Z_IDLE_NO_CURRENT && !K_CONFIG_SUSPEND
    /* (no `started` test: before k_start z_kernel.current is NULL as while idle, but no
     * interrupt can ready a thread then: it only wakes waiters, and nobody waits yet; a
     * suspended thread, which k_thread_resume_isr readies, may exist) */
    if (z_top() != z_kernel.current)
#else
    if (Z_STARTED() && z_top() != z_kernel.current)
#endif
        arch_pend_switch();
}

void z_list_insert(struct k_thread **q, struct k_thread *t, unsigned p)
{
    K_ASSERT_LOCKED();
    struct k_thread *w;
    while ((w = *q) != NULL && w->z_prio >= p)
        q = &w->z_next;
    t->z_next = w;
    *q = t;
}

#if !K_CONFIG_READY_LIST && K_CONFIG_SYNC_SWITCH
__attribute__((noinline)) void z_switch_to(struct k_thread *cur, struct k_thread *next)
{
    if (next)
        arch_switch(cur, next);
    else
        arch_switch_pend(cur);
}
#endif

void z_waitq_remove(struct k_thread **q, struct k_thread *t)
{
    K_ASSERT_LOCKED();
    struct k_thread *w;
    while ((w = *q) != NULL) {
        if (w == t) {
            *q = t->z_next;
            return;
        }
        q = &w->z_next;
    }
}

#if !K_CONFIG_MUTEX
static /* (z_block is the only caller: inlined there) */
#endif
void z_block_prepare(struct k_thread **q, uint8_t state Z_TIMEOUT_PARAM)
{
    struct k_thread *cur = z_kernel.current;
    K_ASSERT_THREAD();
    K_ASSERT_LOCKED();
    K_ASSERT(cur->z_state == Z_STATE_READY);
#if !K_CONFIG_READY_LIST
    K_ASSERT(z_kernel.ready[cur->z_prio]->z_next == cur); /* the running thread is the head */
#endif
    z_ready_remove(cur);
    cur->z_state = state;
#if Z_HAS_WAIT_OBJ
    cur->z_wait.obj = q;
#endif
    if (q)
        z_waitq_insert(q, cur);
#if K_CONFIG_WAIT_TIMEOUT
    if (timeout != K_FOREVER) {
        if (timeout > K_TIMEOUT_MAX)
            timeout = K_TIMEOUT_MAX;
        /* the expiry is the deadline itself, without the lead (time.c): the waiter stays
         * on the wait queue, wakeable, until then */
        z_timeout_add(cur, start + timeout + Z_TICK_ROUND);
    }
#if Z_LAZY_TIMEOUTS
    else if (!Z_NOT_TIMED(cur)) {
        z_timeout_remove(cur); /* stale */
    }
#endif
#endif
}

int z_block(struct k_thread **q, uint8_t state Z_TIMEOUT_PARAM)
{
    struct k_thread *cur = z_kernel.current;
    z_block_prepare(q, state Z_TIMEOUT_ARG(timeout, start));
    return z_switch_away(cur); /* (a timed wait expires at its deadline: nothing to spin) */
}

void z_set_prio(struct k_thread *t, unsigned prio)
{
    K_ASSERT_LOCKED();
    if (t->z_prio == prio)
        return;
    switch (t->z_state) {
    case Z_STATE_READY:
        z_ready_remove(t);
        t->z_prio = (uint8_t)prio;
        if (t == z_kernel.current)
            z_ready_add_head(t);
        else
            z_ready_add_tail(t);
        break;
#if Z_HAS_WAIT_OBJ
    case Z_STATE_BLOCKED:
    case Z_STATE_BLOCKED_MUTEX: {
        struct k_thread **q = (struct k_thread **)t->z_wait.obj;
        if (q) {
            z_waitq_remove(q, t);
            t->z_prio = (uint8_t)prio;
            z_waitq_insert(q, t);
            z_waiter_left(t->z_state, q); /* (moved: its place may lend another priority) */
        } else {
            t->z_prio = (uint8_t)prio;
        }
        break;
    }
#endif
    default:
        t->z_prio = (uint8_t)prio;
        break;
    }
}

void z_stack_check(struct k_thread *t, uint32_t sp)
{
#if K_CONFIG_STACK_CHECK
    uint32_t lim = t->z_lim;
    if (sp <= lim || *(volatile uint32_t *)lim != lim)
        k_fatal(K_ESTACK, t);
#else
    (void)t, (void)sp;
#endif
}

struct k_thread *z_sched_pendsv(uint32_t sp)
{
    /* sp 0: PendSV left the idle loop, the current thread was saved when it left */
    arch_irq_disable();
    if (sp) {
        struct k_thread *cur = z_kernel.current;
        cur->z_sp = sp;
        z_stack_check(cur, sp & ~1u);
    }
#if K_CONFIG_READY_LIST
    K_ASSERT(!z_top() || z_top()->z_state == Z_STATE_READY);
#else
    K_ASSERT(!z_kernel.bitmap || z_top()->z_state == Z_STATE_READY);
#endif
    struct k_thread *next = z_top();
#if Z_IDLE_NO_CURRENT
    z_kernel.current = next; /* (NULL: the idle loop, config.h) */
#else
    if (next)
        z_kernel.current = next; /* (else the idle loop: the current thread stays) */
#endif
    return next;
}

/* ---- API ----------------------------------------------------------------------------------- */

/* (none) */
