/*
 * ARMv6-M fast paths (K_CONFIG_FASTPATH): the hot calls written for the cycle counts of a
 * Cortex-M0, with the portable C versions (z_*_c) as their slow paths. Everything that is not
 * the common case (a timeout, an error, a waiter of lower priority, an interrupted target)
 * branches to the C function with the original arguments, so behaviour is the C code's.
 *
 *   k_yield            rotate the caller's ring, synchronous switch
 *   k_sem_wait         take a unit, or block (K_FOREVER) and switch
 *   k_sem_signal       count, or hand the unit to a higher-priority waiter and switch to it
 *   k_sem_signal_isr   count, or hand the unit to a waiter and pend PendSV if it preempts
 *   k_mutex_lock/unlock  the uncontended cases
 *   k_thread_prio_set  a ready thread, no mutex contended anywhere
 *   PendSV_Handler     save, choose the next thread (bitmap + table), restore
 *
 * The calls that may switch (k_yield, k_sem_wait, k_sem_signal, k_thread_prio_set) are
 * "light" routines z_*_l, which the inline wrappers of kernel.h call with every register but
 * r7 declared clobbered (switch_tail.inc), so a switch saves only r7 and the return address;
 * the k_* symbols are the same routines for AAPCS callers, through z_call_full. A light
 * routine must leave r7 alone until its SWITCH_TAIL, and may use r0-r6 and r12 freely.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

    .syntax unified
    .cpu cortex-m0
    .thumb

#include "idle.inc"

    .equ ICSR, 0xE000ED04
    .equ PENDSVSET, 0x10000000

/* Each function has its own section (unused ones are dropped by --gc-sections), with its
 * own literal pool and, where it chooses a thread, its own copy of the priority table. */
    .macro FUNC name
    .section .text.\name, "ax", %progbits
    .global \name
    .type \name, %function
    .thumb_func
\name:
    .endm

    .macro ENDFUNC name, table=0
    .ltorg
    .if \table
    .align 2
\name\()_table:
#if K_CONFIG_PRIO_LEVELS > 8
    .byte KM1-0, KM1-1, KM1-28, KM1-2, KM1-29, KM1-14, KM1-24, KM1-3
    .byte KM1-30, KM1-22, KM1-20, KM1-15, KM1-25, KM1-17, KM1-4, KM1-8
    .byte KM1-31, KM1-27, KM1-13, KM1-23, KM1-21, KM1-19, KM1-16, KM1-7
    .byte KM1-26, KM1-12, KM1-18, KM1-6, KM1-11, KM1-5, KM1-10, KM1-9
#else
    .byte 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3
#endif
    .endif
    .size \name, . - \name
    .endm

#if K_CONFIG_PRIO_LEVELS > 8
    .equ KM1, K_CONFIG_PRIO_LEVELS - 1    /* table entry: priority = K-1 - bit position */
#endif

/* Fast paths and their C slow paths may be far apart: literal + BX (r3 is free there). */

/* The priority of the highest set bit of \bm (non-zero) into \out; clobbers \tmp, \bm.
 * More than 8 levels: bit K-1-p stands for p; lowest set bit by a de Bruijn multiply. */
    .macro TOPPRIO bm, out, tmp, table
#if K_CONFIG_PRIO_LEVELS > 8
    negs    \out, \bm
    ands    \bm, \out
    ldr     \out, =0x077CB531
    muls    \bm, \out
    lsrs    \bm, \bm, #27
    adr     \tmp, \table
    ldrb    \out, [\tmp, \bm]
#elif K_CONFIG_PRIO_LEVELS > 4
    adr     \tmp, \table
    lsrs    \out, \bm, #4
    beq     87f
    ldrb    \out, [\tmp, \out]
    adds    \out, #4
    b       88f
87: ldrb    \out, [\tmp, \bm]    /* (labels no caller uses: a caller's branch may cross) */
88:
#else
    adr     \tmp, \table
    ldrb    \out, [\tmp, \bm]
#endif
    .endm

/* \dst = the bitmap bit of priority \prio (clobbers nothing else). */
    .macro PRIOBIT dst, prio
