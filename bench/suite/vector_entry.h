/*
 * The shape of the suite's interrupt entries, shared by the vectors files of each
 * architecture (vectors_armv6m.c, vectors_armv7a.c; docs/methodology.md "Interrupt entry"):
 * the RTOS's prologue, the counter read where every interrupt latency ends, the suite's
 * dispatch (one table load and one call), the RTOS's epilogue.
 */
#ifndef VECTOR_ENTRY_H
#define VECTOR_ENTRY_H
#include "bench.h"

#if defined(RTB_PORT_ISR)
#include "rtb_port_isr.h"
#else
#define RTB_ISR_PROLOGUE() ((void)0)
#define RTB_ISR_EPILOGUE() ((void)0)
#endif

/* Set by the latency tests, whose stop point is the entry itself: the probe pin then drops
 * right after the counter read (defined by the vectors file). */
extern volatile uint32_t bench_entry_stops_probe;

#define BENCH_VECTOR(n)                                                                    \
    void IRQ##n##_Handler(void)                                                            \
    {                                                                                      \
        RTB_ISR_PROLOGUE();                                                                \
        uint32_t now = board_cycles();                                                     \
        if (bench_entry_stops_probe)                                                       \
            board_probe_clr(BENCH_PIN);                                                    \
        bench_isr_table[n](now);                                                           \
        RTB_ISR_EPILOGUE();                                                                \
    }
#endif
