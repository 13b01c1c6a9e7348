/*
 * ARMv7-M fast paths of the message queues (K_CONFIG_FASTPATH, K_CONFIG_QUEUE; see fast.S):
 * k_queue_send into a queue with room and no waiting receiver, k_queue_recv from a non-empty
 * queue with no waiting sender. AAPCS routines (neither waits nor wakes, so neither
 * switches); masked as the C (BASEPRI set, then cleared). Anything else goes to the C code
 * with the original arguments, so the results are C's: an error (NULL or another object, a
 * NULL item) to z_queue_*_c; a waiter to hand the item to or to wake, a full or empty queue
 * (the wait or the timeout) to z_queue_*_slow, which masks after its register saves (the
 * common ones are seen before masking, so that nothing of this code lengthens the C's
 * masked section). The item is copied by words
 * (two at a time) when the buffer, the item and the size are word-aligned, else by bytes, as
 * the C.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_QUEUE

#include "fast_macros.inc"

/* Copy \n bytes (a multiple of 4, not 0) from \src to \dst, word-aligned (both advanced):
 * an odd word, then pairs (LDM/STM of \t0, \t1, in ascending order). Clobbers \n. */
    .macro COPY_WORDS dst, src, n, t0, t1
    tst     \n, #4
    beq     71f
    ldr     \t0, [\src], #4
    str     \t0, [\dst], #4
71: lsrs    \n, \n, #3
    beq     72f
73: ldmia   \src!, {\t0, \t1}
    stmia   \dst!, {\t0, \t1}
    subs    \n, \n, #1
    bne     73b
72:
    .endm

/* Copy r12 bytes (not 0) from \src to \dst (both advanced), unmask and return 0; clobbers
 * r0, r3. COPY_WORDS_RETURN, then the routine's tail calls, then COPY_BYTES_RETURN (so that
 * the tail calls are within CBZ's reach of the checks). */
    .macro COPY_WORDS_RETURN dst, src
    orr     r0, \dst, \src
    orr     r0, r0, r12
    lsls    r0, r0, #30
    bne     3f                      /* not word-aligned: by bytes */
    COPY_WORDS \dst, \src, r12, r0, r3
2:  IRQ_UNMASK r0                   /* (r0 = 0: the result) */
    bx      lr
    .endm
    .macro COPY_BYTES_RETURN dst, src
3:  subs    r12, r12, #1
    ldrb    r0, [\src, r12]
    strb    r0, [\dst, r12]
    bne     3b
    b       2b
    .endm

/* int k_queue_send(struct k_queue *q, const void *item, k_timeout_t timeout) */
    FUNC k_queue_send
    MASKED_TO 9f, r3, r12           /* masked: C keeps the mask (issue 31) */
