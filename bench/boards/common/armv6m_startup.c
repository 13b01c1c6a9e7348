/*
 * Start-up for every ARMv6-M and ARMv7-M board: the vector table, the reset handler that sets up C,
 * and weak default handlers that a kernel, a port or a test overrides by defining the name.
 */
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];
int main(void);

/* A fault nobody handles: say where, then stop with a status the host recognises. Only the
 * handler's assembly calls it: `used` keeps it through link-time optimisation. */
__attribute__((weak, used)) void board_fault(uint32_t *frame)
{
    static const char hex[] = "0123456789abcdef";
    char line[] = "@fault pc=00000000\n";
    uint32_t pc = frame[6];
    for (int i = 0; i < 8; i++)
        line[10 + i] = hex[(pc >> (28 - 4 * i)) & 0xF];
    board_puts(line);
    board_exit(3);
}

__attribute__((naked)) void Default_HardFault_Handler(void)
{
    /* Pass the stacked frame (MSP or PSP, per EXC_RETURN bit 2) to board_fault. */
    __asm volatile(
        "movs r0, #4\n"
        "mov r1, lr\n"
        "tst r0, r1\n"
        "beq 1f\n"
        "mrs r0, psp\n"
        "b board_fault\n"
        "1: mrs r0, msp\n"
        "b board_fault\n");
}

void Default_Handler(void)
{
    board_puts("@fault unexpected-interrupt\n");
    board_exit(3);
}

void Reset_Handler(void)
{
#if defined(__ARM_FP)
    /* ARMv7-M with an FPU (the M4F): grant CP10/CP11 (CPACR) before any floating-point
     * instruction; lazy state preservation (FPCCR.ASPEN, LSPEN) is on from reset. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm volatile("dsb\n isb" ::: "memory");
#endif
    memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
    memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
    board_init();
    board_exit(main());
}

#define WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
WEAK_HANDLER(NMI_Handler);
void HardFault_Handler(void) __attribute__((weak, alias("Default_HardFault_Handler")));
WEAK_HANDLER(SVC_Handler);
WEAK_HANDLER(PendSV_Handler);
WEAK_HANDLER(SysTick_Handler);
WEAK_HANDLER(IRQ0_Handler);  WEAK_HANDLER(IRQ1_Handler);  WEAK_HANDLER(IRQ2_Handler);
WEAK_HANDLER(IRQ3_Handler);  WEAK_HANDLER(IRQ4_Handler);  WEAK_HANDLER(IRQ5_Handler);
WEAK_HANDLER(IRQ6_Handler);  WEAK_HANDLER(IRQ7_Handler);  WEAK_HANDLER(IRQ8_Handler);
WEAK_HANDLER(IRQ9_Handler);  WEAK_HANDLER(IRQ10_Handler); WEAK_HANDLER(IRQ11_Handler);
WEAK_HANDLER(IRQ12_Handler); WEAK_HANDLER(IRQ13_Handler); WEAK_HANDLER(IRQ14_Handler);
WEAK_HANDLER(IRQ15_Handler); WEAK_HANDLER(IRQ16_Handler); WEAK_HANDLER(IRQ17_Handler);
WEAK_HANDLER(IRQ18_Handler); WEAK_HANDLER(IRQ19_Handler); WEAK_HANDLER(IRQ20_Handler);
WEAK_HANDLER(IRQ21_Handler); WEAK_HANDLER(IRQ22_Handler); WEAK_HANDLER(IRQ23_Handler);
WEAK_HANDLER(IRQ24_Handler); WEAK_HANDLER(IRQ25_Handler); WEAK_HANDLER(IRQ26_Handler);
WEAK_HANDLER(IRQ27_Handler); WEAK_HANDLER(IRQ28_Handler); WEAK_HANDLER(IRQ29_Handler);
WEAK_HANDLER(IRQ30_Handler); WEAK_HANDLER(IRQ31_Handler);

typedef void (*vector_t)(void);

__attribute__((section(".vectors"), used)) const vector_t board_vectors[48] = {
    (vector_t)__stack_top, Reset_Handler, NMI_Handler, HardFault_Handler,
    0, 0, 0, 0, 0, 0, 0, SVC_Handler, 0, 0, PendSV_Handler, SysTick_Handler,
    IRQ0_Handler,  IRQ1_Handler,  IRQ2_Handler,  IRQ3_Handler,  IRQ4_Handler,  IRQ5_Handler,
    IRQ6_Handler,  IRQ7_Handler,  IRQ8_Handler,  IRQ9_Handler,  IRQ10_Handler, IRQ11_Handler,
    IRQ12_Handler, IRQ13_Handler, IRQ14_Handler, IRQ15_Handler, IRQ16_Handler, IRQ17_Handler,
    IRQ18_Handler, IRQ19_Handler, IRQ20_Handler, IRQ21_Handler, IRQ22_Handler, IRQ23_Handler,
    IRQ24_Handler, IRQ25_Handler, IRQ26_Handler, IRQ27_Handler, IRQ28_Handler, IRQ29_Handler,
    IRQ30_Handler, IRQ31_Handler,
};
