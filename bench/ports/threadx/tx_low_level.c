/*
 * _tx_initialize_low_level for the suite's boards (ThreadX calls it first in
 * tx_kernel_enter, with the hardware as the reset code left it), and the SysTick vector.
 * Written for this port; what it must do is what ThreadX's Cortex-M0 port documents
 * (readme_threadx.txt, section 3, and the example in ports/cortex_m0/gnu/example_build):
 *   - interrupts off until the scheduler starts (_tx_thread_schedule enables them);
 *   - _tx_initialize_unused_memory: the first free RAM address (end of .bss), passed to
 *     tx_application_define;
 *   - _tx_thread_system_stack_ptr: the interrupt (main) stack, the top of the MSP stack;
 *   - the periodic tick: SysTick at TX_TIMER_TICKS_PER_SECOND from the core clock
 *     (ThreadX has no tick-less mode in its core);
 *   - exception priorities as the port requires: PendSV (the scheduler) lowest (0xFF),
 *     SysTick 0x40 (NVIC level 1 of 0..3, the example's value), SVCall lowest.
 * The board's vector table binds handlers by weak names: PendSV_Handler is the port's own
 * global label in tx_thread_schedule.S (__tx_PendSVHandler); SysTick_Handler is below.
 */
#include "board.h"
#include "tx_api.h"

extern VOID *_tx_initialize_unused_memory;
extern VOID *_tx_thread_system_stack_ptr;
extern uint32_t __stack_top[], __heap_start[];
VOID _tx_initialize_low_level(VOID);
VOID _tx_timer_interrupt(VOID);

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SCB_SHPR2 (*(volatile uint32_t *)0xE000ED1Cu)
#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)

#ifndef RTB_TX_TICK_HZ
#define RTB_TX_TICK_HZ TX_TIMER_TICKS_PER_SECOND
#endif

VOID _tx_initialize_low_level(VOID)
{
    __asm volatile("cpsid i" ::: "memory");
    _tx_initialize_unused_memory = (VOID *)__heap_start;
    _tx_thread_system_stack_ptr = (VOID *)__stack_top;

    SCB_SHPR2 = 0xFF000000u;              /* SVCall lowest */
    SCB_SHPR3 = 0x40FF0000u;              /* SysTick 0x40, PendSV 0xFF (lowest) */

    SYST_CSR = 0;
    SYST_RVR = BOARD_CLOCK_HZ / RTB_TX_TICK_HZ - 1u;
    SYST_CVR = 0;
    SYST_CSR = 7u;                        /* core clock, interrupt, enable */
}

/* The tick: ThreadX's timer interrupt processing (ports/cortex_m0/gnu/src/tx_timer_interrupt.S),
 * which with TX_TIMER_PROCESS_IN_ISR expires timeouts and timers here and pends PendSV. */
void SysTick_Handler(void)
{
    _tx_timer_interrupt();
}
