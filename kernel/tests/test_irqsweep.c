/*
 * Exhaustive interrupt arrival (the simulated boards: it needs the stimulus generator).
 *
 * Each kernel path below runs once for every cycle at which an interrupt can arrive in it:
 * the stimulus is armed for start + n, n = 0, 1, 2 ... past the path's end (or across a
 * window around a deadline), and the simulator being cycle-exact, each run sees the
 * interrupt one cycle later than the one before. The interrupt does kernel work of its own
 * (a signal, a K_NO_WAIT take, a queue send or receive, a resume, a timer start), and after
 * each run the test checks the path's outcome (every unit and item delivered exactly once,
 * priorities restored, no timeout before its deadline) and the kernel's structures (ready
 * rings and bitmap, wait queues, contended mutexes, inherited priorities, timeout order);
 * the interrupt also checks the structures as it finds them, at its arrival cycle.
 * It prints "irq sweep: P paths x N arrival cycles covered".
 *
 * This file is the harness (the interrupt, the invariants, the sweep); the paths and
 * their checks are test_irqsweep_paths.c's, what both share test_irqsweep.h's.
 */
#include "test_irqsweep.h"

#if !BOARD_HAS_STIMULUS
#error "test_irqsweep needs the stimulus generator (vp boards)"
#endif
_Static_assert(BOARD_STIM_IRQ == 1, "the handler below is IRQ1_Handler");

#define STACK 512
/* What a sweep thread may use of its stack: its own small frames, the kernel's call frame
 * (ARMv6-M's z_call_full, 40 bytes; ARMv7-M's light frame, 36, and a slow path's 8) and
 * one exception frame with r4-r11 (64); a leaked frame at a
 * restore (issue 31) goes past it within a few arrivals. */
#define STACK_BUDGET 256u
#define PAINT 0xA5A5A5A5u

struct k_thread th[NT];
static uint64_t stacks[NT][STACK / 8];

/* ---- the interrupt ---------------------------------------------------------------------- */

static void (*volatile isr_fn)(void);
static volatile uint32_t isr_ran;
volatile uint32_t cur_n;         /* the arrival offset of the run in progress */
static volatile uint32_t arm_at; /* the cycle it is armed for */

static void check_kernel(int in_isr);

/* The interrupt first checks the kernel's structures as it finds them: whatever the
 * interrupted code was doing, the kernel masks interrupts while they are inconsistent. */
static volatile int isr_checks = 1; /* (off in the storms: a handler longer than the period) */

void IRQ1_Handler(void)
{
    isr_ran++;
    if (isr_checks)
        check_kernel(1);
    if (isr_fn)
        isr_fn();
}

/* ---- invariants ------------------------------------------------------------------------- */

static unsigned bad;
static const char *cur_path;

void inv_fail(int line)
{
    if (bad < 8) {
        kt_puts("  invariant at line ");
        kt_putu((uint32_t)line);
        kt_puts(", path ");
        kt_puts(cur_path);
        kt_puts(", arrival offset ");
        kt_putu(cur_n);
        kt_puts("\n");
    }
    bad++;
}

static int in_list(struct k_thread *q, struct k_thread *t)
{
    int n = 0;
    for (int i = 0; q && i < 16; q = q->z_next, i++)
        n += q == t;
    return n;
}

#if K_CONFIG_READY_LIST
/* (the ready list build: one list, highest priority first) */
static int ring_count(struct k_thread *t)
{
    return in_list(z_kernel.ready, t);
}
#else
static int ring_count(struct k_thread *t)
{
    int n = 0;
    for (unsigned p = 0; p < K_CONFIG_PRIO_LEVELS; p++) {
        struct k_thread *tail = z_kernel.ready[p], *w = tail;
        if (!tail)
            continue;
        int i = 0;
        do {
            w = w->z_next;
            n += w == t;
        } while (w != tail && ++i < 16);
    }
    return n;
}
#endif

static int sorted(struct k_thread *q)
{
    for (int i = 0; q && q->z_next && i < 16; q = q->z_next, i++)
        if (q->z_next->z_prio > q->z_prio)
            return 0;
    return 1;
}

/* The priority `t` should have: its base, raised by the top waiter of each mutex it owns. */
static unsigned expected_prio(struct k_thread *t)
{
    unsigned p = t->z_base;
    for (struct k_mutex *m = z_kernel.contended; m; m = m->z_cnext)
        if ((m->z_owner & ~(uintptr_t)3u) == (uintptr_t)t && m->z_waitq->z_prio > p)
            p = m->z_waitq->z_prio;
    return p;
}

