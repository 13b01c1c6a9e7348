/*
 * Behaviour tests of the footprint build (rtoslab_kernel_min_c: threads, semaphores, delays,
 * 4 priorities, no checks; one ready list, every switch through PendSV): what it keeps of the
 * API works as in the full build. ktest_kernel_list runs the full tests on the same
 * scheduler with every feature.
 *
 * The driver runs at priority DRV; helpers are created per case from a small pool. Without
 * checks, a case must leave every helper ended (or abortable) before the pool is reused.
 */
#include "ktest.h"

#define DRV 2
#define NH 4
#define STACK 384
#define TEST_IRQ 20u /* nRF51 SWI0; unused on the lab boards */
#define DEAD 0xA5u   /* (Z_STATE_DEAD) */

static struct k_thread th[NH];
static uint64_t stacks[NH][STACK / 8];

static volatile int logv[16];
static volatile int nlog;

static void log_add(int v)
{
    if (nlog < 16)
        logv[nlog++] = v;
}

#define LOG_IS(...)                                                                       \
    do {                                                                                  \
        static const int exp_[] = {__VA_ARGS__};                                          \
        KT_EQ(nlog, (int)(sizeof exp_ / sizeof exp_[0]));                                 \
        for (int i_ = 0; i_ < nlog && i_ < (int)(sizeof exp_ / sizeof exp_[0]); i_++)    \
            KT_EQ(logv[i_], exp_[i_]);                                                    \
    } while (0)

static void spawn(int i, k_entry_t fn, int arg, unsigned prio)
{
    KT_EQ(k_thread_create(&th[i], stacks[i], sizeof stacks[i], fn, (void *)(intptr_t)arg, prio), 0);
}

/* Let every other ready thread run until it blocks or ends (see test_kernel.c). */
static void settle(void)
{
    k_thread_prio_set(NULL, 0);
    k_yield();
    k_thread_prio_set(NULL, DRV);
}

static void cleanup(void)
{
    settle();
    for (int i = 0; i < NH; i++)
        if (th[i].z_state && th[i].z_state != DEAD)
            KT_EQ(k_thread_abort(&th[i]), 0);
}

/* ---- scheduling -------------------------------------------------------------------------- */

static void t_log_id(void *arg)
{
    log_add((int)(intptr_t)arg); /* and returns: k_thread_exit */
}

static void prio_order(void)
{
    nlog = 0;
    spawn(0, t_log_id, 1, 1);
    spawn(1, t_log_id, 0, 0);
    spawn(2, t_log_id, 11, 1);
    KT_EQ(nlog, 0);
    settle();
    LOG_IS(1, 11, 0);
}

static void preempt_immediate(void)
{
    nlog = 0;
    spawn(0, t_log_id, 3, 3);
    log_add(2);
    LOG_IS(3, 2);
}

static void t_yield2(void *arg)
{
    int id = (int)(intptr_t)arg;
    log_add(id);
    k_yield();
    log_add(id + 10);
    k_yield();
    log_add(id + 20);
}

static void fifo_equal_priority(void)
{
    nlog = 0;
    spawn(0, t_yield2, 0, 1);
    spawn(1, t_yield2, 1, 1);
    spawn(2, t_yield2, 2, 1);
    settle();
    LOG_IS(0, 1, 2, 10, 11, 12, 20, 21, 22);
    nlog = 0;
    k_yield(); /* alone at its priority: returns at once */
    KT_EQ(nlog, 0);
    spawn(0, t_log_id, 5, DRV);
    KT_EQ(nlog, 0);
#if K_CONFIG_SLEEP_YIELD
    KT_EQ(k_sleep(K_NO_WAIT), 0); /* a yield: the helper of the same priority runs */
#else
    KT_EQ(k_sleep(K_NO_WAIT), 0); /* (config.h) returns at once: the helper has not run */
    KT_EQ(nlog, 0);
    k_yield();
#endif
    LOG_IS(5);
}

static void t_spin_log(void *arg)
{
    int id = (int)(intptr_t)arg;
    log_add(id);
    for (volatile int i = 0; i < 2000; i++) {
    }
    log_add(id + 10);
}

static void preempted_keeps_place(void)
{
    nlog = 0;
    spawn(0, t_spin_log, 0, 1);
    spawn(1, t_spin_log, 1, 1);
    k_sleep(K_USEC(50)); /* 0 starts; the alarm wakes the driver, preempting 0 */
    settle();
    LOG_IS(0, 10, 1, 11);
}

/* ---- delays ------------------------------------------------------------------------------ */

