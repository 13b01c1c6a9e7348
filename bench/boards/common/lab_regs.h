/* Registers of the lab peripheral block (0x4F000000) of the simulated board: see docs/board.md. */
#ifndef LAB_REGS_H
#define LAB_REGS_H

#include <stdint.h>

#define LAB_REG(off) (*(volatile uint32_t *)(0x4F000000u + (off)))

#define LAB_EXIT        LAB_REG(0x0000)
#define LAB_CYCLE_LO    LAB_REG(0x0004)
#define LAB_CYCLE_HI    LAB_REG(0x0008)
#define LAB_CLOCK_HZ    LAB_REG(0x000C)
#define LAB_UART_TX     LAB_REG(0x1000)
#define LAB_PROBE_OUT   LAB_REG(0x2000)
#define LAB_PROBE_SET   LAB_REG(0x2004)
#define LAB_PROBE_CLR   LAB_REG(0x2008)
#define LAB_PROBE_MARK  LAB_REG(0x200C)
#define LAB_TIMER_NOW   LAB_REG(0x3000)
#define LAB_TIMER_CMP   LAB_REG(0x3004)
#define LAB_TIMER_CTRL  LAB_REG(0x3008)
#define LAB_TIMER_FIRED LAB_REG(0x300C)
#define LAB_STIM_AT     LAB_REG(0x4000)
#define LAB_STIM_PERIOD LAB_REG(0x4004)
#define LAB_STIM_WIDTH  LAB_REG(0x4008)
#define LAB_STIM_CTRL   LAB_REG(0x400C)
#define LAB_STIM_LAST   LAB_REG(0x4010)
#define LAB_STIM_COUNT  LAB_REG(0x4014)
#define LAB_STIM_LEVEL  LAB_REG(0x4018)
#define LAB_STIM_LAST_FALL LAB_REG(0x401C)

#define LAB_TIMER_IRQ    0u
#define LAB_STIM_IRQ     1u
#define LAB_STIM_FALL_IRQ 2u

#endif
