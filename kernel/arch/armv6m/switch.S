/*
 * ARMv6-M context switch: the synchronous (thread-mode) switch and the PendSV handler.
 *
 * A suspended thread's z_sp (k_thread offset 0) points at one of two frames:
 *   - "sync" frame (bit 0 of z_sp clear): [r7][return address], left by a synchronous
 *     switch (switch_tail.inc); everything else the thread needs is either on its stack
 *     already (z_call_full's saved r4-r11) or was declared clobbered by its caller;
 *   - "exception" frame (bit 0 set): [r8-r11][r4-r7] then the hardware exception frame
 *     (r0-r3, r12, lr, pc, xPSR), left by PendSV.
 * A sync frame is resumed by popping it in thread mode, or from PendSV by turning it into an
 * exception frame. An exception frame is resumed by PendSV's exception return, or by a
 * synchronous switch in thread mode (z_resume_exc_l). With no thread to run, a thread that
 * blocks leaves a light frame too and the CPU idles (z_switch_idle_l, arch_switch_pend): a
 * blocked thread always has a light frame.
 */
#include "rtoslab/config.h"
#include "offsets.h"

    .syntax unified
    .cpu cortex-m0
    .thumb

#include "idle.inc"
#include "switch_tail.inc"

    .equ ICSR, 0xE000ED04
    .equ PENDSVSET, 0x10000000

#if K_CONFIG_SYNC_SWITCH
/* z_call_full: call the light routine in r3 for a caller that follows the AAPCS: save and
 * restore r4-r11 around it (r0, r1 are its arguments, r0 its result). Also the frame that
 * keeps those registers while the thread is switched out. */
    .section .text.z_call_full, "ax", %progbits
    .global z_call_full
    .type z_call_full, %function
    .thumb_func
z_call_full:
    push    {r3-r7, lr}             /* (r3: keeps the stack 8-byte aligned) */
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
    blx     r3
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r3-r7, pc}
    .size z_call_full, . - z_call_full

/* The C code's switch (arch_switch, arch.h, a light call): r0 = from, r1 = to, IRQs
 * disabled. */
    .section .text.z_switch_l, "ax", %progbits
    .global z_switch_l
    .type z_switch_l, %function
    .thumb_func
z_switch_l:
    mov     r2, r0
    ldr     r3, =z_kernel
    SWITCH_TAIL
    .ltorg
    .size z_switch_l, . - z_switch_l

/* The end of a switch to a thread that was preempted (r0 = its z_sp: an exception frame,
 * bit 0 set), in thread mode: `from` is saved and z_kernel.current is `to` already. Restores
 * r8-r11, r4-r7, then the hardware part: lr, r12, the flags, r0-r3, and the pc last, popped
 * from the frame's xPSR slot (or the word above it when the frame was realigned, xPSR bit
 * 9), which leaves SP where the exception return would have. Cheaper than pending PendSV.
 *
 * IRQs are enabled just before that last pop, so an interrupt may preempt the thread
 * there, at one of the pops of 7f..4f, with its real pc as the word at its SP. Resumed here
 * again, such a frame must not get a new return word below that one: under a periodic
 * interrupt that hits every restore, the words piled up and the stack leaked (issue 31).
 * So a frame whose pc is one of those pops (the range check, 4 cycles) is resumed with SP
 * at that word and popped directly. */
    .section .text.z_resume_exc_l, "ax", %progbits
    .global z_resume_exc_l
    .type z_resume_exc_l, %function
    .thumb_func
