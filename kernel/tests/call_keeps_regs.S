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

    .macro CHECK_LOW reg, n
    movs    r2, r3
    adds    r2, #\n
    cmp     \reg, r2
    beq     1f
    movs    r1, #1
    lsls    r1, r1, #\n
    orrs    r0, r1
1:
    .endm

    .macro CHECK_HIGH reg, n
    mov     r1, \reg
    movs    r2, r3
    adds    r2, #\n
    cmp     r1, r2
    beq     1f
    movs    r1, #1
    lsls    r1, r1, #\n
    orrs    r0, r1
1:
    .endm

    .section .text.kt_call_keeps_regs, "ax", %progbits
    .global kt_call_keeps_regs
    .type kt_call_keeps_regs, %function
    .thumb_func
kt_call_keeps_regs:
    push    {r4-r7, lr}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
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
    CHECK_LOW r4, 4
    CHECK_LOW r5, 5
    CHECK_LOW r6, 6
    CHECK_LOW r7, 7
    CHECK_HIGH r8, 8
    CHECK_HIGH r9, 9
    CHECK_HIGH r10, 10
    CHECK_HIGH r11, 11
    add     sp, #8
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r4-r7, pc}
    .size kt_call_keeps_regs, . - kt_call_keeps_regs
