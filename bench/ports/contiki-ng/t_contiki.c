/*
 * t_contiki.c - what Contiki-NG can do, measured with the suite's framework (bench.h).
 *
 * Contiki-NG processes are stackless cooperative protothreads: the suite's standard tests
 * (threads that block inside C functions) cannot be written for it, so bench_core.c reports
 * them absent (RTB_PORT_NO_THREADS, rtb_port.h) and calls rtb_port_own_tests() from main's
 * context, here. This file drives Contiki-NG's own scheduler loop (platform.c,
 * contiki_platform_run_once(): os/contiki-main.c's `while(process_run() > 0)` then
 * platform_idle()) and measures, in cycles of the board clock:
 *
 *  rhealstone.interrupt_latency  the standard definition, met as is: stimulus edge to the
 *                 first C statement of the handler (vectors_armv6m.c: a Contiki-NG handler
 *                 is a plain C function, there is no prologue); main spins meanwhile, as the
 *                 test thread of the other ports does.
 *  irq.dispatch   the standard definition: the suite's table call, the same for every port.
 *  contiki.process_start        process_start(&p) to p's first statement after
 *                 PROCESS_BEGIN() (the INIT event is delivered synchronously).
 *  contiki.event_post_switch    process A calls process_post(&B, ev) and waits
 *                 (PROCESS_WAIT_EVENT_UNTIL); the interval ends at B's first statement after
 *                 its PROCESS_WAIT_EVENT_UNTIL: A's protothread returns, the scheduler loop
 *                 takes the event from the queue and calls B. Contiki's process switch (seed
 *                 002 measured it for Contiki), the counterpart of rhealstone.task_switch.
 *  contiki.event_post_synch     process_post_synch(&B, ev) to B's first statement after its
 *                 wait (a direct call of B's protothread, no queue).
 *  contiki.poll_from_isr        stimulus edge (boards without one: the store that pends the
 *                 software IRQ) to the first statement, after PROCESS_WAIT_EVENT_UNTIL(ev ==
 *                 PROCESS_EVENT_POLL), of the process that the ISR polled with process_poll():
 *                 the CPU sleeps in platform_idle() (WFI) meanwhile, as a Contiki node does.
 *                 The counterpart of irq.to_thread (Contiki cannot preempt a running process:
 *                 from a busy loop the latency is that of the process that is running).
 *  contiki.rtimer_error.<d>     (signed) rtimer_set(RTIMER_NOW() + d) to the callback's first
 *                 statement (interrupt context) minus d, for the suite's delays 10us..10ms;
 *                 rtimer ticks are board cycles, so d is exact and never rounded.
 *  timer.oneshot_error.<d>      the standard definition (t_time.c), met with the same rtimer
 *                 sample for d = 10us, 100us, 1ms, 10ms: rtimer is Contiki-NG's one-shot
 *                 callback timer to the cycle (ctimer, the other one, rides on etimer's 1 ms
 *                 clock and the etimer process: its error is contiki.etimer_error's); the
 *                 controller sleeps in the scheduler loop meanwhile instead of a semaphore.
 *  contiki.etimer_error.<d>     (signed) etimer_set() to the process's first statement after
 *                 PROCESS_WAIT_EVENT_UNTIL(etimer_expired()) minus d, for d = 1ms, 5ms, 10ms
 *                 (etimer counts clock ticks of 1 ms: shorter delays are rtimer's job). The
 *                 interval is d rounded up to ticks plus one tick (the tick in progress does
 *                 not count), so it is never shorter than asked.
 *                 Each timer sample starts at a different phase (a spin of 0..1 ms, the
 *                 sequence of t_time.c).
 *  contiki.tm_cooperative       (ops per 10^7 cycles) Thread-Metric's cooperative test in
 *                 Contiki terms: five processes, each counts and calls PROCESS_PAUSE()
 *                 (posts itself a continue event and waits: the round-robin of the event
 *                 queue); 2 ms windows (TM_WINDOW_US of t_tm.c). The window is measured by
 *                 the loop that calls process_run(), which reads the cycle counter between
 *                 calls (a few cycles per operation, counted against Contiki).
 *  contiki.event_pingpong       (ops per 10^7 cycles) round trips of an event ping-pong
 *                 between two processes (process_post both ways), same windows.
 *  contiki.irq_latency_worst    irq.latency_worst's phase sweep (stimulus edge to the first
 *                 statement of the handler, sample k arriving one cycle later in the same
 *                 workload than sample k-1) over Contiki-NG's own workload, the event
 *                 ping-pong: what the core's critical sections add to interrupt latency.
 *
 * Checks (also in the check image):
 *  check.contiki_event_fifo   events posted to several processes are delivered in the order
 *                 they were posted (Contiki's FIFO event queue: its check.fifo_equal_priority).
 *  check.contiki_isr_poll     an interrupt's process_poll() runs the polled process with
 *                 PROCESS_EVENT_POLL, once per poll (its check.isr_signal).
 *  check.contiki_timer_not_early  no etimer or rtimer sample above was early (checks image:
 *                 32 samples of each kind at 100 us / 1 ms).
 */