z_resume_exc_l:
    subs    r0, #1
    mov     sp, r0
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r4-r7}
    ldr     r0, [sp, #20]           /* lr */
    mov     lr, r0
    ldr     r0, [sp, #16]           /* r12 */
    mov     r12, r0
    ldr     r0, [sp, #24]           /* pc */
    ldr     r1, [sp, #28]           /* xPSR */
    mov     r2, pc              /* = 7f (the pc reads 4 ahead) */
    subs    r2, r0, r2
7:  cmp     r2, #(4f - 7b)      /* (7b..4f: IRQs masked but at the pops) */
    bls     5f                      /* preempted at one of the pops below */
    adds    r0, #1                  /* (a popped pc needs the Thumb bit) */
    lsls    r2, r1, #22             /* N = bit 9: the frame was realigned by 4 */
    bmi     1f
    str     r0, [sp, #28]
    msr     APSR_nzcvq, r1          /* (nothing below sets the flags) */
    pop     {r0-r3}
    add     sp, #12
    cpsie   i
    pop     {pc}
1:  str     r0, [sp, #32]
    msr     APSR_nzcvq, r1
    pop     {r0-r3}
2:  add     sp, #16
    cpsie   i
    pop     {pc}
5:  lsls    r2, r1, #22             /* the real pc is the word at the frame's old SP */
    bmi     6f
    msr     APSR_nzcvq, r1
    pop     {r0-r3}
    b       2b
6:  msr     APSR_nzcvq, r1
    pop     {r0-r3}
    add     sp, #20
    cpsie   i
4:  pop     {pc}
    .size z_resume_exc_l, . - z_resume_exc_l

/* The rare ends of a light switch (r2 = from, lr = where it resumes, IRQs disabled). */
/* Nothing is ready: `from` leaves a light frame like any other switch (so that a blocked
 * thread always has one), and the CPU goes to the idle loop, in thread mode on the
 * interrupt stack (MSP, from its top; nothing else is on it in thread mode). The
 * interrupt that readies a thread pends PendSV, which resumes it from there. The current
 * thread stays `from`, the one that left. */
    .section .text.z_switch_idle_l, "ax", %progbits
    .global z_switch_idle_l
    .type z_switch_idle_l, %function
    .thumb_func
z_switch_idle_l:
    SAVE_LIGHT
    ldr     r0, =__stack_top
    msr     msp, r0
    movs    r0, #0
    msr     control, r0             /* thread mode on MSP */
    isb
    ldr     r0, =z_idle_loop
    bx      r0                      /* (it enables the interrupts) */
#if K_CONFIG_STACK_CHECK
92: ldr     r0, =z_switch_badsp_l
    bx      r0
#endif
    .ltorg
    .size z_switch_idle_l, . - z_switch_idle_l

#if K_CONFIG_STACK_CHECK
/* The saved SP (already pushed: [r7][return address]) is at or below the limit, or the guard
 * word is overwritten. The main stack (interrupts) lies below every thread stack, so a
 * thread-only call made from an interrupt handler lands here too: PendSV switches instead. */
    .section .text.z_switch_badsp_l, "ax", %progbits
    .global z_switch_badsp_l
    .type z_switch_badsp_l, %function
    .thumb_func
z_switch_badsp_l:
    mrs     r6, ipsr
    cmp     r6, #0
    bne     1f
    movs    r6, #0
    msr     control, r6             /* leave the overflowed stack: report on MSP */
    isb
    mov     r0, r2
    bl      arch_fatal_stack
1:  ldr     r5, =ICSR
    ldr     r6, =PENDSVSET
    str     r6, [r5]
    movs    r0, #0
    cpsie   i
    pop     {r7, pc}
    .ltorg
    .size z_switch_badsp_l, . - z_switch_badsp_l
#endif
#endif

#if K_CONFIG_SYNC_SWITCH
/* z_switch_idle_l for the C code (arch_switch_pend, arch.h, a light call): r0 = from. */
    .section .text.z_switch_idle_c, "ax", %progbits
    .global z_switch_idle_c
    .type z_switch_idle_c, %function
    .thumb_func
z_switch_idle_c:
    mov     r2, r0
    b       z_switch_idle_l
    .size z_switch_idle_c, . - z_switch_idle_c
#endif

#if !K_CONFIG_FASTPATH && K_CONFIG_SYNC_SWITCH
/* PendSV: save the interrupted thread, let z_sched_pendsv choose, resume the chosen one. */
    .section .text.PendSV_Handler, "ax", %progbits
    .global PendSV_Handler
    .type PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
    mov     r0, lr
    lsls    r0, r0, #29             /* N = bit 2 of EXC_RETURN: a thread on PSP */
    bpl     5f                      /* the idle loop (on MSP): nothing to save */
    SAVE_EXC_FRAME
4:  bl      z_sched_pendsv          /* returns the thread to run or NULL, IRQs disabled */
    cmp     r0, #0
    beq     6f
    ldr     r1, [r0, #ZT_SP]
    lsrs    r2, r1, #1              /* carry = bit 0 */
    bcc     2f
    RESTORE_EXC_FRAME
    msr     psp, r1
    movs    r0, #2
    mvns    r0, r0                  /* 0xFFFFFFFD: thread mode, PSP */
    cpsie   i
    bx      r0
2:  /* sync frame */
    SYNC_TO_EXC_FRAME
    msr     psp, r1
    movs    r0, #2
    mvns    r0, r0
    cpsie   i
    bx      r0
5:  cpsid   i
    ldr     r0, =__stack_top
    msr     msp, r0                 /* drop the idle loop's frame (nothing else is on MSP) */
    movs    r0, #0                  /* nothing to save */
    b       4b
6:  IDLE_ENTER                      /* nothing to run */
    .size PendSV_Handler, . - PendSV_Handler

#elif !K_CONFIG_SYNC_SWITCH
/* The PendSV-only build (K_CONFIG_SYNC_SWITCH=0): PendSV_Handler, arch_start, z_idle_loop and
 * arch_switch_pend, which every application links, in one section with one literal pool.
 *
 * Every switch goes through PendSV and every suspended thread has an exception frame. The
 * idle loop keeps its own exception frame at the top of the interrupt stack (MSP): the first
 * PendSV, taken from the loop (arch_start), leaves it there, the handlers run below it, and
 * with nothing to run PendSV returns to it (no frame to build). With the ready list and
 * nothing else to do in C (stack check, assertions), PendSV picks the head of the list
 * itself. */
#define Z_PENDSV_PICKS (K_CONFIG_READY_LIST && !K_CONFIG_STACK_CHECK && !K_CONFIG_ASSERT)
    .section .text.PendSV_Handler, "ax", %progbits
    .global PendSV_Handler
    .type PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
    ldr     r3, =z_kernel
    mov     r0, lr
    lsls    r0, r0, #29             /* N = bit 2 of EXC_RETURN: a thread on PSP */
    bpl     1f                      /* the idle loop (on MSP): nothing to save */
    SAVE_EXC_FRAME
#if Z_PENDSV_PICKS
    ldr     r1, [r3, #ZK_CURRENT]
    str     r0, [r1, #ZT_SP]
1:  cpsid   i
    ldr     r0, [r3, #ZK_READY]     /* the head of the ready list runs */
#if Z_IDLE_NO_CURRENT
    str     r0, [r3, #ZK_CURRENT]   /* (NULL: idle, config.h) */
#endif
    cmp     r0, #0
    beq     3f
#if !Z_IDLE_NO_CURRENT
    str     r0, [r3, #ZK_CURRENT]
#endif
#else
    b       2f
1:  movs    r0, #0                  /* nothing to save */
2:  bl      z_sched_pendsv          /* returns the thread to run or NULL, IRQs disabled */
    cmp     r0, #0
    beq     3f
#endif
    ldr     r1, [r0, #ZT_SP]
    RESTORE_EXC_FRAME
    msr     psp, r1
    movs    r0, #2                  /* ~2 = 0xFFFFFFFD: thread mode, PSP */
4:  mvns    r0, r0
    cpsie   i
    bx      r0
#if K_CONFIG_TICKLESS && K_CONFIG_DEEP_IDLE
    /* Nothing to run: the idle loop afresh, not its frame resumed: PendSV may have left it
     * inside z_idle_prepare (C, interrupts enabled), whose r4-r11 no frame holds; resumed,
     * they were the last thread's (a store through them hit a thread's saved sp: vp-stm32f0,
     * ktest_kernel_list under speed). */
3:  IDLE_ENTER
#else
3:  movs    r0, #6                  /* nothing to run: resume the idle loop's frame */
    b       4b                      /* ~6 = 0xFFFFFFF9: thread mode, MSP */
#endif
    .size PendSV_Handler, . - PendSV_Handler

/* void arch_start(struct k_thread *t), IRQs disabled: drop main's stack (MSP becomes the
 * interrupt stack again, from its top) and enter the idle loop, which pends PendSV (or pend
 * it here, where the idle loop only sleeps: Z_IDLE_NO_CURRENT, config.h); PendSV,
 * with nothing to save, resumes the top thread (`t`) from its first frame, an exception
 * frame that starts the entry (arch_thread_init): no trampoline, no second start path. */
    .global arch_start
    .type arch_start, %function
    .thumb_func
arch_start:
    ldr     r1, =__stack_top
    msr     msp, r1
#if Z_IDLE_NO_CURRENT
    bl      arch_switch_pend        /* (the idle loop does not pend PendSV: the first one here) */
#endif
    .size arch_start, . - arch_start
    /* (falls into the idle loop) */

/* The idle loop: sleep until an interrupt; when a thread is ready, pend PendSV. (Only sleep
 * where the interrupt that readies a thread pends PendSV in every case: config.h,
 * Z_IDLE_NO_CURRENT.) */
    .global z_idle_loop
    .type z_idle_loop, %function
    .thumb_func
z_idle_loop:
#if Z_IDLE_NO_CURRENT
1:  wfi
    b       1b
#else
    IDLE_LOOP
#endif
    .size z_idle_loop, . - z_idle_loop

/* int arch_switch_pend(struct k_thread *from (r0)), IRQs disabled: pend PendSV, which saves
 * `from` once interrupts are enabled; returns when `from` runs again. */
    .global arch_switch_pend
    .type arch_switch_pend, %function
    .thumb_func
arch_switch_pend:
#if Z_HAS_WAIT_OBJ
    push    {r4, lr}
    mov     r4, r0
#endif
    ldr     r2, =ICSR
    movs    r3, #1
    lsls    r3, r3, #28             /* PENDSVSET */
    str     r3, [r2]
    dsb
    cpsie   i
    isb                             /* PendSV is taken here; we return when rescheduled */
#if Z_HAS_WAIT_OBJ
    ldr     r0, [r4, #ZT_WAIT]      /* the result of the wait */
    pop     {r4, pc}
#else
    movs    r0, #0
    bx      lr
#endif
    .ltorg
    .size arch_switch_pend, . - arch_switch_pend
#endif

#if K_CONFIG_SYNC_SWITCH
/* The idle loop: sleep until an interrupt; when a thread is ready, PendSV switches to it
 * (the interrupt that readied it pends PendSV only if the thread outranks the one that left
 * before the idle loop; the loop pends it in any case). */
    .section .text.z_idle_loop, "ax", %progbits
    .global z_idle_loop
    .type z_idle_loop, %function
    .thumb_func
z_idle_loop:
    IDLE_LOOP
    .size z_idle_loop, . - z_idle_loop

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

/* void arch_start(struct k_thread *t): leave main's stack (MSP becomes the interrupt stack
 * again, from its top) and run t, whose frame is the first frame from arch_thread_init. */
    .section .text.arch_start, "ax", %progbits
    .global arch_start
    .type arch_start, %function
    .thumb_func
arch_start:
    cpsid   i
    ldr     r1, [r0, #ZT_SP]
    msr     psp, r1
    movs    r2, #2
    msr     control, r2             /* thread mode uses PSP */
    isb
    ldr     r2, =__stack_top
    msr     msp, r2
    ldr     r3, =z_kernel
    str     r0, [r3]
    cpsie   i
    pop     {r7, pc}                /* the sync frame: r7, z_thread_trampoline */
    .ltorg
    .size arch_start, . - arch_start
#endif
