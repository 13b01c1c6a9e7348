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
    READY_AT_TAIL r2, r4, r6, r7, r5, r0, r0  /* o joins ring p */
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
    SWITCH_TAIL far=1               /* (z_resume_exc_l may lie more than 2 KB back) */
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
