/*
 * Software timers: one-shot and periodic callbacks ("delayed execution").
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * Running timers are kept in a list sorted by expiry; the time source's interrupt calls the
 * due callbacks (in interrupt context, interrupts enabled). A periodic timer's next expiry is
 * its previous one plus the period, so periods do not drift with interrupt latency.
 */
#include "rtoslab/board_if.h"
#include "kernel_internal.h"

#if K_CONFIG_TIMER

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_TIMER_OK(t) ((t) && (t)->z_type == Z_OBJ_TIMER)
/* The alarm's priority: board_irq_enable's lowest (PendSV's, arch_init) while a timer's
 * callback is due, else 0 (time.c) */
#define Z_PRIO_LOWEST 3u
#ifdef ARCH_HAS_IRQ_PRIO_SET
#define Z_ALARM_PRIO(p) arch_irq_prio_set(BOARD_ALARM_IRQ, (p))
#else
#define Z_ALARM_PRIO(p) board_irq_enable(BOARD_ALARM_IRQ, (p))
#endif


/* ---- State --------------------------------------------------------------------------------- */

/* The timer whose callback z_timer_process has taken off the list and spins to (its
 * expiry: z_due_at): a stop or restart before that expiry, from an interrupt that preempts
 * the spin, cancels the callback (issue 31: the stop said K_ESTATE and the callback ran). */
static struct k_timer *z_due;
static uint32_t z_due_at;

/* ---- Internal functions -------------------------------------------------------------------- */

/* A stop or restart of `t` (IRQs masked): 1 if it cancels the callback being spun to. After
 * the expiry, it has run or runs: the stop comes too late. */
static int z_timer_cancel_due(struct k_timer *t)
{
    if (z_due != t || (int32_t)(z_now() - z_due_at) >= 0)
        return 0;
    z_due = NULL;
    return 1;
}

static void z_timer_insert(struct k_timer *t)
{
    struct k_timer **pp = &z_kernel.timers, *w;
    while ((w = *pp) != NULL && (int32_t)(w->z_at - t->z_at) <= 0)
        pp = &w->z_next;
    t->z_next = w;
    *pp = t;
    t->z_active = 1;
}

static void z_timer_unlink(struct k_timer *t)
{
    struct k_timer **pp = &z_kernel.timers, *w;
    while ((w = *pp) != NULL) {
        if (w == t) {
            *pp = t->z_next;
            break;
        }
        pp = &w->z_next;
    }
    t->z_active = 0;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* Called by the time interrupt with IRQs disabled; runs the due callbacks. `key`: the mask
 * the interrupt entered with (arch_isr_key), which the spin and the callback run with: an
 * interrupt the preempted thread masks (ARMv7-M: its BASEPRI) stays masked (issue 31). */
uint32_t z_timer_process(uint32_t now, int *have_next, uint32_t key)
{
    struct k_timer *t;
    while ((t = z_kernel.timers) != NULL && (int32_t)(t->z_at - Z_LEAD - now) <= 0) {
        z_kernel.timers = t->z_next;
        t->z_active = 0;
        uint32_t at = t->z_at;
        if (t->z_period) {
            t->z_at = at + t->z_period;
            z_timer_insert(t);
        }
        k_timer_fn fn = t->z_fn; /* (the callback due now, whatever a preempting */
        void *arg = t->z_arg;    /* interrupt does to the timer during the spin) */
        z_due = t;
        z_due_at = at;
        arch_irq_unlock(key);
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER_LEAD
        /* The alarm fired Z_LEAD early: the spin to the expiry and the callback run at the
         * lowest priority, so that they delay no other interrupt (at 0 they held every
         * interrupt off for up to Z_LEAD cycles: irq.latency_worst.timer); PendSV has that
         * priority too, so no thread runs before the handler ends. The lists are
         * consistent here: an interrupt that preempts may use the kernel's _isr calls. */
        Z_ALARM_PRIO(Z_PRIO_LOWEST);
        /* (one cycle more before the clock polls, every 6 cycles, sets where the expiry
         * falls among them: measured on vp-m0, timer.oneshot_error.10us / .100us..10ms
         * 66 / 63 cycles and timer.periodic_jitter 18 / 251 (p50 / max) with it, 65 / 62
         * and 19 / 254 without; 70 / 67 and 19 / 252 before the priority change. A port
         * may place them otherwise: ARCH_SPIN_PAD, arch_if.h) */
#ifdef ARCH_SPIN_PAD
        ARCH_SPIN_PAD();
#else
        __asm volatile("nop");
#endif
        z_spin_until(at);
#endif
        if (z_due == t) /* (not stopped during the spin: past `at`, nothing cancels it) */
            fn(t, arg);
        arch_irq_disable();
        z_due = NULL;
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER_LEAD
        Z_ALARM_PRIO(0); /* (masked: the rest needs priority 0) */
#endif
        now = z_now();
    }
    *have_next = z_kernel.timers != NULL;
    return now;
}

/* ---- API ----------------------------------------------------------------------------------- */

int k_timer_init(struct k_timer *t, k_timer_fn fn, void *arg)
{
    Z_CHECK(t && fn, K_EINVAL);
    uint32_t key = arch_irq_lock();
    (void)z_timer_cancel_due(t);
    if (t->z_type == Z_OBJ_TIMER && t->z_active)
        z_timer_unlink(t); /* running: stopped first (else the list would keep a stale link) */
    t->z_next = NULL;
    t->z_at = 0;
    t->z_period = 0;
    t->z_fn = fn;
    t->z_arg = arg;
    t->z_active = 0;
    t->z_type = Z_OBJ_TIMER;
    arch_irq_unlock(key);
    return 0;
}

int k_timer_start_at(struct k_timer *t, uint32_t at, k_timeout_t period)
{
    Z_CHECK(Z_TIMER_OK(t) && period <= K_TIMEOUT_MAX, K_EINVAL);
    uint32_t key = arch_irq_lock();
    (void)z_timer_cancel_due(t); /* (the new expiry replaces the one being spun to) */
    if (t->z_active)
        z_timer_unlink(t);
    t->z_at = at;
    t->z_period = period;
    z_timer_insert(t);
    if (z_kernel.timers == t)
        z_time_reprogram();
    arch_irq_unlock(key);
    return 0;
}

int k_timer_start(struct k_timer *t, k_timeout_t delay, k_timeout_t period)
{
    if (delay > K_TIMEOUT_MAX)
        delay = K_TIMEOUT_MAX;
    return k_timer_start_at(t, z_now() + delay + Z_TICK_ROUND, period);
}

int k_timer_stop(struct k_timer *t)
{
    Z_CHECK(Z_TIMER_OK(t), K_EINVAL);
    uint32_t key = arch_irq_lock();
    int was = z_timer_cancel_due(t) | t->z_active;
    if (t->z_active)
        z_timer_unlink(t);
    arch_irq_unlock(key);
    return was ? 0 : K_ESTATE;
}

#endif /* K_CONFIG_TIMER */
