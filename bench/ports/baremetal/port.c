/*
 * baremetal: the floor every kernel is measured against. No RTOS: the smallest hand-written
 * code that does each job the suite asks for, with nothing general about it.
 *
 * - Threads: a table, and one FIFO list of ready threads per priority with a bitmap of the
 *   non-empty ones. The running thread is the head of the highest list: a preempted thread
 *   keeps its place, a yielding or woken one goes to the back.
 * - The switch: when the running thread itself causes it (it blocks, yields, wakes a more
 *   urgent thread), a function call in thread mode saves r4-r11 and the return address on
 *   its stack and pops the next thread's ("sync" frame); when an interrupt causes it,
 *   PendSV saves r4-r11 above the hardware frame. Bit 0 of a saved stack pointer says
 *   which; a sync frame is resumed by a pop, or by PendSV after rebuilding its top as an
 *   exception frame; an exception frame only by PendSV.
 * - Waiting: a blocked thread records what it waits for; a signal scans the threads in use
 *   for the best waiter (highest priority, then longest waiting). Critical sections are
 *   CPSID/CPSIE.
 * - Time: the board's alarm (compare timer), tickless; timer callbacks run in its ISR.
 */
#include <string.h>

#include "bench.h"

#define NTH (RTB_MAX_THREADS + 2)
#define CTRL (RTB_MAX_THREADS)
#define IDLE (RTB_MAX_THREADS + 1)

enum { FREE = 0, READY, BLOCKED, SUSPENDED };
enum { W_NONE = 0, W_SEM, W_MUTEX, W_QRECV, W_QSEND, W_DELAY };

struct th {
    uint32_t sp;
    int8_t next;     /* ready list */
    uint32_t seq;    /* order of becoming ready (or of blocking, for waiters) */
    uint32_t wake;   /* deadline when `timed` */
    uint8_t state, prio, base, wkind;
    uint8_t wobj, timed;
    int8_t result;
};

static struct th th[NTH];
static int cur = -1;
static uint8_t want; /* a more urgent thread was made ready: switch when leaving the kernel */
static uint32_t seqno;
static int hi_id; /* 1 + the highest test thread id ever created: the scans stop there */
#define NPRIO (RTB_PRIO_CTRL + 1) /* at most 12: pick() looks at 12 bits */
static int8_t rq_head[NPRIO], rq_tail[NPRIO];
static uint32_t rq_map;

static void rq_add(int i)
{
    int p = th[i].prio;
    th[i].next = -1;
    if (rq_head[p] < 0)
        rq_head[p] = (int8_t)i;
    else
        th[rq_tail[p]].next = (int8_t)i;
    rq_tail[p] = (int8_t)i;
    rq_map |= 1u << p;
}

static void rq_remove(int i)
{
    int p = th[i].prio, prev = -1;
    for (int k = rq_head[p]; k >= 0 && k != i; k = th[k].next)
        prev = k;
    if (prev < 0)
        rq_head[p] = th[i].next;
    else
        th[prev].next = th[i].next;
    if (rq_tail[p] == i)
        rq_tail[p] = (int8_t)prev;
    if (rq_head[p] < 0)
        rq_map &= ~(1u << p);
}

/* Change the priority of thread i, moving it between ready lists if it is ready. */
static void set_prio(int i, int prio)
{
    if (th[i].prio == prio)
        return;
    if (th[i].state == READY) {
        rq_remove(i);
        th[i].prio = (uint8_t)prio;
        rq_add(i);
    } else {
        th[i].prio = (uint8_t)prio;
    }
}

struct sem { uint16_t count, max; uint8_t live; };
struct mtx { int8_t owner; uint8_t live; };
struct queue { uint8_t buf[64]; uint16_t size, depth, head, count; uint8_t live; };
struct tmr { uint32_t next, period; void (*cb)(void *); void *arg; uint8_t active; };

static struct sem sems[RTB_MAX_SEMS];
static struct mtx mtxs[RTB_MAX_MUTEXES];
static struct queue queues[RTB_MAX_QUEUES];
static struct tmr tmrs[RTB_MAX_TIMERS];

#define ICSR (*(volatile uint32_t *)0xE000ED04u)
#define SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define PENDSVSET (1u << 28)

