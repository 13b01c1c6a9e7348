/*
 * Energy (issue 28; docs/methodology.md, "Energy"): two windows whose charge the host computes
 * from the simulator's record of the core's state in them (sleep, deep sleep, wake-up, run:
 * the run's profile) and the board's energy model (board.toml [energy]). The samples are the
 * windows' lengths in cycles; the figures are energy.idle_uA and energy.duty_uA
 * (python/rtoslab/energy.py).
 */
#include "bench.h"

/* ---- energy.idle_window: one second in which every thread waits: the test thread in a 1 s
 * delay, the controller on its semaphore (bench_join, a 10 s timeout). What the core does
 * meanwhile is the kernel's: its ticks, its timers, its idle loop. ---- */
#define ENERGY_IDLE_US 1000000u

static void idle_second(void *arg)
{
    (void)arg;
    uint32_t t0 = board_cycles();
    rtb_delay_us(ENERGY_IDLE_US);
    bench_sample(board_cycles() - t0);
    bench_done();
}

/* ---- energy.duty_window: the duty-cycle application of the battery view: 100 periods of
 * DUTY_WORK_CYCLES of work (a spin on the cycle counter) then a DUTY_SLEEP_US delay. ---- */
#define DUTY_PERIODS 100u
#define DUTY_WORK_CYCLES 10000u
#define DUTY_SLEEP_US 10000u

static void duty_cycle(void *arg)
{
    (void)arg;
    uint32_t t0 = board_cycles();
    for (uint32_t i = 0; i < DUTY_PERIODS; i++) {
        bench_spin(DUTY_WORK_CYCLES);
        rtb_delay_us(DUTY_SLEEP_US);
    }
    bench_sample(board_cycles() - t0);
    bench_done();
}

static void window(const char *id, rtb_entry_t fn)
{
#ifndef BOARD_HAS_ENERGY_MODEL
    /* (2 s of the board's time for nothing: QEMU and the host have no model) */
    (void)fn;
    bench_absent(id, "the board has no energy model (board.toml [energy])");
    return;
#else
    if (!bench_need(RTB_CAP_DELAY, id))
        return;
    bench_begin(id, BK_NO_PROBE, 1);
    bench_spawn(0, 6, fn, 0, BENCH_STACK);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
#endif
}

void t_energy(void)
{
    bench_config_u("energy.duty_work_cycles", DUTY_WORK_CYCLES);
    bench_config_u("energy.duty_sleep_us", DUTY_SLEEP_US);
    bench_config_u("energy.duty_periods", DUTY_PERIODS);
    window("energy.idle_window", idle_second);
    window("energy.duty_window", duty_cycle);
}
