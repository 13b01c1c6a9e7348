/*
 * ARMv7-M PendSV of the fast paths (K_CONFIG_FASTPATH; see fast.S): save the interrupted
 * thread, choose the head of the highest ring (bitmap + CLZ), restore (pendsv.inc).
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"
#include "pendsv.inc"

/* Resume the head of the highest ring (nothing ready: the idle loop, 6f); light_first:
 * RESUME_THREAD's. r3 = &z_kernel, masked. */
    .macro TOP_RESUME light_first
    LOAD_BITMAP r6
    cbz     r6, 65f
    TOPPRIO r6, r4
    add     r4, r3, r4, lsl #2
    ldr     r4, [r4, #ZK_READY]
    ldr     r0, [r4, #ZT_NEXT]
    str     r0, [r3, #ZK_CURRENT]
    ldr     r1, [r0, #ZT_SP]
    RESUME_THREAD \light_first
65: b       6f                      /* (CBZ reaches 126 bytes) */
    .endm

    FUNC PendSV_Handler
    .global z_fast_pendsv           /* (what every fast path refers to: fast_macros.inc) */
    .set    z_fast_pendsv, PendSV_Handler
    ldr     r3, =z_kernel
    ldrb    r1, [r3, #ZK_SAVED]
    ldr     r2, [r3, #ZK_CURRENT]   /* (pipelined; only thread mode and PendSV change it) */
    tst     lr, #4                  /* EXC_RETURN bit 2: a thread on PSP */
    beq     5f                      /* the idle loop (on MSP): nothing to save */
    cbnz    r1, 3f                  /* the thread saved its light frame already */
    SAVE_EXC_FRAME
    IRQ_MASK r1
    str     r0, [r2, #ZT_SP]
#if K_CONFIG_STACK_CHECK
    subs    r0, #1
    ldr     r4, [r2, #ZT_LIM]
    cmp     r0, r4
    bls     7f
    ldr     r5, [r4]
    cmp     r5, r4
    bne     7f
#endif
4:  TOP_RESUME 1
3:  /* z_switch_pendsv_saved_l: `from` saved, its stack checked; its hardware frame dropped;
     * the top thread resumed (mostly a preempted one, which the switch could not resume) */
    movs    r1, #0
    strb    r1, [r3, #ZK_SAVED]
    IRQ_MASK r1
    TOP_RESUME 0
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
