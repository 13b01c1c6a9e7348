/*
 * board.h - what every board gives the kernels, the ports and the tests.
 *
 * A board is one directory bench/boards/<board>/ with a board_config.h (the inline,
 * hot-path operations: cycle counter and probe, which must cost one load or one store)
 * and a board.c (console, exit, alarm timer, stimulus). Code above the board layer never
 * touches a peripheral address.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "board_config.h" /* BOARD_NAME, BOARD_CLOCK_HZ, board_cycles(), board_probe_*() */

/* Called by the start-up code before main(). */
void board_init(void);

/* Console: bytes to the host (UART, semihosting or stdout). */
void board_putc(char c);
void board_write(const char *s, size_t n);
void board_puts(const char *s); /* a NUL-terminated string, no newline added */

/* End the run with a status (0 = success). Never returns. */
void board_exit(int status) __attribute__((noreturn));

/* 64-bit cycle counter (the 32-bit board_cycles() extended); not for hot paths. */
uint64_t board_cycles64(void);

/*
 * Alarm: one compare interrupt at an absolute 32-bit cycle time, for tickless kernels.
 * BOARD_HAS_ALARM is 1 where the board has one. The handler the board calls is
 * board_alarm_isr(), which the kernel (or test) defines; it runs in interrupt context.
 * An alarm set in the past fires at once.
 */
void board_alarm_set(uint32_t at_cycle);
void board_alarm_cancel(void);
void board_alarm_isr(void);

/*
 * External stimulus: a pin driven from outside the core, raising BOARD_STIM_IRQ on its
 * rising edge and BOARD_STIM_FALL_IRQ on its falling edge. BOARD_HAS_STIMULUS is 1 where
 * it exists (the simulator); its assertion cycle is ground truth.
 */
void board_stim_arm(uint32_t at_cycle, uint32_t period, uint32_t width);
void board_stim_disarm(void);
uint32_t board_stim_last_rise(void);
uint32_t board_stim_last_fall(void);
uint32_t board_stim_count(void);

/* Software-triggered interrupt for ISR tests where no stimulus exists: pends IRQ n. */
void board_irq_trigger(unsigned irq);
void board_irq_enable(unsigned irq, unsigned priority);
void board_irq_disable(unsigned irq);

#endif
