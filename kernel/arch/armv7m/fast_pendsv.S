/*
 * ARMv7-M PendSV of the fast paths (K_CONFIG_FASTPATH; see fast.S): save the interrupted
 * thread, choose the head of the highest ring (bitmap + CLZ), restore (pendsv.inc).
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"
#include "pendsv.inc"

    FUNC PendSV_Handler
    .global z_fast_pendsv           /* (what every fast path refers to: fast_macros.inc) */
    .set    z_fast_pendsv, PendSV_Handler
    ldr     r3, =z_kernel
    ldrb    r1, [r3, #ZK_SAVED]
    tst     lr, #4                  /* EXC_RETURN bit 2: a thread on PSP */
    beq     5f                      /* the idle loop (on MSP): nothing to save */
    cbnz    r1, 3f                  /* the thread saved its light frame already */
    SAVE_EXC_FRAME
    IRQ_MASK r1
    ldr     r2, [r3, #ZK_CURRENT]
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
4:  LOAD_BITMAP r6
    cbz     r6, 6f
    TOPPRIO r6, r4
    add     r4, r3, r4, lsl #2
    ldr     r4, [r4, #ZK_READY]
    ldr     r0, [r4, #ZT_NEXT]
    str     r0, [r3, #ZK_CURRENT]
    ldr     r1, [r0, #ZT_SP]
    RESUME_THREAD
3:  /* z_switch_pendsv_saved_l: `from` saved, its stack checked; its hardware frame dropped */
    movs    r1, #0
    strb    r1, [r3, #ZK_SAVED]
    IRQ_MASK r1
    b       4b
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
