/*
 * The kernel's behaviour tests, semaphores: counting, timeouts (stale ones included), wake order, no switch to a lower
 * priority, ping-pong.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- semaphores -------------------------------------------------------------------------- */

K_SEM_DEFINE(sa, 0, 0);
static K_SEM_DEFINE(sb, 0, 0);
struct k_sem sdyn;

void sem_counting(void)
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
    KT_EQ(k_sem_init(&sdyn, 65534, 0), 0); /* no limit but the count's: 65535 */
    KT_EQ(k_sem_signal(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), K_EOVERFLOW);
    KT_EQ(k_sem_count(&sdyn), 65535);
    KT_MISUSE(KT_EQ(k_sem_init(&sdyn, 2, 1), K_EINVAL));
    KT_MISUSE(KT_EQ(k_sem_init(&sdyn, 0, 300), K_EINVAL));
}

void sem_timeout(void)
{
    KT_EQ(k_sem_init(&sdyn, 0, 0), 0);
    uint32_t t0 = k_now();
    KT_EQ(k_sem_wait(&sdyn, K_USEC(300)), K_ETIMEDOUT);
    uint32_t dt = k_now() - t0;
    KT_CHECK(dt >= K_USEC(300));
#if BOARD_CYCLE_ACCURATE /* (an emulator's clock follows the host's: no upper bound there) */
    KT_CHECK(dt < K_USEC(300) + K_MSEC(3));
#endif
#if BOARD_CYCLE_ACCURATE && K_CONFIG_TICKLESS
    /* a timeout ends one alarm interrupt and switch after its deadline (never before:
     * test timeout_never_early), about 550 cycles from the call on vp-m0 */
    KT_CHECK(dt < K_USEC(300) + 700u);
#endif
}

/* A wait with a timeout that a signal ends (on the fast path its timeout stays in the list,
 * stale, until it falls due or the thread blocks again): the old deadline must not end a
 * later wait forever, shorten a later timed wait or a sleep, nor outlive an abort. */
static volatile uint32_t stale_t[3];
static volatile int stale_res;

static void t_stale_forever(void *arg)
{
    (void)arg;
    res[0] = k_sem_wait(&sa, K_USEC(1000));
    res[1] = k_sem_wait(&sa, K_FOREVER); /* past the old deadline, still waiting */
}

static void t_stale_timed(void *arg)
{
    (void)arg;
    res[2] = k_sem_wait(&sb, K_USEC(1000));
    uint32_t until = k_now() + K_USEC(1500);
    while ((int32_t)(k_now() - until) < 0) {
    } /* running (not blocked) while the old deadline falls due */
    stale_t[0] = k_now();
    res[3] = k_sem_wait(&sb, K_USEC(3000));
    stale_t[1] = k_now();
}

static void t_stale_sleep(void *arg)
{
    (void)arg;
    res[4] = k_sem_wait(&sa, K_USEC(1000));
    uint32_t t0 = k_now();
    k_sleep(K_USEC(3000));
    stale_t[2] = k_now() - t0;
}

static void t_stale_abort(void *arg)
{
    (void)arg;
    res[5] = k_sem_wait(&sa, K_USEC(1000));
    k_thread_prio_set(NULL, 1);
    for (;;)
        k_yield();
}

static void t_stale_reuse(void *arg)
{
    (void)arg;
    stale_res = k_sem_wait(&sa, K_USEC(5000));
}

void stale_timeouts(void)
{
    log_reset();
    k_sem_init(&sa, 0, 0);
    k_sem_init(&sb, 0, 0);
    /* the waiters outrank the driver: each signal wakes on the fast path */
    spawn(0, t_stale_forever, 0, 5);
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(res[0], 0);
    k_sleep(K_USEC(2500));
    KT_EQ(res[1], 0x7777); /* the old deadline did not end the wait forever */
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(res[1], 0);

    spawn(1, t_stale_timed, 0, 5);
    KT_EQ(k_sem_signal(&sb), 0); /* (returns once the thread waits again) */
    KT_EQ(res[2], 0);
    k_sleep(K_USEC(4000));
    KT_EQ(res[3], K_ETIMEDOUT);
    KT_CHECK(stale_t[1] - stale_t[0] >= K_USEC(3000));

    spawn(2, t_stale_sleep, 0, 5);
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(res[4], 0);
    k_sleep(K_USEC(4000));
    KT_CHECK(stale_t[2] >= K_USEC(3000));

    spawn(3, t_stale_abort, 0, 5);
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(res[5], 0);
    KT_EQ(k_thread_abort(&th[3]), 0);
    /* the same memory at once as a new thread with a later timeout: a stale entry left by
     * the abort would now be linked twice */
    stale_res = 0x7777;
    KT_EQ(spawn(3, t_stale_reuse, 0, 5), 0);
    k_sleep(K_USEC(1500)); /* past the aborted thread's old deadline */
    KT_EQ(stale_res, 0x7777);
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(stale_res, 0);
}

static void t_wait_log(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_sem_wait(&sa, K_FOREVER);
    log_add(id);
}

void sem_wake_order(void)
{
    log_reset();
    spawn(1, t_wait_log, 1, 5);
    spawn(2, t_wait_log, 2, 6);
    spawn(3, t_wait_log, 3, 5);
    spawn(4, t_wait_log, 4, 7);
    KT_EQ(nlog, 0);
    for (int i = 0; i < 4; i++)
        KT_EQ(k_sem_signal(&sa), 0); /* each switches to the woken thread at once */
    LOG_IS(4, 2, 1, 3);
    KT_EQ(res[1], 0);
    KT_EQ(k_sem_count(&sa), 0);
}

void sem_no_switch_to_lower(void)
{
    log_reset();
    spawn(0, t_wait_log, 0, 2);
    settle(); /* it blocks */
    KT_EQ(k_sem_signal(&sa), 0);
    log_add(100); /* a lower waiter does not preempt */
    settle();
    LOG_IS(100, 0);
}

static void t_pingpong(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++) {
        k_sem_wait(&sa, K_FOREVER);
        k_sem_signal(&sb);
    }
}

void sem_pingpong(void)
{
    spawn(0, t_pingpong, 0, 2);
    int ok = 0;
    for (int i = 0; i < 100; i++) {
        k_sem_signal(&sa);
        ok += k_sem_wait(&sb, K_MSEC(500)) == 0; /* (generous: QEMU's clock follows the host) */
    }
    KT_EQ(ok, 100);
}
