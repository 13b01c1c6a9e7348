/*
 * ARMv6-M fast paths of the mutexes (K_CONFIG_FASTPATH and K_CONFIG_MUTEX; see fast.S):
 * k_mutex_lock/unlock uncontended, and the usual contention and hand-over of the inline
 * versions' slow paths (z_mutex_lock_slow, z_mutex_unlock_slow).
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

#if K_CONFIG_MUTEX
/* int k_mutex_lock(struct k_mutex *m, k_timeout_t timeout): the uncontended case (the same
 * as the inline version in kernel.h: the lock word Z_MUTEX_FREE, the address of z_kernel,
 * means a free, valid mutex; SP below z_kernel means an interrupt, which C refuses) */
    FUNC k_mutex_lock
    ldr     r3, =z_kernel
    MASKED_TO 9f, r2                /* masked: C keeps the mask (issue 31) */
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
9:  ldr     r3, =z_mutex_lock_c   /* far tail call; r0-r1 are the arguments */
    bx      r3
    ENDFUNC k_mutex_lock

/* The inline k_mutex_lock/unlock's call made with interrupts masked (issue 31): the C code,
 * which keeps the mask, for the inline caller (r0 kept, the result in r3). */
    FUNC z_mutex_lock_masked
    push    {r0, lr}
    bl      z_mutex_lock_c
    mov     r3, r0
    pop     {r0, pc}
    ENDFUNC z_mutex_lock_masked
    FUNC z_mutex_unlock_masked
    push    {r0, lr}
    bl      z_mutex_unlock_c
    mov     r3, r0
    pop     {r0, pc}
    ENDFUNC z_mutex_unlock_masked

/* The slow paths of the inline k_mutex_lock/unlock (cortexm_inline.h): called masked by an
 * unmasked caller (a masked one calls z_mutex_*_masked), with what the inline code computed:
 * r0 = m, r2 = &z_kernel; the lock r1 = timeout, the unlock r1 = the current thread and r3 =
 * the lock word - r1 - (not a thread). The result in r0 (Z_ARCH_MUTEX_SLOW_R0: the inline
 * code moves it to r3; m is not kept), so that the C code is a tail call. The inline code
 * keeps r4-r11 across the call (declaring r8-r11 changed makes the compiler spill live values
 * around every mutex call: the uncontended `.live` rows lose, docs/kernel-costs.md), so the
 * switching paths save them: r4-r7 and lr pushed at entry (which frees r4-r7 for the checks;
 * a failed check pops them before C), r8-r11 with the light frame (MUTEX_FRAME). */

/* The switch of the slow paths: r8-r11 and the light frame in one push, [r8 (the r7 slot)]
 * [77f, the return][r9-r11], then SWITCH_TAIL pushed=1. When the thread runs again (the
 * switch back pops r7 = r8 and returns to 77f, its result in r0: switch_tail.inc), 77f
 * restores r8-r11 and r4-r7 and returns to the inline code. One push instead of a second
 * push of r8-r11, a BL to the switching part and its push of the light frame. */
    .macro MUTEX_FRAME
    mov     r0, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    adr     r4, 77f
    adds    r4, #1                  /* (Thumb) */
    push    {r0, r4-r7}
    .endm
    .macro MUTEX_RESUME
    .p2align 2
77: mov     r8, r7
    pop     {r5-r7}
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r4-r7, pc}
    .endm

/* z_mutex_lock_slow: the usual contention in assembly, the rest in C. The owner is ready
 * (it waits on nothing: no chain, no cycle), the caller is a thread waiting without
 * timeout (K_FOREVER) that has no stale timeout: the caller leaves its ring (it is the
 * head) for the wait queue (priority order; the mutex joins the contended list and its
 * lock word gets the waiter flag when the queue was empty), the owner inherits the caller's
 * priority (it moves to the back of that ring) and the head of that ring, the owner or a
 * thread ahead of it, runs. The usual case, each alone in its ring, is a straight line:
 * ring p passes from the caller to the owner (its bitmap bit stays), ring q empties, the
 * owner runs. The same steps as z_mutex_lock_c's quick path (mutex.c). */
    FUNC z_mutex_lock_slow
    adds    r3, r1, #1              /* K_FOREVER + 1 == 0 */
    bne     9f
    mov     r3, r2                  /* &z_kernel */
    cmp     sp, r3
    bls     9f                      /* the interrupt stack (or main before k_start): C */
    push    {r4-r7, lr}
