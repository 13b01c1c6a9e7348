/*
 * ARMv7-M context switch with synchronous switches (K_CONFIG_SYNC_SWITCH=1): the thread-mode
 * switch (switch_tail.inc), its rare ends, the PendSV handler of the C paths (the fast
 * paths' is fast_pendsv.S) and the start.
 *
 * A suspended thread's z_sp (k_thread offset 0) points at one of two frames:
 *   - light frame (bit 0 of z_sp clear): [r4-r11][return address], left by a synchronous
 *     switch of a thread without FP context; r0-r3 and r12 were declared clobbered by its
 *     caller (an AAPCS call's);
 *   - exception frame (bit 0 set): [r4-r11][EXC_RETURN], then s16-s31 when EXC_RETURN bit 4
 *     is clear (the thread had FP context: the hardware stacked an extended frame, s0-s15
 *     and FPSCR lazily), then the hardware frame; left by PendSV. Without an FPU, [r4-r11]
 *     only: a thread's EXC_RETURN is always 0xFFFFFFFD (pendsv.inc).
 * A light frame is resumed by popping it in thread mode, or by PendSV, which turns it into a
 * basic exception frame. An exception frame is resumed by PendSV only: a switch to such a
 * thread, or from a thread with FP context, pends PendSV (z_switch_pendsv_l). With no thread
 * to run, a plain thread that blocks leaves a light frame and the CPU idles
 * (z_switch_idle_l): a blocked thread without FP context always has a light frame.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_SYNC_SWITCH
    .syntax unified
    .thumb

#include "switch_tail.inc"
#include "pendsv.inc"

    .equ ICSR, 0xE000ED04
    .equ PENDSVSET, 0x10000000

/* The C code's switch (arch_switch, arch.h, a light call): r0 = from, r1 = to, masked. */
    .section .text.z_switch_l, "ax", %progbits
    .global z_switch_l
    .type z_switch_l, %function
    .thumb_func
z_switch_l:
    FRAME_SAVE
    mov     r2, r0
    ldr     r3, =z_kernel
    SWITCH_TAIL
    .ltorg
    .size z_switch_l, . - z_switch_l

/* The switch through PendSV (r2 = from, the current thread, its light frame pushed): pend
 * PendSV and lift the mask; PendSV saves `from` with an exception frame (its FP registers
 * too) and resumes the top thread. Returns `from`'s result, by its light frame, when it runs
 * again. */
    .section .text.z_switch_pendsv_l, "ax", %progbits
    .global z_switch_pendsv_l
    .type z_switch_pendsv_l, %function
    .thumb_func
z_switch_pendsv_l:
    mov     r4, r2
    ldr     r5, =ICSR
    mov     r6, #PENDSVSET
    str     r6, [r5]
    dsb
    IRQ_UNMASK r6
    isb                             /* PendSV is taken here; we return when rescheduled */
    RESULT_TO_R0 r4
    pop     {r4-r11, pc}
    .ltorg
    .size z_switch_pendsv_l, . - z_switch_pendsv_l

#if K_CONFIG_FASTPATH
/* The switch through PendSV of a plain `from` (r2, the current thread) to a `to` with an
 * exception frame (SWITCH_TAIL): `from`'s light frame is pushed, its z_sp stored and its
 * stack checked, so PendSV need not save it again: the flag tells the fast PendSV
 * (fast_pendsv.S), which clears it and resumes the top thread; `from` resumes later from its
 * light frame, its result from z_wait (pendsv.inc, RESUME_THREAD), never after the ISB. No
 * thread code runs between the flag and PendSV (PendSV is pended before the mask is lifted,
 * and an interrupt taken first tail-chains into it), and no handler but PendSV reads the
 * flag. */
    .section .text.z_switch_pendsv_saved_l, "ax", %progbits
    .global z_switch_pendsv_saved_l
    .type z_switch_pendsv_saved_l, %function
    .thumb_func
