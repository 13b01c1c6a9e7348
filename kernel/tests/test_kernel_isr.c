/*
 * The kernel's behaviour tests, interrupts: signals from a handler, k_sem_signal_irq, an interrupt at the lowest
 * priority during the idle loop (the test IRQ's handler is here).
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- interrupts -------------------------------------------------------------------------- */

K_SEM_DEFINE(isem, 0, 0);
static K_SEM_DEFINE(lsem, 0, 2);
static K_SEM_DEFINE(fsem, 65534, 0);
volatile int isr_r[8];
volatile int isr_mode;
struct k_mutex *volatile isr_mutex;
extern struct k_mempool pool128;
void *volatile isr_blk;
volatile int isr_free_r;
struct k_thread *volatile isr_prio_target;

void IRQ20_Handler(void)
{
    if (isr_mode == 0) {
        isr_r[0] = k_sem_signal_isr(&isem);
    } else if (isr_mode == 2) {
        isr_r[0] = k_sem_signal_irq(&isem); /* handler mode, interrupts enabled */
    } else if (isr_mode == 3) {
        isr_r[0] = k_sem_signal_irq(NULL);
    } else if (isr_mode == 10) {
        /* the count's limits and the type (the speed profile's inline signal tests them at
         * the call site, the word's top half at once) */
        isr_r[0] = k_sem_signal_irq(&lsem); /* limit 2: 1 */
        isr_r[1] = k_sem_signal_irq(&lsem); /* 2 */
        isr_r[2] = k_sem_signal_irq(&lsem); /* at the limit */
        isr_r[3] = k_sem_signal_irq(&fsem); /* no limit: 65535 */
        isr_r[4] = k_sem_signal_irq(&fsem); /* 65535 is the count's own limit */
        KT_MISUSE(isr_r[5] = k_sem_signal_irq((struct k_sem *)&m1)); /* not a semaphore */
    } else if (isr_mode == 8) {
        isr_r[0] = k_thread_resume_isr(&th[1]); /* the switch is pended (PendSV) */
    } else if (isr_mode == 9) {
        isr_r[0] = k_thread_prio_set(isr_prio_target, 7); /* thread-only: K_EISR */
        isr_r[1] = k_thread_prio_set(NULL, 7);
    } else if (isr_mode == 5) {
        isr_blk = k_mempool_alloc(&pool128);
    } else if (isr_mode == 6) {
        isr_free_r = k_mempool_free(&pool128, isr_blk);
    } else if (isr_mode == 7) {
        isr_r[0] = k_event_set(&ev1, 0x4);       /* from an interrupt: the switch is pended */
        isr_r[1] = k_event_wait(&ev1, 0x100, K_EVENT_ANY, K_FOREVER, NULL); /* would block */
        isr_r[2] = k_event_wait(&ev1, 0x1, K_EVENT_ANY, K_NO_WAIT, NULL);   /* set: 0 */
        isr_r[3] = k_event_clear(&ev1, 0x1);
    } else if (isr_mode == 4) {
        /* mutexes are refused in interrupts, whoever owns them (issue 11) */
        int (*lock)(struct k_mutex *, k_timeout_t) = k_mutex_lock; /* the out-of-line ones */
        int (*unlock)(struct k_mutex *) = k_mutex_unlock;
        isr_r[0] = k_mutex_lock(isr_mutex, K_NO_WAIT);
        isr_r[1] = k_mutex_lock(isr_mutex, K_FOREVER);
        isr_r[2] = k_mutex_unlock(isr_mutex);
        isr_r[3] = lock(isr_mutex, K_NO_WAIT);
        isr_r[4] = unlock(isr_mutex);
        isr_r[5] = k_mutex_init(isr_mutex) == K_OK; /* (free: allowed; held: K_EBUSY) */
    } else {
        KT_MISUSE(isr_r[1] = k_sem_wait(&isem, K_FOREVER));
        isr_r[2] = k_mutex_lock(&m1, K_FOREVER); /* (K_EISR without the checks too) */
        KT_MISUSE(isr_r[3] = k_sleep(K_USEC(10)));
        uint32_t v = 77;
        isr_r[4] = k_queue_send_isr(&q4, &v);
        isr_r[5] = k_in_isr();
        KT_MISUSE(isr_r[6] = k_thread_suspend(NULL)); /* threads only */
        KT_MISUSE(isr_r[7] = k_thread_resume(&th[1]));
    }
}

static void t_isr_waiter(void *arg)
{
    (void)arg;
    while (k_sem_wait(&isem, K_MSEC(5)) == 0)
        log_add(1);
}

void t_hold_m1_go2(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    k_sem_wait(&go2, K_FOREVER);
    k_mutex_unlock(&m1);
}

