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
 *   yields, blocks, wakes a more urgent one), a direct thread-to-thread call saves r4-r11
 *   and the return address on its stack, stores sp, loads the other's sp and pops
 *   ("sync" frame, about 35 cycles). When an interrupt causes it, PendSV saves r4-r11
 *   above the hardware frame and picks the head of the highest list. Bit 0 of a saved sp
 *   says which frame it is; an exception frame can only be resumed by PendSV, a sync frame
 *   by either (PendSV rebuilds its top as a hardware frame).
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

struct queue { uint32_t buf[64 / 4]; uint8_t size, depth, head, count; struct th *rt, *st; };
struct tmr { uint32_t next, period; void (*cb)(void *); void *arg; uint8_t active; };

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
const uint8_t bm_hb4[16] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
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
/* bm_go(n): switch to `n` (IRQs off; returns with them on, when the caller runs again).
 * A sync frame is resumed at once; an exception frame by pending PendSV with nxt = n. */
void bm_go(struct th *n);
void bm_start(uint32_t sp) __attribute__((noreturn));
void bm_trampoline(void);

__asm__(
    ".syntax unified\n"
    ".thumb\n"
    /* The hot calls, hand-written, and the switch they share. Inside a switch: r0 = the
     * next thread, r1 = &bm_sched, {r4-r7, lr} pushed (the first half of the sync frame),
     * IRQs off. A thread resumed from a sync frame returns to the caller of the call that
     * switched away, with r0 = its result. */
    ".section .text.bm_fast,\"ax\",%progbits\n"
    ".global bm_go\n.type bm_go,%function\n.thumb_func\n"
    "bm_go:\n"                       /* void bm_go(struct th *n): from C */
    "  push {r4-r7, lr}\n"
    "  ldr r1, =bm_sched\n"
    "bm_go_pushed:\n"
    "  ldr r2, [r0]\n"               /* n->sp */
    "  lsls r3, r2, #31\n"
    "  bne 1f\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  push {r4-r7}\n"
    "  ldr r3, [r1]\n"               /* the caller's block */
    "  str r0, [r1]\n"               /* cur = n */
    "  mov r4, sp\n"
    "  str r4, [r3]\n"               /* its sp: a sync frame */
    "  mov sp, r2\n"
    "  cpsie i\n"                    /* consistent from here: cur = n, sp is n's */
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldrb r0, [r0, #27]\n"         /* n->result */
    "  pop {r4-r7, pc}\n"
    "1:\n"                           /* n was preempted: PendSV resumes it */
    "  str r0, [r1, #4]\n"           /* nxt = n */
    "  ldr r2, =0xE000ED04\n"
    "  ldr r3, =0x10000000\n"
    "  str r3, [r2]\n"               /* PENDSVSET */
    "  dsb\n  isb\n"
    "  cpsie i\n"                    /* PendSV is taken here; we continue when resumed */
    "  isb\n"
    "  ldr r1, [r1]\n"
    "  ldrb r0, [r1, #27]\n"         /* our result */
    "  pop {r4-r7, pc}\n"
    ".size bm_go, .-bm_go\n"

    /* void rtb_yield(void) */
    ".global rtb_yield\n.type rtb_yield,%function\n.thumb_func\n"
    "rtb_yield:\n"
    "  ldr r1, =bm_sched\n"
    "  cpsid i\n"
    "  ldr r3, [r1]\n"               /* t = cur */
    "  ldr r0, [r3, #4]\n"           /* n = t->next */
    "  cmp r0, r3\n"
    "  beq 1f\n"
    "  push {r4-r7, lr}\n"
    "  ldrb r2, [r3, #24]\n"
    "  lsls r2, r2, #2\n"
    "  adds r2, r2, r1\n"
    "  str r3, [r2, #12]\n"          /* the caller becomes the tail, n the head */
    "  b bm_go_pushed\n"
    "1:\n"
    "  cpsie i\n"
    "  bx lr\n"
    ".size rtb_yield, .-rtb_yield\n"

    /* int bm_sem_wait(struct bm_sem *s, uint32_t timeout_us): rtb_sem_wait (inline, in
     * rtb_port_inline.h): a unit, or block for ever; else C */
    ".global bm_sem_wait\n.type bm_sem_wait,%function\n.thumb_func\n"
    "bm_sem_wait:\n"
    "  movs r2, r0\n"                /* s */
    "  cpsid i\n"
    "  ldrh r3, [r2]\n"
    "  cmp r3, #0\n"
    "  beq 1f\n"
    "  subs r3, #1\n"
    "  strh r3, [r2]\n"
    "  cpsie i\n"
    "  movs r0, #0\n"
    "  bx lr\n"
    "1:\n"
    "  adds r3, r1, #1\n"
    "  bne 9f\n"                     /* a finite timeout: C */
    "  push {r4-r7, lr}\n"
    "  ldr r1, =bm_sched\n"
    "  ldr r3, [r1]\n"               /* t = cur, the head of its ready list: unlink it */
    "  ldrb r4, [r3, #24]\n"
    "  lsls r5, r4, #2\n"
    "  adds r6, r5, r1\n"
    "  ldr r7, [r6, #12]\n"          /* tail */
    "  cmp r7, r3\n"
    "  bne 2f\n"
    "  movs r0, #0\n"
    "  str r0, [r6, #12]\n"          /* the list is empty now */
    "  ldr r0, [r1, #8]\n"
    "  movs r7, #1\n"
    "  lsls r7, r4\n"
    "  bics r0, r7\n"
    "  str r0, [r1, #8]\n"
    "  b 3f\n"
    "2:\n"
    "  ldr r0, [r3, #4]\n"
    "  str r0, [r7, #4]\n"
    "3:\n"
    "  movs r0, #2\n"
    "  strb r0, [r3, #26]\n"         /* BLOCKED */
    "  adds r2, #4\n"                /* &s->wt */
    "  str r2, [r3, #16]\n"          /* t->wq */
    "  ldr r0, [r2]\n"               /* append t to the waiters */
    "  cmp r0, #0\n"
    "  beq 4f\n"
    "  ldr r4, [r0, #4]\n"
    "  str r4, [r3, #4]\n"
    "  str r3, [r0, #4]\n"
    "  b 5f\n"
    "4:\n"
    "  str r3, [r3, #4]\n"
    "5:\n"
    "  str r3, [r2]\n"
    /* the most urgent ready thread */
    "  ldr r4, [r1, #8]\n"
    "  cmp r4, #0\n"
    "  beq 8f\n"
    "  lsrs r5, r4, #8\n"
    "  beq 6f\n"
    "  lsrs r5, r4, #9\n"
    "  adds r5, #8\n"
    "  b 7f\n"
    "6:\n"
    "  ldr r6, =bm_hb4\n"
    "  lsrs r5, r4, #4\n"
    "  beq 10f\n"
    "  ldrb r5, [r6, r5]\n"
    "  adds r5, #4\n"
    "  b 7f\n"
    "10:\n"
    "  ldrb r5, [r6, r4]\n"
    "7:\n"
    "  lsls r5, r5, #2\n"
    "  adds r5, r5, r1\n"
    "  ldr r0, [r5, #12]\n"
    "  ldr r0, [r0, #4]\n"           /* the head of that list */
    "  b bm_go_pushed\n"
    "8:\n"
    "  ldr r0, =bm_idle\n"
    "  ldr r0, [r0]\n"
    "  b bm_go_pushed\n"
    "9:\n"
    "  ldr r3, =bm_sem_wait_slow\n"  /* (s, timeout), IRQs off */
    "  bx r3\n"
    ".size bm_sem_wait, .-bm_sem_wait\n"

    /* void bm_sem_signal(struct bm_sem *s): rtb_sem_signal (inline): count, or hand the unit
     * to the first waiter (switching to it if it is more urgent); a timed waiter goes to C */
    ".global bm_sem_signal\n.type bm_sem_signal,%function\n.thumb_func\n"
    "bm_sem_signal:\n"
    "  movs r2, r0\n"                /* s */
    "  cpsid i\n"
    "  ldr r3, [r2, #4]\n"           /* the waiters' tail */
    "  cmp r3, #0\n"
    "  bne 2f\n"
    "  ldrh r0, [r2]\n"
    "  ldrh r1, [r2, #2]\n"
    "  cmp r0, r1\n"
    "  bhs 1f\n"
    "  adds r0, #1\n"
    "  strh r0, [r2]\n"
    "1:\n"
    "  cpsie i\n"
    "  bx lr\n"
    "2:\n"
    "  ldr r1, [r3, #4]\n"           /* w = the head */
    "  ldrb r0, [r1, #28]\n"
    "  cmp r0, #0\n"
    "  bne 9f\n"                     /* timed: C */
    "  push {r4-r7, lr}\n"
    "  cmp r1, r3\n"
    "  bne 3f\n"
    "  movs r0, #0\n"
    "  str r0, [r2, #4]\n"           /* it was the only waiter */
    "4:\n"
    "  movs r0, #1\n"
    "  strh r0, [r1, #26]\n"         /* state READY, result RTB_OK */
    "  ldr r3, =bm_sched\n"
    "  ldrb r4, [r1, #24]\n"         /* p: append w to ready list p */
    "  lsls r5, r4, #2\n"
    "  adds r5, r5, r3\n"
    "  ldr r7, [r5, #12]\n"
    "  cmp r7, #0\n"
    "  bne 5f\n"
    "  str r1, [r1, #4]\n"
    "  ldr r0, [r3, #8]\n"
    "  movs r7, #1\n"
    "  lsls r7, r4\n"
    "  orrs r0, r7\n"
    "  str r0, [r3, #8]\n"
    "6:\n"
    "  str r1, [r5, #12]\n"
    "  ldr r2, [r3]\n"               /* the caller */
    "  ldrb r0, [r2, #24]\n"
    "  cmp r4, r0\n"
    "  bls 7f\n"
    "  ldr r0, [r1]\n"               /* more urgent than the caller: run it (bm_go inline) */
    "  lsls r5, r0, #31\n"
    "  bne 8f\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  push {r4-r7}\n"
    "  str r1, [r3]\n"               /* cur = w */
    "  mov r4, sp\n"
    "  str r4, [r2]\n"
    "  mov sp, r0\n"
    "  cpsie i\n"
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldrb r0, [r1, #27]\n"
    "  pop {r4-r7, pc}\n"
    "8:\n"
    "  mov r0, r1\n"
    "  mov r1, r3\n"
    "  b bm_go_pushed\n"
    "7:\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    "5:\n"
    "  ldr r0, [r7, #4]\n"
    "  str r0, [r1, #4]\n"
    "  str r1, [r7, #4]\n"
    "  b 6b\n"
    "3:\n"
    "  ldr r0, [r1, #4]\n"
    "  str r0, [r3, #4]\n"
    "4:\n"
    "  movs r0, #1\n"
    "  strh r0, [r1, #26]\n"         /* state READY, result RTB_OK */
    "  ldr r3, =bm_sched\n"
    "  ldrb r4, [r1, #24]\n"         /* p: append w to ready list p */
    "  lsls r5, r4, #2\n"
    "  adds r5, r5, r3\n"
    "  ldr r7, [r5, #12]\n"
    "  cmp r7, #0\n"
    "  bne 5f\n"
    "  str r1, [r1, #4]\n"
    "  ldr r0, [r3, #8]\n"
    "  movs r7, #1\n"
    "  lsls r7, r4\n"
    "  orrs r0, r7\n"
    "  str r0, [r3, #8]\n"
    "6:\n"
    "  str r1, [r5, #12]\n"
    "  ldr r2, [r3]\n"               /* the caller */
    "  ldrb r0, [r2, #24]\n"
    "  cmp r4, r0\n"
    "  bls 7f\n"
    "  ldr r0, [r1]\n"               /* more urgent than the caller: run it (bm_go inline) */
    "  lsls r5, r0, #31\n"
    "  bne 8f\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  push {r4-r7}\n"
    "  str r1, [r3]\n"               /* cur = w */
    "  mov r4, sp\n"
    "  str r4, [r2]\n"
    "  mov sp, r0\n"
    "  cpsie i\n"
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldrb r0, [r1, #27]\n"
    "  pop {r4-r7, pc}\n"
    "8:\n"
    "  mov r0, r1\n"
    "  mov r1, r3\n"
    "  b bm_go_pushed\n"
    "7:\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    "5:\n"
    "  ldr r0, [r7, #4]\n"
    "  str r0, [r1, #4]\n"
    "  str r1, [r7, #4]\n"
    "  b 6b\n"
    "9:\n"
    "  mov r0, r2\n"
    "  ldr r3, =bm_sem_signal_slow\n" /* (s), IRQs off */
    "  bx r3\n"
    ".ltorg\n"
    ".size bm_sem_signal, .-bm_sem_signal\n"

    /* void bm_sem_signal_isr(struct bm_sem *s): rtb_sem_signal_isr (inline), from an ISR:
     * count, or hand the unit to the first waiter and, if it is more urgent than the thread
     * that will run, make it the next one and pend PendSV; a timed waiter goes to C */
    ".global bm_sem_signal_isr\n.type bm_sem_signal_isr,%function\n.thumb_func\n"
    "bm_sem_signal_isr:\n"
    "  cpsid i\n"
    "  ldr r3, [r0, #4]\n"           /* the waiters' tail */
    "  cmp r3, #0\n"
    "  bne 2f\n"
    "  ldrh r1, [r0]\n"
    "  ldrh r2, [r0, #2]\n"
    "  cmp r1, r2\n"
    "  bhs 1f\n"
    "  adds r1, #1\n"
    "  strh r1, [r0]\n"
    "1:\n"
    "  cpsie i\n"
    "  bx lr\n"
    "2:\n"
    "  ldr r1, [r3, #4]\n"           /* w = the head */
    "  ldrb r2, [r1, #28]\n"
    "  cmp r2, #0\n"
    "  bne 9f\n"                     /* timed: C */
    "  cmp r1, r3\n"
    "  bne 3f\n"
    "  movs r2, #0\n"
    "  str r2, [r0, #4]\n"           /* it was the only waiter */
    "4:\n"
    "  movs r2, #1\n"
    "  strh r2, [r1, #26]\n"         /* state READY, result RTB_OK */
    "  push {r4, r5}\n"
    "  ldr r3, =bm_sched\n"
    "  ldrb r2, [r1, #24]\n"         /* p: append w to ready list p */
    "  lsls r4, r2, #2\n"
    "  adds r4, r4, r3\n"
    "  ldr r5, [r4, #12]\n"
    "  cmp r5, #0\n"
    "  bne 5f\n"
    "  str r1, [r1, #4]\n"
    "  ldr r5, [r3, #8]\n"
    "  movs r0, #1\n"
    "  lsls r0, r2\n"
    "  orrs r5, r0\n"
    "  str r5, [r3, #8]\n"
    "6:\n"
    "  str r1, [r4, #12]\n"
    "  ldr r0, [r3, #4]\n"           /* the thread that will run: nxt, or cur */
    "  cmp r0, #0\n"
    "  bne 7f\n"
    "  ldr r0, [r3]\n"
    "7:\n"
    "  ldrb r0, [r0, #24]\n"
    "  cmp r2, r0\n"
    "  bls 8f\n"
    "  str r1, [r3, #4]\n"           /* nxt = w */
    "  ldr r0, =0xE000ED04\n"
    "  ldr r5, =0x10000000\n"
    "  str r5, [r0]\n"               /* PENDSVSET: the switch when the interrupt returns */
    "8:\n"
    "  pop {r4, r5}\n"
    "  cpsie i\n"
    "  bx lr\n"
    "3:\n"
    "  ldr r2, [r1, #4]\n"
    "  str r2, [r3, #4]\n"
    "  b 4b\n"
    "5:\n"
    "  ldr r0, [r5, #4]\n"
    "  str r0, [r1, #4]\n"
    "  str r1, [r5, #4]\n"
    "  b 6b\n"
    "9:\n"
    "  ldr r3, =bm_sem_signal_isr_c\n" /* (s), IRQs off */
    "  bx r3\n"
    ".ltorg\n"
    ".size bm_sem_signal_isr, .-bm_sem_signal_isr\n"

    /* void rtb_prio_set(int id, int prio) for a thread that inherits nothing; else C */
    ".global rtb_prio_set\n.type rtb_prio_set,%function\n.thumb_func\n"
    "rtb_prio_set:\n"
    "  push {r4-r7, lr}\n"
    "  ldr r3, =bm_sched\n"
    "  cpsid i\n"
    "  adds r2, r0, #1\n"
    "  bne 1f\n"
    "  ldr r0, [r3]\n"               /* RTB_SELF */
    "  b 2f\n"
    "1:\n"
    "  ldr r2, =bm_threads\n"
    "  lsls r0, r0, #2\n"
    "  ldr r0, [r2, r0]\n"
    "2:\n"                           /* r0 = t, r1 = the new priority */
    "  ldrb r4, [r0, #24]\n"
    "  ldrb r5, [r0, #25]\n"
    "  cmp r4, r5\n"
    "  bne 20f\n"                    /* it inherits a priority: C */
    "  strb r1, [r0, #25]\n"         /* base */
    "  cmp r4, r1\n"
    "  beq 19f\n"
    "  ldrb r6, [r0, #26]\n"
    "  cmp r6, #1\n"
    "  beq 3f\n"
    "  strb r1, [r0, #24]\n"         /* not ready: just the number */
    "19:\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    "3:\n"                           /* remove t from ready list r4 */
    "  lsls r5, r4, #2\n"
    "  adds r5, r5, r3\n"            /* &rq[p] - 12 */
    "  ldr r7, [r5, #12]\n"          /* tail */
    "  mov r2, r7\n"
    "4:\n"
    "  ldr r6, [r2, #4]\n"
    "  cmp r6, r0\n"
    "  beq 5f\n"
    "  mov r2, r6\n"
    "  b 4b\n"
    "5:\n"                           /* r2 = the one before t */
    "  cmp r2, r0\n"
    "  bne 6f\n"
    "  movs r6, #0\n"                /* t was alone */
    "  str r6, [r5, #12]\n"
    "  ldr r6, [r3, #8]\n"
    "  movs r7, #1\n"
    "  lsls r7, r4\n"
    "  bics r6, r7\n"
    "  str r6, [r3, #8]\n"
    "  b 7f\n"
    "6:\n"
    "  ldr r6, [r0, #4]\n"
    "  str r6, [r2, #4]\n"
    "  cmp r7, r0\n"
    "  bne 7f\n"
    "  str r2, [r5, #12]\n"          /* t was the tail */
    "7:\n"                           /* append t to ready list r1 */
    "  strb r1, [r0, #24]\n"
    "  lsls r5, r1, #2\n"
    "  adds r5, r5, r3\n"
    "  ldr r7, [r5, #12]\n"
    "  cmp r7, #0\n"
    "  bne 8f\n"
    "  str r0, [r0, #4]\n"
    "  ldr r6, [r3, #8]\n"
    "  movs r7, #1\n"
    "  lsls r7, r1\n"
    "  orrs r6, r7\n"
    "  str r6, [r3, #8]\n"
    "  b 9f\n"
    "8:\n"
    "  ldr r6, [r7, #4]\n"
    "  str r6, [r0, #4]\n"
    "  str r0, [r7, #4]\n"
    "9:\n"
    "  str r0, [r5, #12]\n"
    /* the most urgent ready thread (someone is ready: t) */
    "  ldr r4, [r3, #8]\n"
    "  lsrs r5, r4, #8\n"
    "  beq 10f\n"
    "  lsrs r5, r4, #9\n"
    "  adds r5, #8\n"
    "  b 12f\n"
    "10:\n"
    "  ldr r6, =bm_hb4\n"
    "  lsrs r5, r4, #4\n"
    "  beq 11f\n"
    "  ldrb r5, [r6, r5]\n"
    "  adds r5, #4\n"
    "  b 12f\n"
    "11:\n"
    "  ldrb r5, [r6, r4]\n"
    "12:\n"
    "  lsls r5, r5, #2\n"
    "  adds r5, r5, r3\n"
    "  ldr r0, [r5, #12]\n"
    "  ldr r0, [r0, #4]\n"
    "  ldr r2, [r3]\n"
    "  cmp r0, r2\n"
    "  beq 19b\n"
    "  mov r1, r3\n"
    "  b bm_go_pushed\n"
    "20:\n"
    "  bl bm_prio_set_slow\n"        /* (t, prio), IRQs off; returns with them on */
    "  pop {r4-r7, pc}\n"
    ".ltorg\n"
    ".size rtb_prio_set, .-rtb_prio_set\n"

    /* PendSV: save the interrupted thread (cur) above its hardware frame, resume nxt */
    ".section .text.PendSV_Handler,\"ax\",%progbits\n"
    ".global PendSV_Handler\n.type PendSV_Handler,%function\n.thumb_func\n"
    "PendSV_Handler:\n"
    "  mrs r0, psp\n"
    "  subs r0, #32\n"
    "  stmia r0!, {r4-r7}\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  stmia r0!, {r4-r7}\n"         /* frame: [r4-r7][r8-r11][hw frame] */
    "  subs r0, #31\n"               /* its base | 1: an exception frame */
    "  ldr r3, =bm_sched\n"
    "  cpsid i\n"
    "  ldm r3!, {r1, r2}\n"          /* r1 = cur, r2 = nxt */
    "  subs r3, #8\n"
    "  cmp r2, #0\n"
    "  beq 4f\n"                     /* nothing to do (a stale request) */
    "  str r0, [r1]\n"               /* cur->sp */
    "  movs r1, #0\n"
    "  stm r3!, {r2}\n"              /* cur = nxt */
    "  str r1, [r3]\n"               /* nxt = 0 */
    "  cpsie i\n"
    "  ldr r0, [r2]\n"               /* its sp */
    "  lsrs r3, r0, #1\n"
    "  bcc 2f\n"
    "  subs r0, #1\n"                /* exception frame */
    "5:\n"
    "  adds r0, #16\n"
    "  ldmia r0!, {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  msr psp, r0\n"
    "  subs r0, #32\n"
    "  ldmia r0!, {r4-r7}\n"
    "  b 3f\n"
    "4:\n"                           /* resume the interrupted thread */
    "  subs r0, #1\n"
    "  b 5b\n"
    "2:\n"                           /* sync frame [r8-r11][r4-r7][ret]: make its top a hw frame */
    "  ldmia r0!, {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldmia r0!, {r4-r7}\n"
    "  ldr r1, [r0]\n"               /* return address (Thumb bit set) */
    "  movs r3, #1\n"
    "  bics r1, r3\n"
    "  subs r0, #28\n"
    "  str r1, [r0, #24]\n"          /* pc */
    "  lsls r3, r3, #24\n"
    "  str r3, [r0, #28]\n"          /* xPSR: Thumb */
    "  ldrb r3, [r2, #27]\n"
    "  str r3, [r0]\n"               /* r0: its result */
    "  msr psp, r0\n"
    "3:\n"
    "  movs r0, #2\n"
    "  mvns r0, r0\n"                /* EXC_RETURN 0xFFFFFFFD: thread mode, PSP */
    "  cpsie i\n"
    "  bx r0\n"
    ".ltorg\n"
    ".size PendSV_Handler, .-PendSV_Handler\n"
    /* void bm_start(uint32_t sp): run the first thread (a sync frame) on PSP */
    ".section .text.bm_start,\"ax\",%progbits\n"
    ".global bm_start\n.type bm_start,%function\n.thumb_func\n"
    "bm_start:\n"
    "  msr psp, r0\n"
    "  movs r1, #2\n"
    "  msr control, r1\n"
    "  isb\n"
    "  ldr r1, =__stack_top\n"
    "  msr msp, r1\n"                /* main's stack becomes the interrupt stack again */
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    ".ltorg\n"
    ".size bm_start, .-bm_start\n"
    /* first code of every thread: r4 = argument, r5 = entry; a thread never returns */
    ".section .text.bm_trampoline,\"ax\",%progbits\n"
    ".global bm_trampoline\n.type bm_trampoline,%function\n.thumb_func\n"
    "bm_trampoline:\n"
    "  mov r0, r4\n"
    "  blx r5\n"
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

static struct th *make_thread(int prio, rtb_entry_t fn, void *arg, void *stack, size_t bytes)
{
    uintptr_t top_ = ((uintptr_t)stack + bytes) & ~(uintptr_t)7u;
    struct th *t = (struct th *)(top_ - TCB_BYTES);
    /* a sync frame: r8-r11, r4 = arg, r5 = fn, r6, r7, return address = the trampoline */
    uint32_t *sp = (uint32_t *)t - 11; /* 9 words; the thread starts with sp 8-aligned */
    sp[4] = (uint32_t)(uintptr_t)arg;
    sp[5] = (uint32_t)(uintptr_t)fn;
    sp[8] = (uint32_t)(uintptr_t)bm_trampoline | 1u;
    t->sp = (uint32_t)(uintptr_t)sp;
    t->prio = t->base = (uint8_t)prio;
    t->timed = 0;
    t->boost = 0;
    t->wq = 0;
    t->state = READY;
    return t;
}

static uint64_t idle_stack[160 / 8]; /* control block, a sync frame or an exception frame + r4-r11 */
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
    tmrs[id].active = 1;
    alarm_want(tmrs[id].next);
    unlock();
}
void rtb_timer_stop(int id) { tmrs[id].active = 0; } /* the alarm may fire once for nothing */
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

/* rtb_yield: assembly, above. */

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

/* rtb_prio_set is assembly (above) for a thread that inherits nothing; this is the rest,
 * entered with interrupts off. */
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

/* rtb_sem_wait and rtb_sem_signal are inline calls of bm_sem_wait and bm_sem_signal,
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
/* rtb_isr_enter and rtb_isr_exit: nothing (inline, rtb_port_inline.h). */