static void check_kernel(int in_isr)
{
    uint32_t key = arch_irq_lock();
    int nready = 0;
#if K_CONFIG_READY_LIST
    /* the ready list: ready threads, highest priority first */
    INV(sorted(z_kernel.ready));
    for (struct k_thread *w = z_kernel.ready; w && nready < 16; w = w->z_next, nready++)
        INV(w->z_state == Z_STATE_READY);
#else
    /* the rings: bitmap bit set exactly for the non-empty ones, members ready at that prio */
    for (unsigned p = 0; p < K_CONFIG_PRIO_LEVELS; p++) {
        struct k_thread *tail = z_kernel.ready[p], *w = tail;
        INV(!tail == !(z_kernel.bitmap & Z_PRIO_BIT(p)));
        if (!tail)
            continue;
        int i = 0;
        do {
            w = w->z_next;
            INV(w->z_state == Z_STATE_READY && w->z_prio == p);
            nready++;
        } while (w != tail && ++i < 16);
        INV(w == tail); /* closed */
    }
#endif
    /* every thread: in a ring exactly when ready, in its wait queue once when blocked on an
     * object, at the priority its base and its mutexes give */
    int nknown_ready = 0;
    for (int i = 0; i <= NT; i++) {
        struct k_thread *t = i < NT ? &th[i] : &driver_thread;
        if (!Z_STATE_VALID(t->z_state))
            continue;
        if (t->z_state == Z_STATE_READY)
            nknown_ready++;
        INV(ring_count(t) == (t->z_state == Z_STATE_READY));
        if ((t->z_state == Z_STATE_BLOCKED || t->z_state == Z_STATE_BLOCKED_MUTEX) &&
            t->z_wait.obj)
            INV(in_list(*(struct k_thread **)t->z_wait.obj, t) == 1);
        if (t->z_state != Z_STATE_DEAD)
            INV(t->z_prio == expected_prio(t));
    }
    INV(nready == nknown_ready);
    /* the running thread is the head of its ring (in an interrupt: the interrupted one, or,
     * from the idle loop, the one that blocked last); after a run, the driver */
    struct k_thread *cur = z_kernel.current;
    if (!in_isr)
        INV(cur == &driver_thread);
#if K_CONFIG_READY_LIST
    /* (with every switch through PendSV, an interrupt may come between a wake-up and the
     * PendSV it pended: the running thread is the head only once things are settled) */
    if (!in_isr)
        INV(z_kernel.ready == cur);
#else
    if (!in_isr || cur->z_state == Z_STATE_READY)
        INV(z_kernel.ready[cur->z_prio] && z_kernel.ready[cur->z_prio]->z_next == cur);
#endif
    /* contended mutexes have waiters and the flag; every wait queue in priority order */
    for (struct k_mutex *m = z_kernel.contended; m; m = m->z_cnext) {
        INV(m->z_waitq && (m->z_owner & Z_MUTEX_WAITERS));
        INV(sorted(m->z_waitq));
    }
    /* the timeout list in expiry order */
    for (struct k_thread *t = z_kernel.timeouts; t && t->z_tnext; t = t->z_tnext)
        INV((int32_t)(t->z_tnext->z_wake - t->z_wake) >= 0);
    arch_irq_unlock(key);
}

/* ---- helpers ------------------------------------------------------------------------------ */

void spawn(int i, k_entry_t fn, unsigned prio)
{
    for (unsigned w = 0; w < STACK / 4; w++)
        ((uint32_t *)stacks[i])[w] = PAINT;
    INV(k_thread_create(&th[i], stacks[i], sizeof stacks[i], fn, NULL, prio) == 0);
}

void isr_set(void (*fn)(void))
{
    isr_checks = !fn;
    isr_fn = fn;
}

void inv_path(const char *name)
{
    cur_path = name;
}

unsigned inv_count(void)
{
    return bad;
}

static uint32_t stack_max[NT], driver_sp0;

/* Bytes of a painted stack ever used: from the top down to the lowest overwritten word
 * (the guard word at the bottom is the kernel's). */
static uint32_t stack_used(const uint32_t *lo, uint32_t words)
{
    uint32_t w = 1;
    while (w < words && lo[w] == PAINT)
        w++;
    return (words - w) * 4u;
}

