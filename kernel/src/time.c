/*
 * Time: the kernel clock, the timeout list, the time source (tickless compare alarm or
 * periodic SysTick) and its interrupt.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * Tickless: kernel time is the board's 32-bit cycle counter; the alarm is programmed for
 * the earliest expiry, so delays have cycle resolution and no interrupt happens while
 * nothing is due. Periodic: kernel time counts SysTick interrupts.
 *
 * The timeout list holds expiry times (z_wake), not deadlines. A sleep expires
 * K_CONFIG_TIMER_LEAD cycles before its deadline and the woken thread spins the rest (it
 * ends within a few cycles of it); a timed wait expires at its deadline itself: until then
 * it stays on its object's wait queue, so a signal, unlock or send made at any time before
 * the deadline still satisfies it (a timeout never ends a wait early, issue 11). Its price:
 * a wait that times out returns one interrupt-plus-switch after its deadline.
 */
#include "rtoslab/board_if.h"
#include "kernel_internal.h"

/* ---- Definitions --------------------------------------------------------------------------- */


/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

/* One timed-out thread: off its wait queue, ready with K_ETIMEDOUT (0 for a sleep). */
static void z_timeout_expire(struct k_thread *t)
{
    int result = 0;
#if Z_HAS_WAIT_OBJ
    struct k_thread **q = (struct k_thread **)t->z_wait.obj;
    if (q) {
        uint8_t state = t->z_state;
        z_waitq_remove(q, t);
        z_wake(t, K_ETIMEDOUT);
        z_waiter_left(state, q);
        return;
    }
#endif
    z_wake(t, result);
}

/* The time source's interrupt: expire what is due, re-arm, request a switch if needed.
 * Tickless, the alarm interrupt has priority 0, the highest (z_time_start): no interrupt
 * that calls the kernel can preempt it, and threads do not run while it does, so it needs
 * no critical section (8 bytes and 9 cycles less). (With the lead, a timer's spin to its
 * expiry and its callback run at the lowest priority instead, the lists consistent and
 * the rest masked: timer.c.) SysTick of the periodic build runs at
 * priority 2: interrupts above it may call the _isr functions, it masks them. */
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER
/* (the timers unmask for their spin and mask after it: to the mask the interrupt entered
 * with, arch_isr_key, so that a thread's BASEPRI that let the alarm in stays: issue 31) */
