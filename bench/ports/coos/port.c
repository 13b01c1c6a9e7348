/*
 * The CoOS port of the benchmark suite: each rtb_* call is the CoOS call an application
 * would make (CoCreateTaskEx, CoPendSem/CoPostSem/isr_PostSem, CoEnterMutexSection, ...).
 * Where CoOS has no call for a service the port says so in rtb_port_config() and here:
 *   - rtb_yield: CoOS has no yield; the port runs the kernel's own round-robin step (what
 *     Schedule() does when a time slice ends: the running task goes back into the ready
 *     list behind the tasks of its priority, then the scheduler picks the head);
 *   - rtb_queue: CoOS queues carry one pointer per message; the port copies the message
 *     into a slot of its own ring, posts the slot's address, and a counting semaphore of
 *     free slots lets a sender block when the queue is full (CoPostQueueMail never blocks);
 *   - RTB_FOREVER: a wait of 0x7FFFFFFF ticks, not CoOS's "timeout 0 = for ever", which in
 *     this version decrements the semaphore count before the task blocks (see README.md).
 * Priorities: CoOS 0 is the most urgent; suite priority p (1..9) is CoOS 10 - p, the idle
 * task is CFG_LOWEST_PRIO (64).
 */

#include "coocox.h"

#include "bench.h"
#include "rtb_copy.h"

#define COOS_PRIO(p) RTB_COOS_PRIO(p)

/* isr_PostSem queues what a handler posts while the scheduler is locked and drops it when
 * the queue is full (OsConfig.h): room for the suite's largest burst (bench.h), Hartstone's,
 * on the boards that run it. */
#if BOARD_HAS_STIMULUS
_Static_assert(CFG_MAX_SERVICE_REQUEST >= BENCH_MAX_ISR_SIGNALS, "CoOS's service request queue drops interrupt posts");
#endif

/* Not static: the inline hot calls (rtb_port_inline.h) use them. */
OS_TID rtb_coos_tids[RTB_MAX_THREADS];
OS_EventID rtb_coos_sems[RTB_MAX_SEMS];
OS_MutexID rtb_coos_mutexes[RTB_MAX_MUTEXES];
static uint8_t mutex_made[RTB_MAX_MUTEXES];
static OS_TCID timers[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; U32 period; U8 type; } timer_cb[RTB_MAX_TIMERS];


const char *rtb_port_absent_reason(uint32_t cap)
{
    switch (cap) {
    case RTB_CAP_MUTEX_DYNAMIC:
        return "CoOS has no mutex deletion: CoCreateMutex takes one of CFG_MAX_MUTEX slots for good (no CoDelMutex)";
    case RTB_CAP_MUTEX_TIMEOUT:
        return "CoOS's mutex lock (CoEnterMutexSection) has no timeout (and CoOS has no deadlock detection)";
    default:
        return "not provided by CoOS";
    }
}