#include <string.h>

/* Contiki-NG's process macros: PROCESS_THREAD's (ev, data) parameters are not always used,
 * and its protothreads are a switch whose case labels (lc-switch.h) fall through. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"

#include "bench.h"
#include "irq_source.h"
#include "contiki.h"
#include "sys/rtimer.h"
#include "contiki_platform.h"

extern volatile unsigned bench_n; /* samples taken (bench_core.c) */
static volatile uint32_t g_t0, g_seq, g_done, g_want, g_early;
static process_event_t ev_ping, ev_pong;

/* os/contiki-main.c's loop (every poll and event, then platform_idle()) until *flag
 * changes from `value`; the CPU sleeps only while it has not. */
static void run_while(volatile uint32_t *flag, uint32_t value)
{
    for (;;) {
        while (process_run() > 0) {
        }
        if (*flag != value)
            return;
        contiki_platform_idle_while(flag, value);
    }
}

/* ---- rhealstone.interrupt_latency, irq.dispatch ---- */
static void lat_isr(uint32_t now)
{
    bench_sample(now - irq_origin());
    g_seq++;
}

static void disp_isr(uint32_t now)
{
    uint32_t t = board_cycles();
    bench_sample(t - now);
    g_seq++;
}

static void spin_irqs(void)
{
    for (unsigned i = 0; bench_more(); i++) {
        uint32_t s = g_seq;
        irq_fire(200u + (i % 8u));
        while (g_seq == s) {
        }
    }
}

static void t_irq_standard(void)
{
    unsigned from = BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_CYCLES;
    bench_begin("rhealstone.interrupt_latency", from, 0);
    g_seq = 0;
    bench_entry_stops_probe = 1;
    rtb_irq_install(LAT_IRQ, 1, lat_isr);
    spin_irqs();
    rtb_irq_uninstall(LAT_IRQ);
    bench_entry_stops_probe = 0;
    bench_end();

    bench_begin("irq.dispatch", BK_NO_PROBE, 0);
    g_seq = 0;
    rtb_irq_install(LAT_IRQ, 1, disp_isr);
    spin_irqs();
    rtb_irq_uninstall(LAT_IRQ);
    bench_end();
}

/* ---- contiki.process_start ---- */
PROCESS(ps_proc, "start");
PROCESS_THREAD(ps_proc, ev, data)
{
    PROCESS_BEGIN();
    {
        uint32_t t1 = t_stop();
        bench_sample(t1 - g_t0);
    }
    PROCESS_END(); /* ends at once: the next sample starts it again */
}

static void t_process_start(void)
{
    bench_begin("contiki.process_start", BK_CYCLES, 0);
    while (bench_more()) {
        g_t0 = t_start();
        process_start(&ps_proc, NULL);
        while (process_run() > 0) {
        }
    }
    bench_end();
}

/* ---- contiki.event_post_switch ---- */
PROCESS(pp_a, "ping");
PROCESS(pp_b, "pong");
PROCESS_THREAD(pp_a, ev, data)
{
    PROCESS_BEGIN();
    while (bench_more()) {
        g_t0 = t_start();
        process_post(&pp_b, ev_ping, NULL);
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_pong);
    }
    g_done = 1;
    PROCESS_END();
}
PROCESS_THREAD(pp_b, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_ping);
        {
            uint32_t t1 = t_stop();
            bench_sample(t1 - g_t0);
        }
        process_post(&pp_a, ev_pong, NULL);
    }
    PROCESS_END();
}

static void t_event_post_switch(void)
{
    bench_begin("contiki.event_post_switch", BK_CYCLES, 0);
    g_done = 0;
    process_start(&pp_b, NULL);
    process_start(&pp_a, NULL); /* posts the first ping */
    run_while(&g_done, 0);
    process_exit(&pp_b);
    bench_end();
}

