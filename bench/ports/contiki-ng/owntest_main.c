/*
 * owntest_main.c - the harness that runs one of Contiki-NG's own tests, unchanged, on the
 * suite's board (this port's code; the test sources come from build/peers/contiki-ng).
 *
 * Contiki-NG's device tests (tests/07-simulation-base/code-*) are a process named in
 * AUTOSTART_PROCESSES that runs unit tests (os/services/unit-test) and prints, through
 * printf, one "=check-me= SUCCEEDED - ..." or "=check-me= FAILED - ..." line per test and
 * "=check-me= DONE" at the end (tests/08-native-runs/14-sha-256 and 11-aes-ccm use the default
 * report, "Result: success" or "Result: failure" per test, and print "=check-me= FAILED" if
 * any failed); upstream's scripts (tests/08-native-runs/
 * 01-test-data-structures.sh, the Cooja .csc scripts) pass a run if DONE came and no FAILED
 * line did. This harness starts Contiki-NG as os/contiki-main.c does (platform.c), starts
 * the autostart processes, runs the scheduler loop until they have ended,
 * and exits with that verdict: 0 on success. printf/puts/putchar are a small formatter on
 * board_putc that also reads every line for the verdict.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "board.h"
#include "contiki.h"
#include "contiki_platform.h"

/* ---- the console, and the verdict read from it ---- */
static char line[160];
static unsigned line_n, n_pass, n_fail, n_done;

static void out_c(char c)
{
    board_putc(c);
    if (c == '\n') {
        line[line_n] = 0;
        if (strncmp(line, "=check-me= SUCCEEDED", 20) == 0)
            n_pass++;
        else if (strncmp(line, "=check-me= FAILED", 17) == 0)
            n_fail++;
        else if (strncmp(line, "=check-me= DONE", 15) == 0)
            n_done++;
        else if (strcmp(line, "Result: success") == 0) /* unit_test_print_report() */
            n_pass++;
        else if (strcmp(line, "Result: failure") == 0)
            n_fail++;
        line_n = 0;
    } else if (line_n < sizeof line - 1) {
        line[line_n++] = c;
    }
}

static void out_s(const char *s)
{
    while (*s)
        out_c(*s++);
}

static void out_u(uint64_t v, unsigned base, int width, char pad)
{
    char b[24];
    int i = 0;
    do {
        b[i++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (i < width)
        b[i++] = pad;
    while (i)
        out_c(b[--i]);
}

int vprintf(const char *f, va_list ap)
{
    for (; *f; f++) {
        if (*f != '%') {
            out_c(*f);
            continue;
        }
        f++;
        char pad = ' ';
        int width = 0, lng = 0;
        if (*f == '-')
            f++;
        if (*f == '0')
            pad = '0';
        while (*f >= '0' && *f <= '9')
            width = width * 10 + (*f++ - '0');
        while (*f == 'l' || *f == 'z' || *f == 'h') {
            if (*f == 'l')
                lng++;
            else if (*f == 'z')
                lng = sizeof(size_t) > 4 ? 2 : 0;
            f++;
        }
        switch (*f) {
        case 'd':
        case 'i': {
            int64_t v = lng >= 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);
            if (v < 0) {
                out_c('-');
                v = -v;
            }
            out_u((uint64_t)v, 10, width, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = lng >= 2 ? va_arg(ap, unsigned long long)
                         : lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            out_u(v, *f == 'u' ? 10 : 16, width, pad);
            break;
        }
        case 'p':
            out_s("0x");
            out_u((uintptr_t)va_arg(ap, void *), 16, 8, '0');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            out_s(s ? s : "(null)");
            break;
        }
        case 'c':
            out_c((char)va_arg(ap, int));
            break;
        case '%':
            out_c('%');
            break;
        case 0:
            return 0;
        default:
            out_c('%');
            out_c(*f);
        }
    }
    return 0;
}

int printf(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vprintf(f, ap);
    va_end(ap);
    return 0;
}

int puts(const char *s)
{
    out_s(s);
    out_c('\n');
    return 0;
}

int putchar(int c)
{
    out_c((char)c);
    return c;
}

/* ---- run ---- */
int main(void)
{
    out_s("# Contiki-NG 5.0 own test on " BOARD_NAME "\n");
    contiki_platform_init();
    autostart_start(autostart_processes);
    /* os/contiki-main.c's loop, until the test's processes have ended. */
    for (uint32_t turns = 0; turns < 1000000u; turns++) {
        while (process_run() > 0) {
        }
        bool running = false;
        for (unsigned i = 0; autostart_processes[i] != NULL; i++)
            if (process_is_running(autostart_processes[i]))
                running = true;
        if (!running)
            break;
        contiki_platform_idle();
    }
    out_s("# ");
    out_u(n_pass, 10, 0, ' ');
    out_s(" passed, ");
    out_u(n_fail, 10, 0, ' ');
    out_s(" failed");
    out_s(n_done ? "" : ", no DONE line");
    out_c('\n');
    board_exit((n_fail == 0 && n_done == 1 && n_pass > 0) ? 0 : 1);
}
