/*
 * ARMv7-M PendSV of the fast paths (K_CONFIG_FASTPATH; see fast.S): save the interrupted
 * thread, choose the head of the highest ring (bitmap + CLZ), restore (pendsv.inc). A thread
 * that switched to a preempted one saved itself (z_switch_pendsv_saved_l, sync_switch.S):
 * the flag z_kernel.pendsv_saved says so, and nothing is saved.
 *
 * r3 holds &z_kernel.ready[0] (PK below), so that the ring's tail is one load indexed by the
 * priority; the other fields are at negative offsets from it.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"
#include "pendsv.inc"

    .equ PK, ZK_READY

    .macro PK_LOAD_BITMAP dst
#if K_CONFIG_PRIO_LEVELS > 8
    ldrh    \dst, [r3, #(ZK_BITMAP - PK)]
#else
    ldrb    \dst, [r3, #(ZK_BITMAP - PK)]
#endif
    .endm

/* The head of the ring \tail (its tail) becomes the current thread: r0, its z_sp in r1 */
    .macro HEAD_CURRENT tail
    ldr     r0, [\tail, #ZT_NEXT]
    str     r0, [r3, #(ZK_CURRENT - PK)]
    ldr     r1, [r0, #ZT_SP]
    .endm

/* Resume the head of the highest ring (nothing ready: the idle loop, 6f); light_first:
 * RESUME_THREAD's. Masked. */
    .macro TOP_RESUME light_first
    PK_LOAD_BITMAP r6
    cbz     r6, 65f
    TOPPRIO r6, r4
    ldr     r4, [r3, r4, lsl #2]
    HEAD_CURRENT r4
    RESUME_THREAD \light_first
65: b       6f                      /* (CBZ reaches 126 bytes) */
    .endm

/* Placed between the main path's two resumes (RESUME_THREAD's `between`), within reach of
 * its CBZs: 66, the main path's exit to the idle loop; 3, a thread that switched by
 * z_switch_pendsv_saved_l: saved, its stack checked, its hardware frame dropped; the top
 * thread resumed, mostly a preempted one (which the switch could not resume). */
    .macro SAVED_RESUME
66: str     r0, [r2, #ZT_SP]
    b       6f
3:  movs    r1, #0
    strb    r1, [r3, #(ZK_SAVED - PK)]
    IRQ_MASK r1
4:  TOP_RESUME 0                    /* (4: the idle loop's way in too) */
    .endm

    FUNC PendSV_Handler
    .global z_fast_pendsv           /* (what every fast path refers to: fast_macros.inc) */
    .set    z_fast_pendsv, PendSV_Handler
    ldr     r3, =z_kernel + PK
    /* (the loads pipelined: none's address is the one before's result; only thread mode
     * and PendSV change the current thread) */
    ldr     r2, [r3, #(ZK_CURRENT - PK)]
    ldrb    r1, [r3, #(ZK_SAVED - PK)]
#if K_CONFIG_STACK_CHECK
    ldr     r12, [r2, #ZT_LIM]      /* (r12: the hardware saved the thread's) */
#endif
    tst     lr, #4                  /* EXC_RETURN bit 2: a thread on PSP */
    beq     5f                      /* the idle loop (on MSP): nothing to save */
    cbnz    r1, 3f                  /* the thread saved its light frame already */
    SAVE_EXC_FRAME 0                /* r0: the base of its saved registers */
    IRQ_MASK r1
#if K_CONFIG_STACK_CHECK
    cmp     r0, r12
    bls     7f
    ldr     r5, [r12]
    PK_LOAD_BITMAP r6               /* (pipelined behind the guard word's load) */
    cmp     r5, r12
    bne     7f
#else
    PK_LOAD_BITMAP r6
#endif
    adds    r0, #1                  /* bit 0 set: an exception frame */
    cbz     r6, 66f
    TOPPRIO r6, r4
    str     r0, [r2, #ZT_SP]        /* (between TOPPRIO and the load that uses it) */
    ldr     r4, [r3, r4, lsl #2]
    HEAD_CURRENT r4
    RESUME_THREAD 1, SAVED_RESUME   /* mostly a thread that blocked: a light frame */
5:  /* from the idle loop: nothing to save; drop its frame (nothing else is on MSP) */
    IRQ_MASK r0
    ldr     r0, =__stack_top
    msr     msp, r0
    b       4b
6:  IDLE_ENTER                      /* nothing to run */
#if K_CONFIG_STACK_CHECK
7:  mov     r0, r2
    bl      arch_fatal_stack
#endif
    ENDFUNC PendSV_Handler

#endif /* K_CONFIG_FASTPATH */
