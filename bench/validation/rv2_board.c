/*
 * Arm's CMSIS-RTOS2 validation suite on the suite's boards: what its configuration file
 * (Source/Config/RV2_Config.c in the suite) gives a device, done with the board layer
 * (bench/include/board.h): the report on the board's console, the two test interrupts on
 * free NVIC lines, the end of the run. The same for every RTOS validated.
 */
#include <stdint.h>

#include "armv6m_nvic.h"
#include "board.h"
#include "cmsis_rv2.h"

/* Lines the lab boards leave free (0: the alarm, 1 and 2: the stimulus). The secondary
 * interrupt is the more urgent (Arm's configuration: priorities 5 and 4). */
#define IRQ_LINE_A 8u
#define IRQ_LINE_B 9u
#define IRQ_LEVEL_A 3u
#define IRQ_LEVEL_B 2u

void (*TST_IRQHandler_A)(void);
void (*TST_IRQHandler_B)(void);
int stdout_putchar(int ch);
void IRQ8_Handler(void);
void IRQ9_Handler(void);

void IRQ8_Handler(void)
{
    if (TST_IRQHandler_A)
        TST_IRQHandler_A();
}

void IRQ9_Handler(void)
{
    if (TST_IRQHandler_B)
        TST_IRQHandler_B();
}

int stdout_putchar(int ch)
{
    board_putc((char)ch);
    return ch;
}

static unsigned line_of(int32_t irq_num) { return irq_num == IRQ_A ? IRQ_LINE_A : IRQ_LINE_B; }

void TS_Init(void)
{
    board_irq_enable(IRQ_LINE_A, IRQ_LEVEL_A);
    board_irq_enable(IRQ_LINE_B, IRQ_LEVEL_B);
}

/* The report is complete: the run ends (the verdict is the report's, read by
 * `rtoslab validate`). */
void TS_Uninit(void) { board_exit(0); }

void EnableIRQ(int32_t irq_num) { NVIC_ISER = 1u << line_of(irq_num); }

void DisableIRQ(int32_t irq_num) { NVIC_ICER = 1u << line_of(irq_num); }

/* Pend the interrupt and wait until it has been taken (as Arm's SetPendingIRQ). */
void SetPendingIRQ(int32_t irq_num)
{
    unsigned line = line_of(irq_num);
    board_irq_trigger(line);
    __asm volatile("dsb\n\tisb" ::: "memory");
    while (NVIC_ISPR & (1u << line)) {
    }
}

int main(void)
{
    cmsis_rv2();
    board_exit(2); /* (cmsis_rv2 starts the kernel: it does not return) */
}
