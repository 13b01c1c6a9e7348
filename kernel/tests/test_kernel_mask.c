/*
 * The kernel's behaviour tests, the caller's interrupt mask (issue 31, item 2): every thread
 * call made with interrupts masked (PRIMASK set; on ARMv7-M also BASEPRI 0x10, above the
 * kernel's own mask, and 0x60, below it) returns with the caller's mask unchanged; a thread
 * it readies that outranks the caller runs only when the caller unmasks (PendSV); a call
 * that would block (or sleep) returns K_EMASKED at once. docs/kernel-api.md, "Interrupt
 * masks". Before the fix, vp-m0 returned unmasked from most of them and vp-m3 reset BASEPRI.
 * (test_kernel.c: the helpers and the driver.)
 */
#include "test_kernel.h"

#if defined(__thumb2__)
#define MASK_MODES 3 /* PRIMASK, BASEPRI 0x10, BASEPRI 0x60 */
#else
#define MASK_MODES 1 /* PRIMASK */
#endif

static const char *const mode_name[3] = {"primask", "basepri 0x10", "basepri 0x60"};

/* The mask as one word: PRIMASK in bit 0, BASEPRI in bits 8-15. */
static uint32_t mask_get(void)
{
    uint32_t pm;
    __asm volatile("mrs %0, primask" : "=r"(pm)::"memory");
#if defined(__thumb2__)
    uint32_t bp;
    __asm volatile("mrs %0, basepri" : "=r"(bp)::"memory");
    pm |= bp << 8;
#endif
    return pm;
}

static uint32_t mask_set(int mode)
{
    if (mode == 0) {
        __asm volatile("cpsid i" ::: "memory");
    } else {
#if defined(__thumb2__)
        uint32_t bp = mode == 1 ? 0x10u : 0x60u;
        __asm volatile("msr basepri, %0" ::"r"(bp) : "memory");
#endif
    }
    return mask_get();
}

static void mask_clear(void)
{
#if defined(__thumb2__)
    __asm volatile("msr basepri, %0" ::"r"(0u) : "memory");
#endif
    __asm volatile("cpsie i" ::: "memory");
}

static int cur_mode;
static int log_after; /* MASKED_CALL_LOG: 200 logged after the call, still masked */

/* Check that the mask after the call is the one set, then clear it (so that a failure does
 * not leave the rest of the tests masked). */