void isr_signal(void)
{
    log_reset();
    board_irq_enable(TEST_IRQ, 1);
    spawn(0, t_isr_waiter, 0, 6);
    isr_mode = 0;
    for (int i = 0; i < 3; i++) {
        board_irq_trigger(TEST_IRQ);
        __asm volatile("dsb\n isb");
        log_add(2); /* the waiter ran before the interrupted driver */
    }
    LOG_IS(1, 2, 1, 2, 1, 2);
    KT_EQ(isr_r[0], 0);
    spawn(1, t_hold_m1_go2, 0, 6);
    isr_mode = 1;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_MISUSE(KT_EQ(isr_r[1], K_EISR));
    KT_EQ(isr_r[2], K_EISR);
    KT_MISUSE(KT_EQ(isr_r[3], K_EISR));
    KT_EQ(isr_r[4], 0);
    KT_EQ(isr_r[5], 1);
    KT_MISUSE(KT_EQ(isr_r[6], K_EISR));
    KT_MISUSE(KT_EQ(isr_r[7], K_EISR));
    KT_EQ(k_in_isr(), 0);
    uint32_t v;
    KT_EQ(k_queue_recv(&q4, &v, K_NO_WAIT), 0);
    KT_EQ(v, 77);
    k_sem_signal(&go2);
    board_irq_disable(TEST_IRQ);
    k_sleep(K_MSEC(6));
}

/* k_sem_signal_irq (the handler-only variant): a K_FOREVER waiter of higher priority runs
 * when the interrupt returns; without a waiter the count goes up, to its limit (K_EOVERFLOW
 * past it, with a limit or without); NULL or another object is K_EINVAL. */
static void t_irq_waiter(void *arg)
{
    (void)arg;
    for (;;) {
        k_sem_wait(&isem, K_FOREVER);
        log_add(1);
    }
}

/* its last wait timed out (its result word holds K_ETIMEDOUT), then it suspends itself */
static void t_timed_then_suspend(void *arg)
{
    (void)arg;
    res[2] = k_sem_wait(&isem, K_USEC(20));
    res[1] = k_thread_suspend(NULL);
}

void isr_signal_irq(void)
{
    log_reset();
    board_irq_enable(TEST_IRQ, 1);
    spawn(0, t_irq_waiter, 0, 6);
    isr_mode = 2;
    for (int i = 0; i < 3; i++) {
        isr_r[0] = -100;
        board_irq_trigger(TEST_IRQ);
        __asm volatile("dsb\n isb");
        log_add(2);
    }
    LOG_IS(1, 2, 1, 2, 1, 2);
    KT_EQ(isr_r[0], 0);
    k_thread_abort(&th[0]);
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_r[0], 0);
    KT_EQ(k_sem_count(&isem), 1);
    KT_EQ(k_sem_wait(&isem, K_NO_WAIT), 0);
#if K_CONFIG_CHECKS /* (KT_MISUSE) */
    isr_mode = 3;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_r[0], K_EINVAL);
#endif
    isr_mode = 10;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_r[0], 0);
    KT_EQ(isr_r[1], 0);
    KT_EQ(isr_r[2], K_EOVERFLOW);
    KT_EQ(k_sem_count(&lsem), 2);
    KT_EQ(isr_r[3], 0);
    KT_EQ(isr_r[4], K_EOVERFLOW);
    KT_EQ(k_sem_count(&fsem), 65535);
    KT_MISUSE(KT_EQ(isr_r[5], K_EINVAL));
    /* resumed from an interrupt (PendSV restores its light frame with its result word): its
     * suspend returns 0, not the timeout of its previous wait */
    res[1] = res[2] = -100;
    spawn(1, t_timed_then_suspend, 0, 6);
    k_sleep(T_OBSERVED);
    KT_EQ(res[2], K_ETIMEDOUT);
    isr_mode = 8;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_r[0], 0);
    KT_EQ(res[1], 0);
    isr_mode = 0;
    board_irq_disable(TEST_IRQ);
}

/* The idle loop runs in thread mode: an interrupt at the lowest priority (PendSV's) still
 * runs while every thread waits, and wakes them. A timer (whose callback runs in the time
 * source's interrupt) raises it while the driver waits. */
static void raise_test_irq(struct k_timer *t, void *arg)
{
    (void)t, (void)arg;
    board_irq_trigger(TEST_IRQ);
}
static K_TIMER_DEFINE(irq_timer, raise_test_irq, NULL);

void isr_lowest_priority(void)
{
    board_irq_enable(TEST_IRQ, 3);
    isr_mode = 0;
    isr_r[0] = -100;
    k_timer_start(&irq_timer, K_USEC(100), 0);
    /* (with the idle loop inside PendSV, the interrupt would wait for the timeout) */
    KT_EQ(k_sem_wait(&isem, K_MSEC(20)), 0);
    KT_EQ(isr_r[0], 0);
    board_irq_disable(TEST_IRQ);
}
