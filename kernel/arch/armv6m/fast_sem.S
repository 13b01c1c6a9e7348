/*
 * ARMv6-M fast paths of the semaphores (K_CONFIG_FASTPATH; see fast.S): k_sem_wait,
 * k_sem_signal, k_sem_signal_isr and k_sem_signal_irq.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* k_sem_signal's no-waiter path treats count, type and limit as one word */
#if ZS_COUNT % 4 != 0 || ZS_TYPE != ZS_COUNT + 2
#error "struct k_sem: z_count, z_type and z_limit must share one word, in that order"
#endif

/* The wait's first steps: the type and the caller's PRIMASK (to \other: not a semaphore or a
 * masked caller, interrupts as the caller had them), then, under the mask, the count less one
 * in r2: borrow (carry clear) when there is no unit. */
    .macro SEM_WAIT_TAKE other
    TYPED_UNMASKED \other, ZS_TYPE, ZO_SEM
    cpsid   i
    ldrh    r2, [r0, #ZS_COUNT]
    subs    r2, r2, #1
    .endm

/* int k_sem_wait(struct k_sem *s, k_timeout_t timeout) */
    FUNC z_sem_wait_l
    SEM_WAIT_TAKE 9f
    bcc     2f                      /* no unit */
    strh    r2, [r0, #ZS_COUNT]
    cpsie   i
    movs    r0, #0
    bx      lr
/* The same for a timeout known to be K_FOREVER (the light call's, for a constant K_FOREVER):
 * r1 is not an argument (the ways to C set it) and is not tested. No unit: the save of r4-r6
 * and z_sem_wait_lb past its test (z_sem_wait_lb0), here; the blocking path falls through and
 * the available one branches (2 cycles each way: vp-m0 size sem.wait_block.live 165 -> 163
 * against ChibiOS/RT's 165, sem.wait_available 30 -> 32 against ThreadX's 39;
 * docs/kernel-costs.md, eleventh round). */
    .global z_sem_wait_lf
    .type   z_sem_wait_lf, %function
    .thumb_func
z_sem_wait_lf:
    SEM_WAIT_TAKE 6f
    bcs     5f
    push    {r4-r6, lr}
    bl      0f
    pop     {r4-r6, pc}
5:  strh    r2, [r0, #ZS_COUNT]
    cpsie   i
    movs    r0, #0
    bx      lr
6:  movs    r1, #0
    mvns    r1, r1
    b       9f
/* No unit, for a caller that keeps r4-r7 (arch_inline.h: the light call's clobbers leave
 * them out; the speed profile's inline wait enters here too), interrupts masked by the
 * CPSID, r0-r1 the arguments. K_FOREVER: z_sem_wait_lb behind a save of r4-r6 (r7 is in the
 * switch's light frame; 16 bytes, the stack 8-byte aligned for the C it may go to; the stack
 * check of z_sem_wait_lb sees the SP below them, as below any C function's frame). Any other
 * timeout goes to the C (AAPCS code) straight: the deep stack of a timed wait gets nothing
 * more. */
    .global z_sem_wait_lbs
    .type   z_sem_wait_lbs, %function
    .thumb_func
z_sem_wait_lbs:
2:  adds    r2, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     8f                      /* (C) */
    push    {r4-r6, lr}
    bl      0f                      /* (z_sem_wait_lb past its test of the timeout) */
    pop     {r4-r6, pc}
/* The entries of the inline wait (arch_inline.h, speed profile): z_sem_wait_lb, a semaphore
 * without a unit, interrupts masked by its CPSID; z_sem_wait_lb0, the same for K_FOREVER past
 * the test of the timeout, for a caller that saved r4-r6 (the inline wait for a constant
 * K_FOREVER: 16 bytes, as z_sem_wait_lbs's save; r1 need not be set, every way to C past the
 * test sets it); z_sem_wait_lx, not a semaphore or a masked caller, interrupts as the caller
 * had them. r0, r1: the arguments. */
    .global z_sem_wait_lb
    .type   z_sem_wait_lb, %function
    .thumb_func
z_sem_wait_lb:
1:  adds    r2, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     8f                      /* K_NO_WAIT or a finite timeout: C */
    .global z_sem_wait_lb0
    .type   z_sem_wait_lb0, %function
    .thumb_func
z_sem_wait_lb0:
0:  ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
#if K_CONFIG_CHECKS
    cmp     r2, #0
    beq     7f                      /* before k_start: C returns K_ESTATE */
#endif
#if Z_LAZY_TIMEOUTS
    ldr     r1, [r2, #ZT_TNEXT]
    cmp     r1, r2
    bne     7f                      /* a stale timeout of ours to remove: C */
#endif
    THREAD_CALLER 7f
    ldrb    r4, [r2, #ZT_PRIO]
    movs    r6, #ZS_BLOCKED
    strb    r6, [r2, #ZT_STATE]
#if Z_HAS_WAIT_OBJ
    str     r0, [r2, #ZT_WAIT]      /* the object waited on (its wait queue) */
#endif
    ldr     r1, [r2, #ZT_NEXT]      /* (before the wait queue reuses the link) */
    /* into the wait queue: after every waiter of higher or equal priority */
4:  ldr     r6, [r0]
    cmp     r6, #0
    beq     5f
    ldrb    r5, [r6, #ZT_PRIO]
    cmp     r5, r4
    blo     5f
    adds    r0, r6, #ZT_NEXT
    b       4b
5:  str     r6, [r2, #ZT_NEXT]
    str     r2, [r0]
    LEAVE_RING_SWITCH z_sem_wait_l_table
7:  movs    r1, #0
    mvns    r1, r1                  /* the timeout was K_FOREVER */
8:  cpsie   i
    .global z_sem_wait_lx
    .type   z_sem_wait_lx, %function
    .thumb_func
z_sem_wait_lx:
9:  ldr     r3, =z_sem_wait_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC z_sem_wait_l, 1
    FULL_ENTRY k_sem_wait, z_sem_wait_l

/* int k_sem_signal(struct k_sem *s) */
    FUNC z_sem_signal_l
    TYPED_UNMASKED 9f, ZS_TYPE, ZO_SEM
    cpsid   i
    ldr     r1, [r0, #ZS_WAITQ]
    cmp     r1, #0
    beq     5f                      /* (a timeout the waiter has stays, stale: kernel_internal.h) */
/* The entries of the inline signal (arch_inline.h, speed profile): z_sem_signal_lw, the
 * head waiter in r1, interrupts masked by its CPSID; z_sem_signal_lx, not a semaphore, a
 * masked caller or a count C handles, interrupts as the caller had them. r0: the argument. */
    .global z_sem_signal_lw
    .type   z_sem_signal_lw, %function
    .thumb_func
z_sem_signal_lw:
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    ldrb    r4, [r1, #ZT_PRIO]
    /* The waiter preempts if no ready ring (the caller's included) has its priority or a
     * higher one: then it is also alone in its ring. */
#if K_CONFIG_PRIO_LEVELS > 8
    /* bit K-1-q stands for priority q: the bits at K-1-p and below must be clear */
    LOAD_BITMAP r5
    lsls    r6, r5, #(32 - K_CONFIG_PRIO_LEVELS)
    lsls    r6, r4                  /* (what is left: the rings of priority p and above) */
    bne     10f                     /* no preemption: the waiter just becomes ready */
#if Z_HAS_WAIT_OBJ
    str     r6, [r2, #ZT_WAIT]      /* (r6 = 0) our result, when we run again */
#endif
    PRIOBIT r6, r4
#else
    PRIOBIT r6, r4
    LOAD_BITMAP r5
    cmp     r6, r5
    bls     10f                     /* no preemption: the waiter just becomes ready */
#endif
    orrs    r5, r6
    STORE_BITMAP r5
    ldr     r5, [r1, #ZT_NEXT]
    str     r5, [r0, #ZS_WAITQ]
#if Z_HAS_WAIT_OBJ && K_CONFIG_PRIO_LEVELS <= 8
    movs    r5, #0
    str     r5, [r2, #ZT_WAIT]      /* our result, when we run again */
#endif
    /* (the waiter's result is 0: the tail) the waiter outranks every ready thread: it is
     * alone in its ring */
    str     r1, [r1, #ZT_NEXT]
    lsls    r6, r4, #2
    adds    r6, r6, r3
    str     r1, [r6, #ZK_READY]
    movs    r6, #ZS_READY
    strb    r6, [r1, #ZT_STATE]
    SWITCH_TAIL 1, 0, 1
5:  /* no waiter: count, up to the limit. One word holds the count (bits 0-15), the type
     * and z_limit (bits 24-31): it is loaded, incremented and stored whole. */
    ldr     r2, [r0, #ZS_COUNT]
    adds    r2, r2, #1
    lsrs    r3, r2, #24             /* z_limit: 0 means 65535 */
    beq     6f
    uxth    r1, r2                  /* (a limit of 1..255: the count cannot wrap) */
    cmp     r1, r3
    bhi     8f                      /* at the limit: C returns K_EOVERFLOW */
7:  str     r2, [r0, #ZS_COUNT]
    cpsie   i
    movs    r0, #0
    bx      lr
6:  lsls    r1, r2, #16             /* the count wrapped (into the type byte): C */
    bne     7b
    b       8f
10: /* a waiter that does not preempt (a ready ring of its priority or above, the caller's
     * included): off the wait queue (its timeout, if any, stays, stale), its result 0,
     * at the tail of its ring; no switch. r5 = the bitmap. */
    ldr     r6, [r1, #ZT_NEXT]
    str     r6, [r0, #ZS_WAITQ]
    movs    r6, #0
#if Z_HAS_WAIT_OBJ
    str     r6, [r1, #ZT_WAIT]
#endif
    movs    r6, #ZS_READY
    strb    r6, [r1, #ZT_STATE]
    lsls    r6, r4, #2
    adds    r6, r6, r3
    READY_AT_TAIL r1, r4, r6, r2, r5, r2, r0, 1
    cpsie   i
    movs    r0, #0
    bx      lr
8:  cpsie   i
    .global z_sem_signal_lx
    .type   z_sem_signal_lx, %function
    .thumb_func
z_sem_signal_lx:
9:  ldr     r3, =z_sem_signal_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC z_sem_signal_l
    FULL_ENTRY k_sem_signal, z_sem_signal_l

/* int k_sem_signal_isr(struct k_sem *s): any context. Only the caller-saved registers (no
 * stack), PRIMASK saved and restored (a thread may call it with interrupts disabled).
 * int k_sem_signal_irq(struct k_sem *s): the same for an interrupt handler that runs with
 * interrupts enabled (its documented precondition): CPSID/CPSIE (1 cycle each) instead of
 * saving and restoring PRIMASK (MRS and MSR, 4 each). Its slow path is k_sem_signal_isr's. */
    .macro IRQ_RESTORE irq
    .if \irq
    cpsie   i
    .else
    msr     primask, r12
    .endif
    .endm

/* preempt the interrupted thread? (PendSV switches when the interrupts return); r0 = the
 * woken thread's priority, r3 = &z_kernel */
    .macro PREEMPT_TAIL irq
    ldr     r2, [r3, #ZK_CURRENT]   /* (not NULL: a waiter means k_start has run) */
    ldrb    r2, [r2, #ZT_PRIO]
    cmp     r0, r2
    bls     3f
    ldr     r2, =ICSR
    ldr     r3, =PENDSVSET
    str     r3, [r2]
3:  IRQ_RESTORE \irq
    movs    r0, #0
    bx      lr
    .endm

    .macro SEM_SIGNAL_ISR name, irq
    FUNC \name
#if K_CONFIG_CHECKS
    ldrb    r3, [r0, #ZS_TYPE]
    cmp     r3, #ZO_SEM
    bne     9f
#endif
    .if \irq
    cpsid   i
    .else
    mrs     r12, primask
    cpsid   i
    .endif
    ldr     r1, [r0, #ZS_WAITQ]
    cmp     r1, #0
    beq     5f                      /* (a timeout the waiter has stays, stale) */
    .if \irq
/* The waiter's path of the inline k_sem_signal_irq (arch_inline.h, speed profile): r0 = s,
 * r1 = the head waiter, interrupts masked by its CPSID; r12 is not used (its caller keeps
 * LR there) */
    .global z_sem_signal_irq_w
    .type   z_sem_signal_irq_w, %function
    .thumb_func
z_sem_signal_irq_w:
    .endif
    ldr     r2, [r1, #ZT_NEXT]
    str     r2, [r0, #ZS_WAITQ]
#if Z_HAS_WAIT_OBJ
    movs    r2, #0
    str     r2, [r1, #ZT_WAIT]
#endif
    movs    r2, #ZS_READY
    strb    r2, [r1, #ZT_STATE]
    /* to the tail of its ring: r0 = its priority, r2 = its ring slot - ZK_READY */
    ldr     r3, =z_kernel
    ldrb    r0, [r1, #ZT_PRIO]
    lsls    r2, r0, #2
    adds    r2, r2, r3
    ldr     r3, [r2, #ZK_READY]     /* the old tail */
    str     r1, [r2, #ZK_READY]
    cmp     r3, #0
    bne     1f
    str     r1, [r1, #ZT_NEXT]      /* alone (the usual case of a waiter that preempts): its
                                     * ring becomes non-empty */
    PRIOBIT r2, r0
    ldr     r3, =z_kernel
    LOAD_BITMAP r1
    orrs    r1, r2
    STORE_BITMAP r1
    PREEMPT_TAIL \irq              /* (expanded twice: no branch to a common end) */
1:  ldr     r2, [r3, #ZT_NEXT]
    str     r2, [r1, #ZT_NEXT]
    str     r1, [r3, #ZT_NEXT]
    ldr     r3, =z_kernel
    PREEMPT_TAIL \irq
5:  ldrh    r1, [r0, #ZS_COUNT]
    adds    r1, r1, #1
    ldrb    r2, [r0, #ZS_TYPE + 1]
    cmp     r2, #0
    beq     6f
    cmp     r1, r2
    bhi     8f
6:  lsrs    r2, r1, #16
    bne     8f
    strh    r1, [r0, #ZS_COUNT]
    IRQ_RESTORE \irq
    movs    r0, #0
    bx      lr
8:  IRQ_RESTORE \irq
9:  ldr     r3, =z_sem_signal_isr_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC \name
    .endm
    SEM_SIGNAL_ISR k_sem_signal_isr, 0
#if !K_CONFIG_ASSERT
    SEM_SIGNAL_ISR k_sem_signal_irq, 1
#endif

#endif /* K_CONFIG_FASTPATH */
