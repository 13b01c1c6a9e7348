/*
 * Stress test: random interrupts (SysTick with a random reload, nesting a software interrupt
 * of higher priority) for at least 10^8 cycles while threads exchange semaphores, mutexes and
 * messages; invariants are checked all along and totals at the end (no wake-up lost, no
 * message lost or duplicated, mutual exclusion kept).
 */
#include "ktest.h"

#define RUN_CYCLES 100000000ull
#define NEST_IRQ 21u /* nRF51 SWI1; unused on the lab boards */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)

static volatile int running = 1;
static uint32_t rng = 0x12345678u;
static uint32_t rnd(void)
{
    uint32_t x = rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng = x;
}

#define SENTINEL 0xFFFFFFFFu /* ends a reader */

/* ---- interrupt side ---- */
static K_SEM_DEFINE(isr_sem, 0, 0);
K_QUEUE_DEFINE(isr_q, 4, 8);
static volatile uint32_t isr_count, nest_count, sem_given, q_sent, q_dropped;

void SysTick_Handler(void)
{
    isr_count++;
    if (k_sem_signal_isr(&isr_sem) == 0)
        sem_given++;
    if ((rnd() & 3u) == 0)
        board_irq_trigger(NEST_IRQ); /* nests: higher priority */
    uint32_t v = q_sent;
    if (k_queue_send_isr(&isr_q, &v) == 0)
        q_sent++;
    else
        q_dropped++;
    SYST_RVR = 2500u + (rnd() & 8191u); /* next interval: random, 2500..10690 cycles */
}

void IRQ21_Handler(void)
{
    nest_count++;
    if (k_sem_signal_irq(&isr_sem) == 0) /* (handler-only variant: interrupts are enabled) */
        sem_given++;
}

/* ---- threads ---- */
static K_SEM_DEFINE(finished, 0, 0);
static volatile uint32_t sem_taken, sem_timeouts, q_recv, q_errors;

static void isr_sem_taker(void *arg)
{
    (void)arg;
    while (running) {
        int r = k_sem_wait(&isr_sem, K_USEC(150));
        if (r == 0)
            sem_taken++;
        else if (r == K_ETIMEDOUT)
            sem_timeouts++;
        else
            q_errors++;
    }
    k_sem_signal(&finished);
}

static void isr_q_reader(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;) { /* waits without timeout: senders hand items over directly */
        int r = k_queue_recv(&isr_q, &v, K_FOREVER);
        if (r != 0) {
            q_errors++;
            continue;
        }
        if (v == SENTINEL)
            break;
        if (v != q_recv)
            q_errors++;
        q_recv++;
    }
    k_sem_signal(&finished);
}

/* semaphore ping-pong between two priorities */
static K_SEM_DEFINE(ping, 0, 0);
static K_SEM_DEFINE(pong, 0, 0);
static volatile uint32_t pings, pongs;
static volatile int pp_stop;

static void pinger(void *arg)
{
    (void)arg;
    while (running) {
        k_sem_signal(&ping);
        pings++;
        if (k_sem_wait(&pong, K_FOREVER) != 0)
            q_errors++;
        if ((pings & 31u) == 0)
            k_sleep(K_USEC(30)); /* leaves the CPU idle now and then: wake-ups from idle */
    }
    pp_stop = 1;
    k_sem_signal(&ping);
    k_sem_signal(&finished);
}

static void ponger(void *arg)
{
    (void)arg;
    for (;;) {
        if (k_sem_wait(&ping, K_FOREVER) != 0)
            q_errors++;
        if (pp_stop)
            break;
        pongs++;
        k_sem_signal(&pong);
    }
    k_sem_signal(&finished);
}

/* mutex: mutual exclusion under preemption, with timeouts */
static K_MUTEX_DEFINE(mtx);
static volatile int owner_id;
static volatile uint32_t mtx_ok[3], mtx_timeouts, mtx_violations;