void stack_check(void)
{
    for (int i = 0; i < NT; i++) {
        if (!Z_STATE_VALID(th[i].z_state))
            continue;
        uint32_t used = stack_used((const uint32_t *)stacks[i], STACK / 4);
        if (used > stack_max[i])
            stack_max[i] = used;
        INV(used <= STACK_BUDGET);
    }
}

void cleanup(void)
{
    for (int i = 0; i < NT; i++)
        if (Z_STATE_VALID(th[i].z_state) && th[i].z_state != Z_STATE_DEAD)
            (void)k_thread_abort(&th[i]);
}

static void settle(void)
{
    k_thread_prio_set(NULL, 0);
    k_yield();
    k_thread_prio_set(NULL, DRV);
}

/* Let an interrupt armed for later than the path's end arrive (and its work finish). */
void await_isr(void)
{
    for (int i = 0; !isr_ran && i < 1000; i++) {
    }
    INV(isr_ran == 1);
    INV(board_stim_last_rise() == arm_at); /* it arrived on the cycle asked: one per run */
    settle();
}

/* ---- the sweep ----------------------------------------------------------------------------- */

/* Cycles from the clock read to the start of the path: more than the arming takes (about
 * 45 with flash that has no wait states; 64 on vp-stm32f407, the ART's misses: the stimulus
 * then rose 1-4 cycles after the cycle asked), so that the first arrival is still in the
 * future when armed, and about 35 before the path's first instruction. */
#define ARM_LEAD 80u

static uint32_t sweep(const struct path *p)
{
    cur_path = p->name;
    /* the path's length, without an interrupt */
    wakes = side_runs = given = taken = 0;
    res_w = res_h = 0x7777;
    isr_fn = NULL;
    p->setup();
    uint32_t t0 = k_now();
    p->run();
    uint32_t len = k_now() - t0;
    settle();
    cleanup();
    uint32_t count = p->window ? (uint32_t)p->window : len + ARM_LEAD + 20u;
    unsigned bad0 = bad;
    for (uint32_t n = 0; n < count; n++) {
        cur_n = n;
        wakes = side_runs = given = taken = 0;
        res_w = res_h = 0x7777;
        isr_ran = 0;
        isr_fn = p->isr;
        p->setup();
        uint32_t base = p->run == p_tw_run ? w0 + TW : k_now() + ARM_LEAD;
        arm_at = base + (uint32_t)p->from + n;
        board_stim_arm(arm_at, 0, 1);
        p->run();
        p->check();
        check_kernel(0);
        stack_check();
        uint32_t sp; /* the driver's own stack: where it was at the first run */
        __asm volatile("mov %0, sp" : "=r"(sp));
        if (!driver_sp0)
            driver_sp0 = sp;
        INV(sp == driver_sp0);
        isr_fn = NULL;
        cleanup();
        if (bad != bad0 && bad > 8)
            break; /* (reported enough) */
    }
    kt_puts(bad == bad0 ? "  ok   " : "  FAIL ");
    kt_puts(p->name);
    kt_puts(": ");
    kt_putu(count);
    kt_puts(" arrival cycles (path ");
    kt_putu(len);
    kt_puts(" cycles)\n");
    return count;
}

static void irq_sweep(void)
{
    board_irq_enable(BOARD_STIM_IRQ, 1);
    uint32_t total = 0;
    unsigned np = n_paths;
    for (unsigned i = 0; i < np; i++)
        total += sweep(&paths[i]);
    uint32_t storms = irq_storms();
    board_irq_disable(BOARD_STIM_IRQ);
    kt_puts("  stack high-water (bytes):");
    for (int i = 0; i < NT; i++) {
        kt_puts(" ");
        kt_putu(stack_max[i]);
    }
    kt_puts("\n");
    kt_puts("irq sweep: ");
    kt_putu(np);
    kt_puts(" paths x ");
    kt_putu(total);
    kt_puts(" arrival cycles covered, storms ");
    kt_putu(storms);
    kt_puts(" arrivals\n");
    KT_EQ(bad, 0);
}

static void driver(void *arg)
{
    (void)arg;
    kt_puts("interrupt sweep on " BOARD_NAME "\n");
    KT_RUN(irq_sweep);
    kt_finish();
}

K_THREAD_DEFINE(driver_thread, 1024, driver, NULL, DRV);

int main(void)
{
    k_start();
}