static inline void lock(void) { __asm volatile("cpsid i" ::: "memory"); }
static inline void unlock(void) { __asm volatile("cpsie i" ::: "memory"); }
static inline void pend_switch(void) { ICSR = PENDSVSET; }

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided by the baremetal port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "none: hand-written PendSV switch, linear-scan scheduler");
    bench_config("tickless", "yes (board alarm)");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("mutex", "one-level priority inheritance");
    bench_config("timer_context", "alarm interrupt");
    bench_config("allocation", "static tables; memory blocks: a pool of two 128-byte blocks");
    bench_config("idle", "WFI in an idle thread");
}

/* ---- the switch ---- */
/* Highest set bit of a 4-bit value. */
static const int8_t top4[16] = {-1, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};

static int pick(void)
{
    uint32_t m = rq_map; /* NPRIO <= 12 bits */
    if (!m)
        return IDLE;
    int p = m >> 8 ? 8 + top4[m >> 8] : m >> 4 ? 4 + top4[m >> 4] : top4[m];
    return rq_head[p];
}

/* PendSV's choice: `old_sp` is the interrupted thread's (bit 0 set: exception frame). */
uint32_t bm_pendsv(uint32_t old_sp)
{
    th[cur].sp = old_sp;
    cur = pick();
    return th[cur].sp;
}

void bm_switch(uint32_t *from_sp, uint32_t to_sp);
void bm_start(uint32_t sp) __attribute__((noreturn));
void bm_trampoline(void);

__asm__(
    ".syntax unified\n"
    ".thumb\n"
    /* void bm_switch(uint32_t *from_sp (r0), uint32_t to_sp (r1)); IRQs disabled, `to` a sync frame */
    ".section .text.bm_switch,\"ax\",%progbits\n"
    ".global bm_switch\n.type bm_switch,%function\n.thumb_func\n"
    "bm_switch:\n"
    "  push {r4-r7, lr}\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  push {r4-r7}\n"
    "  mov r3, sp\n"
    "  str r3, [r0]\n"
    "  mov sp, r1\n"
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    ".size bm_switch, .-bm_switch\n"
    /* PendSV: save the interrupted thread above its hardware frame, resume the chosen one */
    ".section .text.PendSV_Handler,\"ax\",%progbits\n"
    ".global PendSV_Handler\n.type PendSV_Handler,%function\n.thumb_func\n"
    "PendSV_Handler:\n"
    "  mrs r0, psp\n"
    "  subs r0, #16\n"
    "  stmia r0!, {r4-r7}\n"
    "  subs r0, #32\n"
    "  mov r4, r8\n  mov r5, r9\n  mov r6, r10\n  mov r7, r11\n"
    "  stmia r0!, {r4-r7}\n"
    "  subs r0, #15\n"                 /* frame base | 1 */
    "  cpsid i\n"
    "  bl bm_pendsv\n"
    "  lsrs r2, r0, #1\n"
    "  bcc 2f\n"
    "  subs r0, #1\n"
    "  ldmia r0!, {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldmia r0!, {r4-r7}\n"
    "  msr psp, r0\n"
    "  b 3f\n"
    "2:\n"                            /* sync frame [r8-r11][r4-r7][ret]: make its top a hw frame */
    "  mov r1, r0\n"
    "  ldmia r1!, {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  ldmia r1!, {r4-r7}\n"
    "  ldr r2, [r1]\n"
    "  movs r0, #1\n"
    "  bics r2, r0\n"
    "  subs r1, #28\n"
    "  str r2, [r1, #24]\n"            /* pc */
    "  lsls r0, r0, #24\n"
    "  str r0, [r1, #28]\n"            /* xPSR: Thumb */
    "  msr psp, r1\n"
    "3:\n"
    "  movs r0, #2\n"
    "  mvns r0, r0\n"                  /* EXC_RETURN 0xFFFFFFFD: thread mode, PSP */
    "  cpsie i\n"
    "  bx r0\n"
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
    "  msr msp, r1\n"                  /* main's stack becomes the interrupt stack again */
    "  pop {r4-r7}\n"
    "  mov r8, r4\n  mov r9, r5\n  mov r10, r6\n  mov r11, r7\n"
    "  cpsie i\n"
    "  pop {r4-r7, pc}\n"
    ".ltorg\n"
    ".size bm_start, .-bm_start\n"
    /* first code of every thread: r4 = argument, r5 = entry */
    ".section .text.bm_trampoline,\"ax\",%progbits\n"
    ".global bm_trampoline\n.type bm_trampoline,%function\n.thumb_func\n"
    "bm_trampoline:\n"
    "  mov r0, r4\n"
    "  mov r1, r5\n"
    "  bl bm_entry\n"
    ".size bm_trampoline, .-bm_trampoline\n"
    ".text\n");

