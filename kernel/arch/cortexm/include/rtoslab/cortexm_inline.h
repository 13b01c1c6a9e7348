/*
 * The inline fast paths both Cortex-M ports share: definitions, at the call site, of calls
 * that kernel.h declares. Included only by a port's rtoslab/arch_inline.h, which first
 * defines what differs between the ports:
 *   Z_ARCH_INLINE_ASM  1 where the port's inline assembly applies (its instruction set, C,
 *                      not the kernel's own sources, Z_NO_INLINE_FAST), else 0
 *   Z_ASM_MASK         the kernel's mask, as assembly lines (may use r3)
 *   Z_ASM_UNMASK       its release, as an assembly line (r3 = 0 there)
 *   Z_ASM_MASKED       a branch to 3f when the caller has interrupts masked (may use r3,
 *                      r12), or nothing; Z_ASM_MASKED_CALL(fn), the call at 3f: such a call
 *                      goes to the C code, which keeps the mask (issue 31)
 * and adds its own calls after it. Where Z_ARCH_INLINE_ASM is 0 (or K_CONFIG_FASTPATH,
 * K_CONFIG_LIGHT_CALLS are), the out-of-line calls serve.
 */
#ifndef RTOSLAB_CORTEXM_INLINE_H
#define RTOSLAB_CORTEXM_INLINE_H

#include "cortexm_light.h"

#ifndef K_CONFIG_LIGHT_CALLS
#define K_CONFIG_LIGHT_CALLS 1
#endif

/* The memory pool's fields as the ports' inline pool paths name them (asm operands; a path
 * uses those it needs) */
#define Z_MEMPOOL_ASM_FIELDS                                                                   \
    [type] "i"(offsetof(struct k_mempool, z_type)),                                            \
        [buf] "i"(offsetof(struct k_mempool, z_buf)),                                          \
        [used] "i"(offsetof(struct k_mempool, z_used)),                                        \
        [shift] "i"(offsetof(struct k_mempool, z_shift)),                                      \
        [free] "i"(offsetof(struct k_mempool, z_free)), [pool] "i"(Z_OBJ_MEMPOOL)

/* ---- Light calls ------------------------------------------------------------------------ */

#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && Z_ARCH_INLINE_ASM
/* The calls that may switch threads, inlined as a call of the port's light routine with
 * Z_LIGHT_CLOBBERS (cortexm_light.h): the compiler keeps in registers across the call only
 * what it must, where it must. The out-of-line k_* (AAPCS) are the same routines behind a
 * save of r4-r11. K_CONFIG_LIGHT_CALLS=0 turns the inlining off. */
extern inline __attribute__((gnu_inline, always_inline)) void k_yield(void)
{
    __asm volatile("bl z_yield_l" ::: "r0", "r1", Z_LIGHT_CLOBBERS);
}