#if K_CONFIG_CHECKS /* (NULL, the type, a NULL item: C's Z_CHECK) */
    cbz     r0, 9f
    ldrb    r12, [r0, #ZQ_TYPE]
    ldr     r3, [r0, #ZQ_WAITQ]     /* (pipelined) */
    cmp     r12, #ZO_QUEUE
    bne     9f
    cbz     r1, 9f
#else
    ldr     r3, [r0, #ZQ_WAITQ]
#endif
    cbnz    r3, 5f                  /* a receiver waits */
    IRQ_MASK r3
    ldr     r3, [r0, #ZQ_WAITQ]     /* (again, masked: a thread may have come to wait) */
    ldrh    r12, [r0, #ZQ_CAP]
    cbnz    r3, 8f
    ldrh    r3, [r0, #ZQ_COUNT]
    cmp     r3, r12
    bhs     8f                      /* full: C waits, or returns K_EAGAIN */
    adds    r2, r3, #1
    strh    r2, [r0, #ZQ_COUNT]
    ldrh    r2, [r0, #ZQ_HEAD]
    add     r2, r2, r3              /* the slot after the last item */
    cmp     r2, r12
    it      hs
    subhs   r2, r2, r12
    ldrh    r12, [r0, #ZQ_ITEM]
    ldr     r3, [r0, #ZQ_BUF]
    mla     r2, r2, r12, r3
    COPY_WORDS_RETURN r2, r1
8:  IRQ_UNMASK r3
7:  b       z_queue_send_slow       /* r0-r2 are the arguments */
9:  b       z_queue_send_c          /* (an error) r0-r2 are the arguments */
    COPY_BYTES_RETURN r2, r1
5:
#if Z_HAS_WAIT_OBJ
    /* A receiver waits (r3, seen unmasked). The hand-off, as the C's: into the buffer of a
     * receiver that waits without a timeout on an empty queue, which then returns without
     * touching the ring; here only when it does not outrank the caller (no switch) and the
     * copy is by words. Anything else: C. */
    IRQ_MASK r3
    ldr     r3, [r0, #ZQ_WAITQ]     /* (again, masked) */
    ldrh    r12, [r0, #ZQ_COUNT]
    cmp     r3, #0
    beq     8b                      /* gone */
    cmp     r12, #0
    bne     8b                      /* items (a woken receiver has not taken its own yet) */
    ldr     r12, [r3, #ZT_TNEXT]
    cmp     r12, r3
    bne     8b                      /* a timeout (or a stale one) */
    push    {r4, r5}
    ldr     r4, =z_kernel
    ldr     r4, [r4, #ZK_CURRENT]   /* (not NULL: a waiter means k_start has run) */
    ldrb    r5, [r3, #ZT_PRIO]
    ldrb    r4, [r4, #ZT_PRIO]
    cmp     r5, r4
    bhi     6f                      /* it preempts: C switches */
    ldr     r4, [r3, #ZT_WAKE]      /* its buffer */
    ldrh    r5, [r0, #ZQ_ITEM]
    orr     r12, r4, r1
    orr     r12, r12, r5
    lsls    r12, r12, #30
    bne     6f                      /* not word-aligned */
    ldr     r12, [r3, #ZT_NEXT]     /* off the wait queue */
    str     r12, [r0, #ZQ_WAITQ]
    COPY_WORDS r4, r1, r5, r0, r12
    movs    r0, #ZQ_DELIVERED       /* its result: handed over */
    str     r0, [r3, #ZT_WAIT]
    movs    r0, #ZS_READY
    strb    r0, [r3, #ZT_STATE]
    ldrb    r12, [r3, #ZT_PRIO]
    mov     r2, r3
    ldr     r3, =z_kernel
    add     r0, r3, r12, lsl #2
    READY_AT_TAIL r2, r12, r0, r4, r5, r4
    pop     {r4, r5}
    IRQ_UNMASK r0                   /* (r0 = 0: the result) */
    bx      lr
6:  pop     {r4, r5}
    b       8b
#else
    b       7b
#endif
    ENDFUNC k_queue_send

/* int k_queue_recv(struct k_queue *q, void *item, k_timeout_t timeout) */
    FUNC k_queue_recv
    MASKED_TO 9f, r3, r12           /* masked: C keeps the mask (issue 31) */
#if K_CONFIG_CHECKS /* (as the send's) */
    cbz     r0, 9f
    ldrb    r12, [r0, #ZQ_TYPE]
    ldrh    r3, [r0, #ZQ_COUNT]     /* (pipelined) */
    cmp     r12, #ZO_QUEUE
    bne     9f
    cbz     r1, 9f
#else
    ldrh    r3, [r0, #ZQ_COUNT]
#endif
    cbz     r3, 7f                  /* empty: C waits, or returns K_EAGAIN */
    IRQ_MASK r3
    ldr     r3, [r0, #ZQ_SWAITQ]
    cbnz    r3, 8f                  /* a sender waits: C wakes it */
    ldrh    r3, [r0, #ZQ_COUNT]     /* (again, masked: a thread may have taken the item) */
    cbz     r3, 8f
    subs    r3, r3, #1
    strh    r3, [r0, #ZQ_COUNT]
    ldrh    r2, [r0, #ZQ_HEAD]
    ldrh    r12, [r0, #ZQ_CAP]      /* (pipelined) */
    adds    r3, r2, #1              /* the next head */
    cmp     r3, r12
    it      hs
    movhs   r3, #0
    strh    r3, [r0, #ZQ_HEAD]
    ldrh    r12, [r0, #ZQ_ITEM]
    ldr     r3, [r0, #ZQ_BUF]
    mla     r2, r2, r12, r3
    COPY_WORDS_RETURN r1, r2
8:  IRQ_UNMASK r3
7:  b       z_queue_recv_slow       /* r0-r2 are the arguments */
9:  b       z_queue_recv_c          /* (an error) r0-r2 are the arguments */
    COPY_BYTES_RETURN r1, r2
    ENDFUNC k_queue_recv

#endif /* K_CONFIG_FASTPATH && K_CONFIG_QUEUE */
