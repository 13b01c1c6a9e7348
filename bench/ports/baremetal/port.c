/*
 * baremetal: the floor every kernel is measured against. No RTOS: for each job the suite
 * asks for, the least code that can do it on ARMv6-M, and nothing general about it.
 * What the floor includes and excludes: docs/methodology.md ("The baremetal floor").
 *
 * - Threads: a control block at the top of the thread's own memory. Ready threads sit in
 *   one circular list per priority (only a tail pointer: the head is tail->next) and a
 *   bitmap of the non-empty lists; the running thread is the head of the highest list. A
 *   yield is one store (the tail becomes the caller); a preempted thread keeps its place.
 * - The switch: when the running thread itself causes it and knows the next thread (it
 *   yields, blocks, wakes a more urgent one), a direct thread-to-thread switch in thread
 *   mode. The calls that may switch are "light" (rtb_port_inline.h): inline BLs that tell
 *   the compiler every register but r7 is clobbered, so the switch pushes only r7 and the
 *   return address, stores sp, loads the other's sp and pops (a "light" frame, about 20
 *   cycles); C code switches through bm_go, which keeps r4-r11 below the frame. When an
 *   interrupt causes it, PendSV saves r4-r11 below the hardware frame and resumes the
 *   thread the interrupt chose. Bit 0 of a saved sp says which frame it is; either is
 *   resumed by either: a thread-mode switch to a preempted thread restores its exception
 *   frame in thread mode, PendSV turns a light frame into a hardware frame.
 * - Waiting: a semaphore is a counter and the tail of a FIFO of waiters (one word); a
 *   signal pops the head, makes it ready and switches to it directly if it is more urgent.
 *   A mutex is an owner and a FIFO of waiters, with one-level priority inheritance. A
 *   queue hands a message straight to a waiting receiver's buffer (and takes a blocked
 *   sender's). Critical sections are CPSID/CPSIE, a few instructions long.
 * - Time: the board's alarm (compare timer), tickless, programmed LEAD cycles before the
 *   earliest deadline; a delay then spins to its exact cycle. Timed waiters are an
 *   unsorted list (the suite has at most two or three). Timer callbacks run in the alarm
 *   interrupt.
 */
#include <stddef.h>
#include <string.h>

#include "bench.h"

#define NPRIO (RTB_PRIO_CTRL + 1)

enum { FREE = 0, READY, BLOCKED, SUSPENDED };

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
/* Offsets used by the assembly below. */
_Static_assert(offsetof(struct th, wq) == 16 && offsetof(struct th, prio) == 24 &&
               offsetof(struct th, state) == 26 && offsetof(struct th, result) == 27 &&
               offsetof(struct th, timed) == 28 && offsetof(struct th, boost) == 29,
               "struct th layout");
_Static_assert(sizeof(struct bm_sem) == 8 && sizeof(struct bm_mtx) == 8 &&
               offsetof(struct bm_sem, wt) == 4 && offsetof(struct bm_mtx, wt) == 4,
               "layouts shared with rtb_port_inline.h and the assembly");

/* The running thread and, while PendSV is pending, the one it must switch to. */
struct bm_sched_s {
    struct th *cur, *nxt;
    uint32_t map;            /* bit p: ready list p is not empty */
    struct th *rq[NPRIO];    /* tail of each circular ready list */
};
struct bm_sched_s bm_sched;
#define cur (bm_sched.cur)
#define nxt (bm_sched.nxt)
#define rq (bm_sched.rq)
#define rq_map (bm_sched.map)
struct th *bm_threads[RTB_MAX_THREADS];
#define threads bm_threads
static struct th *timed; /* threads waiting with a deadline */
static uint32_t alarm_at;
static uint8_t alarm_on;

struct queue { uint32_t buf[128 / 4]; /* 128: rhealstone.message_passing.seed001 */ uint8_t size, depth, head, count; struct th *rt, *st; };
struct tmr { uint32_t next, period; void (*cb)(void *); void *arg; uint8_t active, once; };

struct bm_sem bm_sems[RTB_MAX_SEMS];
#define sems bm_sems
struct bm_mtx bm_mtxs[RTB_MAX_MUTEXES];
#define mtxs bm_mtxs
static struct queue queues[RTB_MAX_QUEUES];
static struct tmr tmrs[RTB_MAX_TIMERS];

#define ICSR (*(volatile uint32_t *)0xE000ED04u)
#define SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define PENDSVSET (1u << 28)

/* Cycles from the alarm firing to the woken thread running (the alarm ISR, PendSV and the
 * return), with margin: the alarm is set this much before a deadline and the rest spun. */
#define LEAD 600u

/* Microseconds to cycles without a division where the clock is a whole number of MHz. */
#if (BOARD_CLOCK_HZ % 1000000u) == 0
#define CYC(us) ((uint32_t)(us) * (BOARD_CLOCK_HZ / 1000000u))
#else
#define CYC(us) us_to_cycles(us)
#endif
#define INLINE static inline __attribute__((always_inline))

static inline void lock(void) { __asm volatile("cpsid i" ::: "memory"); }
static inline void unlock(void) { __asm volatile("cpsie i" ::: "memory"); }

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided by the baremetal port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "none: the floor - direct thread-to-thread switch, PendSV only from interrupts");
    bench_config("scheduler", "per-priority circular ready lists + bitmap; no search when the next thread is known");
    bench_config("tickless", "yes (board alarm, set 600 cycles early, the rest spun)");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("semaphore", "counter + FIFO of waiters (one word)");
    bench_config("mutex", "owner + FIFO of waiters, one-level priority inheritance, no deadlock detection");
    bench_config("queue", "ring buffer, direct hand-off to a waiting receiver or from a blocked sender");
    bench_config("timer_context", "alarm interrupt");
    bench_config("oneshot_rounding", "the alarm at now + us in cycles, exact");
    bench_config("allocation", "static; control blocks at the top of the thread's memory; memory blocks: one 128-byte block");
    bench_config("checks", "none (no argument checks, no stack check)");
    bench_config("idle", "WFI in an idle thread");
}

/* ---- lists: circular, singly linked, `*tail` names the last, tail->next is the head ---- */
INLINE void l_push(struct th **tail, struct th *t)
{
    struct th *tl = *tail;
    if (tl) {
        t->next = tl->next;
        tl->next = t;
    } else {
        t->next = t;
    }
    *tail = t;
}