static void mtx_worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    while (running) {
        int r = k_mutex_lock(&mtx, K_USEC(400));
        if (r == K_ETIMEDOUT) {
            mtx_timeouts++;
            continue;
        }
        if (r != 0) {
            mtx_violations++;
            continue;
        }
        if (owner_id != 0)
            mtx_violations++;
        owner_id = id + 1;
        for (volatile int i = 0; i < (int)(rnd() & 63u); i++) {
        }
        if ((rnd() & 7u) == 0)
            k_yield();
        if ((rnd() & 15u) == 0)
            k_sleep(K_USEC(20));
        if (owner_id != id + 1)
            mtx_violations++;
        owner_id = 0;
        mtx_ok[id]++;
        if (k_mutex_unlock(&mtx) != 0)
            mtx_violations++;
        k_sleep(K_USEC(20) + (rnd() & 4095u)); /* tickless: units are cycles */
    }
    k_sem_signal(&finished);
}

/* messages between threads: two producers, one consumer, sequence checked per producer */
struct msg {
    uint32_t src;
    uint32_t seq;
};
K_QUEUE_DEFINE(mq, sizeof(struct msg), 4);
static volatile uint32_t produced[2], consumed[2], msg_errors;
static volatile int producers_left = 2;

static void producer(void *arg)
{
    int id = (int)(intptr_t)arg;
    while (running) {
        struct msg m = {(uint32_t)id, produced[id]};
        int r = k_queue_send(&mq, &m, K_USEC(500));
        if (r == 0)
            produced[id]++;
        else if (r != K_ETIMEDOUT)
            msg_errors++;
        if ((rnd() & 7u) == 0)
            k_yield();
        k_sleep(K_USEC(50) + (rnd() & 8191u));
    }
    struct msg end = {(uint32_t)id, SENTINEL};
    if (k_queue_send(&mq, &end, K_FOREVER) != 0)
        msg_errors++;
    producers_left--;
    k_sem_signal(&finished);
}

static void consumer(void *arg)
{
    (void)arg;
    struct msg m;
    int ends = 0;
    for (unsigned i = 0;; i++) {
        /* alternately with and without a timeout: the ring and the direct hand-off */
        int r = k_queue_recv(&mq, &m, (i & 1u) ? K_FOREVER : K_USEC(700));
        if (r == 0) {
            if (m.seq == SENTINEL) {
                if (++ends == 2)
                    break;
            } else if (m.src > 1 || m.seq != consumed[m.src]) {
                msg_errors++;
            } else {
                consumed[m.src]++;
            }
        } else if (r != K_ETIMEDOUT) {
            msg_errors++;
        }
    }
    k_sem_signal(&finished);
}

/* a periodic timer signalling a thread */
static K_SEM_DEFINE(tsem, 0, 0);
static volatile uint32_t tfires, tseen;
static void on_tick(struct k_timer *t, void *arg)
{
    (void)t, (void)arg;
    tfires++;
    k_sem_signal_irq(&tsem); /* a timer callback runs with interrupts enabled */
}
static K_TIMER_DEFINE(ttimer, on_tick, NULL);
static void timer_taker(void *arg)
{
    (void)arg;
    while (running || k_sem_count(&tsem)) {
        if (k_sem_wait(&tsem, K_MSEC(1)) == 0)
            tseen++;
    }
    k_sem_signal(&finished);
}

#define NT 11
static struct k_thread th[NT];
static uint64_t stacks[NT][320 / 8];

static void report(const char *k, uint32_t v)
{
    kt_puts("  ");
    kt_puts(k);
    kt_puts(" ");
    kt_putu(v);
    kt_puts("\n");
}

