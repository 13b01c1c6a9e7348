/*
 * The inline fast paths of the ARMv7-M port: definitions, at the call site, of calls that
 * kernel.h declares (included by kernel.h, at its end, from the port's public include
 * directory, kernel/arch/armv7m/include; not a header of its own). The same calls as the
 * ARMv6-M port's (kernel/arch/armv6m/include/rtoslab/arch_inline.h, which explains them),
 * with the kernel's mask on BASEPRI; C++ and the kernel's own sources (Z_NO_INLINE_FAST)
 * get the out-of-line calls.
 */
#ifndef RTOSLAB_ARCH_INLINE_H
#define RTOSLAB_ARCH_INLINE_H

#ifndef RTOSLAB_KERNEL_H
#error "include rtoslab/kernel.h"
#endif

#ifndef K_CONFIG_LIGHT_CALLS
#define K_CONFIG_LIGHT_CALLS 1
#endif
#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && defined(__thumb2__) && !defined(__cplusplus) && \
    !defined(Z_NO_INLINE_FAST)
/* The calls that may switch, inlined as a call of the port's light routine with every core
 * register but r7 declared clobbered (docs/kernel-api.md, "Light calls"). (s16-s31 need no
 * clobber: a thread with FP context switches through PendSV, which saves them.) */
#define Z_LIGHT_CLOBBERS \
    "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

extern inline __attribute__((gnu_inline, always_inline)) void k_yield(void)
{
    __asm volatile("bl z_yield_l" ::: "r0", "r1", Z_LIGHT_CLOBBERS);
}

extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    register k_timeout_t a1 __asm__("r1") = timeout;
    __asm volatile("bl z_sem_wait_l" : "+l"(a0), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return (int)a0;
}

/* (s in r1, the result in r0: fast_sem.S) */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a1 __asm__("r1") = (uintptr_t)s;
    register int r __asm__("r0");
    __asm volatile("bl z_sem_signal_l" : "=l"(r), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return r;
}

#if K_CONFIG_SUSPEND
extern inline __attribute__((gnu_inline, always_inline)) int k_thread_suspend(struct k_thread *t)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)t;
    __asm volatile("bl z_thread_suspend_l" : "+l"(a0) : : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}

extern inline __attribute__((gnu_inline, always_inline)) int k_thread_resume(struct k_thread *t)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)t;
    __asm volatile("bl z_thread_resume_l" : "+l"(a0) : : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#endif
#endif

#if K_CONFIG_FASTPATH && K_CONFIG_MUTEX && defined(__thumb2__) && !defined(__cplusplus) && \
    !defined(Z_NO_INLINE_FAST)
/* The uncontended cases inlined at the call site: a lock takes a free mutex (lock word
 * Z_MUTEX_FREE), an unlock frees one whose lock word is exactly the caller; anything else
 * calls the port's z_mutex_*_slow (masked), which calls the portable code. `cmp sp,
 * &z_kernel` clears the carry only in an interrupt (the interrupt stack lies below .data,
 * every thread stack above it), and the SBCS then cannot give 0: C returns K_EISR. */
extern inline __attribute__((gnu_inline, always_inline)) int k_mutex_lock(struct k_mutex *m,
                                                                          k_timeout_t timeout)
{
    register struct k_mutex *a0 __asm__("r0") = m;
    register k_timeout_t a1 __asm__("r1") = timeout;
    register struct k_thread **a2 __asm__("r2") = &z_kernel_current;
    register int r __asm__("r3");
    __asm volatile(".syntax unified\n\t"
                   "movs r3, #0x20\n\t"
                   "msr basepri, r3\n\t"
                   "ldr r3, [r0, #4]\n\t"
                   "cmp sp, r2\n\t"            /* carry set: a thread */
                   "sbcs r3, r3, r2\n\t"       /* Z_MUTEX_FREE, a thread: r3 = 0, the result */
                   "beq 1f\n\t"
                   "bl z_mutex_lock_slow\n\t"  /* (r1 still the timeout) */
                   "b 2f\n"
                   "1:\tldr r1, [r2]\n\t"
                   "str r1, [r0, #4]\n\t"
                   "msr basepri, r3\n"         /* (r3 = 0) */
                   "2:"
                   : "=l"(r), "+l"(a1), "+l"(a2)
                   : "l"(a0)
                   : "r12", "lr", "cc", "memory");
    return r;
}

extern inline __attribute__((gnu_inline, always_inline)) int k_mutex_unlock(struct k_mutex *m)
{
    register struct k_mutex *a0 __asm__("r0") = m;
    register struct k_thread **a2 __asm__("r2") = &z_kernel_current;
    register int r __asm__("r3");
    __asm volatile(".syntax unified\n\t"
                   "movs r3, #0x20\n\t"
                   "msr basepri, r3\n\t"
                   "ldr r3, [r0, #4]\n\t"
                   "ldr r1, [r2]\n\t"
                   "cmp sp, r2\n\t"            /* carry set: a thread */
                   "sbcs r3, r3, r1\n\t"       /* the caller, no waiter flag: r3 = 0, the result */
                   "beq 1f\n\t"
                   "bl z_mutex_unlock_slow\n\t"
                   "b 2f\n"
                   "1:\tstr r2, [r0, #4]\n\t"  /* Z_MUTEX_FREE */
                   "msr basepri, r3\n"         /* (r3 = 0) */
                   "2:"
                   : "=l"(r), "+l"(a2)
                   : "l"(a0)
                   : "r1", "r12", "lr", "cc", "memory");
    return r;
}
#endif

#endif
