/*
 * The kernel's behaviour tests, errors and misuse: bad arguments, destroying objects with waiters,
 * and issue 11's: mutexes from interrupts, calls before k_start, re-initialising objects in
 * use.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- errors ------------------------------------------------------------------------------ */

static void t_nop(void *arg)
{
    (void)arg;
}

void errors(void)
{
    uint32_t v = 0;
    KT_EQ(k_sem_wait(NULL, K_NO_WAIT), K_EINVAL);
    KT_EQ(k_sem_signal(NULL), K_EINVAL);
    KT_EQ(k_sem_signal_isr(NULL), K_EINVAL);
    KT_EQ(k_sem_wait((struct k_sem *)&m1, K_NO_WAIT), K_EINVAL); /* foreign */
    KT_EQ(k_mutex_lock((struct k_mutex *)&sa, K_NO_WAIT), K_EINVAL);
    KT_EQ(k_mutex_unlock(NULL), K_EINVAL);
    KT_EQ(k_queue_send(NULL, &v, K_NO_WAIT), K_EINVAL);
    KT_EQ(k_queue_recv((struct k_queue *)&sa, &v, K_NO_WAIT), K_EINVAL);
    KT_EQ(k_timer_start((struct k_timer *)&sa, 1, 0), K_EINVAL);
    struct k_sem zero = {0};
    KT_EQ(k_sem_wait(&zero, K_NO_WAIT), K_EINVAL); /* never initialised */
    KT_EQ(spawn(5, t_nop, 0, K_PRIO_MAX + 1), K_EINVAL);
    KT_EQ(k_thread_create(&th[5], stacks[5], 64, t_nop, NULL, 1), K_EINVAL);
    KT_EQ(k_thread_create(&th[5], NULL, STACK, t_nop, NULL, 1), K_EINVAL);
    KT_EQ(k_thread_suspend((struct k_thread *)&sa), K_EINVAL);
    KT_EQ(k_sem_destroy(&sdyn), 0);
    KT_EQ(k_sem_signal(&sdyn), K_EINVAL);
}

static void t_wait_sdyn(void *arg)
{
    res[(int)(intptr_t)arg] = k_sem_wait(&sdyn, K_FOREVER);
}

void destroy_wakes(void)
{
    log_reset();
    k_sem_init(&sdyn, 0, 0);
    spawn(0, t_wait_sdyn, 0, 6);
    spawn(1, t_wait_sdyn, 1, 3);
    settle();
    KT_EQ(k_sem_destroy(&sdyn), 0);
    KT_EQ(res[0], K_EDESTROYED);
    settle();
    KT_EQ(res[1], K_EDESTROYED);
}

/* ---- issue 11: mutexes from interrupts, calls before k_start, re-initialisation ---------- */

static K_MUTEX_DEFINE(mi);

static void isr_mutex_calls(int held)
{
    for (int i = 0; i < 6; i++)
        isr_r[i] = 0x7777;
    isr_mutex = &mi;
    isr_mode = 4;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    isr_mode = 0;
    for (int i = 0; i < 5; i++)
        KT_EQ(isr_r[i], K_EISR);
    KT_EQ(isr_r[5], !held);
}

void mutex_refused_in_isr(void)
{
    board_irq_enable(TEST_IRQ, 1);
    /* free: the interrupt must not take it (for the interrupted thread or anyone) */
    isr_mutex_calls(0);
    KT_EQ(k_mutex_unlock(&mi), K_EPERM); /* nobody owns it */
    /* held by the interrupted thread: neither a second lock nor an unlock from the ISR */
    KT_EQ(k_mutex_lock(&mi, K_NO_WAIT), 0);
    isr_mutex_calls(1);
    KT_EQ(k_mutex_unlock(&mi), 0); /* still the driver's */
    KT_EQ(k_mutex_unlock(&mi), K_EPERM);
    /* held by another thread, contended: refused too (was K_EISR before, stays so) */
    spawn(0, t_hold_m1_go2, 0, 6);
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), K_EAGAIN);
    isr_mutex = &m1;
    isr_mode = 4;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    isr_mode = 0;
    KT_EQ(isr_r[0], K_EISR);
    KT_EQ(isr_r[2], K_EISR);
    k_sem_signal(&go2);
    settle();
    KT_EQ(k_mutex_lock(&m1, K_NO_WAIT), 0);
    KT_EQ(k_mutex_unlock(&m1), 0);
    board_irq_disable(TEST_IRQ);
}

/* Calls made by main() before k_start() (recorded there, checked here): a queue call that
 * would block returns K_ESTATE as a semaphore wait does (it used to dereference the NULL
 * running thread); main() may lock and unlock a mutex, a second lock is K_EDEADLK, an unlock
 * of a mutex it does not hold K_EPERM; a mutex it still holds at k_start is taken over by
 * its next locker. */
K_QUEUE_DEFINE(qpre, 4, 1);
static K_MUTEX_DEFINE(mpre);
static K_MUTEX_DEFINE(mpre_held);
static K_SEM_DEFINE(spre, 0, 0);
static int pre_r[16];

