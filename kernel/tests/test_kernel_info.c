/*
 * The kernel's behaviour tests, the calls for layers above the kernel (kernel/src/info.c,
 * wake.c; what the CMSIS-RTOS2 layer, kernel/cmsis_os2, uses): a thread's state, a mutex's
 * owner, the next expiry, and ending another thread's wait.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

static K_SEM_DEFINE(info_sem, 0, 1);
static K_MUTEX_DEFINE(info_mutex);

static void t_sem_forever(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_sem_wait(&info_sem, K_FOREVER);
    log_add('a' + id);
}

static void t_sleep_forever(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_sleep(K_FOREVER);
    log_add('a' + id);
}

static void t_sleep_long(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_sleep(K_MSEC(5));
    log_add('a' + id);
}

static void t_lock_forever(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_mutex_lock(&info_mutex, K_FOREVER);
    if (res[id] == 0)
        (void)k_mutex_unlock(&info_mutex);
    log_add('a' + id);
}

static void t_lock_and_exit(void *arg)
{
    (void)arg;
    (void)k_mutex_lock(&info_mutex, K_FOREVER);
    k_thread_exit(); /* holding it, uncontended */
}

void thread_queries(void)
{
    static struct k_thread never; /* zeroed: never a thread */
    KT_EQ(k_thread_state(k_thread_self()), K_THREAD_READY);
    KT_EQ(k_thread_state(&never), K_EINVAL);
    KT_EQ(k_thread_state(NULL), K_EINVAL);
    /* blocked, suspended, dead */
    log_reset();
    KT_EQ(spawn(0, t_sem_forever, 0, DRV + 1), 0);
    KT_EQ(k_thread_state(&th[0]), K_THREAD_BLOCKED);
    KT_EQ(spawn(1, t_sleep_long, 1, DRV - 1), 0);
    KT_EQ(k_thread_state(&th[1]), K_THREAD_READY);
    KT_EQ(k_thread_suspend(&th[1]), 0);
    KT_EQ(k_thread_state(&th[1]), K_THREAD_SUSPENDED);
    KT_EQ(k_thread_abort(&th[1]), 0);
    KT_EQ(k_thread_state(&th[1]), K_THREAD_DEAD);
    KT_EQ(k_thread_abort(&th[0]), 0);
    KT_EQ(nlog, 0);
}

void thread_wake(void)
{
    /* a wait on an object ends as a timeout; a sleep ends as a sleep does */
    log_reset();
    res[0] = res[1] = 0x7777;
    KT_EQ(spawn(0, t_sem_forever, 0, DRV + 1), 0);
    KT_EQ(spawn(1, t_sleep_forever, 1, DRV + 1), 0);
    KT_EQ(k_thread_wake(&th[0]), 0); /* it outranks the driver: runs at once */
    LOG_IS('a');
    KT_EQ(res[0], K_ETIMEDOUT);
    KT_EQ(k_sem_count(&info_sem), 0);
    KT_EQ(k_thread_wake(&th[1]), 0);
    LOG_IS('a', 'b');
    KT_EQ(res[1], 0);
    /* not blocked: ready (the driver itself), dead */
    KT_EQ(k_thread_wake(k_thread_self()), K_ESTATE);
    KT_EQ(k_thread_wake(&th[0]), K_ESTATE);
    /* a mutex waiter: its wait ends and the owner's inherited priority goes back */
    log_reset();
    KT_EQ(k_mutex_lock(&info_mutex, K_NO_WAIT), 0);
    KT_EQ(k_mutex_owner(&info_mutex), k_thread_self());
    KT_EQ(spawn(2, t_lock_forever, 2, DRV + 2), 0);
    KT_EQ(k_thread_prio_get(NULL), DRV + 2);
    KT_EQ(k_thread_wake(&th[2]), 0);
    LOG_IS('c');
    KT_EQ(res[2], K_ETIMEDOUT);
    KT_EQ(k_thread_prio_get(NULL), DRV);
    KT_EQ(k_mutex_unlock(&info_mutex), 0);
    KT_MISUSE(KT_EQ(k_thread_wake(NULL), K_EINVAL));
}

void mutex_owner_query(void)
{
    KT_EQ(k_mutex_owner(&info_mutex), NULL);
    KT_EQ(k_mutex_owner((struct k_mutex *)&info_sem), NULL);
    KT_EQ(k_mutex_lock(&info_mutex, K_NO_WAIT), 0);
    KT_EQ(k_mutex_owner(&info_mutex), k_thread_self());
    KT_EQ(k_mutex_unlock(&info_mutex), 0);
    /* an owner that ended with it uncontended: nobody owns it (its next locker takes it) */
    KT_EQ(spawn(0, t_lock_and_exit, 0, DRV + 1), 0);
    KT_EQ(k_thread_state(&th[0]), K_THREAD_DEAD);
    KT_EQ(k_mutex_owner(&info_mutex), NULL);
    KT_EQ(k_mutex_lock(&info_mutex, K_NO_WAIT), 0);
    KT_EQ(k_mutex_owner(&info_mutex), k_thread_self());
    KT_EQ(k_mutex_unlock(&info_mutex), 0);
}

void next_expiry(void)
{
    uint32_t at = 0;
    KT_EQ(k_next_expiry(&at), 0); /* nothing sleeps, no timer runs */
    uint32_t before = k_now();
    KT_EQ(spawn(0, t_sleep_long, 0, DRV + 1), 0);
    uint32_t after = k_now(); /* (it slept between the two readings) */
    KT_EQ(k_next_expiry(&at), 1);
    /* its expiry: the 5 ms from its call, less the board's timer lead at most (the periodic
     * build: one tick more, its rounding up); an emulator's clock may run on between */
    KT_CHECK((int32_t)(at - after) <= (int32_t)K_MSEC(5) + !K_CONFIG_TICKLESS);
    KT_CHECK((int32_t)(at - before) >= (int32_t)(K_MSEC(5) - K_USEC(100)));
    KT_EQ(k_next_expiry(NULL), 1);
    KT_EQ(k_thread_abort(&th[0]), 0);
    KT_EQ(k_next_expiry(&at), 0);
}
