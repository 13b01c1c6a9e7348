/*
 * What the kernel asks of a board: the whole interface, owned by the kernel (the kernel
 * includes this header and nothing of the benchmark suite). A board provides:
 *
 *  - a header named rtoslab_board.h on the include path of the CMake target that
 *    implements this interface (RTOSLAB_KERNEL_BOARD, kernel/CMakeLists.txt), defining
 *      BOARD_CLOCK_HZ     the core clock in Hz (the kernel's K_CONFIG_CLOCK_HZ);
 *      BOARD_ALARM_IRQ    the interrupt line of its compare timer (tickless builds);
 *      uint32_t board_cycles(void)  the free-running 32-bit cycle counter, static inline
 *                         (the tickless kernel's clock: read on every timed call);
 *      optionally BOARD_DEEP_WAKEUP_CYCLES and BOARD_DEEP_BREAK_EVEN_CYCLES, its deep sleep
 *                         (SLEEPDEEP): the wake-up and the idle from which it pays (config.h,
 *                         K_CONFIG_DEEP_IDLE), with int board_alarm_armed(uint32_t *at_cycle),
 *                         static inline: 1 and the compare value if the alarm is armed;
 *  - the functions declared below, in that target's library;
 *  - the memory layout the port relies on, in its linker script (ARMv6-M: the symbol
 *    __stack_top, the top of the interrupt stack, which is the start-up stack (MSP); that
 *    stack below the kernel's .data and .bss, and every thread stack above them: the
 *    mutex fast paths tell an interrupt from a thread by comparing SP with &z_kernel);
 *  - the vector table and start-up code, which call main() and route the port's exceptions
 *    (ARMv6-M: PendSV_Handler; SysTick_Handler in the periodic-tick build) to the kernel.
 * The kernel defines board_alarm_isr, which the board's alarm interrupt calls.
 *
 * The suite's boards (bench/boards) implement it: their rtoslab_board.h includes their
 * board_config.h, and bench/include/board.h declares the same functions (an application
 * may include both).
 */
#ifndef RTOSLAB_BOARD_IF_H
#define RTOSLAB_BOARD_IF_H

#include <stdint.h>

#include "rtoslab_board.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Program the compare timer to interrupt (BOARD_ALARM_IRQ) once the counter reaches
 * `at_cycle` (at once if it is already past); the interrupt calls board_alarm_isr. A new
 * call replaces the previous alarm. Called with interrupts masked. */
void board_alarm_set(uint32_t at_cycle);
/* Enable interrupt line `irq` at `priority` (0, the most urgent, .. 3): the kernel enables
 * BOARD_ALARM_IRQ at 0 once, in k_start. */
void board_irq_enable(unsigned irq, unsigned priority);
/* Write a NUL-terminated string to the console (k_fatal's and the assertions' message). */
void board_puts(const char *s);
/* End the run with `status` (k_fatal's default, after its message). */
void board_exit(int status) __attribute__((noreturn));
/* Defined by the kernel (tickless builds): the board's alarm interrupt handler calls it. */
void board_alarm_isr(void);

#ifdef __cplusplus
}
#endif

#endif
