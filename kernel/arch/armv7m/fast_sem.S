/*
 * ARMv7-M fast paths of the semaphores (K_CONFIG_FASTPATH; see fast.S): k_sem_wait,
 * k_sem_signal, k_sem_signal_isr and k_sem_signal_irq. The steps of the ARMv6-M port's
 * (kernel/arch/armv6m/fast_sem.S), in Thumb-2.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* k_sem_signal's no-waiter path treats count, type and limit as one word */
#if ZS_COUNT % 4 != 0 || ZS_TYPE != ZS_COUNT + 2
#error "struct k_sem: z_count, z_type and z_limit must share one word, in that order"
#endif

/* The head waiter r1 of semaphore r0 leaves its wait queue, its result 0 (its timeout, if
 * any, stays, stale), its state ready; it joins no ring yet. Clobbers r2. */
    .macro WAITER_READY
    ldr     r2, [r1, #ZT_NEXT]
    str     r2, [r0, #ZS_WAITQ]
#if Z_HAS_WAIT_OBJ
    movs    r2, #0
    str     r2, [r1, #ZT_WAIT]
#endif
    movs    r2, #ZS_READY
    strb    r2, [r1, #ZT_STATE]
    .endm

/* int k_sem_wait(struct k_sem *s, k_timeout_t timeout) */
    FUNC z_sem_wait_l
    IRQ_SAVE_MASK r2                /* (the caller's BASEPRI in r12: kept, issue 31) */
#if K_CONFIG_CHECKS
    ldrb    r3, [r0, #ZS_TYPE]      /* NULL reads the vector table: not a type */
    ldrh    r2, [r0, #ZS_COUNT]     /* (pipelined) */
    cmp     r3, #ZO_SEM
    bne     8f
#else
    ldrh    r2, [r0, #ZS_COUNT]
#endif
    subs    r2, r2, #1              /* borrow (carry clear): no unit */
    bcc     1f
    strh    r2, [r0, #ZS_COUNT]
    msr     basepri, r12
    movs    r0, #0
    bx      lr
/* The entries of the inline wait (arch_inline.h, speed profile), the mask raised (the
 * caller's BASEPRI in r12): z_sem_wait_lb, a semaphore without a unit; z_sem_wait_lx, not a
 * semaphore. */
    .global z_sem_wait_lb
    .type   z_sem_wait_lb, %function
    .thumb_func
z_sem_wait_lb:
1:  adds    r2, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     8f                      /* K_NO_WAIT or a finite timeout: C */
/* z_sem_wait_lbf: the same for the inline wait of a constant K_FOREVER (r1 is K_FOREVER) */
    .global z_sem_wait_lbf
    .type   z_sem_wait_lbf, %function
    .thumb_func
z_sem_wait_lbf:
    mrs     r3, primask
    orrs    r3, r3, r12
    bne     8f                      /* the caller masked: C refuses to block (K_EMASKED) */
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
#if K_CONFIG_CHECKS
    cmp     r2, #0
    beq     8f                      /* before k_start: C returns K_ESTATE */
#endif
    /* (the checks before the light frame is pushed: r1 and r12 only) */
#if K_CONFIG_STACK_CHECK
    ldr     r12, [r2, #ZT_LIM]
#endif
#if Z_LAZY_TIMEOUTS
    ldr     r1, [r2, #ZT_TNEXT]
    cmp     r1, r2
    bne     7f                      /* a stale timeout of ours to remove: C */
#endif
    THREAD_CALLER_LIM 7f
#if K_CONFIG_STACK_CHECK
    ldr     r1, [r12]               /* the guard word at the limit */
    cmp     r1, r12
    bne     7f                      /* overwritten: C's switch reports it */
#endif
    FRAME_SAVE
    /* (three loads, then a store, in a row: each after the first takes one cycle, Cortex-M3
     * TRM 3.3.1; the order does not matter under the mask) */
    ldrb    r4, [r2, #ZT_PRIO]
    ldr     r1, [r2, #ZT_NEXT]      /* (before the wait queue reuses the link) */
    ldr     r6, [r0]                /* the wait queue's head */
#if Z_HAS_WAIT_OBJ
    str     r0, [r2, #ZT_WAIT]      /* the object waited on (its wait queue) */
#endif
    movs    r5, #ZS_BLOCKED
    strb    r5, [r2, #ZT_STATE]
    /* into the wait queue: after every waiter of higher or equal priority */
    cmp     r6, #0
    bne     4f
5:  str     r6, [r2, #ZT_NEXT]
    str     r2, [r0]
    LEAVE_RING_SWITCH 2
4:  ldrb    r5, [r6, #ZT_PRIO]      /* (a queue that has waiters) */
    cmp     r5, r4
    blo     5b
    adds    r0, r6, #ZT_NEXT
    ldr     r6, [r0]
    cmp     r6, #0
    bne     4b
    b       5b
7:  mov     r1, #-1                 /* the timeout was K_FOREVER (the caller unmasked) */
    IRQ_UNMASK r3
    b       z_sem_wait_c
    .global z_sem_wait_lx
    .type   z_sem_wait_lx, %function
    .thumb_func
z_sem_wait_lx:
8:  msr     basepri, r12            /* the caller's mask back: C keeps it */
    b       z_sem_wait_c            /* r0-r1 are the arguments */
    ENDFUNC z_sem_wait_l
    FULL_ENTRY k_sem_wait, z_sem_wait_l

/* int k_sem_signal(struct k_sem *s): the light routine takes s in r1 (and returns in r0),
 * so that the exclusive store's status is the result. Without a waiter, the count is
 * incremented with an exclusive load and store instead of masking: an interrupt (or a
 * switch) between them clears the local monitor, the store fails and the increment starts
 * again. One word holds the count (bits 0-15), the type and z_limit (bits 24-31, 0 meaning
 * 65535). */
    FUNC z_sem_signal_l
1:  ldrex   r2, [r1, #ZS_COUNT]
    ldr     r0, [r1, #ZS_WAITQ]
#if K_CONFIG_CHECKS
    ubfx    r3, r2, #16, #8
    cmp     r3, #ZO_SEM
    bne     19f                     /* not a semaphore (NULL reads the vector table): C */
#endif
    cbnz    r0, 2f                  /* a waiter (a timeout it has stays, stale: kernel_internal.h) */
    uxth    r0, r2
    cmp     r0, r2, lsr #24
    bhs     3f                      /* at the limit, or no limit (0) */
4:  adds    r2, r2, #1
    strex   r0, r2, [r1, #ZS_COUNT] /* 0: stored, the result */
    cbnz    r0, 5f
    bx      lr
3:  lsrs    r3, r2, #24
    cbnz    r3, 19f                 /* at the limit: C returns K_EOVERFLOW */
    movw    r3, #0xFFFF             /* no limit but the count's */
    cmp     r0, r3
    blo     4b
19: mov     r0, r1
    b       z_sem_signal_c          /* r0 is the argument */
5:  b       1b                      /* interrupted: again */
    .p2align 2                      /* (the waiter path's first instruction, 32-bit, aligned) */
/* The entry of the inline signal's waiter (arch_inline.h, speed profile): s in r1, its
 * exclusive load maybe still open. */
    .global z_sem_signal_lw
    .type   z_sem_signal_lw, %function
    .thumb_func
z_sem_signal_lw:
2:  MASKED_TO 19b, r2, r3           /* a waiter, the caller masked: C keeps the mask, pends
                                     * the switch (issue 31; without a waiter no mask is
                                     * touched). (No CLREX for the exclusive load left open:
                                     * every STREX follows its own LDREX, and an exception's
                                     * entry or return clears the monitor.) */
    mov     r0, r1
    IRQ_MASK r1
    /* (four loads in a row, 5 cycles, Cortex-M3 TRM 3.3.1: the waiter again, masked, as an
     * interrupt may have taken it; its priority, a NULL one's read from the vector table) */
    ldr     r1, [r0, #ZS_WAITQ]
    ldr     r3, =z_kernel
    ldrb    r12, [r1, #ZT_PRIO]     /* p */
    LOAD_BITMAP r2
#if defined(__ARM_FP) /* (SWITCH_TAIL's FP context puts 8f beyond CBZ's 126 bytes) */
    cmp     r1, #0
    beq     8f                      /* gone: C counts */
#else
    cbz     r1, 8f                  /* gone: C counts */
#endif
    /* The waiter preempts if no ready ring (the caller's included) has its priority or a
     * higher one: then it is also alone in its ring. */
#if K_CONFIG_PRIO_LEVELS > 8
    /* bit K-1-q stands for priority q: the bits at K-1-p and below must be clear */
    lsl     r2, r2, #(32 - K_CONFIG_PRIO_LEVELS)
    lsls    r2, r2, r12             /* (what is left: the rings of priority p and above) */
#else
    lsrs    r2, r2, r12             /* (what is left: the rings of priority p and above) */
#endif
    bne     10f                     /* no preemption: the waiter just becomes ready */
    FRAME_SAVE                      /* a switch: r4-r11 are ours from here */
    /* (the loads in a row, then each store after an instruction that is not one: a store
     * right after a store takes 2, TRM 3.3.1; the stack limit and its guard word loaded here
     * for the check below) */
    ldr     r2, [r3, #ZK_CURRENT]
    LOAD_BITMAP r5
#if K_CONFIG_STACK_CHECK
    ldr     r7, [r2, #ZT_LIM]
#endif
    ldr     r4, [r1, #ZT_NEXT]
#if K_CONFIG_STACK_CHECK
    ldr     r8, [r7]                /* the guard word at the limit */
#endif
    ldr     r10, [r1, #ZT_SP]       /* (for the switch) */
    str     r4, [r0, #ZS_WAITQ]
    movs    r4, #ZS_READY
    /* (the waiter's result is 0: the tail) the waiter outranks every ready thread: it is
     * alone in its ring */
    str     r1, [r1, #ZT_NEXT]
    add     r6, r3, r12, lsl #2
    strb    r4, [r1, #ZT_STATE]
#if Z_HAS_WAIT_OBJ
    movs    r4, #0
#endif
    str     r1, [r6, #ZK_READY]
    PRIOBIT r9, r12
#if Z_HAS_WAIT_OBJ
    str     r4, [r2, #ZT_WAIT]      /* our result, when we run again */
#endif
    orrs    r5, r9
    STORE_BITMAP r5
#if K_CONFIG_STACK_CHECK
    /* (the switch's stack check, SAVE_LIGHT's, on the SP it saves: after every change, as
     * there) */
    cmp     sp, r7
    bls     92f                     /* overflow, or a thread call made in an interrupt */
    cmp     r8, r7
    bne     92f                     /* the guard word at the limit was overwritten */
#endif
    SWITCH_TAIL 1, 2, r10
8:  IRQ_UNMASK r3                   /* (here, within CBZ's reach) */
    b       z_sem_signal_c          /* r0 is the argument */
10: /* a waiter that does not preempt (a ready ring of its priority or above, the caller's
     * included): off the wait queue (its timeout, if any, stays, stale), its result 0,
     * at the tail of its ring; no switch. r12 = its priority; r4-r11 untouched. */
    ldr     r2, [r1, #ZT_NEXT]
    str     r2, [r0, #ZS_WAITQ]
    add     r0, r3, r12, lsl #2
    movs    r2, #ZS_READY
    strb    r2, [r1, #ZT_STATE]
    READY_AT_TAIL_KEEP r1, r12, r0, r2
    movs    r0, #0                  /* (the result) */
#if Z_HAS_WAIT_OBJ
    str     r0, [r1, #ZT_WAIT]
#endif
    msr     basepri, r0             /* (IRQ_UNMASK) */
    bx      lr
    ENDFUNC z_sem_signal_l
    FUNC k_sem_signal               /* (the AAPCS entry: s from r0 to r1) */
    mov     r1, r0
    b       z_sem_signal_l
    ENDFUNC k_sem_signal

/* int k_sem_signal_isr(struct k_sem *s): any context. Only the caller-saved registers (no
 * stack), BASEPRI saved and restored (a thread may call it masked); the mask is raised with
 * BASEPRI_MAX, which never lowers it.
 * int k_sem_signal_irq(struct k_sem *s): the same for an interrupt handler that runs
 * unmasked (its documented precondition): the mask set and lifted, not saved. Its slow
 * path is k_sem_signal_isr's. */
    .macro IRQ_ENTER irq
    .if \irq
    IRQ_MASK r12
    .else
    mrs     r12, basepri
    movs    r3, #0x20
    msr     basepri_max, r3
    .endif
    .endm
    .macro IRQ_RESTORE irq
    .if \irq
    IRQ_UNMASK r12
    .else
    msr     basepri, r12
    .endif
    .endm

    .macro SEM_SIGNAL_ISR name, irq
    FUNC \name
#if K_CONFIG_CHECKS
    ldrb    r3, [r0, #ZS_TYPE]
    cmp     r3, #ZO_SEM
    bne     9f
#endif
    IRQ_ENTER \irq
    ldr     r1, [r0, #ZS_WAITQ]
    cbz     r1, 5f                  /* (a timeout the waiter has stays, stale) */
    WAITER_READY
    /* to the tail of its ring: r0 = its priority, r2 = its ring slot - ZK_READY */
    ldr     r3, =z_kernel
    ldrb    r0, [r1, #ZT_PRIO]
    add     r2, r3, r0, lsl #2
    ldr     r3, [r2, #ZK_READY]     /* the old tail */
    str     r1, [r2, #ZK_READY]
    cbnz    r3, 1f
    str     r1, [r1, #ZT_NEXT]      /* alone (the usual case of a waiter that preempts): its
                                     * ring becomes non-empty */
    PRIOBIT r2, r0
    ldr     r3, =z_kernel
    LOAD_BITMAP r1
    orrs    r1, r2
    STORE_BITMAP r1
    b       2f
1:  ldr     r2, [r3, #ZT_NEXT]
    str     r2, [r1, #ZT_NEXT]
    str     r1, [r3, #ZT_NEXT]
    ldr     r3, =z_kernel
2:  /* preempt the interrupted thread? (PendSV switches when the interrupts return) */
    ldr     r2, [r3, #ZK_CURRENT]   /* (not NULL: a waiter means k_start has run) */
    ldrb    r2, [r2, #ZT_PRIO]
    cmp     r0, r2
    bls     3f
    ldr     r2, =ICSR
    mov     r3, #PENDSVSET
    str     r3, [r2]
3:  IRQ_RESTORE \irq
    movs    r0, #0
    bx      lr
5:  /* no waiter: count, up to the limit. One word holds the count (bits 0-15), the type
     * and z_limit (bits 24-31): it is loaded, incremented and stored whole. No limit (0:
     * 65535, an event counter's, Thread-Metric's) falls through. */
    ldr     r1, [r0, #ZS_COUNT]
    adds    r1, r1, #1
    lsrs    r2, r1, #16             /* z_limit 0 and the type unchanged: no limit and */
    cmp     r2, #ZO_SEM             /* 65535 not passed */
    bne     7f
6:  str     r1, [r0, #ZS_COUNT]
    IRQ_RESTORE \irq
    movs    r0, #0
    bx      lr
7:  lsrs    r2, r1, #24             /* z_limit */
    beq     8f                      /* none: 65535 wrapped (into the type byte), C */
    uxth    r3, r1
    cmp     r3, r2
    bls     6b                      /* above the limit: C returns K_EOVERFLOW */
8:  IRQ_RESTORE \irq
9:  b       z_sem_signal_isr_c      /* r0 is the argument */
    ENDFUNC \name
    .endm
    SEM_SIGNAL_ISR k_sem_signal_isr, 0
#if !K_CONFIG_ASSERT
    SEM_SIGNAL_ISR k_sem_signal_irq, 1
#endif

#endif /* K_CONFIG_FASTPATH */
