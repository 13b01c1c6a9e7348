/*
 * The inline fast paths of the ARMv6-M port: definitions, at the call site, of calls that
 * kernel.h declares (included by kernel.h, at its end, from the port's public include
 * directory, kernel/arch/armv6m/include; not a header of its own). The assembly lives in
 * the port, not in the public API header; a port without this file (and C++, and the
 * kernel's own sources, Z_NO_INLINE_FAST) gets the out-of-line calls. What both Cortex-M
 * ports share is kernel/arch/cortexm/include/rtoslab/cortexm_inline.h, with the kernel's
 * mask on PRIMASK here; this port adds k_sem_signal and k_thread_prio_set.
 */
#ifndef RTOSLAB_ARCH_INLINE_H
#define RTOSLAB_ARCH_INLINE_H

#ifndef RTOSLAB_KERNEL_H
#error "include rtoslab/kernel.h"
#endif

/* Thumb-1 (the ARMv6-M instruction set) only */
#if defined(__thumb__) && !defined(__thumb2__) && !defined(__cplusplus) && \
    !defined(Z_NO_INLINE_FAST)
#define Z_ARCH_INLINE_ASM 1
#else
#define Z_ARCH_INLINE_ASM 0
#endif
#define Z_ASM_MASK "cpsid i\n\t"
#define Z_ASM_UNMASK "cpsie i\n"
/* to 3f if the caller has interrupts masked (PRIMASK; uses r3): issue 31 */
#define Z_ASM_MASKED "mrs r3, primask\n\tlsrs r3, r3, #1\n\tbcs 3f\n\t"
#define Z_ASM_MASKED_CALL(fn) "3:\tbl " fn "\n\tb 2f\n"
/* to 3f unless r0 is a semaphore and the caller has interrupts unmasked (uses r2, r3;
 * fast_macros.inc, TYPED_UNMASKED): the type test is a check, so K_CONFIG_CHECKS=0 tests
 * the mask only, as the C's Z_CHECK */
#if K_CONFIG_CHECKS
#define Z_ASM_SEM_UNMASKED                                                                     \
    "ldrb r3, [r0, %[type]]\n\t" /* NULL reads the vector table: not a type */                 \
    "mrs r2, primask\n\t"        /* a masked caller: C keeps the mask */                       \
    "subs r3, r3, %[sem]\n\t"                                                                  \
    "orrs r3, r2\n\t"                                                                          \
    "bne 3f\n\t"
#else
#define Z_ASM_SEM_UNMASKED "mrs r2, primask\n\tlsrs r2, r2, #1\n\tbcs 3f\n\t"
#endif
/* to 3f unless r0 is a semaphore (uses r3), for a caller in any context (k_sem_signal_irq);
 * nothing when K_CONFIG_CHECKS=0 */
#if K_CONFIG_CHECKS
#define Z_ASM_SEM_TYPED                                                                        \
    "ldrb r3, [r0, %[type]]\n\t" /* NULL reads the vector table: not a type */                 \
    "subs r3, r3, %[sem]\n\t"                                                                  \
    "bne 3f\n\t"
#else
#define Z_ASM_SEM_TYPED ""
#endif

/* Under -O2 (the speed profile) this port inlines k_sem_wait's available unit and
 * k_sem_signal's count without a waiter at the call site (below); cortexm_inline.h's light
 * call then stays out. */
#if !defined(__OPTIMIZE_SIZE__)
#define Z_ARCH_INLINE_SEM_WAIT 1
#define Z_ARCH_INLINE_SEM_SIGNAL 1
#else
#define Z_ARCH_INLINE_SEM_WAIT 0 /* (the port's light call, below) */
#endif
/* The mutex's slow paths (fast_mutex.S) return their result in r0, m not kept
 * (cortexm_inline.h): C is a tail call and a switch's frame returns to the inline code's
 * resume, not through a stub that restores m */
#define Z_ARCH_MUTEX_SLOW_R0 1
/* `asm inline`: for GCC's inlining decisions the inline fast paths count as one instruction,
 * as the light call they replace did (counted by their lines, they kept callers such as the
 * CMSIS-RTOS2 layer's osSemaphoreAcquire out of line: 16 bytes more of each test thread's
 * stack in the suite's rtoslab-cmsis run under speed) */
#define Z_ASM_INLINE __asm__ __volatile__ __inline__

#include "../../../cortexm/include/rtoslab/cortexm_inline.h"

