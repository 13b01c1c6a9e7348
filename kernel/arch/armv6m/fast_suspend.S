/*
 * ARMv6-M fast paths of k_thread_suspend and k_thread_resume (K_CONFIG_FASTPATH and
 * K_CONFIG_SUSPEND; see fast.S): a thread that suspends itself, and the resume of a
 * suspended thread, from a thread. Anything else (another thread suspended, a call before
 * k_start or from an interrupt, a thread that is not suspended, not a thread) is the C code's.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_SUSPEND

#include "fast_macros.inc"

/* int k_thread_suspend(struct k_thread *t): t NULL or the caller */
    FUNC z_thread_suspend_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cmp     r0, #0
    beq     1f
    cmp     r0, r2
    bne     9f                      /* another thread: C */
1:  cmp     r2, #0
    beq     9f                      /* before k_start: C */
    THREAD_CALLER 9f
    MASKED_TO 9f, r6                /* masked: C refuses (K_EMASKED), the mask kept */
    cpsid   i
    /* (the caller runs: it is ready, the head of its ring) */
    movs    r6, #ZS_SUSPENDED
    strb    r6, [r2, #ZT_STATE]
#if Z_HAS_WAIT_OBJ
    movs    r6, #0
    str     r6, [r2, #ZT_WAIT]      /* our result, when resumed */
#endif
    ldrb    r4, [r2, #ZT_PRIO]
    ldr     r1, [r2, #ZT_NEXT]
    LEAVE_RING_SWITCH z_thread_suspend_l_table
9:  ldr     r3, =z_thread_suspend_c   /* far tail call; r0 is the argument */
    bx      r3
    ENDFUNC z_thread_suspend_l, 1
    FULL_ENTRY k_thread_suspend, z_thread_suspend_l

/* int k_thread_resume(struct k_thread *t) */
    FUNC z_thread_resume_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
#if K_CONFIG_CHECKS
    cmp     r0, #0
    beq     9f                      /* C says K_EINVAL */
#endif
    cmp     r2, #0
    beq     9f                      /* before k_start: C */
    THREAD_CALLER 9f
    MASKED_TO 9f, r4                /* masked: C keeps the mask, pends the switch */
    cpsid   i
    ldrb    r4, [r0, #ZT_STATE]
    cmp     r4, #ZS_SUSPENDED
    bne     8f                      /* not suspended, or not a thread: C */
    movs    r4, #ZS_READY
    strb    r4, [r0, #ZT_STATE]
    ldrb    r4, [r0, #ZT_PRIO]
    lsls    r6, r4, #2
    adds    r6, r6, r3              /* its ring's slot - ZK_READY */
    ldrb    r5, [r2, #ZT_PRIO]
    cmp     r4, r5
    bls     10f                     /* it does not outrank the caller: no switch */
    /* It outranks the caller, the top thread, so its ring is empty: it becomes the ring and
     * runs at once; the caller stays the head of its own ring. */
    RING_FILLS r0, r6, r4, r5, r4
#if Z_HAS_WAIT_OBJ
    movs    r5, #0
    str     r5, [r2, #ZT_WAIT]      /* our result, when we run again */
#endif
    movs    r1, r0
    SWITCH_TAIL 1, 1
10: /* to the tail of its ring */
    READY_AT_TAIL r0, r4, r6, r1, r5, r1, r5
    cpsie   i
    movs    r0, #0
    bx      lr
8:  cpsie   i
9:  ldr     r3, =z_thread_resume_c    /* far tail call; r0 is the argument */
    bx      r3
    ENDFUNC z_thread_resume_l
    FULL_ENTRY k_thread_resume, z_thread_resume_l

#endif /* K_CONFIG_FASTPATH && K_CONFIG_SUSPEND */
