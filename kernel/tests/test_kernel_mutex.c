/*
 * The kernel's behaviour tests, mutexes: priority inheritance (a ready owner, transitive), timeouts that drop it,
 * deadlock detection, an owner that exits.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- mutexes ----------------------------------------------------------------------------- */

K_MUTEX_DEFINE(m1);
static K_MUTEX_DEFINE(m2);
static K_MUTEX_DEFINE(m3);
static K_SEM_DEFINE(go1, 0, 0);
K_SEM_DEFINE(go2, 0, 0);
static K_SEM_DEFINE(go3, 0, 0);

static void t_hold_m1(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    k_sem_wait(&go1, K_FOREVER);
    k_mutex_unlock(&m1);
    log_add('L');
}

static void t_lock_m1(void *arg)
{
    int id = (int)(intptr_t)arg;
    log_add('h');
    res[id] = k_mutex_lock(&m1, K_FOREVER);
    log_add('H');
    k_mutex_unlock(&m1);
}

void mutex_basic(void)
{
    struct k_mutex m;
    KT_EQ(k_mutex_init(&m), 0);
    KT_EQ(k_mutex_lock(&m, K_FOREVER), 0);
    KT_EQ(k_mutex_lock(&m, K_FOREVER), K_EDEADLK);
    KT_EQ(k_mutex_lock(&m, K_NO_WAIT), K_EDEADLK);
    KT_EQ(k_mutex_unlock(&m), 0);
    KT_EQ(k_mutex_unlock(&m), K_EPERM);
    spawn(0, t_hold_m1, 0, 6); /* holds m1, waits on go1 */
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), K_EAGAIN);
    KT_EQ(k_mutex_unlock(&m1), K_EPERM);
    uint32_t t0 = k_now();
    KT_EQ(k_mutex_lock(&m1, K_USEC(200)), K_ETIMEDOUT);
    KT_CHECK(k_now() - t0 >= K_USEC(200));
    k_sem_signal(&go1);
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0);
    KT_EQ(k_mutex_unlock(&m1), 0);
    KT_EQ(k_mutex_destroy(&m), 0);
    KT_MISUSE(KT_EQ(k_mutex_lock(&m, K_NO_WAIT), K_EINVAL));
}

void mutex_inheritance(void)
{
    log_reset();
    spawn(0, t_hold_m1, 0, 1); /* L */
    settle();                  /* L holds m1, waits on go1 */
    spawn(1, t_lock_m1, 1, 6); /* H blocks on m1: L inherits 6 */
    KT_EQ(k_thread_prio_get(&th[0]), 6);
    KT_EQ(k_thread_prio_get(&th[1]), 6);
    spawn(2, t_log_id, 'M', 3); /* a medium thread, ready */
    k_sem_signal(&go1);         /* L (at 6) runs, unlocks: H gets m1 and runs, then L drops */
    KT_EQ(k_thread_prio_get(&th[0]), 1);
    settle();
    LOG_IS('h', 'H', 'M', 'L');
    KT_EQ(res[1], 0);
}

/* The usual contention (the fast paths' case): the owner is ready, preempted while it holds
 * the mutex, when a higher thread blocks on it. It inherits at once and runs before a
 * medium thread; its unlock hands the mutex over, switches to the waiter and drops it back. */
static void t_hold_m1_signal(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    k_sem_signal(&go2); /* H preempts: this thread is ready, holding m1 */
    log_add('L');
    res[3] = k_thread_prio_get(NULL); /* inherited from H */
    KT_EQ(k_mutex_unlock(&m1), 0);    /* H gets m1 and runs at once */
    res[4] = k_thread_prio_get(NULL);
    log_add('l');
}

static void t_lock_m1_after_go2(void *arg)
{
    int id = (int)(intptr_t)arg;
    k_sem_wait(&go2, K_FOREVER);
    log_add('h');
    spawn(2, t_log_id, 'M', 3); /* a medium thread, ready */
    res[id] = k_mutex_lock(&m1, K_FOREVER);
    log_add('H');
    KT_EQ(k_mutex_unlock(&m1), 0);
}

