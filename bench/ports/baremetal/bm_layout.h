/*
 * What the switch (switch.S, assembly) and the C scheduler (sched.h) share: the thread
 * control block, the scheduler state and the semaphore, as byte offsets for the assembly and
 * as structures for C, checked against each other at compile time (_Static_assert below).
 * Usable from C and from a preprocessed .S file.
 */
#ifndef BM_LAYOUT_H
#define BM_LAYOUT_H

/* struct th: the thread control block */
#define TH_SP 0      /* saved sp; bit 0: an exception frame (saved by PendSV) */
#define TH_NEXT 4    /* ready list or wait list */
#define TH_TNEXT 8
#define TH_WAKE 12
#define TH_WQ 16
#define TH_MSG 20
#define TH_PRIO 24   /* bytes from here */
#define TH_BASE 25
#define TH_STATE 26  /* a halfword store here writes state and result together */
#define TH_RESULT 27
#define TH_TIMED 28
#define TH_BOOST 29

/* struct bm_sched_s: the scheduler */
#define SCHED_CUR 0
#define SCHED_NXT 4
#define SCHED_MAP 8
#define SCHED_RQ 12  /* the tail of ready list p at SCHED_RQ + 4 * p */

/* struct bm_sem (rtb_port_inline.h) */
#define SEM_COUNT 0  /* halfwords */
#define SEM_LIM 2    /* 0x10000 - the maximum count */
#define SEM_WT 4

/* struct bm_mtx (rtb_port_inline.h): the owner, the waiters' tail; BM_NMTX of them (bm_mtxs) */
#define MTX_WT 4
#define BM_NMTX 4    /* RTB_MAX_MUTEXES, checked below */

/* thread states (struct th, state) */
#define ST_FREE 0
#define ST_READY 1
#define ST_BLOCKED 2
#define ST_SUSPENDED 3

/* The core: ARMv7-M (Cortex-M3, M4) masks with BASEPRI and has CLZ and Thumb-2; BM_FP, the
 * M4F's hard-float build, has s16-s31 to keep for a thread that uses the FPU (armv7m/). */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define BM_V7M 1
#else
#define BM_V7M 0
#endif
#if BM_V7M && defined(__ARM_FP)
#define BM_FP 1
#else
#define BM_FP 0
#endif
/* ARMv7-M: the mask of the critical sections, as every kernel's (NVIC_KERNEL_BASEPRI): the
 * board's levels (0x20..0xE0) and PendSV are masked, bytes 0x00-0x1F never are */
#define BM_BASEPRI 0x20

/* System Control Block: the interrupt control and state register, and its PendSV bit */
#define ICSR_ADDR 0xE000ED04
#define ICSR_PENDSVSET 0x10000000

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "bench.h" /* RTB_PRIO_CTRL; struct bm_sem, bm_mtx (rtb_port_inline.h) */

#define NPRIO (RTB_PRIO_CTRL + 1)

struct th {
    uint32_t sp;          /* saved stack pointer; bit 0: exception frame (saved by PendSV) */
    struct th *next;      /* ready list or wait list */
    struct th *tnext;     /* list of timed waiters */
    uint32_t wake;        /* deadline while timed */
    struct th **wq;       /* the wait list it is on (NULL: none) */
    void *msg;            /* queue waiter: its buffer */
    uint8_t prio, base, state, result, timed;
    uint8_t boost;        /* prio != base: it inherits a priority */
};
#define TCB_BYTES ((sizeof(struct th) + 7u) & ~7u)

/* The running thread and, while PendSV is pending, the one it must switch to. */
struct bm_sched_s {
    struct th *cur, *nxt;
    uint32_t map;            /* bit p: ready list p is not empty */
    struct th *rq[NPRIO];    /* tail of each circular ready list */
};

_Static_assert(offsetof(struct th, sp) == TH_SP && offsetof(struct th, next) == TH_NEXT &&
               offsetof(struct th, tnext) == TH_TNEXT && offsetof(struct th, wake) == TH_WAKE &&
               offsetof(struct th, wq) == TH_WQ && offsetof(struct th, msg) == TH_MSG &&
               offsetof(struct th, prio) == TH_PRIO && offsetof(struct th, base) == TH_BASE &&
               offsetof(struct th, state) == TH_STATE && offsetof(struct th, result) == TH_RESULT &&
               offsetof(struct th, timed) == TH_TIMED && offsetof(struct th, boost) == TH_BOOST,
               "struct th: the offsets switch.S uses");
_Static_assert(offsetof(struct bm_sched_s, cur) == SCHED_CUR &&
               offsetof(struct bm_sched_s, nxt) == SCHED_NXT &&
               offsetof(struct bm_sched_s, map) == SCHED_MAP &&
               offsetof(struct bm_sched_s, rq) == SCHED_RQ && sizeof(struct th *) == 4,
               "struct bm_sched_s: the offsets switch.S uses");
_Static_assert(offsetof(struct bm_sem, count) == SEM_COUNT &&
               offsetof(struct bm_sem, lim) == SEM_LIM && offsetof(struct bm_sem, wt) == SEM_WT &&
               sizeof(struct bm_sem) == 8 && sizeof(struct bm_mtx) == 8 &&
               offsetof(struct bm_mtx, wt) == MTX_WT && BM_NMTX == RTB_MAX_MUTEXES,
               "struct bm_sem, bm_mtx: the layouts rtb_port_inline.h and switch.S use");
#endif

#endif
