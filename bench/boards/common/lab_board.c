/*
 * The board layer for the simulated lab boards (vp-m0, vp-stm32f0): console on UART_TX,
 * exit through the EXIT register, the compare timer as the alarm, the stimulus generator.
 */
#include "armv6m_nvic.h"
#include "board.h"
#include "lab_regs.h"

void board_init(void)
{
}

void board_putc(char c)
{
    LAB_UART_TX = (uint8_t)c;
}


void board_exit(int status)
{
    for (;;)
        LAB_EXIT = (uint32_t)status;
}

uint64_t board_cycles64(void)
{
    uint32_t lo = LAB_CYCLE_LO; /* latches the high word */
    return ((uint64_t)LAB_CYCLE_HI << 32) | lo;
}

void board_alarm_set(uint32_t at_cycle)
{
    LAB_TIMER_CMP = at_cycle;
    LAB_TIMER_CTRL = 1u;
}

void board_alarm_cancel(void)
{
    LAB_TIMER_CTRL = 0u;
    NVIC_ICPR = 1u << LAB_TIMER_IRQ;
}

__attribute__((weak)) void board_alarm_isr(void)
{
}

void IRQ0_Handler(void)
{
    board_alarm_isr();
}

void board_stim_arm(uint32_t at_cycle, uint32_t period, uint32_t width)
{
    LAB_STIM_AT = at_cycle;
    LAB_STIM_PERIOD = period;
    LAB_STIM_WIDTH = width;
    LAB_STIM_CTRL = 1u;
}

void board_stim_disarm(void)
{
    LAB_STIM_CTRL = 0u;
}

uint32_t board_stim_last_rise(void) { return LAB_STIM_LAST; }
uint32_t board_stim_last_fall(void) { return LAB_STIM_LAST_FALL; }
uint32_t board_stim_count(void) { return LAB_STIM_COUNT; }