void bm_entry(void *arg, rtb_entry_t fn);
void bm_entry(void *arg, rtb_entry_t fn)
{
    fn(arg);
    for (;;)
        rtb_suspend(RTB_SELF);
}

static void make_thread(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t bytes)
{
    /* a sync frame: r8-r11, r4 = arg, r5 = fn, r6, r7, return address = the trampoline */
    uint32_t *sp = (uint32_t *)(((uintptr_t)stack + bytes) & ~(uintptr_t)7u) - 9;
    memset(sp, 0, 36);
    sp[4] = (uint32_t)(uintptr_t)arg;
    sp[5] = (uint32_t)(uintptr_t)fn;
    sp[8] = (uint32_t)(uintptr_t)bm_trampoline | 1u;
    struct th *t = &th[id];
    t->sp = (uint32_t)(uintptr_t)sp;
    t->prio = t->base = (uint8_t)prio;
    t->wkind = W_NONE;
    t->timed = 0;
    t->seq = ++seqno;
    t->state = READY;
    if (id != IDLE)
        rq_add(id);
    if (id < RTB_MAX_THREADS && id >= hi_id)
        hi_id = id + 1;
}

static uint64_t idle_stack[128 / 8];
static void idle(void *arg)
{
    (void)arg;
    for (;;)
        __asm volatile("wfi");
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    SHPR3 = (SHPR3 & 0x0000FFFFu) | 0xC0C00000u; /* PendSV and SysTick lowest */
    for (int p = 0; p < NPRIO; p++)
        rq_head[p] = rq_tail[p] = -1;
    make_thread(CTRL, RTB_PRIO_CTRL, main_fn, 0, stack, stack_bytes);
    make_thread(IDLE, 0, idle, 0, idle_stack, sizeof idle_stack);
    board_irq_enable(BOARD_ALARM_IRQ, 2);
    lock();
    cur = CTRL;
    bm_start(th[CTRL].sp);
}

/* ---- scheduling helpers (interrupts disabled) ---- */
static void ready(int i, int result)
{
    struct th *t = &th[i];
    t->state = READY;
    t->timed = 0;
    t->wkind = W_NONE;
    t->result = (int8_t)result;
    rq_add(i);
    if (t->prio > th[cur].prio)
        want = 1;
}

/* Switch to the most urgent ready thread, if it is not the caller. Thread mode, IRQs
 * disabled; returns with them enabled (when the caller runs again). */
static void resched(void)
{
    want = 0;
    int next = pick();
    if (next == cur) {
        unlock();
        return;
    }
    if (th[next].sp & 1u) { /* interrupted by PendSV: only PendSV can resume it */
        pend_switch();
        unlock();
        return;
    }
    int from = cur;
    cur = next;
    bm_switch(&th[from].sp, th[next].sp);
}

/* End of a thread-mode kernel call. */
static void leave(void)
{
    if (want)
        resched();
    else
        unlock();
}

/* End of a kernel call in an interrupt: the switch is PendSV, on the way out. */
static void leave_isr(void)
{
    if (want) {
        want = 0;
        pend_switch();
    }
    unlock();
}

static void rearm(void);

/* Block the caller (called with interrupts disabled; returns with them enabled). */
static int block(int kind, int obj, uint32_t timeout_us)
{
    struct th *t = &th[cur];
    rq_remove(cur);
    t->state = BLOCKED;
    t->wkind = (uint8_t)kind;
    t->wobj = (uint8_t)obj;
    t->result = RTB_OK;
    t->seq = ++seqno;
    if (timeout_us != RTB_FOREVER) {
        t->timed = 1;
        t->wake = board_cycles() + us_to_cycles(timeout_us);
        rearm();
    }
    resched(); /* returns when woken */
    return t->result;
}

/* The best waiter for (kind, obj), or -1: highest priority, then longest waiting. */
static inline __attribute__((always_inline)) int better(int i, int best, int kind, int obj)
{
    const struct th *t = &th[i];
    return t->state == BLOCKED && t->wkind == kind && t->wobj == obj &&
           (best < 0 || t->prio > th[best].prio || (t->prio == th[best].prio && (int32_t)(t->seq - th[best].seq) < 0));
}
static int best_waiter(int kind, int obj)
{
    int best = better(CTRL, -1, kind, obj) ? CTRL : -1;
    for (int i = 0; i < hi_id; i++)
        if (better(i, best, kind, obj))
            best = i;
    return best;
}

