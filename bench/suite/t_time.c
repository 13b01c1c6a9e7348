/*
 * Delayed execution (seed 004, "Delayed Execution Tests") and the jitter of a periodic task
 * under load (seed 003).
 */
#include "bench.h"

#ifndef RTB_DELAY_SAMPLES
#define RTB_DELAY_SAMPLES RTB_SAMPLES
#endif

static volatile uint32_t g_us;

/* timer.delay_error.X: (cycles from the call to the return of a delay of X us) - X us.
 * Each request starts at a different phase of a kernel's tick: it is preceded by a spin of
 * 0..1 ms (a fixed pseudo-random sequence, the same on every RTOS), so that a tick-driven
 * kernel shows its whole range of lateness and a tickless one its constant cost. */
static void delay_thread(void *arg)
{
    (void)arg;
    uint32_t want = us_to_cycles(g_us), ms = us_to_cycles(1000);
    for (uint32_t i = 0; bench_more(); i++) {
        bench_spin((i * 7919u) % ms);
#if BOARD_HAS_STIMULUS
        /* The probe's reference: a stimulus edge (its IRQ is not enabled) at the requested
         * deadline, counted from just before the counter's start: @probe ... from=stim. */
        board_stim_arm(board_cycles() + want, 0, 2);
#endif
        uint32_t t0 = t_start();
        rtb_delay_us(g_us);
        uint32_t t1 = t_stop();
        bench_sample((t1 - t0) - want);
    }
    bench_done();
}

/* timer.periodic_jitter (seed 003 ch. 2.7.2 and 2.8.2: the non-deterministic part of a
 * periodic task's latency, from the timer tick, other interrupts and other activity).
 * A periodic thread T at priority 6 is released every PJ_PERIOD_US by a periodic software
 * timer (its callback signals a semaphore T waits on: the usual way to drive a periodic task
 * from a timer). Activation 0 happens on an idle system and is the reference: from then on
 * two disturbances run until the end:
 *  - a load thread at priority 1 that calls the kernel without pause (signal and wait on its
 *    own semaphore), so that kernel critical sections and switches fall at every phase;
 *  - an asynchronous interrupt load (boards with the stimulus generator): the stimulus pin
 *    rises every PJ_STIM_PERIOD cycles (a prime, not commensurate with the task period, so
 *    the two drift through every relative phase); its ISR signals a semaphore that wakes a
 *    second load thread at priority 2, which spins PJ_STIM_WORK cycles and waits again.
 * Sample k (k >= 1) is the deviation of activation k from its ideal time, signed:
 * (counter at T's first statement after its k-th wake) - (the same at activation 0) - k * period.
 * The ideal period is exact on every port (1 ms is a whole number of ticks and of cycles). */
#define PJ_SEM 0
#define PJ_GO 1
#define PJ_IRQ_SEM 2
#define PJ_LOAD_SEM 3
#define PJ_PERIOD_US 1000u
#define PJ_STIM_PERIOD 4999u
#define PJ_STIM_WORK 300u
static void pj_cb(void *arg)
{
    (void)arg;
#if RTB_TIMER_CB_IN_ISR
    rtb_sem_signal_isr(PJ_SEM);
#else
    rtb_sem_signal(PJ_SEM);
#endif
}
static void pj_stim_isr(uint32_t now)
{
    (void)now;
    rtb_sem_signal_isr(PJ_IRQ_SEM);
}
static void pj_irq_load(void *arg) /* priority 2: the work the interrupt asks for */
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(PJ_IRQ_SEM, RTB_FOREVER);
        bench_spin(PJ_STIM_WORK);
    }
}
static void pj_load(void *arg) /* priority 1: kernel calls without pause */
{
    (void)arg;
    rtb_sem_wait(PJ_GO, RTB_FOREVER);
    for (;;) {
        rtb_sem_signal(PJ_LOAD_SEM);
        rtb_sem_wait(PJ_LOAD_SEM, RTB_FOREVER);
    }
}
static void pj_thread(void *arg)
{
    (void)arg;
    uint32_t period = us_to_cycles(PJ_PERIOD_US), t0 = 0;
    rtb_timer_create(0, PJ_PERIOD_US, pj_cb, 0);
    rtb_timer_start(0);
    for (uint32_t k = 0;; k++) {
        rtb_sem_wait(PJ_SEM, RTB_FOREVER);
        uint32_t t = board_cycles();
        if (k == 0) {
            t0 = t; /* the reference: released on an idle system */
            rtb_sem_signal(PJ_GO);
#if BOARD_HAS_STIMULUS
            board_stim_arm(t + 1000u, PJ_STIM_PERIOD, 2);
#endif
            continue;
        }
        bench_sample(t - t0 - k * period);
        if (!bench_more())
            break;
    }
#if BOARD_HAS_STIMULUS
    board_stim_disarm();
#endif
    rtb_timer_stop(0);
    rtb_timer_delete(0);
    bench_done();
}

/* ---- timer.oneshot_error.X (seed 004, delayed execution as it defined it: a one-shot timer
 * callback X after the request): the callback's counter read minus (the counter read just
 * before rtb_timer_once + X), signed: negative is early. The caller (priority 6) then waits
 * for the callback's semaphore; before each request it spins a fixed pseudo-random 0..1 ms,
 * as for the delays, so that requests fall at every phase of a tick. ---- */
