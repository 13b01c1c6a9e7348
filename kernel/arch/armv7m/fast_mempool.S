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

/* z_block and z_count, z_fresh and z_avail: two halfwords of one word each */
#if ZP_BLOCK % 4 != 0 || ZP_COUNT != ZP_BLOCK + 2 || ZP_FRESH != ZP_BLOCK + 4 || \
    ZP_AVAIL != ZP_BLOCK + 6
#error "struct k_mempool: z_block, z_count, z_fresh, z_avail must be consecutive halfwords"
#endif

    .macro POOL_LOCK
    mrs     r12, basepri
    movs    r3, #0x20               /* the kernel's mask (arch.h ARCH_BASEPRI) */
    msr     basepri_max, r3
    .endm

/* void *k_mempool_alloc(struct k_mempool *p) */
    FUNC k_mempool_alloc
    cbz     r0, 9f
    ldrb    r3, [r0, #ZP_TYPE]
    cmp     r3, #ZO_MEMPOOL
    bne     9f
    POOL_LOCK
    ldr     r1, [r0, #ZP_FREE]
    cbz     r1, 8f                  /* no released block: C takes a never-used one */
    ldr     r2, [r1]
    ldrh    r3, [r0, #ZP_AVAIL]
    str     r2, [r0, #ZP_FREE]
    subs    r3, r3, #1
    strh    r3, [r0, #ZP_AVAIL]
    msr     basepri, r12
    mov     r0, r1
    bx      lr
8:  msr     basepri, r12
9:  b       z_mempool_alloc_c       /* r0 is the argument */
    ENDFUNC k_mempool_alloc

/* int k_mempool_free(struct k_mempool *p, void *block) */
    FUNC k_mempool_free
    cbz     r0, 9f
    ldrb    r3, [r0, #ZP_TYPE]
    ldrh    r2, [r0, #ZP_BLOCK]     /* (pipelined) */
    cmp     r3, #ZO_MEMPOOL
    bne     9f
    subs    r3, r2, #1              /* m = size - 1 */
    tst     r2, r3
    bne     9f                      /* not a power of two: C divides */
    ldrh    r12, [r0, #ZP_FRESH]
    mul     r12, r12, r2            /* the blocks handed out end here */
    ldr     r2, [r0, #ZP_BUF]
    subs    r2, r1, r2              /* (NULL or below the storage wraps to a large offset) */
    cmp     r2, r12
    bhs     9f                      /* not a block this pool handed out */
    tst     r2, r3
    bne     9f                      /* inside a block */
    POOL_LOCK
    ldr     r2, [r0, #ZP_FREE]
    cbnz    r2, 8f                  /* released blocks: C checks this is not one (issue 31) */
    ldrh    r3, [r0, #ZP_AVAIL]     /* (none released: this block is out, avail < count) */
    adds    r3, r3, #1
    strh    r3, [r0, #ZP_AVAIL]
    str     r2, [r1]                /* (0: the end of the list) */
    str     r1, [r0, #ZP_FREE]
    msr     basepri, r12
    movs    r0, #0
    bx      lr
8:  msr     basepri, r12
9:  b       z_mempool_free_c        /* r0-r1 are the arguments */
    ENDFUNC k_mempool_free

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL */
