/*
 * The inline fast paths of the ARMv7-M port: definitions, at the call site, of calls that
 * kernel.h declares (included by kernel.h, at its end, from the port's public include
 * directory, kernel/arch/armv7m/include; not a header of its own). What both Cortex-M ports
 * share is kernel/arch/cortexm/include/rtoslab/cortexm_inline.h (which explains them), with
 * the kernel's mask on BASEPRI here; this port adds its k_sem_signal. C++ and the kernel's
 * own sources (Z_NO_INLINE_FAST) get the out-of-line calls.
 */
#ifndef RTOSLAB_ARCH_INLINE_H
#define RTOSLAB_ARCH_INLINE_H

#ifndef RTOSLAB_KERNEL_H
#error "include rtoslab/kernel.h"
#endif

/* Thumb-2 only */
#if defined(__thumb2__) && !defined(__cplusplus) && !defined(Z_NO_INLINE_FAST)
#define Z_ARCH_INLINE_ASM 1
#else
#define Z_ARCH_INLINE_ASM 0
#endif
/* The caller's BASEPRI saved in r12, raised to ARCH_BASEPRI (0x20) with BASEPRI_MAX (a
 * caller's higher mask stays), then restored: the caller's mask kept (issue 31). A caller
 * with interrupts masked (PRIMASK or BASEPRI) takes the fast path when it does not switch;
 * the slow paths (z_mutex_*_slow, fast_mutex.S) test r12 and PRIMASK before any switch. */
#define Z_ASM_MASK "mrs r12, basepri\n\tmovs r3, #0x20\n\tmsr basepri_max, r3\n\t"
#define Z_ASM_UNMASK "msr basepri, r12\n"
#define Z_ASM_MASKED ""
#define Z_ASM_MASKED_CALL(fn) ""

/* Under -O2 (the speed profile) this port inlines k_sem_wait's available unit at the call
 * site (below); cortexm_inline.h's light call then stays out. */
#if !defined(__OPTIMIZE_SIZE__)
#define Z_ARCH_INLINE_SEM_WAIT 1
#endif

#include "../../../cortexm/include/rtoslab/cortexm_inline.h"

#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && Z_ARCH_INLINE_ASM
/* (s in r1, the result in r0: fast_sem.S) */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a1 __asm__("r1") = (uintptr_t)s;
    register int r __asm__("r0");
    __asm volatile("bl z_sem_signal_l" : "=l"(r), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return r;
}

#ifdef Z_ARCH_INLINE_SEM_WAIT
/* The wait that takes an available unit, at the call site: fast_sem.S's first steps (the
 * caller's BASEPRI kept in r12, the type, the count) without the call and return, as the
 * speed profile's link-time inlining gives the other RTOSes' C calls. No unit: the light
 * routine past those steps (z_sem_wait_lb: every check of the routine's, in its order); no
 * semaphore: its way to C (z_sem_wait_lx). Both from a cold section, with the return
 * address set to the end of the inline code (no branch back after the call). */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    register k_timeout_t a1 __asm__("r1") = timeout;
    __asm volatile(".syntax unified\n\t"
                   Z_ASM_MASK
                   "ldrb r3, [r0, %[type]]\n\t"
                   "ldrh r2, [r0, %[count]]\n\t"
                   "cmp r3, %[sem]\n\t"
                   "bne.w 4f\n\t"
                   "subs r2, r2, #1\n\t"     /* borrow (carry clear): no unit */
                   "bcc.w 3f\n\t"
                   "strh r2, [r0, %[count]]\n\t"
                   Z_ASM_UNMASK
                   "movs r0, #0\n"
                   "2:\n\t"
                   ".pushsection .text.unlikely.z_sem_wait, \"ax\", %%progbits\n"
                   "3:\tmovw lr, #:lower16:(2b + 1)\n\t"  /* (+1: Thumb) */
                   "movt lr, #:upper16:(2b + 1)\n\t"
                   "b.w z_sem_wait_lb\n"
                   "4:\tmovw lr, #:lower16:(2b + 1)\n\t"
                   "movt lr, #:upper16:(2b + 1)\n\t"
                   "b.w z_sem_wait_lx\n\t"
                   ".popsection"
                   : "+l"(a0), "+l"(a1)
                   : [type] "i"(offsetof(struct k_sem, z_type)),
                     [count] "i"(offsetof(struct k_sem, z_count)), [sem] "i"(Z_OBJ_SEM)
                   : Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#endif
#endif

#endif
