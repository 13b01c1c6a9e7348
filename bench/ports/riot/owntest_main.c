/*
 * The harness of RIOT's own tests (tests/bench/<name>/main.c, compiled unchanged with its
 * main renamed riot_test_main): what RIOT's kernel_init() and auto_init would do for such an
 * application on this board, then the test's main in RIOT's "main" thread
 * (THREAD_PRIORITY_MAIN, THREAD_STACKSIZE_MAIN); when it returns, the run ends with its
 * status (board_exit). stdout (printf/puts of newlib-nano) goes to the board's console.
 * ZTIMER_USEC (RIOT's microsecond clock, behind xtimer's compatibility layer) is what RIOT's
 * ztimer auto_init builds on a timer that is not 1 MHz: ztimer_convert_frac over the
 * periph_timer clock (the board's cycle counter). Written for this port.
 */
#include <stdint.h>
#include <sys/stat.h>

#include "board.h"
#include "cpu.h"
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

static void *main_trampoline(void *arg)
{
    (void)arg;
    int r = riot_test_main();
    board_puts(r == 0 ? "[owntest] main() returned 0\n" : "[owntest] main() returned non-zero\n");
    board_exit(r);
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
    return n;
}
int _read(int fd, char *p, int n) { (void)fd; (void)p; (void)n; return 0; }
int _close(int fd) { (void)fd; return -1; }
int _fstat(int fd, struct stat *st) { (void)fd; st->st_mode = S_IFCHR; return 0; }
int _isatty(int fd) { (void)fd; return 1; }
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
