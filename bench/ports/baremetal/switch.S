/*
 * The baremetal switch, in assembly (ARMv6-M, Thumb; the same routines on ARMv7-M, where
 * armv7m/ has bm_resume_exc and PendSV): the switch in thread mode (bm_go, bm_resume_exc)
 * and the light yield. Offsets into the structures are bm_layout.h's,
 * checked against the C layout there.
 *
 * Frames. A thread that is not running has its sp in its block (TH_SP) and one of:
 * - a light frame [r7][pc] (bit 0 of sp clear), left by a switch in thread mode. The hot
 *   calls are "light" (rtb_port_inline.h): the compiler is told they clobber every register
 *   but r7 (and sp, pc), so the switch saves only r7 (the frame pointer at -O0, which an asm
 *   may not clobber) and the return address; what the caller still needs it has kept on its
 *   own stack. C code switches through bm_go, which keeps r4-r11 below such a frame.
 * - an exception frame [r8-r11][r4-r7][hardware frame] (bit 0 set), left by PendSV.
 * Either is resumed by either: a switch in thread mode pops a light frame, or restores an
 * exception frame in thread mode too (bm_resume_exc); PendSV returns through an exception
 * frame, or turns a light frame into one.
 *
 * The routines are in three files, in this order in the build (CMakeLists.txt; the
 * linker places them in that order, as one file did): switch.S, the switch in thread
 * mode; sync.S, the semaphore, priority and mutex paths; pendsv.S, PendSV and the start.
 * bm_macros.inc: the macros they share.
 */
#include "bm_layout.h"
#include "bm_macros.inc"

.syntax unified
.thumb

/* The switch and the light routines (these and sync.S's) share one section name, linked
 * together: their B to bm_resume_exc reaches (2 KiB). */
/* void bm_go(struct th *n), IRQs off: the switch of the C code (AAPCS): r4-r11 saved
 * below the light frame, whose return address is the restore below */
.section .text.bm_fast,"ax",%progbits
.global bm_go
.type bm_go,%function
.thumb_func
bm_go:
#if BM_V7M
  push {r4-r11, lr}
  ldr r1, =bm_sched
  ldr r2, [r1]
  bl bm_switch
  pop {r4-r11, pc}
#else
  push {r4-r7, lr}
  mov r4, r8
  mov r5, r9
  mov r6, r10
  mov r7, r11
  push {r4-r7}
  ldr r1, =bm_sched
  ldr r2, [r1]
  bl bm_switch
  pop {r4-r7}
  mov r8, r4
  mov r9, r5
  mov r10, r6
  mov r11, r7
  pop {r4-r7, pc}
#endif
/* (also the switch of sync.S's mutex paths) */
.global bm_switch
.type bm_switch,%function
.thumb_func
bm_switch:
  BM_SWITCH
.ltorg
.size bm_go, .-bm_go

#if !BM_V7M /* (ARMv7-M: armv7m/resume.S) */
/* bm_resume_exc: the end of a switch in thread mode to a thread that was preempted (r3 =
 * its sp, bit 0 set; cur is it already, IRQs off). Restores r8-r11, r4-r7, then the
 * hardware part: lr, r12, the flags, r0-r3 and last the pc, popped from the xPSR slot (or
 * the word above it if the frame was realigned, xPSR bit 9), which leaves sp where the
 * exception return would have. Cheaper than pending PendSV for it. */
.section .text.bm_fast,"ax",%progbits
.global bm_resume_exc
.type bm_resume_exc,%function
.thumb_func
bm_resume_exc:
  subs r3, #1
  mov sp, r3
  pop {r4-r7}
  mov r8, r4
  mov r9, r5
  mov r10, r6
  mov r11, r7
  pop {r4-r7}
  ldr r0, [sp, #20]
  mov lr, r0
  ldr r0, [sp, #16]
  mov r12, r0
  ldr r0, [sp, #24]
  adds r0, #1                    /* (a popped pc needs the Thumb bit) */
  ldr r1, [sp, #28]              /* xPSR */
  ldr r2, =.Lresume_pop_a + 1   /* preempted at one of our own last POP {pc}: */
  subs r2, r0, r2
  beq 5f
  cmp r2, #(.Lresume_pop_b - .Lresume_pop_a)
  beq 5f
6:
  lsls r2, r1, #22               /* N = bit 9: realigned by 4 */
  bmi 1f
  str r0, [sp, #28]
  msr APSR_nzcvq, r1             /* (nothing below sets the flags) */
  pop {r0-r3}
  add sp, #12
  cpsie i
.Lresume_pop_a:
  pop {pc}
1:
  str r0, [sp, #32]
  msr APSR_nzcvq, r1
  pop {r0-r3}
  add sp, #16
  cpsie i
.Lresume_pop_b:
  pop {pc}
/* The thread was preempted between the CPSIE and the POP {pc} above (an interrupt pending
 * when it was resumed, which then switched away from it): its state is that POP, the pc it
 * still has to pop being the word at its sp (above this frame). Resuming that state as it
 * is would leave the word on its stack and stop at the same POP again, one word lower each
 * time: a thread resumed that way again and again (the idle thread under a software
 * interrupt the waiter triggers with its IRQs about to be masked) walked down out of its
 * stack into the thread below. Pop that word here: the real pc, the frame's r0-r3 moved up
 * one word (r12 and lr are restored already), so that the thread's sp ends above it. */
5:
  lsls r2, r1, #22
  bmi 7f
  ldr r0, [sp, #32]              /* the word at its sp: the pc, Thumb bit set */
  b 8f
7:
  ldr r0, [sp, #36]              /* (realigned frame: one word higher) */
8:
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
.ltorg
.size bm_resume_exc, .-bm_resume_exc
#endif

/* The light routines, called by the inline code of rtb_port_inline.h: arguments in r0,
 * r1, the result in r0; they may use r0-r6 and r12, never r7 (BM_SWITCH saves it). Their
 * uncommon cases tail-call C (AAPCS, so it keeps r4-r11 itself) with IRQs off. */

/* rtb_yield: the caller becomes the tail of its list, the next one runs */
.section .text.bm_fast,"ax",%progbits
.global bm_yield_l
.type bm_yield_l,%function
.thumb_func
bm_yield_l:
  ldr r1, =bm_sched
  BM_MASK r3
  ldr r2, [r1]                   /* cur */
  ldr r0, [r2, #TH_NEXT]         /* n = cur->next */
  cmp r0, r2
  beq 1f                         /* alone at its priority */
  ldrb r3, [r2, #TH_PRIO]
  lsls r3, r3, #2
  adds r3, r3, r1
  str r2, [r3, #SCHED_RQ]        /* the caller becomes the tail, n the head */
  BM_SWITCH
1:
  BM_UNMASK r3
  bx lr
.ltorg
.size bm_yield_l, .-bm_yield_l
