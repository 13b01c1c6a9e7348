/*
 * Board layer for QEMU's raspi2b machine (BCM2836, Cortex-A7): console on the PL011 UART0
 * (QEMU's serial 0: stdio), exit through semihosting (HLT #0xF000, A32; QEMU runs with
 * -semihosting-config enable=on,target=native,userspace=on, since the RTOS's threads may run
 * in user mode), the cycle counter is the PMU's PMCCNTR (board_config.h), the software
 * interrupts are the BCM2835 system timer's compare channels on the BCM2835 interrupt
 * controller (GPU IRQs 0..3). The IRQ exception itself belongs to the RTOS (an ARMv7-A
 * kernel owns its vector table): it calls the suite's entries IRQn_Handler
 * (bench/suite/vectors_armv7a.c) the way it calls application handlers.
 */
#include "board.h"

#define UART0_DR (*(volatile uint32_t *)0x3F201000u)
#define UART0_FR (*(volatile uint32_t *)0x3F201018u)
#define UART_FR_TXFF (1u << 5)

#define SH_SYS_EXIT 0x18u
#define SH_SYS_EXIT_EXTENDED 0x20u
#define SH_ADP_STOPPED_APPLICATION_EXIT 0x20026u

static inline uint32_t semihosting_call(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile(".inst 0xe10f0070" /* HLT #0xF000: A32 semihosting */
                   : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static int privileged(void)
{
    uint32_t cpsr;
    __asm volatile("mrs %0, cpsr" : "=r"(cpsr));
    return (cpsr & 0x1Fu) != 0x10u;
}

void board_init(void)
{
    if (privileged()) { /* an RTOS that did not: cycle counter on, readable by threads */
        __asm volatile("mcr p15, 0, %0, c9, c14, 0" ::"r"(1u));          /* PMUSERENR.EN */
        __asm volatile("mcr p15, 0, %0, c9, c12, 0" ::"r"(1u));          /* PMCR.E */
        __asm volatile("mcr p15, 0, %0, c9, c12, 1" ::"r"(0x80000000u)); /* PMCNTENSET.C */
    }
}

void board_putc(char c)
{
    while (UART0_FR & UART_FR_TXFF) {
    }
    UART0_DR = (uint8_t)c;
}

void board_exit(int status)
{
    uint32_t block[2] = {SH_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    semihosting_call(SH_SYS_EXIT_EXTENDED, block);
    for (;;) /* an emulator without the extended call: plain exit */
        semihosting_call(SH_SYS_EXIT, (const void *)(status ? 0x20024u : SH_ADP_STOPPED_APPLICATION_EXIT));
}

uint64_t board_cycles64(void)
{
    return board_cycles(); /* 32 bits at 1 GHz: 4.29 s, enough for the runs made on QEMU */
}

void board_alarm_set(uint32_t at_cycle) { (void)at_cycle; }
void board_alarm_cancel(void) {}
__attribute__((weak)) void board_alarm_isr(void) {}

/* Pend suite line `irq` now: its compare channel is written with the counter's current
 * value. QEMU's system timer (hw/timer/bcm2835_systmr.c) schedules a match (value - count)
 * us after the write, 0 here, so the line pends at the write and the interrupt path is all
 * a latency measures (a real BCM2835 would match only when the counter next equals it, 71
 * minutes later: this trigger is QEMU's board's). If the counter ticked between the read
 * and the write, the value is in the past and the match 71 minutes away: the line is masked
 * at the controller while the match flag (CS) is not set, and the compare is written again
 * until it is; then the line's enable is put back and the pending match interrupts. The
 * RTOS's IRQ code clears the match (CS) when it takes it. */
void board_irq_trigger(unsigned irq)
{
    unsigned c = board_irq_compare(irq);
    uint32_t bit = 1u << c;
    uint32_t enabled = BCM_IRQ_ENABLE1 & bit;
    BCM_IRQ_DISABLE1 = bit;
    do
        BCM_SYSTMR_C(c) = BCM_SYSTMR_CLO;
    while (!(BCM_SYSTMR_CS & bit));
    if (enabled)
        BCM_IRQ_ENABLE1 = bit;
}

void board_irq_enable(unsigned irq, unsigned priority)
{
    (void)priority; /* the BCM2835 controller has no priorities */
    BCM_IRQ_ENABLE1 = 1u << board_irq_compare(irq);
}

void board_irq_disable(unsigned irq)
{
    BCM_IRQ_DISABLE1 = 1u << board_irq_compare(irq);
}

/* check.xpsr_preserved's probe (board_config.h): flags, one store that pends line 28, wait,
 * flags back. The compare value is computed before the flags are set (ADD leaves them). */
__asm__(".text\n.arm\n.syntax unified\n.align 2\n"
        ".global board_xpsr_probe\n.type board_xpsr_probe, %function\n"
        "board_xpsr_probe:\n"
        "  movw r1, #0x3000\n"
        "  movt r1, #0x3F00\n"
        "  ldr r2, [r1, #4]\n" /* CLO */
        "  add r2, r2, #2\n"
        "  msr APSR_nzcvq, r0\n"
        "  str r2, [r1, #0x18]\n" /* C3: line 28 pends 2 us from now */
        "  .rept 4000\n  nop\n  .endr\n"
        "  mrs r0, apsr\n"
        "  bx lr\n"
        ".size board_xpsr_probe, .-board_xpsr_probe\n");
