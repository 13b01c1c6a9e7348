/*
 * ARMv6-M fast paths of the memory pools (K_CONFIG_FASTPATH, K_CONFIG_MEMPOOL; see fast.S):
 * k_mempool_alloc from the free list and k_mempool_free of a block of a power-of-two size.
 * AAPCS routines (neither switches), PRIMASK saved and restored in r12 (any context, as the
 * C). Anything else (NULL or another object, the never-used blocks, an empty pool, a block
 * size that is not a power of two, a bad block, a free list to search) goes to the C function
 * with the original arguments, so the results are C's.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL

#include "fast_macros.inc"

/* void *k_mempool_alloc(struct k_mempool *p) */
    FUNC k_mempool_alloc
    cmp     r0, #0
    beq     9f
    ldrb    r3, [r0, #ZP_TYPE]
    cmp     r3, #ZO_MEMPOOL
    bne     9f
    mrs     r12, primask
    cpsid   i
    ldr     r1, [r0, #ZP_FREE]
    cmp     r1, #0
    beq     8f                      /* no released block: C takes a never-used one */
    ldr     r2, [r1]
    str     r2, [r0, #ZP_FREE]
    msr     primask, r12
    movs    r0, r1
    bx      lr
8:  msr     primask, r12
9:  ldr     r3, =z_mempool_alloc_c  /* far tail call; r0 is the argument */
    bx      r3
    ENDFUNC k_mempool_alloc

/* int k_mempool_free(struct k_mempool *p, void *block) */
    FUNC k_mempool_free
#if K_CONFIG_CHECKS /* (NULL, the type: checks, as the C's; the allocation's are not) */
    cmp     r0, #0
    beq     9f
    ldrb    r3, [r0, #ZP_TYPE]
    cmp     r3, #ZO_MEMPOOL
    bne     9f
#endif
    ldr     r2, [r0, #ZP_BUF]
    subs    r2, r1, r2              /* the offset (below the storage, NULL too, wraps) */
    ldr     r3, [r0, #ZP_USED]      /* the bytes handed out */
    cmp     r2, r3
    bhs     9f                      /* at or past them: not a block handed out */
    ldrb    r3, [r0, #ZP_SHIFT]
    lsls    r2, r3                  /* 0 only at the start of a block (z_shift: kernel.h; */
    bne     9f                      /* a size not a power of two passes block 0 only) */
    mrs     r12, primask
    cpsid   i
    ldr     r2, [r0, #ZP_FREE]
    cmp     r2, #0
    bne     8f                      /* released blocks: C checks this is not one (issue 31) */
    str     r2, [r1]                /* (0: the end of the list) */
    str     r1, [r0, #ZP_FREE]
    msr     primask, r12
    movs    r0, #0
    bx      lr
8:  msr     primask, r12
9:  ldr     r3, =z_mempool_free_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC k_mempool_free

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL */
