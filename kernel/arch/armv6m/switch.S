/*
 * ARMv6-M context switch: the synchronous (thread-mode) switch and the PendSV handler.
 *
 * Both leave a suspended thread's stack pointer in k_thread.z_sp (offset 0) pointing at
 * r8-r11 then r4-r7, followed by either
 *   - "sync" frame (bit 0 of z_sp clear): the return address into arch_switch's caller, or
 *   - "exception" frame (bit 0 set): the hardware exception frame (r0-r3, r12, lr, pc, xPSR).
 * A sync frame is resumed by popping it in thread mode, or from PendSV by turning its top
 * into an exception frame. An exception frame can only be resumed by PendSV, so a thread
 * that wants to switch to one pends PendSV instead (arch_switch_pend).
 */
#include "rtoslab/config.h"
#include "offsets.h"

    .syntax unified
    .cpu cortex-m0
    .thumb

#include "idle.inc"

    .equ T_SP, 0
    .equ T_LIM, 8
    .equ T_WAIT, 12
    .equ K_ESTACK_NEG, 10
    .equ ICSR, 0xE000ED04
    .equ PENDSVSET, 0x10000000

#if K_CONFIG_SYNC_SWITCH
/* int arch_switch(struct k_thread *from (r0), struct k_thread *to (r1)); IRQs disabled. */
    .section .text.arch_switch, "ax", %progbits
    .global arch_switch
    .type arch_switch, %function
    .thumb_func
arch_switch:
    ldr     r2, [r1, #T_SP]
    lsls    r3, r2, #31             /* bit 0: saved by an exception */
    bne     arch_switch_pend
    push    {r4-r7, lr}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
    mov     r3, sp
    str     r3, [r0, #T_SP]
#if K_CONFIG_STACK_CHECK
    ldr     r4, [r0, #T_LIM]
    cmp     r3, r4
    bls     1f                      /* saved SP at or below the guard word */
    ldr     r5, [r4]
    cmp     r5, r4
    bne     1f                      /* guard word overwritten */
#endif
    ldr     r3, =z_kernel
    str     r1, [r3]                /* z_kernel.current = to */
    mov     sp, r2
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
#if Z_HAS_WAIT_OBJ
    ldr     r0, [r1, #T_WAIT]
#else
    movs    r0, #0
#endif
    cpsie   i
    pop     {r4-r7, pc}
#if K_CONFIG_STACK_CHECK
1:  movs    r2, #0
    msr     control, r2             /* leave the overflowed stack: report on MSP */
    isb
    bl      arch_fatal_stack        /* r0 = from */
#endif
    .size arch_switch, . - arch_switch
#endif

/* int arch_switch_pend(struct k_thread *from (r0)); IRQs disabled. */
    .section .text.arch_switch_pend, "ax", %progbits
    .global arch_switch_pend
    .type arch_switch_pend, %function
    .thumb_func
arch_switch_pend:
    push    {r4, lr}
    mov     r4, r0
    ldr     r2, =ICSR
    ldr     r3, =PENDSVSET
    str     r3, [r2]
    dsb
    cpsie   i
    isb                             /* PendSV is taken here; we return when rescheduled */
#if Z_HAS_WAIT_OBJ
    ldr     r0, [r4, #T_WAIT]
#else
    movs    r0, #0
#endif
    pop     {r4, pc}
    .size arch_switch_pend, . - arch_switch_pend

#if !K_CONFIG_FASTPATH
/* PendSV: save the interrupted thread, let z_sched_pendsv choose, resume the chosen one. */
    .section .text.PendSV_Handler, "ax", %progbits
    .global PendSV_Handler
    .type PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
    mov     r0, lr
    lsls    r0, r0, #29             /* N = bit 2 of EXC_RETURN: a thread on PSP */
    bpl     5f                      /* the idle loop (on MSP): nothing to save */
    mrs     r0, psp
    subs    r0, #16
    stmia   r0!, {r4-r7}
    subs    r0, #32
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    stmia   r0!, {r4-r7}
    subs    r0, #15                 /* base of r8-r11, with bit 0 set: exception frame */
4:  bl      z_sched_pendsv          /* returns the thread to run or NULL, IRQs disabled */
    cmp     r0, #0
    beq     6f
    ldr     r1, [r0, #T_SP]
#if K_CONFIG_SYNC_SWITCH
    lsrs    r2, r1, #1              /* carry = bit 0 */
    bcc     2f
#endif
    subs    r1, #1
    ldmia   r1!, {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    ldmia   r1!, {r4-r7}
    msr     psp, r1
    movs    r0, #2
    mvns    r0, r0                  /* 0xFFFFFFFD: thread mode, PSP */
    cpsie   i
    bx      r0
#if K_CONFIG_SYNC_SWITCH
2:  /* sync frame: [r8-r11][r4-r7][return address]; rebuild its top as an exception frame */
    mov     r3, r0
    ldmia   r1!, {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    ldmia   r1!, {r4-r7}            /* r1 -> return address slot */
    ldr     r2, [r1]
    movs    r0, #1
    bics    r2, r0                  /* the stacked PC has bit 0 clear */
    subs    r1, #28                 /* frame base: its xPSR slot is the old return slot */
    str     r2, [r1, #24]
    movs    r2, #1
    lsls    r2, r2, #24             /* xPSR: Thumb bit */
    str     r2, [r1, #28]
#if Z_HAS_WAIT_OBJ
    ldr     r2, [r3, #T_WAIT]
#else
    movs    r2, #0
#endif
    str     r2, [r1, #0]            /* r0: arch_switch's return value */
    msr     psp, r1
    movs    r0, #2
    mvns    r0, r0
    cpsie   i
    bx      r0
#endif
5:  cpsid   i
    ldr     r0, =__stack_top
    msr     msp, r0                 /* drop the idle loop's frame (nothing else is on MSP) */
    movs    r0, #0                  /* nothing to save */
    b       4b
6:  IDLE_ENTER                      /* nothing to run */
    .size PendSV_Handler, . - PendSV_Handler

#endif

/* The idle loop: sleep until an interrupt; when a thread is ready, PendSV switches to it
 * (the interrupt that readied it pends PendSV only if the thread outranks the one that left
 * before the idle loop; the loop pends it in any case). */
    .section .text.z_idle_loop, "ax", %progbits
    .global z_idle_loop
    .type z_idle_loop, %function
    .thumb_func
z_idle_loop:
    ldr     r3, =z_kernel
    ldr     r2, =ICSR
    movs    r1, #1
    lsls    r1, r1, #28             /* PENDSVSET */
1:  cpsid   i
#if K_CONFIG_PRIO_LEVELS > 8
    ldrh    r0, [r3, #ZK_BITMAP]
#else
    ldrb    r0, [r3, #ZK_BITMAP]
#endif
    cmp     r0, #0
    bne     2f
    wfi                             /* (wakes on a pending interrupt, PRIMASK or not) */
    cpsie   i                       /* the interrupt runs here */
    b       1b
2:  str     r1, [r2]
    cpsie   i
    isb                             /* PendSV is taken here */
    b       1b
    .size z_idle_loop, . - z_idle_loop

/* First code of every thread: r4 = entry, r5 = argument (from arch_thread_init). */
    .section .text.z_thread_trampoline, "ax", %progbits
    .global z_thread_trampoline
    .type z_thread_trampoline, %function
    .thumb_func
z_thread_trampoline:
    mov     r0, r5
    blx     r4
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
    ldr     r1, [r0, #T_SP]
#if K_CONFIG_SYNC_SWITCH
    msr     psp, r1
#else
    subs    r1, #1                  /* an exception frame: r4, r5 and the top matter */
    ldr     r4, [r1, #16]
    ldr     r5, [r1, #20]
    adds    r1, #64
    msr     psp, r1
#endif
    movs    r2, #2
    msr     control, r2             /* thread mode uses PSP */
    isb
    ldr     r2, =__stack_top
    msr     msp, r2
    ldr     r3, =z_kernel
    str     r0, [r3]
#if K_CONFIG_SYNC_SWITCH
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    movs    r0, #0
    cpsie   i
    pop     {r4-r7, pc}
#else
    cpsie   i
    b       z_thread_trampoline
#endif
    .size arch_start, . - arch_start