INLINE struct th *l_pop(struct th **tail) /* the head, or NULL */
{
    struct th *tl = *tail;
    if (!tl)
        return 0;
    struct th *h = tl->next;
    if (h == tl)
        *tail = 0;
    else
        tl->next = h->next;
    return h;
}

INLINE void l_remove(struct th **tail, struct th *t)
{
    struct th *p = *tail;
    if (!p)
        return;
    while (p->next != t) {
        p = p->next;
        if (p == *tail)
            return; /* not on the list */
    }
    if (p == t)
        *tail = 0;
    else {
        p->next = t->next;
        if (*tail == t)
            *tail = p;
    }
}

INLINE void rq_push(struct th *t)
{
    unsigned p = t->prio;
    if (!rq[p])
        rq_map |= 1u << p;
    l_push(&rq[p], t);
}

INLINE void rq_remove(struct th *t)
{
    unsigned p = t->prio;
    l_remove(&rq[p], t);
    if (!rq[p])
        rq_map &= ~(1u << p);
}

/* ---- the most urgent ready thread ---- */
struct th *bm_idle;
#define idle_t bm_idle
static const uint8_t bm_hb4[16] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
#define hb4 bm_hb4
INLINE struct th *top(void)
{
    uint32_t m = rq_map; /* priorities 1..9 */
    if (!m)
        return idle_t;
    unsigned p = m >> 8 ? 8u + (m >> 9) : m >> 4 ? 4u + hb4[m >> 4] : hb4[m];
    return rq[p]->next;
}

/* ---- the switch ---- */
/* Frames. A thread that is not running has its sp in its block (offset 0) and one of:
 * - a light frame [r7][pc] (bit 0 of sp clear), left by a switch in thread mode. The hot
 *   calls are "light" (rtb_port_inline.h): the compiler is told they clobber every register
 *   but r7 (and sp, pc), so the switch saves only r7 (the frame pointer at -O0, which an asm
 *   may not clobber) and the return address; what the caller still needs it has kept on its
 *   own stack. C code switches through bm_go, which keeps r4-r11 below such a frame.
 * - an exception frame [r8-r11][r4-r7][hardware frame] (bit 0 set), left by PendSV.
 * Either is resumed by either: a switch in thread mode pops a light frame, or restores an
 * exception frame in thread mode too (bm_resume_exc); PendSV returns through an exception
 * frame, or turns a light frame into one. */
void bm_go(struct th *n); /* switch to `n` (IRQs off); returns, IRQs on, when the caller runs again */
void bm_start(uint32_t sp) __attribute__((noreturn));
void bm_trampoline(void);


/* The start of both semaphore signals (r0 = the semaphore): mask IRQs; with no waiter,
 * count up to the limit and return; else go on at 2: with r3 = the waiters' tail. */
#define BM_SIGNAL_COUNT \
    "  cpsid i\n" \
    "  ldr r3, [r0, #4]\n"           /* the waiters' tail */ \
    "  cmp r3, #0\n" \
    "  bne 2f\n" \
    "  ldrh r1, [r0]\n" \
    "  ldrh r2, [r0, #2]\n" \
    "  cmp r1, r2\n" \
    "  bhs 1f\n" \
    "  adds r1, #1\n" \
    "  strh r1, [r0]\n" \
    "1:\n" \
    "  cpsie i\n" \
    "  bx lr\n" \
    "2:\n"

__asm__(
    ".syntax unified\n"
    ".thumb\n"
    /* BM_SWITCH: the end of every switch in thread mode. In: r0 = the next thread, r1 =
     * &bm_sched, r2 = the caller (cur), lr = where the caller resumes, IRQs off; r3-r6, r12
     * free, r7 the caller's. The resumed thread returns from its call with r0 = its result.
     * light=1: the next thread surely has a light frame (it blocked: a waiter) and result 0. */
    ".macro BM_SWITCH light=0\n"
    "  push {r7, lr}\n"
    "  mov r3, sp\n"
    "  str r3, [r2]\n"               /* the caller's sp: a light frame */
    "  str r0, [r1]\n"               /* cur = n */
    "  ldr r3, [r0]\n"               /* n->sp */
    ".if \\light\n"
    "  mov sp, r3\n"
    "  movs r0, #0\n"
    ".else\n"
    "  lsls r4, r3, #31\n"
    "  bne .Lexc\\@\n"
    "  mov sp, r3\n"
    "  ldrb r0, [r0, #27]\n"         /* n->result */
    ".endif\n"
    "  cpsie i\n"                    /* consistent from here: cur = n, sp is n's */
    "  pop {r7, pc}\n"
    ".if !\\light\n"
    ".Lexc\\@:\n"
    "  b bm_resume_exc\n"            /* n was preempted (r3: its exception frame) */
    ".endif\n"
    ".endm\n"

    /* BM_TOP m, tab: r0 = the head of the most urgent ready list. \\m = the map (not 0),
     * r1 = &bm_sched, \\tab = the routine's copy of BM_TABLE; clobbers r4. */
    ".macro BM_TOP m, tab\n"
    "  lsrs r0, \\m, #4\n"
    "  adr r4, \\tab\n"
    "  beq .Llow\\@\n"
    "  ldrb r0, [r4, r0]\n"          /* priorities 4..9 */
    "  adds r0, #4\n"
    "  b .Lp\\@\n"
    ".Llow\\@:\n"
    "  ldrb r0, [r4, \\m]\n"         /* 1..3 */
    ".Lp\\@:\n"
    "  lsls r0, r0, #2\n"
    "  adds r0, r0, r1\n"
    "  ldr r0, [r0, #12]\n"          /* its tail */
    "  ldr r0, [r0, #4]\n"           /* its head */
    ".endm\n"
    /* the highest set bit of 0..63 (one table per routine: ADR reaches it) */
    ".macro BM_TABLE name\n"
    "  .align 2\n"
    "\\name:\n"
    "  .byte 0, 0, 1, 1, 2, 2, 2, 2\n"
    "  .rept 8\n  .byte 3\n  .endr\n"
    "  .rept 16\n  .byte 4\n  .endr\n"
    "  .rept 32\n  .byte 5\n  .endr\n"
    ".endm\n"

    /* The switch and the light routines share one section: their B to bm_resume_exc
     * reaches (2 KiB). */
    /* void bm_go(struct th *n), IRQs off: the switch of the C code (AAPCS): r4-r11 saved
     * below the light frame, whose return address is the restore below */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_go\n.type bm_go,%function\n.thumb_func\n"
    "bm_go:\n"
    "  push {r4-r7, lr}\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  push {r4-r7}\n"
    "  ldr r1, =bm_sched\n"
    "  ldr r2, [r1]\n"
    "  bl bm_switch\n"
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  pop {r4-r7, pc}\n"
    "bm_switch:\n"
    "  BM_SWITCH\n"
    ".ltorg\n"
    ".size bm_go, .-bm_go\n"

    /* bm_resume_exc: the end of a switch in thread mode to a thread that was preempted (r3 =
     * its sp, bit 0 set; cur is it already, IRQs off). Restores r8-r11, r4-r7, then the
     * hardware part: lr, r12, the flags, r0-r3 and last the pc, popped from the xPSR slot (or
     * the word above it if the frame was realigned, xPSR bit 9), which leaves sp where the
     * exception return would have. Cheaper than pending PendSV for it. */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_resume_exc\n.type bm_resume_exc,%function\n.thumb_func\n"
    "bm_resume_exc:\n"
    "  subs r3, #1\n"
    "  mov sp, r3\n"
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  pop {r4-r7}\n"
    "  ldr r0, [sp, #20]\n"
    "  mov lr, r0\n"
    "  ldr r0, [sp, #16]\n"
    "  mov r12, r0\n"
    "  ldr r0, [sp, #24]\n"
    "  adds r0, #1\n"                /* (a popped pc needs the Thumb bit) */
    "  ldr r1, [sp, #28]\n"          /* xPSR */
    "  lsls r2, r1, #22\n"           /* N = bit 9: realigned by 4 */
    "  bmi 1f\n"
    "  str r0, [sp, #28]\n"
    "  msr APSR_nzcvq, r1\n"         /* (nothing below sets the flags) */
    "  pop {r0-r3}\n"
    "  add sp, #12\n"
    "  cpsie i\n"
    "  pop {pc}\n"
    "1:\n"
    "  str r0, [sp, #32]\n"
    "  msr APSR_nzcvq, r1\n"
    "  pop {r0-r3}\n"
    "  add sp, #16\n"
    "  cpsie i\n"
    "  pop {pc}\n"
    ".size bm_resume_exc, .-bm_resume_exc\n"

    /* The light routines, called by the inline code of rtb_port_inline.h: arguments in r0,
     * r1, the result in r0; they may use r0-r6 and r12, never r7 (BM_SWITCH saves it). Their
     * uncommon cases tail-call C (AAPCS, so it keeps r4-r11 itself) with IRQs off. */

    /* rtb_yield: the caller becomes the tail of its list, the next one runs */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_yield_l\n.type bm_yield_l,%function\n.thumb_func\n"
    "bm_yield_l:\n"
    "  ldr r1, =bm_sched\n"
    "  cpsid i\n"
    "  ldr r2, [r1]\n"               /* cur */
    "  ldr r0, [r2, #4]\n"           /* n = cur->next */
    "  cmp r0, r2\n"
    "  beq 1f\n"                     /* alone at its priority */
    "  ldrb r3, [r2, #24]\n"
    "  lsls r3, r3, #2\n"
    "  adds r3, r3, r1\n"
    "  str r2, [r3, #12]\n"          /* the caller becomes the tail, n the head */
    "  BM_SWITCH\n"
    "1:\n"
    "  cpsie i\n"
    "  bx lr\n"
    ".ltorg\n"
    ".size bm_yield_l, .-bm_yield_l\n"

    /* rtb_sem_wait (r0 = the semaphore, r1 = the timeout): a unit, or block for ever; a
     * finite timeout (or none) goes to bm_sem_wait_slow */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_sem_wait_l\n.type bm_sem_wait_l,%function\n.thumb_func\n"
    "bm_sem_wait_l:\n"
    "  cpsid i\n"
    "  ldrh r3, [r0]\n"
    "  subs r3, #1\n"
    "  bcc 1f\n"                     /* (borrow: no unit) */
    "  strh r3, [r0]\n"
    "  cpsie i\n"
    "  movs r0, #0\n"
    "  bx lr\n"
    "1:\n"
    "  adds r3, r1, #1\n"
    "  bne 9f\n"                     /* not RTB_FOREVER: C */
    "  ldr r1, =bm_sched\n"
    "  ldr r2, [r1]\n"               /* t = cur, the head of its ready list: unlink it */
    "  movs r3, #2\n"
    "  strb r3, [r2, #26]\n"         /* BLOCKED */
    "  ldrb r4, [r2, #24]\n"
    "  lsls r5, r4, #2\n"
    "  adds r5, r5, r1\n"
    "  ldr r6, [r5, #12]\n"          /* the tail */
    "  cmp r6, r2\n"
    "  bne 2f\n"
    "  movs r3, #0\n"                /* alone: the list empties */
    "  str r3, [r5, #12]\n"
    "  movs r5, #1\n"
    "  lsls r5, r4\n"
    "  ldr r3, [r1, #8]\n"
    "  bics r3, r5\n"
    "  str r3, [r1, #8]\n"
    "  b 3f\n"
    "2:\n"
    "  ldr r3, [r2, #4]\n"
    "  str r3, [r6, #4]\n"           /* tail->next = t->next */
    "3:\n"
    "  adds r0, #4\n"                /* &s->wt */
    "  str r0, [r2, #16]\n"          /* t->wq */
    "  ldr r3, [r0]\n"               /* append t to the waiters */
    "  cmp r3, #0\n"
    "  beq 4f\n"
    "  ldr r4, [r3, #4]\n"
    "  str r4, [r2, #4]\n"
    "  str r2, [r3, #4]\n"
    "  b 5f\n"
    "4:\n"
    "  str r2, [r2, #4]\n"
    "5:\n"
    "  str r2, [r0]\n"
    "  ldr r3, [r1, #8]\n"           /* the most urgent ready thread, or idle */
    "  cmp r3, #0\n"
    "  beq 6f\n"
    "  BM_TOP r3, bm_sem_wait_tab\n"
    "7:\n"
    "  BM_SWITCH\n"
    "6:\n"
    "  ldr r0, =bm_idle\n"
    "  ldr r0, [r0]\n"
    "  b 7b\n"
    "9:\n"
    "  ldr r3, =bm_sem_wait_slow\n"  /* (s, timeout), IRQs off */
    "  bx r3\n"
    ".ltorg\n"
    "  BM_TABLE bm_sem_wait_tab\n"
    ".size bm_sem_wait_l, .-bm_sem_wait_l\n"

    /* rtb_sem_signal (r0 = the semaphore): count, or hand the unit to the first waiter and
     * run it if it is more urgent than every ready thread (the caller included); a timed
     * waiter goes to bm_sem_signal_slow */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_sem_signal_l\n.type bm_sem_signal_l,%function\n.thumb_func\n"
    "bm_sem_signal_l:\n"
    BM_SIGNAL_COUNT
    "  ldr r2, [r3, #4]\n"           /* w = the head */
    "  ldrb r1, [r2, #28]\n"
    "  cmp r1, #0\n"
    "  bne 9f\n"                     /* timed: C */
    "  cmp r2, r3\n"
    "  bne 3f\n"
    "  str r1, [r0, #4]\n"           /* (r1 = 0) it was the only waiter */
    "  b 4f\n"
    "3:\n"
    "  ldr r1, [r2, #4]\n"
    "  str r1, [r3, #4]\n"
    "4:\n"
    "  movs r1, #1\n"
    "  strh r1, [r2, #26]\n"         /* state READY, result RTB_OK */
    "  ldr r1, =bm_sched\n"
    "  ldrb r4, [r2, #24]\n"         /* p */
    "  movs r5, #1\n"
    "  lsls r5, r4\n"                /* its bit */
    "  ldr r6, [r1, #8]\n"           /* the map */
    "  cmp r5, r6\n"                 /* (bits below p sum to less than bit p) */
    "  bls 6f\n"                     /* someone is ready at p or above (the caller at least) */
    /* nothing is ready at p or above, the caller included: w is alone at p and runs */
    "  orrs r6, r5\n"
    "  str r6, [r1, #8]\n"
    "  str r2, [r2, #4]\n"
    "  lsls r4, r4, #2\n"
    "  adds r4, r4, r1\n"
    "  str r2, [r4, #12]\n"
    "  movs r0, r2\n"
    "  ldr r2, [r1]\n"               /* the caller */
    "  BM_SWITCH 1\n"                /* (a waiter: a light frame, result RTB_OK) */
    "6:\n"                           /* w waits its turn: append it to list p */
    "  orrs r6, r5\n"                /* (the map, if list p was empty) */
    "  lsls r4, r4, #2\n"
    "  adds r4, r4, r1\n"
    "  ldr r3, [r4, #12]\n"
    "  cmp r3, #0\n"
    "  bne 7f\n"
    "  str r6, [r1, #8]\n"
    "  str r2, [r2, #4]\n"
    "  b 8f\n"
    "7:\n"
    "  ldr r0, [r3, #4]\n"
    "  str r0, [r2, #4]\n"
    "  str r2, [r3, #4]\n"
    "8:\n"
    "  str r2, [r4, #12]\n"
    "  cpsie i\n"
    "  bx lr\n"
    "9:\n"
    "  ldr r3, =bm_sem_signal_slow\n" /* (s), IRQs off */
    "  bx r3\n"
    ".ltorg\n"
    ".size bm_sem_signal_l, .-bm_sem_signal_l\n"

    /* void bm_sem_signal_isr(struct bm_sem *s): rtb_sem_signal_isr (inline, AAPCS), from an
     * ISR: count, or hand the unit to the first waiter and, if it is more urgent than the
     * thread that will run (nxt, or cur), make it the next one and pend PendSV; a timed
     * waiter goes to C. Only r0-r3 and r12: no stack. */
    ".section .text.bm_sem_signal_isr,\"ax\",%progbits\n"
    ".global bm_sem_signal_isr\n.type bm_sem_signal_isr,%function\n.thumb_func\n"
    "bm_sem_signal_isr:\n"
    BM_SIGNAL_COUNT
    "  ldr r1, [r3, #4]\n"           /* w = the head */
    "  ldrb r2, [r1, #28]\n"
    "  cmp r2, #0\n"
    "  bne 9f\n"                     /* timed: C */
    "  cmp r1, r3\n"
    "  bne 3f\n"
    "  str r2, [r0, #4]\n"           /* (r2 = 0) it was the only waiter */
    "4:\n"
    "  movs r2, #1\n"
    "  strh r2, [r1, #26]\n"         /* state READY, result RTB_OK */
    "  ldr r3, =bm_sched\n"
    "  ldrb r0, [r1, #24]\n"         /* p: append w to ready list p */
    "  mov r12, r0\n"
    "  lsls r0, r0, #2\n"
    "  adds r0, r0, r3\n"
    "  ldr r2, [r0, #12]\n"          /* the old tail */
    "  str r1, [r0, #12]\n"
    "  cmp r2, #0\n"
    "  bne 5f\n"
    "  str r1, [r1, #4]\n"           /* alone: list p is not empty now */
    "  mov r2, r12\n"
    "  movs r0, #1\n"
    "  lsls r0, r2\n"
    "  ldr r2, [r3, #8]\n"
    "  orrs r2, r0\n"
    "  str r2, [r3, #8]\n"
    "6:\n"
    "  ldr r2, [r3, #4]\n"           /* the thread that will run: nxt, or cur */
    "  cmp r2, #0\n"
    "  bne 7f\n"
    "  ldr r2, [r3]\n"
    "7:\n"
    "  ldrb r2, [r2, #24]\n"
    "  cmp r2, r12\n"
    "  bhs 8f\n"
    "  str r1, [r3, #4]\n"           /* nxt = w */
    "  ldr r0, =0xE000ED04\n"
    "  ldr r2, =0x10000000\n"
    "  str r2, [r0]\n"               /* PENDSVSET: the switch when the interrupt returns */
    "8:\n"
    "  cpsie i\n"
    "  bx lr\n"
    "3:\n"
    "  ldr r2, [r1, #4]\n"
    "  str r2, [r3, #4]\n"
    "  b 4b\n"
    "5:\n"
    "  ldr r0, [r2, #4]\n"
    "  str r0, [r1, #4]\n"
    "  str r1, [r2, #4]\n"
    "  b 6b\n"
    "9:\n"
    "  ldr r3, =bm_sem_signal_isr_c\n" /* (s), IRQs off */
    "  bx r3\n"
    ".ltorg\n"
    ".size bm_sem_signal_isr, .-bm_sem_signal_isr\n"

    /* rtb_prio_set (r0 = the thread, r1 = the priority) of a thread that inherits nothing;
     * the rest goes to bm_prio_set_slow */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_prio_set_l\n.type bm_prio_set_l,%function\n.thumb_func\n"
    "bm_prio_set_l:\n"
    "  ldr r3, =bm_sched\n"
    "  cpsid i\n"
    "  ldrb r4, [r0, #24]\n"         /* prio */
    "  ldrb r5, [r0, #25]\n"         /* base */
    "  cmp r4, r5\n"
    "  bne 20f\n"                    /* it inherits a priority: C */
    "  strb r1, [r0, #25]\n"
    "  cmp r4, r1\n"
    "  beq 19f\n"
    "  ldrb r6, [r0, #26]\n"
    "  cmp r6, #1\n"
    "  beq 3f\n"
    "  strb r1, [r0, #24]\n"         /* not ready: just the number */
    "19:\n"
    "  cpsie i\n"
    "  bx lr\n"
    "3:\n"                           /* out of ready list r4 */
    "  lsls r5, r4, #2\n"
    "  adds r5, r5, r3\n"            /* &rq[p] - 12 */
    "  ldr r6, [r5, #12]\n"          /* the tail */
    "  ldr r2, [r0, #4]\n"
    "  cmp r2, r0\n"
    "  bne 4f\n"
    "  movs r2, #0\n"                /* alone: the list empties */
    "  str r2, [r5, #12]\n"
    "  movs r2, #1\n"
    "  lsls r2, r4\n"
    "  ldr r6, [r3, #8]\n"
    "  bics r6, r2\n"
    "  str r6, [r3, #8]\n"
    "  b 7f\n"
    "4:\n"                           /* its predecessor, from the tail */
    "  movs r4, r6\n"
    "5:\n"
    "  ldr r2, [r4, #4]\n"
    "  cmp r2, r0\n"
    "  beq 6f\n"
    "  movs r4, r2\n"
    "  b 5b\n"
    "6:\n"
    "  ldr r2, [r0, #4]\n"
    "  str r2, [r4, #4]\n"
    "  cmp r6, r0\n"
    "  bne 7f\n"
    "  str r4, [r5, #12]\n"          /* it was the tail: its predecessor is */
    "7:\n"                           /* append it to list r1 */
    "  strb r1, [r0, #24]\n"
    "  lsls r5, r1, #2\n"
    "  adds r5, r5, r3\n"
    "  ldr r6, [r5, #12]\n"
    "  cmp r6, #0\n"
    "  bne 8f\n"
    "  str r0, [r0, #4]\n"
    "  movs r2, #1\n"
    "  lsls r2, r1\n"
    "  ldr r4, [r3, #8]\n"
    "  orrs r4, r2\n"
    "  str r4, [r3, #8]\n"
    "  b 9f\n"
    "8:\n"
    "  ldr r2, [r6, #4]\n"
    "  str r2, [r0, #4]\n"
    "  str r0, [r6, #4]\n"
    "9:\n"
    "  str r0, [r5, #12]\n"
    /* who runs: another thread that now outranks the caller; or, if the caller changed its
     * own priority, the most urgent one */
    "  ldr r2, [r3]\n"               /* the caller */
    "  cmp r0, r2\n"
    "  beq 10f\n"
    "  ldrb r4, [r2, #24]\n"
    "  cmp r1, r4\n"
    "  bls 19b\n"
    "  mov r1, r3\n"
    "  b 11f\n"
    "10:\n"
    "  mov r1, r3\n"
    "  ldr r3, [r3, #8]\n"
    "  BM_TOP r3, bm_prio_set_tab\n"
    "  cmp r0, r2\n"
    "  beq 19b\n"
    "11:\n"
    "  BM_SWITCH\n"
    "20:\n"
    "  ldr r2, =bm_prio_set_slow\n"  /* (t, prio), IRQs off */
    "  bx r2\n"
    ".ltorg\n"
    "  BM_TABLE bm_prio_set_tab\n"
    ".size bm_prio_set_l, .-bm_prio_set_l\n"

    /* PendSV: save the interrupted thread (cur) below its hardware frame, resume nxt. It
     * preempts only thread mode, on PSP: lr = 0xFFFFFFFD, kept for the return. */
    ".section .text.PendSV_Handler,\"ax\",%progbits\n"
    ".global PendSV_Handler\n.type PendSV_Handler,%function\n.thumb_func\n"
    "PendSV_Handler:\n"
    "  mrs r0, psp\n"
    "  subs r0, #32\n"
    "  mov r1, r8\n  mov r2, r9\n  mov r3, r10\n"
    "  stmia r0!, {r1-r3}\n"
    "  mov r1, r11\n"
    "  stmia r0!, {r1, r4-r7}\n"     /* [r8-r11][r4-r7][hardware frame] */
    "  subs r0, #31\n"               /* its base | 1: an exception frame */
    "  ldr r3, =bm_sched\n"
    "  cpsid i\n"
    "  ldr r1, [r3]\n"               /* cur */
    "  ldr r2, [r3, #4]\n"           /* nxt */
    "  cmp r2, #0\n"
    "  beq 4f\n"                     /* nothing to do (a stale request) */
    "  str r0, [r1]\n"               /* cur->sp */
    "  movs r1, #0\n"
    "  str r2, [r3]\n"               /* cur = nxt */
    "  str r1, [r3, #4]\n"           /* nxt = 0 */
    "  ldr r1, [r2]\n"               /* its sp */
    "  lsrs r0, r1, #1\n"
    "  bcc 2f\n"
    "  subs r1, #1\n"                /* an exception frame */
    "  ldmia r1!, {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldmia r1!, {r4-r7}\n"
    "  msr psp, r1\n"
    "  cpsie i\n"
    "  bx lr\n"
    "2:\n"                           /* a light frame [r7][pc] at r1: below it, build the */
    "  ldr r7, [r1]\n"               /* hardware frame whose xPSR slot is the pc's slot, so */
    "  ldr r0, [r1, #4]\n"           /* that the return leaves sp where the pop would have */
    "  subs r0, #1\n"                /* (a stacked pc has bit 0 clear) */
    "  subs r1, #24\n"
    "  str r0, [r1, #24]\n"          /* pc */
    "  movs r0, #1\n"
    "  lsls r0, r0, #24\n"
    "  str r0, [r1, #28]\n"          /* xPSR: Thumb */
    "  ldrb r0, [r2, #27]\n"
    "  str r0, [r1]\n"               /* r0: its result (r1-r3, r12, lr: clobbered anyway) */
    "  msr psp, r1\n"
    "4:\n"                           /* (stale: r4-r11 are still the interrupted thread's) */
    "  cpsie i\n"
    "  bx lr\n"
    ".ltorg\n"
    ".size PendSV_Handler, .-PendSV_Handler\n"

    /* void bm_start(uint32_t sp): run the first thread (its first light frame) on PSP */
    ".section .text.bm_start,\"ax\",%progbits\n"
    ".global bm_start\n.type bm_start,%function\n.thumb_func\n"
    "bm_start:\n"
    "  msr psp, r0\n"
    "  movs r1, #2\n"
    "  msr control, r1\n"
    "  isb\n"
    "  ldr r1, =__stack_top\n"
    "  msr msp, r1\n"                /* main's stack becomes the interrupt stack again */
    "  cpsie i\n"
    "  pop {r7, pc}\n"
    ".ltorg\n"
    ".size bm_start, .-bm_start\n"
    /* first code of every thread, from its first light frame [r7 = arg][bm_trampoline] and
     * [entry] above it; a thread never returns */
    ".section .text.bm_trampoline,\"ax\",%progbits\n"
    ".global bm_trampoline\n.type bm_trampoline,%function\n.thumb_func\n"
    "bm_trampoline:\n"
    "  mov r0, r7\n"
    "  pop {r1}\n"
    "  blx r1\n"
    "1: b 1b\n"
    ".size bm_trampoline, .-bm_trampoline\n"
    ".text\n");