#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && Z_ARCH_INLINE_ASM
#ifndef Z_ARCH_INLINE_SEM_SIGNAL
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    __asm volatile("bl z_sem_signal_l" : "+l"(a0) : : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#else
/* The signal's steps under the mask, inline: a waiter to 4f; else the count word (count in
 * bits 0-15, type, z_limit in bits 24-31) plus one in r2. r0 = s; r1 = 0 past the test. */
#define Z_SEM_SIGNAL_COUNT_ASM                                                                 \
    "cpsid i\n\t"                                                                              \
    "ldr r1, [r0, %[waitq]]\n\t"                                                               \
    "cmp r1, #0\n\t"                                                                           \
    "bne 4f\n\t"                                                                               \
    "ldr r2, [r0, %[count]]\n\t"                                                               \
    "adds r2, r2, #1\n\t"
/* The signal without a waiter, at the call site: fast_sem.S's steps (the type and the
 * caller's PRIMASK, the wait queue under the mask, the count to its limit) without the call
 * and return. A waiter: the routine past those steps (z_sem_signal_lw, the switching path);
 * anything else: its way to C (z_sem_signal_lx). Thumb-1's conditional branches reach 256
 * bytes, so those calls are stubs behind the fast path's branch to the end, not a cold
 * section; the waiter's is last, its BL's return address the end of the inline code. */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    Z_ASM_INLINE(".syntax unified\n\t"
                   Z_ASM_SEM_UNMASKED
                   Z_SEM_SIGNAL_COUNT_ASM
                   "lsrs r3, r2, #24\n\t"       /* z_limit: 0 means 65535 */
                   "beq 6f\n\t"
                   "uxth r1, r2\n\t"
                   "cmp r1, r3\n\t"
                   "bhi 5f\n"                    /* at the limit: C returns K_EOVERFLOW */
                   "7:\tstr r2, [r0, %[count]]\n\t"
                   "cpsie i\n\t"
                   "movs r0, #0\n\t"
                   "b 2f\n"
                   "6:\tlsls r1, r2, #16\n\t"   /* the count wrapped (into the type byte): C */
                   "bne 7b\n"
                   "5:\tcpsie i\n"
                   "3:\tbl z_sem_signal_lx\n\t"
                   "b 2f\n"
                   "4:\tbl z_sem_signal_lw\n"
                   "2:"
                   : "+l"(a0)
                   : [type] "i"(offsetof(struct k_sem, z_type)),
                     [count] "i"(offsetof(struct k_sem, z_count)),
                     [waitq] "i"(offsetof(struct k_sem, z_waitq)), [sem] "i"(Z_OBJ_SEM)
                   : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#endif

#if defined(Z_ARCH_INLINE_SEM_SIGNAL) && !K_CONFIG_ASSERT
/* k_sem_signal_irq without a waiter, at the call site (the handler of an interrupt that
 * posts an event): fast_sem.S's steps (the type, the wait queue under the mask, the count
 * to its limit) without the call and return. LR is not clobbered, so that a handler whose
 * only call this is needs no frame (Thumb-1 GCC never tail-calls: the out-of-line call
 * cost the handler a PUSH and POP of LR, 9 cycles). The count without a limit (z_limit 0:
 * up to 65535, an event counter's) falls through: the word's top half is then the type
 * alone; a limit of 1..255 is one branch away.
 * The result is r1, zero on this path once the wait queue is found empty. A waiter: the
 * routine past those steps (z_sem_signal_irq_w), LR kept in r12, which it leaves alone;
 * anything else: the whole routine, which may go to C, LR kept on the stack with r3 (8
 * bytes, the stack stays aligned for the C). */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal_irq(struct k_sem *s)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    register int r __asm__("r1");
    Z_ASM_INLINE(".syntax unified\n\t"
                   Z_ASM_SEM_TYPED
                   Z_SEM_SIGNAL_COUNT_ASM
                   "lsrs r3, r2, #16\n\t"       /* z_limit 0 and the type unchanged: */
                   "cmp r3, %[sem]\n\t"         /* no limit and 65535 not passed */
                   "bne 6f\n"
                   "7:\tstr r2, [r0, %[count]]\n\t"
                   "cpsie i\n\t"
                   "b 2f\n"
                   "6:\tlsrs r3, r2, #24\n\t"  /* z_limit */
                   "beq 5f\n\t"                 /* none: 65535 wrapped (into the type byte) */
                   "uxth r1, r2\n\t"
                   "cmp r1, r3\n\t"
                   "bhi 5f\n\t"                  /* at the limit: C returns K_EOVERFLOW */
                   "movs r1, #0\n\t"
                   "b 7b\n"
                   "5:\tcpsie i\n"
                   "3:\tpush {r3, lr}\n\t"
                   "bl k_sem_signal_irq\n\t"
                   "pop {r2, r3}\n\t"
                   "mov lr, r3\n\t"
                   "movs r1, r0\n\t"
                   "b 2f\n"
                   "4:\tmov r12, lr\n\t"
                   "bl z_sem_signal_irq_w\n\t"
                   "mov lr, r12\n\t"
                   "movs r1, r0\n"
                   "2:"
                   : "+l"(a0), "=l"(r)
                   : [type] "i"(offsetof(struct k_sem, z_type)),
                     [count] "i"(offsetof(struct k_sem, z_count)),
                     [waitq] "i"(offsetof(struct k_sem, z_waitq)), [sem] "i"(Z_OBJ_SEM)
                   : "r2", "r3", "r12", "cc", "memory");
    return r;
}
#endif

/* k_sem_wait's clobbers: what the AAPCS lets a call change, and r8-r11 (Thumb-1 saves them
 * dearly: the compiler keeps little there). The routine's available path touches none of
 * r4-r7, its blocking path saves r4-r6 (z_sem_wait_lbs, fast_sem.S), its C path is AAPCS
 * code: the caller keeps what it holds in r4-r7 across the wait. */
#define Z_SEM_WAIT_CLOBBERS "r2", "r3", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"
#if !Z_ARCH_INLINE_SEM_WAIT
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    if (__builtin_constant_p(timeout) && timeout == K_FOREVER) {
        /* z_sem_wait_lf: the routine for K_FOREVER, which it sets in r1 on its ways to C only
         * (the caller's r1 is free) and whose blocking path needs no test of it */
        __asm volatile("bl z_sem_wait_lf" : "+l"(a0) : : "r1", Z_SEM_WAIT_CLOBBERS);
    } else {
        register k_timeout_t a1 __asm__("r1") = timeout;
        __asm volatile("bl z_sem_wait_l" : "+l"(a0), "+l"(a1) : : Z_SEM_WAIT_CLOBBERS);
    }
    return (int)a0;
}
#else
/* The wait that takes an available unit, at the call site: fast_sem.S's first steps (the
 * type and the caller's PRIMASK, the count under the mask) without the call and return. No
 * unit: the routine past those steps (z_sem_wait_lb: every check of its blocking path, in
 * its order; the switching path, last, its BL's return address the end of the inline code);
 * not a semaphore or a masked caller: its way to C (z_sem_wait_lx). A constant K_FOREVER or
 * K_NO_WAIT is set in r1 by those calls only (TO: the instructions), not on the fast path;
 * BLOCK: the call of the blocking path (z_sem_wait_lbs; for a constant K_FOREVER the save of
 * r4-r6 here, around z_sem_wait_lb0, which neither tests r1 nor needs it set: the BL's return
 * address, where the thread resumes, is the restore, without the routine's return; r3 rides
 * along to keep the stack 8-byte aligned for the C the routine may go to). */
