/*
 * Board layer for QEMU's MPS2 machines (qemu-mps2-an385, qemu-mps2-an386): console on the
 * CMSDK APB UART0 (QEMU's serial0, stdio), exit through semihosting (QEMU runs with
 * -semihosting), the counter on CMSDK TIMER1 (free-running) and the alarm on CMSDK TIMER0.
 */
#include "armv6m_nvic.h"
#include "board.h"
#include "semihosting.h"

#define UART0(off) (*(volatile uint32_t *)(0x40004000u + (off)))
#define UART_DATA UART0(0x0u)
#define UART_STATE UART0(0x4u)
#define UART_CTRL UART0(0x8u)
#define UART_BAUDDIV UART0(0x10u)
#define UART_STATE_TXFULL 1u
#define UART_CTRL_TXEN 1u

void board_init(void)
{
    UART_BAUDDIV = 16u; /* the smallest legal divider; QEMU does not pace the output */
    UART_CTRL = UART_CTRL_TXEN;
    CMSDK_TIMER1(CMSDK_TIMER_CTRL) = 0u;
    CMSDK_TIMER1(CMSDK_TIMER_RELOAD) = 0xFFFFFFFFu;
    CMSDK_TIMER1(CMSDK_TIMER_VALUE) = 0xFFFFFFFFu;
    CMSDK_TIMER1(CMSDK_TIMER_CTRL) = CMSDK_TIMER_ENABLE;
    CMSDK_TIMER0(CMSDK_TIMER_CTRL) = 0u;
}

void board_putc(char c)
{
    while (UART_STATE & UART_STATE_TXFULL) {
    }
    UART_DATA = (uint8_t)c;
}

void board_exit(int status)
{
    uint32_t block[2] = {SH_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    while (UART_STATE & UART_STATE_TXFULL) { /* the last byte out before QEMU stops */
    }
    semihosting_call(SH_SYS_EXIT_EXTENDED, block);
    for (;;) /* an emulator without the extended call: plain exit */
        semihosting_call(SH_SYS_EXIT, (const void *)(status ? 0x20024u : SH_ADP_STOPPED_APPLICATION_EXIT));
}

uint64_t board_cycles64(void)
{
    return board_cycles(); /* 32 bits at 25 MHz (171 s): enough for the runs made on QEMU */
}

void board_alarm_set(uint32_t at_cycle)
{
    CMSDK_TIMER0(CMSDK_TIMER_CTRL) = 0u;
    CMSDK_TIMER0(CMSDK_TIMER_INTCLEAR) = 1u;
    int32_t wait = (int32_t)(at_cycle - board_cycles());
    if (wait <= 0) {
        NVIC_ISPR = 1u << BOARD_ALARM_IRQ; /* already due: fire at once, as on the lab board */
        return;
    }
    CMSDK_TIMER0(CMSDK_TIMER_RELOAD) = (uint32_t)wait;
    CMSDK_TIMER0(CMSDK_TIMER_VALUE) = (uint32_t)wait;
    CMSDK_TIMER0(CMSDK_TIMER_CTRL) = CMSDK_TIMER_ENABLE | CMSDK_TIMER_IRQ_ENABLE;
}

void board_alarm_cancel(void)
{
    CMSDK_TIMER0(CMSDK_TIMER_CTRL) = 0u;
    CMSDK_TIMER0(CMSDK_TIMER_INTCLEAR) = 1u;
    NVIC_ICPR = 1u << BOARD_ALARM_IRQ;
}

__attribute__((weak)) void board_alarm_isr(void)
{
}

void IRQ8_Handler(void)
{
    CMSDK_TIMER0(CMSDK_TIMER_CTRL) = 0u; /* one-shot, like the lab compare timer */
    CMSDK_TIMER0(CMSDK_TIMER_INTCLEAR) = 1u;
    board_alarm_isr();
}