/* Run `n`: the head of the highest ready list, not the caller. */
#define go(n) bm_go(n)

/* After a change that may have put someone above the caller. */
INLINE void resched(void)
{
    struct th *n = top();
    if (n != cur)
        go(n);
    else
        unlock();
}

INLINE struct th *make_thread(int prio, rtb_entry_t fn, void *arg, void *stack, size_t bytes)
{
    uintptr_t top_ = ((uintptr_t)stack + bytes) & ~(uintptr_t)7u;
    struct th *t = (struct th *)(top_ - TCB_BYTES);
    /* a light frame [r7 = arg][pc = the trampoline], then [entry] for the trampoline: the
     * thread starts with sp = t, 8-aligned */
    uint32_t *sp = (uint32_t *)t - 3;
    t->sp = (uint32_t)(uintptr_t)sp;
    t->prio = t->base = (uint8_t)prio;
    t->timed = 0;
    t->boost = 0;
    t->wq = 0;
    t->state = READY;
    sp[0] = (uint32_t)(uintptr_t)arg;
    sp[1] = (uint32_t)(uintptr_t)bm_trampoline | 1u;
    sp[2] = (uint32_t)(uintptr_t)fn;
    return t;
}

static uint64_t idle_stack[160 / 8]; /* control block, a light frame or an exception frame + r4-r11 */
static void idle(void *arg)
{
    (void)arg;
    for (;;)
        __asm volatile("wfi");
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    SHPR3 = (SHPR3 & 0x0000FFFFu) | 0xC0C00000u; /* PendSV (and SysTick) least urgent */
    struct th *c = make_thread(RTB_PRIO_CTRL, main_fn, 0, stack, stack_bytes);
    idle_t = make_thread(0, idle, 0, idle_stack, sizeof idle_stack);
    rq_push(c);
    board_irq_enable(BOARD_ALARM_IRQ, 2);
    lock();
    cur = c;
    bm_start(c->sp);
}

