/*
 * Mutexes: ownership, transitive priority inheritance, deadlock detection.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * The uncontended paths touch only the owner field. Inheritance is computed from the
 * kernel's list of contended mutexes (those with waiters): a thread's effective priority is
 * the highest of its base priority and the top waiter of every contended mutex it owns.
 * When that changes for a thread that itself waits on a mutex, the change propagates to that
 * mutex's owner, and so on along the chain (which has no cycle: a lock that would close one
 * fails with K_EDEADLK).
 */
#include "kernel_internal.h"

#if K_CONFIG_MUTEX

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_MUTEX_OK(m) ((m) && (m)->z_type == Z_OBJ_MUTEX)
/* The lock word (kernel.h) of a mutex main() holds before k_start: no thread owns it */
#define Z_MUTEX_MAIN ((uintptr_t)0)
/* Z_MUTEX_FREE (kernel.h) under the kernel's own name for the symbol, so that the compiler
 * shares the address with the loads of z_kernel.current */
#undef Z_MUTEX_FREE
#define Z_MUTEX_FREE ((uintptr_t)&z_kernel)

/* The owner of a mutex that is held (contended, or waited on): the lock word (kernel.h)
 * without the flag */
#define Z_OWNER(m) ((struct k_thread *)((m)->z_owner & ~(uintptr_t)3u))
/* The owner of any mutex: NULL when free or held by main() */
static inline struct k_thread *z_owner(const struct k_mutex *m)
{
    uintptr_t w = m->z_owner;
    return w == Z_MUTEX_FREE ? NULL : (struct k_thread *)(w & ~(uintptr_t)3u);
}

/* Make `t` the owner (NULL: free), keeping the waiter flag. */
static void z_owner_set(struct k_mutex *m, struct k_thread *t)
{
    m->z_owner = t ? ((uintptr_t)t | (m->z_owner & Z_MUTEX_WAITERS)) : Z_MUTEX_FREE;
}

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

static void z_contended_add(struct k_mutex *m)
{
    m->z_cnext = z_kernel.contended;
    z_kernel.contended = m;
    m->z_owner |= Z_MUTEX_WAITERS; /* the inline unlock no longer matches the owner */
}

static void z_contended_remove(struct k_mutex *m)
{
    struct k_mutex **pp = &z_kernel.contended, *c;
    while ((c = *pp) != NULL) {
        if (c == m) {
            *pp = m->z_cnext;
            break;
        }
        pp = &c->z_cnext;
    }
    m->z_cnext = NULL;
    m->z_owner &= ~(uintptr_t)Z_MUTEX_WAITERS;
}

/* The priority `t` should run at: its base or the best waiter of what it owns (one copy of
 * z_prio_lent's loop for the mutex code's four callers). */
static unsigned z_inherited(const struct k_thread *t)
{
    return z_prio_lent(t, t->z_base);
}

