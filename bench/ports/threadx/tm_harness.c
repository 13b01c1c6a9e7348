/*
 * Harness of the Thread-Metric images (owntest-threadx-tm-*): starts ThreadX, whose
 * tx_application_define enters the test's tm_main() (as ThreadX's own
 * threadx_example/threadx_tm_*_example.c do), and gives the tests what they need from the
 * platform:
 *   - printf, to the board console; the test's report decides the exit status: a line
 *     "ERROR..." fails the run (status 1); the first "Time Period Total:  N" ends it, with
 *     status 0 if N > 0 and no error was printed, else 2;
 *   - for the two interrupt tests, the trap TM_CAUSE_INTERRUPT ("SVC #0", tm_porting_layer.h)
 *     lands in SVC_Handler, which calls the test's handler (TM_ISR, set per image), the way
 *     tm_porting_layer.h describes the SVC ISR (a plain C handler: ThreadX on Cortex-M0 needs
 *     no context save/restore around it).
 */
#include <stdarg.h>
#include <stdio.h>

#include "board.h"
#include "tx_api.h"

void tm_main(void);

int main(void)
{
    tx_kernel_enter();
    return 3;
}

VOID tx_application_define(VOID *first_unused_memory)
{
    (void)first_unused_memory;
    tm_main();
}

#ifdef TM_ISR
void TM_ISR(void);
void SVC_Handler(void)
{
    TM_ISR();
}
#endif

static char line[160];
static unsigned len;
static int errors;

static void put(char c)
{
    if (len < sizeof line - 1)
        line[len++] = c;
}
static void put_u(unsigned long v)
{
    char d[12];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        put(d[--n]);
}

static int starts(const char *s, const char *p)
{
    while (*p)
        if (*s++ != *p++)
            return 0;
    return 1;
}

/* End of a line: print it, then judge it. */
static void line_end(void)
{
    line[len] = 0;
    board_puts(line);
    board_putc('\n');
    if (starts(line, "ERROR"))
        errors++;
    if (starts(line, "Time Period Total:")) {
        unsigned long v = 0;
        for (const char *p = line + 18; *p; p++)
            if (*p >= '0' && *p <= '9')
                v = v * 10u + (unsigned long)(*p - '0');
        board_puts(errors ? "thread-metric: FAIL (error reported)\n"
                          : v ? "thread-metric: PASS (first period, no error)\n"
                              : "thread-metric: FAIL (nothing counted)\n");
        board_exit(errors ? 1 : v ? 0 : 2);
    }
    len = 0;
}

/* The subset of printf the tests use: %lu, %d, %s, %%. */
int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    for (const char *f = fmt; *f; f++) {
        if (*f == '\n') {
            line_end();
            continue;
        }
        if (*f != '%') {
            put(*f);
            continue;
        }
        f++;
        if (*f == 'l')
            f++;
        switch (*f) {
        case 'u':
            put_u(va_arg(ap, unsigned long));
            break;
        case 'd': {
            long v = va_arg(ap, int);
            if (v < 0) {
                put('-');
                v = -v;
            }
            put_u((unsigned long)v);
            break;
        }
        case 's':
            for (const char *s = va_arg(ap, const char *); *s; s++)
                put(*s);
            break;
        case '%':
            put('%');
            break;
        default:
            if (!*f)
                f--;
            break;
        }
    }
    va_end(ap);
    return 0;
}

/* GCC turns printf("text\n") into puts("text") and printf("c") into putchar('c'). */
int puts(const char *s)
{
    while (*s)
        put(*s++);
    line_end();
    return 0;
}

int putchar(int c)
{
    if (c == '\n')
        line_end();
    else
        put((char)c);
    return c;
}
