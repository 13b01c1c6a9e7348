/*
 * ARMv7-M fast paths of the mutexes (K_CONFIG_FASTPATH and K_CONFIG_MUTEX; see fast.S):
 * k_mutex_lock/unlock uncontended, out of line (the inline versions are in
 * kernel/arch/cortexm/include/rtoslab/cortexm_inline.h), and the usual contention and hand-over of the inline
 * versions' slow paths (z_mutex_lock_slow, z_mutex_unlock_slow).
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_MUTEX

#include "fast_macros.inc"

/* int k_mutex_lock(struct k_mutex *m, k_timeout_t timeout): the uncontended case (the lock
 * word Z_MUTEX_FREE, the address of z_kernel, means a free, valid mutex; SP below z_kernel
 * means an interrupt, which C refuses) */
    FUNC k_mutex_lock
    ldr     r3, =z_kernel
    IRQ_SAVE_MASK r2                /* (the caller's BASEPRI in r12: kept, issue 31) */
    ldr     r2, [r0, #ZM_OWNER]
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    cmp     r2, r3
    bne     8f
    ldr     r2, [r3, #ZK_CURRENT]
    str     r2, [r0, #ZM_OWNER]
    msr     basepri, r12
    movs    r0, #0
    bx      lr
8:  msr     basepri, r12            /* (C keeps a masked caller's mask) */
    b       z_mutex_lock_c          /* r0-r1 are the arguments */
    ENDFUNC k_mutex_lock

/* int k_mutex_unlock(struct k_mutex *m): the lock word exactly the caller (no waiters) */
    FUNC k_mutex_unlock
    ldr     r3, =z_kernel
    IRQ_SAVE_MASK r2                /* (the caller's BASEPRI in r12: kept, issue 31) */
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    ldr     r2, [r0, #ZM_OWNER]
    ldr     r1, [r3, #ZK_CURRENT]
    cmp     r2, r1
    bne     8f
    str     r3, [r0, #ZM_OWNER]     /* Z_MUTEX_FREE */
    msr     basepri, r12
    movs    r0, #0
    bx      lr
8:  msr     basepri, r12            /* (C keeps a masked caller's mask) */
    b       z_mutex_unlock_c        /* r0 is the argument */
    ENDFUNC k_mutex_unlock

/* The slow paths of the inline k_mutex_lock/unlock (cortexm_inline.h): called masked, with
 * what the inline code computed: r0 = m, r2 = &z_kernel, r12 = the caller's BASEPRI; the
 * lock r1 = timeout, the unlock r1 = the current thread and r3 = the lock word - r1 - (not a
 * thread). The result in r0 (the inline code moves it to r3; m is not kept:
 * Z_ARCH_MUTEX_SLOW_R0), so that a switch pushes the light frame (switch_tail.inc) with lr,
 * the inline code's return, as its return address (the switch back returns there with the
 * result in r0: 12 cycles less than a push of m and a return through a stub that restores
 * it) and the C code is a tail call. The usual contention and hand-over are done here, the
 * steps of the ARMv6-M port's (its fast_mutex.S explains which cases: z_mutex_lock_c's and
 * z_mutex_unlock_c's quick paths, mutex.c); the rest goes to the C code. */

/* The C code for the inline caller, with the caller's BASEPRI (r12) back: C keeps a masked
 * caller's mask (issue 31); it returns to the inline code (lr), the result in r0 */
    .macro MUTEX_C cfn
    msr     basepri, r12
    b.w     \cfn
    .endm

/* z_mutex_lock_slow: the owner is ready (no chain, no cycle), the caller a thread waiting
 * without timeout (K_FOREVER) that has no stale timeout: the caller leaves its ring (it is
 * the head) for the wait queue (priority order; the mutex joins the contended list and its
 * lock word gets the waiter flag when the queue was empty), the owner inherits the caller's
 * priority (it moves to the tail of that ring) and the head of that ring runs. The usual
 * case, each alone in its ring, is the straight line: ring p passes from the caller to the
 * owner (its bitmap bit stays) and ring q empties. */
    FUNC z_mutex_lock_slow
    mrs     r3, primask
    orrs    r3, r3, r12             /* the caller's mask (r12: its BASEPRI) */
    bne     9f                      /* masked: C, which keeps it (issue 31) */
    adds    r3, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     9f
    mov     r3, r2                  /* &z_kernel */
    cmp     sp, r3
    bls     9f                      /* the interrupt stack (or main before k_start): C */
    FRAME_SAVE                      /* (its return: the inline code, our result in r0; the
                                     * checks in r4-r8, their loads pipelined; 8: pops it) */
#if K_CONFIG_CHECKS
    ldrb    r4, [r0, #ZM_TYPE]
#endif
    ldr     r2, [r3, #ZK_CURRENT]   /* cur */
    ldr     r1, [r0, #ZM_OWNER]
    ldr     r5, [r0, #ZM_WAITQ]
#if K_CONFIG_CHECKS
    cmp     r4, #ZO_MUTEX
    bne     8f
#endif
    bics    r1, r1, #3              /* o, the owner (without the waiter flag) */
    beq     8f                      /* 0: held by main() */
#if Z_LAZY_TIMEOUTS
    ldr     r6, [r2, #ZT_TNEXT]
#endif
    ldrb    r7, [r1, #ZT_STATE]
    ldrb    r4, [r2, #ZT_PRIO]      /* p */
    ldr     r8, [r2, #ZT_NEXT]      /* cur's successor in ring p */
    cmp     r1, r3
    beq     8f                      /* free */
    cmp     r1, r2
    beq     8f                      /* ours: K_EDEADLK in C */
#if Z_LAZY_TIMEOUTS
    eors    r6, r6, r2              /* 0: no stale timeout of ours to remove */
    subs    r7, r7, #ZS_READY
    orrs    r6, r6, r7
    bne     8f                      /* a stale timeout; o waits (a chain), is suspended or dead: C */
#else
    cmp     r7, #ZS_READY
    bne     8f                      /* o waits (a chain), is suspended or dead: C */
#endif
    /* r0 = m, r1 = o, r2 = cur, r3 = &z_kernel, r4 = p, r5 = m's first waiter */
    movs    r6, #ZS_BLOCKED_MUTEX
    strb    r6, [r2, #ZT_STATE]
    str     r0, [r2, #ZT_WAIT]      /* the mutex waited on */
#if defined(__ARM_FP) /* (SWITCH_TAIL's FP context puts 3f beyond CBNZ's 126 bytes) */
    cmp     r5, #0
    bne     3f
#else
    cbnz    r5, 3f
#endif
    /* the first waiter: the mutex becomes contended */
    ldr     r7, [r3, #ZK_CONTENDED]
    str     r7, [r0, #ZM_CNEXT]
    str     r0, [r3, #ZK_CONTENDED]
    orr     r7, r1, #2              /* o | Z_MUTEX_WAITERS (the flag was clear: no waiter) */
    str     r7, [r0, #ZM_OWNER]
    str     r5, [r2, #ZT_NEXT]      /* (r5 = 0) */
    str     r2, [r0, #ZM_WAITQ]
4:  /* cur leaves ring p (it is the head, its predecessor the tail); o, ready at q <= p (cur
     * was the top thread), inherits p if q < p: it leaves ring q for the tail of ring p */
    ldrb    r5, [r1, #ZT_PRIO]      /* q */
    add     r6, r3, r5, lsl #2      /* (+ ZK_READY: &ready[q]) */
    ldr     r0, [r1, #ZT_NEXT]      /* o's successor */
    cmp     r8, r2
    bne     40f                     /* others in ring p */
    cmp     r0, r1
    bne     45f                     /* others in ring q */
    /* each alone in its ring (so q < p): ring q empties, ring p is o's */
    RING_EMPTIES r6, r5, r0, r6
    strb    r4, [r1, #ZT_PRIO]
    add     r6, r3, r4, lsl #2
    str     r1, [r1, #ZT_NEXT]
    str     r1, [r6, #ZK_READY]     /* (ring p's bitmap bit stays) */
69: SWITCH_TAIL                     /* o runs */
3:  /* behind every waiter of higher or equal priority */
    mov     r6, r5
    mov     r7, r0                  /* &m->z_waitq */
31: ldrb    r5, [r6, #ZT_PRIO]
    cmp     r5, r4
    blo     32f
    add     r7, r6, #ZT_NEXT
    ldr     r6, [r7]
    cmp     r6, #0
    bne     31b
32: str     r6, [r2, #ZT_NEXT]
    str     r2, [r7]
    b       4b
40: /* ring p keeps others: its tail, cur's predecessor, links to cur's successor */
    ldr     r7, [r6, #ZK_READY]     /* tail of ring q */
    add     r9, r3, r4, lsl #2
    ldr     r10, [r9, #ZK_READY]
    str     r8, [r10, #ZT_NEXT]
    cmp     r5, r4
    bhs     6f                      /* q == p: nothing to inherit */
    cmp     r0, r1
    bne     51f
    RING_EMPTIES r6, r5, r0, r6     /* o was alone: ring q empties */
    b       53f
45: /* cur was alone in ring p, o is not in ring q: ring p empties, o moves */
    ldr     r7, [r6, #ZK_READY]     /* tail of ring q */
    add     r9, r3, r4, lsl #2
    RING_EMPTIES r9, r4, r10, r11
51: mov     r8, r7                  /* o's predecessor, from the tail */
52: ldr     r5, [r8, #ZT_NEXT]
    cmp     r5, r1
    beq     54f
    mov     r8, r5
    b       52b
54: str     r0, [r8, #ZT_NEXT]
    cmp     r7, r1
    it      eq
    streq   r8, [r6, #ZK_READY]     /* o was the tail: its predecessor is */
53: strb    r4, [r1, #ZT_PRIO]
    add     r6, r3, r4, lsl #2
    READY_AT_TAIL r1, r4, r6, r7, r5, r0
6:  /* the caller was the top thread: the head of ring p (o or one ahead of it) runs */
    add     r6, r3, r4, lsl #2
    ldr     r6, [r6, #ZK_READY]
    ldr     r1, [r6, #ZT_NEXT]
    b       69b
8:  pop     {r4-r11, lr}
    mov     r12, #0                 /* the caller's BASEPRI (0: tested above) */
    mov     r1, #-1                 /* the timeout was K_FOREVER */
9:  MUTEX_C z_mutex_lock_c
    ENDFUNC z_mutex_lock_slow

/* z_mutex_unlock_slow: the caller owns the mutex, which has one waiter w (not timed) and is
 * the only contended mutex, and the caller runs at w's priority, above its base (inherited
 * from w): the mutex passes to w, which becomes ready (at the tail of its ring, the caller's
 * ring), the caller drops to its base priority (the head of that ring) and the head of w's
 * ring, w or one ahead of it, runs. */
    FUNC z_mutex_unlock_slow
    cmp     r3, #2                  /* a thread, the lock word the caller | Z_MUTEX_WAITERS */
    bne     9f                      /* (never so in an interrupt: a lock word is 4-aligned,
                                     * or that + 2: C, which checks) */
    mrs     r3, primask
    orrs    r3, r3, r12             /* the caller's mask (r12: its BASEPRI) */
    bne     9f                      /* masked: C, which keeps it (issue 31) */
    mov     r3, r2                  /* &z_kernel */
    mov     r2, r1                  /* cur */
    FRAME_SAVE                      /* (its return: the inline code, our result in r0; the
                                     * checks in r4-r9, their loads pipelined; 8: pops it) */
#if K_CONFIG_CHECKS
    ldrb    r4, [r0, #ZM_TYPE]
#endif
    ldr     r5, [r3, #ZK_CONTENDED]
    ldr     r6, [r0, #ZM_CNEXT]
    ldr     r1, [r0, #ZM_WAITQ]     /* w */
    ldrb    r7, [r2, #ZT_PRIO]      /* the caller's priority */
    ldrb    r8, [r2, #ZT_BASE]      /* b */
    ldr     r9, [r2, #ZT_NEXT]      /* cur's successor in ring wp */
#if K_CONFIG_CHECKS
    cmp     r4, #ZO_MUTEX
    bne     8f
#endif
    eors    r5, r5, r0
    orrs    r5, r5, r6
    bne     8f                      /* other contended mutexes (not only m): C */
    ldrb    r4, [r1, #ZT_PRIO]      /* wp */
    ldr     r5, [r1, #ZT_NEXT]
    ldr     r6, [r1, #ZT_TNEXT]
    eors    r6, r6, r1
    orrs    r5, r5, r6
    bne     8f                      /* more waiters, or w has a timeout to remove: C */
    cmp     r7, r4
    bne     8f                      /* the caller does not run at wp: C */
    cmp     r4, r8
    bls     8f                      /* nothing inherited from w: C */
    /* r0 = m, r1 = w, r2 = cur, r3 = &z_kernel, r4 = wp, r8 = b */
    movs    r6, #0
    str     r6, [r0, #ZM_WAITQ]
    str     r6, [r3, #ZK_CONTENDED]
    str     r1, [r0, #ZM_OWNER]     /* w's, no waiters */
    str     r6, [r1, #ZT_WAIT]      /* w's result */
    movs    r6, #ZS_READY
    strb    r6, [r1, #ZT_STATE]
    /* ring wp: cur (its head) leaves, w joins at the tail; r9 = its new head, which runs
     * (the caller ran at wp, the top) */
    add     r6, r3, r4, lsl #2      /* + ZK_READY: &ready[wp] */
    cmp     r9, r2
    bne     1f
    str     r1, [r1, #ZT_NEXT]      /* cur was alone: w is (the bitmap bit stays) */
    mov     r9, r1
    b       2f
1:  ldr     r7, [r6, #ZK_READY]     /* the tail, cur's predecessor */
    str     r1, [r7, #ZT_NEXT]      /* tail -> w -> cur's successor (the new head) */
    str     r9, [r1, #ZT_NEXT]
2:  str     r1, [r6, #ZK_READY]
    /* cur drops to b: the head of ring b (the ring it left to inherit, often empty now) */
    strb    r8, [r2, #ZT_PRIO]
    add     r6, r3, r8, lsl #2
    ldr     r7, [r6, #ZK_READY]
    cbnz    r7, 3f
    RING_FILLS r2, r6, r8, r1, r6
4:  mov     r1, r9                  /* to: the head of ring wp */
#if Z_HAS_WAIT_OBJ
    movs    r7, #0
    str     r7, [r2, #ZT_WAIT]      /* (our result when we run again: 0) */
#endif
    SWITCH_TAIL
3:  ldr     r1, [r7, #ZT_NEXT]
    str     r1, [r2, #ZT_NEXT]
    str     r2, [r7, #ZT_NEXT]
    b       4b
8:  pop     {r4-r11, lr}
    mov     r12, #0                 /* the caller's BASEPRI (0: tested above) */
9:  MUTEX_C z_mutex_unlock_c
    ENDFUNC z_mutex_unlock_slow

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MUTEX */