/* Give `m` to its top waiter, which becomes ready. IRQs disabled. */
static void z_handover(struct k_mutex *m)
{
    struct k_thread *w = m->z_waitq;
    K_ASSERT(w && w->z_state == Z_STATE_BLOCKED_MUTEX && w->z_wait.obj == m);
    m->z_waitq = w->z_next;
    z_owner_set(m, w);
    if (!m->z_waitq)
        z_contended_remove(m);
    z_wake(w, 0);
    unsigned p = z_inherited(w);
    if (p != w->z_prio)
        z_set_prio(w, p);
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

void z_mutex_waiters_changed(struct k_mutex *m)
{
    if (!m->z_waitq)
        z_contended_remove(m);
    struct k_thread *o = Z_OWNER(m);
    if (o && o->z_state != Z_STATE_DEAD) {
        unsigned p = z_inherited(o);
        if (p != o->z_prio)
            z_set_prio(o, p); /* follows the chain if o waits on a mutex itself */
    }
}

void z_mutex_release_all(struct k_thread *t)
{
    struct k_mutex *m = z_kernel.contended;
    while (m) {
        struct k_mutex *next = m->z_cnext;
        if (Z_OWNER(m) == t)
            z_handover(m);
        m = next;
    }
}

/* ---- API ----------------------------------------------------------------------------------- */

int k_mutex_init(struct k_mutex *m)
{
    Z_CHECK(m, K_EINVAL);
    /* (no critical section: initialising an object other threads may be using is a race
     * of the caller's; this refuses an object found in use) */
    if (m->z_type == Z_OBJ_MUTEX && m->z_owner != Z_MUTEX_FREE)
        return K_EBUSY; /* locked (by a thread or main), maybe waited on: destroy it first */
    m->z_waitq = NULL;
    m->z_owner = Z_MUTEX_FREE;
    m->z_cnext = NULL;
    m->z_type = Z_OBJ_MUTEX;
    return 0;
}

int Z_FAST(mutex_lock)(struct k_mutex *m, k_timeout_t timeout)
{
    Z_CHECK(Z_MUTEX_OK(m), K_EINVAL);
    if (arch_in_isr())
        return K_EISR; /* threads only (kernel.h): an interrupt has no owner to record */
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    struct k_thread *cur = z_kernel.current;
    struct k_thread *o = z_owner(m);
    if (!o) {
        int r = 0;
        if (cur)
            z_owner_set(m, cur); /* free, or left by main() */
        else if (m->z_owner == Z_MUTEX_MAIN)
            r = K_EDEADLK; /* main() before k_start, locking again what it holds */
        else
            m->z_owner = Z_MUTEX_MAIN; /* main() before k_start: held until k_start */
        arch_irq_unlock(key);
        return r;
    }
    if (o->z_state == Z_STATE_DEAD) { /* the owner ended without unlocking */
        z_owner_set(m, cur);
        arch_irq_unlock(key);
        return 0;
    }
    int masked = arch_irq_key_masked(key); /* (then it cannot block: K_EMASKED below) */
    if (o->z_state == Z_STATE_READY && o != cur && timeout == K_FOREVER && !masked
#if Z_LAZY_TIMEOUTS
        && Z_NOT_TIMED(cur)
#endif
    ) {
        /* The usual contention: the owner is ready (it waits on nothing, so there is no
         * chain to follow and no cycle to close), the caller waits without timeout. The
         * steps of z_block_prepare and z_set_prio, inline and without their general cases;
         * the caller is the running thread, the head of its ring. */
        K_ASSERT(z_top() == cur);
        unsigned p = cur->z_prio;
        z_ready_remove(cur);
        cur->z_state = Z_STATE_BLOCKED_MUTEX;
        cur->z_wait.obj = m;
        struct k_thread **q = &m->z_waitq, *w;
        if (!*q)
            z_contended_add(m);
        while ((w = *q) != NULL && w->z_prio >= p)
            q = &w->z_next;
        cur->z_next = w;
        *q = cur;
        if (p > o->z_prio) { /* inherit: o moves to the back of the caller's ring */
            z_ready_remove(o);
            o->z_prio = (uint8_t)p;
            z_ready_add_tail(o);
        }
        /* the caller was the top thread: o, now at p, or one ahead of it, runs next */
        return arch_switch(cur, z_top_at(p));
    }
    /* Would waiting close a cycle? Follow owner -> mutex it waits on -> its owner ... */
    for (struct k_thread *t = o; t;) {
        if (t == cur) {
            arch_irq_unlock(key);
            return K_EDEADLK;
        }
        if (t->z_state != Z_STATE_BLOCKED_MUTEX)
            break;
        t = Z_OWNER((struct k_mutex *)t->z_wait.obj);
    }
    if (timeout == K_NO_WAIT || Z_UNLIKELY(masked)) {
        arch_irq_unlock(key);
        return timeout == K_NO_WAIT ? K_EAGAIN : K_EMASKED;
    }
    if (!m->z_waitq)
        z_contended_add(m);
    /* (The timeout counts from the clock as the caller blocks, not from the call's entry as
     * for the other objects: the unlock's slow path unmasks interrupts before it hands the
     * mutex over, and with the earlier deadline an unlock begun 39 cycles before the
     * earliest possible deadline lost to the alarm: ktest_kernel's timeout_never_early.) */
    z_block_prepare(&m->z_waitq, Z_STATE_BLOCKED_MUTEX Z_TIMEOUT_ARG(timeout, Z_WAIT_START()));
    if (cur->z_prio > o->z_prio)
        z_set_prio(o, cur->z_prio); /* transitive through z_mutex_waiters_changed */
    return z_switch_away(cur);
}

int Z_FAST(mutex_unlock)(struct k_mutex *m)
{
    Z_CHECK(Z_MUTEX_OK(m), K_EINVAL);
    if (arch_in_isr())
        return K_EISR; /* threads only, as the lock */
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    struct k_thread *cur = z_kernel.current;
    if (z_owner(m) != cur || m->z_owner == Z_MUTEX_FREE) { /* (free: not main's either) */
        arch_irq_unlock(key);
        return K_EPERM;
    }
    if (!m->z_waitq) {
        z_owner_set(m, NULL);
        arch_irq_unlock(key);
        return 0;
    }
    struct k_thread *w = m->z_waitq;
    if (!w->z_next && z_kernel.contended == m && !m->z_cnext && !arch_irq_key_masked(key)) {
        /* The usual hand-over: one waiter, no other contended mutex, so that neither the
         * waiter nor the caller inherits anything afterwards (both run at their base
         * priority: the waiter's is its priority already). z_handover and z_set_prio
         * without their general cases. */
        K_ASSERT(w->z_state == Z_STATE_BLOCKED_MUTEX && w->z_wait.obj == m);
        K_ASSERT(w->z_prio == w->z_base);
        m->z_waitq = NULL;
        z_kernel.contended = NULL;
        m->z_owner = (uintptr_t)w;
        z_wake(w, 0);
        unsigned b = cur->z_base;
        if (cur->z_prio != b) { /* drop what it inherited: the head of its base ring */
            z_ready_remove(cur);
            cur->z_prio = (uint8_t)b;
            z_ready_add_head(cur);
        }
        unsigned wp = w->z_prio;
        if (wp > b) /* the caller ran at wp, the top: the waiter, or one ahead of it, runs */
            arch_switch(cur, z_top_at(wp));
        else if (z_top() != cur)
            arch_switch(cur, z_top());
        else
            arch_irq_enable();
        return 0;
    }
    z_handover(m);
    if (cur->z_prio != cur->z_base)
        z_set_prio(cur, z_inherited(cur));
    z_reschedule_key(key); /* (masked: the switch pended) */
    return 0;
}

#if K_CONFIG_DESTROY
int k_mutex_destroy(struct k_mutex *m)
{
    Z_CHECK(Z_MUTEX_OK(m), K_EINVAL);
    Z_CHECK(!arch_in_isr(), K_EISR);
    uint32_t key = arch_irq_lock();
    struct k_thread *cur = z_kernel.current;
    struct k_thread *o = z_owner(m);
    if (o && o != cur && o->z_state != Z_STATE_DEAD) {
        arch_irq_unlock(key);
        return K_EPERM;
    }
    z_waitq_wake_all(&m->z_waitq, K_EDESTROYED);
    z_contended_remove(m);
    m->z_owner = 0; /* no longer a mutex: the inline lock does not match */
    m->z_type = 0;
    if (cur && cur->z_prio != cur->z_base)
        z_set_prio(cur, z_inherited(cur));
    z_reschedule_key(key);
    return 0;
}
#endif

#endif /* K_CONFIG_MUTEX */