/* ---- threads ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    if (id < 0 || id >= RTB_MAX_THREADS || stack_bytes < 128u)
        return RTB_ERROR;
    lock();
    make_thread(id, prio, fn, arg, stack, stack_bytes);
    if (prio > th[cur].prio)
        want = 1;
    leave();
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    lock();
    if (th[id].state == READY)
        rq_remove(id);
    th[id].state = FREE;
    th[id].timed = 0;
    for (int m = 0; m < RTB_MAX_MUTEXES; m++)
        if (mtxs[m].owner == id)
            mtxs[m].owner = -1;
    unlock();
}

void rtb_yield(void)
{
    lock();
    if (th[cur].next >= 0) { /* another thread of this priority is ready: go behind it */
        rq_remove(cur);
        rq_add(cur);
        resched();
        return;
    }
    unlock();
}

void rtb_suspend(int id)
{
    lock();
    int i = id == RTB_SELF ? cur : id;
    if (th[i].state == READY)
        rq_remove(i);
    th[i].state = SUSPENDED;
    if (i == cur)
        resched();
    else
        unlock();
}

void rtb_resume(int id)
{
    lock();
    if (th[id].state == SUSPENDED)
        ready(id, RTB_OK);
    leave();
}

void rtb_prio_set(int id, int prio)
{
    lock();
    int i = id == RTB_SELF ? cur : id;
    struct th *t = &th[i];
    t->base = (uint8_t)prio;
    int eff = prio;
    for (int m = 0; m < RTB_MAX_MUTEXES; m++) /* keep an inherited priority */
        if (mtxs[m].live && mtxs[m].owner == i) {
            int w = best_waiter(W_MUTEX, m);
            if (w >= 0 && th[w].prio > eff)
                eff = th[w].prio;
        }
    set_prio(i, eff);
    resched(); /* whoever is most urgent now runs */
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    sems[id].count = (uint16_t)initial;
    sems[id].max = (uint16_t)max;
    sems[id].live = 1;
    return RTB_OK;
}
void rtb_sem_delete(int id) { sems[id].live = 0; }

int rtb_sem_wait(int id, uint32_t timeout_us)
{
    lock();
    if (sems[id].count) {
        sems[id].count--;
        unlock();
        return RTB_OK;
    }
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    return block(W_SEM, id, timeout_us); /* a signal hands the unit over directly */
}

static void sem_give(int id)
{
    int w = best_waiter(W_SEM, id);
    if (w >= 0)
        ready(w, RTB_OK);
    else if (sems[id].count < sems[id].max)
        sems[id].count++;
}
void rtb_sem_signal(int id)
{
    lock();
    sem_give(id);
    leave();
}
void rtb_sem_signal_isr(int id)
{
    lock();
    sem_give(id);
    leave_isr();
}

/* ---- mutexes: ownership handed to the best waiter; the owner inherits its priority ---- */
int rtb_mutex_create(int id)
{
    mtxs[id].owner = -1;
    mtxs[id].live = 1;
    return RTB_OK;
}
void rtb_mutex_delete(int id) { mtxs[id].live = 0; }

int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    lock();
    struct mtx *m = &mtxs[id];
    if (m->owner < 0) {
        m->owner = (int8_t)cur;
        unlock();
        return RTB_OK;
    }
    if (timeout_us == 0) {
        unlock();
        return RTB_TIMEOUT;
    }
    if (th[m->owner].prio < th[cur].prio)
        set_prio(m->owner, th[cur].prio);
    return block(W_MUTEX, id, timeout_us);
}

void rtb_mutex_unlock(int id)
{
    lock();
    struct mtx *m = &mtxs[id];
    int w = best_waiter(W_MUTEX, id);
    m->owner = (int8_t)w;
    /* drop what was inherited through this mutex */
    int eff = th[cur].base;
    for (int k = 0; k < RTB_MAX_MUTEXES; k++)
        if (mtxs[k].live && mtxs[k].owner == cur) {
            int x = best_waiter(W_MUTEX, k);
            if (x >= 0 && th[x].prio > eff)
                eff = th[x].prio;
        }
    if (eff < th[cur].prio) {
        set_prio(cur, eff);
        want = 1; /* someone ready may now be above us */
    }
    if (w >= 0)
        ready(w, RTB_OK);
    leave();
}

