/*
 * Boot, measurement overhead, the six Rhealstone metrics (seed 001 ch. 2.3 and 8, seed 003
 * ch. 3) and the semaphore-with-switch pair of seed 000 Table 9. Where each clock starts and
 * stops: docs/methodology.md.
 */
#include "bench.h"

extern uint32_t bench_boot_cycles;
static volatile uint32_t g_t0;
static volatile unsigned g_go;

/* ---- boot.first_thread, overhead.probe ---- */
void t_boot_record(void)
{
    bench_begin("boot.first_thread", BK_FROM_RESET, 1);
    bench_sample(bench_boot_cycles);
    bench_end();
}

void t_overhead(void)
{
    bench_begin("overhead.probe", BK_CYCLES, 0);
    while (bench_more()) {
        uint32_t t0 = t_start();
        uint32_t t1 = t_stop();
        bench_sample(t1 - t0);
    }
    bench_end();
}

/* ---- rhealstone.task_switch: equal priorities, yield; also used by scale.task_switch ---- */
static void ts_thread(void *arg)
{
    (void)arg;
    uint32_t t1 = t_stop();
    if (g_go)
        bench_sample(t1 - g_t0);
    while (bench_more()) {
        g_go = 1;
        g_t0 = t_start();
        rtb_yield();
        t1 = t_stop();
        bench_sample(t1 - g_t0);
    }
    bench_done();
}

void bench_task_switch(const char *id, int nthreads, size_t stack)
{
    if ((size_t)nthreads * ((stack + 7u) & ~7u) > bench_arena_free()) {
        bench_absent(id, "not enough RAM for the threads next to the sample store (use the default sample count)");
        return;
    }
    bench_begin(id, BK_CYCLES, 0);
    g_go = 0;
    for (int i = 0; i < nthreads; i++)
        bench_spawn(i, 3, ts_thread, 0, stack);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}

/* ---- rhealstone.preemption: a low thread raises a high one's priority ---- */
#define PRE_H 0
#define PRE_L 1
static void pre_high(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        rtb_prio_set(RTB_SELF, 1);
    }
}
static void pre_low(void *arg)
{
    (void)arg;
    for (;;) {
        g_t0 = t_start();
        rtb_prio_set(PRE_H, 5);
    }
}

/* ---- rhealstone.semaphore_shuffle ---- */
#define SH_SEM 0
static void sh_a(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(SH_SEM, RTB_FOREVER);
        rtb_yield(); /* B now blocks on the semaphore */
        rtb_sem_signal(SH_SEM);
        rtb_yield();
    }
}
static void sh_b(void *arg)
{
    (void)arg;
    for (;;) {
        g_t0 = t_start();
        rtb_sem_wait(SH_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        rtb_sem_signal(SH_SEM);
        rtb_yield();
    }
}

/* ---- rhealstone.deadlock_break ---- */
#define DL_M 0
#define DL_A 0
#define DL_B 1
#define DL_C 2
static void dl_c(void *arg)
{
    (void)arg;
    rtb_suspend(RTB_SELF);
    for (;;) {
        g_t0 = t_start();
        rtb_mutex_lock(DL_M, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        rtb_mutex_unlock(DL_M);
        if (!bench_more())
            bench_done();
        rtb_suspend(RTB_SELF);
    }
}
static void dl_b(void *arg)
{
    (void)arg;
    rtb_suspend(RTB_SELF);
    for (;;) {
        rtb_resume(DL_C);
        rtb_suspend(RTB_SELF);
    }
}
static void dl_a(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_mutex_lock(DL_M, RTB_FOREVER);
        rtb_resume(DL_B);
        rtb_mutex_unlock(DL_M);
    }
}

/* ---- rhealstone.semaphore_shuffle.seed001 (seed 001 ch. 7, its listing): task 2 starts its
 * stopwatch and waits on a semaphore; task 1 raises task 2's priority and signals; task 2,
 * now higher, preempts and stops the stopwatch, then goes back to its own priority ---- */
#define S1_GO 1
#define S1_SEM 2
#define S1_T2 1
static void s1_t1(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_signal(S1_GO); /* task 2 may start its next round */
        rtb_yield();           /* it does: starts the stopwatch, blocks on S1_SEM */
        rtb_prio_set(S1_T2, 5);
        rtb_sem_signal(S1_SEM);
    }
}
static void s1_t2(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(S1_GO, RTB_FOREVER);
        g_t0 = t_start();
        rtb_sem_wait(S1_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        rtb_prio_set(RTB_SELF, 3); /* restore the default priority */
    }
}