void rtb_port_config(void)
{
    bench_config("kernel", "CoOS 1.1.6 (github coocox/CoOS master fa55945), portable/GCC/port.c CFG_CHIP_TYPE " RTB_COOS_CHIP ", arch.c");
#if CFG_CHIP_TYPE == 3
    bench_config("fpu_context", "CoOS's M4F port: s16-s31 saved at every switch, every task resumed with an extended frame (EXC_RETURN 0xFFFFFFED), the hardware's lazy stacking on; idle stack 58 words (upstream's M4F value)");
#endif
    bench_config_u("time_hz", CFG_SYSTICK_FREQ);
    bench_config_u("tick_hz", CFG_SYSTICK_FREQ);
    bench_config("tickless", "no (CoOS has no tick-less mode): SysTick at 1 kHz, CoOS's SysTick_Handler");
    bench_config("assertions", "off (CFG_PAR_CHECKOUT_EN 0, CFG_STK_CHECKOUT_EN 0)");
    bench_config("preemption", "on (CoOS is always preemptive)");
    bench_config("time_slicing", "off (CFG_ROBIN_EN 0)");
    bench_config("scheduler", "CFG_ORDER_LIST_SCHEDULE_EN 1: one ready list sorted by priority");
    bench_config("yield", "no CoOS call: the kernel's round-robin step (InsertToTCBRdyList of the running task behind its priority, then Schedule) under OsSchedLock");
    bench_config("mutex_protocol", "priority inheritance (CoEnterMutexSection raises the owner), no timeout, no deletion");
    bench_config("semaphore", "CoCreateSem(EVENT_SORT_TYPE_PRIO); RTB_FOREVER = CoPendSem of 0x7FFFFFFF ticks (CoOS's timeout 0 pre-decrements the count: wrong with 2 waiters)");
    bench_config("queue", "CoCreateQueue of slot pointers + the port's ring of message slots (copy in/out) + a CoOS semaphore of free slots for a blocking send");
    bench_config("allocation", "static: TCBs in CoOS's TCBTbl, stacks from the suite, events/mutexes/timers in CoOS tables; memory blocks: CoCreateMemPartition of 2 x 128 bytes");
    bench_config("delay_rounding", "CoTickDelay(ceil(us/tick)+1): never shorter than requested");
    bench_config("oneshot_rounding", "CoCreateTmr(TMR_TYPE_ONE_SHOT) / CoSetTmrCnt of ceil(us/tick)+1 ticks (1 kHz SysTick): "
                                     "expires at that tick from now, never before the delay");
    bench_config("timer_context", "SysTick interrupt (CoOS's isr_TmrDispose), or the thread that unlocks the scheduler if the tick found it locked");
    bench_config("isr_api", "CoEnterISR / isr_PostSem / CoExitISR");
    bench_config("idle", "CoIdleTask: WFI (CoOS's user hook, hook.c replaced by the port)");
}

/* ---- the user hooks (CoOS's hook.c, "Add your codes here"): the idle task sleeps ---- */
void CoIdleTask(void *pdata)
{
    (void)pdata;
    for (;;)
        __asm volatile("wfi");
}

void CoStkOverflowHook(OS_TID taskID)
{
    (void)taskID;
    for (;;) {
    }
}

/* ---- start ---- */
void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    OS_STK *stk = (OS_STK *)stack;
    U32 words = (U32)(stack_bytes / sizeof(OS_STK));
    CoInitOS();
    CoCreateTaskEx(main_fn, Co_NULL, COOS_PRIO(RTB_PRIO_CTRL), &stk[words - 1], words, 0, 0);
    CoStartOS();
    for (;;) {
    }
}

/* ---- threads: the whole memory is the stack (CoOS keeps its TCBs in TCBTbl) ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    OS_STK *stk = (OS_STK *)stack;
    U32 words = (U32)(stack_bytes / sizeof(OS_STK));
    if (id < 0 || id >= RTB_MAX_THREADS || words < 32u || words > 0xFFFu)
        return RTB_ERROR;
    OS_TID t = CoCreateTaskEx(fn, arg, COOS_PRIO(prio), &stk[words - 1], words, 0, 0);
    if (t == (OS_TID)E_CREATE_FAIL)
        return RTB_ERROR;
    rtb_coos_tids[id] = t;
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    if (rtb_coos_tids[id]) {
        CoDelTask(rtb_coos_tids[id]);
        rtb_coos_tids[id] = 0; /* 0 is CoOS's idle task: never a test thread */
    }
}

void rtb_yield(void)
{
    OsSchedLock();
    P_OSTCB cur = TCBRunning;
    if (TCBRdy != Co_NULL && TCBRdy->prio == cur->prio) {
        InsertToTCBRdyList(cur); /* READY, behind the ready tasks of its priority */
        TaskSchedReq = Co_TRUE;
    }
    OsSchedUnlock(); /* Schedule: the running task is no longer RUNNING, the head runs */
}