/* ---- contiki.event_post_synch ---- */
PROCESS(sy_b, "synch");
PROCESS_THREAD(sy_b, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_ping);
        {
            uint32_t t1 = t_stop();
            bench_sample(t1 - g_t0);
        }
    }
    PROCESS_END();
}
PROCESS(sy_a, "synch caller");
PROCESS_THREAD(sy_a, ev, data)
{
    PROCESS_BEGIN();
    while (bench_more()) {
        g_t0 = t_start();
        process_post_synch(&sy_b, ev_ping, NULL);
        PROCESS_PAUSE(); /* a turn of the scheduler loop between samples */
    }
    g_done = 1;
    PROCESS_END();
}

static void t_event_post_synch(void)
{
    bench_begin("contiki.event_post_synch", BK_CYCLES, 0);
    g_done = 0;
    process_start(&sy_b, NULL);
    process_start(&sy_a, NULL);
    run_while(&g_done, 0);
    process_exit(&sy_b);
    bench_end();
}

/* ---- contiki.poll_from_isr, check.contiki_isr_poll ---- */
static volatile uint32_t g_polls, g_poll_isrs;
PROCESS(po_p, "polled");
PROCESS_THREAD(po_p, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_WAIT_EVENT_UNTIL(ev == PROCESS_EVENT_POLL);
        {
            uint32_t t1 = t_stop();
            bench_sample(t1 - irq_origin());
        }
        g_polls++;
        g_seq++;
    }
    PROCESS_END();
}

static void po_isr(uint32_t now)
{
    (void)now;
    g_poll_isrs++;
    process_poll(&po_p);
}

static void t_poll_from_isr(const char *id, unsigned want)
{
    unsigned from = BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_CYCLES;
    bench_begin(id, from, want);
    g_seq = 0;
    g_polls = 0;
    g_poll_isrs = 0;
    process_start(&po_p, NULL);
    rtb_irq_install(LAT_IRQ, 1, po_isr);
    for (unsigned i = 0; bench_more(); i++) {
        uint32_t s = g_seq;
        irq_fire(200u + (i % 8u));
        run_while(&g_seq, s);
    }
    rtb_irq_uninstall(LAT_IRQ);
    process_exit(&po_p);
}

/* ---- contiki.rtimer_error.<d> ---- */
static struct rtimer rt;
static void rt_cb(struct rtimer *t, void *ptr)
{
    uint32_t t1 = t_stop();
    (void)t;
    (void)ptr;
    int32_t err = (int32_t)((t1 - g_t0) - g_want);
    if (err < 0)
        g_early++;
    bench_sample((uint32_t)err);
    g_seq++;
}

/* kind: contiki.rtimer_error's (from the stimulus edge armed at the same time, on boards
 * with one) or timer.oneshot_error's (BK_SIGNED | BK_NO_PROBE, t_time.c's); the sample is
 * the same. */
static void t_rtimer(const char *id, uint32_t us, unsigned want, unsigned kind)
{
    uint32_t ms = us_to_cycles(1000);
    bench_begin(id, kind, want);
    g_want = us_to_cycles(us);
    for (uint32_t i = 0; bench_more(); i++) {
        bench_spin((i * 7919u) % ms);
        uint32_t s = g_seq;
#if BOARD_HAS_STIMULUS
        if (kind & BK_FROM_STIM)
            board_stim_arm(board_cycles() + g_want, 0, 2);
#endif
        g_t0 = t_start();
        rtimer_set(&rt, RTIMER_NOW() + g_want, 0, rt_cb, NULL);
        run_while(&g_seq, s);
    }
}

/* ---- contiki.etimer_error.<d> ---- */
static struct etimer et;
static volatile clock_time_t g_ticks;
PROCESS(et_p, "etimer");
PROCESS_THREAD(et_p, ev, data)
{
    static uint32_t i;
    PROCESS_BEGIN();
    for (i = 0; bench_more(); i++) {
        bench_spin((i * 7919u) % us_to_cycles(1000));
#if BOARD_HAS_STIMULUS
        board_stim_arm(board_cycles() + g_want, 0, 2);
#endif
        g_t0 = t_start();
        etimer_set(&et, g_ticks);
        PROCESS_WAIT_EVENT_UNTIL(etimer_expired(&et));
        {
            uint32_t t1 = t_stop();
            int32_t err = (int32_t)((t1 - g_t0) - g_want);
            if (err < 0)
                g_early++;
            bench_sample((uint32_t)err);
        }
    }
    g_done = 1;
    PROCESS_END();
}

/* etimer ticks for a delay of at least `us`: rounded up, plus the tick in progress. */
static clock_time_t etimer_ticks(uint32_t us)
{
    return (clock_time_t)(((uint64_t)us * CLOCK_SECOND + 999999u) / 1000000u + 1u);
}