static void sleep_delays(void)
{
    static const k_timeout_t d[] = {K_USEC(10), K_USEC(20), K_USEC(50), K_USEC(100), K_USEC(500)};
    uint32_t worst = 0;
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {
        uint32_t t0 = k_now();
        KT_EQ(k_sleep(d[i]), 0);
        uint32_t dt = k_now() - t0;
        KT_CHECK(dt >= d[i]);
        if (dt - d[i] > worst)
            worst = dt - d[i];
    }
#if BOARD_CYCLE_ACCURATE && K_CONFIG_TICKLESS
    kt_puts("  late by at most ");
    kt_putu(worst);
    kt_puts(" cycles\n");
    KT_CHECK(worst <= 60u); /* (includes this test's own clock reads and call) */
#endif
    uint32_t next = k_now();
    for (int i = 0; i < 5; i++) {
        next += K_USEC(200);
        KT_EQ(k_sleep_until(next), 0);
        KT_CHECK((int32_t)(k_now() - next) >= 0);
    }
    KT_EQ(k_sleep_until(next - 10), 0); /* past: at once */
}

static void t_sleep_log(void *arg)
{
    int us = (int)(intptr_t)arg;
    k_sleep(K_USEC(us));
    log_add(us);
}

static void sleep_order(void)
{
    nlog = 0;
    spawn(0, t_sleep_log, 300, 3); /* (all above the driver: each logs when it wakes, and */
    spawn(1, t_sleep_log, 100, 3); /* those that expire together wake in deadline order) */
    spawn(2, t_sleep_log, 200, 3);
    k_sleep(K_USEC(600));
    LOG_IS(100, 200, 300);
}

/* ---- semaphores -------------------------------------------------------------------------- */

static K_SEM_DEFINE(sa, 0, 0);
static struct k_sem sdyn;

static void sem_counting(void)
{
    KT_EQ(k_sem_init(&sdyn, 3, 0), 0);
    KT_EQ(k_sem_count(&sdyn), 3);
    for (int i = 0; i < 3; i++)
        KT_EQ(k_sem_wait(&sdyn, K_NO_WAIT), 0);
    KT_EQ(k_sem_wait(&sdyn, K_NO_WAIT), K_EAGAIN);
    KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_count(&sdyn), 2);
    KT_EQ(k_sem_init(&sdyn, 0, 1), 0); /* binary */
    KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), K_EOVERFLOW);
    KT_EQ(k_sem_count(&sdyn), 1);
    KT_EQ(k_sem_init(&sdyn, 0, 255), 0);
    for (int i = 0; i < 255; i++)
        KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), K_EOVERFLOW);
    KT_EQ(k_sem_init(&sdyn, 65534, 0), 0); /* limit 0: 65535 */
    KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), K_EOVERFLOW);
    KT_EQ(k_sem_count(&sdyn), 65535);
}

static void t_wait_log(void *arg)
{
    KT_EQ(k_sem_wait(&sa, K_FOREVER), 0);
    log_add((int)(intptr_t)arg);
}

static void sem_wake_order(void)
{
    nlog = 0;
    spawn(0, t_wait_log, 1, 1);
    spawn(1, t_wait_log, 2, 3); /* runs and blocks at once */
    spawn(2, t_wait_log, 3, 1);
    settle();                   /* the two of priority 1 block */
    KT_EQ(nlog, 0);
    /* re-initialising a semaphore with waiters: K_EBUSY, nothing changes (issue 11) */
    KT_EQ(k_sem_init(&sa, 5, 0), K_EBUSY);
    KT_EQ(k_sem_count(&sa), 0);
    KT_EQ(k_sem_signal(&sa), 0); /* the highest waiter, above the driver: runs at once */
    LOG_IS(2);
    KT_EQ(k_sem_signal(&sa), 0); /* below the driver: no switch */
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(nlog, 1);
    settle();
    LOG_IS(2, 1, 3); /* FIFO among equals */
    KT_EQ(k_sem_count(&sa), 0);
}

static K_SEM_DEFINE(ping, 0, 0);
static K_SEM_DEFINE(pong, 0, 0);
static volatile int rounds;

static void t_ponger(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++) {
        k_sem_wait(&ping, K_FOREVER);
        rounds++;
        k_sem_signal(&pong);
    }
}

static void sem_pingpong(void)
{
    rounds = 0;
    spawn(0, t_ponger, 0, 1); /* below the driver: each signal only readies it */
    for (int i = 0; i < 100; i++) {
        KT_EQ(k_sem_signal(&ping), 0);
        KT_EQ(k_sem_wait(&pong, K_FOREVER), 0);
        KT_EQ(rounds, i + 1);
    }
    settle(); /* (the ponger, preempted by its last signal, returns) */
    KT_EQ(th[0].z_state, DEAD);
}