void rtb_suspend(int id) { CoSuspendTask(id == RTB_SELF ? TCBRunning->taskID : rtb_coos_tids[id]); }
void rtb_resume(int id) { CoAwakeTask(rtb_coos_tids[id]); }
/* rtb_prio_set: inline (rtb_port_inline.h) */

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    if (max > 0x7FFFu) /* the count is a U16 that a pending wait may take below 0 */
        max = 0x7FFFu;
    OS_EventID e = CoCreateSem((U16)initial, (U16)max, EVENT_SORT_TYPE_PRIO);
    if (e == (OS_EventID)E_CREATE_FAIL)
        return RTB_ERROR;
    rtb_coos_sems[id] = e;
    return RTB_OK;
}
void rtb_sem_delete(int id) { CoDelSem(rtb_coos_sems[id], OPT_DEL_ANYWAY); }
static int ev_wait(OS_EventID e, uint32_t timeout_us)
{
    if (timeout_us == 0)
        return CoAcceptSem(e) == E_OK ? RTB_OK : RTB_TIMEOUT;
    return CoPendSem(e, rtb_coos_ticks(timeout_us)) == E_OK ? RTB_OK : RTB_TIMEOUT;
}
/* rtb_sem_wait, rtb_sem_signal, rtb_sem_signal_isr: inline (rtb_port_inline.h) */

/* ---- mutexes: created once per suite index and kept (CoOS cannot delete one) ---- */
int rtb_mutex_create(int id)
{
    if (!mutex_made[id]) {
        OS_MutexID m = CoCreateMutex();
        if (m == (OS_MutexID)E_CREATE_FAIL)
            return RTB_ERROR;
        rtb_coos_mutexes[id] = m;
        mutex_made[id] = 1;
    }
    return RTB_OK;
}
void rtb_mutex_delete(int id) { (void)id; /* no CoOS call: kept for the next create */ }
/* rtb_mutex_lock, rtb_mutex_unlock: inline (rtb_port_inline.h) */

/* ---- queues: a CoOS queue of slot pointers over the port's ring of message slots ---- */
/* Each queue's memory: CoOS's `depth` pointer cells, then the port's `depth` message slots
 * (word-rounded). Queue 0 holds one 128-byte message (rhealstone.message_passing.seed001),
 * queue 1 a 64-byte one (or 3 of 16 bytes): qemu-microbit's RAM has no room for more. */
