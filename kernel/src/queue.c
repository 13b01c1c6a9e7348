/*
 * Message queues: a ring of fixed-size items copied in and out.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * Receivers wait on z_waitq while the queue is empty, senders on z_swaitq while it is full.
 * A send wakes the best receiver, a receive the best sender; the woken thread then retries
 * (with what is left of its timeout), so an item taken meanwhile by another thread is never
 * lost or duplicated, only waited for again.
 */
#include "kernel_internal.h"
#include "offsets.h"

#if K_CONFIG_QUEUE

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_QUEUE_OK(q) ((q) && (q)->z_type == Z_OBJ_QUEUE)

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

#define Z_QINLINE static inline __attribute__((always_inline))
/* The transfer's rare parts (a woken thread that preempts, a masked caller) stay out of
 * line, and under -O2 (the speed profile) so do the wait-and-retry loops (z_queue_*_wait):
 * inlined, which -O2 and LTO do, they made k_queue_send and k_queue_recv save r4-r11 and a
 * 36-byte frame on every call, the loop's state kept in high registers. -Os keeps the loops
 * in the transfer, where they cost the path that does not wait nothing. vp-m0, against the
 * single loop of before: speed tm.message 28 746 -> 34 057, message_passing 322 -> 307;
 * size message_passing 301 -> 296, .seed001 1237 -> 1173, tm.message 35 196 -> 34 466
 * (docs/kernel-costs.md, issue 24). */
#define Z_QRARE static __attribute__((noinline))
#ifdef __OPTIMIZE_SIZE__
#define Z_QWAIT Z_QINLINE
#else
#define Z_QWAIT Z_QRARE
#endif
#define Z_DELIVERED ZQ_DELIVERED /* wake-up result of a receiver that was handed its item */
/* The receive's item, checked by every caller (the API's check or the fast path's): known
 * non-NULL, the compiler drops z_xfer_wait's test of the receiver's buffer. Where the
 * receive's slow path is a function of its own (ARCH_FAST_QUEUE) the test and two taken
 * branches were inside the masked section of every blocking receive: 8 cycles of
 * irq.latency_worst.queue's maximum on vp-m0 (issue 24). */
#define Z_ITEM_CHECKED __attribute__((nonnull(1, 2)))

/* Two words, copied as one (LDM/STM of two registers on ARMv6-M: 3 + 3 cycles, against
 * 2 + 2 and the loop's 4 per word; four registers at a time run out of registers in the
 * callers: slower). */
struct z_word2 {
    uint32_t w[2];
};

Z_QINLINE void z_copy(void *dst, const void *src, unsigned n)
{
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 3u) == 0) {
        uint32_t *d = dst;
        const uint32_t *s = src;
        if (n & 4u)
            *d++ = *s++;
        struct z_word2 *d2 = (struct z_word2 *)d;
        const struct z_word2 *s2 = (const struct z_word2 *)s;
        const struct z_word2 *e2 = s2 + (n >> 3);
        while (s2 != e2)
            *d2++ = *s2++;
    } else {
        uint8_t *d = dst;
        const uint8_t *s = src;
        while (n--)
            *d++ = *s++;
    }
}

/* IRQs disabled. Put an item if there is room; returns the woken receiver (or NULL), or
 * (void *)1 when full. */
Z_QINLINE struct k_thread *z_put(struct k_queue *q, const void *item)
{
    unsigned count = q->z_count, cap = q->z_cap;
    struct k_thread *w = q->z_waitq;
    if (w && count == 0 && Z_NOT_TIMED(w)) {
        /* hand-off: straight into the buffer of a receiver that waits without a timeout
         * (it left the address in z_wake); it returns without touching the ring */
        q->z_waitq = w->z_next;
        z_copy((void *)w->z_wake, item, q->z_item);
        z_wake(w, Z_DELIVERED);
        return w;
    }
    if (count >= cap)
        return (struct k_thread *)1;
    unsigned idx = (unsigned)q->z_head + count;
    if (idx >= cap)
        idx -= cap;
    z_copy(q->z_buf + idx * q->z_item, item, q->z_item);
    q->z_count = (uint16_t)(count + 1u);
    if (w) {
        q->z_waitq = w->z_next;
        z_wake(w, 0);
    }
    return w;
}

Z_QINLINE struct k_thread *z_get(struct k_queue *q, void *item)
{
    unsigned count = q->z_count;
    if (count == 0)
        return (struct k_thread *)1;
    unsigned h = q->z_head;
    z_copy(item, q->z_buf + h * q->z_item, q->z_item);
    if (++h >= q->z_cap)
        h = 0;
    q->z_head = (uint16_t)h;
    q->z_count = (uint16_t)(count - 1u);
    struct k_thread *w = q->z_swaitq;
    if (w) {
        q->z_swaitq = w->z_next;
        z_wake(w, 0);
    }
    return w;
}

