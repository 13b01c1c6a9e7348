/*
 * Cycle costs of the kernel's hot paths, measured with the board's cycle counter (meaningful
 * on vp-m0; on QEMU the numbers are timer ticks and only show that the code runs).
 * The figure printed is the median over N samples, minus the cost of reading the counter.
 *
 *   sem.signal_wake   low signals, the waiting high thread runs: signal call -> after its wait
 *   sem.wait_block    high waits on an empty semaphore, low runs: wait call -> low's next line
 *   task_switch       yield between two equal-priority threads
 *   irq.to_thread     stimulus edge -> ISR signals -> the woken thread's first line
 *   mutex.lock+unlock uncontended pair
 */
#include "board.h"
#include "ktest.h"

#define N 64
#define HI 5
#define LO 2

static uint32_t samples[N];
static volatile uint32_t t_a, t_b;
static uint32_t overhead;
static K_SEM_DEFINE(s1, 0, 0);
static K_SEM_DEFINE(done, 0, 0);
static K_MUTEX_DEFINE(mx);
static struct k_thread th_a, th_b;
static uint64_t st_a[64], st_b[64];

static uint32_t median(uint32_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint32_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

static void report(const char *name, int n)
{
    uint32_t mn = 0xFFFFFFFFu, mx_ = 0;
    for (int i = 0; i < n; i++) {
        if (samples[i] < mn)
            mn = samples[i];
        if (samples[i] > mx_)
            mx_ = samples[i];
    }
    uint32_t med = median(samples, n);
    kt_puts(name);
    kt_puts(": median ");
    kt_putu(med - overhead);
    kt_puts(" min ");
    kt_putu(mn - overhead);
    kt_puts(" max ");
    kt_putu(mx_ - overhead);
    kt_puts(" cycles\n");
}

/* ---- sem.signal_wake and sem.wait_block (seed 000, Snippet 7) ---- */
static volatile int phase_i;
static void sem_hi(void *arg)
{
    (void)arg;
    for (int i = 0; i < N + 1; i++) {
        t_a = board_cycles();
        k_sem_wait(&s1, K_FOREVER);
        uint32_t now = board_cycles();
        if (i > 0)
            samples[i - 1] = now - t_b; /* signal_wake */
    }
    k_sem_signal(&done);
}

static uint32_t wb[N];
static void sem_lo(void *arg)
{
    (void)arg;
    for (int i = 0; i < N + 1; i++) {
        uint32_t now = board_cycles();
        if (i > 0)
            wb[i - 1] = now - t_a; /* wait_block */
        t_b = board_cycles();
        k_sem_signal(&s1);
    }
}

/* ---- yield ---- */
static uint32_t ys[N];
static volatile int ycount;
static void y_a(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        t_a = board_cycles();
        k_yield();
        ys[i] = t_b - t_a;
    }
}
static void y_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        k_yield();
        t_b = board_cycles();
    }
}

/* ---- irq.to_thread ---- */
static K_SEM_DEFINE(isem, 0, 0);
static volatile int spin_on;
void IRQ1_Handler(void) /* the stimulus rising edge on the lab boards */
{
    k_sem_signal_irq(&isem); /* (handler mode, interrupts enabled) */
}
#if !BOARD_HAS_STIMULUS
void IRQ30_Handler(void)
{
    k_sem_signal_irq(&isem); /* (handler mode, interrupts enabled) */
}
#endif
static void irq_hi(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        uint32_t at = board_cycles() + 400u + (uint32_t)i * 7u;
#if BOARD_HAS_STIMULUS
        board_stim_arm(at, 0, 1);
#else
        board_irq_trigger(BOARD_STIM_IRQ);
#endif
        k_sem_wait(&isem, K_FOREVER);
        uint32_t now = board_cycles();
        samples[i] = now - (BOARD_HAS_STIMULUS ? board_stim_last_rise() : at) + overhead;
    }
    spin_on = 0;
}
static void irq_lo(void *arg)
{
    (void)arg;
    while (spin_on) {
    }
}