/* ---- time ---- */
static void alarm_want(uint32_t at)
{
    if (!alarm_on || (int32_t)(at - alarm_at) < 0) {
        alarm_on = 1;
        alarm_at = at;
        board_alarm_set(at);
    }
}

static void untime(struct th *t)
{
    if (t->timed) {
        t->timed = 0;
        struct th **pp = &timed;
        while (*pp != t)
            pp = &(*pp)->tnext;
        *pp = t->tnext;
        if (!timed && !tmrs[0].active && !tmrs[1].active) { /* nothing left to wait for */
            alarm_on = 0;
            board_alarm_cancel();
        }
    }
}

/* Block the caller on wait list `wq` (or none) until woken or until `deadline` if `tmo`.
 * Interrupts off; returns with them on. */
static int block(struct th **wq, int tmo, uint32_t deadline)
{
    struct th *t = cur;
    struct th **tl = &rq[t->prio];
    struct th *h = (*tl)->next; /* t is the head of its ready list */
    if (h == *tl) {
        *tl = 0;
        rq_map &= ~(1u << t->prio);
    } else {
        (*tl)->next = h->next;
    }
    t->state = BLOCKED;
    t->wq = wq;
    if (wq)
        l_push(wq, t);
    if (tmo) {
        t->timed = 1;
        t->wake = deadline;
        t->tnext = timed;
        timed = t;
        alarm_want(deadline);
    }
    go(top());
    return t->result;
}