/* After a transfer that woke `w`: run it now if it outranks the caller. IRQs disabled on
 * entry, enabled on return. */
Z_QRARE int z_xfer_done(struct k_thread *w)
{
    if (w && w->z_prio > z_kernel.current->z_prio) {
        if (Z_UNLIKELY(arch_in_isr())) { /* a thread call misused in an interrupt */
            arch_pend_switch();
            arch_irq_enable();
            return 0;
        }
        z_reschedule();
        return 0;
    }
    arch_irq_enable();
    return 0;
}

/* The end of a transfer: without a woken thread (the usual case) only the unmask, inline. */
Z_QINLINE int z_xfer_end(struct k_thread *w)
{
    if (!w) {
        arch_irq_enable();
        return 0;
    }
    return z_xfer_done(w);
}

/* The caller must wait on `wq` (IRQs disabled): with what is left of `timeout` since
 * `*start`, which the first wait (`waited` 0) sets; the caller leaves it uninitialised
 * until then, so that a transfer that does not wait writes nothing to the stack. Returns 0
 * when woken (IRQs disabled again: retry), else the error (IRQs enabled). */
Z_QINLINE int z_xfer_wait(struct k_queue *q, struct k_thread **wq, k_timeout_t timeout,
                       uint32_t *start, int waited, void *rbuf)
{
    if (timeout == K_NO_WAIT) {
        arch_irq_enable();
        return K_EAGAIN;
    }
#if K_CONFIG_CHECKS
    if (Z_UNLIKELY(arch_in_isr() || !z_kernel.current)) {
        arch_irq_enable();
        return z_kernel.current ? K_EISR : K_ESTATE; /* (no thread to block before k_start) */
    }
#endif
    k_timeout_t left = timeout;
    uint32_t now = 0;
    if (timeout == K_FOREVER) {
        if (rbuf) /* a receiver without timeout: a sender may hand the item over directly */
            z_kernel.current->z_wake = (uint32_t)rbuf;
    } else {
        now = z_now();
        if (!waited)
            *start = now;
        uint32_t spent = now - *start;
        if (spent >= timeout) {
            arch_irq_enable();
            return K_ETIMEDOUT;
        }
        left = timeout - spent;
    }
    int r = z_block(wq, Z_STATE_BLOCKED Z_TIMEOUT_ARG(left, now)); /* (ends at *start + timeout) */
    if (r) /* an error, or Z_DELIVERED (IRQs enabled either way) */
        return r;
    arch_irq_disable();
    if (q->z_type != Z_OBJ_QUEUE) {
        arch_irq_enable();
        return K_EDESTROYED;
    }
    return 0;
}

static int z_xfer_isr(struct k_queue *q, void *item, int send)
{
    uint32_t key = arch_irq_lock();
    struct k_thread *w = send ? z_put(q, item) : z_get(q, item);
    if (w == (struct k_thread *)1) {
        arch_irq_unlock(key);
        return K_EAGAIN;
    }
    if (w && Z_STARTED() && w->z_prio > z_kernel.current->z_prio)
        arch_pend_switch();
    arch_irq_unlock(key);
    return 0;
}

/* A thread call made with interrupts masked (issue 31): the interrupt one, the mask kept;
 * where it would block, K_EMASKED. */