static void controller(void *arg)
{
    (void)arg;
    uint32_t a = board_cycles();
    uint32_t b = board_cycles();
    overhead = b - a;
    kt_puts("bench_cycles on " BOARD_NAME ", counter overhead ");
    kt_putu(overhead);
    kt_puts("\n");

    k_thread_create(&th_a, st_a, sizeof st_a, sem_hi, NULL, HI);
    k_thread_create(&th_b, st_b, sizeof st_b, sem_lo, NULL, LO);
    k_sem_wait(&done, K_FOREVER);
    report("sem.signal_wake", N);
    for (int i = 0; i < N; i++)
        samples[i] = wb[i];
    report("sem.wait_block", N);
    k_sleep(K_USEC(100));

    k_thread_create(&th_a, st_a, sizeof st_a, y_a, NULL, LO);
    k_thread_create(&th_b, st_b, sizeof st_b, y_b, NULL, LO);
    k_sleep(K_MSEC(1));
    for (int i = 1; i < N; i++) /* (the first sample precedes B's first timestamp) */
        samples[i - 1] = ys[i];
    report("task_switch(yield)", N - 1);

    spin_on = 1;
#if !BOARD_HAS_STIMULUS
    board_irq_enable(BOARD_STIM_IRQ, 0);
#else
    board_irq_enable(BOARD_STIM_IRQ, 0);
#endif
    k_thread_create(&th_b, st_b, sizeof st_b, irq_lo, NULL, LO);
    k_thread_create(&th_a, st_a, sizeof st_a, irq_hi, NULL, HI);
    k_sleep(K_MSEC(3));
    report("irq.to_thread", N);

    for (int i = 0; i < N; i++) {
        uint32_t t0 = board_cycles();
        k_mutex_lock(&mx, K_FOREVER);
        k_mutex_unlock(&mx);
        samples[i] = board_cycles() - t0;
    }
    report("mutex.lock+unlock", N);
    for (int i = 0; i < N; i++) {
        uint32_t t0 = board_cycles();
        k_sem_signal(&s1);
        samples[i] = board_cycles() - t0;
        k_sem_wait(&s1, K_NO_WAIT);
    }
    report("sem.signal_no_waiter", N);
    for (int i = 0; i < N; i++) {
        k_sem_signal(&s1);
        uint32_t t0 = board_cycles();
        k_sem_wait(&s1, K_NO_WAIT);
        samples[i] = board_cycles() - t0;
    }
    report("sem.wait_available", N);
    {
        static uint32_t qb[4 * 2];
        static struct k_queue q;
        uint32_t msg[4] = {1, 2, 3, 4}, out[4];
        k_queue_init(&q, qb, sizeof msg, 2);
        uint32_t rs[N];
        for (int i = 0; i < N; i++) {
            uint32_t t0 = board_cycles();
            k_queue_send(&q, msg, K_FOREVER);
            uint32_t t1 = board_cycles();
            k_queue_recv(&q, out, K_FOREVER);
            uint32_t t2 = board_cycles();
            samples[i] = t1 - t0;
            rs[i] = t2 - t1 + overhead;
        }
        report("queue.send(16 bytes, room)", N);
        for (int i = 0; i < N; i++)
            samples[i] = rs[i];
        report("queue.recv(16 bytes, available)", N);
        for (int i = 0; i < N; i++) {
            uint32_t t0 = board_cycles();
            k_thread_prio_set(NULL, 7);
            samples[i] = board_cycles() - t0;
        }
        report("prio_set(self, same)", N);
    }
    for (int i = 0; i < 8; i++) {
        uint32_t t0 = board_cycles();
        k_sleep(K_USEC(10));
        samples[i] = board_cycles() - t0 - K_USEC(10) + overhead;
    }
    report("sleep(10us) lateness", 8);
    {
        /* a timed wait that times out: from the call to the return, less the timeout */
        static struct k_sem never;
        k_sem_init(&never, 0, 1);
        for (int i = 0; i < 8; i++) {
            uint32_t t0 = board_cycles();
            int r = k_sem_wait(&never, K_USEC(10));
            samples[i] = board_cycles() - t0 - K_USEC(10) + overhead;
            if (r != K_ETIMEDOUT)
                samples[i] = 0;
        }
        report("sem.wait(10us) timeout lateness", 8);
    }
    kt_finish();
}

K_THREAD_DEFINE(ctrl, 768, controller, NULL, 7);

int main(void)
{
    k_start();
}
