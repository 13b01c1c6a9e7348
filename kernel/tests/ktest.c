/* The kernel test harness (see ktest.h). */
#include "ktest.h"

static unsigned kt_passed, kt_failed;
volatile int kt_case_failed;
static const char *kt_name;

void kt_puts(const char *s)
{
    board_puts(s);
}

void kt_putu(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    board_puts(&buf[i]);
}

void kt_puti(int32_t v)
{
    if (v < 0) {
        board_putc('-');
        kt_putu((uint32_t)-v);
    } else {
        kt_putu((uint32_t)v);
    }
}

void kt_case_begin(const char *name)
{
    kt_name = name;
    kt_case_failed = 0;
}

void kt_case_end(void)
{
    if (kt_case_failed) {
        kt_failed++;
        kt_puts("FAIL ");
    } else {
        kt_passed++;
        kt_puts("ok   ");
    }
    kt_puts(kt_name);
    kt_puts("\n");
}

void kt_fail(const char *file, int line, const char *expr, int32_t a, int32_t b)
{
    kt_case_failed = 1;
    kt_puts("  check failed: ");
    kt_puts(file);
    kt_puts(":");
    kt_putu((uint32_t)line);
    kt_puts(": ");
    kt_puts(expr);
    if (a != b) {
        kt_puts(" (");
        kt_puti(a);
        kt_puts(" vs ");
        kt_puti(b);
        kt_puts(")");
    }
    kt_puts("\n");
}

void kt_finish(void)
{
    kt_putu(kt_passed);
    kt_puts(" passed, ");
    kt_putu(kt_failed);
    kt_puts(" failed\n");
    board_exit(kt_failed ? 1 : 0);
}