Z_QRARE int z_xfer_masked(struct k_queue *q, void *item, int send, k_timeout_t timeout)
{
    int r = z_xfer_isr(q, item, send);
    return r == K_EAGAIN && timeout != K_NO_WAIT ? K_EMASKED : r;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* (none) */

/* ---- API ----------------------------------------------------------------------------------- */

int k_queue_init(struct k_queue *q, void *buf, size_t item_size, size_t capacity)
{
    Z_CHECK(q && buf && item_size && item_size <= 0xFFFFu && capacity && capacity <= 0xFFFFu,
            K_EINVAL);
    /* (no critical section: initialising an object other threads may be using is a race
     * of the caller's; this refuses an object found in use) */
    if (q->z_type == Z_OBJ_QUEUE && (q->z_waitq || q->z_swaitq))
        return K_EBUSY; /* its waiters would wait forever: destroy it first (kernel.h) */
    q->z_waitq = NULL;
    q->z_swaitq = NULL;
    q->z_buf = buf;
    q->z_count = 0;
    q->z_item = (uint16_t)item_size;
    q->z_cap = (uint16_t)capacity;
    q->z_head = 0;
    q->z_type = Z_OBJ_QUEUE;
    return 0;
}

/* The transfers after their checks, masking first. In a port with queue fast paths
 * (ARCH_FAST_QUEUE, arch_if.h) they are also those paths' slow paths, which branch here
 * unmasked (so that this function's register saves run unmasked, as in the plain C call);
 * the API functions then take the names z_queue_*_c. */
#if K_CONFIG_FASTPATH && defined(ARCH_FAST_QUEUE)
#define Z_XFER_SLOW
#define Z_QFAST(name) z_##name##_c
#else
#define Z_XFER_SLOW Z_QINLINE
#define Z_QFAST(name) k_##name
#endif

/* A send that found the queue full, IRQs disabled: wait, retry, until it is done or the
 * wait fails. Out of line, so that the transfer that does not wait keeps no loop state. */
Z_QWAIT int z_queue_send_wait(struct k_queue *q, const void *item, k_timeout_t timeout)
{
    uint32_t start; /* (set by the first wait: z_xfer_wait) */
    for (int waited = 0;; waited = 1) {
        int r = z_xfer_wait(q, &q->z_swaitq, timeout, &start, waited, NULL);
        if (r)
            return r;
        struct k_thread *w = z_put(q, item);
        if (w != (struct k_thread *)1)
            return z_xfer_end(w);
    }
}

Z_XFER_SLOW int z_queue_send_slow(struct k_queue *q, const void *item, k_timeout_t timeout)
{
    if (Z_UNLIKELY(arch_irq_masked())) /* the mask kept, the switch pended; cannot block */
        return z_xfer_masked(q, (void *)item, 1, timeout);
    arch_irq_disable();
    struct k_thread *w = z_put(q, item);
    if (w != (struct k_thread *)1)
        return z_xfer_end(w);
    return z_queue_send_wait(q, item, timeout);
}

/* A receive that found the queue empty, IRQs disabled: as z_queue_send_wait. */
Z_QWAIT Z_ITEM_CHECKED int z_queue_recv_wait(struct k_queue *q, void *item, k_timeout_t timeout)
{
    uint32_t start; /* (set by the first wait: z_xfer_wait) */
    for (int waited = 0;; waited = 1) {
        int r = z_xfer_wait(q, &q->z_waitq, timeout, &start, waited, item);
        if (r)
            return r == Z_DELIVERED ? 0 : r;
        struct k_thread *w = z_get(q, item);
        if (w != (struct k_thread *)1)
            return z_xfer_end(w);
    }
}

Z_XFER_SLOW Z_ITEM_CHECKED int z_queue_recv_slow(struct k_queue *q, void *item, k_timeout_t timeout)
{
    if (Z_UNLIKELY(arch_irq_masked())) /* the mask kept, the switch pended; cannot block */
        return z_xfer_masked(q, item, 0, timeout);
    arch_irq_disable();
    struct k_thread *w = z_get(q, item);
    if (w != (struct k_thread *)1)
        return z_xfer_end(w);
    return z_queue_recv_wait(q, item, timeout);
}

int Z_QFAST(queue_send)(struct k_queue *q, const void *item, k_timeout_t timeout)
{
    Z_CHECK(Z_QUEUE_OK(q) && item, K_EINVAL);
    return z_queue_send_slow(q, item, timeout);
}

int Z_QFAST(queue_recv)(struct k_queue *q, void *item, k_timeout_t timeout)
{
    Z_CHECK(Z_QUEUE_OK(q) && item, K_EINVAL);
    return z_queue_recv_slow(q, item, timeout);
}

int k_queue_send_isr(struct k_queue *q, const void *item)
{
    Z_CHECK(Z_QUEUE_OK(q) && item, K_EINVAL);
    return z_xfer_isr(q, (void *)item, 1);
}

int k_queue_recv_isr(struct k_queue *q, void *item)
{
    Z_CHECK(Z_QUEUE_OK(q) && item, K_EINVAL);
    return z_xfer_isr(q, item, 0);
}

int k_queue_count(const struct k_queue *q)
{
    Z_CHECK(Z_QUEUE_OK(q), K_EINVAL);
    return q->z_count;
}

#if K_CONFIG_DESTROY
int k_queue_destroy(struct k_queue *q)
{
    Z_CHECK(Z_QUEUE_OK(q), K_EINVAL);
    uint32_t key = arch_irq_lock();
    z_waitq_wake_all(&q->z_waitq, K_EDESTROYED);
    z_waitq_wake_all(&q->z_swaitq, K_EDESTROYED);
    q->z_type = 0;
    if (arch_in_isr() || !Z_STARTED() || arch_irq_key_masked(key)) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule();
    }
    return 0;
}
#endif

#endif /* K_CONFIG_QUEUE */