void prestart_record(void)
{
    uint32_t v = 5;
    int n = 0;
    pre_r[n++] = k_queue_recv(&qpre, &v, K_FOREVER);      /* empty */
    pre_r[n++] = k_queue_recv(&qpre, &v, K_USEC(10));
    pre_r[n++] = k_queue_recv(&qpre, &v, K_NO_WAIT);
    pre_r[n++] = k_queue_send(&qpre, &v, K_NO_WAIT);      /* 0: room */
    pre_r[n++] = k_queue_send(&qpre, &v, K_FOREVER);      /* full */
    pre_r[n++] = k_queue_send(&qpre, &v, K_USEC(10));
    pre_r[n++] = k_sem_wait(&spre, K_FOREVER);
    pre_r[n++] = k_mutex_lock(&mpre, K_FOREVER);          /* 0 */
    pre_r[n++] = k_mutex_lock(&mpre, K_FOREVER);          /* K_EDEADLK */
    pre_r[n++] = k_mutex_lock(&mpre, K_NO_WAIT);          /* K_EDEADLK */
    pre_r[n++] = k_mutex_init(&mpre);                     /* K_EBUSY: held */
    pre_r[n++] = k_mutex_unlock(&mpre);                   /* 0 */
    pre_r[n++] = k_mutex_unlock(&mpre);                   /* K_EPERM */
    pre_r[n++] = k_mutex_lock(&mpre_held, K_NO_WAIT);     /* 0, held across k_start */
}

void prestart_calls(void)
{
    static const int exp[] = {K_ESTATE, K_ESTATE, K_EAGAIN, 0, K_ESTATE, K_ESTATE, K_ESTATE,
                              0, K_EDEADLK, K_EDEADLK, K_EBUSY, 0, K_EPERM, 0};
    for (unsigned i = 0; i < sizeof exp / sizeof exp[0]; i++) {
        if (pre_r[i] != exp[i]) {
            kt_puts("  call ");
            kt_putu(i);
            kt_puts(":\n");
        }
        KT_EQ(pre_r[i], exp[i]);
    }
    KT_EQ(k_queue_count(&qpre), 1);
    KT_EQ(k_mutex_unlock(&mpre_held), K_EPERM); /* main's, not the driver's */
    KT_EQ(k_mutex_lock(&mpre_held, K_NO_WAIT), 0); /* taken over */
    KT_EQ(k_mutex_unlock(&mpre_held), 0);
    KT_EQ(k_mutex_lock(&mpre, K_NO_WAIT), 0); /* main unlocked it: free */
    KT_EQ(k_mutex_unlock(&mpre), 0);
}

/* Re-initialising an object in use: a semaphore or queue with waiters, a locked mutex,
 * K_EBUSY and nothing changes (the waiters used to be forgotten, blocked for good); a running
 * timer is stopped first (it used to stay linked, and cut the timers after it off). */
static K_SEM_DEFINE(sre, 0, 0);
K_QUEUE_DEFINE(qre, 4, 2);
static uint32_t qre_mem[2];

static void t_wait_sre(void *arg)
{
    res[(int)(intptr_t)arg] = k_sem_wait(&sre, K_FOREVER);
}

static void t_recv_qre(void *arg)
{
    uint32_t v = 0;
    res[(int)(intptr_t)arg] = k_queue_recv(&qre, &v, K_FOREVER);
    res[5] = (int)v;
}

static volatile int tre_a, tre_b;
static void on_tre(struct k_timer *t, void *arg)
{
    (void)t;
    if (arg)
        tre_b++;
    else
        tre_a++;
}
static struct k_timer tre_a_t, tre_b_t;

void reinit_in_use(void)
{
    log_reset();
    KT_EQ(k_sem_init(&sre, 0, 0), 0);
    spawn(0, t_wait_sre, 0, 6);
    KT_EQ(k_sem_init(&sre, 3, 0), K_EBUSY);
    KT_EQ(k_sem_count(&sre), 0); /* unchanged */
    KT_EQ(k_sem_signal(&sre), 0);  /* the waiter is still there */
    KT_EQ(res[0], 0);
    KT_EQ(k_sem_init(&sre, 3, 0), 0); /* no waiter: fine */
    KT_EQ(k_sem_count(&sre), 3);

    spawn(1, t_recv_qre, 1, 6);
    KT_EQ(k_queue_init(&qre, qre_mem, 4, 2), K_EBUSY);
    uint32_t v = 42;
    KT_EQ(k_queue_send(&qre, &v, K_NO_WAIT), 0);
    KT_EQ(res[1], 0);
    KT_EQ(res[5], 42);
    KT_EQ(k_queue_init(&qre, qre_mem, 4, 2), 0);

    struct k_mutex m;
    KT_EQ(k_mutex_init(&m), 0);
    KT_EQ(k_mutex_lock(&m, K_NO_WAIT), 0);
    KT_EQ(k_mutex_init(&m), K_EBUSY);
    KT_EQ(k_mutex_unlock(&m), 0); /* still locked by the driver until here */
    KT_EQ(k_mutex_init(&m), 0);
    KT_EQ(k_mutex_destroy(&m), 0);

    tre_a = tre_b = 0;
    KT_EQ(k_timer_init(&tre_a_t, on_tre, NULL), 0);
    KT_EQ(k_timer_init(&tre_b_t, on_tre, (void *)1), 0);
    /* (interrupts masked: an emulator whose clock follows the host's may not let a to fire
     * between its start and its re-initialisation) */
    __asm volatile("cpsid i" ::: "memory");
    int r1 = k_timer_start(&tre_a_t, K_USEC(300), 0);
    int r2 = k_timer_start(&tre_b_t, K_USEC(600), 0); /* behind a in the list */
    int r3 = k_timer_init(&tre_a_t, on_tre, NULL);     /* running: stopped first */
    __asm volatile("cpsie i" ::: "memory");
    KT_EQ(r1, 0);
    KT_EQ(r2, 0);
    KT_EQ(r3, 0);
    KT_EQ(k_timer_stop(&tre_a_t), K_ESTATE);
    k_sleep(K_MSEC(2));
    KT_EQ(tre_a, 0);
    KT_EQ(tre_b, 1);
    KT_EQ(k_timer_start(&tre_a_t, K_USEC(100), 0), 0); /* and usable again */
    k_sleep(K_MSEC(1));
    KT_EQ(tre_a, 1);
}