static void driver(void *arg)
{
    (void)arg;
    kt_puts("stress test on " BOARD_NAME "\n");
    int n = 0;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], isr_sem_taker, NULL, 6), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], isr_q_reader, NULL, 5), n++;
    /* the ping-pong pair never sleeps: at the bottom, it is the background load */
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], pinger, NULL, 0), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], ponger, NULL, 1), n++;
    for (int i = 0; i < 3; i++)
        k_thread_create(&th[n], stacks[n], sizeof stacks[n], mtx_worker, (void *)(intptr_t)i,
                        (unsigned)(1 + 2 * i)), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], producer, (void *)0, 2), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], producer, (void *)1, 3), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], consumer, NULL, 2), n++;
    k_thread_create(&th[n], stacks[n], sizeof stacks[n], timer_taker, NULL, 4), n++;

    k_timer_start(&ttimer, K_USEC(497), K_USEC(497));
    board_irq_enable(NEST_IRQ, 0);
    SCB_SHPR3 = (SCB_SHPR3 & 0x00FFFFFFu) | 0x80000000u; /* SysTick: priority 2 */
    SYST_RVR = 1000u;
    SYST_CVR = 0u;
    SYST_CSR = 7u;

    uint64_t start = board_cycles64();
    uint32_t last = board_cycles();
    uint64_t elapsed = 0;
    while (elapsed < RUN_CYCLES) {
        k_sleep(K_MSEC(2));
        uint32_t now = board_cycles();
        elapsed += now - last; /* 32-bit counter on some boards: accumulate differences */
        last = now;
    }
    (void)start;
    SYST_CSR = 0u;
    board_irq_disable(NEST_IRQ);
    k_timer_stop(&ttimer);
    running = 0;
    uint32_t end = SENTINEL;
    k_queue_send(&isr_q, &end, K_FOREVER);

    kt_case_begin("threads_finish");
    int fin = 0;
    for (int i = 0; i < NT; i++)
        fin += k_sem_wait(&finished, K_MSEC(50)) == 0;
    KT_EQ(fin, NT);
    kt_case_end();

    /* drain what the interrupts left */
    while (k_sem_wait(&isr_sem, K_NO_WAIT) == 0)
        sem_taken++;
    while (k_sem_wait(&tsem, K_NO_WAIT) == 0)
        tseen++;

    report("cycles", (uint32_t)(elapsed / 1000u));
    kt_puts("  (thousands)\n");
    report("interrupts", isr_count);
    report("nested", nest_count);
    report("isr_sem given", sem_given);
    report("isr_sem taken", sem_taken);
    report("isr_queue sent", q_sent);
    report("isr_queue received", q_recv);
    report("pings", pings);
    report("mutex sections", mtx_ok[0] + mtx_ok[1] + mtx_ok[2]);
    report("mutex timeouts", mtx_timeouts);
    report("mutex sections of the prio-1 worker", mtx_ok[0]);
    report("mutex sections of the prio-5 worker", mtx_ok[2]);
    report("messages", consumed[0] + consumed[1]);
    report("timer fires", tfires);

    kt_case_begin("duration_and_load");
    KT_CHECK(elapsed >= RUN_CYCLES);
    KT_CHECK(isr_count > 1000u);
    KT_CHECK(nest_count > 100u);
    kt_case_end();
    kt_case_begin("no_wakeup_lost_isr_sem");
    KT_EQ(sem_given, sem_taken);
    KT_EQ(q_errors, 0);
    kt_case_end();
    kt_case_begin("isr_queue_complete");
    KT_EQ(q_sent, q_recv);
    kt_case_end();
    kt_case_begin("pingpong");
    KT_EQ(pings, pongs);
    KT_CHECK(pings > 0u); /* the background pair: it runs whenever the rest is idle */
    kt_case_end();
    kt_case_begin("mutex_exclusion");
    KT_EQ(mtx_violations, 0);
    KT_CHECK(mtx_ok[0] > 0 && mtx_ok[1] > 0 && mtx_ok[2] > 0);
    kt_case_end();
    kt_case_begin("messages");
    KT_EQ(msg_errors, 0);
    KT_EQ(produced[0], consumed[0]);
    KT_EQ(produced[1], consumed[1]);
    KT_CHECK(consumed[0] + consumed[1] > 100u);
    kt_case_end();
    kt_case_begin("timer");
    KT_EQ(tfires, tseen);
    kt_case_end();
    kt_finish();
}

K_THREAD_DEFINE(driver_thread, 768, driver, NULL, 7);

int main(void)
{
    k_start();
}
