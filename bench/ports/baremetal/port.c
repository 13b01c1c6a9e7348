/*
 * baremetal: the floor every kernel is measured against. No RTOS: for each job the suite
 * asks for, the least code that can do it on ARMv6-M, and nothing general about it (on
 * ARMv7-M the same, with BASEPRI masks, CLZ and the M4F's FP context: armv7m/README.md).
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
 *   sender's). Critical sections are CPSID/CPSIE (BASEPRI on ARMv7-M), a few instructions long.
 * - Time: the board's alarm (compare timer), tickless, programmed LEAD cycles before the
 *   earliest deadline; a delay then spins to its exact cycle. Timed waiters are an
 *   unsorted list (the suite has at most two or three). Timer callbacks run in the alarm
 *   interrupt.
 *
 * Files: port.c the port's calls (rtb_port.h: threads, semaphores, mutexes, queues, timers,
 * memory); sched.h the scheduler (one translation unit with this file); switch.S the switch
 * and the hot calls in assembly; bm_layout.h the structures both sides share, checked.
 */
#include <stddef.h>

#include "bench.h"
#include "rtb_copy.h"
#include "sched.h"

/* ---- objects: semaphores (the counter is in the inline code), queues ---- */
struct queue { uint32_t buf[128 / 4]; /* 128: rhealstone.message_passing.seed001 */ uint8_t size, depth, head, count; struct th *rt, *st; };

BM_NOINIT struct bm_sem bm_sems[RTB_MAX_SEMS];    /* (written by their create) */
BM_NOINIT static struct queue queues[RTB_MAX_QUEUES];

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
#if BM_V7M
    bench_config("critical_section", BM_FP ? "BASEPRI 0x20; FP context (s16-s31) saved only for threads that use the FPU"
                                           : "BASEPRI 0x20 (interrupts above the board's levels never masked)");
#endif
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
    bm_threads[id] = t;
    lock();
    rq_push(t);
    if (prio > bm_sched.cur->prio)
        bm_go(t);
    else
        unlock();
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    struct th *t = bm_threads[id];
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
        if (bm_mtxs[m].owner == t)
            bm_mtxs[m].owner = 0;
    bm_threads[id] = 0;
    unlock();
}

/* rtb_yield: inline, bm_yield_l (assembly, switch.S). */

void rtb_suspend(int id)
{
    lock();
    struct th *t = id == RTB_SELF ? bm_sched.cur : bm_threads[id];
    if (t->state == READY)
        rq_remove(t);
    t->state = SUSPENDED;
    if (t == bm_sched.cur)
        bm_go(top());
    else
        unlock();
}

void rtb_resume(int id)
{
    lock();
    struct th *t = bm_threads[id];
    if (t->state == SUSPENDED) {
        t->state = READY;
        rq_push(t);
        if (t->prio > bm_sched.cur->prio) {
            bm_go(t);
            return;
        }
    }
    unlock();
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    bm_sems[id].count = (uint16_t)initial;
    bm_sems[id].lim = (uint16_t)(0x10000u - max); /* (max is at least 1) */
    bm_sems[id].wt = 0;
    return RTB_OK;
}
void rtb_sem_delete(int id) { bm_sems[id].wt = 0; }

/* rtb_sem_wait and rtb_sem_signal are inline, with light calls of bm_sem_wait_b and bm_sem_signal_w,
 * assembly (switch.S); their uncommon cases are here, entered with interrupts off. */
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
    if (w->prio > bm_sched.cur->prio)
        bm_go(w); /* the woken thread is the most urgent: switch straight to it */
    else
        unlock();
}

/* bm_sem_signal_isr (assembly, switch.S) for a timed waiter; interrupts off. */
void bm_sem_signal_isr_c(struct bm_sem *s);
void bm_sem_signal_isr_c(struct bm_sem *s)
{
    struct th *w = l_pop(&s->wt);
    if (w) {
        wake(w, RTB_OK);
        struct th *c = bm_sched.nxt ? bm_sched.nxt : bm_sched.cur;
        if (w->prio > c->prio) { /* the switch: PendSV, when the interrupt returns */
            bm_sched.nxt = w;
            ICSR = PENDSVSET;
        }
    } else if (s->count + s->lim < 0x10000u) { /* below the maximum */
        s->count++;
    }
    unlock();
}

