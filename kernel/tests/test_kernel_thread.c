/*
 * The kernel's behaviour tests, threads: scheduling order, preemption and yield, suspend and resume, priority changes,
 * exit and abort.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- scheduling -------------------------------------------------------------------------- */

void t_log_id(void *arg)
{
    log_add((int)(intptr_t)arg);
}

void prio_order(void)
{
    log_reset();
    spawn(0, t_log_id, 1, 1);
    spawn(1, t_log_id, 3, 3);
    spawn(2, t_log_id, 2, 2);
    KT_EQ(nlog, 0);
    settle();
    LOG_IS(3, 2, 1);
#if K_PRIO_MAX >= 14
    log_reset();
    KT_EQ(k_thread_prio_set(NULL, 14), 0);
    spawn(0, t_log_id, 9, 9);
    spawn(1, t_log_id, 13, 13);
    spawn(2, t_log_id, 11, 11);
    spawn(3, t_log_id, 15, K_PRIO_MAX); /* above the driver: runs at once */
    KT_EQ(k_thread_prio_set(NULL, DRV), 0); /* lowering itself lets the others run */
    LOG_IS(15, 13, 11, 9);
#endif
}

void preempt_immediate(void)
{
    log_reset();
    spawn(0, t_log_id, 1, 6);
    log_add(2);
    LOG_IS(1, 2);
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

void fifo_equal_priority(void)
{
    log_reset();
    spawn(0, t_yield2, 0, 2);
    spawn(1, t_yield2, 1, 2);
    spawn(2, t_yield2, 2, 2);
    settle();
    LOG_IS(0, 1, 2, 10, 11, 12, 20, 21, 22);
    log_reset();
    k_yield(); /* alone at its priority: returns at once */
    KT_EQ(nlog, 0);
}

static void t_spin_log(void *arg)
{
    /* A lower thread preempted by a higher one keeps its place ahead of its peers. */
    int id = (int)(intptr_t)arg;
    log_add(id);
    for (volatile int i = 0; i < 2000; i++) {
    }
    log_add(id + 10);
}

void preempted_keeps_place(void)
{
    log_reset();
    spawn(0, t_spin_log, 0, 2);
    spawn(1, t_spin_log, 1, 2);
    /* the driver sleeps: 0 starts; the timer interrupt wakes the driver (preempting 0),
     * which returns to sleep; 0 must resume before 1 starts */
    k_sleep(K_USEC(50));
    settle();
    LOG_IS(0, 10, 1, 11);
}

/* ---- suspend, priorities, exit ----------------------------------------------------------- */

static void t_self_suspend(void *arg)
{
    log_add(1);
    res[(int)(intptr_t)arg] = k_thread_suspend(NULL); /* (the caller itself: the fast path) */
    log_add(2);
}

/* suspends itself by name, twice, and logs its id after each resume */
static void t_suspend_twice(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < 2; i++) {
        res[id] = k_thread_suspend(&th[id]);
        log_add(10 + id);
    }
}

void suspend_resume(void)
{
    log_reset();
    spawn(0, t_log_id, 7, 2);
    KT_EQ(k_thread_suspend(&th[0]), 0);
    KT_EQ(k_thread_suspend(&th[0]), K_ESTATE);
    settle();
    KT_EQ(nlog, 0);
    KT_EQ(k_thread_resume(&th[0]), 0);
    KT_EQ(nlog, 0);
    settle();
    LOG_IS(7);
    KT_EQ(k_thread_resume(&th[0]), K_ESTATE); /* dead */
    log_reset();
    res[1] = -100;
    spawn(1, t_self_suspend, 1, 6);
    LOG_IS(1);
    KT_EQ(k_thread_resume(&th[1]), 0); /* outranks the driver: runs at once */
    LOG_IS(1, 2);
    KT_EQ(res[1], 0);
    KT_MISUSE(KT_EQ(k_thread_resume(NULL), K_EINVAL));
    KT_EQ(k_thread_resume(k_thread_self()), K_ESTATE); /* running: not suspended */
    /* below the driver: a resume makes it ready at the tail of its ring (after 3), no switch */
    log_reset();
    res[2] = -100;
    spawn(2, t_suspend_twice, 2, 2);
    spawn(3, t_suspend_twice, 3, 2);
    settle(); /* both ran and suspended themselves */
    KT_EQ(nlog, 0);
    KT_EQ(k_thread_resume(&th[3]), 0);
    KT_EQ(k_thread_resume(&th[2]), 0);
    KT_EQ(nlog, 0);
    settle();
    LOG_IS(13, 12);
    KT_EQ(res[2], 0);
    KT_EQ(res[3], 0);
    KT_EQ(k_thread_resume(&th[2]), 0);
    KT_EQ(k_thread_resume(&th[3]), 0);
    settle();
    LOG_IS(13, 12, 12, 13);
}

void prio_change(void)
{
    log_reset();
    spawn(0, t_log_id, 1, 2);
    KT_EQ(k_thread_prio_get(&th[0]), 2);
    KT_EQ(k_thread_prio_set(&th[0], 6), 0); /* now above the driver: runs at once */
    log_add(2);
    LOG_IS(1, 2);
    log_reset();
    spawn(0, t_log_id, 1, 3);
    KT_EQ(k_thread_prio_set(NULL, 2), 0); /* the driver drops below it */
    log_add(2);
    KT_EQ(k_thread_prio_set(NULL, DRV), 0);
    KT_EQ(k_thread_prio_get(NULL), DRV);
    LOG_IS(1, 2);
    KT_MISUSE(KT_EQ(k_thread_prio_set(NULL, K_PRIO_MAX + 1), K_EINVAL));
}

static void t_return(void *arg)
{
    res[0] = (int)(intptr_t)arg;
}

static void t_wait_sa(void *arg)
{
    res[(int)(intptr_t)arg] = k_sem_wait(&sa, K_MSEC(50));
}

void exit_abort(void)
{
    log_reset();
    KT_EQ(spawn(0, t_return, 5, 6), 0);
    KT_EQ(res[0], 5);
    KT_EQ(spawn(0, t_return, 6, 6), 0); /* the memory of a dead thread is reusable */
    KT_EQ(res[0], 6);
    KT_EQ(spawn(1, t_wait_sa, 1, 6), 0);
    KT_EQ(k_thread_abort(&th[1]), 0); /* aborted while waiting with a timeout */
    KT_EQ(k_thread_abort(&th[1]), K_ESTATE);
    KT_EQ(k_sem_signal(&sa), 0);
    KT_EQ(k_sem_count(&sa), 1); /* nobody waits any more */
    KT_EQ(k_sem_wait(&sa, K_NO_WAIT), 0);
    k_sleep(K_MSEC(1));
    KT_EQ(res[1], 0x7777);
}
