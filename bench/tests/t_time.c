/*
 * Delayed execution (seed 004, "Delayed Execution Tests") and periodic timer jitter.
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

/* timer.periodic_jitter: period between successive callbacks of a 1 ms periodic timer,
 * minus 1 ms. */
#define PJ_SEM 0
#define PJ_PERIOD_US 1000u
static volatile uint32_t pj_prev;
static volatile unsigned pj_have;
static void pj_cb(void *arg)
{
    (void)arg;
    uint32_t t = board_cycles();
    if (pj_have)
        bench_sample((t - pj_prev) - us_to_cycles(PJ_PERIOD_US));
    pj_prev = t;
    pj_have = 1;
    if (!bench_more()) {
#if RTB_TIMER_CB_IN_ISR
        rtb_sem_signal_isr(PJ_SEM);
#else
        rtb_sem_signal(PJ_SEM);
#endif
    }
}
static void pj_thread(void *arg)
{
    (void)arg;
    rtb_timer_create(0, PJ_PERIOD_US, pj_cb, 0);
    rtb_timer_start(0);
    rtb_sem_wait(PJ_SEM, RTB_FOREVER);
    rtb_timer_stop(0);
    rtb_timer_delete(0);
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

    if (bench_need(RTB_CAP_TIMER, "timer.periodic_jitter")) {
        bench_begin("timer.periodic_jitter", BK_SIGNED | BK_NO_PROBE, 0);
        pj_have = 0;
        bench_sem(PJ_SEM, 0, 1);
        bench_spawn(0, 6, pj_thread, 0, BENCH_STACK);
        if (bench_join(1))
            bench_end();
        else
            bench_abort("timed out");
    }
}