/* Make a waiter ready (interrupts off). */
INLINE void wake(struct th *w, int result)
{
    w->result = (uint8_t)result;
    w->state = READY;
    if (w->timed)
        untime(w);
    rq_push(w);
}

static uint32_t deadline_us(uint32_t us) { return board_cycles() + CYC(us); }

static unsigned inherited(struct th *t);
/* A waiter left wait list `wq` (timeout, deletion): if that is a mutex's, its owner keeps
 * only the priority it still inherits. So an owner is boosted only while a mutex it holds
 * has waiters, and unlocking a mutex nobody waits on never changes a priority (the inline
 * fast path of rtb_mutex_unlock relies on it). Interrupts off. */
static void drop_inherited(struct th **wq)
{
    uintptr_t off = (uintptr_t)wq - (uintptr_t)&mtxs[0].wt;
    if (off >= sizeof mtxs)
        return;
    struct th *o = mtxs[off / sizeof mtxs[0]].owner;
    if (o && o->boost) {
        unsigned eff = inherited(o);
        if (eff < o->base)
            eff = o->base;
        if (o->state == READY) {
            rq_remove(o);
            o->prio = (uint8_t)eff;
            rq_push(o);
        } else {
            o->prio = (uint8_t)eff;
        }
        o->boost = o->prio != o->base;
    }
}

