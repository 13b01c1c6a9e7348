/*
 * ARMv6-M PendSV of the fast paths (K_CONFIG_FASTPATH; see fast.S): save the interrupted
 * thread, choose the head of the highest ring (bitmap + table), restore.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* PendSV: save the interrupted thread, choose the head of the highest ring, restore. */
    FUNC PendSV_Handler
    .global z_fast_pendsv           /* (what every fast path refers to: fast_macros.inc) */
    .set    z_fast_pendsv, PendSV_Handler
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