#define OS_SEM 0
#define OS_TIMER 0
static volatile uint32_t os_fired;
static void os_cb(void *arg)
{
    (void)arg;
    os_fired = board_cycles();
#if RTB_TIMER_CB_IN_ISR
    rtb_sem_signal_isr(OS_SEM);
#else
    rtb_sem_signal(OS_SEM);
#endif
}
static void oneshot_thread(void *arg)
{
    (void)arg;
    uint32_t want = us_to_cycles(g_us), ms = us_to_cycles(1000);
    for (uint32_t i = 0; bench_more(); i++) {
        bench_spin((i * 7919u) % ms);
        uint32_t t0 = board_cycles();
        if (rtb_timer_once(OS_TIMER, g_us) != RTB_OK)
            break; /* the metric ends short: the controller reports it incomplete */
        rtb_sem_wait(OS_SEM, RTB_FOREVER);
        bench_sample((os_fired - t0) - want);
    }
    bench_done();
}

/* ---- time.idle_window: 200 ms with nothing to do (one thread in rtb_delay_us). The sample
 * is the delay's length; the point is the simulator's profile of the window (time-keeping
 * handler cycles, sleep: time.tick_fraction.idle, cpu.idle_fraction.idle). ---- */
#define IDLE_WINDOW_US 200000u
static void idle_thread(void *arg)
{
    (void)arg;
    uint32_t t0 = board_cycles();
    rtb_delay_us(IDLE_WINDOW_US);
    bench_sample(board_cycles() - t0);
    bench_done();
}

void t_time(void)
{
    static const struct { const char *id; uint32_t us; } d[] = {
        {"timer.delay_error.10us", 10}, {"timer.delay_error.20us", 20},
        {"timer.delay_error.50us", 50}, {"timer.delay_error.100us", 100},
        {"timer.delay_error.200us", 200}, {"timer.delay_error.500us", 500},
        {"timer.delay_error.1ms", 1000}, {"timer.delay_error.5ms", 5000},
        {"timer.delay_error.10ms", 10000},
    };
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {
        if (!bench_need(RTB_CAP_DELAY, d[i].id))
            continue;
        bench_begin(d[i].id, BK_SIGNED | (BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_NO_PROBE), RTB_DELAY_SAMPLES);
        g_us = d[i].us;
        bench_spawn(0, 6, delay_thread, 0, BENCH_STACK);
        if (bench_join(1))
            bench_end();
        else
            bench_abort("timed out");
    }

    static const struct { const char *id; uint32_t us; } o[] = {
        {"timer.oneshot_error.10us", 10}, {"timer.oneshot_error.100us", 100},
        {"timer.oneshot_error.1ms", 1000}, {"timer.oneshot_error.10ms", 10000},
#ifdef RTB_PRESET_SEED004 /* the rest of seed 004's nine delays (t_seed004.c reports them absent otherwise) */
        {"timer.oneshot_error.20us", 20}, {"timer.oneshot_error.50us", 50},
        {"timer.oneshot_error.200us", 200}, {"timer.oneshot_error.500us", 500},
        {"timer.oneshot_error.5ms", 5000},
#endif
    };
    for (unsigned i = 0; i < sizeof o / sizeof o[0]; i++) {
        if (!bench_need(RTB_CAP_TIMER | RTB_CAP_TIMER_ONESHOT, o[i].id))
            continue;
        bench_begin(o[i].id, BK_SIGNED | BK_NO_PROBE, RTB_DELAY_SAMPLES);
        g_us = o[i].us;
        bench_sem(OS_SEM, 0, 1);
        rtb_timer_create(OS_TIMER, 1000, os_cb, 0);
        bench_spawn(0, 6, oneshot_thread, 0, BENCH_STACK);
        bool ok = bench_join(1);
        rtb_timer_stop(OS_TIMER);
        rtb_timer_delete(OS_TIMER);
        if (ok)
            bench_end();
        else
            bench_abort("timed out");
    }

    if (bench_need(RTB_CAP_DELAY, "time.idle_window")) {
        bench_begin("time.idle_window", BK_NO_PROBE, 1);
        bench_spawn(0, 6, idle_thread, 0, BENCH_STACK);
        if (bench_join(1))
            bench_end();
        else
            bench_abort("timed out");
    }

    if (bench_need(RTB_CAP_TIMER, "timer.periodic_jitter")) {
        bench_begin("timer.periodic_jitter", BK_SIGNED | BK_NO_PROBE, 0);
        bench_sem(PJ_SEM, 0, 1);
        bench_sem(PJ_GO, 0, 1);
        bench_sem(PJ_IRQ_SEM, 0, 1);
        bench_sem(PJ_LOAD_SEM, 0, 1);
#if BOARD_HAS_STIMULUS
        if (RTB_HAS(RTB_CAP_IRQ))
            rtb_irq_install(BOARD_STIM_IRQ, 1, pj_stim_isr);
#else
        (void)pj_stim_isr;
#endif
        bench_spawn(0, 6, pj_thread, 0, BENCH_STACK);
        bench_spawn(1, 2, pj_irq_load, 0, BENCH_STACK);
        bench_spawn(2, 1, pj_load, 0, BENCH_STACK);
        if (bench_join(1))
            bench_end();
        else
            bench_abort("timed out");
    }
}