#if K_CONFIG_PRIO_LEVELS > 8
    ldr     \dst, =(1 << (K_CONFIG_PRIO_LEVELS - 1))
    lsrs    \dst, \prio
#else
    movs    \dst, #1
    lsls    \dst, \prio
#endif
    .endm

    .macro LOAD_BITMAP dst
#if K_CONFIG_PRIO_LEVELS > 8
    ldrh    \dst, [r3, #ZK_BITMAP]
#else
    ldrb    \dst, [r3, #ZK_BITMAP]
#endif
    .endm

    .macro STORE_BITMAP src
#if K_CONFIG_PRIO_LEVELS > 8
    strh    \src, [r3, #ZK_BITMAP]
#else
    strb    \src, [r3, #ZK_BITMAP]
#endif
    .endm

#include "switch_tail.inc"

/* The AAPCS entry \name of the light routine \light (r0, r1: its arguments) */
    .macro FULL_ENTRY name, light
    FUNC \name
    ldr     r3, =\light
    ldr     r2, =z_call_full
    bx      r2
    ENDFUNC \name
    .endm

/* void k_yield(void) */
    FUNC z_yield_l
    ldr     r3, =z_kernel
    cpsid   i
    ldr     r2, [r3, #ZK_CURRENT]
    ldr     r1, [r2, #ZT_NEXT]
    cmp     r1, r2
    beq     1f                      /* alone at its priority */
    ldrb    r0, [r2, #ZT_PRIO]
    lsls    r0, r0, #2
    adds    r0, r0, r3
    str     r2, [r0, #ZK_READY]     /* the caller becomes the tail of its ring */
    SWITCH_TAIL
1:  cpsie   i
    bx      lr
    ENDFUNC z_yield_l
    FULL_ENTRY k_yield, z_yield_l

/* int k_sem_wait(struct k_sem *s, k_timeout_t timeout) */
    FUNC z_sem_wait_l
    ldrb    r3, [r0, #ZS_TYPE]      /* NULL reads the vector table: not a type */
    cmp     r3, #ZO_SEM
    bne     9f
    cpsid   i
    ldrh    r2, [r0, #ZS_COUNT]
    subs    r2, r2, #1              /* borrow (carry clear): no unit */
    bcc     1f
    strh    r2, [r0, #ZS_COUNT]
    cpsie   i
    movs    r0, #0
    bx      lr
1:  adds    r2, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     8f                      /* K_NO_WAIT or a finite timeout: C */
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cmp     r2, #0
    beq     8f                      /* before k_start: C returns K_ESTATE */
#if Z_LAZY_TIMEOUTS
    ldr     r1, [r2, #ZT_TNEXT]
    cmp     r1, r2
    bne     7f                      /* a stale timeout of ours to remove: C */
#endif
#if K_CONFIG_STACK_CHECK
    /* The stack check of the switch, done now on the SP the switch will save (8 bytes
     * lower): it also sends a call made in an interrupt (on MSP, below every thread stack)
     * to C, which returns K_EISR (and a thread that overflowed to C's switch, which reports) */
    ldr     r1, [r2, #ZT_LIM]
    adds    r1, #8
    cmp     sp, r1
    bls     7f
#else
    mrs     r1, ipsr
    cmp     r1, #0
    bne     7f                      /* in an interrupt: C returns K_EISR */
#endif
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
    /* the caller leaves its ring; it is the head, so its predecessor is the tail */
    lsls    r5, r4, #2
    adds    r5, r5, r3
    cmp     r1, r2
    bne     2f
    movs    r6, #0                  /* alone: the ring empties */
    str     r6, [r5, #ZK_READY]
    PRIOBIT r6, r4
    LOAD_BITMAP r5
    bics    r5, r6
    STORE_BITMAP r5
    beq     6f                      /* nothing ready: PendSV idles */
    /* the next thread: head of the highest non-empty ring */
    TOPPRIO r5, r4, r6, z_sem_wait_l_table
    lsls    r4, r4, #2
    adds    r4, r4, r3
    ldr     r4, [r4, #ZK_READY]
    ldr     r1, [r4, #ZT_NEXT]
3:  SWITCH_TAIL 0, 1
2:  /* others at its priority: the next one is the top thread */
    ldr     r6, [r5, #ZK_READY]
    str     r1, [r6, #ZT_NEXT]
    b       3b
6:  b       z_switch_idle_l
7:  movs    r1, #0
    mvns    r1, r1                  /* the timeout was K_FOREVER */
8:  cpsie   i
9:  ldr     r3, =z_sem_wait_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC z_sem_wait_l, 1
    FULL_ENTRY k_sem_wait, z_sem_wait_l

/* int k_sem_signal(struct k_sem *s) */
    FUNC z_sem_signal_l
    ldrb    r3, [r0, #ZS_TYPE]
    cmp     r3, #ZO_SEM
    bne     9f
    cpsid   i
    ldr     r1, [r0, #ZS_WAITQ]
    cmp     r1, #0
    beq     5f                      /* (a timeout the waiter has stays, stale: kernel_internal.h) */
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
5:  /* no waiter: count, up to the limit */
    ldrh    r1, [r0, #ZS_COUNT]
    adds    r1, r1, #1
    ldrb    r2, [r0, #ZS_TYPE + 1]  /* z_limit: 0 means 65535 */
    cmp     r2, #0
    beq     6f
    cmp     r1, r2
    bhi     8f                      /* at the limit: C returns K_EOVERFLOW */
6:  lsrs    r2, r1, #16
    bne     8f
    strh    r1, [r0, #ZS_COUNT]
    cpsie   i
    movs    r0, #0
    bx      lr
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
    ldr     r2, [r6, #ZK_READY]     /* the tail */
    cmp     r2, #0
    bne     11f
    str     r1, [r1, #ZT_NEXT]      /* alone in its ring */
    PRIOBIT r2, r4
    orrs    r5, r2
    STORE_BITMAP r5
    b       12f
11: ldr     r0, [r2, #ZT_NEXT]
    str     r0, [r1, #ZT_NEXT]
    str     r1, [r2, #ZT_NEXT]
12: str     r1, [r6, #ZK_READY]     /* the new tail */
    cpsie   i
    movs    r0, #0
    bx      lr
8:  cpsie   i
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
    ldrb    r3, [r0, #ZS_TYPE]
    cmp     r3, #ZO_SEM
    bne     9f
    .if \irq
    cpsid   i
    .else
    mrs     r12, primask
    cpsid   i
    .endif
    ldr     r1, [r0, #ZS_WAITQ]
    cmp     r1, #0
    beq     5f                      /* (a timeout the waiter has stays, stale) */
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

/* int k_thread_prio_set(struct k_thread *t, unsigned prio) */
    FUNC z_thread_prio_set_l
    ldr     r3, =z_kernel
    ldr     r2, [r3, #ZK_CURRENT]
    cmp     r0, #0
    bne     1f
    movs    r0, r2                  /* NULL: the caller */
    cmp     r0, #0
    beq     9f                      /* not started: C */
1:  cmp     r1, #K_CONFIG_PRIO_LEVELS
    bhs     9f                      /* C says K_EINVAL */
#if K_CONFIG_MUTEX
    ldr     r4, [r3, #ZK_CONTENDED]
    cmp     r4, #0
    bne     9f                      /* inheritance in play: C */
#endif
#if !K_CONFIG_STACK_CHECK
    mrs     r4, ipsr                /* (with the stack check, the switch catches it) */
    cmp     r4, #0
    bne     9f                      /* C says K_EISR */
#endif
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
    str     r0, [r0, #ZT_NEXT]
    str     r0, [r5, #ZK_READY]
    PRIOBIT r6, r1
    LOAD_BITMAP r4
    orrs    r4, r6
    STORE_BITMAP r4
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

#if K_CONFIG_MUTEX
/* int k_mutex_lock(struct k_mutex *m, k_timeout_t timeout): the uncontended case (the same
 * as the inline version in kernel.h: the lock word Z_MUTEX_FREE, the address of z_kernel,
 * means a free, valid mutex; SP below z_kernel means an interrupt, which C refuses) */
    FUNC k_mutex_lock
    ldr     r3, =z_kernel
    cpsid   i
    ldr     r2, [r0, #ZM_OWNER]
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    cmp     r2, r3
    bne     8f
    ldr     r2, [r3, #ZK_CURRENT]
    str     r2, [r0, #ZM_OWNER]
    cpsie   i
    movs    r0, #0
    bx      lr
8:  cpsie   i
    ldr     r3, =z_mutex_lock_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC k_mutex_lock

/* The slow paths of the inline k_mutex_lock/unlock (kernel.h): called with IRQs disabled,
 * r0 = m (r1 = timeout); the result in r3; r0 kept (the inline code clobbers r1-r3, r12
 * and lr, so that the caller may keep the mutex in r0 around it). */
    .macro MUTEX_SLOW name, cfn
    FUNC \name
    push    {r0, lr}                /* (8-byte aligned at the call) */
    cpsie   i
    bl      \cfn
    mov     r3, r0
    pop     {r0, pc}
    ENDFUNC \name
    .endm

/* Save r8-r11 and r4-r7 (the inline callers keep them across the call) before a switch;
 * restore them once the thread runs again. With r0 (the mutex) and lr: 40 bytes. */
    .macro SAVE_CALLEE
    push    {r0, r4-r7, lr}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
    .endm
    .macro RESTORE_CALLEE_RET
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r0, r4-r7, pc}
    .endm

/* z_mutex_lock_slow: the usual contention in assembly, the rest in C. The owner is ready
 * (it waits on nothing: no chain, no cycle), the caller is a thread waiting without
 * timeout (K_FOREVER) that has no stale timeout: the caller leaves its ring (it is the
 * head) for the wait queue (priority order; the mutex joins the contended list and its
 * lock word gets the waiter flag when the queue was empty), the owner inherits the caller's
 * priority (it moves to the back of that ring) and the head of that ring, the owner or a
 * thread ahead of it, runs. The same steps as z_mutex_lock_c's quick path (mutex.c). */
    FUNC z_mutex_lock_slow
    adds    r2, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     9f
    ldr     r3, =z_kernel
    cmp     sp, r3
    bls     9f                      /* the interrupt stack (or main before k_start): C */
    ldrb    r2, [r0, #ZM_TYPE]
    cmp     r2, #ZO_MUTEX
    bne     9f
    SAVE_CALLEE
    ldr     r1, [r3, #ZK_CURRENT]   /* cur */
#if Z_LAZY_TIMEOUTS
    ldr     r2, [r1, #ZT_TNEXT]
    cmp     r2, r1
    bne     7f                      /* a stale timeout of ours to remove: C */
#endif
    ldr     r2, [r0, #ZM_OWNER]
    lsrs    r2, r2, #2
    beq     7f                      /* 0: held by main() */
    lsls    r2, r2, #2              /* o, the owner (without the waiter flag) */
    cmp     r2, r3
    beq     7f                      /* free */
    cmp     r2, r1
    beq     7f                      /* ours: K_EDEADLK in C */
    ldrb    r4, [r2, #ZT_STATE]
    cmp     r4, #ZS_READY
    bne     7f                      /* o waits (a chain), is suspended or dead: C */
    bl      20f                     /* returns our wait's result when we run again */
    mov     r3, r0
    RESTORE_CALLEE_RET
7:  pop     {r4-r7}                 /* (r8-r11 are unchanged) */
    pop     {r0, r4-r7}
    pop     {r3}
    mov     lr, r3
    movs    r1, #0
    mvns    r1, r1                  /* the timeout was K_FOREVER */
9:  push    {r0, lr}
    cpsie   i
    bl      z_mutex_lock_c
    mov     r3, r0
    pop     {r0, pc}
20: /* r0 = m, r1 = cur, r2 = o, r3 = &z_kernel; r4-r7 free */
    ldrb    r4, [r1, #ZT_PRIO]      /* p */
    /* cur leaves its ring: it is the head, its predecessor the tail */
    lsls    r5, r4, #2
    adds    r5, r5, r3
    ldr     r6, [r1, #ZT_NEXT]
    cmp     r6, r1
    bne     1f
    movs    r6, #0
    str     r6, [r5, #ZK_READY]
    PRIOBIT r6, r4
    LOAD_BITMAP r7
    bics    r7, r6
    STORE_BITMAP r7
    b       2f
1:  ldr     r7, [r5, #ZK_READY]
    str     r6, [r7, #ZT_NEXT]
2:  movs    r6, #ZS_BLOCKED_MUTEX
    strb    r6, [r1, #ZT_STATE]
    str     r0, [r1, #ZT_WAIT]      /* the mutex waited on */
    ldr     r6, [r0, #ZM_WAITQ]
    cmp     r6, #0
    bne     3f
    /* the first waiter: the mutex becomes contended */
    ldr     r7, [r3, #ZK_CONTENDED]
    str     r7, [r0, #ZM_CNEXT]
    str     r0, [r3, #ZK_CONTENDED]
    ldr     r7, [r0, #ZM_OWNER]
    movs    r5, #2                  /* Z_MUTEX_WAITERS */
    orrs    r7, r5
    str     r7, [r0, #ZM_OWNER]
    str     r6, [r1, #ZT_NEXT]      /* (r6 = 0) */
    str     r1, [r0, #ZM_WAITQ]
    b       4f
3:  /* behind every waiter of higher or equal priority */
    mov     r7, r0                  /* &m->z_waitq */
31: ldrb    r5, [r6, #ZT_PRIO]
    cmp     r5, r4
    blo     32f
    adds    r7, r6, #ZT_NEXT
    ldr     r6, [r7]
    cmp     r6, #0
    bne     31b
32: str     r6, [r1, #ZT_NEXT]
    str     r1, [r7]
4:  /* o inherits p: it leaves ring q for the tail of ring p */
    ldrb    r5, [r2, #ZT_PRIO]      /* q */
    cmp     r5, r4
    bhs     6f
    lsls    r6, r5, #2
    adds    r6, r6, r3
    ldr     r7, [r6, #ZK_READY]     /* tail of ring q */
    ldr     r0, [r2, #ZT_NEXT]
    cmp     r0, r2
    bne     51f
    movs    r0, #0                  /* o was alone: ring q empties */
    str     r0, [r6, #ZK_READY]
    PRIOBIT r0, r5
    LOAD_BITMAP r6
    bics    r6, r0
    STORE_BITMAP r6
    b       53f
51: mov     r12, r1
    mov     r1, r7                  /* o's predecessor, from the tail */
52: ldr     r5, [r1, #ZT_NEXT]
    cmp     r5, r2
    beq     54f
    mov     r1, r5
    b       52b
54: str     r0, [r1, #ZT_NEXT]
    cmp     r7, r2
    bne     55f
    str     r1, [r6, #ZK_READY]     /* o was the tail: its predecessor is */
55: mov     r1, r12
53: strb    r4, [r2, #ZT_PRIO]
    lsls    r6, r4, #2
    adds    r6, r6, r3
    ldr     r7, [r6, #ZK_READY]
    cmp     r7, #0
    bne     56f
    str     r2, [r2, #ZT_NEXT]      /* alone in ring p */
    PRIOBIT r0, r4
    LOAD_BITMAP r5
    orrs    r5, r0
    STORE_BITMAP r5
    b       57f
56: ldr     r0, [r7, #ZT_NEXT]
    str     r0, [r2, #ZT_NEXT]
    str     r2, [r7, #ZT_NEXT]
57: str     r2, [r6, #ZK_READY]     /* o: the new tail */
6:  /* the caller was the top thread: the head of ring p (o or one ahead of it) runs */
    lsls    r6, r4, #2
    adds    r6, r6, r3
    ldr     r6, [r6, #ZK_READY]
    mov     r2, r1
    ldr     r1, [r6, #ZT_NEXT]
    SWITCH_TAIL
    ENDFUNC z_mutex_lock_slow

/* z_mutex_unlock_slow: the usual hand-over in assembly, the rest in C. The caller owns the
 * mutex, which has one waiter w (not timed) and is the only contended mutex, and the caller
 * runs at w's priority, above its base (it inherited it from w): the mutex passes to w,
 * which becomes ready (at the tail of its ring, the caller's ring), the caller drops to its
 * base priority (the head of that ring) and the head of w's ring, w or one ahead of it,
 * runs. z_mutex_unlock_c's quick path (mutex.c) in the case where it switches. */
    FUNC z_mutex_unlock_slow
    ldr     r3, =z_kernel
    cmp     sp, r3
    bls     9f                      /* the interrupt stack (or main before k_start): C */
    ldrb    r2, [r0, #ZM_TYPE]
    cmp     r2, #ZO_MUTEX
    bne     9f
    ldr     r2, [r3, #ZK_CURRENT]   /* cur */
    ldr     r1, [r0, #ZM_OWNER]
    subs    r1, r1, r2
    cmp     r1, #2
    bne     9f                      /* not ours with waiters: C */
    ldr     r1, [r3, #ZK_CONTENDED]
    cmp     r1, r0
    bne     9f                      /* other contended mutexes: C */
    ldr     r1, [r0, #ZM_CNEXT]
    cmp     r1, #0
    bne     9f
    SAVE_CALLEE
    ldr     r1, [r0, #ZM_WAITQ]     /* w */
    ldr     r4, [r1, #ZT_NEXT]
    cmp     r4, #0
    bne     7f                      /* more waiters: C */
    ldr     r4, [r1, #ZT_TNEXT]
    cmp     r4, r1
    bne     7f                      /* w has a timeout to remove: C */
    ldrb    r4, [r1, #ZT_PRIO]      /* wp */
    ldrb    r5, [r2, #ZT_BASE]      /* b */
    cmp     r4, r5
    bls     7f                      /* nothing inherited from w: C */
    ldrb    r6, [r2, #ZT_PRIO]
    cmp     r6, r4
    bne     7f
    bl      20f
    movs    r3, #0
    RESTORE_CALLEE_RET
7:  pop     {r4-r7}
    pop     {r0, r4-r7}
    pop     {r3}
    mov     lr, r3
9:  push    {r0, lr}
    cpsie   i
    bl      z_mutex_unlock_c
    mov     r3, r0
    pop     {r0, pc}
20: /* r0 = m, r1 = w, r2 = cur, r3 = &z_kernel, r4 = wp, r5 = b */
    movs    r6, #0
    str     r6, [r0, #ZM_WAITQ]
    str     r6, [r3, #ZK_CONTENDED]
    str     r1, [r0, #ZM_OWNER]     /* w's, no waiters */
    str     r6, [r1, #ZT_WAIT]      /* w's result */
    movs    r6, #ZS_READY
    strb    r6, [r1, #ZT_STATE]
    /* ring wp: cur (its head) leaves, w joins at the tail */
    lsls    r6, r4, #2
    adds    r6, r6, r3              /* + ZK_READY: &ready[wp] */
    ldr     r0, [r2, #ZT_NEXT]
    cmp     r0, r2
    bne     1f
    str     r1, [r1, #ZT_NEXT]      /* cur was alone: w is (the bitmap bit stays) */
    b       2f
1:  ldr     r7, [r6, #ZK_READY]     /* the tail, cur's predecessor */
    str     r1, [r7, #ZT_NEXT]      /* tail -> w -> cur's successor (the new head) */
    str     r0, [r1, #ZT_NEXT]
2:  str     r1, [r6, #ZK_READY]
    /* cur drops to b: the head of ring b */
    strb    r5, [r2, #ZT_PRIO]
    lsls    r6, r5, #2
    adds    r6, r6, r3
    ldr     r7, [r6, #ZK_READY]
    cmp     r7, #0
    bne     3f
    str     r2, [r2, #ZT_NEXT]
    str     r2, [r6, #ZK_READY]
    PRIOBIT r0, r5
    LOAD_BITMAP r6
    orrs    r6, r0
    STORE_BITMAP r6
    b       4f
3:  ldr     r0, [r7, #ZT_NEXT]
    str     r0, [r2, #ZT_NEXT]
    str     r2, [r7, #ZT_NEXT]
4:  /* the caller ran at wp, the top: the head of ring wp runs */
    lsls    r6, r4, #2
    adds    r6, r6, r3
    ldr     r6, [r6, #ZK_READY]
    ldr     r1, [r6, #ZT_NEXT]
#if Z_HAS_WAIT_OBJ
    movs    r0, #0
    str     r0, [r2, #ZT_WAIT]      /* (our result when we run again, unused) */
#endif
    SWITCH_TAIL
    ENDFUNC z_mutex_unlock_slow

/* int k_mutex_unlock(struct k_mutex *m): the lock word is exactly the caller (no waiters) */
    FUNC k_mutex_unlock
    ldr     r3, =z_kernel
    cpsid   i
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    ldr     r2, [r0, #ZM_OWNER]
    ldr     r1, [r3, #ZK_CURRENT]
    cmp     r2, r1
    bne     8f
    str     r3, [r0, #ZM_OWNER]     /* Z_MUTEX_FREE */
    cpsie   i
    movs    r0, #0
    bx      lr
8:  cpsie   i
    ldr     r3, =z_mutex_unlock_c   /* far tail call; r0 is the argument */
    bx      r3
    ENDFUNC k_mutex_unlock
#endif

/* PendSV: save the interrupted thread, choose the head of the highest ring, restore. */
    FUNC PendSV_Handler
    /* PendSV, the lowest priority, only ever preempts thread mode: lr = 0xFFFFFFFD (a
     * thread, on PSP), kept for the exception return, or 0xFFFFFFF9 (the idle loop, on MSP) */
    mov     r0, lr
    lsls    r0, r0, #29             /* N = bit 2: PSP */
    bpl     5f
    mrs     r0, psp
    subs    r0, #32
    mov     r1, r8
    mov     r2, r9
    mov     r3, r10
    stmia   r0!, {r1-r3}
    mov     r1, r11
    stmia   r0!, {r1, r4-r7}        /* [r8-r11][r4-r7] below the hardware frame */
    subs    r0, #32                 /* base of the saved r8-r11 */
    ldr     r3, =z_kernel
    cpsid   i
    ldr     r2, [r3, #ZK_CURRENT]
    adds    r1, r0, #1              /* bit 0: exception frame */
    str     r1, [r2, #ZT_SP]
#if K_CONFIG_STACK_CHECK
    ldr     r4, [r2, #ZT_LIM]
    cmp     r0, r4
    bls     7f
    ldr     r5, [r4]
    cmp     r5, r4
    bne     7f
#endif
4:  LOAD_BITMAP r6
    cmp     r6, #0
    beq     6f
    TOPPRIO r6, r4, r5, PendSV_Handler_table
    lsls    r4, r4, #2
    adds    r4, r4, r3
    ldr     r4, [r4, #ZK_READY]
    ldr     r0, [r4, #ZT_NEXT]
    str     r0, [r3, #ZK_CURRENT]
1:  /* r0 = the thread to run: usually one an interrupt woke, which blocked (a sync frame) */
    ldr     r1, [r0, #ZT_SP]
    lsrs    r2, r1, #1              /* carry = bit 0 */
    bcs     2f
    SYNC_TO_EXC_FRAME
    msr     psp, r1
    cpsie   i
    bx      lr                      /* 0xFFFFFFFD: thread mode, PSP */
2:  RESTORE_EXC_FRAME              /* a thread that was preempted */
    msr     psp, r1
    cpsie   i
    bx      lr
5:  /* from the idle loop: nothing to save; drop its frame (nothing else is on MSP) */
    ldr     r3, =z_kernel
    cpsid   i
    ldr     r0, =__stack_top
    msr     msp, r0
    movs    r0, #2
    mvns    r0, r0
    mov     lr, r0                  /* 0xFFFFFFFD: back to a thread */
    b       4b
6:  IDLE_ENTER                      /* nothing to run */
#if K_CONFIG_STACK_CHECK
7:  mov     r0, r2
    bl      arch_fatal_stack
#endif
    ENDFUNC PendSV_Handler, 1

#endif /* K_CONFIG_FASTPATH */