void board_alarm_isr(void)
{
    lock();
    alarm_on = 0;
    uint32_t now = board_cycles();
    int sw = 0;
    for (struct th **pp = &timed; *pp;) {
        struct th *t = *pp;
        if ((int32_t)(now - t->wake) >= 0) {
            *pp = t->tnext;
            t->timed = 0;
            if (t->wq) {
                l_remove(t->wq, t);
                t->result = RTB_TIMEOUT;
                drop_inherited(t->wq);
            } else {
                t->result = RTB_OK;
            }
            t->wq = 0;
            t->state = READY;
            rq_push(t);
            sw = 1;
        } else {
            alarm_want(t->wake);
            pp = &t->tnext;
        }
    }
    for (int k = 0; k < RTB_MAX_TIMERS; k++) {
        struct tmr *tm = &tmrs[k];
        if (!tm->active)
            continue;
        if ((int32_t)(now - tm->next) >= 0) {
            tm->next += tm->period;
            if (tm->once)
                tm->active = 0;
            unlock();
            tm->cb(tm->arg);
            lock();
        }
        if (tm->active)
            alarm_want(tm->next);
    }
    if (sw) {
        /* Compare with the thread that will run: a thread-mode switch through PendSV may be
         * pending (nxt), and the thread we interrupted may be the one just woken. */
        struct th *n = top();
        if (n != (nxt ? nxt : cur)) {
            nxt = n;
            ICSR = PENDSVSET;
        }
    }
    unlock();
}

/* Spin to the exact deadline (the alarm woke the thread LEAD cycles early). */
static inline void spin_to(uint32_t at)
{
    while ((int32_t)(board_cycles() - at) < 0) {
    }
}

/* The delay counts from the call: the entry code before the counter read (a BL, a push and a
 * multiply: 13 cycles on vp-m0) is credited with DELAY_ENTRY of its cycles. */
#define DELAY_ENTRY 8u
void rtb_delay_us(uint32_t us)
{
    uint32_t at = board_cycles() - DELAY_ENTRY + CYC(us);
    lock();
    if (CYC(us) > 2u * LEAD)
        block(0, 1, at - LEAD); /* woken LEAD cycles early, then spin */
    else
        unlock();
    spin_to(at);
}

int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    tmrs[id].period = CYC(period_us);
    tmrs[id].cb = cb;
    tmrs[id].arg = arg;
    tmrs[id].active = 0;
    return RTB_OK;
}
void rtb_timer_start(int id)
{
    lock();
    tmrs[id].next = board_cycles() + tmrs[id].period;
    tmrs[id].once = 0;
    tmrs[id].active = 1;
    alarm_want(tmrs[id].next);
    unlock();
}
void rtb_timer_stop(int id) { tmrs[id].active = 0; } /* the alarm may fire once for nothing */
int rtb_timer_once(int id, uint32_t delay_us)
{
    lock();
    tmrs[id].next = board_cycles() + CYC(delay_us);
    tmrs[id].once = 1;
    tmrs[id].active = 1;
    alarm_want(tmrs[id].next);
    unlock();
    return RTB_OK;
}
void rtb_timer_delete(int id) { tmrs[id].active = 0; }

/* ---- threads ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    struct th *t = make_thread(prio, fn, arg, stack, stack_bytes);
    threads[id] = t;
    lock();
    rq_push(t);
    if (prio > cur->prio)
        go(t);
    else
        unlock();
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    struct th *t = threads[id];
    if (!t)
        return;
    lock();
    if (t->state == READY)
        rq_remove(t);
    else if (t->state == BLOCKED && t->wq) {
        l_remove(t->wq, t);
        drop_inherited(t->wq);
    }
    untime(t);
    t->state = FREE;
    for (int m = 0; m < RTB_MAX_MUTEXES; m++)
        if (mtxs[m].owner == t)
            mtxs[m].owner = 0;
    threads[id] = 0;
    unlock();
}

/* rtb_yield: inline, bm_yield_l (assembly, above). */

void rtb_suspend(int id)
{
    lock();
    struct th *t = id == RTB_SELF ? cur : threads[id];
    if (t->state == READY)
        rq_remove(t);
    t->state = SUSPENDED;
    if (t == cur)
        go(top());
    else
        unlock();
}

void rtb_resume(int id)
{
    lock();
    struct th *t = threads[id];
    if (t->state == SUSPENDED) {
        t->state = READY;
        rq_push(t);
        if (t->prio > cur->prio) {
            go(t);
            return;
        }
    }
    unlock();
}

INLINE void reprio(struct th *t, unsigned p)
{
    if (t->prio != p) {
        if (t->state == READY) {
            rq_remove(t);
            t->prio = (uint8_t)p;
            rq_push(t);
        } else {
            t->prio = (uint8_t)p;
        }
    }
    t->boost = t->prio != t->base;
}

/* The priority `t` inherits from the waiters of the mutexes it holds. */
static unsigned inherited(struct th *t)
{
    unsigned p = 0;
    for (int k = 0; k < RTB_MAX_MUTEXES; k++)
        if (mtxs[k].owner == t && mtxs[k].wt) {
            struct th *w = mtxs[k].wt;
            do {
                if (w->prio > p)
                    p = w->prio;
                w = w->next;
            } while (w != mtxs[k].wt);
        }
    return p;
}

/* rtb_prio_set is inline, bm_prio_set_l (assembly, above) for a thread that inherits
 * nothing; this is the rest, entered with interrupts off. */
void bm_prio_set_slow(struct th *t, int prio);
void bm_prio_set_slow(struct th *t, int prio)
{
    unsigned eff = (unsigned)prio;
    if (t->prio > t->base) { /* boosted: keep what it inherits */
        unsigned i = inherited(t);
        if (i > eff)
            eff = i;
    }
    t->base = (uint8_t)prio;
    reprio(t, eff);
    resched();
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    sems[id].count = (uint16_t)initial;
    sems[id].max = (uint16_t)max;
    sems[id].wt = 0;
    return RTB_OK;
}
void rtb_sem_delete(int id) { sems[id].wt = 0; }

