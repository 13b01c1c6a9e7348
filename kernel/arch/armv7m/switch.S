/*
 * ARMv7-M context switch, the PendSV-only build (K_CONFIG_SYNC_SWITCH=0: every switch goes
 * through PendSV; the thread-mode switch is sync_switch.S) and the idle loop of both builds.
 *
 * A suspended thread's z_sp points at [r4-r11][EXC_RETURN], below which the hardware's
 * exception frame lies; with an FPU, when EXC_RETURN bit 4 is clear (the thread had used the
 * FPU: an extended frame), s16-s31 lie between the two. The idle loop runs in thread mode on
 * the interrupt stack (MSP) and keeps its own exception frame at the top of it: the first
 * PendSV, taken from the loop (arch_start), leaves it there, the handlers run below it, and
 * with nothing to run PendSV returns to it (no frame to build).
 */
#include "rtoslab/config.h"
#include "offsets.h"
#include "pendsv.inc"

    .syntax unified
    .thumb

    .equ ICSR, 0xE000ED04
    .equ PENDSVSET, 0x10000000

#if !K_CONFIG_SYNC_SWITCH
    .section .text.PendSV_Handler, "ax", %progbits
    .global PendSV_Handler
    .type PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
    movs    r0, #0                  /* nothing to save: PendSV left the idle loop (MSP) */
    tst     lr, #4                  /* EXC_RETURN bit 2: a thread on PSP */
    beq     1f
    mrs     r0, psp
#if defined(__ARM_FP)
    tst     lr, #0x10               /* bit 4 clear: the thread used the FPU (extended frame) */
    it      eq
    vstmdbeq r0!, {s16-s31}         /* (also completes the lazy save of s0-s15, FPSCR) */
#endif
    stmdb   r0!, {r4-r11, lr}
1:  bl      z_sched_pendsv          /* returns the thread to run or NULL, IRQs masked */
    cbz     r0, 2f
    ldr     r1, [r0, #ZT_SP]
    ldmia   r1!, {r4-r11, lr}
#if defined(__ARM_FP)
    tst     lr, #0x10
    it      eq
    vldmiaeq r1!, {s16-s31}
#endif
    msr     psp, r1
    movs    r0, #0
    msr     basepri, r0
    bx      lr
#if K_CONFIG_TICKLESS && K_CONFIG_DEEP_IDLE
    /* Nothing to run: the idle loop afresh (it lifts the mask), not its frame resumed: PendSV
     * may have left it inside z_idle_prepare (C, interrupts enabled), whose r4-r11 no frame
     * holds; resumed, they would be the last thread's. */
2:  IDLE_ENTER
    .ltorg
#else
2:  movs    r0, #0                  /* nothing to run: resume the idle loop's frame */
    msr     basepri, r0
    mvn     lr, #6                  /* 0xFFFFFFF9: thread mode, MSP, basic frame */
    bx      lr
#endif
    .size PendSV_Handler, . - PendSV_Handler

/* void arch_start(struct k_thread *t), IRQs masked: drop main's stack (MSP becomes the
 * interrupt stack again, from its top), leave main's FP context (CONTROL.FPCA = 0: the idle
 * loop's frame is a basic one) and enter the idle loop, which pends PendSV; PendSV, with
 * nothing to save, resumes the top thread (`t`) from its first frame (arch_thread_init). */
    .section .text.arch_start, "ax", %progbits
    .global arch_start
    .type arch_start, %function
    .thumb_func
arch_start:
    ldr     r1, =__stack_top
    msr     msp, r1
    movs    r1, #0
    msr     control, r1
    isb
    b       z_idle_loop
    .ltorg
    .size arch_start, . - arch_start
#endif

/* The idle loop: sleep until an interrupt; when a thread is ready, pend PendSV (taken at the
 * ISB). It looks with PRIMASK set, not BASEPRI: WFI wakes on an interrupt that PRIMASK
 * masks, but not on one that BASEPRI masks. */
    .section .text.z_idle_loop, "ax", %progbits
    .global z_idle_loop
    .type z_idle_loop, %function
    .thumb_func
z_idle_loop:
    ldr     r3, =z_kernel
    ldr     r2, =ICSR
    mov     r1, #PENDSVSET
    movs    r0, #0
    msr     basepri, r0
1:  cpsid   i
#if K_CONFIG_READY_LIST
    ldr     r0, [r3, #ZK_READY]     /* the head of the ready list */
#elif K_CONFIG_PRIO_LEVELS > 8
    ldrh    r0, [r3, #ZK_BITMAP]
#else
    ldrb    r0, [r3, #ZK_BITMAP]
#endif
    cbnz    r0, 2f
#if K_CONFIG_TICKLESS && K_CONFIG_DEEP_IDLE
    /* Nothing ready: choose sleep or deep sleep (time.c) with interrupts enabled, so that the
     * choice delays no interrupt; then look again, masked, and sleep. (Deep sleep is chosen
     * only when no interrupt but a far alarm can come, so none can stale the choice.) */
    cpsie   i
    bl      z_idle_prepare
    ldr     r3, =z_kernel
    ldr     r2, =ICSR
    mov     r1, #PENDSVSET
    cpsid   i
#if K_CONFIG_READY_LIST
    ldr     r0, [r3, #ZK_READY]     /* the head of the ready list */
#elif K_CONFIG_PRIO_LEVELS > 8
    ldrh    r0, [r3, #ZK_BITMAP]
#else
    ldrb    r0, [r3, #ZK_BITMAP]
#endif
    cbnz    r0, 2f
#endif
    wfi
    cpsie   i                       /* the interrupt runs here */
    b       1b
2:  str     r1, [r2]
    cpsie   i
    isb                             /* PendSV is taken here */
    b       1b
    .ltorg
    .size z_idle_loop, . - z_idle_loop

#if !K_CONFIG_SYNC_SWITCH

/* int arch_switch_pend(struct k_thread *from (r0)), IRQs masked: pend PendSV, which saves
 * `from` once the mask is lifted; returns when `from` runs again. */
    .section .text.arch_switch_pend, "ax", %progbits
    .global arch_switch_pend
    .type arch_switch_pend, %function
    .thumb_func
arch_switch_pend:
    push    {r4, lr}
    mov     r4, r0
    ldr     r2, =ICSR
    mov     r3, #PENDSVSET
    str     r3, [r2]
    dsb
    movs    r3, #0
    msr     basepri, r3
    cpsie   i                       /* (a thread that blocks with PRIMASK set unmasks, as on ARMv6-M) */
    isb                             /* PendSV is taken here; we return when rescheduled */
#if Z_HAS_WAIT_OBJ
    ldr     r0, [r4, #ZT_WAIT]      /* the result of the wait */
#else
    movs    r0, #0
#endif
    pop     {r4, pc}
    .ltorg
    .size arch_switch_pend, . - arch_switch_pend
#endif
