/*
 * Event flags: 32 flags per object; threads wait for any or all of a set of them, with a
 * timeout, optionally consuming them. Set and clear from threads and interrupts.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * A waiter records what it waits for in its thread (z_evbits, the options in z_pad) and
 * blocks on the event's wait queue with the kernel's common code (z_block), so timeouts,
 * aborts and priority changes take it off the queue like any other waiter. A set walks the
 * queue in priority order and wakes every waiter it satisfies, storing in z_evbits the
 * flags that satisfied it; a K_EVENT_CLEAR waiter consumes them at once, so a waiter
 * behind it that wanted the same flags keeps waiting.
 */
#include "kernel_internal.h"

#if K_CONFIG_EVENT

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_EVENT_OK(e) ((e) && (e)->z_type == Z_OBJ_EVENT)
#define Z_EVENT_OPTIONS (K_EVENT_ALL | K_EVENT_CLEAR)

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

/* The flags among `want` that satisfy a wait with `options` on flags `have`, or 0. */
static inline uint32_t z_event_match(uint32_t have, uint32_t want, unsigned options)
{
    uint32_t m = have & want;
    if ((options & K_EVENT_ALL) && m != want)
        return 0;
    return m;
}

/* Set `bits` and wake the waiters they satisfy; IRQs disabled. Returns nonzero if it woke
 * any. */
static int z_event_post(struct k_event *e, uint32_t bits)
{
    struct k_thread **pp = &e->z_waitq, *w;
    int woke = 0;
    e->z_bits |= bits;
    while ((w = *pp) != NULL) {
        uint32_t m = z_event_match(e->z_bits, w->z_evbits, w->z_pad);
        if (!m) {
            pp = &w->z_next;
            continue;
        }
        *pp = w->z_next;
        w->z_evbits = m;
        if (w->z_pad & K_EVENT_CLEAR)
            e->z_bits &= ~m;
        z_wake(w, 0);
        woke = 1;
    }
    return woke;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* (none) */

/* ---- API ----------------------------------------------------------------------------------- */

int k_event_init(struct k_event *e, uint32_t bits)
{
    Z_CHECK(e, K_EINVAL);
    /* (no critical section: initialising an object in use is the caller's race; this
     * refuses one found with waiters, as k_sem_init does) */
    if (e->z_type == Z_OBJ_EVENT && e->z_waitq)
        return K_EBUSY;
    e->z_waitq = NULL;
    e->z_bits = bits;
    e->z_type = Z_OBJ_EVENT;
    return 0;
}

int k_event_wait(struct k_event *e, uint32_t bits, unsigned options, k_timeout_t timeout,
                 uint32_t *got)
{
    uint32_t start = Z_WAIT_START(); /* (a finite timeout counts from here) */
    (void)start;
    Z_CHECK(Z_EVENT_OK(e) && bits && !(options & ~Z_EVENT_OPTIONS), K_EINVAL);
    uint32_t key = arch_irq_lock();
    uint32_t m = z_event_match(e->z_bits, bits, options);
    if (m) {
        if (options & K_EVENT_CLEAR)
            e->z_bits &= ~m;
        arch_irq_unlock(key);
        if (got)
            *got = m;
        return 0;
    }
    if (timeout == K_NO_WAIT) {
        arch_irq_unlock(key);
        return K_EAGAIN;
    }
    if (arch_in_isr() || !z_kernel.current || arch_irq_key_masked(key)) {
        arch_irq_unlock(key);
        return arch_irq_key_masked(key) ? K_EMASKED : z_kernel.current ? K_EISR : K_ESTATE;
    }
    struct k_thread *cur = z_kernel.current;
    cur->z_evbits = bits;
    cur->z_pad = (uint8_t)options;
    int r = z_block(&e->z_waitq, Z_STATE_BLOCKED Z_TIMEOUT_ARG(timeout, start)); /* (enables IRQs) */
    if (r == 0 && got)
        *got = cur->z_evbits;
    return r;
}

int k_event_set_isr(struct k_event *e, uint32_t bits)
{
    Z_CHECK(Z_EVENT_OK(e), K_EINVAL);
    uint32_t key = arch_irq_lock();
    if (z_event_post(e, bits))
        z_reschedule_isr(); /* (pends PendSV if a woken thread now comes first) */
    arch_irq_unlock(key);
    return 0;
}

int k_event_set(struct k_event *e, uint32_t bits)
{
    Z_CHECK(Z_EVENT_OK(e), K_EINVAL);
    if (arch_in_isr() || !Z_STARTED() || arch_irq_masked())
        return k_event_set_isr(e, bits); /* (masked: the mask kept, the switch pended) */
    arch_irq_disable();
    if (z_event_post(e, bits))
        z_reschedule(); /* a woken thread of higher priority runs now (enables IRQs) */
    else
        arch_irq_enable();
    return 0;
}

int k_event_clear(struct k_event *e, uint32_t bits)
{
    Z_CHECK(Z_EVENT_OK(e), K_EINVAL);
    uint32_t key = arch_irq_lock();
    e->z_bits &= ~bits;
    arch_irq_unlock(key);
    return 0;
}

uint32_t k_event_get(const struct k_event *e)
{
    return Z_EVENT_OK(e) ? e->z_bits : 0u;
}

#if K_CONFIG_DESTROY
int k_event_destroy(struct k_event *e)
{
    Z_CHECK(Z_EVENT_OK(e), K_EINVAL);
    uint32_t key = arch_irq_lock();
    z_waitq_wake_all(&e->z_waitq, K_EDESTROYED);
    e->z_type = 0;
    if (arch_in_isr() || !Z_STARTED() || arch_irq_key_masked(key)) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule();
    }
    return 0;
}
#endif

#endif /* K_CONFIG_EVENT */