void mutex_inheritance_ready_owner(void)
{
    log_reset();
    spawn(1, t_lock_m1_after_go2, 1, 6); /* H waits on go2 */
    spawn(0, t_hold_m1_signal, 0, 1);    /* L */
    settle();
    LOG_IS('h', 'L', 'H', 'M', 'l');
    KT_EQ(res[1], 0);
    KT_EQ(res[3], 6);
    KT_EQ(res[4], 1);
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0); /* free again */
    KT_EQ(k_mutex_unlock(&m1), 0);
}

static void t_chain2(void *arg)
{
    (void)arg;
    k_mutex_lock(&m2, K_FOREVER);
    k_mutex_lock(&m1, K_FOREVER); /* blocks: L1 holds it */
    log_add('2');
    k_mutex_unlock(&m1);
    k_mutex_unlock(&m2);
}

static void t_lock_m2(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_mutex_lock(&m2, K_FOREVER);
    log_add('H');
    k_mutex_unlock(&m2);
}

void mutex_transitive(void)
{
    log_reset();
    spawn(0, t_hold_m1, 0, 1); /* L1 holds m1 */
    settle();
    spawn(1, t_chain2, 0, 2); /* L2 holds m2, waits m1: L1 inherits 2 */
    settle();
    KT_EQ(k_thread_prio_get(&th[0]), 2);
    spawn(2, t_lock_m2, 2, 6); /* H waits m2: L2 and, through it, L1 inherit 6 */
    KT_EQ(k_thread_prio_get(&th[1]), 6);
    KT_EQ(k_thread_prio_get(&th[0]), 6);
    k_sem_signal(&go1); /* L1 releases m1 -> L2 -> releases m2 -> H */
    KT_EQ(k_thread_prio_get(&th[0]), 1);
    settle();
    LOG_IS('2', 'H', 'L');
    KT_EQ(res[2], 0);
}

static void t_lock_m1_timeout(void *arg)
{
    int id = (int)(intptr_t)arg;
    res[id] = k_mutex_lock(&m1, T_OBSERVED);
}

void mutex_timeout_drops_inheritance(void)
{
    log_reset();
    spawn(0, t_hold_m1, 0, 1);
    settle();
    spawn(1, t_lock_m1_timeout, 1, 6);
    KT_EQ(k_thread_prio_get(&th[0]), 6);
    k_sleep(T_OBSERVED + K_MSEC(1));
    KT_EQ(res[1], K_ETIMEDOUT);
    KT_EQ(k_thread_prio_get(&th[0]), 1);
    k_sem_signal(&go1);
    settle();
    LOG_IS('L');
}

static void t_dl_a(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    k_sem_wait(&go1, K_FOREVER);
    res[0] = k_mutex_lock(&m3, K_FOREVER); /* closes m3 -> C -> m2 -> B -> m1 -> A */
    k_mutex_unlock(&m1);
}

static void t_dl_b(void *arg)
{
    (void)arg;
    k_mutex_lock(&m2, K_FOREVER);
    res[1] = k_mutex_lock(&m1, K_FOREVER);
    k_mutex_unlock(&m1);
    k_mutex_unlock(&m2);
}

static void t_dl_c(void *arg)
{
    (void)arg;
    k_mutex_lock(&m3, K_FOREVER);
    k_sem_wait(&go3, K_FOREVER);
    res[2] = k_mutex_lock(&m2, K_FOREVER);
    k_mutex_unlock(&m2);
    k_mutex_unlock(&m3);
}

void mutex_deadlock(void)
{
    log_reset();
    spawn(0, t_dl_a, 0, 5); /* A: m1, waits go1 */
    spawn(2, t_dl_c, 0, 5); /* C: m3, waits go3 */
    spawn(1, t_dl_b, 0, 5); /* B: m2, blocks on m1 */
    k_sem_signal(&go3);     /* C blocks on m2 */
    k_sem_signal(&go1);     /* A tries m3: cycle */
    settle();
    KT_EQ(res[0], K_EDEADLK);
    KT_EQ(res[1], 0);
    KT_EQ(res[2], 0);
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0);
    KT_EQ(k_mutex_lock(&m2, K_NO_WAIT), 0);
    KT_EQ(k_mutex_lock(&m3, K_NO_WAIT), 0);
    k_mutex_unlock(&m3);
    k_mutex_unlock(&m2);
    k_mutex_unlock(&m1);
}

static void t_hold_m1_exit(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    k_sem_wait(&go1, K_FOREVER);
}

