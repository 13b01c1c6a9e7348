/*
 * The baremetal scheduler: ready lists, the most urgent thread, blocking and waking, time
 * (the board's alarm and the timers it runs), priority inheritance, the start. The switch
 * itself is assembly (switch.S); the shared layouts are in bm_layout.h.
 *
 * Included once, by port.c: the scheduler and the port's calls are one translation unit, so
 * the compiler inlines and specialises across them as it did when they were one file (the
 * suite's flags have no LTO, and a separate object would change the code measured).
 */
#ifndef BM_SCHED_H
#define BM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "bm_layout.h"
#if BM_V7M
#include "armv6m_nvic.h" /* NVIC_KERNEL_BASEPRI */
#endif

enum { FREE = ST_FREE, READY = ST_READY, BLOCKED = ST_BLOCKED, SUSPENDED = ST_SUSPENDED };

/* The running thread, the one PendSV must switch to, the ready lists (bm_layout.h). */
struct bm_sched_s bm_sched;
struct th *bm_threads[RTB_MAX_THREADS];
static struct th *timed; /* threads waiting with a deadline */
static uint32_t alarm_at;
static uint8_t alarm_on;

/* Timers run in the alarm interrupt; mutexes are here for priority inheritance. */
struct tmr { uint32_t next, period; void (*cb)(void *); void *arg; uint8_t active, once; };
static struct tmr tmrs[RTB_MAX_TIMERS];
struct bm_mtx bm_mtxs[RTB_MAX_MUTEXES];

#define ICSR (*(volatile uint32_t *)ICSR_ADDR)
#define SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define PENDSVSET ICSR_PENDSVSET


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
/* RAM that is written before it is read (a stack, the memory block, an object before its
 * create) is not cleared by the start-up code: the reset costs no cycles for it. The linker
 * places the section after .bss, where __heap_start also points: the floor has no heap. */
#define BM_NOINIT __attribute__((section(".noinit.bm")))

#if BM_V7M /* BASEPRI: interrupts above the board's levels are never masked */
_Static_assert(BM_BASEPRI == NVIC_KERNEL_BASEPRI, "the mask every ARMv7-M kernel uses");
static inline void lock(void) { __asm volatile("msr basepri, %0" ::"r"(BM_BASEPRI) : "memory"); }
static inline void unlock(void) { __asm volatile("msr basepri, %0" ::"r"(0u) : "memory"); }
#else
static inline void lock(void) { __asm volatile("cpsid i" ::: "memory"); }
static inline void unlock(void) { __asm volatile("cpsie i" ::: "memory"); }
#endif

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
    if (!bm_sched.rq[p])
        bm_sched.map |= 1u << p;
    l_push(&bm_sched.rq[p], t);
}

INLINE void rq_remove(struct th *t)
{
    unsigned p = t->prio;
    l_remove(&bm_sched.rq[p], t);
    if (!bm_sched.rq[p])
        bm_sched.map &= ~(1u << p);
}

/* ---- the most urgent ready thread ---- */
struct th *bm_idle;
#if !BM_V7M
/* the highest set bit of 0..15 */
static const uint8_t bm_hb4[16] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
#endif
INLINE struct th *top(void)
{
    uint32_t m = bm_sched.map; /* priorities 1..9 */
    if (!m)
        return bm_idle;
#if BM_V7M
    unsigned p = 31u - (unsigned)__builtin_clz(m); /* CLZ */
#else
    unsigned p = m >> 8 ? 8u + (m >> 9) : m >> 4 ? 4u + bm_hb4[m >> 4] : bm_hb4[m];
#endif
    return bm_sched.rq[p]->next;
}

/* ---- the switch (switch.S) ---- */
/* Frames: see switch.S. */
void bm_go(struct th *n); /* switch to `n` (IRQs off); returns, IRQs on, when the caller runs again */
void bm_start(uint32_t sp) __attribute__((noreturn));
void bm_trampoline(void);

/* After a change that may have put someone above the caller. */
INLINE void resched(void)
{
    struct th *n = top();
    if (n != bm_sched.cur)
        bm_go(n);
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

/* control block, a light frame or an exception frame + r4-r11; on the M4F an extended frame
 * + EXC_RETURN + s16-s31 (a thread's FP context, CONTROL.FPCA, may carry over to idle) */
BM_NOINIT static uint64_t idle_stack[(160 + 80 * BM_FP) / 8];
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
    bm_idle = make_thread(0, idle, 0, idle_stack, sizeof idle_stack);
    rq_push(c);
    board_irq_enable(BOARD_ALARM_IRQ, 2);
    lock();
    bm_sched.cur = c;
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
    struct th *t = bm_sched.cur;
    struct th **tl = &bm_sched.rq[t->prio];
    struct th *h = (*tl)->next; /* t is the head of its ready list */
    if (h == *tl) {
        *tl = 0;
        bm_sched.map &= ~(1u << t->prio);
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
    bm_go(top());
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
    uintptr_t off = (uintptr_t)wq - (uintptr_t)&bm_mtxs[0].wt;
    if (off >= sizeof bm_mtxs)
        return;
    struct th *o = bm_mtxs[off / sizeof bm_mtxs[0]].owner;
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
         * pending (bm_sched.nxt), and the thread we interrupted may be the one just woken. */
        struct th *n = top();
        if (n != (bm_sched.nxt ? bm_sched.nxt : bm_sched.cur)) {
            bm_sched.nxt = n;
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

/* ---- priorities ---- */
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
        if (bm_mtxs[k].owner == t && bm_mtxs[k].wt) {
            struct th *w = bm_mtxs[k].wt;
            do {
                if (w->prio > p)
                    p = w->prio;
                w = w->next;
            } while (w != bm_mtxs[k].wt);
        }
    return p;
}

/* rtb_prio_set is inline, bm_prio_set_l (assembly, switch.S) for a thread that inherits
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

#endif
