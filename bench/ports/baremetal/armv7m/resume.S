/*
 * bm_resume_exc on ARMv7-M (Cortex-M3, M4, M4F; Thumb-2): the end of a switch in thread
 * mode to a thread that was preempted (its frames: switch.S and pendsv.S here). Entered
 * from BM_SWITCH with r0 = n, r1 = &bm_sched, r2 = the caller (its light frame pushed, its
 * sp stored), r3 = n's sp | 1, cur = n, IRQs masked (BASEPRI).
 *
 * The common frame (a basic hardware frame, no IT block or interrupted LDM/STM in flight)
 * is restored here in thread mode, as on ARMv6-M: cheaper than an exception return. Two
 * states only an exception return restores: the IT/ICI bits of the stacked xPSR, and (M4F)
 * an extended frame's s0-s15 and FPSCR with the lazy-stacking rules; for those the caller,
 * its light frame saved already, pends PendSV, which resumes n by exception return. (So a
 * waiter keeps its light frame, which BM_SWITCH 1 relies on.)
 */
#include "bm_layout.h"
#include "bm_macros.inc"

.syntax unified
.thumb

#if BM_FP
#define EXC_SOFT 36   /* [r4-r11][EXC_RETURN] below the hardware frame (pendsv.S) */
#else
#define EXC_SOFT 32   /* [r4-r11] */
#endif
#define XPSR_IT_HI 0x06000000 /* IT[1:0] */
#define XPSR_IT_LO 0x0000FC00 /* IT[7:2] or ICI */
#define XPSR_ALIGN 0x200      /* the frame was realigned by 4 */
#if defined(__ARM_FEATURE_DSP)
#define APSR_FLAGS APSR_nzcvqg
#else
#define APSR_FLAGS APSR_nzcvq
#endif

.section .text.bm_fast,"ax",%progbits
.global bm_resume_exc
.type bm_resume_exc,%function
.thumb_func
bm_resume_exc:
  subs r3, #1
#if BM_FP
  ldr r4, [r3, #32]              /* EXC_RETURN: bit 4 clear, an extended frame */
  tst r4, #0x10
  beq 8f
#endif
  ldr r4, [r3, #EXC_SOFT + 28]   /* the stacked xPSR */
  tst r4, #XPSR_IT_HI
  bne 8f
  tst r4, #XPSR_IT_LO
  bne 8f
  ldmia r3, {r4-r11}
  adds r3, #EXC_SOFT
  mov sp, r3                     /* the hardware frame */
  ldr r0, [sp, #28]              /* xPSR */
  ldr r1, [sp, #24]
  adds r1, #1                    /* (a popped pc needs the Thumb bit) */
  ldr r12, [sp, #16]
  ldr lr, [sp, #20]
  ldr r2, =.Lresume_pop_a + 1    /* preempted at one of our own last POP {pc}: */
  subs r2, r1, r2
  beq 5f
  cmp r2, #(.Lresume_pop_b - .Lresume_pop_a)
  beq 5f
6:
  movs r2, #0
  cpsid i                        /* (PRIMASK until the last POP: below) */
  msr basepri, r2                /* consistent from here: cur = n, sp is n's */
  tst r0, #XPSR_ALIGN
  bne 1f
  str r1, [sp, #28]              /* the pc in the xPSR slot: popped last */
  msr APSR_FLAGS, r0
  pop {r0-r3}
  add sp, #12
  cpsie i
.Lresume_pop_a:
  pop {pc}
1:
  str r1, [sp, #32]              /* realigned: the word above */
  msr APSR_FLAGS, r0
  pop {r0-r3}
  add sp, #16
  cpsie i
.Lresume_pop_b:
  pop {pc}
/* Only the last POP {pc} may be preempted (PRIMASK masks the restore before it: preempted
 * in the middle, the thread's state would be this routine's, resumed through it again with
 * one more frame below each time). Preempted at that POP (an interrupt pending when the
 * thread was resumed, which then switched away from it), its state is the POP, the pc still
 * to pop being the word at its sp, above this frame: resumed as it is, the word would stay
 * on its stack and the thread stop at the same POP again, one word lower each time (a
 * thread resumed that way again and again walked down out of its stack into the thread
 * below: the idle thread under tm.interrupt's software interrupt). Pop that word here: the
 * real pc, the frame's r0-r3 moved up one word (r12 and lr are restored), its sp above. */
5:
  tst r0, #XPSR_ALIGN
  ite eq
  ldreq r1, [sp, #32]            /* the word at its sp: the pc, Thumb bit set */
  ldrne r1, [sp, #36]            /* (realigned frame: one word higher) */
  ldr r2, [sp, #12]
  str r2, [sp, #16]
  ldr r2, [sp, #8]
  str r2, [sp, #12]
  ldr r2, [sp, #4]
  str r2, [sp, #8]
  ldr r2, [sp, #0]
  str r2, [sp, #4]
  add sp, #4
  b 6b
8:                               /* through PendSV: the caller's light frame is saved, */
  ldr r3, =bm_detached           /* so PendSV's save of what it interrupts goes nowhere */
  str r3, [r1]                   /* (cur = a scratch block; ISRs look at nxt first) */
  str r0, [r1, #SCHED_NXT]       /* nxt = n: PendSV resumes it by exception return */
  ldr r3, =ICSR_ADDR
  mov r4, #ICSR_PENDSVSET
  str r4, [r3]
  dsb
  movs r4, #0
  msr basepri, r4
  isb                            /* PendSV is taken here and never returns here */
9:
  b 9b
.ltorg
.size bm_resume_exc, .-bm_resume_exc

/* what PendSV saves, after the switch above, of the code it interrupted: nothing needs it */
.section .bss.bm_detached,"aw",%nobits
.align 3
bm_detached:
  .space 8