void mutex_owner_exits(void)
{
    log_reset();
    spawn(0, t_hold_m1_exit, 0, 2);
    settle();
    spawn(1, t_lock_m1, 1, 6); /* waits on m1 */
    KT_EQ(k_thread_abort(&th[0]), 0); /* the contended mutex passes to the waiter */
    LOG_IS('h', 'H');
    KT_EQ(res[1], 0);
    spawn(0, t_hold_m1_exit, 0, 6);
    k_sem_signal(&go1); /* ends holding m1, uncontended */
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0);
    KT_EQ(k_mutex_unlock(&m1), 0);
}

/* The usual contention with other threads in the rings (the ARMv7-M slow paths' branches:
 * kernel/arch/armv7m/fast_mutex.S; the same steps in C elsewhere): L (1) holds m1 and wakes
 * H (6), which blocks on it while P6, a thread at H's priority, and P1, one at L's, are
 * ready or not; or a second waiter, H2 (5), is queued behind H. The order each case logs is
 * the one the scheduling rules give (ring p's head runs when H blocks, ring wp's when L
 * hands over), and L runs at 6 while it holds m1 and at 1 after. */
enum { RINGS_P6 = 1, RINGS_P1 = 2, RINGS_H2 = 4 };
static int rings_case;

static void t_rings_p6(void *arg)
{
    (void)arg;
    k_sem_wait(&go3, K_FOREVER);
    log_add('P');
    k_yield(); /* behind L, which inherited 6 */
    log_add('p');
}

static void t_rings_p1(void *arg)
{
    (void)arg;
    log_add('Q');
}

static void t_rings_h2(void *arg)
{
    (void)arg;
    k_sem_wait(&go3, K_FOREVER);
    log_add('g');
    res[2] = k_mutex_lock(&m1, K_FOREVER);
    log_add('G');
    KT_EQ(k_mutex_unlock(&m1), 0);
}

static void t_rings_h(void *arg)
{
    (void)arg;
    k_sem_wait(&go2, K_FOREVER);
    if (rings_case & RINGS_P6)
        k_sem_signal(&go3); /* P6 ready behind H */
    log_add('h');
    res[1] = k_mutex_lock(&m1, K_FOREVER);
    log_add('H');
    KT_EQ(k_mutex_unlock(&m1), 0);
}

static void t_rings_l(void *arg)
{
    (void)arg;
    k_mutex_lock(&m1, K_FOREVER);
    if (rings_case & RINGS_P1)
        spawn(3, t_rings_p1, 0, 1); /* ready behind L */
    if (rings_case & RINGS_H2)
        k_sem_signal(&go3); /* H2 (5) blocks on m1: L inherits 5 */
    k_sem_signal(&go2);     /* H blocks on m1: L inherits 6 */
    log_add('L');
    res[3] = k_thread_prio_get(NULL);
    KT_EQ(k_mutex_unlock(&m1), 0);
    res[4] = k_thread_prio_get(NULL);
    log_add('l');
}

static void rings_run(int which)
{
    log_reset();
    rings_case = which;
    spawn(1, t_rings_h, 0, 6);
    if (which & RINGS_P6)
        spawn(2, t_rings_p6, 0, 6);
    if (which & RINGS_H2)
        spawn(2, t_rings_h2, 0, 5);
    spawn(0, t_rings_l, 0, 1);
    settle();
    KT_EQ(res[1], 0);
    KT_EQ(res[3], 6);
    KT_EQ(res[4], 1);
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0); /* free again */
    KT_EQ(k_mutex_unlock(&m1), 0);
}

void mutex_contention_rings(void)
{
    rings_run(RINGS_P6); /* ring p keeps P6, ring q empties; the hand-over runs P6 */
    LOG_IS('h', 'P', 'L', 'p', 'H', 'l');
    rings_run(RINGS_P1); /* ring p empties, ring q keeps P1; L back at its head */
    LOG_IS('h', 'L', 'H', 'l', 'Q');
    rings_run(RINGS_P6 | RINGS_P1);
    LOG_IS('h', 'P', 'L', 'p', 'H', 'l', 'Q');
    rings_run(RINGS_H2); /* H queued ahead of H2; two waiters: the hand-over in C */
    LOG_IS('g', 'h', 'L', 'H', 'G', 'l');
    KT_EQ(res[2], 0);
}
