/*
 * The harness of CoOS's own test suite (Test/suite1/src of the pinned archive, built
 * unchanged): the six modules flagTest.c, kHeapTest.c, mboxTest.c, mmTset.c, mutexTest.c
 * and queueTest.c. Written for this port in place of upstream's test.c (which prints through
 * a mailbox to a UART task and never records tokens): it provides what test.h declares
 * (the task tables, token recording, the assertions, with test.c's semantics), runs every
 * test case of the six patterns in one task at MAINTEST_PRIMARY_PRIORITY, prints one line per
 * case through board_puts and exits 0 only if every case passed.
 */
#include <stdarg.h>
#include <stdio.h>

#include "config.h"
#include "CoOS.h"
#include "board.h"
#include "test.h"

OS_STK Task_Stack[MAX_SLAVE_TEST_TASKS][SLAVE_TASK_STK_SIZE];
OS_TID Task_Id[CFG_MAX_USER_TASKS];
OS_TID mainTestTaskID;

static BOOL localFail, globalFail;
static char *failMsg;
static char tokensBuffer[MAX_TOKENS];
static char *tokp;

static void clearTokens(void)
{
    for (int i = 0; i < MAX_TOKENS; i++)
        tokensBuffer[i] = 0;
    tokp = tokensBuffer;
}

void testEmitToken(char token)
{
    if (tokp < &tokensBuffer[MAX_TOKENS])
        *tokp++ = token;
}

static BOOL timeIsWithin(U64 start, U64 end)
{
    U64 time = CoGetOSTime();
    return end > start ? (time >= start) && (time < end) : (time >= start) || (time < end);
}

BOOL _testFail(char *msg)
{
    localFail = TRUE;
    globalFail = TRUE;
    failMsg = msg;
    return FALSE;
}

BOOL _testAssert(BOOL condition, char *msg)
{
    if (!condition)
        return _testFail(msg);
    return TRUE;
}

BOOL _testAssertSequence(char *expected)
{
    char *cp = tokensBuffer;
    while (cp < tokp) {
        if (*cp++ != *expected++)
            return _testFail(NULL);
    }
    if (*expected)
        return _testFail(NULL);
    clearTokens();
    return TRUE;
}

BOOL _testAssertTimeWindow(U64 start, U64 end)
{
    return _testAssert(timeIsWithin(start, end), "time window error");
}

/* ---- the suite's printf (a few tests report details with it) on the board's console ---- */
static void out_u(unsigned v, unsigned base, int width)
{
    char b[12];
    int k = 0;
    do {
        b[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (width-- > k)
        board_puts(" ");
    char s[2] = {0, 0};
    while (k) {
        s[0] = b[--k];
        board_puts(s);
    }
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char s[2] = {0, 0};
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            s[0] = *p == '\r' ? '\n' : *p;
            if (*p != '\r' || p[1] != '\n')
                board_puts(s);
            continue;
        }
        int width = 0;
        while (p[1] >= '0' && p[1] <= '9')
            width = width * 10 + (*++p - '0');
        switch (*++p) {
        case 'd': {
            int v = va_arg(ap, int);
            if (v < 0) {
                board_puts("-");
                v = -v;
                width--;
            }
            out_u((unsigned)v, 10, width);
            break;
        }
        case 'u': out_u(va_arg(ap, unsigned), 10, width); break;
        case 'x': out_u(va_arg(ap, unsigned), 16, width); break;
        case 's': board_puts(va_arg(ap, const char *)); break;
        case 'c': s[0] = (char)va_arg(ap, int); board_puts(s); break;
        case '%': board_puts("%"); break;
        default: break;
        }
    }
    va_end(ap);
    return 0;
}
int puts(const char *str)
{
    board_puts(str);
    board_puts("\n");
    return 0;
}
int putchar(int c)
{
    char s[2] = {(char)c, 0};
    board_puts(s);
    return c;
}

/* ---- the run ---- */
extern const TestCase *const patternFlag[];
extern const TestCase *const patternKHeap[];
extern const TestCase *const patternMbox[];
extern const TestCase *const patternMm[];
extern const TestCase *const patternMutex[];
extern const TestCase *const patternQueue[];
#if defined(COOS_OWNTEST_ALL)
extern const TestCase *const patternTask[];
extern const TestCase *const patternTime[];
extern const TestCase *const patternTimer[];
extern const TestCase *const patternSem[];
#endif

static const struct {
    const char *name;
    const TestCase *const *cases;
} modules[] = {
    {"mbox", patternMbox},   {"queue", patternQueue}, {"flag", patternFlag},
    {"mutex", patternMutex}, {"mm", patternMm},       {"kheap", patternKHeap},
#if defined(COOS_OWNTEST_ALL)
    {"task", patternTask},   {"time", patternTime},   {"timer", patternTimer},
    {"sem", patternSem},
#endif
};

#define MAINTEST_STK_SIZE 200
static OS_STK mainTestTaskBuf[MAINTEST_STK_SIZE];

static void mainTestTask(void *pdata)
{
    (void)pdata;
    unsigned passed = 0, failed = 0;
    board_puts("CoOS Test/suite1 (flag, kHeap, mbox, mm, mutex, queue)\n");
    globalFail = FALSE;
    for (unsigned m = 0; m < sizeof modules / sizeof modules[0]; m++) {
        for (unsigned j = 0; modules[m].cases[j]; j++) {
            const TestCase *tcp = modules[m].cases[j];
            clearTokens();
            localFail = FALSE;
            failMsg = NULL;
            if (tcp->setup)
                tcp->setup();
            tcp->execute();
            if (tcp->teardown)
                tcp->teardown();
            board_puts("--- ");
            board_puts(modules[m].name);
            board_puts(".");
            out_u(j + 1, 10, 0);
            board_puts(" (");
            board_puts(tcp->getTest());
            if (localFail) {
                failed++;
                board_puts("): FAIL (");
                if (failMsg) {
                    board_puts(failMsg);
                } else {
                    board_puts("sequence error: ");
                    *tokp = 0;
                    board_puts(tokensBuffer);
                }
                board_puts(")\n");
            } else {
                passed++;
                board_puts("): SUCCESS\n");
            }
        }
    }
    board_puts("CoOS own tests: ");
    out_u(passed, 10, 0);
    board_puts(" passed, ");
    out_u(failed, 10, 0);
    board_puts(" failed\n");
    board_exit(failed ? 1 : 0);
}

int main(void)
{
    CoInitOS();
    mainTestTaskID = CoCreateTask(mainTestTask, NULL, MAINTEST_PRIMARY_PRIORITY,
                                  &mainTestTaskBuf[MAINTEST_STK_SIZE - 1], MAINTEST_STK_SIZE);
    CoStartOS();
    for (;;) {
    }
}