/* ---- rhealstone.semaphore_shuffle.seed003 (seed 003 ch. 3.6, Kar's test as seed 003 ran
 * it: a mutex passed between two equal-priority tasks) ---- */
#define S3_M 0
static void s3_a(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_mutex_lock(S3_M, RTB_FOREVER);
        rtb_yield(); /* B now blocks on the mutex */
        rtb_mutex_unlock(S3_M);
        rtb_yield();
    }
}
static void s3_b(void *arg)
{
    (void)arg;
    for (;;) {
        g_t0 = t_start();
        rtb_mutex_lock(S3_M, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        rtb_mutex_unlock(S3_M);
        rtb_yield();
    }
}

/* ---- rhealstone.message_passing.seed001 (seed 001 ch. 8: "message round-trip time"): A
 * sends a 128-byte message to B, which acknowledges it with a 1-byte message; from A's send
 * to A's return from the receive of the acknowledgement. Equal priorities 3. ---- */
#define RT_Q 0
#define RT_ACK 1
#define RT_BYTES 128
/* A port whose RTOS's queues cannot copy a 128-byte message says why in its rtb_port_caps.h. */
#ifndef RTB_PORT_QUEUE_128_ABSENT
#define RTB_PORT_QUEUE_128_ABSENT "the port's queue 0 holds fewer than 128 bytes (rtb_queue_create failed)"
#endif
static volatile uint32_t rt_got;
static void rt_b(void *arg)
{
    (void)arg;
    uint32_t rt_in[RT_BYTES / 4];
    for (;;) {
        rtb_queue_recv(RT_Q, rt_in, RTB_FOREVER);
        uint8_t ack = (uint8_t)rt_in[RT_BYTES / 4 - 1];
        rt_got = rt_in[0];
        rtb_queue_send(RT_ACK, &ack, RTB_FOREVER);
    }
}
static void rt_a(void *arg)
{
    (void)arg;
    uint32_t rt_msg[RT_BYTES / 4] = {0};
    for (uint32_t k = 0;; k++) {
        uint8_t ack = 0;
        rt_msg[0] = k;
        rt_msg[RT_BYTES / 4 - 1] = 0xA5u;
        uint32_t t0 = t_start();
        rtb_queue_send(RT_Q, rt_msg, RTB_FOREVER);
        rtb_queue_recv(RT_ACK, &ack, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (ack == 0xA5u && rt_got == k)
            bench_sample(t1 - t0);
        if (!bench_more())
            bench_done();
    }
}

/* ---- rhealstone.message_passing ---- */
#define MP_Q 0
#define MSG_BYTES 16
static void mp_recv(void *arg)
{
    (void)arg;
    uint32_t buf[MSG_BYTES / 4];
    for (;;) {
        rtb_queue_recv(MP_Q, buf, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (g_go && buf[0] == 0x600d600du)
            bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
    }
}
static void mp_send(void *arg)
{
    (void)arg;
    static const uint32_t msg[MSG_BYTES / 4] = {0x600d600du, 1, 2, 3};
    for (;;) {
        g_go = 1;
        g_t0 = t_start();
        rtb_queue_send(MP_Q, msg, RTB_FOREVER);
        rtb_yield();
    }
}

static void finish(void)
{
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}

void t_rhealstone(void)
{
    bench_task_switch("rhealstone.task_switch", 2, BENCH_STACK);

    if (bench_need(RTB_CAP_PRIO_SET, "rhealstone.preemption")) {
        bench_begin("rhealstone.preemption", BK_CYCLES, 0);
        bench_spawn(PRE_H, 1, pre_high, 0, BENCH_STACK);
        bench_spawn(PRE_L, 2, pre_low, 0, BENCH_STACK);
        finish();
    }

    /* rhealstone.interrupt_latency is measured with the other interrupt metrics (t_irq.c). */

    bench_begin("rhealstone.semaphore_shuffle", BK_CYCLES, 0);
    bench_sem(SH_SEM, 1, 1);
    bench_spawn(0, 3, sh_a, 0, BENCH_STACK);
    bench_spawn(1, 3, sh_b, 0, BENCH_STACK);
    finish();

    if (bench_need(RTB_CAP_PRIO_SET, "rhealstone.semaphore_shuffle.seed001")) {
        bench_begin("rhealstone.semaphore_shuffle.seed001", BK_CYCLES, 0);
        bench_sem(S1_GO, 0, 1);
        bench_sem(S1_SEM, 0, 1);
        bench_spawn(0, 3, s1_t1, 0, BENCH_STACK);
        bench_spawn(S1_T2, 3, s1_t2, 0, BENCH_STACK);
        finish();
    }

    if (bench_need(RTB_CAP_MUTEX, "rhealstone.semaphore_shuffle.seed003")) {
        bench_begin("rhealstone.semaphore_shuffle.seed003", BK_CYCLES, 0);
        bench_mutex(S3_M);
        bench_spawn(0, 3, s3_a, 0, BENCH_STACK);
        bench_spawn(1, 3, s3_b, 0, BENCH_STACK);
        finish();
    }

    if (bench_need(RTB_CAP_MUTEX | RTB_CAP_SUSPEND_SELF, "rhealstone.deadlock_break")) {
        bench_begin("rhealstone.deadlock_break", BK_CYCLES, 0);
        bench_mutex(DL_M);
        bench_spawn(DL_A, 2, dl_a, 0, BENCH_STACK);
        bench_spawn(DL_B, 4, dl_b, 0, BENCH_STACK);
        bench_spawn(DL_C, 6, dl_c, 0, BENCH_STACK);
        finish();
    }

    if (bench_need(RTB_CAP_QUEUE, "rhealstone.message_passing")) {
        bench_begin("rhealstone.message_passing", BK_CYCLES, 0);
        g_go = 0;
        bench_queue(MP_Q, MSG_BYTES, 1);
        bench_spawn(0, 3, mp_recv, 0, BENCH_STACK);
        bench_spawn(1, 3, mp_send, 0, BENCH_STACK);
        finish();
    }

    if (bench_need(RTB_CAP_QUEUE, "rhealstone.message_passing.seed001")) {
        if (bench_queue(RT_Q, RT_BYTES, 1) != RTB_OK || bench_queue(RT_ACK, 1, 1) != RTB_OK) {
            bench_absent("rhealstone.message_passing.seed001", RTB_PORT_QUEUE_128_ABSENT);
        } else {
            bench_begin("rhealstone.message_passing.seed001", BK_CYCLES, 0);
            bench_spawn(0, 3, rt_b, 0, BENCH_STACK);
            bench_spawn(1, 3, rt_a, 0, BENCH_STACK);
            finish();
        }
    }
}

/* ---- sem.signal_wake / sem.wait_block (seed 000, Table 9) ---- */
#define SW_SEM 0
static void sw_high(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(SW_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (g_go)
            bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
    }
}
static void sw_low(void *arg)
{
    (void)arg;
    for (;;) {
        g_go = 1;
        g_t0 = t_start();
        rtb_sem_signal(SW_SEM);
    }
}
static void wb_high(void *arg)
{
    (void)arg;
    for (;;) {
        if (!bench_more())
            bench_done();
        g_t0 = t_start();
        rtb_sem_wait(SW_SEM, RTB_FOREVER);
    }
}
static void wb_low(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        rtb_sem_signal(SW_SEM);
    }
}

/* scale.sem_signal_wake.nN: N equal-priority waiters blocked on one semaphore; each signal
 * wakes the one that waited longest, which records and waits again (at the tail). */
#define SN_SEM 0
static void sn_wait(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(SN_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
    }
}
static void sn_signal(void *arg)
{
    (void)arg;
    for (;;) {
        g_t0 = t_start();
        rtb_sem_signal(SN_SEM);
    }
}

void bench_sem_wake_n(const char *id, int n, size_t stack)
{
    if ((size_t)(n + 1) * ((stack + 7u) & ~7u) > bench_arena_free()) {
        bench_absent(id, "not enough RAM for the threads next to the sample store (use the default sample count)");
        return;
    }
    bench_begin(id, BK_CYCLES, 0);
    bench_sem(SN_SEM, 0, 1);
    for (int k = 0; k < n; k++)
        bench_spawn(k, 6, sn_wait, 0, stack);
    bench_spawn(n, 2, sn_signal, 0, stack);
    finish();
}

/* scale.prio_wake.nN: sem.signal_wake (signaller at 7, waiter at 8) with N distinct
 * priorities in use: N - 2 more threads ready at priorities 1 .. N-2 (they never run). */
#define PW_SEM 0
static volatile unsigned pw_stop;
static void pw_filler(void *arg)
{
    (void)arg;
    /* Ready, never running on an RTOS (the pair is above it). On the host (SCHED_FIFO threads
     * on several CPUs) a filler may run: once the pair is done it parks, so that the suite
     * can cancel and delete it. */
    while (!pw_stop)
        rtb_yield();
    for (;;)
        rtb_sem_wait(SEM_PARK, RTB_FOREVER);
}
static void pw_high(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(PW_SEM, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (g_go)
            bench_sample(t1 - g_t0);
        if (!bench_more()) {
            pw_stop = 1;
            bench_done();
        }
    }
}
static void pw_low(void *arg)
{
    (void)arg;
    for (;;) {
        g_go = 1;
        g_t0 = t_start();
        rtb_sem_signal(PW_SEM);
    }
}
/* Its largest n (8 threads, ids 0..7, small stacks) fits the port and the arena in the default
 * builds. Where it may not (a port of fewer threads; a 4096-sample build, whose arena holds 7
 * small stacks on the 16 KiB boards), each n is checked and reported absent if it does not
 * fit: a thread left uncreated would leave its partner waiting for ever (Jobbed has no
 * timeouts, so its 4096-sample run never ended). Compiled only there, so that the default
 * builds run the same instructions as before (a tick-driven kernel keeps its tick phase). */
#define PW_MAX_N 8
#if PW_MAX_N > RTB_MAX_THREADS || PW_MAX_N * ((BENCH_STACK_SMALL + 7) & ~7) > BENCH_ARENA_BYTES
#define PW_CHECK_ROOM 1
#endif
static void bench_prio_wake_n(const char *id, int n)
{
#ifdef PW_CHECK_ROOM
    if (n > RTB_MAX_THREADS) {
        bench_absent(id, "the port supports fewer threads");
        return;
    }
    if ((size_t)n * ((BENCH_STACK_SMALL + 7u) & ~7u) > bench_arena_free()) {
        bench_absent(id, "not enough RAM for the threads next to the sample store (use the default sample count)");
        return;
    }
#endif
    bench_begin(id, BK_CYCLES, 0);
    g_go = 0;
    pw_stop = 0;
    bench_sem(PW_SEM, 0, 1);
    for (int k = 0; k < n - 2; k++)
        bench_spawn(2 + k, 1 + k, pw_filler, 0, BENCH_STACK_SMALL);
    bench_spawn(0, 8, pw_high, 0, BENCH_STACK_SMALL);
    bench_spawn(1, 7, pw_low, 0, BENCH_STACK_SMALL);
    finish();
}

/* scale.timeout_wake.nN: a waiter (7) blocks on a semaphore with a 1 s timeout and is woken
 * by a signaller (6), with N other threads (priority 1) blocked with timeouts of 200 ms + k
 * µs, all earlier than the waiter's: a sorted timeout list is walked to its end on every
 * block. From the waiter's call of rtb_sem_wait (block: timeout inserted; the signaller runs
 * and signals; wake: timeout removed) to its return. */
#define TW_SEM 0
#define TW_FILL 1
/* The fillers' timeouts end within 200 ms + 30 µs of their start; the waiter sleeps past that
 * before it reports done, so that no thread is deleted while it waits with a timeout (a
 * delete of a timed waiter is not what this metric measures, and some ports cannot do it). */
#define TW_FILL_US 200000u
#define TW_SETTLE_US 250000u
static int tw_fillers;
static void tw_filler(void *arg)
{
    (void)rtb_sem_wait(TW_FILL, TW_FILL_US + (uint32_t)(uintptr_t)arg);
    for (;;)
        rtb_sem_wait(TW_FILL, RTB_FOREVER);
}
static void tw_high(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t t0 = t_start();
        rtb_sem_wait(TW_SEM, 1000000u);
        uint32_t t1 = t_stop();
        bench_sample(t1 - t0);
        if (!bench_more()) {
            if (tw_fillers)
                rtb_delay_us(TW_SETTLE_US);
            bench_done();
        }
    }
}
static void tw_low(void *arg)
{
    (void)arg;
    for (;;)
        rtb_sem_signal(TW_SEM);
}
static void bench_timeout_wake_n(const char *id, int n)
{
    /* The waiter keeps the default stack (a timed wait and a delay; RIOT keeps its thread_t
     * at the top of the stack too). The signaller only signals: on a small stack when the
     * default one does not fit beside n small fillers (n30 next to the default sample store:
     * 30 x 272 + 2 x 448 is 16 bytes more than the arena). */
    size_t small = (BENCH_STACK_SMALL + 7u) & ~7u, big = (BENCH_STACK + 7u) & ~7u;
    size_t low_stack = (size_t)n * small + 2u * big <= bench_arena_free() ? BENCH_STACK : BENCH_STACK_SMALL;
    if ((size_t)n * small + big + ((low_stack + 7u) & ~7u) > bench_arena_free()) {
        bench_absent(id, "not enough RAM for the threads next to the sample store (use the default sample count)");
        return;
    }
    bench_begin(id, BK_CYCLES, 0);
    bench_sem(TW_SEM, 0, 1);
    bench_sem(TW_FILL, 0, 1);
    tw_fillers = n;
    for (int k = 0; k < n; k++)
        bench_spawn(2 + k, 1, tw_filler, (void *)(uintptr_t)k, BENCH_STACK_SMALL);
    /* let the fillers run (they are below everyone): each blocks with its timeout */
    if (n)
        rtb_delay_us(3000);
    bench_spawn(0, 7, tw_high, 0, BENCH_STACK);
    bench_spawn(1, 6, tw_low, 0, low_stack);
    finish();
}

/* scale.timeout_wake.nN for each n of the table from `from` on. */
static void timeout_wake_series(int from, int to)
{
    static const char *const tw_ids[] = {"scale.timeout_wake.n0", "scale.timeout_wake.n2", "scale.timeout_wake.n8",
                                         "scale.timeout_wake.n30"};
    static const int tw_n[] = {0, 2, 8, 30};
    for (int i = from; i < to; i++) {
        if (!bench_need(RTB_CAP_TIMEOUT, tw_ids[i]))
            continue;
        if (tw_n[i] + 3 > RTB_MAX_THREADS) {
            bench_absent(tw_ids[i], "the port supports fewer threads");
            continue;
        }
        bench_timeout_wake_n(tw_ids[i], tw_n[i]);
    }
}

/* scale.timeout_wake.n30 runs last of the suite (after the checks): its 33 threads' set-up and
 * the 250 ms its fillers take to time out would move the tick phase of every later test on a
 * tick-driven kernel, so every other figure stays comparable with runs made before it
 * was measured. */
void t_scale_long_timeouts(void) { timeout_wake_series(3, 4); }

void t_sem_switch(void)
{
    bench_begin("sem.signal_wake", BK_CYCLES, 0);
    g_go = 0;
    bench_sem(SW_SEM, 0, 1);
    bench_spawn(0, 6, sw_high, 0, BENCH_STACK);
    bench_spawn(1, 2, sw_low, 0, BENCH_STACK);
    finish();

    bench_begin("sem.wait_block", BK_CYCLES, 0);
    bench_sem(SW_SEM, 0, 1);
    bench_spawn(0, 6, wb_high, 0, BENCH_STACK);
    bench_spawn(1, 2, wb_low, 0, BENCH_STACK);
    finish();
}

void t_scale(void)
{
    static const char *const ts_ids[] = {"scale.task_switch.n2", "scale.task_switch.n4",
        "scale.task_switch.n8", "scale.task_switch.n16", "scale.task_switch.n32"};
    static const char *const sw_ids[] = {"scale.sem_signal_wake.n2", "scale.sem_signal_wake.n4",
        "scale.sem_signal_wake.n8", "scale.sem_signal_wake.n16", "scale.sem_signal_wake.n32"};
    for (int i = 0; i < 5; i++) {
        int n = 2 << i;
        if (n + 1 > RTB_MAX_THREADS) {
            bench_absent(ts_ids[i], "the port supports fewer threads");
            continue;
        }
        bench_task_switch(ts_ids[i], n, BENCH_STACK_SMALL);
    }
    for (int i = 0; i < 5; i++) {
        int n = 2 << i;
        if (n + 1 > RTB_MAX_THREADS) {
            bench_absent(sw_ids[i], "the port supports fewer threads");
            continue;
        }
        bench_sem_wake_n(sw_ids[i], n, BENCH_STACK_SMALL);
    }
    static const char *const pw_ids[] = {"scale.prio_wake.n2", "scale.prio_wake.n4", "scale.prio_wake.n8"};
    for (int i = 0; i < 3; i++) /* n = 2, 4, PW_MAX_N */
        bench_prio_wake_n(pw_ids[i], 2 << i);
    timeout_wake_series(0, 3); /* n30: t_scale_long_timeouts, last */
}