#define Z_TIME_LOCK() arch_isr_key()
#define Z_TIME_UNLOCK(key) arch_irq_unlock(key)
#elif K_CONFIG_TICKLESS
#define Z_TIME_LOCK() 0u
#define Z_TIME_UNLOCK(key) ((void)(key))
#else
#define Z_TIME_LOCK() arch_irq_lock()
#define Z_TIME_UNLOCK(key) arch_irq_unlock(key)
#endif
static void z_time_process(void)
{
    uint32_t key = Z_TIME_LOCK();
    uint32_t now = z_now();
    struct k_thread *t;
#if K_CONFIG_WAIT_TIMEOUT
    int own = 0; /* the current thread's own wait or sleep ended here */
#endif
    while ((t = z_kernel.timeouts) != NULL && (int32_t)(t->z_wake - now) <= 0) {
        z_kernel.timeouts = t->z_tnext;
        t->z_tnext = t;
#if Z_LAZY_TIMEOUTS
        if (!Z_STATE_IS_BLOCKED(t->z_state))
            continue; /* stale: its wait ended on a fast path (config.h) */
#endif
#if K_CONFIG_WAIT_TIMEOUT
        own |= t == z_kernel.current;
#endif
        z_timeout_expire(t);
    }
#if K_CONFIG_WAIT_TIMEOUT
    /* The current thread was blocked, so this interrupt stopped the idle loop (the current
     * thread stays the one that left it), and is ready again: z_reschedule_isr would not
     * switch to it (it is the current one). Pend the switch now, PendSV tail-chained to this
     * interrupt, instead of returning to the idle loop for it to pend it: 30 cycles and one
     * exception entry less for a timed wait that times out. PendSV takes the top thread,
     * whoever the timers wake. (Only for timeouts: a thread a timer's callback wakes from
     * idle is not the current one, or goes the usual way, which keeps its wake-up from idle
     * as long as from a busy system: timer.periodic_jitter.) */
    if (own)
        arch_pend_switch();
#endif
#if K_CONFIG_TIMER
    int have_timer;
    if (z_kernel.timers) /* (no call without running timers: 30 cycles) */
        z_timer_process(now, &have_timer, key);
#endif
    z_time_reprogram();
#if K_CONFIG_WAIT_TIMEOUT
    if (!own)
#endif
        z_reschedule_isr();
    Z_TIME_UNLOCK(key);
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

void z_timeout_add(struct k_thread *t, uint32_t at)
{
    struct k_thread **pp = &z_kernel.timeouts, *w;
    K_ASSERT_LOCKED();
#if Z_LAZY_TIMEOUTS
    if (!Z_NOT_TIMED(t))
        z_timeout_remove(t); /* stale */
#endif
    t->z_wake = at;
    while ((w = *pp) != NULL && (int32_t)(w->z_wake - at) <= 0)
        pp = &w->z_tnext;
    t->z_tnext = w;
    *pp = t;
    if (pp == &z_kernel.timeouts) {
#if K_CONFIG_TICKLESS && !K_CONFIG_TIMER
        board_alarm_set(at); /* the earliest expiry is t's (8 bytes less than the reload) */
#else
        z_time_reprogram();
#endif
    }
}

void z_timeout_remove(struct k_thread *t)
{
    struct k_thread **pp = &z_kernel.timeouts, *w;
    while ((w = *pp) != NULL) {
        if (w == t) {
            *pp = t->z_tnext;
            break;
        }
        pp = &w->z_tnext;
    }
    t->z_tnext = t; /* an early alarm left behind finds nothing due and re-arms */
}

#if K_CONFIG_TIMER && K_CONFIG_TICKLESS
void z_time_reprogram(void)
{
    int have = 0;
    uint32_t at = 0;
    if (z_kernel.timeouts) {
        at = z_kernel.timeouts->z_wake; /* an expiry time: the lead is in it already */
        have = 1;
    }
    if (z_kernel.timers && (!have || (int32_t)(z_kernel.timers->z_at - Z_LEAD - at) < 0)) {
        at = z_kernel.timers->z_at - Z_LEAD;
        have = 1;
    }
    if (have && Z_STARTED()) /* (a timer may be started before k_start) */
        board_alarm_set(at);
}
#endif

/* The idle loop, with nothing ready, before its WFI (arch idle loops; interrupts enabled: an
 * interrupt that readies a thread meanwhile is seen by the loop's second look, masked): the
 * deepest sleep the next deadline allows (config.h, K_CONFIG_DEEP_IDLE). Deep when no
 * interrupt but the alarm can wake the core and the alarm is armed further than the wake-up
 * plus the break-even idle away; the alarm then fires the wake-up earlier, so the handler runs
 * when it would have from a plain sleep. Then nothing can interrupt before the WFI: no other
 * line is enabled and the alarm is far. (Nothing armed: nothing could wake the core, and it
 * only sleeps.) SLEEPDEEP stays as chosen until the next idle entry. */
#if K_CONFIG_TICKLESS && K_CONFIG_DEEP_IDLE
void z_idle_prepare(void)
{
#ifdef BOARD_DEEP_WAKEUP_CYCLES
    uint32_t at, scr = 0;
    if ((ARCH_NVIC_ISER0 & ~(1u << BOARD_ALARM_IRQ)) == 0 && (ARCH_SYST_CSR & 2u) == 0 && board_alarm_armed(&at) &&
        (int32_t)(at - board_cycles()) > (int32_t)(BOARD_DEEP_WAKEUP_CYCLES + BOARD_DEEP_BREAK_EVEN_CYCLES)) {
        board_alarm_set(at - BOARD_DEEP_WAKEUP_CYCLES); /* (nothing can interrupt these two stores) */
        scr = ARCH_SCR_SLEEPDEEP;
    }
    ARCH_SCB_SCR = scr; /* (the kernel uses no other SCR bit) */
#endif
}
#endif

#if K_CONFIG_TICKLESS
void board_alarm_isr(void)
{
    z_time_process();
}
#else
void z_time_tick(void)
{
    z_kernel.ticks++;
    z_time_process();
}
#endif

/* ---- API ----------------------------------------------------------------------------------- */

uint32_t k_now(void)
{
    return z_now();
}
