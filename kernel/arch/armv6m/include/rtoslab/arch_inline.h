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

#include "../../../cortexm/include/rtoslab/cortexm_inline.h"

#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && Z_ARCH_INLINE_ASM
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    __asm volatile("bl z_sem_signal_l" : "+l"(a0) : : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}

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
