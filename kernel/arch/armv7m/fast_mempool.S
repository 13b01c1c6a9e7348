/*
 * ARMv7-M fast paths of the memory pools (K_CONFIG_FASTPATH, K_CONFIG_MEMPOOL; see fast.S):
 * k_mempool_alloc from the free list and k_mempool_free of a block of a power-of-two size
 * into an empty free list. AAPCS routines (neither switches) with no mask: the list head
 * changes by LDREX/STREX, and exception entry and return clear the local monitor, so any
 * interrupt between the two (a switch, an ISR's allocation, the C under the kernel's mask)
 * fails the STREX; a caller's BASEPRI or PRIMASK is never touched. A failed allocation runs
 * again. A failed release goes to the C instead: its plain store of the block's link sits
 * between the two, and whether such a store clears the monitor is IMPLEMENTATION DEFINED
 * (ARMv7-M ARM, A3.4: Cortex-M's local monitor tags no address, so every store is to the
 * marked one); a retry could then never succeed. A block freed twice at once by a thread
 * and an interrupt (misuse) is refused by the C, but the interrupt's own release may then
 * lose its link to the thread's store: one block fewer in the pool.
 * Anything else (NULL or another object, the never-used blocks, an empty pool, a block size
 * that is not a power of two, a bad block, a free list to search) goes to the C function
 * with the original arguments, so the results are C's. NULL needs no test of its own: its
 * type byte reads the vector table (kernel.h, z_type), never a pool's type.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL

#include "fast_macros.inc"

/* void *k_mempool_alloc(struct k_mempool *p) */
    FUNC k_mempool_alloc
1:  ldrex   r1, [r0, #ZP_FREE]
    ldrb    r3, [r0, #ZP_TYPE]      /* (pipelined) */
    cmp     r3, #ZO_MEMPOOL
    bne     9f
    cbz     r1, 9f                  /* no released block: C takes a never-used one */
    ldr     r2, [r1]
    strex   r3, r2, [r0, #ZP_FREE]
    cbnz    r3, 8f                  /* interrupted: the head may have changed */
    mov     r0, r1
    bx      lr
8:  b       1b                      /* (CBNZ branches forward only) */
9:  b       z_mempool_alloc_c       /* r0 is the argument */
    ENDFUNC k_mempool_alloc

/* int k_mempool_free(struct k_mempool *p, void *block) */
    FUNC k_mempool_free
    .p2align 3                      /* (a flash line's start: STM32F1 fetches 8 bytes a line) */
    ldr     r2, [r0, #ZP_BUF]
    ldrh    r3, [r0, #ZP_SHIFT]     /* z_shift | z_type << 8 (pipelined) */
    ldr     r12, [r0, #ZP_USED]     /* the bytes handed out (pipelined) */
#if K_CONFIG_CHECKS /* (the type: a check, as the C's; the allocation's is not) */
    eor     r3, r3, #ZO_MEMPOOL << 8
    cmp     r3, #0xFF               /* above: not the type (NULL's neither: kernel.h, z_type) */
    bhi     9f
#endif
    subs    r2, r1, r2              /* the offset (below the storage, NULL too, wraps) */
    cmp     r2, r12
    bhs     9f                      /* at or past the end: not a block handed out */
    lsls    r2, r2, r3              /* 0 only at the start of a block (the low byte, z_shift: */
    bne     9f                      /* kernel.h; a size not a power of two passes block 0 only) */
    ldrex   r2, [r0, #ZP_FREE]
    cbnz    r2, 9f                  /* released blocks: C checks this is not one (issue 31) */
    str     r2, [r1]                /* (0: the end of the list) */
    strex   r3, r1, [r0, #ZP_FREE]
    cbnz    r3, 9f                  /* failed: C, masked (no retry: see above) */
    movs    r0, #0
    bx      lr
9:  b       z_mempool_free_c        /* r0-r1 are the arguments */
    ENDFUNC k_mempool_free

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MEMPOOL */