#ifndef Z_ARCH_INLINE_SEM_WAIT /* (else the port defines it) */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    register k_timeout_t a1 __asm__("r1") = timeout;
    __asm volatile("bl z_sem_wait_l" : "+l"(a0), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#endif

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

/* ---- The uncontended mutex -------------------------------------------------------------- */

#if K_CONFIG_FASTPATH && K_CONFIG_MUTEX && Z_ARCH_INLINE_ASM
/* The uncontended cases inlined at the call site (the out-of-line definitions are in the
 * port): a lock takes a free mutex (lock word Z_MUTEX_FREE, which also proves it is an
 * initialised mutex), an unlock frees one whose lock word is exactly the caller (owned, no
 * waiters). Anything else calls the port's z_mutex_*_slow (still masked), which keeps r0 and
 * calls the portable code, which does every check.
 * Interrupt context costs one CMP: the interrupt stack (MSP) lies below .data, where the
 * kernel state is, and every thread stack above it (the boards' linker script), so
 * `cmp sp, &z_kernel` clears the carry only in an interrupt (or in main() before k_start),
 * and the SBCS that compares the lock word then cannot give 0: C returns K_EISR.
 * Z_ARCH_MUTEX_SLOW_R0 (the port's arch_inline.h): its slow paths return the result in r0
 * and do not keep m (so that a switch there pushes its light frame only, with the inline
 * code as its return); the inline code moves the result to r3. Else they keep r0 = m and
 * return the result in r3. */
#ifdef Z_ARCH_MUTEX_SLOW_R0
#define Z_ASM_MUTEX_SLOW_RESULT "mov r3, r0\n\t"
#define Z_MUTEX_ASM_M_OUT(m) , "+l"(m)
#define Z_MUTEX_ASM_M_IN(m)
#else
#define Z_ASM_MUTEX_SLOW_RESULT ""
#define Z_MUTEX_ASM_M_OUT(m)
#define Z_MUTEX_ASM_M_IN(m) "l"(m)
#endif
extern inline __attribute__((gnu_inline, always_inline)) int k_mutex_lock(struct k_mutex *m,
                                                                          k_timeout_t timeout)
{
    register struct k_mutex *a0 __asm__("r0") = m;
    register k_timeout_t a1 __asm__("r1") = timeout;
    register struct k_thread **a2 __asm__("r2") = &z_kernel_current;
    register int r __asm__("r3");
    __asm volatile(".syntax unified\n\t"
                   Z_ASM_MASKED
                   Z_ASM_MASK
                   "ldr r3, [r0, #4]\n\t"
                   "cmp sp, r2\n\t"            /* carry set: a thread */
                   "sbcs r3, r3, r2\n\t"       /* Z_MUTEX_FREE, a thread: r3 = 0, the result */
                   "beq 1f\n\t"
                   "bl z_mutex_lock_slow\n\t"  /* (r1 still the timeout) */
                   Z_ASM_MUTEX_SLOW_RESULT
                   "b 2f\n"
                   Z_ASM_MASKED_CALL("z_mutex_lock_masked")
                   "1:\tldr r1, [r2]\n\t"
                   "str r1, [r0, #4]\n\t"
                   Z_ASM_UNMASK
                   "2:"  /* (the compiler restores its own syntax mode after an asm) */
                   : "=l"(r), "+l"(a1), "+l"(a2) Z_MUTEX_ASM_M_OUT(a0)
                   : Z_MUTEX_ASM_M_IN(a0)
                   : "r12", "lr", "cc", "memory");
    return r;
}

extern inline __attribute__((gnu_inline, always_inline)) int k_mutex_unlock(struct k_mutex *m)
{
    register struct k_mutex *a0 __asm__("r0") = m;
    register struct k_thread **a2 __asm__("r2") = &z_kernel_current;
    register int r __asm__("r3");
    __asm volatile(".syntax unified\n\t"
                   Z_ASM_MASKED
                   Z_ASM_MASK
                   "ldr r3, [r0, #4]\n\t"
                   "ldr r1, [r2]\n\t"
                   "cmp sp, r2\n\t"            /* carry set: a thread */
                   "sbcs r3, r3, r1\n\t"       /* the caller, no waiter flag: r3 = 0, the result */
                   "beq 1f\n\t"
                   "bl z_mutex_unlock_slow\n\t"  /* (r1 the caller, r3 the comparison) */
                   Z_ASM_MUTEX_SLOW_RESULT
                   "b 2f\n"
                   Z_ASM_MASKED_CALL("z_mutex_unlock_masked")
                   "1:\tstr r2, [r0, #4]\n\t"  /* Z_MUTEX_FREE */
                   Z_ASM_UNMASK
                   "2:"
                   : "=l"(r), "+l"(a2) Z_MUTEX_ASM_M_OUT(a0)
                   : Z_MUTEX_ASM_M_IN(a0)
                   : "r1", "r12", "lr", "cc", "memory");
    return r;
}
#endif

#endif
