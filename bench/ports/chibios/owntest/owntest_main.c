/*
 * Harness for ChibiOS's own test suites (test/rt, test/oslib, run by os/test/src/ch_test.c),
 * built unchanged from the pinned archive: start RT the way the port does (threads on PSP,
 * the board's compare timer as the tick-less alarm), run the suite with its output on the
 * board console, exit 0 only if the suite reports no failure.
 */
#include "ch.h"
#include "hal.h"
#include "ch_test.h"
#if defined(OWNTEST_OSLIB)
#include "oslib_test_root.h"
#define SUITE oslib_test_suite
#else
#include "rt_test_root.h"
#define SUITE rt_test_suite
#endif

static size_t s_write(void *ip, const uint8_t *bp, size_t n)
{
    (void)ip;
    board_write((const char *)bp, n);
    return n;
}
static size_t s_read(void *ip, uint8_t *bp, size_t n)
{
    (void)ip;
    (void)bp;
    (void)n;
    return 0;
}
static msg_t s_put(void *ip, uint8_t b)
{
    (void)ip;
    board_putc((char)b);
    return MSG_OK;
}
static msg_t s_get(void *ip)
{
    (void)ip;
    return MSG_RESET;
}
static const struct BaseSequentialStreamVMT console_vmt = {0, s_write, s_read, s_put, s_get};
static BaseSequentialStream console = {&console_vmt};

/* The alarm interrupt: see bench/ports/chibios/port.c (same code, same NVIC priority). */
void board_alarm_isr(void)
{
    CH_IRQ_PROLOGUE();
    chSysLockFromISR();
    chSysTimerHandlerI();
    chSysUnlockFromISR();
    CH_IRQ_EPILOGUE();
}

static void __attribute__((noreturn, used)) boot(void)
{
    chSysInit(); /* this flow becomes RT's main thread */
    board_irq_enable(BOARD_ALARM_IRQ, 2);
    bool failed = test_execute(&console, &SUITE) != 0;
    board_puts(failed ? "\nowntest: FAILURE\n" : "\nowntest: all tests passed\n");
    board_exit(failed ? 1 : 0);
}

/* Threads on PSP (the main-thread stack below), interrupts on MSP: as in port.c. */
static uint64_t main_stack[512 / 8];
static void __attribute__((naked, noreturn)) start_on_psp(uint32_t psp_top __attribute__((unused)))
{
    __asm volatile(
        "cpsid i\n"
        "msr psp, r0\n"
        "movs r1, #2\n"
        "msr control, r1\n"
        "isb\n"
        "ldr r1, =__stack_top\n"
        "msr msp, r1\n"
        "b boot\n"
        ".ltorg\n");
}

int main(void)
{
    start_on_psp((uint32_t)(uintptr_t)&main_stack[512 / 8]);
}