/* ---- mutexes: ownership handed to the first waiter; the owner inherits its priority ---- */
int rtb_mutex_create(int id)
{
    bm_mtxs[id].owner = 0; /* (wt is 0: nobody waits on a mutex that is not in use) */
    return RTB_OK;
}
/* A static mutex has nothing to release. Deleting one that is locked or has waiters is not a
 * job of the suite (an unlocked mutex nobody waits on has owner 0 and wt 0 already). */
void rtb_mutex_delete(int id) { (void)id; }

/* rtb_mutex_lock and rtb_mutex_unlock are inline (rtb_port_inline.h) when uncontended; when
 * contended they call bm_mutex_lock_slow and bm_mutex_unlock_slow (assembly, switch.S), whose
 * uncommon cases are here, entered with interrupts off (r0 = the mutex, r1 = the timeout). */
int bm_mutex_lock_c(struct bm_mtx *m, uint32_t timeout_us);
int bm_mutex_lock_c(struct bm_mtx *m, uint32_t timeout_us)
{
    struct th *o = m->owner;
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    if (o->prio < bm_sched.cur->prio)
        reprio(o, bm_sched.cur->prio);
    if (timeout_us == RTB_FOREVER)
        return block(&m->wt, 0, 0);
    return block(&m->wt, 1, deadline_us(timeout_us));
}


void bm_mutex_unlock_c(struct bm_mtx *m);
void bm_mutex_unlock_c(struct bm_mtx *m)
{
    struct th *w = l_pop(&m->wt);
    m->owner = w;
    struct th *t = bm_sched.cur;
    int lowered = 0;
    if (t->prio != t->base) { /* drop what it inherited */
        unsigned eff = inherited(t);
        reprio(t, eff > t->base ? eff : t->base);
        lowered = 1;
    }
    if (w) {
        wake(w, RTB_OK);
        if (!lowered && w->prio > t->prio) {
            bm_go(w); /* the new owner is the most urgent: straight to it */
            return;
        }
    }
    if (lowered)
        resched();
    else
        unlock();
}


/* ---- queues: a ring; a waiting receiver gets the message straight into its buffer (the
 * copies: rtb_copy, the one copy of every port's glue) ---- */
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
        rtb_copy(w->msg, msg, q->size);
        wake(w, RTB_OK);
        if (w->prio > bm_sched.cur->prio) {
            bm_go(w);
            return RTB_OK;
        }
        unlock();
        return RTB_OK;
    }
    if (q->count < q->depth) {
        unsigned slot = q->head + q->count;
        if (slot >= q->depth)
            slot -= q->depth;
        rtb_copy((uint8_t *)q->buf + slot * q->size, msg, q->size);
        q->count++;
        unlock();
        return RTB_OK;
    }
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    bm_sched.cur->msg = (void *)msg; /* a receiver takes it from here */
    return block(&q->st, timeout_us != RTB_FOREVER, deadline_us(timeout_us));
}

int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    struct queue *q = &queues[id];
    lock();
    if (q->count) {
        rtb_copy(msg, (uint8_t *)q->buf + q->head * q->size, q->size);
        struct th *w = l_pop(&q->st);
        if (w) { /* a blocked sender: its message takes the freed slot */
            rtb_copy((uint8_t *)q->buf + q->head * q->size, w->msg, q->size);
            if (++q->head == q->depth)
                q->head = 0;
            wake(w, RTB_OK);
            if (w->prio > bm_sched.cur->prio) {
                bm_go(w);
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
    bm_sched.cur->msg = msg;
    return block(&q->rt, timeout_us != RTB_FOREVER, deadline_us(timeout_us));
}

/* ---- memory: one 128-byte block ---- */
BM_NOINIT static uint64_t pool[128 / 8];
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
