/*
 * The baremetal switch and the hot calls that may switch, in assembly (ARMv6-M, Thumb).
 * Offsets into the structures are bm_layout.h's, checked against the C layout there.
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
 */
#include "bm_layout.h"

.syntax unified
.thumb

/* The start of the semaphore signal from an ISR (r0 = the semaphore; rtb_port_inline.h has
 * the same for threads): mask IRQs; with no waiter,
 * count up to the maximum and return; else go on at 2: with r3 = the waiters' tail. */
.macro BM_SIGNAL_COUNT
  cpsid i
  ldr r3, [r0, #SEM_WT]          /* the waiters' tail */
  cmp r3, #0
  bne 2f
  ldr r1, [r0]                   /* lim (0x10000 - the maximum) << 16 | count */
  lsls r2, r1, #16
  adds r2, r2, r1                /* carry: count + lim >= 0x10000, the maximum */
  bcs 1f
  adds r1, #1                    /* (the low half: count + 1) */
  strh r1, [r0]
1:
  cpsie i
  bx lr
2:
.endm

/* BM_SWITCH: the end of every switch in thread mode. In: r0 = the next thread, r1 =
 * &bm_sched, r2 = the caller (cur), lr = where the caller resumes, IRQs off; r3-r6, r12
 * free, r7 the caller's. The resumed thread returns from its call with r0 = its result.
 * light=1: the next thread surely has a light frame (it blocked: a waiter) and result 0. */
.macro BM_SWITCH light=0
  push {r7, lr}
  mov r3, sp
  str r3, [r2]                   /* the caller's sp: a light frame */
  str r0, [r1]                   /* cur = n */
  ldr r3, [r0]                   /* n->sp */
.if \light
  mov sp, r3
  movs r0, #0
.else
  lsls r4, r3, #31
  bne .Lexc\@
  mov sp, r3
  ldrb r0, [r0, #TH_RESULT]      /* n->result */
.endif
  cpsie i                        /* consistent from here: cur = n, sp is n's */
  pop {r7, pc}
.if !\light
.Lexc\@:
  b bm_resume_exc                /* n was preempted (r3: its exception frame) */
.endif
.endm

/* BM_TOP m, tab: r0 = the head of the most urgent ready list. \m = the map (not 0),
 * r1 = &bm_sched, \tab = the routine's copy of BM_TABLE; clobbers r4. */
.macro BM_TOP m, tab
  lsrs r0, \m, #4
  adr r4, \tab
  beq .Llow\@
  ldrb r0, [r4, r0]              /* priorities 4..9 */
  adds r0, #4
  b .Lp\@
.Llow\@:
  ldrb r0, [r4, \m]              /* 1..3 */
.Lp\@:
  lsls r0, r0, #2
  adds r0, r0, r1
  ldr r0, [r0, #SCHED_RQ]        /* its tail */
  ldr r0, [r0, #TH_NEXT]         /* its head */
.endm
/* the highest set bit of 0..63 (one table per routine: ADR reaches it) */
.macro BM_TABLE name
  .align 2
\name:
  .byte 0, 0, 1, 1, 2, 2, 2, 2
  .rept 8
  .byte 3
  .endr
  .rept 16
  .byte 4
  .endr
  .rept 32
  .byte 5
  .endr
.endm

/* BM_RQ_PUSH x, p, t1, t2, t3: append thread \x to ready list \p (r1 = &bm_sched) and
 * mark the list in the map; clobbers \t1-\t3. */
.macro BM_RQ_PUSH x, p, t1, t2, t3
  lsls \t1, \p, #2
  adds \t1, \t1, r1
  ldr \t2, [\t1, #SCHED_RQ]      /* the tail */
  cmp \t2, #0
  bne .Lpt\@
  str \x, [\x, #TH_NEXT]         /* alone */
  movs \t2, #1
  lsls \t2, \p
  ldr \t3, [r1, #SCHED_MAP]
  orrs \t3, \t2
  str \t3, [r1, #SCHED_MAP]
  b .Lpe\@
.Lpt\@:
  ldr \t3, [\t2, #TH_NEXT]
  str \t3, [\x, #TH_NEXT]
  str \x, [\t2, #TH_NEXT]
.Lpe\@:
  str \x, [\t1, #SCHED_RQ]
.endm

/* BM_GO_PUSHED: the switch of an AAPCS routine that has pushed {r4-r7, lr} (r0 = the next
 * thread, r1 = &bm_sched, r2 = the caller, IRQs off): as bm_go, r8-r11 below the light
 * frame; returns from the routine with r0 = the caller's result when it runs again. */
.macro BM_GO_PUSHED
  mov r4, r8
  mov r5, r9
  mov r6, r10
  mov r7, r11
  push {r4-r7}
  bl bm_switch
  pop {r4-r7}
  mov r8, r4
  mov r9, r5
  mov r10, r6
  mov r11, r7
  pop {r4-r7, pc}
.endm

/* The switch and the light routines share one section: their B to bm_resume_exc
 * reaches (2 KiB). */
/* void bm_go(struct th *n), IRQs off: the switch of the C code (AAPCS): r4-r11 saved
 * below the light frame, whose return address is the restore below */
.section .text.bm_fast,"ax",%progbits
.global bm_go
.type bm_go,%function
.thumb_func
bm_go:
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
bm_switch:
  BM_SWITCH
.ltorg
.size bm_go, .-bm_go

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
  lsls r2, r1, #22               /* N = bit 9: realigned by 4 */
  bmi 1f
  str r0, [sp, #28]
  msr APSR_nzcvq, r1             /* (nothing below sets the flags) */
  pop {r0-r3}
  add sp, #12
  cpsie i
  pop {pc}
1:
  str r0, [sp, #32]
  msr APSR_nzcvq, r1
  pop {r0-r3}
  add sp, #16
  cpsie i
  pop {pc}
.size bm_resume_exc, .-bm_resume_exc

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
  cpsid i
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
  cpsie i
  bx lr
.ltorg
.size bm_yield_l, .-bm_yield_l

/* rtb_sem_wait that finds no unit (r0 = the semaphore, r1 = the timeout; from the inline
 * code, which takes a unit itself, IRQs off): block for ever; a finite timeout (or none)
 * goes to bm_sem_wait_slow */
.section .text.bm_fast,"ax",%progbits
.global bm_sem_wait_b
.type bm_sem_wait_b,%function
.thumb_func
bm_sem_wait_b:
  adds r3, r1, #1
  bne 9f                         /* not RTB_FOREVER: C */
  ldr r1, =bm_sched
  ldr r2, [r1]                   /* t = cur, the head of its ready list: unlink it */
  movs r3, #ST_BLOCKED
  strb r3, [r2, #TH_STATE]       /* BLOCKED */
  ldrb r4, [r2, #TH_PRIO]
  lsls r5, r4, #2
  adds r5, r5, r1
  ldr r6, [r5, #SCHED_RQ]        /* the tail */
  cmp r6, r2
  bne 2f
  movs r3, #0                    /* alone: the list empties */
  str r3, [r5, #SCHED_RQ]
  movs r5, #1
  lsls r5, r4
  ldr r3, [r1, #SCHED_MAP]
  bics r3, r5
  str r3, [r1, #SCHED_MAP]
  b 3f
2:
  ldr r3, [r2, #TH_NEXT]
  str r3, [r6, #TH_NEXT]         /* tail->next = t->next */
3:
  adds r0, #4                    /* &s->wt */
  str r0, [r2, #TH_WQ]           /* t->wq */
  ldr r3, [r0]                   /* append t to the waiters */
  cmp r3, #0
  beq 4f
  ldr r4, [r3, #TH_NEXT]
  str r4, [r2, #TH_NEXT]
  str r2, [r3, #TH_NEXT]
  b 5f
4:
  str r2, [r2, #TH_NEXT]
5:
  str r2, [r0]
  ldr r3, [r1, #SCHED_MAP]       /* the most urgent ready thread, or idle */
  cmp r3, #0
  beq 6f
  BM_TOP r3, bm_sem_wait_tab
7:
  BM_SWITCH
6:
  ldr r0, =bm_idle
  ldr r0, [r0]
  b 7b
9:
  ldr r3, =bm_sem_wait_slow      /* (s, timeout), IRQs off */
  bx r3
.ltorg
  BM_TABLE bm_sem_wait_tab
.size bm_sem_wait_b, .-bm_sem_wait_b

/* rtb_sem_signal of a semaphore that has waiters (r0 = the semaphore, r3 = the waiters'
 * tail; from the inline code, which counts itself, IRQs off): hand the unit to the first
 * waiter and run it if it is more urgent than every ready thread (the caller included); a
 * timed waiter goes to bm_sem_signal_slow */
.section .text.bm_fast,"ax",%progbits
.global bm_sem_signal_w
.type bm_sem_signal_w,%function
.thumb_func
bm_sem_signal_w:
  ldr r2, [r3, #TH_NEXT]         /* w = the head */
  ldrb r1, [r2, #TH_TIMED]
  cmp r1, #0
  bne 9f                         /* timed: C */
  cmp r2, r3
  bne 3f
  str r1, [r0, #SEM_WT]          /* (r1 = 0) it was the only waiter */
  b 4f
3:
  ldr r1, [r2, #TH_NEXT]
  str r1, [r3, #TH_NEXT]
4:
  movs r1, #ST_READY
  strh r1, [r2, #TH_STATE]       /* state READY, result RTB_OK */
  ldr r1, =bm_sched
  ldrb r4, [r2, #TH_PRIO]        /* p */
  movs r5, #1
  lsls r5, r4                    /* its bit */
  ldr r6, [r1, #SCHED_MAP]       /* the map */
  cmp r5, r6                     /* (bits below p sum to less than bit p) */
  bls 6f                         /* someone is ready at p or above (the caller at least) */
/* nothing is ready at p or above, the caller included: w is alone at p and runs */
  orrs r6, r5
  str r6, [r1, #SCHED_MAP]
  str r2, [r2, #TH_NEXT]
  lsls r4, r4, #2
  adds r4, r4, r1
  str r2, [r4, #SCHED_RQ]
  movs r0, r2
  ldr r2, [r1]                   /* the caller */
  BM_SWITCH 1                    /* (a waiter: a light frame, result RTB_OK) */
6:                               /* w waits its turn: append it to list p */
  orrs r6, r5                    /* (the map, if list p was empty) */
  lsls r4, r4, #2
  adds r4, r4, r1
  ldr r3, [r4, #SCHED_RQ]
  cmp r3, #0
  bne 7f
  str r6, [r1, #SCHED_MAP]
  str r2, [r2, #TH_NEXT]
  b 8f
7:
  ldr r0, [r3, #TH_NEXT]
  str r0, [r2, #TH_NEXT]
  str r2, [r3, #TH_NEXT]
8:
  str r2, [r4, #SCHED_RQ]
  cpsie i
  bx lr
9:
  ldr r3, =bm_sem_signal_slow    /* (s), IRQs off */
  bx r3
.ltorg
.size bm_sem_signal_w, .-bm_sem_signal_w

/* void bm_sem_signal_isr(struct bm_sem *s): rtb_sem_signal_isr (inline, AAPCS), from an
 * ISR: count, or hand the unit to the first waiter and, if it is more urgent than the
 * thread that will run (nxt, or cur), make it the next one and pend PendSV; a timed
 * waiter goes to C. Only r0-r3 and r12: no stack. */
.section .text.bm_sem_signal_isr,"ax",%progbits
.global bm_sem_signal_isr
.type bm_sem_signal_isr,%function
.thumb_func
bm_sem_signal_isr:
  BM_SIGNAL_COUNT
  ldr r1, [r3, #TH_NEXT]         /* w = the head */
  ldrb r2, [r1, #TH_TIMED]
  cmp r2, #0
  bne 9f                         /* timed: C */
  cmp r1, r3
  bne 3f
  str r2, [r0, #SEM_WT]          /* (r2 = 0) it was the only waiter */
4:
  movs r2, #ST_READY
  strh r2, [r1, #TH_STATE]       /* state READY, result RTB_OK */
  ldr r3, =bm_sched
  ldrb r0, [r1, #TH_PRIO]        /* p: append w to ready list p */
  mov r12, r0
  lsls r0, r0, #2
  adds r0, r0, r3
  ldr r2, [r0, #SCHED_RQ]        /* the old tail */
  str r1, [r0, #SCHED_RQ]
  cmp r2, #0
  bne 5f
  str r1, [r1, #TH_NEXT]         /* alone: list p is not empty now */
  mov r2, r12
  movs r0, #1
  lsls r0, r2
  ldr r2, [r3, #SCHED_MAP]
  orrs r2, r0
  str r2, [r3, #SCHED_MAP]
6:
  ldr r2, [r3, #SCHED_NXT]       /* the thread that will run: nxt, or cur */
  cmp r2, #0
  bne 7f
  ldr r2, [r3]
7:
  ldrb r2, [r2, #TH_PRIO]
  cmp r2, r12
  bhs 8f
  str r1, [r3, #SCHED_NXT]       /* nxt = w */
  ldr r0, =ICSR_ADDR
  ldr r2, =ICSR_PENDSVSET
  str r2, [r0]                   /* PENDSVSET: the switch when the interrupt returns */
8:
  cpsie i
  bx lr
3:
  ldr r2, [r1, #TH_NEXT]
  str r2, [r3, #TH_NEXT]
  b 4b
5:
  ldr r0, [r2, #TH_NEXT]
  str r0, [r1, #TH_NEXT]
  str r1, [r2, #TH_NEXT]
  b 6b
9:
  ldr r3, =bm_sem_signal_isr_c   /* (s), IRQs off */
  bx r3
.ltorg
.size bm_sem_signal_isr, .-bm_sem_signal_isr

/* rtb_prio_set (r0 = the thread, r1 = the priority) of a thread that inherits nothing;
 * the rest goes to bm_prio_set_slow */
.section .text.bm_fast,"ax",%progbits
.global bm_prio_set_l
.type bm_prio_set_l,%function
.thumb_func
bm_prio_set_l:
  ldr r3, =bm_sched
  cpsid i
  ldrb r4, [r0, #TH_PRIO]        /* prio */
  ldrb r5, [r0, #TH_BASE]        /* base */
  cmp r4, r5
  bne 20f                        /* it inherits a priority: C */
  strb r1, [r0, #TH_BASE]
  cmp r4, r1
  beq 19f
  ldrb r6, [r0, #TH_STATE]
  cmp r6, #ST_READY
  beq 3f
  strb r1, [r0, #TH_PRIO]        /* not ready: just the number */
19:
  cpsie i
  bx lr
3:                               /* out of ready list r4 */
  lsls r5, r4, #2
  adds r5, r5, r3                /* &rq[p] - 12 */
  ldr r6, [r5, #SCHED_RQ]        /* the tail */
  ldr r2, [r0, #TH_NEXT]
  cmp r2, r0
  bne 4f
  movs r2, #0                    /* alone: the list empties */
  str r2, [r5, #SCHED_RQ]
  movs r2, #1
  lsls r2, r4
  ldr r6, [r3, #SCHED_MAP]
  bics r6, r2
  str r6, [r3, #SCHED_MAP]
  b 7f
4:                               /* its predecessor, from the tail */
  movs r4, r6
5:
  ldr r2, [r4, #TH_NEXT]
  cmp r2, r0
  beq 6f
  movs r4, r2
  b 5b
6:
  ldr r2, [r0, #TH_NEXT]
  str r2, [r4, #TH_NEXT]
  cmp r6, r0
  bne 7f
  str r4, [r5, #SCHED_RQ]        /* it was the tail: its predecessor is */
7:                               /* append it to list r1 */
  strb r1, [r0, #TH_PRIO]
  lsls r5, r1, #2
  adds r5, r5, r3
  ldr r6, [r5, #SCHED_RQ]
  cmp r6, #0
  bne 8f
  str r0, [r0, #TH_NEXT]
  movs r2, #1
  lsls r2, r1
  ldr r4, [r3, #SCHED_MAP]
  orrs r4, r2
  str r4, [r3, #SCHED_MAP]
  b 9f
8:
  ldr r2, [r6, #TH_NEXT]
  str r2, [r0, #TH_NEXT]
  str r0, [r6, #TH_NEXT]
9:
  str r0, [r5, #SCHED_RQ]
/* who runs: another thread that now outranks the caller; or, if the caller changed its
 * own priority, the most urgent one */
  ldr r2, [r3]                   /* the caller */
  cmp r0, r2
  beq 10f
  ldrb r4, [r2, #TH_PRIO]
  cmp r1, r4
  bls 19b
  mov r1, r3
  b 11f
10:
  mov r1, r3
  ldr r3, [r3, #SCHED_MAP]
  BM_TOP r3, bm_prio_set_tab
  cmp r0, r2
  beq 19b
11:
  BM_SWITCH
20:
  ldr r2, =bm_prio_set_slow      /* (t, prio), IRQs off */
  bx r2
.ltorg
  BM_TABLE bm_prio_set_tab
.size bm_prio_set_l, .-bm_prio_set_l

/* rtb_mutex_lock of a mutex that has an owner (r0 = the mutex, r1 = the timeout; from the
 * inline code, IRQs off; AAPCS). The common case, for ever and an owner that is ready below
 * the caller: the owner inherits the caller's priority and takes its place in its ready
 * list (the caller is its head), the caller joins the waiters, and the next of that list
 * runs (the owner, or one of the caller's priority before it: no search). The rest: C. */
.section .text.bm_fast,"ax",%progbits
.global bm_mutex_lock_slow
.type bm_mutex_lock_slow,%function
.thumb_func
bm_mutex_lock_slow:
  adds r2, r1, #1
  bne 9f                         /* a timeout: C */
  push {r4-r7, lr}
  mov r12, r0                    /* m */
  ldr r1, =bm_sched
  ldr r2, [r1]                   /* c = cur */
  ldr r3, [r0]                   /* o = the owner */
  ldrb r4, [r3, #TH_PRIO]
  ldrb r5, [r2, #TH_PRIO]        /* P */
  cmp r4, r5
  bhs 8f                         /* the owner is not below the caller: C */
  ldrb r6, [r3, #TH_STATE]
  cmp r6, #ST_READY
  bne 8f                         /* not ready: C */
  lsls r6, r4, #2                /* o out of ready list r4 */
  adds r6, r6, r1
  ldr r7, [r3, #TH_NEXT]
  cmp r7, r3
  bne 2f
  movs r7, #0                    /* alone: the list empties */
  str r7, [r6, #SCHED_RQ]
  movs r7, #1
  lsls r7, r4
  ldr r4, [r1, #SCHED_MAP]
  bics r4, r7
  str r4, [r1, #SCHED_MAP]
  b 4f
2:
  ldr r4, [r6, #SCHED_RQ]        /* the tail */
  movs r7, r4
3:                               /* its predecessor, from the tail */
  ldr r0, [r7, #TH_NEXT]
  cmp r0, r3
  beq 31f
  movs r7, r0
  b 3b
31:
  ldr r0, [r3, #TH_NEXT]
  str r0, [r7, #TH_NEXT]
  cmp r4, r3
  bne 4f
  str r7, [r6, #SCHED_RQ]        /* it was the tail: its predecessor is */
4:
  strb r5, [r3, #TH_PRIO]        /* o inherits P */
  movs r0, #1
  strb r0, [r3, #TH_BOOST]
  lsls r6, r5, #2                /* list P: the caller (its head) out, o in at the tail */
  adds r6, r6, r1
  ldr r4, [r6, #SCHED_RQ]
  cmp r4, r2
  bne 5f
  str r3, [r3, #TH_NEXT]         /* the caller was alone: o is, and runs */
  movs r0, r3
  b 6f
5:
  ldr r0, [r2, #TH_NEXT]         /* the caller's successor: the head now, it runs */
  str r0, [r3, #TH_NEXT]
  str r3, [r4, #TH_NEXT]
6:
  str r3, [r6, #SCHED_RQ]        /* (the map is unchanged: list P is not empty) */
  movs r4, #ST_BLOCKED
  strb r4, [r2, #TH_STATE]
  mov r4, r12
  adds r4, #MTX_WT               /* &m->wt */
  str r4, [r2, #TH_WQ]
  ldr r6, [r4]                   /* append the caller to the waiters */
  cmp r6, #0
  beq 7f
  ldr r7, [r6, #TH_NEXT]
  str r7, [r2, #TH_NEXT]
  str r2, [r6, #TH_NEXT]
  b 71f
7:
  str r2, [r2, #TH_NEXT]
71:
  str r2, [r4]
  BM_GO_PUSHED                   /* r0 = the next, r1 = &bm_sched, r2 = the caller */
8:
  pop {r4-r7}
  pop {r3}
  mov lr, r3
  movs r1, #0
  mvns r1, r1                    /* RTB_FOREVER again (r0 = m still) */
9:
  ldr r3, =bm_mutex_lock_c       /* (m, timeout), IRQs off */
  bx r3
.ltorg
.size bm_mutex_lock_slow, .-bm_mutex_lock_slow

/* rtb_mutex_unlock of a mutex that has waiters (r0 = the mutex; from the inline code, IRQs
 * off; AAPCS): the first waiter owns it and is ready; the caller drops to its base priority
 * if it inherited one and holds no other mutex with waiters; the most urgent ready thread
 * runs. A timed first waiter, or another mutex of the caller's with waiters: C. */
.section .text.bm_fast,"ax",%progbits
.global bm_mutex_unlock_slow
.type bm_mutex_unlock_slow,%function
.thumb_func
bm_mutex_unlock_slow:
  push {r4-r7, lr}
  ldr r3, [r0, #MTX_WT]          /* the waiters' tail */
  ldr r2, [r3, #TH_NEXT]         /* w = the head */
  ldrb r1, [r2, #TH_TIMED]
  cmp r1, #0
  bne 8f                         /* timed: C */
  ldr r1, =bm_sched
  ldr r4, [r1]                   /* t = cur */
  ldrb r5, [r4, #TH_BOOST]
  cmp r5, #0
  beq 2f
  movs r5, #0                    /* it inherits: from another mutex too? */
  str r5, [r0]                   /* (owner none while we look: not this one) */
  ldr r5, =bm_mtxs
  .set bm_off, 0
  .rept BM_NMTX
  ldr r7, [r5, #bm_off]
  cmp r7, r4
  bne 1f
  ldr r7, [r5, #bm_off + MTX_WT]
  cmp r7, #0
  bne 7f                         /* another with waiters: C */
1:
  .set bm_off, bm_off + 8
  .endr
2:
  cmp r2, r3                     /* w out of the waiters */
  bne 3f
  movs r5, #0
  str r5, [r0, #MTX_WT]          /* it was the only one */
  b 4f
3:
  ldr r5, [r2, #TH_NEXT]
  str r5, [r3, #TH_NEXT]
4:
  str r2, [r0]                   /* owner = w */
  movs r5, #ST_READY
  strh r5, [r2, #TH_STATE]       /* state READY, result RTB_OK */
  ldrb r5, [r4, #TH_BOOST]
  cmp r5, #0
  beq 6f
  ldrb r5, [r4, #TH_PRIO]        /* t drops to its base: out of list P (its head) */
  ldrb r6, [r4, #TH_BASE]
  strb r6, [r4, #TH_PRIO]
  movs r7, #0
  strb r7, [r4, #TH_BOOST]
  lsls r7, r5, #2
  adds r7, r7, r1
  ldr r3, [r7, #SCHED_RQ]
  cmp r3, r4
  bne 5f
  movs r3, #0                    /* alone: the list empties */
  str r3, [r7, #SCHED_RQ]
  movs r3, #1
  lsls r3, r5
  ldr r0, [r1, #SCHED_MAP]
  bics r0, r3
  str r0, [r1, #SCHED_MAP]
  b 51f
5:
  ldr r0, [r4, #TH_NEXT]
  str r0, [r3, #TH_NEXT]
51:
  BM_RQ_PUSH r4, r6, r7, r3, r0  /* into list base */
6:
  ldrb r5, [r2, #TH_PRIO]        /* w into its list */
  BM_RQ_PUSH r2, r5, r7, r3, r0
  ldr r3, [r1, #SCHED_MAP]       /* the most urgent ready thread */
  BM_TOP r3, bm_mutex_unlock_tab
  ldr r2, [r1]                   /* the caller */
  cmp r0, r2
  beq 9f
  BM_GO_PUSHED
7:
  str r4, [r0]                   /* the owner is still the caller */
8:
  pop {r4-r7}
  pop {r3}
  mov lr, r3
  ldr r3, =bm_mutex_unlock_c     /* (m), IRQs off */
  bx r3
9:
  cpsie i
  pop {r4-r7, pc}
.ltorg
  BM_TABLE bm_mutex_unlock_tab
.size bm_mutex_unlock_slow, .-bm_mutex_unlock_slow

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
2:                               /* a light frame [r7][pc] at r1: below it, build the */
  ldr r7, [r1]                   /* hardware frame whose xPSR slot is the pc's slot, so */
  ldr r0, [r1, #4]               /* that the return leaves sp where the pop would have */
  subs r0, #1                    /* (a stacked pc has bit 0 clear) */
  subs r1, #24
  str r0, [r1, #24]              /* pc */
  movs r0, #1
  lsls r0, r0, #24
  str r0, [r1, #28]              /* xPSR: Thumb */
  ldrb r0, [r2, #TH_RESULT]
  str r0, [r1]                   /* r0: its result (r1-r3, r12, lr: clobbered anyway) */
  msr psp, r1
4:                               /* (stale: r4-r11 are still the interrupted thread's) */
  cpsie i
  bx lr
.ltorg
.size PendSV_Handler, .-PendSV_Handler

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
  cpsie i
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
