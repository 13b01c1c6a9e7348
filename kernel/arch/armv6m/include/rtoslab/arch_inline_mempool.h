/*
 * The ARMv6-M port's memory pool fast paths at the call site, under -O2 (the speed profile):
 * fast_mempool.S's steps and checks in its order, without the call and return. Included by
 * the port's rtoslab/arch_inline.h (after Z_ARCH_INLINE_ASM); not a header of its own.
 * A NULL pool is the C's result in C (folded away for a pool the compiler knows); anything
 * else calls the C (z_mempool_*_c) with the original arguments. Thumb-1's conditional
 * branches reach 256 bytes, so the call sits in line, after a branch over it.
 */
#ifndef RTOSLAB_ARCH_INLINE_MEMPOOL_H
#define RTOSLAB_ARCH_INLINE_MEMPOOL_H

#if K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL && Z_ARCH_INLINE_ASM && !defined(__OPTIMIZE_SIZE__)
extern inline __attribute__((gnu_inline, always_inline)) void *k_mempool_alloc(struct k_mempool *p)
{
    if (!p)
        return NULL;
    register uintptr_t a0 __asm__("r0") = (uintptr_t)p;
    __asm volatile(".syntax unified\n\t"
                   "ldrb r3, [r0, %[type]]\n\t"
                   "cmp r3, %[pool]\n\t"
                   "bne 3f\n\t"
                   "mrs r12, primask\n\t"
                   "cpsid i\n\t"
                   "ldr r1, [r0, %[free]]\n\t"
                   "cmp r1, #0\n\t"
                   "beq 4f\n\t"                /* no released block: C takes a never-used one */
                   "ldr r2, [r1]\n\t"
                   "str r2, [r0, %[free]]\n\t"
                   "msr primask, r12\n\t"
                   "movs r0, r1\n\t"
                   "b 2f\n"
                   "4:\tmsr primask, r12\n"
                   "3:\tbl z_mempool_alloc_c\n"
                   "2:"
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
#if K_CONFIG_CHECKS
                   "ldrb r3, [r0, %[type]]\n\t"
                   "cmp r3, %[pool]\n\t"
                   "bne 3f\n\t"
#endif
                   "ldr r2, [r0, %[buf]]\n\t"
                   "subs r2, r1, r2\n\t"       /* the offset (below the storage wraps) */
                   "ldr r3, [r0, %[used]]\n\t" /* the bytes handed out */
                   "cmp r2, r3\n\t"
                   "bhs 3f\n\t"                /* at or past them: not a block handed out */
                   "ldrb r3, [r0, %[shift]]\n\t"
                   "lsls r2, r3\n\t"           /* 0 only at the start of a block (z_shift) */
                   "bne 3f\n\t"
                   "mrs r12, primask\n\t"
                   "cpsid i\n\t"
                   "ldr r2, [r0, %[free]]\n\t"
                   "cmp r2, #0\n\t"
                   "bne 4f\n\t"                /* released blocks: C checks this is not one */
                   "str r2, [r1]\n\t"          /* (0: the end of the list) */
                   "str r1, [r0, %[free]]\n\t"
                   "msr primask, r12\n\t"
                   "movs r0, #0\n\t"
                   "b 2f\n"
                   "4:\tmsr primask, r12\n"
                   "3:\tbl z_mempool_free_c\n"
                   "2:"
                   : "+l"(a0), "+l"(a1)
                   : Z_MEMPOOL_ASM_FIELDS
                   : "r2", "r3", "r12", "lr", "cc", "memory");
    return (int)a0;
}
#endif

#endif
