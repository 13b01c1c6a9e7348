/*
 * The suite's interrupt entries on ARMv6-M boards: the stimulus lines and the software line.
 * Each is a handler written the way the RTOS under test wants applications to write one
 * (RTB_ISR_PROLOGUE/EPILOGUE from the port's rtb_port_isr.h, rtb_port.h "interrupts"): its
 * first statement reads the cycle counter, where every interrupt latency ends; then the
 * suite's dispatch, one table load and one call (irq.dispatch). The board's weak vector
 * table picks these up by name.
 */
#include "armv6m_nvic.h"
#include "vector_entry.h"


/* Forget an edge that arrived while the line was not in use (e.g. left by an earlier test). */
void bench_irq_clear_pending(unsigned irq)
{
    NVIC_ICPR = 1u << (irq & 31u);
}

/* Set by the latency tests, whose stop point is the vector entry itself: the probe pin
 * then drops right after the counter read. */
volatile uint32_t bench_entry_stops_probe;

BENCH_VECTOR(1)
BENCH_VECTOR(2)
BENCH_VECTOR(28)
BENCH_VECTOR(30)
BENCH_VECTOR(31)
