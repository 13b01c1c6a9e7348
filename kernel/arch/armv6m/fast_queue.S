/*
 * ARMv6-M fast paths of the message queues (K_CONFIG_FASTPATH, K_CONFIG_QUEUE; see fast.S),
 * the ARMv7-M port's (kernel/arch/armv7m/fast_queue.S) in Thumb-1: k_queue_send into a
 * queue with room and no waiting receiver, or straight into the buffer of a receiver that
 * waits without a timeout and does not outrank the caller (the hand-off); k_queue_recv from
 * a non-empty queue with no waiting sender. AAPCS routines (none of these paths switches),
 * the C's checks in its order (NULL, the type, a NULL item), the caller's mask kept as the
 * C keeps it (a masked caller goes to C, issue 31), CPSID/CPSIE around the transfer. The
 * item is copied by words (two at a time, LDM/STM) when the buffers and the size are
 * word-aligned, else by bytes, as the C. Anything else goes to the C code with the original
 * arguments, so the results are C's: an error or a masked caller to z_queue_*_c; a waiter
 * to wake, a receiver that preempts, a full or empty queue (the wait or the timeout) to
 * z_queue_*_slow. The C transfer saved eight registers and took its checks' branches;
 * issue 24's sixth round (docs/kernel-costs.md) has the cycles.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_QUEUE

#include "fast_macros.inc"

/* Copy \n bytes (not 0) from \src to \dst: by words when both and \n are word-aligned (an
 * odd word, then pairs: LDM/STM of \t0 and \n, in ascending order), else to \bytes, where
 * the routine has COPY_BYTES. Clobbers \src, \dst, \n, \t0, r12 (the end of the source). */
    .macro COPY_WORDS_OR bytes, src, dst, n, t0
    movs    \t0, \src
    orrs    \t0, \dst
    orrs    \t0, \n
    lsls    \t0, \t0, #30
    bne     \bytes
    adds    \t0, \src, \n
    mov     r12, \t0                /* the end */
    lsls    \n, \n, #30             /* carry: n & 4 */
    bcc     71f
    ldm     \src!, {\t0}
    stm     \dst!, {\t0}
71: cmp     \src, r12
    beq     73f
72: ldm     \src!, {\t0, \n}
    stm     \dst!, {\t0, \n}
    cmp     \src, r12
    bne     72b
73:
    .endm

/* The byte copy of COPY_WORDS_OR (the last byte first), then on to \done */
    .macro COPY_BYTES done, src, dst, n, t0
74: subs    \n, \n, #1
    ldrb    \t0, [\src, \n]
    strb    \t0, [\dst, \n]
    bne     74b
    b       \done
    .endm

/* What both routines do first: the C's checks (a masked caller, NULL, the type, a NULL
 * item: to 9f; the last three only with K_CONFIG_CHECKS, as the C's Z_CHECK), the timeout
 * kept in r12 for C, the mask */
    .macro QUEUE_ENTER
    MASKED_TO 9f, r3                /* masked: C keeps the mask (issue 31) */
