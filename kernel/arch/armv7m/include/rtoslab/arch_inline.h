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
/* In the inline paths' cold section: a jump to `fn` whose return address is the end of the
 * inline code (label 2; +1: Thumb), so the uncommon case returns where the common one ends
 * (a BL there and a branch back cost the blocking paths 2 to 5 cycles more) */
#define Z_ASM_COLD_CALL(fn) "movw lr, #:lower16:(2b + 1)\n\tmovt lr, #:upper16:(2b + 1)\n\tb.w " fn "\n\t"
#define Z_ASM_MASKED ""
#define Z_ASM_MASKED_CALL(fn) ""

/* Under -O2 (the speed profile) this port inlines k_sem_wait's available unit at the call
 * site (below); cortexm_inline.h's light call then stays out. So are the memory pools'
 * allocation from the free list and release into an empty one (below). */
#if !defined(__OPTIMIZE_SIZE__)
#define Z_ARCH_INLINE_SEM_WAIT 1
#define Z_ARCH_INLINE_SEM_SIGNAL 1
#define Z_ARCH_INLINE_MEMPOOL 1
#endif

/* The mutex slow paths (fast_mutex.S) return the result in r0, m not kept */
#define Z_ARCH_MUTEX_SLOW_R0 1

#include "../../../cortexm/include/rtoslab/cortexm_inline.h"

#if K_CONFIG_FASTPATH && K_CONFIG_LIGHT_CALLS && Z_ARCH_INLINE_ASM
#ifndef Z_ARCH_INLINE_SEM_SIGNAL
/* (s in r1, the result in r0: fast_sem.S) */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a1 __asm__("r1") = (uintptr_t)s;
    register int r __asm__("r0");
    __asm volatile("bl z_sem_signal_l" : "=l"(r), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return r;
}
#else
/* The signal without a waiter at the call site: fast_sem.S's exclusive increment (the type,
 * no waiter, below the limit or, with none, below 65535; the exclusive store's status the
 * result). A waiter: a BL in line to the routine's waiter part (z_sem_signal_lw), so that
 * this way costs what the BL and the routine's own test cost (a cold section's MOVW/MOVT
 * cost it 2 cycles: the ninth round). Anything else (not a semaphore, at the limit, the
 * store interrupted): the whole routine, which tests again. */
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_signal(struct k_sem *s)
{
    register uintptr_t a1 __asm__("r1") = (uintptr_t)s;
    register int r __asm__("r0");
    __asm volatile(".syntax unified\n\t"
                   "ldrex r2, [r1, %[count]]\n\t"
                   "ldr r0, [r1, %[waitq]]\n\t"
#if K_CONFIG_CHECKS /* (the type: a check, as the C's Z_CHECK) */
                   "ubfx r3, r2, #16, #8\n\t"
                   "cmp r3, %[sem]\n\t"
                   "bne 4f\n\t"
#endif
                   "cbnz r0, 3f\n\t"          /* a waiter */
                   "uxth r0, r2\n\t"
                   "cmp r0, r2, lsr #24\n\t"
                   "bhs 5f\n"                  /* at the limit, or no limit (0) */
                   "6:\tadds r2, r2, #1\n\t"
                   "strex r0, r2, [r1, %[count]]\n\t" /* 0: stored, the result */
                   "cbz r0, 2f\n"
                   "4:\tbl z_sem_signal_l\n\t"
                   "b 2f\n"
                   "5:\tlsrs r3, r2, #24\n\t"
                   "bne 4b\n\t"               /* at the limit: the routine's K_EOVERFLOW */
                   "movw r3, #0xFFFF\n\t"     /* no limit but the count's */
                   "cmp r0, r3\n\t"
                   "blo 6b\n\t"
                   "b 4b\n\t"
                   ".p2align 2\n"              /* (a BL at a word: CBNZ's target, 1 cycle less) */
                   "3:\tbl z_sem_signal_lw\n"
                   "2:"
                   : "=l"(r), "+l"(a1)
                   : [count] "i"(offsetof(struct k_sem, z_count)),
                     [waitq] "i"(offsetof(struct k_sem, z_waitq)), [sem] "i"(Z_OBJ_SEM)
                   : Z_LIGHT_CLOBBERS);
    return r;
}
#endif

#ifdef Z_ARCH_INLINE_SEM_WAIT
/* The wait that takes an available unit, at the call site: fast_sem.S's first steps (the
 * caller's BASEPRI kept in r12, the type, the count) without the call and return, as the
 * speed profile's link-time inlining gives the other RTOSes' C calls. No unit: the light
 * routine past those steps (z_sem_wait_lb: every check of the routine's, in its order; for a
 * constant K_FOREVER z_sem_wait_lbf, past its test of r1, which the compiler made); no
 * semaphore: its way to C (z_sem_wait_lx). Both from a cold section, with the return
 * address set to the end of the inline code (no branch back after the call). */
#if K_CONFIG_CHECKS /* (the type: a check, as the C's Z_CHECK) */
#define Z_SEM_WAIT_LOAD_ASM                                                                    \
    "ldrb r3, [r0, %[type]]\n\t"                                                               \
    "ldrh r2, [r0, %[count]]\n\t"                                                              \
    "cmp r3, %[sem]\n\t"                                                                       \
    "bne.w 4f\n\t"