static void t_etimer(const char *id, uint32_t us, unsigned want)
{
    bench_begin(id, BK_SIGNED | (BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_NO_PROBE), want);
    g_want = us_to_cycles(us);
    g_ticks = etimer_ticks(us);
    g_done = 0;
    process_start(&et_p, NULL);
    run_while(&g_done, 0);
}

/* ---- throughput: contiki.tm_cooperative, contiki.event_pingpong ---- */
#define TMW_WINDOWS RTB_SAMPLES
#define TMW_WINDOW_US (2048000u / TMW_WINDOWS)
static volatile uint32_t ops;

PROCESS(co_0, "co0");
PROCESS(co_1, "co1");
PROCESS(co_2, "co2");
PROCESS(co_3, "co3");
PROCESS(co_4, "co4");
#define COOP_BODY                                                                          \
    PROCESS_BEGIN();                                                                       \
    for (;;) {                                                                             \
        ops++;                                                                             \
        PROCESS_PAUSE();                                                                   \
    }                                                                                      \
    PROCESS_END();
PROCESS_THREAD(co_0, ev, data) { COOP_BODY }
PROCESS_THREAD(co_1, ev, data) { COOP_BODY }
PROCESS_THREAD(co_2, ev, data) { COOP_BODY }
PROCESS_THREAD(co_3, ev, data) { COOP_BODY }
PROCESS_THREAD(co_4, ev, data) { COOP_BODY }

PROCESS(tp_a, "tput ping");
PROCESS(tp_b, "tput pong");
PROCESS_THREAD(tp_a, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        process_post(&tp_b, ev_ping, NULL);
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_pong);
        ops++;
    }
    PROCESS_END();
}
PROCESS_THREAD(tp_b, ev, data)
{
    PROCESS_BEGIN();
    for (;;) {
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_ping);
        process_post(&tp_a, ev_pong, NULL);
    }
    PROCESS_END();
}

/* One sample per window: the scheduler loop runs until the window's cycles have passed. */
static void tm_measure(void)
{
    uint32_t window = us_to_cycles(TMW_WINDOW_US);
    for (int w = 0; w < TMW_WINDOWS; w++) {
        uint32_t n0 = ops, c0 = board_cycles();
        while (process_run() > 0 && (uint32_t)(board_cycles() - c0) < window) {
        }
        uint32_t c1 = board_cycles();
        uint32_t n1 = ops, el = c1 - c0;
        bench_sample(el ? (uint32_t)(((uint64_t)(n1 - n0) * 10000000u) / el) : 0);
    }
}

static void t_contiki_throughput(void)
{
    const unsigned kind = BK_RATE | BK_NO_PROBE;
    bench_begin("contiki.tm_cooperative", kind, TMW_WINDOWS);
    ops = 0;
    process_start(&co_0, NULL);
    process_start(&co_1, NULL);
    process_start(&co_2, NULL);
    process_start(&co_3, NULL);
    process_start(&co_4, NULL);
    tm_measure();
    process_exit(&co_0);
    process_exit(&co_1);
    process_exit(&co_2);
    process_exit(&co_3);
    process_exit(&co_4);
    while (process_run() > 0) { /* the continue events of the exited processes */
    }
    bench_end();

    bench_begin("contiki.event_pingpong", kind, TMW_WINDOWS);
    ops = 0;
    process_start(&tp_b, NULL);
    process_start(&tp_a, NULL);
    tm_measure();
    process_exit(&tp_a);
    process_exit(&tp_b);
    while (process_run() > 0) {
    }
    bench_end();
}

/* ---- contiki.irq_latency_worst (boards with the stimulus generator) ----
 * irq.latency_worst's phase sweep with Contiki-NG's own workload: the event ping-pong of
 * contiki.event_pingpong runs in the scheduler loop, and sample k's stimulus edge arrives k
 * cycles later than sample k-1's from the same point of that workload, so the samples cover
 * every arrival phase of a 1024-cycle window (posts, deliveries, the loop). */
#if BOARD_HAS_STIMULUS
static volatile uint32_t g_fired;
static void lw_isr(uint32_t now)
{
    bench_sample(now - board_stim_last_rise());
    g_fired = 1;
}

