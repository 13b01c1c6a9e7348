/*
 * The harness of RIOT's own tests (tests/bench/<name>/main.c, compiled unchanged with its
 * main renamed riot_test_main): what RIOT's kernel_init() and auto_init would do for such an
 * application on this board, then the test's main in RIOT's "main" thread
 * (THREAD_PRIORITY_MAIN, THREAD_STACKSIZE_MAIN). Pass criterion: the one of the test's
 * upstream script (tests/bench/<name>/tests/01-run.py), the text OWNTEST_EXPECT (set per test
 * by CMakeLists.txt) printed on stdout, and main() returning; the run then ends with status 0,
 * otherwise 1. main's return value itself is ignored, as RIOT's main_trampoline ignores it
 * (some tests end without a return statement). A RIOT kernel panic (a failed expect()) ends
 * the run with status 1. stdout (printf/puts of newlib-nano) goes to the board's console.
 * ZTIMER_USEC (RIOT's microsecond clock, behind xtimer's compatibility layer) is what RIOT's
 * ztimer auto_init builds on a timer that is not 1 MHz: ztimer_convert_frac over the
 * periph_timer clock (the board's cycle counter). Written for this port.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "board.h"
#include "cpu.h"
#include "owntest_expect.h" /* OWNTEST_EXPECT, per test (CMakeLists.txt) */
#include "irq.h"
#include "thread.h"
#include "ztimer.h"
#include "ztimer/convert_frac.h"
#include "ztimer/periph_timer.h"

int riot_test_main(void);

static ztimer_periph_timer_t clock_cycles;
static ztimer_convert_frac_t clock_usec;
ztimer_clock_t *const ZTIMER_USEC = &clock_usec.super.super;

static char main_stack[THREAD_STACKSIZE_MAIN];

/* The expected text, matched on the fly as stdout goes out (a plain substring search that
 * restarts from the beginning on a mismatch: enough for the texts used here). */
static const char expect_text[] = OWNTEST_EXPECT;
static unsigned expect_pos;
static int expect_seen;

static void *main_trampoline(void *arg)
{
    (void)arg;
    (void)riot_test_main();
    fflush(stdout);
    if (expect_seen) {
        board_puts("[owntest] pass: main() returned after printing \"" OWNTEST_EXPECT "\"\n");
        board_exit(0);
    }
    board_puts("[owntest] FAIL: main() returned without printing \"" OWNTEST_EXPECT "\"\n");
    board_exit(1);
}

int main(void)
{
    irq_disable();
    cortexm_init();
    ztimer_periph_timer_init(&clock_cycles, TIMER_DEV(0), BOARD_CLOCK_HZ, UINT32_MAX);
    ztimer_convert_frac_init(&clock_usec, &clock_cycles.super, 1000000u, BOARD_CLOCK_HZ);
    thread_create(main_stack, sizeof main_stack, THREAD_PRIORITY_MAIN, THREAD_CREATE_WOUT_YIELD,
                  main_trampoline, NULL, "main");
    cpu_switch_context_exit();
}

/* newlib-nano's system calls: the console only. */
int _write(int fd, const char *p, int n)
{
    (void)fd;
    board_write(p, (size_t)n);
    for (int i = 0; i < n && !expect_seen; i++) {
        if (p[i] == expect_text[expect_pos])
            expect_pos++;
        else
            expect_pos = p[i] == expect_text[0] ? 1u : 0u;
        if (expect_text[expect_pos] == 0)
            expect_seen = 1;
    }
    return n;
}
int _read(int fd, char *p, int n) { (void)fd; (void)p; (void)n; return 0; }
int _close(int fd) { (void)fd; return -1; }
__attribute__((used)) int _fstat(int fd, struct stat *st) { (void)fd; st->st_mode = S_IFCHR; return 0; }
__attribute__((used)) int _isatty(int fd) { (void)fd; return 1; }
int _lseek(int fd, int off, int whence) { (void)fd; (void)off; (void)whence; return 0; }
void *_sbrk(int incr)
{
    static uint64_t heap[256];
    static unsigned used;
    if (used + (unsigned)incr > sizeof heap)
        return (void *)-1;
    void *p = (char *)heap + used;
    used += (unsigned)incr;
    return p;
}