/* rtb_sem_wait and rtb_sem_signal are inline calls of bm_sem_wait_l and bm_sem_signal_l,
 * assembly (above); their uncommon cases are here, entered with interrupts off. */
int bm_sem_wait_slow(struct bm_sem *s, uint32_t timeout_us);
int bm_sem_wait_slow(struct bm_sem *s, uint32_t timeout_us)
{
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    return block(&s->wt, 1, deadline_us(timeout_us)); /* a signal hands the unit over */
}

void bm_sem_signal_slow(struct bm_sem *s);
void bm_sem_signal_slow(struct bm_sem *s)
{
    struct th *w = l_pop(&s->wt);
    wake(w, RTB_OK);
    if (w->prio > cur->prio)
        go(w); /* the woken thread is the most urgent: switch straight to it */
    else
        unlock();
}

/* bm_sem_signal_isr (assembly, above) for a timed waiter; interrupts off. */
void bm_sem_signal_isr_c(struct bm_sem *s);
void bm_sem_signal_isr_c(struct bm_sem *s)
{
    struct th *w = l_pop(&s->wt);
    if (w) {
        wake(w, RTB_OK);
        struct th *c = nxt ? nxt : cur;
        if (w->prio > c->prio) { /* the switch: PendSV, when the interrupt returns */
            nxt = w;
            ICSR = PENDSVSET;
        }
    } else if (s->count < s->max) {
        s->count++;
    }
    unlock();
}

/* ---- mutexes: ownership handed to the first waiter; the owner inherits its priority ---- */
int rtb_mutex_create(int id)
{
    mtxs[id].owner = 0;
    mtxs[id].wt = 0;
    return RTB_OK;
}
void rtb_mutex_delete(int id) { mtxs[id].owner = 0; }

/* rtb_mutex_lock and rtb_mutex_unlock are inline (rtb_port_inline.h) when uncontended; the
 * rest is here, entered with interrupts off (r0 = the mutex, r1 = the timeout). */
int bm_mutex_lock_slow(struct bm_mtx *m, uint32_t timeout_us);
int bm_mutex_lock_slow(struct bm_mtx *m, uint32_t timeout_us)
{
    struct th *o = m->owner;
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    if (o->prio < cur->prio)
        reprio(o, cur->prio);
    if (timeout_us == RTB_FOREVER)
        return block(&m->wt, 0, 0);
    return block(&m->wt, 1, deadline_us(timeout_us));
}


void bm_mutex_unlock_slow(struct bm_mtx *m);
void bm_mutex_unlock_slow(struct bm_mtx *m)
{
    struct th *w = l_pop(&m->wt);
    m->owner = w;
    struct th *t = cur;
    int lowered = 0;
    if (t->prio != t->base) { /* drop what it inherited */
        unsigned eff = inherited(t);
        reprio(t, eff > t->base ? eff : t->base);
        lowered = 1;
    }
    if (w) {
        wake(w, RTB_OK);
        if (!lowered && w->prio > t->prio) {
            go(w); /* the new owner is the most urgent: straight to it */
            return;
        }
    }
    if (lowered)
        resched();
    else
        unlock();
}


/* ---- queues: a ring; a waiting receiver gets the message straight into its buffer ---- */
INLINE void copy(void *d, const void *s, unsigned n)
{
    uint32_t *dw = d;
    const uint32_t *sw = s;
    if ((((uintptr_t)d | (uintptr_t)s | n) & 3u) == 0) {
        for (unsigned i = 0; i < n / 4u; i++)
            dw[i] = sw[i];
    } else {
        memcpy(d, s, n);
    }
}

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    struct queue *q = &queues[id];
    if (msg_bytes * depth > sizeof q->buf)
        return RTB_ERROR;
    q->size = (uint8_t)msg_bytes;
    q->depth = (uint8_t)depth;
    q->head = q->count = 0;
    q->rt = q->st = 0;
    return RTB_OK;
}
void rtb_queue_delete(int id) { queues[id].rt = queues[id].st = 0; }

int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    struct queue *q = &queues[id];
    lock();
    struct th *w = l_pop(&q->rt);
    if (w) { /* a receiver waits: the queue is empty, hand the message over */
        copy(w->msg, msg, q->size);
        wake(w, RTB_OK);
        if (w->prio > cur->prio) {
            go(w);
            return RTB_OK;
        }
        unlock();
        return RTB_OK;
    }
    if (q->count < q->depth) {
        unsigned slot = q->head + q->count;
        if (slot >= q->depth)
            slot -= q->depth;
        copy((uint8_t *)q->buf + slot * q->size, msg, q->size);
        q->count++;
        unlock();
        return RTB_OK;
    }
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    cur->msg = (void *)msg; /* a receiver takes it from here */
    return block(&q->st, timeout_us != RTB_FOREVER, deadline_us(timeout_us));
}

int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    struct queue *q = &queues[id];
    lock();
    if (q->count) {
        copy(msg, (uint8_t *)q->buf + q->head * q->size, q->size);
        struct th *w = l_pop(&q->st);
        if (w) { /* a blocked sender: its message takes the freed slot */
            copy((uint8_t *)q->buf + q->head * q->size, w->msg, q->size);
            if (++q->head == q->depth)
                q->head = 0;
            wake(w, RTB_OK);
            if (w->prio > cur->prio) {
                go(w);
                return RTB_OK;
            }
        } else {
            if (++q->head == q->depth)
                q->head = 0;
            q->count--;
        }
        unlock();
        return RTB_OK;
    }
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    cur->msg = msg;
    return block(&q->rt, timeout_us != RTB_FOREVER, deadline_us(timeout_us));
}

/* ---- memory: one 128-byte block ---- */
static uint64_t pool[128 / 8];
static uint8_t pool_used;
void *rtb_mem_alloc(size_t bytes)
{
    if (bytes > sizeof pool || pool_used)
        return 0;
    pool_used = 1; /* one thread uses it (tm.memory): a flag is the whole allocator */
    return pool;
}
void rtb_mem_free(void *p)
{
    if (p == pool)
        pool_used = 0;
}

/* ---- interrupts: the switch a signal asks for is PendSV, taken when the ISR returns ---- */
