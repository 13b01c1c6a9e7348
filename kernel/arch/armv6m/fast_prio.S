/*
 * ARMv6-M fast path of k_thread_prio_set (K_CONFIG_FASTPATH; see fast.S): a ready thread,
 * no mutex contended anywhere.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* int k_thread_prio_set(struct k_thread *t, unsigned prio) */
    FUNC z_thread_prio_set_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cmp     r2, #0
    beq     9f                      /* before k_start(): C (no switch, issue 31) */
    cmp     r0, #0
    bne     1f
    movs    r0, r2                  /* NULL: the caller */
1:
#if K_CONFIG_STACK_CHECK
    ldr     r4, [r2, #ZT_LIM]
    cmp     sp, r4
    bls     9f                      /* in an interrupt (MSP, below every thread stack): C
                                     * says K_EISR, whether or not a switch would follow */
#endif
#if K_CONFIG_CHECKS
    cmp     r1, #K_CONFIG_PRIO_LEVELS
    bhs     9f                      /* C says K_EINVAL */
#endif
#if K_CONFIG_MUTEX
    ldr     r4, [r3, #ZK_CONTENDED]
    cmp     r4, #0
    bne     9f                      /* inheritance in play: C */
#endif
#if !K_CONFIG_STACK_CHECK && K_CONFIG_CHECKS
    mrs     r4, ipsr                /* (with the stack check: above) */
    cmp     r4, #0
    bne     9f                      /* C says K_EISR */
#endif
    MASKED_TO 9f, r4                /* masked: C keeps the mask (issue 31) */
    cpsid   i                       /* (r3 = &z_kernel still) */
    ldrb    r4, [r0, #ZT_STATE]
    cmp     r4, #ZS_READY
    bne     71f                     /* blocked, suspended, dead or not a thread: C */
    strb    r1, [r0, #ZT_BASE]
    ldrb    r4, [r0, #ZT_PRIO]
    cmp     r4, r1
    beq     7f
    /* out of ring r4 */
    lsls    r5, r4, #2
    adds    r5, r5, r3
    ldr     r6, [r5, #ZK_READY]     /* tail */
    ldr     r4, [r0, #ZT_NEXT]
    cmp     r4, r0
    bne     2f
    movs    r4, #0                  /* alone: the ring empties */
    str     r4, [r5, #ZK_READY]
    ldrb    r4, [r0, #ZT_PRIO]
    PRIOBIT r6, r4
    LOAD_BITMAP r5
    bics    r5, r6
    STORE_BITMAP r5
    b       4f
2:  mov     r12, r5                 /* r4 = its successor */
    movs    r5, r6                  /* predecessor search from the tail */
3:  ldr     r1, [r5, #ZT_NEXT]
    cmp     r1, r0
    beq     31f
    movs    r5, r1
    b       3b
31: str     r4, [r5, #ZT_NEXT]
    ldrb    r1, [r0, #ZT_BASE]      /* (the new priority, stored above) */
    cmp     r6, r0
    bne     4f
    mov     r4, r12
    str     r5, [r4, #ZK_READY]     /* it was the tail: its predecessor is */
4:  strb    r1, [r0, #ZT_PRIO]
    /* into ring r1: at the head if it is the running thread, else at the tail */
    lsls    r5, r1, #2
    adds    r5, r5, r3
    ldr     r6, [r5, #ZK_READY]
    cmp     r6, #0
    bne     5f
    RING_FILLS r0, r5, r1, r6, r4
    b       6f
5:  ldr     r4, [r6, #ZT_NEXT]
    str     r4, [r0, #ZT_NEXT]
    str     r0, [r6, #ZT_NEXT]
    cmp     r0, r2
    beq     6f
    str     r0, [r5, #ZK_READY]
6:  /* another thread runs only if it now outranks the caller; the caller, if it lowered
     * itself, gives way to the top thread */
    cmp     r0, r2
    beq     61f
    ldrb    r4, [r2, #ZT_PRIO]
    cmp     r1, r4
    bls     7f
    movs    r1, r0
    b       62f
61: LOAD_BITMAP r6
    TOPPRIO r6, r4, r5, z_thread_prio_set_l_table
    lsls    r4, r4, #2
    adds    r4, r4, r3
    ldr     r4, [r4, #ZK_READY]
    ldr     r1, [r4, #ZT_NEXT]
    cmp     r1, r2
    beq     7f
62:
#if Z_HAS_WAIT_OBJ
    movs    r4, #0
    str     r4, [r2, #ZT_WAIT]      /* our return value when we run again */
#endif
    SWITCH_TAIL
7:  cpsie   i
    movs    r0, #0
    bx      lr
71: cpsie   i
9:  ldr     r3, =z_thread_prio_set_c
    bx      r3
    ENDFUNC z_thread_prio_set_l, 1
    FULL_ENTRY k_thread_prio_set, z_thread_prio_set_l

#endif /* K_CONFIG_FASTPATH */