/* ---- interrupts -------------------------------------------------------------------------- */

static K_SEM_DEFINE(isem, 0, 0);
static K_SEM_DEFINE(park, 0, 0);
static volatile int isr_r;

void IRQ20_Handler(void)
{
    isr_r = k_sem_signal_isr(&isem);
}

static void t_isr_waiter(void *arg)
{
    KT_EQ(k_sem_wait(&isem, K_FOREVER), 0);
    log_add((int)(intptr_t)arg);
}

static void isr_signal(void)
{
    nlog = 0;
    board_irq_enable(TEST_IRQ, 1);
    spawn(0, t_isr_waiter, 6, 3); /* blocks at once */
    isr_r = -100;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_r, 0);
    LOG_IS(6); /* switched to on the interrupt's return */
    board_irq_trigger(TEST_IRQ); /* nobody waits: counted */
    __asm volatile("dsb\n isb");
    KT_EQ(k_sem_count(&isem), 1);
    KT_EQ(k_sem_wait(&isem, K_NO_WAIT), 0);
    board_irq_disable(TEST_IRQ);
}

/* The idle loop runs in thread mode: an interrupt at the lowest priority (PendSV's) runs
 * while every thread waits, and wakes them. The helper leaves it pending with interrupts
 * masked and ends: the interrupt is taken in the idle loop (at PendSV's priority it would
 * wait forever for an idle loop inside PendSV). A wait made masked is refused, the mask
 * kept (K_EMASKED: it used to block and unmask, issue 31); k_thread_exit ends a masked
 * thread, the next one (here the idle loop) running unmasked. */
static void t_raise_and_park(void *arg)
{
    (void)arg;
    __asm volatile("cpsid i" ::: "memory");
    board_irq_trigger(TEST_IRQ);
    int r = k_sem_wait(&park, K_FOREVER);
    uint32_t pm;
    __asm volatile("mrs %0, primask" : "=r"(pm)::"memory");
    log_add(r == K_EMASKED && pm == 1u ? 9 : 8);
    k_thread_exit();
}

static void isr_lowest_priority(void)
{
    nlog = 0;
    board_irq_enable(TEST_IRQ, 3);
    isr_r = -100;
    spawn(0, t_raise_and_park, 0, 0);
    KT_EQ(k_sem_wait(&isem, K_FOREVER), 0); /* the helper runs, then nothing: idle */
    KT_EQ(isr_r, 0);
    board_irq_disable(TEST_IRQ);
    LOG_IS(9);
}

/* ---- exit, abort, reuse ------------------------------------------------------------------ */

static void exit_abort_reuse(void)
{
    nlog = 0;
    spawn(0, t_log_id, 7, 3); /* runs and returns */
    KT_EQ(th[0].z_state, DEAD);
    spawn(0, t_log_id, 8, 3); /* the same memory again */
    LOG_IS(7, 8);
    spawn(1, t_log_id, 9, 1); /* ready, never ran */
    KT_EQ(k_thread_abort(&th[1]), 0);
    KT_EQ(k_thread_abort(&th[1]), K_ESTATE);
    spawn(2, t_sleep_log, 100, 3); /* sleeping */
    KT_EQ(k_thread_abort(&th[2]), 0);
    spawn(3, t_wait_log, 10, 3); /* on a semaphore: not recorded in this build */
    KT_EQ(k_thread_abort(&th[3]), K_ESTATE);
    k_sleep(K_USEC(300));
    settle();
    LOG_IS(7, 8); /* the aborted ones never logged */
    k_sem_signal(&sa);
    LOG_IS(7, 8, 10);
}

/* ---- driver ------------------------------------------------------------------------------ */

static void driver(void *arg)
{
    (void)arg;
    kt_puts("minimal kernel tests on " BOARD_NAME "\n");
#define CASE(fn)    \
    do {            \
        KT_RUN(fn); \
        cleanup();  \
    } while (0)
    CASE(prio_order);
    CASE(preempt_immediate);
    CASE(fifo_equal_priority);
    CASE(preempted_keeps_place);
    CASE(sleep_delays);
    CASE(sleep_order);
    CASE(sem_counting);
    CASE(sem_wake_order);
    CASE(sem_pingpong);
    CASE(isr_signal);
    CASE(isr_lowest_priority);
    CASE(exit_abort_reuse);
    kt_finish();
}

K_THREAD_DEFINE(drv, 768, driver, NULL, DRV);

int main(void)
{
    k_start();
}
