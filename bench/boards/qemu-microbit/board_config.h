/*
 * qemu-microbit: QEMU's nRF51 machine. Functionally real, timing not cycle-accurate: the
 * "cycle" counter is the nRF51 TIMER0 at 16 MHz, and there is no probe or stimulus.
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#include <stdint.h>

#define BOARD_NAME "qemu-microbit"
#define BOARD_CLOCK_HZ 16000000u
#define BOARD_CYCLE_ACCURATE 0
#define BOARD_HAS_ALARM 1
#define BOARD_ALARM_IRQ 8u /* TIMER0 */
#define BOARD_HAS_STIMULUS 0
#define BOARD_STIM_IRQ 30u /* unused by hardware: tests trigger it in software */
#define BOARD_STIM_FALL_IRQ 31u
#define BOARD_HAS_PROBE 0

#define NRF_TIMER0(off) (*(volatile uint32_t *)(0x40008000u + (off)))
#define NRF_TIMER_CAPTURE3 NRF_TIMER0(0x04Cu)
#define NRF_TIMER_CC3 NRF_TIMER0(0x54Cu)

static inline uint32_t board_cycles(void)
{
    NRF_TIMER_CAPTURE3 = 1u;
    return NRF_TIMER_CC3;
}
static inline void board_probe_set(uint32_t pins) { (void)pins; }
static inline void board_probe_clr(uint32_t pins) { (void)pins; }
static inline void board_probe_mark(uint32_t value) { (void)value; }

#endif
