/*
 * Threads: creation (static and at run time), start, yield, sleep, suspend/resume,
 * priority, exit, fatal errors.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 */
#include "rtoslab/board_if.h"
#include "kernel_internal.h"

/* ---- Definitions --------------------------------------------------------------------------- */

/* K_THREAD_DEFINE descriptors: the linker gathers the section and names its bounds. */
extern const struct z_thread_def __start_k_thread_defs[] __attribute__((weak));
extern const struct z_thread_def __stop_k_thread_defs[] __attribute__((weak));

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

static int z_thread_setup(struct k_thread *t, void *stack, size_t bytes, k_entry_t entry,
                          void *arg, unsigned prio)
{
    Z_CHECK(t && stack && entry && prio < K_CONFIG_PRIO_LEVELS, K_EINVAL);
    uint32_t lo = ((uint32_t)stack + 7u) & ~7u;
    uint32_t hi = ((uint32_t)stack + bytes) & ~7u;
    Z_CHECK(hi > lo && hi - lo >= K_THREAD_STACK_MIN, K_EINVAL);
    Z_CHECK(!Z_STATE_VALID(t->z_state) || t->z_state == Z_STATE_DEAD, K_EINVAL);
#if K_CONFIG_STACK_CHECK
    t->z_lim = lo;
    *(uint32_t *)lo = lo; /* guard word */
#else
    (void)lo; /* (z_lim and the guard word serve the stack check only) */
#endif
    arch_thread_init(t, hi, entry, arg);
    t->z_prio = (uint8_t)prio;
    t->z_base = (uint8_t)prio;
    t->z_tnext = t;
#if Z_HAS_WAIT_OBJ
    t->z_wait.result = 0;
#endif
    return 0;
}

