/*
 * Two of seed 003's three "semaphore shuffling" tests (ch. 3.6) as it defined them; the
 * third, Kar's, is rhealstone.semaphore_shuffle.seed003 (t_rhealstone.c).
 *  mutex.lock_unlock.seed003  "semaphore in a single task": a task takes a mutex and releases
 *      it at once; one interval from the counter read before the lock to the one after the
 *      unlock (the suite's mutex.lock_uncontended and mutex.unlock time each call alone).
 *  sem.signal_wake.seed003    "event signaling": task A blocks on a semaphore; task B, of the
 *      same priority, signals it and yields; from B's counter read before the signal to A's
 *      first counter read after its wait (sem.signal_wake wakes a higher task: no yield).
 */
#include "bench.h"

#define S3_MUTEX 0
#define S3_SEM 0
/* The threads' shared variables: carved from the arena with their stacks (bench_shared; freed by
 * bench_join) and passed as the threads' argument. A static would move every RTOS variable
 * after it, and with the boot time a tick-driven kernel's tick phase in every older test. */
struct s3_shared {
    volatile uint32_t t0;
    volatile unsigned go;
};

static void s3_lock_unlock(void *arg)
{
    (void)arg;
    while (bench_more()) {
        uint32_t t0 = t_start();
        rtb_mutex_lock(S3_MUTEX, RTB_FOREVER);
        rtb_mutex_unlock(S3_MUTEX);
        uint32_t t1 = t_stop();
        bench_sample(t1 - t0);
    }
    bench_done();
}

static void s3_waiter(void *arg)
{
    struct s3_shared *sh = arg;
    for (;;) {
        rtb_sem_wait(S3_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (sh->go)
            bench_sample(t1 - sh->t0);
        if (!bench_more())
            bench_done();
    }
}

static void s3_signaller(void *arg)
{
    struct s3_shared *sh = arg;
    for (;;) {
        sh->go = 1;
        sh->t0 = t_start();
        rtb_sem_signal(S3_SEM);
        rtb_yield();
    }
}

static void s3_finish(void)
{
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}

void t_seed003(void)
{
    if (bench_need(RTB_CAP_MUTEX, "mutex.lock_unlock.seed003")) {
        bench_begin("mutex.lock_unlock.seed003", BK_CYCLES, 0);
        bench_mutex(S3_MUTEX);
        bench_spawn(0, 3, s3_lock_unlock, 0, BENCH_STACK);
        s3_finish();
    }
    struct s3_shared *sh = bench_shared(sizeof *sh);
    if (!sh) {
        bench_absent("sem.signal_wake.seed003", "no room in the arena");
        return;
    }
    bench_begin("sem.signal_wake.seed003", BK_CYCLES, 0);
    sh->go = 0;
    bench_sem(S3_SEM, 0, 1);
    bench_spawn(0, 3, s3_waiter, sh, BENCH_STACK);
    bench_spawn(1, 3, s3_signaller, sh, BENCH_STACK);
    s3_finish();
}
