/*
 * Soak test (issue 31; the simulated boards: it needs the stimulus generator): threads and
 * three interrupt sources at random (seeded, so deterministic) rates for SOAK_CYCLES.
 *
 * Sources: the stimulus (IRQ1, priority 1), re-armed by its own handler 150..2200 cycles
 * ahead; a software interrupt (IRQ20, priority 2) that the stimulus handler pends one time
 * in three (nested arrivals); a kernel timer (the alarm) restarted by its own callback
 * 300..6000 cycles ahead. Each signals a semaphore that a thread waits on with a random
 * timeout, and the software interrupt sends sequence numbers through a queue. Threads: the
 * three waiters, a queue receiver, two threads sharing a mutex, and a busy thread at the
 * lowest priority that checks that its stack pointer never moves.
 *
 * Invariants, checked as it runs and at the end: no signal lost or duplicated (units given
 * = units taken + units left), queue items in order with none lost (sent = received + left),
 * mutual exclusion, every wait's result consistent with the time it returned (K_ETIMEDOUT
 * never before the timeout; how late the top waiter returns is printed), every thread's
 * stack high-water mark within its budget. It prints its figures: cycles, interrupts per
 * source, wake-ups (switches into a thread), the stack used by each thread.
 */
#include "ktest.h"

#if !BOARD_HAS_STIMULUS
#error "test_soak needs the stimulus generator (vp boards)"
#endif
_Static_assert(BOARD_STIM_IRQ == 1, "the handler below is IRQ1_Handler");

#ifndef SOAK_CYCLES
#define SOAK_CYCLES 1000000000u
#endif
#define SWI 20u             /* (unused on the lab boards) */
#define NTH 7
#define STACK 512
#define BUDGET 320u         /* bytes a soak thread may use of its STACK */
#define PAINT 0xA5A5A5A5u

/* One generator per user (nothing shared between contexts), seeded from SOAK_SEED. */
#define SOAK_SEED 31u
static uint32_t rnd(uint32_t *st, uint32_t lo, uint32_t hi)
{
    *st = *st * 1664525u + 1013904223u;
    return lo + (((*st >> 16) * (hi - lo + 1u)) >> 16); /* (no division: the M0 has none) */
}

static K_SEM_DEFINE(s_stim, 0, 0);
static K_SEM_DEFINE(s_swi, 0, 0);
static K_SEM_DEFINE(s_tmr, 0, 0);
static K_MUTEX_DEFINE(mx);
K_QUEUE_DEFINE(qs, 4, 8);

static struct k_thread th[NTH];
static uint64_t stacks[NTH][STACK / 8];
static volatile uint32_t given[3], taken[3], n_irq[3], q_sent, q_got, q_full, wakes;
static volatile uint32_t bad, b_moved, in_cs, late_max, stop;
static struct k_timer tmr;
static volatile uint32_t late_to;

static void fail(const char *what)
{
    if (bad++ < 8) {
        kt_puts("  invariant: ");
        kt_puts(what);
        kt_puts("\n");
    }
}

/* ---- the interrupts ------------------------------------------------------------------- */

void IRQ1_Handler(void)
{
    static uint32_t st = SOAK_SEED;
    uint32_t next = rnd(&st, 150u, 2200u), swi = rnd(&st, 0u, 2u) == 0u;
    n_irq[0]++;
    if (!stop)
        board_stim_arm(board_stim_last_rise() + next, 0, 1);
    if (k_sem_signal_isr(&s_stim) == 0)
        given[0]++;
    if (swi)
        board_irq_trigger(SWI); /* (lower priority: runs once this one returns) */
}

void IRQ20_Handler(void)
{
    n_irq[1]++;
    if (k_sem_signal_isr(&s_swi) == 0)
        given[1]++;
    uint32_t v = q_sent;
    if (k_queue_send_isr(&qs, &v) == 0)
        q_sent = v + 1u;
    else
        q_full++;
}

static void on_tmr(struct k_timer *t, void *arg)
{
    (void)arg;
    n_irq[2]++;
    if (k_sem_signal_isr(&s_tmr) == 0)
        given[2]++;
    static uint32_t st = SOAK_SEED + 1u;
    uint32_t next = rnd(&st, 300u, 6000u);
    if (!stop)
        k_timer_start(t, next, 0);
}

/* ---- the threads ---------------------------------------------------------------------- */

static struct k_sem *const sems[3] = {&s_stim, &s_swi, &s_tmr};

/* A waiter on source i: random timeouts; each result checked against the time it took. */
static void t_waiter(void *arg)
{
    int i = (int)(intptr_t)arg;
    uint32_t st = SOAK_SEED + 2u + (uint32_t)i;
    while (!stop) {
        k_timeout_t to = rnd(&st, 0u, 4u) == 0u ? K_FOREVER : rnd(&st, 200u, 8000u);
        uint32_t t0 = k_now();
        int r = k_sem_wait(sems[i], to);
        uint32_t dt = k_now() - t0;
        wakes++;
        if (r == 0) {
            taken[i]++;
            if (i == 0 && to != K_FOREVER && dt > to && dt - to > late_max)
                late_max = dt - to;
        } else if (r == K_ETIMEDOUT) {
            if (dt < to)
                fail("a timeout before its deadline");
            if (i == 0 && dt - to > late_to)
                late_to = dt - to;
        } else {
            fail("a wait's result");
        }
    }
}

static void t_receiver(void *arg)
{
    (void)arg;
    while (!stop) {
        uint32_t v;
        int r = k_queue_recv(&qs, &v, K_MSEC(1));
        if (r == 0) {
            wakes++;
            if (v != q_got)
                fail("a queue item lost, duplicated or out of order");
            q_got = v + 1u;
        } else if (r != K_ETIMEDOUT) {
            fail("a queue receive's result");
        }
    }
}

