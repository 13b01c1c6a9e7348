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
    MASKED_TO 9f, r1, r12           /* masked: C refuses (K_EMASKED), the mask kept */
    THREAD_CALLER 9f
    IRQ_MASK r1
    FRAME_SAVE
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
#if K_CONFIG_CHECKS
    cmp     r0, #0
    it      ne
    cmpne   r2, #0
    beq     9f                      /* t NULL (C says K_EINVAL), or before k_start: C */
#else
    cmp     r2, #0
    beq     9f                      /* before k_start: C */
#endif
    MASKED_TO 9f, r1, r12           /* masked: C keeps the mask, pends the switch */
    THREAD_CALLER 9f
    IRQ_MASK r1
    ldrb    r1, [r0, #ZT_STATE]
    cmp     r1, #ZS_SUSPENDED
    bne     8f                      /* not suspended, or not a thread: C */
    movs    r1, #ZS_READY
    strb    r1, [r0, #ZT_STATE]
    ldrb    r1, [r0, #ZT_PRIO]
    ldrb    r12, [r2, #ZT_PRIO]
    cmp     r1, r12
    bls     10f                     /* it does not outrank the caller: no switch */
    /* It outranks the caller, the top thread, so its ring is empty: it becomes the ring and
     * runs at once; the caller stays the head of its own ring. */
    FRAME_SAVE
#if K_CONFIG_STACK_CHECK
    ldr     r12, [r2, #ZT_LIM]      /* (for the switch: THREAD_CALLER compared the SP) */
#endif
    mov     r4, r1
    add     r6, r3, r4, lsl #2      /* its ring's slot - ZK_READY */
    RING_FILLS r0, r6, r4, r5, r4
#if Z_HAS_WAIT_OBJ
    movs    r5, #0
    str     r5, [r2, #ZT_WAIT]      /* our result, when we run again */
#endif
    mov     r1, r0
    SWITCH_TAIL 1, 1
10: /* r1 = its priority; r4-r11 untouched */
    add     r2, r3, r1, lsl #2      /* its ring's slot - ZK_READY */
    READY_AT_TAIL_KEEP r0, r1, r2, r12
    IRQ_UNMASK r0
    bx      lr
8:  IRQ_UNMASK r3
9:  b       z_thread_resume_c       /* r0 is the argument */
    ENDFUNC z_thread_resume_l
    FULL_ENTRY k_thread_resume, z_thread_resume_l

#endif /* K_CONFIG_FASTPATH && K_CONFIG_SUSPEND */
