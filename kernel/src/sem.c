/*
 * Counting semaphores.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * A signal with waiters hands the unit straight to the highest-priority waiter (the count
 * stays 0), so a woken thread never has to compete for it again; a waiter of higher priority
 * than the signalling thread runs at once (a synchronous switch from a thread, PendSV from
 * an interrupt).
 */
#include "kernel_internal.h"

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_SEM_OK(s) ((s) && (s)->z_type == Z_OBJ_SEM)

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

/* IRQs disabled. Returns the woken thread, NULL if the unit was counted, or (void *)1 when
 * the count is at its limit. */
static inline struct k_thread *z_sem_give(struct k_sem *s)
{
    struct k_thread *w = s->z_waitq;
    if (w) {
        s->z_waitq = w->z_next;
        z_wake(w, 0);
        if ((uintptr_t)w <= 1u)
            __builtin_unreachable(); /* (a thread's address: its callers' tests of w > 1 fold) */
        return w;
    }
    unsigned limit = s->z_limit ? s->z_limit : 0xFFFFu;
    if (s->z_count >= limit)
        return (struct k_thread *)1;
    s->z_count++;
    return NULL;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* (none) */

/* ---- API ----------------------------------------------------------------------------------- */

int k_sem_init(struct k_sem *s, unsigned initial, unsigned limit)
{
    Z_CHECK(s && limit <= 255u && initial <= (limit ? limit : 0xFFFFu), K_EINVAL);
    /* (no critical section: initialising an object other threads may be using is a race
     * of the caller's; this refuses an object found in use) */
    if (s->z_type == Z_OBJ_SEM && s->z_waitq)
        return K_EBUSY; /* its waiters would wait forever: destroy it first (kernel.h) */
    s->z_waitq = NULL;
    s->z_count = (uint16_t)initial;
    s->z_limit = (uint8_t)limit;
    s->z_type = Z_OBJ_SEM;
    return 0;
}

int Z_FAST(sem_wait)(struct k_sem *s, k_timeout_t timeout)
{
    uint32_t start = Z_WAIT_START(); /* (a finite timeout counts from here) */
    (void)start;
    Z_CHECK(Z_SEM_OK(s), K_EINVAL);
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    int r = 0;
    if (s->z_count)
        s->z_count--;
    else if (timeout == K_NO_WAIT)
        r = K_EAGAIN;
    else if (Z_UNLIKELY(arch_irq_key_masked(key)))
        r = K_EMASKED; /* it would block: refused, the mask kept */
    else
        goto wait;
    arch_irq_unlock(key);
    return r;
wait:
#if K_CONFIG_CHECKS
    if (Z_UNLIKELY(arch_in_isr() || !z_kernel.current)) {
        arch_irq_enable();
        return z_kernel.current ? K_EISR : K_ESTATE;
    }
#endif
    return z_block(&s->z_waitq, Z_STATE_BLOCKED Z_TIMEOUT_ARG(timeout, start));
}

#if !K_CONFIG_SYNC_SWITCH
/* Every switch goes through PendSV: the one k_sem_signal_isr pends happens as soon as the
 * calling thread unmasks interrupts, so the thread call is the interrupt one (below). */
int k_sem_signal(struct k_sem *s) __attribute__((alias("k_sem_signal_isr")));
#else
int Z_FAST(sem_signal)(struct k_sem *s)
{
    if (Z_UNLIKELY(arch_irq_masked()))
        return Z_FAST(sem_signal_isr)(s); /* masked: the mask kept, the switch pended */
    Z_CHECK(Z_SEM_OK(s), K_EINVAL);
    arch_irq_disable();
    struct k_thread *w = z_sem_give(s);
    if ((uintptr_t)w > 1u) {
        struct k_thread *cur = z_kernel.current;
        if (w->z_prio > cur->z_prio) {
#if K_CONFIG_CHECKS
            if (Z_UNLIKELY(arch_in_isr())) {
                arch_pend_switch();
                arch_irq_enable();
                return 0;
            }
#endif
            z_switch_to(cur, w);
            return 0;
        }
    }
    arch_irq_enable();
    return w == (struct k_thread *)1 ? K_EOVERFLOW : 0;
}
#endif

int Z_FAST(sem_signal_isr)(struct k_sem *s)
{
    Z_CHECK(Z_SEM_OK(s), K_EINVAL);
    uint32_t key = arch_irq_lock();
    struct k_thread *w = z_sem_give(s);
#if K_CONFIG_SYNC_SWITCH
    if ((uintptr_t)w > 1u && Z_STARTED() && w->z_prio > z_kernel.current->z_prio)
        arch_pend_switch();
#else
    if ((uintptr_t)w > 1u)
        z_reschedule_isr(); /* (pends PendSV if the woken thread now comes first) */
#endif
    arch_irq_unlock(key);
    return w == (struct k_thread *)1 ? K_EOVERFLOW : 0;
}

#if !K_CONFIG_FASTPATH || K_CONFIG_ASSERT
/* (the fast-path build has an assembly version; with assertions, this one checks the
 * precondition and the assembly one is not built) */
int k_sem_signal_irq(struct k_sem *s)
{
#if K_CONFIG_ASSERT
    uint32_t key = arch_irq_lock();
    arch_irq_unlock(key);
    K_ASSERT(arch_in_isr() && key == 0u);
#endif
    return k_sem_signal_isr(s);
}
#endif

int k_sem_count(const struct k_sem *s)
{
    Z_CHECK(Z_SEM_OK(s), K_EINVAL);
    return s->z_count;
}

#if K_CONFIG_DESTROY
int k_sem_destroy(struct k_sem *s)
{
    Z_CHECK(Z_SEM_OK(s), K_EINVAL);
    uint32_t key = arch_irq_lock();
    z_waitq_wake_all(&s->z_waitq, K_EDESTROYED);
    s->z_type = 0;
    if (arch_in_isr() || !Z_STARTED() || arch_irq_key_masked(key)) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule();
    }
    return 0;
}
#endif