static void t_locker(void *arg)
{
    uint32_t spin = (uint32_t)(intptr_t)arg;
    while (!stop) {
        if (k_mutex_lock(&mx, K_MSEC(2)) != 0) {
            fail("a mutex lock");
            continue;
        }
        wakes++;
        if (in_cs++)
            fail("mutual exclusion");
        for (volatile uint32_t n = 0; n < spin; n++) {
        }
        in_cs--;
        k_mutex_unlock(&mx);
        k_sleep(spin * 40u);
    }
}

static void t_busy(void *arg)
{
    (void)arg;
    uint32_t sp0, sp;
    __asm volatile("mov %0, sp" : "=r"(sp0));
    while (!stop) {
        __asm volatile("mov %0, sp" : "=r"(sp));
        if (sp != sp0)
            b_moved++;
    }
}

static const struct {
    k_entry_t fn;
    intptr_t arg;
    unsigned prio;
    const char *name;
} soak_threads[NTH] = {
    {t_waiter, 0, 6, "wait(stim)"}, {t_waiter, 1, 5, "wait(swi)"}, {t_waiter, 2, 4, "wait(timer)"},
    {t_receiver, 0, 3, "queue recv"}, {t_locker, 20, 2, "mutex A"}, {t_locker, 50, 2, "mutex B"},
    {t_busy, 0, 1, "busy"},
};

static uint32_t stack_used(int i)
{
    const uint32_t *lo = (const uint32_t *)stacks[i];
    uint32_t w = 1; /* (the guard word at the bottom is the kernel's) */
    while (w < STACK / 4 && lo[w] == PAINT)
        w++;
    return (STACK / 4 - w) * 4u;
}

/* ---- the driver ----------------------------------------------------------------------- */

static void soak(void)
{
    for (int i = 0; i < NTH; i++) {
        for (unsigned w = 0; w < STACK / 4; w++)
            ((uint32_t *)stacks[i])[w] = PAINT;
        KT_EQ(k_thread_create(&th[i], stacks[i], STACK, soak_threads[i].fn,
                              (void *)soak_threads[i].arg, soak_threads[i].prio), 0);
    }
    board_irq_enable(BOARD_STIM_IRQ, 1);
    board_irq_enable(SWI, 2);
    k_timer_init(&tmr, on_tmr, NULL);
    uint32_t c0 = k_now();
    board_stim_arm(c0 + 1000u, 0, 1);
    k_timer_start(&tmr, 3000u, 0);
    /* the driver (the highest priority) wakes every 10^7 cycles to watch the progress */
    uint32_t last_taken = 0, t = c0;
    for (uint32_t n = 0; n < SOAK_CYCLES / 10000000u; n++) {
        t += 10000000u;
        k_sleep_until(t);
        uint32_t tk = taken[0] + taken[1] + taken[2];
        if (tk == last_taken)
            fail("no progress for 10^7 cycles");
        last_taken = tk;
    }
    stop = 1;
    k_timer_stop(&tmr);
    k_sleep(K_MSEC(5)); /* the last interrupts come in, the threads see `stop` */
    board_irq_disable(BOARD_STIM_IRQ);
    board_irq_disable(SWI);
    for (int i = 0; i < 3; i++) /* wake the waiters left blocked for good */
        k_sem_signal(sems[i]), given[i]++;
    k_sleep(K_MSEC(1));
    uint32_t cycles = k_now() - c0;
    for (int i = 0; i < 3; i++)
        if (given[i] != taken[i] + (uint32_t)k_sem_count(sems[i]))
            fail("a signal lost or duplicated");
    uint32_t left = 0, v;
    while (k_queue_recv(&qs, &v, K_NO_WAIT) == 0) {
        if (v != q_got + left)
            fail("a queue item lost at the end");
        left++;
    }
    if (q_sent != q_got + left)
        fail("queue counts");
    if (b_moved)
        fail("the busy thread's stack pointer moved");
    kt_puts("soak on " BOARD_NAME ": ");
    kt_putu(cycles);
    kt_puts(" cycles; interrupts: stimulus ");
    kt_putu(n_irq[0]);
    kt_puts(", software ");
    kt_putu(n_irq[1]);
    kt_puts(", timer ");
    kt_putu(n_irq[2]);
    kt_puts("; thread wake-ups ");
    kt_putu(wakes);
    kt_puts("; queue items ");
    kt_putu(q_sent);
    kt_puts(" (");
    kt_putu(q_full);
    kt_puts(" refused: full); the top waiter returned up to ");
    kt_putu(late_max);
    kt_puts(" cycles after its deadline (satisfied), ");
    kt_putu(late_to);
    kt_puts(" (timed out)\n  stack used (bytes of ");
    kt_putu(STACK);
    kt_puts("):");
    for (int i = 0; i < NTH; i++) {
        uint32_t u = stack_used(i);
        kt_puts(" ");
        kt_puts(soak_threads[i].name);
        kt_puts(" ");
        kt_putu(u);
        if (u > BUDGET)
            fail("a thread's stack past its budget");
    }
    kt_puts("\n");
    for (int i = 0; i < NTH; i++)
        (void)k_thread_abort(&th[i]);
    KT_EQ(bad, 0);
}

static void driver(void *arg)
{
    (void)arg;
    KT_RUN(soak);
    kt_finish();
}

K_THREAD_DEFINE(driver_thread, 1024, driver, NULL, 7);

int main(void)
{
    k_start();
}
