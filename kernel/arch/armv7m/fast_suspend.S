/*
 * ARMv7-M fast paths of k_thread_suspend and k_thread_resume (K_CONFIG_FASTPATH and
 * K_CONFIG_SUSPEND; see fast.S): a thread that suspends itself, and the resume of a
 * suspended thread, from a thread; the steps of the ARMv6-M port's
 * (kernel/arch/armv6m/fast_suspend.S), in Thumb-2. Anything else (another thread
 * suspended, a call before k_start or from an interrupt, a thread that is not suspended, not
 * a thread) is the C code's.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_SUSPEND

#include "fast_macros.inc"

/* int k_thread_suspend(struct k_thread *t): t NULL or the caller */
    FUNC z_thread_suspend_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cbz     r0, 1f
    cmp     r0, r2
    bne     9f                      /* another thread: C */
1:  cmp     r2, #0
    beq     9f                      /* before k_start: C */
    THREAD_CALLER 9f
    MASKED_TO 9f, r6, r5            /* masked: C refuses (K_EMASKED), the mask kept */
    IRQ_MASK r6
    /* (the caller runs: it is ready, the head of its ring) */
    movs    r6, #ZS_SUSPENDED
    strb    r6, [r2, #ZT_STATE]
#if Z_HAS_WAIT_OBJ
    movs    r6, #0
    str     r6, [r2, #ZT_WAIT]      /* our result, when resumed */
#endif
    ldrb    r4, [r2, #ZT_PRIO]
    ldr     r1, [r2, #ZT_NEXT]
    LEAVE_RING_SWITCH
9:  b       z_thread_suspend_c      /* r0 is the argument */
    ENDFUNC z_thread_suspend_l
    FULL_ENTRY k_thread_suspend, z_thread_suspend_l

/* int k_thread_resume(struct k_thread *t) */
    FUNC z_thread_resume_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cmp     r0, #0
    it      ne
    cmpne   r2, #0
    beq     9f                      /* t NULL (C says K_EINVAL), or before k_start: C */
    THREAD_CALLER 9f
    MASKED_TO 9f, r4, r5            /* masked: C keeps the mask, pends the switch */
    IRQ_MASK r4
    ldrb    r4, [r0, #ZT_STATE]
    cmp     r4, #ZS_SUSPENDED
    bne     8f                      /* not suspended, or not a thread: C */
    movs    r4, #ZS_READY
    strb    r4, [r0, #ZT_STATE]
    ldrb    r4, [r0, #ZT_PRIO]
    add     r6, r3, r4, lsl #2      /* its ring's slot - ZK_READY */
    ldrb    r5, [r2, #ZT_PRIO]
    cmp     r4, r5
    bls     10f                     /* it does not outrank the caller: no switch */
    /* It outranks the caller, the top thread, so its ring is empty: it becomes the ring and
     * runs at once; the caller stays the head of its own ring. */
    str     r0, [r0, #ZT_NEXT]
    str     r0, [r6, #ZK_READY]
    PRIOBIT r5, r4
    LOAD_BITMAP r4
    orrs    r4, r5
    STORE_BITMAP r4
#if Z_HAS_WAIT_OBJ
    movs    r5, #0
    str     r5, [r2, #ZT_WAIT]      /* our result, when we run again */
#endif
    mov     r1, r0
    SWITCH_TAIL 1, 1
10: READY_AT_TAIL r0, r4, r6, r1, r5, r1
    IRQ_UNMASK r0
    bx      lr
8:  IRQ_UNMASK r3
9:  b       z_thread_resume_c       /* r0 is the argument */
    ENDFUNC z_thread_resume_l
    FULL_ENTRY k_thread_resume, z_thread_resume_l

#endif /* K_CONFIG_FASTPATH && K_CONFIG_SUSPEND */