#if K_CONFIG_CHECKS
    ldrb    r4, [r0, #ZM_TYPE]
#endif
    ldr     r2, [r3, #ZK_CURRENT]   /* cur */
    ldr     r1, [r0, #ZM_OWNER]
#if K_CONFIG_CHECKS
    cmp     r4, #ZO_MUTEX
    bne     8f
#endif
    lsrs    r1, r1, #2
    beq     8f                      /* 0: held by main() */
    lsls    r1, r1, #2              /* o, the owner (without the waiter flag) */
    cmp     r1, r3
    beq     8f                      /* free */
    cmp     r1, r2
    beq     8f                      /* ours: K_EDEADLK in C */
    ldrb    r5, [r1, #ZT_STATE]
#if Z_LAZY_TIMEOUTS
    ldr     r4, [r2, #ZT_TNEXT]
    eors    r4, r2                  /* 0: no stale timeout of ours to remove */
    subs    r5, #ZS_READY
    orrs    r4, r5
    bne     8f                      /* a stale timeout; o waits (a chain), is suspended or dead: C */
#else
    cmp     r5, #ZS_READY
    bne     8f                      /* o waits (a chain), is suspended or dead: C */
#endif
    /* r0 = m, r1 = o, r2 = cur, r3 = &z_kernel; r4-r7 free */
    ldrb    r4, [r2, #ZT_PRIO]      /* p */
    ldr     r7, [r2, #ZT_NEXT]      /* cur's successor in ring p */
    movs    r5, #ZS_BLOCKED_MUTEX
    strb    r5, [r2, #ZT_STATE]
    str     r0, [r2, #ZT_WAIT]      /* the mutex waited on */
    ldr     r5, [r0, #ZM_WAITQ]
    cmp     r5, #0
    bne     3f
    /* the first waiter: the mutex becomes contended */
    ldr     r6, [r3, #ZK_CONTENDED]
    str     r6, [r0, #ZM_CNEXT]
    str     r0, [r3, #ZK_CONTENDED]
    movs    r6, #2                  /* Z_MUTEX_WAITERS (the flag was clear: no waiter) */
    orrs    r6, r1
    str     r6, [r0, #ZM_OWNER]
    str     r5, [r2, #ZT_NEXT]      /* (r5 = 0) */
    str     r2, [r0, #ZM_WAITQ]
4:  /* cur leaves ring p (it is the head, its predecessor the tail); o, ready at q <= p (cur
     * was the top thread), inherits p if q < p: it leaves ring q for the tail of ring p */
    ldrb    r5, [r1, #ZT_PRIO]      /* q */
    ldr     r0, [r1, #ZT_NEXT]      /* o's successor */
    lsls    r6, r5, #2
    adds    r6, r6, r3              /* (+ ZK_READY: &ready[q]) */
    cmp     r7, r2
    bne     40f                     /* others in ring p */
    cmp     r0, r1
    bne     45f                     /* others in ring q */
    /* each alone in its ring (so q < p): ring q empties, ring p is o's */
    RING_EMPTIES r6, r5, r0, r7
    strb    r4, [r1, #ZT_PRIO]
    lsls    r6, r4, #2
    adds    r6, r6, r3
    str     r1, [r1, #ZT_NEXT]
    str     r1, [r6, #ZK_READY]     /* (ring p's bitmap bit stays) */
69: MUTEX_FRAME
    SWITCH_TAIL pushed=1            /* o runs */
    MUTEX_RESUME
8:  pop     {r4-r7}
    pop     {r3}
    mov     lr, r3
    movs    r1, #0
    mvns    r1, r1                  /* the timeout was K_FOREVER */
9:  cpsie   i
    ldr     r3, =z_mutex_lock_c     /* far tail call: r0-r1 the arguments, r0 the result */
    bx      r3
3:  /* behind every waiter of higher or equal priority */
    mov     r12, r7                 /* (cur's successor) */
    mov     r6, r5
    mov     r7, r0                  /* &m->z_waitq */
31: ldrb    r5, [r6, #ZT_PRIO]
    cmp     r5, r4
    blo     32f
    adds    r7, r6, #ZT_NEXT
    ldr     r6, [r7]
    cmp     r6, #0
    bne     31b
32: str     r6, [r2, #ZT_NEXT]
    str     r2, [r7]
    mov     r7, r12
    b       4b
40: /* ring p keeps others: its tail, cur's predecessor, links to cur's successor */
    lsls    r6, r4, #2
    adds    r6, r6, r3
    ldr     r6, [r6, #ZK_READY]
    str     r7, [r6, #ZT_NEXT]
    cmp     r5, r4
    bhs     6f                      /* q == p: nothing to inherit */
    lsls    r6, r5, #2
    adds    r6, r6, r3
    ldr     r7, [r6, #ZK_READY]     /* tail of ring q */
    cmp     r0, r1
    bne     51f
    RING_EMPTIES r6, r5, r0, r6     /* o was alone: ring q empties */
    b       53f
45: /* cur was alone in ring p, o is not in ring q: ring p empties, o moves */
    ldr     r7, [r6, #ZK_READY]     /* tail of ring q */
    mov     r12, r0
    lsls    r5, r4, #2
    adds    r5, r5, r3
    RING_EMPTIES r5, r4, r0, r5
    mov     r0, r12
51: mov     r12, r2
    mov     r2, r7                  /* o's predecessor, from the tail */
52: ldr     r5, [r2, #ZT_NEXT]
    cmp     r5, r1
    beq     54f
    mov     r2, r5
    b       52b
54: str     r0, [r2, #ZT_NEXT]
    cmp     r7, r1
    bne     55f
    str     r2, [r6, #ZK_READY]     /* o was the tail: its predecessor is */
55: mov     r2, r12
53: strb    r4, [r1, #ZT_PRIO]
    lsls    r6, r4, #2
    adds    r6, r6, r3
    READY_AT_TAIL r1, r4, r6, r7, r5, r0, r0  /* o joins ring p */
6:  /* the caller was the top thread: the head of ring p (o or one ahead of it) runs */
    lsls    r6, r4, #2
    adds    r6, r6, r3
    ldr     r6, [r6, #ZK_READY]
    ldr     r1, [r6, #ZT_NEXT]
    b       69b
    ENDFUNC z_mutex_lock_slow

/* The unlock's caller (r2) drops to its base priority b (r5): the head of ring b (r3 =
 * &z_kernel; r0, r6, r7 scratch), then MUTEX_FRAME. The usual case, ring b empty (the caller
 * left it to inherit), falls through. */
    .macro DROP_TO_BASE
    strb    r5, [r2, #ZT_PRIO]
    lsls    r6, r5, #2
    adds    r6, r6, r3
    ldr     r7, [r6, #ZK_READY]
    cmp     r7, #0
    bne     83f
    RING_FILLS r2, r6, r5, r0, r6
84: MUTEX_FRAME
    .endm
/* DROP_TO_BASE's other case, out of the straight line: the tail of ring b links to it */
    .macro DROP_TO_BASE_RING
83: ldr     r0, [r7, #ZT_NEXT]
    str     r0, [r2, #ZT_NEXT]
    str     r2, [r7, #ZT_NEXT]
    b       84b
    .endm

/* z_mutex_unlock_slow: the usual hand-over in assembly, the rest in C. The caller owns the
 * mutex, which has one waiter w (not timed) and is the only contended mutex, and the caller
 * runs at w's priority, above its base (it inherited it from w): the mutex passes to w,
 * which becomes ready (at the tail of its ring, the caller's ring), the caller drops to its
 * base priority (the head of that ring) and the head of w's ring runs: the one it has just
 * built (w when the caller was alone there, else the caller's successor), not looked up.
 * z_mutex_unlock_c's quick path (mutex.c) in the case where it switches. */
    FUNC z_mutex_unlock_slow
    cmp     r3, #2                  /* a thread's own mutex with waiters (cortexm_inline.h) */
    bne     9f
#if K_CONFIG_CHECKS
    ldrb    r3, [r0, #ZM_TYPE]
    cmp     r3, #ZO_MUTEX
    bne     9f
#endif
    mov     r3, r2                  /* &z_kernel */
    mov     r2, r1                  /* cur */
    ldr     r1, [r3, #ZK_CONTENDED]
    cmp     r1, r0
    bne     9f                      /* other contended mutexes: C */
    push    {r4-r7, lr}
    ldr     r1, [r0, #ZM_WAITQ]     /* w */
    ldr     r4, [r0, #ZM_CNEXT]
    ldr     r5, [r1, #ZT_NEXT]
    orrs    r4, r5
    ldr     r5, [r1, #ZT_TNEXT]
    eors    r5, r1                  /* 0: w has no timeout to remove */
    orrs    r4, r5
    bne     8f                      /* other contended mutexes, more waiters, w's timeout: C */
    ldrb    r4, [r1, #ZT_PRIO]      /* wp */
    ldrb    r5, [r2, #ZT_BASE]      /* b */
    ldrb    r6, [r2, #ZT_PRIO]
    cmp     r4, r5
    bls     8f                      /* nothing inherited from w: C */
    cmp     r6, r4
    bne     8f
    /* r0 = m, r1 = w, r2 = cur, r3 = &z_kernel, r4 = wp, r5 = b */
    movs    r6, #0
    str     r6, [r0, #ZM_WAITQ]
    str     r6, [r3, #ZK_CONTENDED]
    str     r1, [r0, #ZM_OWNER]     /* w's, no waiters */
    str     r6, [r1, #ZT_WAIT]      /* w's result */
#if Z_HAS_WAIT_OBJ
    str     r6, [r2, #ZT_WAIT]      /* ours when we run again */
#endif
    movs    r6, #ZS_READY
    strb    r6, [r1, #ZT_STATE]
    /* ring wp: cur (its head) leaves, w joins at the tail; its head runs */
    lsls    r6, r4, #2
    adds    r6, r6, r3              /* + ZK_READY: &ready[wp] */
    ldr     r0, [r2, #ZT_NEXT]
    cmp     r0, r2
    bne     1f
    str     r1, [r1, #ZT_NEXT]      /* cur was alone: w is (the bitmap bit stays); w runs */
    str     r1, [r6, #ZK_READY]
    DROP_TO_BASE
    /* w blocked by a switch (a light frame), its result 0 */
    SWITCH_TAIL light=1, zero=1, far=1, pushed=1
    DROP_TO_BASE_RING
8:  pop     {r4-r7}
    pop     {r3}
    mov     lr, r3
9:  cpsie   i
    ldr     r3, =z_mutex_unlock_c   /* far tail call: r0 the argument, r0 the result */
    bx      r3
1:  ldr     r7, [r6, #ZK_READY]     /* the tail, cur's predecessor */
    str     r1, [r7, #ZT_NEXT]      /* tail -> w -> cur's successor, the new head: it runs */
    str     r0, [r1, #ZT_NEXT]
    str     r1, [r6, #ZK_READY]
    mov     r1, r0
    DROP_TO_BASE
    SWITCH_TAIL far=1, pushed=1     /* (z_resume_exc_l may lie more than 2 KB back) */
    DROP_TO_BASE_RING
    MUTEX_RESUME
    ENDFUNC z_mutex_unlock_slow

/* int k_mutex_unlock(struct k_mutex *m): the lock word is exactly the caller (no waiters) */
    FUNC k_mutex_unlock
    ldr     r3, =z_kernel
    MASKED_TO 9f, r2                /* masked: C keeps the mask (issue 31) */
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
9:  ldr     r3, =z_mutex_unlock_c   /* far tail call; r0 is the argument */
    bx      r3
    ENDFUNC k_mutex_unlock
#endif

#endif /* K_CONFIG_FASTPATH */
