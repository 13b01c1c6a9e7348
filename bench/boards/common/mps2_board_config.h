/*
 * QEMU's MPS2 machines (board layer "mps2"; the board_config.h generated from a board's
 * board.toml defines BOARD_NAME, BOARD_CLOCK_HZ, BOARD_RAM_BYTES and includes this).
 * Functionally real, timing not cycle-accurate: QEMU runs with -icount (the guest's virtual time follows its instructions), and the "cycle" counter is the CMSDK APB TIMER1
 * counting down from 0xFFFFFFFF at the 25 MHz system clock, so one count is 40 ns of QEMU's
 * virtual time, not a core cycle. QEMU's DWT has no cycle counter (CYCCNT), and SysTick is
 * the RTOSes' tick. The alarm is the CMSDK TIMER0 (IRQ 8); there is no probe and no
 * stimulus: the suite's interrupts are pended in software through the NVIC (ISPR).
 */
#ifndef MPS2_BOARD_CONFIG_H
#define MPS2_BOARD_CONFIG_H

#include <stdint.h>

#define BOARD_CYCLE_ACCURATE 0
#define BOARD_HAS_ALARM 1
#define BOARD_ALARM_IRQ 8u /* CMSDK TIMER0 */
#define BOARD_HAS_STIMULUS 0
#define BOARD_STIM_IRQ 30u /* no device drives it: tests trigger it in software */
#define BOARD_STIM_FALL_IRQ 31u
#define BOARD_HAS_PROBE 0

/* CMSDK APB timers: CTRL, VALUE (counts down), RELOAD, INTSTATUS/INTCLEAR. */
#define CMSDK_TIMER0(off) (*(volatile uint32_t *)(0x40000000u + (off)))
#define CMSDK_TIMER1(off) (*(volatile uint32_t *)(0x40001000u + (off)))
#define CMSDK_TIMER_CTRL 0x0u
#define CMSDK_TIMER_VALUE 0x4u
#define CMSDK_TIMER_RELOAD 0x8u
#define CMSDK_TIMER_INTCLEAR 0xCu
#define CMSDK_TIMER_ENABLE 1u
#define CMSDK_TIMER_IRQ_ENABLE 8u

static inline uint32_t board_cycles(void)
{
    return ~CMSDK_TIMER1(CMSDK_TIMER_VALUE); /* 0xFFFFFFFF - value: counts up */
}
static inline void board_probe_set(uint32_t pins) { (void)pins; }
static inline void board_probe_clr(uint32_t pins) { (void)pins; }
static inline void board_probe_mark(uint32_t value) { (void)value; }

#endif
