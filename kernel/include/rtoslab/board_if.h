/*
 * What the kernel asks of a board: the whole interface, in the kernel's own tree (the kernel
 * includes this header, not the benchmark suite's board.h). A board provides:
 *
 *  - board_config.h, on the include path (the CMake target `board`): BOARD_CLOCK_HZ, the core
 *    clock; BOARD_ALARM_IRQ, the interrupt line of its compare timer; and board_cycles(), the
 *    32-bit cycle counter, inline (the kernel's clock: one load on the lab boards);
 *  - the functions below. board_alarm_isr is the kernel's: the board's alarm interrupt calls it.
 *
 * The suite's boards (bench/boards/<board>) implement it through bench/include/board.h, whose
 * declarations are the same; an application may include both.
 */
#ifndef RTOSLAB_BOARD_IF_H
#define RTOSLAB_BOARD_IF_H

#include <stdint.h>

#include "board_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Program the compare timer to interrupt (BOARD_ALARM_IRQ) once the counter reaches
 * `at_cycle` (at once if it is already past); it calls board_alarm_isr. */
void board_alarm_set(uint32_t at_cycle);
/* Enable interrupt line `irq` at `priority` (0, the most urgent, .. 3). */
void board_irq_enable(unsigned irq, unsigned priority);
/* The console (k_fatal's default message) and the end of a run (its status). */
void board_puts(const char *s);
void board_exit(int status) __attribute__((noreturn));
/* Defined by the kernel (tickless builds). */
void board_alarm_isr(void);

#ifdef __cplusplus
}
#endif

#endif
