/*
 * Kernel internals: argument checks (K_CONFIG_CHECKS), assertions (K_CONFIG_ASSERT) and the
 * calling-context assertions. Not API. Compiles on its own (kernel/tests/headers).
 */
#ifndef RTOSLAB_KCHECK_H
#define RTOSLAB_KCHECK_H

#include "arch_if.h"
#include "rtoslab/board_if.h"
#include "rtoslab/config.h"

/* ---- Checks and assertions ----------------------------------------------------------------- */

/* Z_CHECK: a test whose failure is the call's error (K_EINVAL, K_EISR, K_ESTATE ...), built
 * only with K_CONFIG_CHECKS; the ports' assembly fast paths and inline paths build theirs
 * under the same condition (kernel/arch/<arch>/fast.S), so K_CONFIG_CHECKS=0 measures them. */

#if K_CONFIG_CHECKS
#define Z_CHECK(cond, err) \
    do {                   \
        if (!(cond))       \
            return (err);  \
    } while (0)
#else
#define Z_CHECK(cond, err) ((void)0)
#endif

#if K_CONFIG_ASSERT
void z_assert_fail(const char *file, int line) __attribute__((noreturn));
#define K_ASSERT(cond)                          \
    do {                                        \
        if (!(cond))                            \
            z_assert_fail(__FILE__, __LINE__);  \
    } while (0)
#else
#define K_ASSERT(cond) ((void)0)
#endif

/* Calling contexts (checked in the K_CONFIG_ASSERT build): a thread (not an interrupt
 * handler), inside the kernel's critical section (interrupts masked). */
#define K_ASSERT_THREAD() K_ASSERT(!arch_in_isr())
#if K_CONFIG_TICKLESS /* (the alarm's handler, priority 0, needs no mask: time.c) */
#define K_ASSERT_LOCKED() \
    K_ASSERT(arch_irq_locked() || arch_exception() == 16u + BOARD_ALARM_IRQ)
#else
#define K_ASSERT_LOCKED() K_ASSERT(arch_irq_locked())
#endif

#define Z_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
