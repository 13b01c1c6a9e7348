/*
 * Board layer for QEMU's microbit machine: console and exit through semihosting (QEMU runs
 * with -semihosting), the cycle counter and alarm on the nRF51 TIMER0 (32-bit, 16 MHz).
 */
#include "armv6m_nvic.h"
#include "board.h"
#include "semihosting.h"

#define TIMER_START NRF_TIMER0(0x000u)
#define TIMER_CLEAR NRF_TIMER0(0x00Cu)
#define TIMER_EVENTS_COMPARE0 NRF_TIMER0(0x140u)
#define TIMER_INTENSET NRF_TIMER0(0x304u)
#define TIMER_INTENCLR NRF_TIMER0(0x308u)
#define TIMER_MODE NRF_TIMER0(0x504u)
#define TIMER_BITMODE NRF_TIMER0(0x508u)
#define TIMER_PRESCALER NRF_TIMER0(0x510u)
#define TIMER_CC0 NRF_TIMER0(0x540u)
#define TIMER_INT_COMPARE0 (1u << 16)

/* Semihosting writes a whole string per trap: buffer a line so output stays fast. */
static char line_buf[128];
static unsigned line_len;

static void flush_line(void)
{
    line_buf[line_len] = '\0';
    semihosting_call(SH_SYS_WRITE0, line_buf);
    line_len = 0;
}

void board_init(void)
{
    TIMER_MODE = 0u;    /* timer */
    TIMER_BITMODE = 3u; /* 32 bit */
    TIMER_PRESCALER = 0u;
    TIMER_CLEAR = 1u;
    TIMER_START = 1u;
}

void board_putc(char c)
{
    line_buf[line_len++] = c;
    if (c == '\n' || line_len == sizeof line_buf - 1)
        flush_line();
}


void board_exit(int status)
{
    if (line_len)
        flush_line();
    uint32_t block[2] = {SH_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    semihosting_call(SH_SYS_EXIT_EXTENDED, block);
    for (;;) /* an emulator without the extended call: plain exit */
        semihosting_call(SH_SYS_EXIT, (const void *)(status ? 0x20024u : SH_ADP_STOPPED_APPLICATION_EXIT));
}

uint64_t board_cycles64(void)
{
    return board_cycles(); /* 32 bits at 16 MHz: enough for the runs made on QEMU */
}

void board_alarm_set(uint32_t at_cycle)
{
    TIMER_CC0 = at_cycle;
    TIMER_EVENTS_COMPARE0 = 0u;
    TIMER_INTENSET = TIMER_INT_COMPARE0;
    if ((int32_t)(board_cycles() - at_cycle) >= 0)
        NVIC_ISPR = 1u << BOARD_ALARM_IRQ; /* already due: fire at once, as on the lab board */
}

void board_alarm_cancel(void)
{
    TIMER_INTENCLR = TIMER_INT_COMPARE0;
    TIMER_EVENTS_COMPARE0 = 0u;
    NVIC_ICPR = 1u << BOARD_ALARM_IRQ;
}

__attribute__((weak)) void board_alarm_isr(void)
{
}

void IRQ8_Handler(void)
{
    TIMER_INTENCLR = TIMER_INT_COMPARE0; /* one-shot, like the lab compare timer */
    TIMER_EVENTS_COMPARE0 = 0u;
    board_alarm_isr();
}