#define Z_SEM_WAIT_ASM(TO, BLOCK)                                                              \
    ".syntax unified\n\t"                                                                     \
    Z_ASM_SEM_UNMASKED                                                                        \
    "cpsid i\n\t"                                                                             \
    "ldrh r2, [r0, %[count]]\n\t"                                                             \
    "subs r2, r2, #1\n\t" /* borrow (carry clear): no unit */                                 \
    "bcc 4f\n\t"                                                                              \
    "strh r2, [r0, %[count]]\n\t"                                                             \
    "cpsie i\n\t"                                                                             \
    "movs r0, #0\n\t"                                                                         \
    "b 2f\n"                                                                                   \
    "3:\t" TO "bl z_sem_wait_lx\n\t"                                                          \
    "b 2f\n"                                                                                   \
    "4:\t" BLOCK "\n"                                                                          \
    "2:"
#define Z_SEM_WAIT_OPS                                                                         \
    [type] "i"(offsetof(struct k_sem, z_type)), [count] "i"(offsetof(struct k_sem, z_count)),  \
        [sem] "i"(Z_OBJ_SEM)
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    if (__builtin_constant_p(timeout) && timeout == K_FOREVER) {
        Z_ASM_INLINE(Z_SEM_WAIT_ASM("movs r1, #0\n\tmvns r1, r1\n\t",
                                    "push {r3-r6}\n\tbl z_sem_wait_lb0\n\tpop {r3-r6}")
                       : "+l"(a0) : Z_SEM_WAIT_OPS : "r1", Z_SEM_WAIT_CLOBBERS);
    } else if (__builtin_constant_p(timeout) && timeout == K_NO_WAIT) {
        Z_ASM_INLINE(Z_SEM_WAIT_ASM("movs r1, #0\n\t", "movs r1, #0\n\tbl z_sem_wait_lbs")
                       : "+l"(a0) : Z_SEM_WAIT_OPS : "r1", Z_SEM_WAIT_CLOBBERS);
    } else {
        register k_timeout_t a1 __asm__("r1") = timeout;
        Z_ASM_INLINE(Z_SEM_WAIT_ASM("", "bl z_sem_wait_lbs")
                       : "+l"(a0), "+l"(a1) : Z_SEM_WAIT_OPS : Z_SEM_WAIT_CLOBBERS);
    }
    return (int)a0;
}
#endif

extern inline __attribute__((gnu_inline, always_inline)) int k_thread_prio_set(struct k_thread *t,
                                                                               unsigned prio)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)t;
    register unsigned a1 __asm__("r1") = prio;
    __asm volatile("bl z_thread_prio_set_l" : "+l"(a0), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#endif

#include "arch_inline_mempool.h"

#endif