static uint32_t q_store0[1 + 128 / 4], q_store1[1 + 64 / 4];
static struct {
    OS_EventID q, free;
    size_t msg_bytes;
    unsigned depth, w;
} queues[RTB_MAX_QUEUES];
static uint32_t *const q_store[RTB_MAX_QUEUES] = {q_store0, q_store1};
static const size_t q_bytes[RTB_MAX_QUEUES] = {sizeof q_store0, sizeof q_store1};
static void *q_slot(int id, unsigned i)
{
    size_t sz = (queues[id].msg_bytes + 3u) & ~(size_t)3u;
    return (char *)(q_store[id] + queues[id].depth) + i * sz;
}

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    size_t sz = (msg_bytes + 3u) & ~(size_t)3u;
    if (depth == 0 || (sizeof(void *) + sz) * depth > q_bytes[id])
        return RTB_ERROR;
    queues[id].msg_bytes = msg_bytes;
    queues[id].depth = depth;
    queues[id].w = 0;
    queues[id].q = CoCreateQueue((void **)q_store[id], (U16)depth, EVENT_SORT_TYPE_PRIO);
    queues[id].free = CoCreateSem((U16)depth, (U16)depth, EVENT_SORT_TYPE_PRIO);
    if (queues[id].q == (OS_EventID)E_CREATE_FAIL || queues[id].free == (OS_EventID)E_CREATE_FAIL)
        return RTB_ERROR;
    return RTB_OK;
}
void rtb_queue_delete(int id)
{
    CoDelQueue(queues[id].q, OPT_DEL_ANYWAY);
    CoDelSem(queues[id].free, OPT_DEL_ANYWAY);
}
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    if (ev_wait(queues[id].free, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    CoSchedLock(); /* the slot index follows CoOS's tail: one post at a time */
    void *slot = q_slot(id, queues[id].w);
    rtb_copy(slot, msg, queues[id].msg_bytes);
    if (++queues[id].w == queues[id].depth)
        queues[id].w = 0;
    CoPostQueueMail(queues[id].q, slot);
    CoSchedUnlock();
    return RTB_OK;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    StatusType err;
    void *p;
    if (timeout_us == 0)
        p = CoAcceptQueueMail(queues[id].q, &err);
    else
        p = CoPendQueueMail(queues[id].q, rtb_coos_ticks(timeout_us), &err);
    if (p == Co_NULL)
        return RTB_TIMEOUT;
    rtb_copy(msg, p, queues[id].msg_bytes);
    CoPostSem(queues[id].free);
    return RTB_OK;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { CoTickDelay(rtb_coos_ticks(us)); }

/* CoOS timer callbacks take no argument: one trampoline per suite timer. */
static void timer_tramp0(void) { timer_cb[0].cb(timer_cb[0].arg); }
static void timer_tramp1(void) { timer_cb[1].cb(timer_cb[1].arg); }
static const vFUNCPtr timer_tramps[RTB_MAX_TIMERS] = {timer_tramp0, timer_tramp1};

/* A CoOS timer's type (periodic or one-shot) is fixed by CoCreateTmr: the port makes the
 * kind the next start needs (the suite makes a timer and then uses it one way only). */
static uint32_t timer_ticks(uint32_t us)
{
    return (uint32_t)(((uint64_t)us * CFG_SYSTICK_FREQ + 999999u) / 1000000u);
}
static int timer_make(int id, U8 type, U32 ticks)
{
    OS_TCID t = CoCreateTmr(type, ticks, type == TMR_TYPE_PERIODIC ? ticks : 0, timer_tramps[id]);
    if (t == (OS_TCID)E_CREATE_FAIL)
        return RTB_ERROR;
    timers[id] = t;
    timer_cb[id].type = type;
    return RTB_OK;
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    U32 p = timer_ticks(period_us);
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    timer_cb[id].period = p ? p : 1u;
    return timer_make(id, TMR_TYPE_PERIODIC, timer_cb[id].period);
}
void rtb_timer_start(int id)
{
    if (timer_cb[id].type != TMR_TYPE_PERIODIC) {
        CoDelTmr(timers[id]);
        timer_make(id, TMR_TYPE_PERIODIC, timer_cb[id].period);
    }
    CoStartTmr(timers[id]);
}
void rtb_timer_stop(int id) { CoStopTmr(timers[id]); }
void rtb_timer_delete(int id) { CoDelTmr(timers[id]); }
/* One shot (TMR_TYPE_ONE_SHOT): the SysTick handler counts the head of CoOS's timer list
 * down once per tick, so n ticks end at the n-th tick from now, the first of which may come
 * at once: n = ceil(us/tick) + 1, as for the delays, never early. */
int rtb_timer_once(int id, uint32_t delay_us)
{
    U32 n = timer_ticks(delay_us) + 1u;
    if (timer_cb[id].type != TMR_TYPE_ONE_SHOT) {
        CoDelTmr(timers[id]);
        if (timer_make(id, TMR_TYPE_ONE_SHOT, n) != RTB_OK)
            return RTB_ERROR;
    } else {
        CoStopTmr(timers[id]);
        CoSetTmrCnt(timers[id], n, 0);
    }
    return CoStartTmr(timers[id]) == E_OK ? RTB_OK : RTB_ERROR;
}

/* ---- memory: a CoOS memory partition of 128-byte blocks ---- */
#define MEM_BLOCK 128u
#define MEM_BLOCKS 2u
static uint32_t mem_pool[MEM_BLOCK * MEM_BLOCKS / 4];
static OS_MMID mem_id;
static uint8_t mem_made;

void *rtb_mem_alloc(size_t bytes)
{
    if (bytes > MEM_BLOCK)
        return NULL;
    if (!mem_made) {
        mem_id = CoCreateMemPartition((U8 *)mem_pool, MEM_BLOCK, MEM_BLOCKS);
        mem_made = 1;
    }
    return CoGetMemoryBuffer(mem_id);
}
void rtb_mem_free(void *p) { CoFreeMemoryBuffer(mem_id, p); }

/* ---- interrupts: the handlers are bracketed by CoEnterISR/CoExitISR (rtb_port_isr.h) ---- */
