/*
 * The suite's interrupt entries on ARMv7-A boards (qemu-raspi2b). On the A profile the IRQ
 * exception has one vector, and the kernel owns it (an ARMv7-A RTOS has its own vector
 * table and IRQ code, Jobbed's boot.S/irq.S): the kernel calls these entries the way it
 * calls an application's handler (Jobbed: a handler subscribed with subscribe_irq(), run by
 * the kernel as a new thread; the port's rtb_irq_install subscribes IRQn_Handler). Each is
 * shaped as on ARMv6-M (vectors_armv6m.c, docs/methodology.md "Interrupt entry"): the RTOS's
 * prologue, the counter read where every interrupt latency ends, the suite's dispatch (one
 * table load and one call), the RTOS's epilogue.
 */
#include "vector_entry.h"


/* Forget a match that arrived while the line was not in use (left by an earlier test). */
void bench_irq_clear_pending(unsigned irq)
{
    board_irq_clear_pending(irq);
}

/* Set by the latency tests, whose stop point is the entry itself (no probe on this board). */
volatile uint32_t bench_entry_stops_probe;

BENCH_VECTOR(1)
BENCH_VECTOR(2)
BENCH_VECTOR(28)
BENCH_VECTOR(30)
BENCH_VECTOR(31)
