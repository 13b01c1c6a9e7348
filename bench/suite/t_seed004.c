/*
 * Seed 004's experiments as it defined them (rtoslab run --preset seed004: RTB_PRESET_SEED004,
 * 4096 samples): GPIO pulses of 20, 40, 160 µs, 1 ms and 2 ms with rising-edge callbacks
 * (t_irq.c, stimulus.*.W) and delayed callbacks at all nine delays 10 µs .. 10 ms (t_time.c,
 * timer.oneshot_error.*). The default build measures the suite's subset (pulses of 20 µs,
 * 200 µs, 2 ms; callbacks at 10 µs, 100 µs, 1 ms, 10 ms) and reports the rest absent here.
 */
#include "bench.h"

void t_seed004(void)
{
#ifndef RTB_PRESET_SEED004
    static const char *const ids[] = {
        "stimulus.pulse.40us", "stimulus.train.40us", "stimulus.missed.40us",
        "stimulus.pulse.160us", "stimulus.train.160us", "stimulus.missed.160us",
        "stimulus.pulse.1ms", "stimulus.train.1ms", "stimulus.missed.1ms",
        "timer.oneshot_error.20us", "timer.oneshot_error.50us", "timer.oneshot_error.200us",
        "timer.oneshot_error.500us", "timer.oneshot_error.5ms"};
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++)
        bench_absent(ids[i], "seed 004's full set: measured by `rtoslab run --preset seed004`");
#endif
}