#if K_CONFIG_CHECKS
    cmp     r0, #0
    beq     9f
    ldrb    r3, [r0, #ZQ_TYPE]
    cmp     r3, #ZO_QUEUE
    bne     9f
    cmp     r1, #0
    beq     9f
#endif
    mov     r12, r2                 /* the timeout, for C (the fallbacks restore it) */
    cpsid   i
    .endm

/* The transfer of the item in slot r2 of queue r0 (r3: any), from \src to \dst (one of
 * them r2), and the return; 2: is the unmask and the return, 3: the byte copy */
    .macro QUEUE_COPY src, dst
    ldrh    r3, [r0, #ZQ_ITEM]
    muls    r2, r3
    ldr     r0, [r0, #ZQ_BUF]
    adds    r2, r2, r0
    COPY_WORDS_OR 3f, \src, \dst, r3, r0
2:  cpsie   i
    movs    r0, #0
    bx      lr
3:  COPY_BYTES 2b, \src, \dst, r3, r0
    .endm

/* The ends to C (r12 the timeout): 8: unmasked first, to \slow (the wait, a waiter to wake),
 * 9: to \cfn (an error or a masked caller); r0-r2 are the arguments */
    .macro QUEUE_TO_C slow, cfn
8:  cpsie   i
7:  mov     r2, r12                 /* the timeout */
    ldr     r3, =\slow              /* far tail call */
    bx      r3
9:  ldr     r3, =\cfn
    bx      r3
    .endm

/* int k_queue_send(struct k_queue *q, const void *item, k_timeout_t timeout) */
    FUNC k_queue_send
    QUEUE_ENTER
    ldr     r3, [r0, #ZQ_WAITQ]
    cmp     r3, #0
    bne     5f                      /* a receiver waits */
    ldrh    r2, [r0, #ZQ_CAP]
    ldrh    r3, [r0, #ZQ_COUNT]
    cmp     r3, r2
    bhs     8f                      /* full: C waits, or returns K_EAGAIN */
    mov     r12, r2                 /* (the timeout is no longer needed) */
    adds    r2, r3, #1
    strh    r2, [r0, #ZQ_COUNT]
    ldrh    r2, [r0, #ZQ_HEAD]
    adds    r2, r2, r3              /* the slot after the last item */
    cmp     r2, r12
    bhs     4f                      /* (wraps: out of line) */
1:  QUEUE_COPY r1, r2
4:  mov     r3, r12
    subs    r2, r2, r3
    b       1b
5:
#if Z_HAS_WAIT_OBJ
    /* A receiver waits (r3). The hand-off, as the C's: into the buffer of a receiver that
     * waits without a timeout on an empty queue, which then returns without touching the
     * ring; here only when it does not outrank the caller (no switch). Anything else: C. */
    ldrh    r2, [r0, #ZQ_COUNT]
    cmp     r2, #0
    bne     8f                      /* items (a woken receiver has not taken its own yet) */
    ldr     r2, [r3, #ZT_TNEXT]
    cmp     r2, r3
    bne     8f                      /* a timeout (or a stale one) */
    push    {r4, r5, r6}
    ldr     r4, =z_kernel
    ldr     r4, [r4, #ZK_CURRENT]   /* (not NULL: a waiter means k_start has run) */
    ldrb    r5, [r3, #ZT_PRIO]
    ldrb    r4, [r4, #ZT_PRIO]
    cmp     r5, r4
    bhi     6f                      /* it preempts: C switches */
    ldr     r2, [r3, #ZT_NEXT]      /* off the wait queue */
    str     r2, [r0, #ZQ_WAITQ]
    ldr     r4, [r3, #ZT_WAKE]      /* its buffer */
    ldrh    r2, [r0, #ZQ_ITEM]
    COPY_WORDS_OR 3f, r1, r4, r2, r0
1:  movs    r0, #ZQ_DELIVERED       /* its result: handed over */
    str     r0, [r3, #ZT_WAIT]
    movs    r0, #ZS_READY
    strb    r0, [r3, #ZT_STATE]
    mov     r1, r3                  /* (READY_AT_TAIL wants r3 = &z_kernel) */
    ldr     r3, =z_kernel
    lsls    r6, r5, #2
    adds    r6, r6, r3
    READY_AT_TAIL r1, r5, r6, r2, r4, r0, r0
    pop     {r4, r5, r6}
    b       2b
3:  COPY_BYTES 1b, r1, r4, r2, r0
6:  pop     {r4, r5, r6}
#endif
    QUEUE_TO_C z_queue_send_slow, z_queue_send_c
    ENDFUNC k_queue_send

/* int k_queue_recv(struct k_queue *q, void *item, k_timeout_t timeout) */
    FUNC k_queue_recv
    QUEUE_ENTER
    ldr     r3, [r0, #ZQ_SWAITQ]
    cmp     r3, #0
    bne     8f                      /* a sender waits: C wakes it */
    ldrh    r3, [r0, #ZQ_COUNT]
    cmp     r3, #0
    beq     8f                      /* empty: C waits, or returns K_EAGAIN */
    subs    r3, r3, #1
    strh    r3, [r0, #ZQ_COUNT]
    ldrh    r3, [r0, #ZQ_CAP]
    ldrh    r2, [r0, #ZQ_HEAD]
    mov     r12, r3                 /* (the timeout is no longer needed) */
    adds    r3, r2, #1              /* the next head */
    cmp     r3, r12
    bhs     4f                      /* (wraps: out of line) */
1:  strh    r3, [r0, #ZQ_HEAD]
    QUEUE_COPY r2, r1
4:  movs    r3, #0
    b       1b
    QUEUE_TO_C z_queue_recv_slow, z_queue_recv_c
    ENDFUNC k_queue_recv

#endif /* K_CONFIG_FASTPATH && K_CONFIG_QUEUE */