/* ---- queues: a ring buffer; waiters retry after a wake ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    struct queue *q = &queues[id];
    if (msg_bytes * depth > sizeof q->buf)
        return RTB_ERROR;
    q->size = (uint16_t)msg_bytes;
    q->depth = (uint16_t)depth;
    q->head = q->count = 0;
    q->live = 1;
    return RTB_OK;
}
void rtb_queue_delete(int id) { queues[id].live = 0; }

int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    struct queue *q = &queues[id];
    for (;;) {
        lock();
        if (q->count < q->depth) {
            unsigned slot = (q->head + q->count) % q->depth;
            memcpy(&q->buf[slot * q->size], msg, q->size);
            q->count++;
            int w = best_waiter(W_QRECV, id);
            if (w >= 0)
                ready(w, RTB_OK);
            leave();
            return RTB_OK;
        }
        if (timeout_us == 0 || block(W_QSEND, id, timeout_us) != RTB_OK) {
            unlock();
            return RTB_TIMEOUT;
        }
    }
}

int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    struct queue *q = &queues[id];
    for (;;) {
        lock();
        if (q->count) {
            memcpy(msg, &q->buf[q->head * q->size], q->size);
            q->head = (uint16_t)((q->head + 1u) % q->depth);
            q->count--;
            int w = best_waiter(W_QSEND, id);
            if (w >= 0)
                ready(w, RTB_OK);
            leave();
            return RTB_OK;
        }
        if (timeout_us == 0 || block(W_QRECV, id, timeout_us) != RTB_OK) {
            unlock();
            return RTB_TIMEOUT;
        }
    }
}

/* ---- time: the alarm fires at the earliest deadline of a thread or a timer ---- */
static void rearm(void)
{
    uint32_t now = board_cycles();
    int32_t best = INT32_MAX;
    int any = 0;
    for (int i = 0; i <= hi_id; i++) {
        int k = i == hi_id ? CTRL : i;
        if (th[k].timed && th[k].state == BLOCKED) {
            int32_t d = (int32_t)(th[k].wake - now);
            if (!any || d < best)
                best = d;
            any = 1;
        }
    }
    for (int k = 0; k < RTB_MAX_TIMERS; k++)
        if (tmrs[k].active) {
            int32_t d = (int32_t)(tmrs[k].next - now);
            if (!any || d < best)
                best = d;
            any = 1;
        }
    if (any)
        board_alarm_set(now + (uint32_t)(best > 0 ? best : 0));
    else
        board_alarm_cancel();
}

void board_alarm_isr(void)
{
    lock();
    uint32_t now = board_cycles();
    for (int i = 0; i <= hi_id; i++) {
        int k = i == hi_id ? CTRL : i;
        if (th[k].timed && th[k].state == BLOCKED && (int32_t)(now - th[k].wake) >= 0)
            ready(k, th[k].wkind == W_DELAY ? RTB_OK : RTB_TIMEOUT);
    }
    for (int k = 0; k < RTB_MAX_TIMERS; k++)
        if (tmrs[k].active && (int32_t)(now - tmrs[k].next) >= 0) {
            tmrs[k].next += tmrs[k].period;
            unlock();
            tmrs[k].cb(tmrs[k].arg);
            lock();
        }
    rearm();
    leave_isr();
}

void rtb_delay_us(uint32_t us)
{
    lock();
    block(W_DELAY, 0, us);
}

int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    tmrs[id].period = us_to_cycles(period_us);
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
    rearm();
    unlock();
}
void rtb_timer_stop(int id)
{
    lock();
    tmrs[id].active = 0;
    rearm();
    unlock();
}
void rtb_timer_delete(int id) { rtb_timer_stop(id); }

/* ---- memory: two 128-byte blocks ---- */
static uint64_t pool[2][128 / 8];
static uint8_t pool_used;
void *rtb_mem_alloc(size_t bytes)
{
    void *p = 0;
    if (bytes > sizeof pool[0])
        return 0;
    lock();
    for (int i = 0; i < 2; i++)
        if (!(pool_used & (1u << i))) {
            pool_used |= (uint8_t)(1u << i);
            p = pool[i];
            break;
        }
    unlock();
    return p;
}
void rtb_mem_free(void *p)
{
    lock();
    for (int i = 0; i < 2; i++)
        if (p == pool[i])
            pool_used &= (uint8_t)~(1u << i);
    unlock();
}

/* ---- interrupts: the switch a signal asks for is PendSV, taken when the ISR returns ---- */
void rtb_isr_enter(void) {}
void rtb_isr_exit(void) {}