#else
#define Z_SEM_WAIT_LOAD_ASM "ldrh r2, [r0, %[count]]\n\t"
#endif
#define Z_SEM_WAIT_ASM(block)                                                                  \
    __asm volatile(".syntax unified\n\t" Z_ASM_MASK Z_SEM_WAIT_LOAD_ASM                        \
                   "subs r2, r2, #1\n\t" /* borrow (carry clear): no unit */                   \
                   "bcc.w 3f\n\t"                                                              \
                   "strh r2, [r0, %[count]]\n\t" Z_ASM_UNMASK "movs r0, #0\n"                   \
                   "2:\n\t"                                                                    \
                   ".pushsection .text.unlikely.z_sem_wait, \"ax\", %%progbits\n"              \
                   "3:\t" Z_ASM_COLD_CALL(block) "4:\t" Z_ASM_COLD_CALL("z_sem_wait_lx")         \
                   ".popsection"                                                               \
                   : "+l"(a0), "+l"(a1)                                                        \
                   : [type] "i"(offsetof(struct k_sem, z_type)),                               \
                     [count] "i"(offsetof(struct k_sem, z_count)), [sem] "i"(Z_OBJ_SEM)        \
                   : Z_LIGHT_CLOBBERS)
extern inline __attribute__((gnu_inline, always_inline)) int k_sem_wait(struct k_sem *s,
                                                                        k_timeout_t timeout)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)s;
    register k_timeout_t a1 __asm__("r1") = timeout;
    if (__builtin_constant_p(timeout) && timeout == K_FOREVER)
        Z_SEM_WAIT_ASM("z_sem_wait_lbf");
    else
        Z_SEM_WAIT_ASM("z_sem_wait_lb");
    return (int)a0;
}
#endif
#endif

#if K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL && Z_ARCH_INLINE_ASM && defined(Z_ARCH_INLINE_MEMPOOL)
/* The memory pools' fast paths at the call site (fast_mempool.S's steps and checks, in its
 * order, the list head by LDREX/STREX, no mask): an allocation from the free list, a release
 * of a block of a power-of-two size into an empty free list (no double free to search for).
 * A NULL pool is C's result here (folded away for a pool the compiler knows); anything else
 * goes to the C (z_mempool_*_c) with the original arguments, from a cold section with the
 * return address set to the end of the inline code, as k_sem_wait's. */
extern inline __attribute__((gnu_inline, always_inline)) void *k_mempool_alloc(struct k_mempool *p)
{
    if (!p)
        return NULL;
    register uintptr_t a0 __asm__("r0") = (uintptr_t)p;
    __asm volatile(".syntax unified\n"
                   "1:\tldrex r1, [r0, %[free]]\n\t"
                   "ldrb r3, [r0, %[type]]\n\t" /* (pipelined) */
                   "cmp r3, %[pool]\n\t"
                   "bne.w 3f\n\t"
                   "cmp r1, #0\n\t"
                   "beq.w 3f\n\t"              /* no released block: C takes a never-used one */
                   "ldr r2, [r1]\n\t"
                   "strex r3, r2, [r0, %[free]]\n\t"
                   "cmp r3, #0\n\t"
                   "bne 1b\n\t"                /* interrupted: the head may have changed */
                   "mov r0, r1\n"
                   "2:\n\t"
                   ".pushsection .text.unlikely.z_mempool, \"ax\", %%progbits\n"
                   "3:\t" Z_ASM_COLD_CALL("z_mempool_alloc_c")
                   ".popsection"
                   : "+l"(a0)
                   : Z_MEMPOOL_ASM_FIELDS
                   : "r1", "r2", "r3", "r12", "lr", "cc", "memory");
    return (void *)a0;
}

extern inline __attribute__((gnu_inline, always_inline)) int k_mempool_free(struct k_mempool *p,
                                                                            void *block)
{
#if K_CONFIG_CHECKS /* (the pool's tests: checks, as the C's Z_CHECK; the allocation's are not) */
    if (!p)
        return K_EINVAL;
#endif
    register uintptr_t a0 __asm__("r0") = (uintptr_t)p;
    register void *a1 __asm__("r1") = block;
    __asm volatile(".syntax unified\n\t"
                   "ldr r2, [r0, %[buf]]\n\t"
                   "ldrh r3, [r0, %[shift]]\n\t" /* z_shift | z_type << 8 (pipelined) */
                   "ldr r12, [r0, %[used]]\n\t" /* the bytes handed out (pipelined) */
#if K_CONFIG_CHECKS
                   "eor r3, r3, #(%c[pool] << 8)\n\t"
                   "cmp r3, #0xFF\n\t"       /* above: not the type */
                   "bhi.w 3f\n\t"
#endif
                   "subs r2, r1, r2\n\t"       /* the offset (below the storage wraps) */
                   "cmp r2, r12\n\t"
                   "bhs.w 3f\n\t"              /* at or past the end: not a block handed out */
                   "lsls r2, r2, r3\n\t"       /* 0 only at the start of a block (z_shift) */
                   "bne.w 3f\n\t"
                   "ldrex r2, [r0, %[free]]\n\t"
                   "cmp r2, #0\n\t"
                   "bne.w 3f\n\t"              /* released blocks: C checks this is not one */
                   "str r2, [r1]\n\t"          /* (0: the end of the list) */
                   "strex r3, r1, [r0, %[free]]\n\t"
                   "cmp r3, #0\n\t"
                   "bne.w 3f\n\t"              /* failed: C, masked (fast_mempool.S: no retry) */
                   "movs r0, #0\n"
                   "2:\n\t"
                   ".pushsection .text.unlikely.z_mempool, \"ax\", %%progbits\n"
                   "3:\t" Z_ASM_COLD_CALL("z_mempool_free_c")
                   ".popsection"
                   : "+l"(a0), "+l"(a1)
                   : Z_MEMPOOL_ASM_FIELDS
                   : "r2", "r3", "r12", "lr", "cc", "memory");
    return (int)a0;
}
#endif

#endif
