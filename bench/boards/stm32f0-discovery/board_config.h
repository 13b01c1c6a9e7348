/*
 * stm32f0-discovery: STM32F051R8 (Cortex-M0, 64 KiB flash, 8 KiB RAM) at 48 MHz from the HSI
 * through the PLL, one flash wait state with the prefetch buffer (the setting vp-stm32f0
 * models). Console on USART1 TX (PA9) at 115200 8N1; cycle counter: TIM2, 32 bits, at the
 * core clock; probe: GPIOC pins 8..15 through BSRR (probe pin n = PC(8+n): pin 0 is the
 * blue LED PC8, pin 1 the green LED PC9). No stimulus generator.
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#include <stdint.h>

#define BOARD_NAME "stm32f0-discovery"
#define BOARD_CLOCK_HZ 48000000u
#define BOARD_RAM_BYTES 8192u
/* TIM2 counts core cycles exactly, but a read of it (an APB load) takes a few cycles more
 * than on the lab board, and flash wait states are real: timings are true silicon figures. */
#define BOARD_CYCLE_ACCURATE 1
#define BOARD_HAS_ALARM 1
#define BOARD_ALARM_IRQ 15u /* TIM2 */
#define BOARD_HAS_STIMULUS 0
#define BOARD_STIM_IRQ 30u /* not wired: tests trigger it in software */
#define BOARD_STIM_FALL_IRQ 31u
#define BOARD_HAS_PROBE 1

#define STM32_TIM2_CNT (*(volatile uint32_t *)0x40000024u)
#define STM32_GPIOC_BSRR (*(volatile uint32_t *)0x48000818u)

static inline uint32_t board_cycles(void) { return STM32_TIM2_CNT; }
static inline void board_probe_set(uint32_t pins) { STM32_GPIOC_BSRR = (pins & 0xFFu) << 8; }
static inline void board_probe_clr(uint32_t pins) { STM32_GPIOC_BSRR = (pins & 0xFFu) << 24; }
/* No marker channel on a real pin: a logic analyser sees only the edges. */
static inline void board_probe_mark(uint32_t value) { (void)value; }

#endif
