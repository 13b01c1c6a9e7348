/*
 * The baremetal switch from an exception (PendSV) and the start of the first thread, in
 * assembly (ARMv6-M, Thumb; ARMv7-M's PendSV is armv7m/pendsv.S). Frames: switch.S.
 */
#include "bm_layout.h"
#include "bm_macros.inc"

.syntax unified
.thumb

#if !BM_V7M
/* PendSV: save the interrupted thread (cur) below its hardware frame, resume nxt. It
 * preempts only thread mode, on PSP: lr = 0xFFFFFFFD, kept for the return. */
.section .text.PendSV_Handler,"ax",%progbits
.global PendSV_Handler
.type PendSV_Handler,%function
.thumb_func
PendSV_Handler:
  mrs r0, psp
  subs r0, #32
  mov r1, r8
  mov r2, r9
  mov r3, r10
  stmia r0!, {r1-r3}
  mov r1, r11
  stmia r0!, {r1, r4-r7}         /* [r8-r11][r4-r7][hardware frame] */
  subs r0, #31                   /* its base | 1: an exception frame */
  ldr r3, =bm_sched
  cpsid i
  ldr r1, [r3]                   /* cur */
  ldr r2, [r3, #SCHED_NXT]       /* nxt */
  cmp r2, #0
  beq 4f                         /* nothing to do (a stale request) */
  str r0, [r1]                   /* cur->sp */
  movs r1, #0
  str r2, [r3]                   /* cur = nxt */
  str r1, [r3, #SCHED_NXT]       /* nxt = 0 */
  ldr r1, [r2]                   /* its sp */
  lsrs r0, r1, #1
  bcc 2f
  subs r1, #1                    /* an exception frame */
  ldmia r1!, {r4-r7}
  mov r8, r4
  mov r9, r5
  mov r10, r6
  mov r11, r7
  ldmia r1!, {r4-r7}
  msr psp, r1
  cpsie i
  bx lr
2:                               /* a light frame: a hardware frame below it */
  BM_LIGHT_TO_HW 32
4:                               /* (stale: r4-r11 are still the interrupted thread's) */
  cpsie i
  bx lr
.ltorg
.size PendSV_Handler, .-PendSV_Handler
#endif

/* void bm_start(uint32_t sp): run the first thread (its first light frame) on PSP */
.section .text.bm_start,"ax",%progbits
.global bm_start
.type bm_start,%function
.thumb_func
bm_start:
  msr psp, r0
  movs r1, #2
  msr control, r1
  isb
  ldr r1, =__stack_top
  msr msp, r1                    /* main's stack becomes the interrupt stack again */
#if BM_V7M
  cpsie i                        /* (PRIMASK too: whatever the start-up left) */
#endif
  BM_UNMASK r1
  pop {r7, pc}
.ltorg
.size bm_start, .-bm_start
/* first code of every thread, from its first light frame [r7 = arg][bm_trampoline] and
 * [entry] above it; a thread never returns */
.section .text.bm_trampoline,"ax",%progbits
.global bm_trampoline
.type bm_trampoline,%function
.thumb_func
bm_trampoline:
  mov r0, r7
  pop {r1}
  blx r1
1: b 1b
.size bm_trampoline, .-bm_trampoline