#define MASKED_CALL(expect, call)                                         \
    do {                                                                  \
        uint32_t m_ = mask_set(cur_mode);                                 \
        int r_ = (call);                                                  \
        uint32_t a_ = mask_get();                                         \
        if (log_after)                                                    \
            log_add(200);                                                 \
        mask_clear();                                                     \
        KT_EQ(r_, (expect));                                              \
        if (a_ != m_) {                                                   \
            kt_puts("  mask changed by " #call " (");                     \
            kt_puts(mode_name[cur_mode]);                                 \
            kt_puts(")\n");                                               \
        }                                                                 \
        KT_EQ(a_, m_);                                                    \
    } while (0)

/* The same, logging 200 after the call while still masked: a thread the call readied that
 * outranks the caller must log after it (it runs when the caller unmasks). */
#define MASKED_CALL_LOG(expect, call) \
    do {                              \
        log_after = 1;                \
        MASKED_CALL(expect, call);    \
        log_after = 0;                \
    } while (0)

static K_SEM_DEFINE(ms, 0, 0);
static K_SEM_DEFINE(mgo, 0, 0);
static K_MUTEX_DEFINE(mm);
K_QUEUE_DEFINE(mq, 4, 2);
static struct k_event mev;
K_MEMPOOL_DEFINE(mpool, 16, 2);

static void t_wait_ms(void *arg)
{
    res[(int)(intptr_t)arg] = k_sem_wait(&ms, K_FOREVER);
    log_add((int)(intptr_t)arg);
}

static void t_log(void *arg)
{
    log_add((int)(intptr_t)arg);
}

static void t_lock_mm(void *arg)
{
    res[(int)(intptr_t)arg] = k_mutex_lock(&mm, K_FOREVER);
    log_add((int)(intptr_t)arg);
    k_mutex_unlock(&mm);
}

static void t_hold_mm(void *arg)
{
    (void)arg;
    k_mutex_lock(&mm, K_FOREVER);
    k_sem_wait(&mgo, K_FOREVER);
    k_mutex_unlock(&mm);
}

static void t_signal_ms(void *arg)
{
    (void)arg;
    k_sem_signal(&ms); /* runs only if the driver blocked (the old kernel) */
}

static void t_recv_mq(void *arg)
{
    uint32_t v;
    res[(int)(intptr_t)arg] = k_queue_recv(&mq, &v, K_FOREVER);
    log_add((int)(intptr_t)arg);
}

static void t_wait_mev(void *arg)
{
    res[(int)(intptr_t)arg] = k_event_wait(&mev, 8, 0, K_FOREVER, NULL);
    log_add((int)(intptr_t)arg);
}

static void t_suspend_self(void *arg)
{
    k_thread_suspend(NULL);
    log_add((int)(intptr_t)arg);
}

static void mask_one_mode(void)
{
    uint32_t item = 7, got = 0;
    /* semaphores */
    k_sem_init(&ms, 0, 0);
    MASKED_CALL(K_EAGAIN, k_sem_wait(&ms, K_NO_WAIT));
    MASKED_CALL(0, k_sem_signal(&ms));
    MASKED_CALL(0, k_sem_wait(&ms, K_NO_WAIT));
    MASKED_CALL(0, k_sem_signal_isr(&ms));
    MASKED_CALL(0, k_sem_wait(&ms, K_FOREVER));
    MASKED_CALL(K_EMASKED, k_sem_wait(&ms, KT_US(50)));
    spawn(0, t_signal_ms, 0, DRV - 1); /* (the old kernel blocked: this woke it) */
    MASKED_CALL(K_EMASKED, k_sem_wait(&ms, K_FOREVER));
    settle();
    KT_EQ(k_sem_count(&ms), 1);
    k_sem_init(&ms, 0, 0);
    /* a signal that wakes a waiter of higher priority: it runs once the driver unmasks */
    log_reset();
    spawn(1, t_wait_ms, 1, DRV + 1);
    MASKED_CALL_LOG(0, k_sem_signal(&ms));
    LOG_IS(200, 1);
    KT_EQ(res[1], 0);
    /* mutexes: uncontended, then held by another thread, then a waiter of higher priority */
    MASKED_CALL(0, k_mutex_lock(&mm, K_FOREVER));
    MASKED_CALL(0, k_mutex_unlock(&mm));
    MASKED_CALL(0, k_mutex_lock(&mm, K_NO_WAIT));
    MASKED_CALL(0, k_mutex_unlock(&mm));
    k_sem_init(&mgo, 0, 0);
    spawn(2, t_hold_mm, 2, DRV + 1);
    MASKED_CALL(K_EAGAIN, k_mutex_lock(&mm, K_NO_WAIT));
    MASKED_CALL(K_EMASKED, k_mutex_lock(&mm, KT_US(50)));
    k_sem_signal(&mgo);
    settle();
    log_reset();
    k_mutex_lock(&mm, K_FOREVER);
    spawn(3, t_lock_mm, 3, DRV + 1); /* waits for mm */
    MASKED_CALL_LOG(0, k_mutex_unlock(&mm));
    LOG_IS(200, 3);
    KT_EQ(res[3], 0);
    /* queues */
    k_queue_init(&mq, mq.z_buf, 4, 2);
    MASKED_CALL(0, k_queue_send(&mq, &item, K_NO_WAIT));
    MASKED_CALL(0, k_queue_send(&mq, &item, K_FOREVER));
    MASKED_CALL(K_EAGAIN, k_queue_send(&mq, &item, K_NO_WAIT));
    MASKED_CALL(K_EMASKED, k_queue_send(&mq, &item, KT_US(50)));
    MASKED_CALL(0, k_queue_recv(&mq, &got, K_NO_WAIT));
    MASKED_CALL(0, k_queue_recv(&mq, &got, K_FOREVER));
    KT_EQ(got, 7);
    MASKED_CALL(K_EAGAIN, k_queue_recv(&mq, &got, K_NO_WAIT));
    MASKED_CALL(K_EMASKED, k_queue_recv(&mq, &got, KT_US(50)));
    MASKED_CALL(0, k_queue_send_isr(&mq, &item));
    MASKED_CALL(0, k_queue_recv_isr(&mq, &got));
    /* events */
    k_event_init(&mev, 0);
    MASKED_CALL(0, k_event_set(&mev, 1));
    MASKED_CALL(0, k_event_set_isr(&mev, 2));
    MASKED_CALL(0, k_event_wait(&mev, 3, K_EVENT_ALL, K_NO_WAIT, NULL));
    MASKED_CALL(0, k_event_clear(&mev, 3));
    MASKED_CALL(K_EAGAIN, k_event_wait(&mev, 4, 0, K_NO_WAIT, NULL));
    MASKED_CALL(K_EMASKED, k_event_wait(&mev, 4, 0, KT_US(50), NULL));
    /* threads */
    MASKED_CALL(0, (k_yield(), 0));
    MASKED_CALL(0, k_sleep(K_NO_WAIT));
    MASKED_CALL(K_EMASKED, k_sleep(KT_US(50)));
    MASKED_CALL(K_EMASKED, k_sleep_until(k_now() + KT_US(50)));
    MASKED_CALL(0, k_thread_prio_set(NULL, DRV));
    MASKED_CALL(DRV, k_thread_prio_get(NULL));
    MASKED_CALL(K_EMASKED, k_thread_suspend(NULL));
    log_reset();
    MASKED_CALL_LOG(0, spawn(4, t_log, 4, DRV + 1));
    LOG_IS(200, 4);
    log_reset();
    spawn(4, t_suspend_self, 4, DRV + 1);
    MASKED_CALL_LOG(0, k_thread_resume(&th[4]));
    LOG_IS(200, 4);
    log_reset();
    spawn(5, t_log, 5, DRV - 1);
    MASKED_CALL_LOG(0, k_thread_prio_set(&th[5], DRV + 1));
    LOG_IS(200, 5);
    spawn(5, t_wait_ms, 5, DRV - 1);
    MASKED_CALL(0, k_thread_abort(&th[5]));
    /* the out-of-line (AAPCS) entries of the inline calls, through pointers */
    int (*volatile lock)(struct k_mutex *, k_timeout_t) = k_mutex_lock;
    int (*volatile unlock)(struct k_mutex *) = k_mutex_unlock;
    int (*volatile wait)(struct k_sem *, k_timeout_t) = k_sem_wait;
    int (*volatile signal)(struct k_sem *) = k_sem_signal;
    void (*volatile yield)(void) = k_yield;
    MASKED_CALL(0, lock(&mm, K_FOREVER));
    MASKED_CALL(0, unlock(&mm));
    MASKED_CALL(0, signal(&ms));
    MASKED_CALL(0, wait(&ms, K_FOREVER));
    MASKED_CALL(K_EAGAIN, wait(&ms, K_NO_WAIT));
    MASKED_CALL(K_EMASKED, wait(&ms, K_FOREVER));
    MASKED_CALL(0, (yield(), 0));
    log_reset();
    spawn(1, t_wait_ms, 1, DRV + 1);
    MASKED_CALL_LOG(0, signal(&ms));
    LOG_IS(200, 1);
    log_reset();
    k_mutex_lock(&mm, K_FOREVER);
    spawn(3, t_lock_mm, 3, DRV + 1); /* waits for mm */
    MASKED_CALL_LOG(0, unlock(&mm));
    LOG_IS(200, 3);
#if K_CONFIG_DESTROY
    /* destroying an object a thread of higher priority waits on: it runs once unmasked */
    log_reset();
    k_sem_init(&ms, 0, 0);
    spawn(1, t_wait_ms, 1, DRV + 1);
    MASKED_CALL_LOG(0, k_sem_destroy(&ms));
    LOG_IS(200, 1);
    KT_EQ(res[1], K_EDESTROYED);
    k_sem_init(&ms, 0, 0);
    log_reset();
    k_queue_init(&mq, mq.z_buf, 4, 2);
    spawn(2, t_recv_mq, 2, DRV + 1);
    MASKED_CALL_LOG(0, k_queue_destroy(&mq));
    LOG_IS(200, 2);
    KT_EQ(res[2], K_EDESTROYED);
    k_queue_init(&mq, mq.z_buf, 4, 2);
    log_reset();
    k_event_init(&mev, 0);
    spawn(3, t_wait_mev, 3, DRV + 1);
    MASKED_CALL_LOG(0, k_event_destroy(&mev));
    LOG_IS(200, 3);
    KT_EQ(res[3], K_EDESTROYED);
    k_event_init(&mev, 0);
    log_reset();
    k_mutex_init(&mm);
    k_mutex_lock(&mm, K_FOREVER);
    spawn(4, t_lock_mm, 4, DRV + 1);
    MASKED_CALL_LOG(0, k_mutex_destroy(&mm));
    LOG_IS(200, 4);
    KT_EQ(res[4], K_EDESTROYED);
    k_mutex_init(&mm);
#endif
    /* memory pools, timers */
    void *b = NULL;
    MASKED_CALL(1, (b = k_mempool_alloc(&mpool)) != NULL);
    MASKED_CALL(0, k_mempool_free(&mpool, b));
    settle();
}

static void t_nop_timer(struct k_timer *t, void *arg)
{
    (void)t, (void)arg;
}

/* (tickless: the alarm at priority 0, 0x20; the periodic tick's SysTick is below 0x60) */
#if defined(__thumb2__) && K_CONFIG_TICKLESS
static volatile int tcb_ran;
static void t_flag_timer(struct k_timer *t, void *arg)
{
    (void)t, (void)arg;
    tcb_ran = 1;
}
#endif

/* ARMv7-M: a thread's BASEPRI below the kernel's mask (0x60) lets the alarm in; its handler,
 * which unmasks for a timer's spin and callback, must return to the thread's BASEPRI (it is
 * not stacked), not 0. */
static void alarm_keeps_basepri(void)
{
#if defined(__thumb2__) && K_CONFIG_TICKLESS
    static struct k_timer tf;
    k_timer_init(&tf, t_flag_timer, NULL);
    tcb_ran = 0;
    uint32_t m = mask_set(2);
    KT_EQ(k_timer_start(&tf, KT_US(100), 0), 0);
    uint32_t t0 = k_now();
    for (uint32_t i = 0; !tcb_ran && i < 10000000u && k_now() - t0 < (uint32_t)T_OBSERVED; i++) {
    }
    uint32_t a = mask_get();
    mask_clear();
    KT_EQ(tcb_ran, 1);
    KT_EQ(a, m);
#endif
}

void mask_kept(void)
{
    alarm_keeps_basepri();
    for (cur_mode = 0; cur_mode < MASK_MODES; cur_mode++) {
        mask_one_mode();
        static struct k_timer tm;
        k_timer_init(&tm, t_nop_timer, NULL);
        MASKED_CALL(0, k_timer_start(&tm, KT_US(500), 0));
        MASKED_CALL(0, k_timer_stop(&tm));
        for (int i = 0; i < NH; i++)
            if (th[i].z_state)
                (void)k_thread_abort(&th[i]);
    }
}