z_switch_pendsv_saved_l:
    movs    r4, #1
    strb    r4, [r3, #ZK_SAVED]
    ldr     r5, =ICSR
    mov     r6, #PENDSVSET
    str     r6, [r5]
    dsb
    IRQ_UNMASK r6
    isb                             /* PendSV is taken here and does not return here */
    b       .
    .ltorg
    .size z_switch_pendsv_saved_l, . - z_switch_pendsv_saved_l
#endif

/* Nothing is ready (r2 = from, its light frame pushed, masked): a plain `from` leaves it
 * like any other switch, and the CPU goes to the idle loop, in thread mode on the
 * interrupt stack (MSP, from its top; nothing else is on it in thread mode). The interrupt
 * that readies a thread pends PendSV, which resumes it from there. The current thread stays
 * `from`. A `from` with FP context goes through PendSV, which idles the same way. */
    .section .text.z_switch_idle_l, "ax", %progbits
    .global z_switch_idle_l
    .type z_switch_idle_l, %function
    .thumb_func
z_switch_idle_l:
#if defined(__ARM_FP)
    mrs     r4, control
    lsls    r4, r4, #29             /* N = FPCA */
    bmi     z_switch_pendsv_l
#endif
    SAVE_LIGHT
    ldr     r0, =__stack_top
    msr     msp, r0
    movs    r0, #0
    msr     control, r0             /* thread mode on MSP */
    isb
    b       z_idle_loop             /* (it lifts the mask) */
#if K_CONFIG_STACK_CHECK
92: b       z_switch_badsp_l
#endif
    .ltorg
    .size z_switch_idle_l, . - z_switch_idle_l

/* z_switch_idle_l for the C code (arch_switch_pend, arch.h, a light call): r0 = from. */
    .section .text.z_switch_idle_c, "ax", %progbits
    .global z_switch_idle_c
    .type z_switch_idle_c, %function
    .thumb_func
z_switch_idle_c:
    FRAME_SAVE
    mov     r2, r0
    b       z_switch_idle_l
    .size z_switch_idle_c, . - z_switch_idle_c

#if K_CONFIG_STACK_CHECK
/* The saved SP (already pushed: [r4-r11][return address]) is at or below the limit, or the guard
 * word is overwritten. The main stack (interrupts) lies below every thread stack, so a
 * thread-only call made from an interrupt handler lands here too: PendSV switches instead. */
    .section .text.z_switch_badsp_l, "ax", %progbits
    .global z_switch_badsp_l
    .type z_switch_badsp_l, %function
    .thumb_func
z_switch_badsp_l:
    mrs     r6, ipsr
    cbnz    r6, 1f
    msr     control, r6             /* leave the overflowed stack: report on MSP */
    isb
    mov     r0, r2
    bl      arch_fatal_stack
1:  ldr     r5, =ICSR
    mov     r6, #PENDSVSET
    str     r6, [r5]
    movs    r0, #0
    IRQ_UNMASK r6
    pop     {r4-r11, pc}
    .ltorg
    .size z_switch_badsp_l, . - z_switch_badsp_l
#endif

#if !K_CONFIG_FASTPATH
/* PendSV: save the interrupted thread, let z_sched_pendsv choose, resume the chosen one. */
    .section .text.PendSV_Handler, "ax", %progbits
    .global PendSV_Handler
    .type PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
    tst     lr, #4                  /* EXC_RETURN bit 2: a thread on PSP */
    beq     5f                      /* the idle loop (on MSP): nothing to save */
    SAVE_EXC_FRAME
4:  bl      z_sched_pendsv          /* returns the thread to run or NULL, masked */
    cbz     r0, 6f
    ldr     r1, [r0, #ZT_SP]
    RESUME_THREAD
5:  ldr     r0, =__stack_top
    msr     msp, r0                 /* drop the idle loop's frame (nothing else is on MSP) */
    movs    r0, #0                  /* nothing to save */
    b       4b
6:  IDLE_ENTER
    .ltorg
    .size PendSV_Handler, . - PendSV_Handler
#endif

/* First code of every thread: its first frame (arch_thread_init) leaves the argument and
 * the entry on the stack. */
    .section .text.z_thread_trampoline, "ax", %progbits
    .global z_thread_trampoline
    .type z_thread_trampoline, %function
    .thumb_func
z_thread_trampoline:
    pop     {r0, r1}
    blx     r1
    bl      k_thread_exit
    .size z_thread_trampoline, . - z_thread_trampoline

/* void arch_start(struct k_thread *t), masked: leave main's stack (MSP becomes the interrupt
 * stack again, from its top) and main's FP context (CONTROL.FPCA = 0), and run t, whose frame
 * is the light first frame from arch_thread_init. */
    .section .text.arch_start, "ax", %progbits
    .global arch_start
    .type arch_start, %function
    .thumb_func
arch_start:
    ldr     r1, [r0, #ZT_SP]
    msr     psp, r1
    movs    r2, #2
    msr     control, r2             /* thread mode uses PSP; no FP context */
    isb
    ldr     r2, =__stack_top
    msr     msp, r2
    ldr     r3, =z_kernel
    str     r0, [r3, #ZK_CURRENT]
    IRQ_UNMASK r2
    pop     {r4-r11, pc}            /* the light frame: r4-r11, z_thread_trampoline */
    .ltorg
    .size arch_start, . - arch_start
#endif
