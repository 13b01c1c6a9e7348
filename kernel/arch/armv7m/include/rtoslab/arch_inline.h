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
#endif

#endif