static struct k_thread *z_thread_arg(struct k_thread *t)
{
    return t ? t : z_kernel.current;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* (none) */

/* ---- API ----------------------------------------------------------------------------------- */

int k_thread_create(struct k_thread *t, void *stack, size_t stack_bytes, k_entry_t entry,
                    void *arg, unsigned prio)
{
    int r = z_thread_setup(t, stack, stack_bytes, entry, arg, prio);
    if (r)
        return r;
    if (Z_STARTED()) {
        Z_CHECK(!arch_in_isr(), K_EISR);
        uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
        z_ready_add_tail(t);
        z_reschedule_readied_key(t, key);
    } else {
        uint32_t key = arch_irq_lock();
        z_ready_add_tail(t);
        arch_irq_unlock(key);
    }
    return 0;
}

void k_start(void)
{
    arch_irq_disable();
    arch_init();
    /* (without K_THREAD_DEFINE both bounds are 0, the weak symbols' value: no iteration) */
    for (const struct z_thread_def *d = __start_k_thread_defs; d < __stop_k_thread_defs; d++)
        if (z_thread_setup(d->thread, d->stack, d->stack_bytes, d->entry, d->arg, d->prio) == 0)
            z_ready_add_tail(d->thread);
    struct k_thread *first = z_top();
#if K_CONFIG_CHECKS || K_CONFIG_SYNC_SWITCH
    if (!first)
        k_fatal(K_ESTATE, NULL); /* (without checks, the PendSV-only build idles instead) */
#endif
#if Z_HAS_STARTED
    z_kernel.started = 1;
#endif
    z_time_start();
    arch_start(first);
}

struct k_thread *k_thread_self(void)
{
    return z_kernel.current;
}

int k_in_isr(void)
{
    return arch_in_isr();
}

#if !K_CONFIG_FASTPATH
void k_yield(void)
{
    if (!z_kernel.current || Z_UNLIKELY(arch_irq_masked()))
        return; /* before k_start(): nobody to yield to; masked: no switch (issue 31) */
    arch_irq_disable();
    struct k_thread *cur = z_kernel.current;
#if K_CONFIG_READY_LIST && !K_CONFIG_SYNC_SWITCH && !Z_HAS_WAIT_OBJ && !K_CONFIG_ASSERT
    /* The footprint build: the ready list is a priority-ordered list like a wait queue, so
     * a yield is a block on it (out of it, back in behind its equals, PendSV takes the
     * head: the caller again if no equal was ready). No z_reschedule, no test: 56 bytes
     * less; a yield with no equal goes through PendSV where it used to return at once.
     * (Not with wait objects, whose z_wait would name the ready list, nor with the
     * assertions, which want a blocked state on a wait queue.) */
    (void)cur;
    z_block(&z_kernel.ready, Z_STATE_READY Z_TIMEOUT_ARG(K_FOREVER, 0u));
#elif K_CONFIG_READY_LIST
    z_ready_remove(cur);
    z_ready_add_tail(cur); /* behind the other ready threads of its priority */
    z_reschedule();
#else
    struct k_thread *next = cur->z_next;
    if (next != cur) {
        z_kernel.ready[cur->z_prio] = cur; /* the caller becomes the tail of its ring */
        arch_switch(cur, next);
        return;
    }
    arch_irq_enable();
#endif
}
#endif

/* Block the caller until `deadline`; returns at once if it is not in the future. Inline in
 * the PendSV-only builds (the footprint builds: one call in k_sleep, one in k_sleep_until);
 * with synchronous switches its light switch would make k_sleep save r4-r11 before it
 * reads the clock (a later start: the trim is calibrated without). */
#if K_CONFIG_SYNC_SWITCH
static void z_sleep_until(uint32_t deadline)
#else
static inline __attribute__((always_inline)) void z_sleep_until(uint32_t deadline)
#endif
{
    arch_irq_disable();
    if ((int32_t)(deadline - z_now()) <= (int32_t)Z_LEAD) {
        arch_irq_enable(); /* past, or too close to be worth a switch: the caller spins */
        return;
    }
#if K_CONFIG_INLINE || Z_LAZY_TIMEOUTS /* (z_block would take the new timeout for stale) */
    struct k_thread *cur = z_kernel.current;
    z_ready_remove(cur);
    cur->z_state = Z_STATE_BLOCKED;
#if Z_HAS_WAIT_OBJ
    cur->z_wait.obj = NULL;
#endif
    z_timeout_add(cur, deadline - Z_LEAD); /* expires early: the caller spins the lead */
    z_switch_away(cur);
#else
    /* The size-optimised build shares z_block's code (IRQs stay disabled: any order will do) */
    z_timeout_add(z_kernel.current, deadline - Z_LEAD);
    z_block(NULL, Z_STATE_BLOCKED Z_TIMEOUT_ARG(K_FOREVER, 0u));
#endif
}

/* k_sleep past its first clock reading (`*deadline_p`: that reading): the checks, the sleep
 * until the deadline less the lead; returns an error, 0 (done), or Z_SLEEP_SPIN with the
 * deadline to spin to in *deadline_p. Out of line and never specialised for a caller (noipa),
 * so that k_sleep's own code is the same in every build and program. */
#define Z_SLEEP_SPIN 1 /* (the errors are negative) */
#if K_CONFIG_CHECKS
static __attribute__((noipa)) int z_sleep_for(uint32_t *deadline_p, k_timeout_t duration)
#else /* the footprint builds (no checks): one function, 36 bytes fewer on ARMv6-M; the body's
       * registers are saved before the clock reading and restored after the spin, so these
       * sleeps end later than the calibrated path, never earlier */
static inline __attribute__((always_inline)) int z_sleep_for(uint32_t *deadline_p, k_timeout_t duration)
#endif
{
    uint32_t deadline = *deadline_p;
    Z_CHECK(!arch_in_isr(), K_EISR);
#if K_CONFIG_SLEEP_YIELD
    if (duration == K_NO_WAIT) {
        k_yield(); /* (before k_start() too: there it returns at once) */
        return 0;
    }
#endif
    Z_CHECK(z_kernel.current, K_ESTATE); /* before k_start */
    if (Z_UNLIKELY(arch_irq_masked()))
        return K_EMASKED; /* it would block: refused, the mask kept (issue 31) */
    if (duration == K_FOREVER) {
        arch_irq_disable();
        return z_block(NULL, Z_STATE_BLOCKED Z_TIMEOUT_ARG(K_FOREVER, 0u));
    }
    /* longer than K_TIMEOUT_MAX: in chunks */
#if K_CONFIG_SYNC_SWITCH
    while (K_CONFIG_LONG_SLEEP && duration > K_TIMEOUT_MAX) {
        deadline += K_TIMEOUT_MAX;
        duration -= K_TIMEOUT_MAX;
        z_sleep_until(deadline);
    }
#if K_CONFIG_TICKLESS
    deadline += duration - K_CONFIG_SLEEP_TRIM;
#else
    deadline += duration;
#endif
    z_sleep_until(deadline);
#else /* one call of z_sleep_until, inlined, and chunks of 2^30 units (K_TIMEOUT_MAX + 1: a
       * shift, no literal; the deadlines stay within the clock's 2^31): the footprint builds */
    for (;;) {
        int last = !K_CONFIG_LONG_SLEEP || !(duration >> 30);
#if K_CONFIG_TICKLESS
        deadline += last ? duration - K_CONFIG_SLEEP_TRIM : 1u << 30;
#else
        deadline += last ? duration : 1u << 30;
#endif
        z_sleep_until(deadline);
        if (last)
            break;
        duration -= 1u << 30;
    }
#endif
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER_LEAD
    *deadline_p = deadline;
    return Z_SLEEP_SPIN; /* the alarm fired early on purpose: k_sleep ends on the cycle */
#else
    return 0;
#endif
}

/* The path K_CONFIG_SLEEP_TRIM counts: from the call to the clock reading, and from the
 * spin's last reading to the return. Kept apart from the checks and the blocking (which
 * differ by build: chunks, assertions, the switch, the registers they save) and never
 * inlined nor specialised (noipa): before, the prologue saved what the body used, and LTO
 * (speed) made a program-specific k_sleep: with one trim, ktest_idle's sleeps ended 7 cycles
 * early and ktest_kernel's 17 late on vp-stm32f0. One path per profile: one calibration. */
__attribute__((noipa)) int k_sleep(k_timeout_t duration)
{
    uint32_t deadline = z_now() + Z_TICK_ROUND; /* first: the delay counts from the call */
    int r = z_sleep_for(&deadline, duration);
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER_LEAD
    if (r == Z_SLEEP_SPIN) {
        z_spin_until(deadline);
        return 0;
    }
#endif
    return r;
}

int k_sleep_until(uint32_t deadline)
{
    Z_CHECK(!arch_in_isr(), K_EISR);
    Z_CHECK(z_kernel.current, K_ESTATE);
    if (Z_UNLIKELY(arch_irq_masked()))
        return K_EMASKED; /* it would block: refused, the mask kept (issue 31) */
    z_sleep_until(deadline);
#if K_CONFIG_TICKLESS && K_CONFIG_TIMER_LEAD
    z_spin_until(deadline);
#endif
    return 0;
}

#if K_CONFIG_SUSPEND
int Z_FAST(thread_suspend)(struct k_thread *t)
{
    t = z_thread_arg(t);
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    Z_CHECK(!arch_in_isr(), K_EISR);
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    if (t->z_state != Z_STATE_READY || (t == z_kernel.current && arch_irq_key_masked(key))) {
        arch_irq_unlock(key);
        return t->z_state != Z_STATE_READY ? K_ESTATE : K_EMASKED; /* (itself, masked) */
    }
    z_ready_remove(t);
    t->z_state = Z_STATE_SUSPENDED;
    if (t == z_kernel.current) {
        z_switch_away(t);
        return 0;
    }
    arch_irq_unlock(key);
    return 0;
}

static inline __attribute__((always_inline)) int z_resume(struct k_thread *t)
{
    if (t->z_state != Z_STATE_SUSPENDED)
        return K_ESTATE;
    z_ready_add_tail(t);
    return 0;
}

int Z_FAST(thread_resume)(struct k_thread *t)
{
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    Z_CHECK(!arch_in_isr(), K_EISR);
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    int r = z_resume(t);
    if (r == 0 && z_kernel.current)
        z_reschedule_readied_key(t, key);
    else
        arch_irq_unlock(key); /* (nothing readied, or before k_start) */
    return r;
}

int k_thread_resume_isr(struct k_thread *t)
{
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    uint32_t key = arch_irq_lock();
    int r = z_resume(t);
    z_reschedule_isr();
    arch_irq_unlock(key);
    return r;
}
#endif

int Z_FAST(thread_prio_set)(struct k_thread *t, unsigned prio)
{
    t = z_thread_arg(t);
    Z_CHECK(t && Z_STATE_VALID(t->z_state) && prio < K_CONFIG_PRIO_LEVELS, K_EINVAL);
    Z_CHECK(!arch_in_isr(), K_EISR);
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    t->z_base = (uint8_t)prio;
    z_set_prio(t, z_prio_lent(t, prio)); /* (keeps what t inherits through what it holds) */
    z_reschedule_key(key);
    return 0;
}

int k_thread_prio_get(const struct k_thread *t)
{
    t = t ? t : z_kernel.current;
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    return t->z_prio;
}

void k_thread_exit(void)
{
    arch_irq_exit_mask(); /* (whatever the caller's mask: the thread ends, issue 31) */
    z_release_all(z_kernel.current);
    z_block(NULL, Z_STATE_DEAD Z_TIMEOUT_ARG(K_FOREVER, 0u)); /* (blocked for good, on nothing) */
    for (;;) {
    }
}

int k_thread_abort(struct k_thread *t)
{
    t = z_thread_arg(t);
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    Z_CHECK(!arch_in_isr(), K_EISR);
    if (t == z_kernel.current)
        k_thread_exit();
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
#if Z_LAZY_TIMEOUTS
    if (!Z_STATE_IS_BLOCKED(t->z_state) && t->z_state != Z_STATE_DEAD && !Z_NOT_TIMED(t))
        z_timeout_remove(t); /* stale */
#endif
    switch (t->z_state) {
    case Z_STATE_READY:
        z_ready_remove(t);
        break;
    case Z_STATE_BLOCKED:
    case Z_STATE_BLOCKED_MUTEX:
#if !Z_HAS_WAIT_OBJ
        if (Z_NOT_TIMED(t)) {
            /* Not sleeping: on a wait queue the thread does not record without wait objects
             * (or on none, k_sleep(K_FOREVER)), so it cannot be taken off. */
            arch_irq_unlock(key);
            return K_ESTATE;
        }
#endif
        if (!Z_NOT_TIMED(t))
            z_timeout_remove(t);
#if Z_HAS_WAIT_OBJ
        if (t->z_wait.obj) {
            struct k_thread **q = (struct k_thread **)t->z_wait.obj;
            uint8_t state = t->z_state;
            z_waitq_remove(q, t);
            t->z_state = Z_STATE_DEAD;
            z_waiter_left(state, q);
        }
#endif
        break;
    case Z_STATE_DEAD:
        arch_irq_unlock(key);
        return K_ESTATE;
    default:
        break;
    }
    t->z_state = Z_STATE_DEAD;
    z_release_all(t);
    z_reschedule_key(key);
    return 0;
}

#if K_CONFIG_ASSERT
void z_assert_fail(const char *file, int line)
{
    char num[8];
    int i = 7;
    arch_irq_disable();
    num[i] = '\0';
    do {
        num[--i] = (char)('0' + line % 10);
        line /= 10;
    } while (line && i > 0);
    board_puts("@assert ");
    board_puts(file);
    board_puts(":");
    board_puts(&num[i]);
    board_puts("\n");
    k_fatal(K_EASSERT, z_kernel.current);
}
#endif

__attribute__((weak)) void k_fatal(int err, struct k_thread *t)
{
    arch_irq_disable();
#if K_CONFIG_CHECKS || K_CONFIG_STACK_CHECK || K_CONFIG_ASSERT
    static const char hex[] = "0123456789abcdef";
    char line[] = "@fatal err=-00 thread=00000000\n";
    unsigned e = (unsigned)-err;
    line[12] = (char)('0' + (e >= 10u));
    line[13] = (char)('0' + (e >= 10u ? e - 10u : e));
    for (int i = 0; i < 8; i++)
        line[22 + i] = hex[((uint32_t)t >> (28 - 4 * i)) & 0xFu];
    board_puts(line);
#else
    (void)err, (void)t; /* the smallest build: no message */
#endif
    board_exit(3);
}
