/*
 * irq_source.h - the interrupt that the suite's latency metrics time (t_irq.c, t_live.c, the
 * Contiki-NG port's t_contiki.c). On boards with the stimulus generator (the simulator) the
 * interval starts at the cycle the stimulus pin rises (its STIM_LAST register: ground truth);
 * elsewhere at the store that pends a software interrupt on a line no board wires.
 *
 * The functions are static: each test file has its own copy inlined into its measured loop,
 * as when each file wrote them, so no metric pays a call across files.
 */
#ifndef IRQ_SOURCE_H
#define IRQ_SOURCE_H

#include "bench.h"

#if BOARD_HAS_STIMULUS
#define LAT_IRQ BOARD_STIM_IRQ
#else
#define LAT_IRQ BENCH_SW_IRQ
/* the interval's start where there is no stimulus: the cycle of the pending store (one for
 * the image, bench_core.c: a 16 KiB board's CoOS image has no 4 bytes to spare for a copy per file) */
extern volatile uint32_t irq_t0;
#endif

/* Raise LAT_IRQ `delay` cycles from now (stimulus), or now (software). */
__attribute__((unused)) static void irq_fire(uint32_t delay)
{
#if BOARD_HAS_STIMULUS
    board_probe_set(BENCH_PIN);
    board_stim_arm(board_cycles() + delay, 0, 2);
#else
    (void)delay;
    irq_t0 = t_start();
    board_irq_trigger(BENCH_SW_IRQ);
#endif
}

/* The cycle the last interrupt of irq_fire was raised at. */
__attribute__((unused)) static uint32_t irq_origin(void)
{
#if BOARD_HAS_STIMULUS
    return board_stim_last_rise();
#else
    return irq_t0;
#endif
}

#endif
