/*
 * A very small test harness for the kernel's own tests: cases, checks, a final
 * "N passed, M failed" line and the exit status (0 only if every case passed).
 */
#ifndef KTEST_H
#define KTEST_H

#include <stdint.h>

#include "board.h"
#include "rtoslab/kernel.h"

void kt_puts(const char *s);
void kt_putu(uint32_t v);
void kt_puti(int32_t v);
void kt_case_begin(const char *name);
void kt_case_end(void);
void kt_fail(const char *file, int line, const char *expr, int32_t a, int32_t b);
void kt_finish(void) __attribute__((noreturn));
extern volatile int kt_case_failed;

#define KT_CHECK(cond)                                       \
    do {                                                     \
        if (!(cond))                                         \
            kt_fail(__FILE__, __LINE__, #cond, 0, 0);        \
    } while (0)

/* Check a == b, printing both values when it fails. */
#define KT_EQ(a, b)                                                                 \
    do {                                                                            \
        int32_t kt_a_ = (int32_t)(a), kt_b_ = (int32_t)(b);                         \
        if (kt_a_ != kt_b_)                                                         \
            kt_fail(__FILE__, __LINE__, #a " == " #b, kt_a_, kt_b_);                \
    } while (0)

#define KT_RUN(fn)          \
    do {                    \
        kt_case_begin(#fn); \
        fn();               \
        kt_case_end();      \
    } while (0)

/* Time helpers in kernel units. */
#define KT_US(us) K_USEC(us)

#endif
