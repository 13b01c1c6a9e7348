/*
 * The suite's interrupt entries on ARMv6-M boards: the stimulus lines and the software line.
 * Each reads the cycle counter as its very first work, then dispatches
 * to the ISR installed with rtb_irq_install (bench_core.c). The board's weak vector table
 * picks these up by name.
 */
#include "armv6m_nvic.h"
#include "bench.h"

/* Forget an edge that arrived while the line was not in use (e.g. left by an earlier test). */
void bench_irq_clear_pending(unsigned irq)
{
    NVIC_ICPR = 1u << (irq & 31u);
}

/* Set by the latency tests, whose stop point is the vector entry itself: the probe pin
 * then drops right after the counter read. */
volatile uint32_t bench_entry_stops_probe;

#define BENCH_VECTOR(n)                                                                    \
    void IRQ##n##_Handler(void)                                                            \
    {                                                                                      \
        uint32_t now = board_cycles();                                                     \
        if (bench_entry_stops_probe)                                                       \
            board_probe_clr(BENCH_PIN);                                                    \
        bench_isr_dispatch(n, now);                                                        \
    }

BENCH_VECTOR(1)
BENCH_VECTOR(2)
BENCH_VECTOR(28)
BENCH_VECTOR(30)
BENCH_VECTOR(31)