static void t_irq_latency_worst(void)
{
    bench_begin("contiki.irq_latency_worst", BK_FROM_STIM, 0);
    bench_entry_stops_probe = 1;
    rtb_irq_install(BOARD_STIM_IRQ, 1, lw_isr);
    process_start(&tp_b, NULL);
    process_start(&tp_a, NULL);
    for (uint32_t k = 0; bench_more(); k++) {
        g_fired = 0;
        process_run(); /* every sample from the same point of the ping-pong */
        process_run();
        board_probe_set(BENCH_PIN);
        board_stim_arm(board_cycles() + 300u + k, 0, 2);
        while (!g_fired)
            process_run();
    }
    rtb_irq_uninstall(BOARD_STIM_IRQ);
    bench_entry_stops_probe = 0;
    process_exit(&tp_a);
    process_exit(&tp_b);
    while (process_run() > 0) {
    }
    bench_end();
}
#endif

/* ---- check.contiki_event_fifo ---- */
#define FIFO_N 12
static uint8_t fifo_log[FIFO_N];
static volatile unsigned fifo_n;
static process_event_t ev_seq;
#define FIFO_BODY                                                                          \
    PROCESS_BEGIN();                                                                       \
    for (;;) {                                                                             \
        PROCESS_WAIT_EVENT_UNTIL(ev == ev_seq);                                            \
        if (fifo_n < FIFO_N)                                                               \
            fifo_log[fifo_n++] = (uint8_t)(uintptr_t)data;                                 \
    }                                                                                      \
    PROCESS_END();
PROCESS(ff_0, "fifo0");
PROCESS(ff_1, "fifo1");
PROCESS(ff_2, "fifo2");
PROCESS_THREAD(ff_0, ev, data) { FIFO_BODY }
PROCESS_THREAD(ff_1, ev, data) { FIFO_BODY }
PROCESS_THREAD(ff_2, ev, data) { FIFO_BODY }

static void check_event_fifo(void)
{
    static struct process *const to[3] = {&ff_0, &ff_1, &ff_2};
    fifo_n = 0;
    process_start(&ff_0, NULL);
    process_start(&ff_1, NULL);
    process_start(&ff_2, NULL);
    /* post 12 events, numbered in posting order, to the three processes in a mixed order */
    for (unsigned k = 0; k < FIFO_N; k++)
        process_post(to[(k * 7u + 1u) % 3u], ev_seq, (process_data_t)(uintptr_t)k);
    while (process_run() > 0) {
    }
    bool ok = fifo_n == FIFO_N;
    for (unsigned k = 0; ok && k < FIFO_N; k++)
        ok = fifo_log[k] == k;
    process_exit(&ff_0);
    process_exit(&ff_1);
    process_exit(&ff_2);
    bench_check("check.contiki_event_fifo", ok,
                ok ? "12 events to 3 processes delivered in posting order"
                   : "events not delivered in posting order");
}

/* ---- rhealstone.task_switch.seed002 (bench/suite/t_seed002.c): seed 002's own application
 * (II §1.3, listing 1.1): two processes, each works 1 ms (busy wait) then PROCESS_PAUSE();
 * from the counter read before one's PROCESS_PAUSE() to the other's first counter read after
 * its own. A protothread switch saves no registers and changes no stack: the pausing process
 * returns to the scheduler loop, which calls the next one's function. ---- */
static volatile uint32_t s2_go; /* both started: process_start runs a process's first turn */
#define S2_BODY                                                                            \
    PROCESS_BEGIN();                                                                       \
    for (;;) {                                                                             \
        {                                                                                  \
            uint32_t t1 = t_stop();                                                        \
            if (s2_go)                                                                     \
                bench_sample(t1 - g_t0);                                                   \
        }                                                                                  \
        if (!bench_more())                                                                 \
            break;                                                                         \
        bench_spin(us_to_cycles(1000));                                                    \
        g_t0 = t_start();                                                                  \
        PROCESS_PAUSE();                                                                   \
    }                                                                                      \
    g_done = 1;                                                                            \
    PROCESS_END();
PROCESS(s2_a, "seed002 a");
PROCESS(s2_b, "seed002 b");
PROCESS_THREAD(s2_a, ev, data) { S2_BODY }
PROCESS_THREAD(s2_b, ev, data) { S2_BODY }

static void t_seed002_switch(void)
{
    bench_begin("rhealstone.task_switch.seed002", BK_CYCLES, 0);
    g_done = 0;
    s2_go = 0;
    process_start(&s2_a, NULL);
    process_start(&s2_b, NULL);
    s2_go = 1;
    run_while(&g_done, 0);
    process_exit(&s2_a);
    process_exit(&s2_b);
    while (process_run() > 0) {
    }
    bench_end();
}

/* ---- the hook (rtb_port.h): t_contiki_hook.c, part of this translation unit (it calls
 * the static measurements above; one unit keeps the compiler's order and inlining, hence the
 * image, as they were) ---- */
#include "t_contiki_hook.c"
