/*
 * PendSV on ARMv7-M (Cortex-M3, M4, M4F; Thumb-2): the switch an interrupt asks for (nxt).
 * It saves the interrupted thread (cur) below its hardware frame as an exception frame
 * [r4-r11] (bit 0 of the saved sp set; switch.S has the frames), and on the M4F
 * [r4-r11][EXC_RETURN][s16-s31 if EXC_RETURN bit 4 is clear: the thread used the FPU, the
 * hardware stacked an extended frame, and the VSTM completes its lazy save of s0-s15 and
 * FPSCR]. It resumes nxt from an exception frame, or from a light frame below which it
 * builds the hardware frame: basic, or on the M4F extended when the light frame keeps
 * s16-s31 (so that the thread goes on with its FP context).
 * PendSV preempts only thread mode, on PSP: lr = 0xFFFFFFFD (0xFFFFFFED: extended).
 */
#include "bm_layout.h"
#include "bm_macros.inc"

.syntax unified
.thumb

.section .text.PendSV_Handler,"ax",%progbits
.global PendSV_Handler
.type PendSV_Handler,%function
.thumb_func
PendSV_Handler:
  mrs r0, psp
#if BM_FP
  tst lr, #0x10
  it eq
  vstmdbeq r0!, {s16-s31}
  stmdb r0!, {r4-r11, lr}
#else
  stmdb r0!, {r4-r11}
#endif
  adds r0, #1                    /* its base | 1: an exception frame */
  ldr r3, =bm_sched
  BM_MASK r1
  ldr r1, [r3]                   /* cur */
  ldr r2, [r3, #SCHED_NXT]       /* nxt */
  cbz r2, 4f                     /* nothing to do (a stale request) */
  str r0, [r1]                   /* cur->sp */
  movs r1, #0
  str r2, [r3]                   /* cur = nxt */
  str r1, [r3, #SCHED_NXT]       /* nxt = 0 */
  ldr r1, [r2]                   /* its sp */
  lsrs r0, r1, #1
  bcc 2f
  subs r1, #1                    /* an exception frame */
#if BM_FP
  ldmia r1!, {r4-r11, lr}
  tst lr, #0x10
  it eq
  vldmiaeq r1!, {s16-s31}
#else
  ldmia r1!, {r4-r11}
#endif
  msr psp, r1
  BM_UNMASK r0
  bx lr
2:                               /* a light frame [r7][pc] at r1 */
#if BM_FP
  tst r1, #2
  bne 5f                         /* (s16-s31 below it) */
  mvn lr, #2                     /* 0xFFFFFFFD: a basic frame */
#endif
  BM_LIGHT_TO_HW 32
4:                               /* (stale: r4-r11 are still the interrupted thread's) */
  BM_UNMASK r0
  bx lr
#if BM_FP
5:                               /* s16-s31 below the light frame: an extended frame */
  subs r1, #2
  vldmia r1!, {s16-s31}
  vmrs r3, fpscr
  BM_LIGHT_TO_HW 104
  str r3, [r1, #96]              /* FPSCR (s0-s15: clobbered anyway) */
  mvn lr, #0x12                  /* 0xFFFFFFED: an extended frame */
  b 4b
#endif
.ltorg
.size PendSV_Handler, .-PendSV_Handler
