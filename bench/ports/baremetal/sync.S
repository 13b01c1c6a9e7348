/*
 * The baremetal hot calls that may switch, in assembly (ARMv6-M Thumb, also run as it is on
 * ARMv7-M, where bm_macros.inc's masks are BASEPRI and BM_TOP is CLZ): semaphore wait
 * and signal (from threads and ISRs), priority change, mutex lock and unlock. Frames and
 * the switch: switch.S. Their B to bm_resume_exc (switch.S, linked just before this file
 * in the same output section) reaches (2 KiB).
 */
#include "bm_layout.h"
#include "bm_macros.inc"

.syntax unified
.thumb

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
  BM_TAIL bm_sem_wait_slow, r3   /* (s, timeout), IRQs off */
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
  BM_UNMASK r3
  bx lr
9:
  BM_TAIL bm_sem_signal_slow, r3 /* (s), IRQs off */
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
  BM_UNMASK r2
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
  BM_TAIL bm_sem_signal_isr_c, r3 /* (s), IRQs off */
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
  BM_MASK r2
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
  BM_UNMASK r2
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
  BM_TAIL bm_prio_set_slow, r2   /* (t, prio), IRQs off */
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
  BM_TAIL bm_mutex_lock_c, r3    /* (m, timeout), IRQs off */
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
  BM_TAIL bm_mutex_unlock_c, r3  /* (m), IRQs off */
9:
  BM_UNMASK r3
  pop {r4-r7, pc}
.ltorg
  BM_TABLE bm_mutex_unlock_tab
.size bm_mutex_unlock_slow, .-bm_mutex_unlock_slow
