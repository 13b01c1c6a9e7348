/*
 * Primitive costs after Zhang and Timmerman (seed 004, "How to Evaluate"): thread creation,
 * mutex and semaphore operations, each from the call to its return unless said otherwise.
 */
#include "bench.h"

static volatile uint32_t g_t0;
static volatile int g_which;

#define W_ID 0     /* the worker */
#define NEW_ID 1   /* the thread it creates */
#define HELP_ID 2  /* a helper */
#define S_A 0
#define S_B 1
#define M_A 0

static void never_runs(void *arg)
{
    (void)arg;
    for (;;)
        rtb_sem_wait(SEM_PARK, RTB_FOREVER);
}

static void new_high(void *arg)
{
    (void)arg;
    uint32_t t1 = t_stop();
    bench_sample(t1 - g_t0);
    for (;;)
        rtb_sem_wait(SEM_PARK, RTB_FOREVER);
}

static void *new_stack;
#define NEW_STACK_BYTES BENCH_STACK

/* One worker thread measures one metric, chosen by g_which. */
enum { P_CREATE_LOW, P_CREATE_HIGH, P_MTX_CREATE, P_MTX_DESTROY, P_MTX_LOCK, P_MTX_UNLOCK,
       P_SEM_WAIT_AVAIL, P_SEM_SIGNAL_NOWAIT, P_SEM_SIGNAL_WAITER, P_SEM_SIGNAL_NONZERO };

static void worker(void *arg)
{
    (void)arg;
    uint32_t t0, t1;
    while (bench_more()) {
        switch (g_which) {
        case P_CREATE_LOW:
            t0 = t_start();
            rtb_thread_create(NEW_ID, 2, never_runs, 0, new_stack, NEW_STACK_BYTES);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_thread_delete(NEW_ID);
            break;
        case P_CREATE_HIGH:
            g_t0 = t_start();
            rtb_thread_create(NEW_ID, 6, new_high, 0, new_stack, NEW_STACK_BYTES);
            rtb_thread_delete(NEW_ID);
            break;
        case P_MTX_CREATE:
            t0 = t_start();
            rtb_mutex_create(M_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_mutex_delete(M_A);
            break;
        case P_MTX_DESTROY:
            rtb_mutex_create(M_A);
            t0 = t_start();
            rtb_mutex_delete(M_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            break;
        case P_MTX_LOCK:
            t0 = t_start();
            rtb_mutex_lock(M_A, RTB_FOREVER);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_mutex_unlock(M_A);
            break;
        case P_MTX_UNLOCK:
            rtb_mutex_lock(M_A, RTB_FOREVER);
            t0 = t_start();
            rtb_mutex_unlock(M_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            break;
        case P_SEM_WAIT_AVAIL:
            rtb_sem_signal(S_A);
            t0 = t_start();
            rtb_sem_wait(S_A, RTB_FOREVER);
            t1 = t_stop();
            bench_sample(t1 - t0);
            break;
        case P_SEM_SIGNAL_NOWAIT:
            t0 = t_start();
            rtb_sem_signal(S_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_sem_wait(S_A, RTB_FOREVER);
            break;
        case P_SEM_SIGNAL_NONZERO:
            /* seed 004's V (NZ): the count is already 1 (so nobody waits): 1 -> 2 */
            t0 = t_start();
            rtb_sem_signal(S_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_sem_wait(S_A, RTB_FOREVER); /* back to 1 */
            break;
        case P_SEM_SIGNAL_WAITER:
            /* the helper (lower priority) is blocked on S_A */
            t0 = t_start();
            rtb_sem_signal(S_A);
            t1 = t_stop();
            bench_sample(t1 - t0);
            rtb_prio_set(RTB_SELF, 1); /* let the helper wait again */
            rtb_prio_set(RTB_SELF, 4);
            break;
        }
    }
    bench_done();
}

static void helper_wait(void *arg)
{
    (void)arg;
    for (;;)
        rtb_sem_wait(S_A, RTB_FOREVER);
}

/* mutex.lock_contended: H locks a mutex held by L; L releases it at once. */
static void lc_high(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(S_B, RTB_FOREVER);
        g_t0 = t_start();
        rtb_mutex_lock(M_A, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        rtb_mutex_unlock(M_A);
        if (!bench_more())
            bench_done();
    }
}
static void lc_low(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_mutex_lock(M_A, RTB_FOREVER);
        rtb_sem_signal(S_B); /* H runs and blocks on the mutex */
        rtb_mutex_unlock(M_A);
    }
}

static void run_worker(const char *id, int which)
{
    bench_begin(id, BK_CYCLES, 0);
    g_which = which;
    new_stack = bench_stack(NEW_STACK_BYTES);
    bench_spawn(W_ID, 4, worker, 0, BENCH_STACK);
    if (which == P_SEM_SIGNAL_WAITER)
        bench_spawn(HELP_ID, 2, helper_wait, 0, BENCH_STACK);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}

void t_primitives(void)
{
    if (bench_need(RTB_CAP_THREAD_DYNAMIC, "thread.create_low"))
        run_worker("thread.create_low", P_CREATE_LOW);
    if (bench_need(RTB_CAP_THREAD_DYNAMIC, "thread.create_high"))
        run_worker("thread.create_high", P_CREATE_HIGH);
    if (bench_need(RTB_CAP_MUTEX | RTB_CAP_MUTEX_DYNAMIC, "mutex.create"))
        run_worker("mutex.create", P_MTX_CREATE);
    if (bench_need(RTB_CAP_MUTEX | RTB_CAP_MUTEX_DYNAMIC, "mutex.destroy"))
        run_worker("mutex.destroy", P_MTX_DESTROY);
    if (bench_need(RTB_CAP_MUTEX, "mutex.lock_uncontended")) {
        bench_mutex(M_A);
        run_worker("mutex.lock_uncontended", P_MTX_LOCK);
    }
    if (bench_need(RTB_CAP_MUTEX, "mutex.lock_contended")) {
        bench_begin("mutex.lock_contended", BK_CYCLES, 0);
        bench_mutex(M_A);
        bench_sem(S_B, 0, 1);
        bench_spawn(0, 6, lc_high, 0, BENCH_STACK);
        bench_spawn(1, 2, lc_low, 0, BENCH_STACK);
        if (bench_join(1))
            bench_end();
        else
            bench_abort("timed out");
    }
    if (bench_need(RTB_CAP_MUTEX, "mutex.unlock")) {
        bench_mutex(M_A);
        run_worker("mutex.unlock", P_MTX_UNLOCK);
    }
    bench_sem(S_A, 0, 4);
    run_worker("sem.wait_available", P_SEM_WAIT_AVAIL);
    bench_sem(S_A, 0, 4);
    run_worker("sem.signal_no_waiter", P_SEM_SIGNAL_NOWAIT);
    bench_sem(S_A, 1, 4);
    run_worker("sem.signal_nonzero", P_SEM_SIGNAL_NONZERO);
    if (bench_need(RTB_CAP_PRIO_SET_SELF, "sem.signal_waiter")) {
        bench_sem(S_A, 0, 4);
        run_worker("sem.signal_waiter", P_SEM_SIGNAL_WAITER);
    }
}
