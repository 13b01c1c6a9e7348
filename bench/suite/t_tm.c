/*
 * Throughput in the style of Thread-Metric: operations completed per 10^7 cycles. The
 * controller sleeps for a window (TM_WINDOW_US) with rtb_delay_us while the test threads run,
 * then reads the operation counter and the cycle counter; one sample per window is
 * ops * 10^7 / elapsed cycles. TM_WINDOWS windows per metric (RTB_SAMPLES).
 */
#include "bench.h"

/* One sample per window, RTB_SAMPLES windows (1024 by default) like every other metric; the
 * window shrinks as the sample count grows so that a metric always lasts about 2 s of
 * simulated time (2 ms windows at 1024 samples, 0.5 ms at 4096, 8 ms at 256). */
#ifndef TM_WINDOWS
#define TM_WINDOWS RTB_SAMPLES
#endif
#ifndef TM_WINDOW_US
#define TM_WINDOW_US (2048000u / TM_WINDOWS)
#endif

static volatile uint32_t ops;

static void coop(void *arg)
{
    (void)arg;
    for (;;) {
        ops++;
        rtb_yield();
    }
}

/* preemptive: five priorities; each thread resumes the next higher one, which runs at once. */
static void pre_chain(void *arg)
{
    int me = (int)(intptr_t)arg; /* 0..4, priority me+1 */
    for (;;) {
        ops++;
        if (me < 4)
            rtb_resume(me + 1);
        if (me > 0)
            rtb_suspend(RTB_SELF);
    }
}

#define TM_SEM 0
static void tm_isr(uint32_t now)
{
    (void)now;
    rtb_sem_signal_isr(TM_SEM);
}
static void irq_self(void *arg)
{
    (void)arg;
    for (;;) {
        board_irq_trigger(BENCH_SW_IRQ);
        rtb_sem_wait(TM_SEM, RTB_FOREVER);
        ops++;
    }
}
static void irq_low(void *arg)
{
    (void)arg;
    for (;;)
        board_irq_trigger(BENCH_SW_IRQ);
}
static void irq_high(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(TM_SEM, RTB_FOREVER);
        ops++;
    }
}

#define TM_Q 0
static void msg(void *arg)
{
    (void)arg;
    uint32_t out[4] = {1, 2, 3, 4}, in[4];
    for (;;) {
        rtb_queue_send(TM_Q, out, RTB_FOREVER);
        rtb_queue_recv(TM_Q, in, RTB_FOREVER);
        out[0] = in[0] + 1;
        ops++;
    }
}

static void sync(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_signal(TM_SEM);
        rtb_sem_wait(TM_SEM, RTB_FOREVER);
        ops++;
    }
}

static void mem(void *arg)
{
    (void)arg;
    for (;;) {
        void *p = rtb_mem_alloc(128);
        if (p)
            ops++;
        rtb_mem_free(p);
    }
}

static void measure(void)
{
    rtb_delay_us(TM_WINDOW_US); /* let the threads start */
    for (int w = 0; w < TM_WINDOWS; w++) {
        uint32_t n0 = ops, c0 = board_cycles();
        rtb_delay_us(TM_WINDOW_US);
        uint32_t n1 = ops, c1 = board_cycles();
        uint32_t el = c1 - c0;
        bench_sample(el ? (uint32_t)(((uint64_t)(n1 - n0) * 10000000u) / el) : 0);
    }
    bench_join(0);
    bench_end();
}

void t_throughput(void)
{
    const unsigned kind = BK_RATE | BK_NO_PROBE;
    if (!bench_need(RTB_CAP_DELAY, "tm.cooperative")) {
        bench_absent("tm.preemptive", rtb_port_absent_reason(RTB_CAP_DELAY));
        bench_absent("tm.interrupt", rtb_port_absent_reason(RTB_CAP_DELAY));
        bench_absent("tm.interrupt_preemption", rtb_port_absent_reason(RTB_CAP_DELAY));
        bench_absent("tm.message", rtb_port_absent_reason(RTB_CAP_DELAY));
        bench_absent("tm.synchronization", rtb_port_absent_reason(RTB_CAP_DELAY));
        bench_absent("tm.memory", rtb_port_absent_reason(RTB_CAP_DELAY));
        return;
    }
    bench_begin("tm.cooperative", kind, TM_WINDOWS);
    ops = 0;
    for (int i = 0; i < 5; i++)
        bench_spawn(i, 3, coop, 0, BENCH_STACK_SMALL);
    measure();

    if (bench_need(RTB_CAP_SUSPEND_SELF, "tm.preemptive")) {
        bench_begin("tm.preemptive", kind, TM_WINDOWS);
        ops = 0;
        for (int i = 0; i < 5; i++)
            bench_spawn(i, i + 1, pre_chain, (void *)(intptr_t)i, BENCH_STACK_SMALL);
        measure();
    }

    if (bench_need(RTB_CAP_IRQ, "tm.interrupt")) {
        bench_begin("tm.interrupt", kind, TM_WINDOWS);
        ops = 0;
        bench_sem(TM_SEM, 0, 1000);
        rtb_irq_install(BENCH_SW_IRQ, 1, tm_isr);
        bench_spawn(0, 3, irq_self, 0, BENCH_STACK);
        measure();
    }

    if (bench_need(RTB_CAP_IRQ, "tm.interrupt_preemption")) {
        bench_begin("tm.interrupt_preemption", kind, TM_WINDOWS);
        ops = 0;
        bench_sem(TM_SEM, 0, 1000);
        rtb_irq_install(BENCH_SW_IRQ, 1, tm_isr);
        bench_spawn(0, 2, irq_low, 0, BENCH_STACK);
        bench_spawn(1, 5, irq_high, 0, BENCH_STACK);
        measure();
    }

    if (bench_need(RTB_CAP_QUEUE, "tm.message")) {
        bench_begin("tm.message", kind, TM_WINDOWS);
        ops = 0;
        bench_queue(TM_Q, 16, 1);
        bench_spawn(0, 3, msg, 0, BENCH_STACK);
        measure();
    }

    bench_begin("tm.synchronization", kind, TM_WINDOWS);
    ops = 0;
    bench_sem(TM_SEM, 0, 1);
    bench_spawn(0, 3, sync, 0, BENCH_STACK);
    measure();

    if (bench_need(RTB_CAP_MEM, "tm.memory")) {
        bench_begin("tm.memory", kind, TM_WINDOWS);
        ops = 0;
        bench_spawn(0, 3, mem, 0, BENCH_STACK);
        measure();
    }
}
