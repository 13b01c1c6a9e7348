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
#elif defined(RTB_CHIBIOS_OWNTEST_BENCH)
/* owntest-chibios-rt-bench: test/rt's benchmark sequence (12) alone, on the benchmark's time
   base (chconf.h): its scores are what scripts/crosscheck sets beside the suite's figures. */
#include "rt_test_root.h"
static const testsequence_t *const bench_sequences[] = {&rt_test_sequence_012, NULL};
static const testsuite_t bench_suite = {"ChibiOS/RT Test Suite, benchmarks (sequence 12)", bench_sequences};
#define SUITE bench_suite
#else
/* owntest-chibios-rt: every sequence of test/rt's own list but the benchmarks (12), which
   owntest-chibios-rt-bench runs: at this 10 kHz rate their time check costs a 64-bit division
   on every loop, and their scores would count it as the OS's. */
#include "rt_test_root.h"
extern const testsequence_t *const rt_test_suite_array[]; /* rt_test_root.c: 12 and NULL */
static const testsequence_t *rt_sequences[12];
static testsuite_t rt_suite = {"ChibiOS/RT Test Suite (sequences but 12)", rt_sequences};
#define SUITE rt_suite
static void select_sequences(void)
{
    size_t n = 0;
    for (size_t i = 0; rt_test_suite_array[i] != NULL; i++)
        if (rt_test_suite_array[i] != &rt_test_sequence_012)
            rt_sequences[n++] = rt_test_suite_array[i];
    rt_sequences[n] = NULL;
}
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
#if !defined(OWNTEST_OSLIB) && !defined(RTB_CHIBIOS_OWNTEST_BENCH)
    select_sequences();
#endif
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
