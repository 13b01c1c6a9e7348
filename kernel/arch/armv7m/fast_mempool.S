/*
 * ARMv7-M fast paths of the memory pools (K_CONFIG_FASTPATH, K_CONFIG_MEMPOOL; see fast.S):
 * k_mempool_alloc from the free list and k_mempool_free of a block of a power-of-two size,
 * the ARMv6-M port's steps (kernel/arch/armv6m/fast_mempool.S) in Thumb-2. AAPCS routines
 * (neither switches); BASEPRI saved in r12, raised with BASEPRI_MAX (never lowered: a caller
 * masked higher stays so) and restored, so both run in any context, as the C. Anything else
 * (NULL or another object, the never-used blocks, an empty pool, a block size that is not a
 * power of two, a bad block, every block free) goes to the C function with the original
 * arguments, so the results are C's.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL

#include "fast_macros.inc"

    .macro POOL_LOCK
    mrs     r12, basepri
    movs    r3, #0x20               /* the kernel's mask (arch.h ARCH_BASEPRI) */
    msr     basepri_max, r3
    .endm

/* void *k_mempool_alloc(struct k_mempool *p) */
    FUNC k_mempool_alloc
    cbz     r0, 9f
    POOL_LOCK
    ldrb    r3, [r0, #ZP_TYPE]
    ldr     r1, [r0, #ZP_FREE]      /* (the loads pipelined) */
    ldrh    r2, [r0, #ZP_AVAIL]
    cmp     r3, #ZO_MEMPOOL
    bne     8f
    cbz     r1, 8f                  /* no released block: C takes a never-used one */
    ldr     r3, [r1]
    str     r3, [r0, #ZP_FREE]
    subs    r2, r2, #1
    strh    r2, [r0, #ZP_AVAIL]
    msr     basepri, r12
    mov     r0, r1
    bx      lr
8:  msr     basepri, r12
9:  b       z_mempool_alloc_c       /* r0 is the argument */
    ENDFUNC k_mempool_alloc

/* int k_mempool_free(struct k_mempool *p, void *block) */
    FUNC k_mempool_free
#if K_CONFIG_CHECKS /* (NULL, the type: checks, as the C's; the allocation's are not) */
    cbz     r0, 9f
    ldrb    r3, [r0, #ZP_TYPE]
    ldr     r12, [r0, #ZP_TOP]      /* the end of the blocks handed out (pipelined) */
    ldr     r2, [r0, #ZP_BUF]
    cmp     r3, #ZO_MEMPOOL
    bne     9f
#else
    ldr     r12, [r0, #ZP_TOP]
    ldr     r2, [r0, #ZP_BUF]
#endif
    cmp     r1, r12
    bhs     9f                      /* at or past the end: not a block handed out */
    ldrb    r12, [r0, #ZP_SHIFT]
    subs    r2, r1, r2              /* the offset; a borrow: below the storage (NULL too) */
    bcc     9f
    lsls    r2, r2, r12             /* 0 only at the start of a block (z_shift: kernel.h; */
    bne     9f                      /* a size not a power of two passes block 0 only) */
    POOL_LOCK
    ldr     r2, [r0, #ZP_FREE]
    ldrh    r3, [r0, #ZP_AVAIL]     /* (pipelined) */
    cbnz    r2, 8f                  /* released blocks: C checks this is not one (issue 31) */
    str     r2, [r1]                /* (0: the end of the list; none released: this block */
    adds    r3, r3, #1              /* is out, avail < count) */
    str     r1, [r0, #ZP_FREE]
    strh    r3, [r0, #ZP_AVAIL]
    msr     basepri, r12
    movs    r0, #0
    bx      lr
8:  msr     basepri, r12
9:  b       z_mempool_free_c        /* r0-r1 are the arguments */
    ENDFUNC k_mempool_free

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL */
