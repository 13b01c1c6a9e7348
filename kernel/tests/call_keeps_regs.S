/*
 * uint32_t kt_call_keeps_regs(void *fn, uint32_t a0, uint32_t a1, uint32_t seed):
 * call fn(a0, a1) with r4-r11 holding seed+4 .. seed+11 and return a mask of the registers
 * that did not survive the call (bit n: rn), 0 if all did. The kernel tests call the
 * out-of-line (AAPCS) k_* entries through it while other threads run with other values:
 * on ARMv6-M the light calls' switch saves only r7, so these entries must save the rest
 * (z_call_full); on ARMv7-M the light routines are these entries and keep r4-r11 themselves
 * (their switch saves them).
 */
    .syntax unified
    .cpu cortex-m0
    .thumb

/* The caller's r4-r11 and lr saved (Thumb-1 reaches r8-r11 through r4-r7), and restored
 * with the return */
    .macro SAVE_CALLEE
    push    {r4-r7, lr}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
    .endm

    .macro RETURN_CALLEE
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r4-r7, pc}
    .endm

/* r0 |= 1 << n unless r1 == r3 + n (the seed in r3; r1, r2 scratch) */
    .macro MARK_LOST n
    movs    r2, r3
    adds    r2, #\n
    cmp     r1, r2
    beq     1f
    movs    r1, #1
    lsls    r1, r1, #\n
    orrs    r0, r1
1:
    .endm

    .macro CHECK_REG reg, n
    mov     r1, \reg
    MARK_LOST \n
    .endm

    .section .text.kt_call_keeps_regs, "ax", %progbits
    .global kt_call_keeps_regs
    .type kt_call_keeps_regs, %function
    .thumb_func
kt_call_keeps_regs:
    SAVE_CALLEE
    sub     sp, #8                  /* [sp]: the seed (and the stack stays 8-byte aligned) */
    str     r3, [sp]
    mov     r12, r0
    movs    r4, r3
    adds    r4, #8
    mov     r8, r4
    movs    r4, r3
    adds    r4, #9
    mov     r9, r4
    movs    r4, r3
    adds    r4, #10
    mov     r10, r4
    movs    r4, r3
    adds    r4, #11
    mov     r11, r4
    adds    r4, r3, #4
    adds    r5, r3, #5
    adds    r6, r3, #6
    adds    r7, r3, #7              /* (3-bit immediates: up to 7) */
    mov     r0, r1
    mov     r1, r2
    blx     r12
    ldr     r3, [sp]
    movs    r0, #0
    CHECK_REG r4, 4
    CHECK_REG r5, 5
    CHECK_REG r6, 6
    CHECK_REG r7, 7
    CHECK_REG r8, 8
    CHECK_REG r9, 9
    CHECK_REG r10, 10
    CHECK_REG r11, 11
    add     sp, #8
    RETURN_CALLEE
    .size kt_call_keeps_regs, . - kt_call_keeps_regs

/*
 * uint32_t kt_spin_keeps_regs(uint32_t seed, volatile uint32_t *stop):
 * with r1-r12 holding seed+1 .. seed+12 and lr seed+14, spin until *stop is non-zero (r0
 * the only register the loop uses), then return a mask of the registers that did not hold
 * their values (bit n: rn, bit 14: lr), 0 if all did. A thread preempted many times while
 * it spins (kernel/tests/test_kernel_regs.c) sees what every resume gave back, whichever
 * way it came (a PendSV's exception return, a thread-mode unstacking on ARMv6-M).
 */
    .macro SPIN_CHECK off, n
    ldr     r1, [sp, #\off]
    MARK_LOST \n
    .endm

    .section .text.kt_spin_keeps_regs, "ax", %progbits
    .global kt_spin_keeps_regs
    .type kt_spin_keeps_regs, %function
    .thumb_func
kt_spin_keeps_regs:
    SAVE_CALLEE
    sub     sp, #8
    str     r0, [sp]                /* the seed */
    str     r1, [sp, #4]            /* stop */
    movs    r3, r0
    adds    r3, #8
    mov     r8, r3
    adds    r3, #1
    mov     r9, r3
    adds    r3, #1
    mov     r10, r3
    adds    r3, #1
    mov     r11, r3
    adds    r3, #1
    mov     r12, r3
    adds    r3, #2
    mov     lr, r3
    adds    r1, r0, #1
    adds    r2, r0, #2
    adds    r3, r0, #3
    adds    r4, r0, #4
    adds    r5, r0, #5
    adds    r6, r0, #6
    adds    r7, r0, #7
2:  ldr     r0, [sp, #4]
    ldr     r0, [r0]
    cmp     r0, #0
    beq     2b
    push    {r1-r7}                 /* [sp + 24 .. 48]: r1-r7 */
    mov     r1, r8
    mov     r2, r9
    mov     r3, r10
    mov     r4, r11
    mov     r5, r12
    mov     r6, lr
    push    {r1-r6}                 /* [sp .. sp + 20]: r8-r12, lr */
    ldr     r3, [sp, #52]           /* the seed */
    movs    r0, #0
    SPIN_CHECK 24, 1
    SPIN_CHECK 28, 2
    SPIN_CHECK 32, 3
    SPIN_CHECK 36, 4
    SPIN_CHECK 40, 5
    SPIN_CHECK 44, 6
    SPIN_CHECK 48, 7
    SPIN_CHECK 0, 8
    SPIN_CHECK 4, 9
    SPIN_CHECK 8, 10
    SPIN_CHECK 12, 11
    SPIN_CHECK 16, 12
    SPIN_CHECK 20, 14
    add     sp, #60                 /* the 13 registers, the seed and stop */
    RETURN_CALLEE
    .size kt_spin_keeps_regs, . - kt_spin_keeps_regs
