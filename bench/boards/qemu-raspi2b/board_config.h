/*
 * qemu-raspi2b: QEMU's raspi2b machine (BCM2836, Cortex-A7, ARMv7-A), the board of seed 004
 * (Jobbed on a Raspberry Pi 2B). Functionally real, timing not cycle-accurate (accurate=0):
 * QEMU runs with -icount shift=0, so every guest instruction advances virtual time by 1 ns
 * (about a 900 MHz Cortex-A7 at one instruction per cycle) and the timers follow the
 * instructions, not the host: a run is deterministic.
 *
 * The "cycle" counter is the Cortex-A7 PMU cycle counter PMCCNTR, which QEMU derives from
 * virtual time at 1 GHz (1 count = 1 ns = 1 instruction here); one MRC. It is enabled, and
 * made readable in user mode (PMUSERENR.EN), by the RTOS's privileged start-up (Jobbed's
 * kernel_main does both) or by board_init() when it runs privileged. The BCM2835 system
 * timer (1 MHz, 0x3F003000) is the seed's own clock and the source of the software
 * interrupts: the suite's lines are its compare channels (line 28 -> C3, 30 -> C1,
 * 31 -> C2, any other -> C0): a trigger writes the compare with the current count, which
 * QEMU's model matches at once (board.c, board_irq_trigger), so an interrupt latency is the
 * interrupt path alone. QEMU's raspi2b has no other software-pendable interrupt an RTOS that
 * owns the IRQ vector would route (the BCM2836 local mailboxes are one, but Jobbed's IRQ
 * code does not know them).
 * No probe, no stimulus, no alarm (no kernel of this board needs one).
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#include <stdint.h>

#define BOARD_NAME "qemu-raspi2b"
#define BOARD_CLOCK_HZ 1000000000u
#define BOARD_CYCLE_ACCURATE 0
#define BOARD_HAS_ALARM 0
#define BOARD_ALARM_IRQ 0u
#define BOARD_HAS_STIMULUS 0
#define BOARD_STIM_IRQ 30u /* no hardware: tests trigger it in software */
#define BOARD_STIM_FALL_IRQ 31u
#define BOARD_HAS_PROBE 0
#define BOARD_ARCH_ARMV7A 1

/* BCM2835 system timer (1 MHz) and interrupt controller, at the BCM2836's peripheral base. */
#define BCM_SYSTMR(off) (*(volatile uint32_t *)(0x3F003000u + (off)))
#define BCM_SYSTMR_CS BCM_SYSTMR(0x00u)
#define BCM_SYSTMR_CLO BCM_SYSTMR(0x04u)
#define BCM_SYSTMR_CHI BCM_SYSTMR(0x08u)
#define BCM_SYSTMR_C(n) BCM_SYSTMR(0x0Cu + 4u * (n))
#define BCM_IRQ_ENABLE1 (*(volatile uint32_t *)0x3F00B210u)
#define BCM_IRQ_DISABLE1 (*(volatile uint32_t *)0x3F00B21Cu)

/* The system-timer compare channel that carries suite line `irq`. */
static inline unsigned board_irq_compare(unsigned irq)
{
    return irq == 28u ? 3u : irq == 30u ? 1u : irq == 31u ? 2u : 0u;
}
/* Forget a match left from an earlier test (the suite's bench_irq_clear_pending). */
static inline void board_irq_clear_pending(unsigned irq)
{
    BCM_SYSTMR_CS = 1u << board_irq_compare(irq);
}

/* bench_spin (bench_core.c) runs this many cycles of plain instructions between counter
 * reads: under -icount QEMU ends a translation block at every PMCCNTR read, so a spin that
 * only polls runs more than ten times slower on the host than one that computes; the delay
 * tests spin 0..1 ms before each request (a 1024-sample set: half a second of virtual time
 * per delay). The spin still ends at the same count (its last strides poll). */
#define BOARD_SPIN_STRIDE 1000u

/* The throughput tests (bench/suite/t_tm.c) keep their RTB_SAMPLES windows, each a quarter of
 * the default length: 0.5 s of virtual time per metric instead of 2 s. The threads under test
 * run flat out for the whole window, and QEMU executes them at some 10 to 50 million guest
 * instructions a second on this project's shared host: four metrics took five minutes at
 * 2 s. A quarter window still holds hundreds of operations of the slowest test. */
#define TM_WINDOW_US (512000u / RTB_SAMPLES)

/* The suite's stack arena (bench_core.c) shrinks as the sample store grows, for the 16 KiB
 * of the ARMv6-M boards: at 4096 samples it holds 7 small threads, so the scaling metrics
 * of 8 or more threads were absent (and scale.prio_wake.n8, which did not check, waited
 * for a thread that was never created). This board has 1 GiB: the arena keeps the room of
 * the 1024-sample build (33 small threads and a side table) at any sample count, so a
 * 4096-sample run measures the same metrics as a 1024-sample one. */
#define BENCH_ARENA_BYTES 9040u

static inline uint32_t board_cycles(void)
{
    uint32_t c;
    __asm volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(c));
    return c;
}
static inline void board_probe_set(uint32_t pins) { (void)pins; }
static inline void board_probe_clr(uint32_t pins) { (void)pins; }
static inline void board_probe_mark(uint32_t value) { (void)value; }

/*
 * check.xpsr_preserved (bench/suite/t_checks.c) sets the flags, pends its interrupt with one
 * store to the ARMv6-M NVIC's ISPR (0xE000E200, nothing on this machine), waits in 300 NOPs
 * and reads the flags back. On this board the same probe is board_xpsr_probe() (board.c, ARM
 * code): flags set with MSR APSR_nzcvq, the interrupt pended with one store (system timer
 * compare C3, line 28, due 2 us later), then 4000 NOPs (4 us at 1 ns per instruction) and
 * MRS. The check's call and prototype are routed to it by this macro (the check's own
 * Thumb probe is still assembled, unused).
 */
uint32_t board_xpsr_probe(uint32_t flags);
#define bench_xpsr_probe(flags, ispr, bit) board_xpsr_probe(flags)

#endif
