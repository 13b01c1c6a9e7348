/*
 * The ThreadX port of the benchmark suite: each rtb_* call is the ThreadX service an
 * application would make (tx_thread_*, tx_semaphore_*, tx_mutex_*, tx_queue_*, tx_timer_*,
 * tx_block_*), built with TX_DISABLE_ERROR_CHECKING (tx_user.h). The hot calls are inline
 * (rtb_port_inline.h). Priorities: portable 1..8 are ThreadX 9..2, the controller is 1.
 */

#include "tx_api.h"

#include "bench.h"
#include "rtb_copy.h"

TX_THREAD rtb_tx_tcbs[RTB_MAX_THREADS];
struct rtb_tx_semtab rtb_tx_sems;
TX_MUTEX rtb_tx_mutexes[RTB_MAX_MUTEXES];
TX_QUEUE rtb_tx_queues[RTB_MAX_QUEUES];
uint8_t rtb_tx_queue_whole[RTB_MAX_QUEUES];
static ULONG qbuf[RTB_MAX_QUEUES][64 / sizeof(ULONG)];
static struct { size_t bytes; UINT words; } qmsg[RTB_MAX_QUEUES];
static TX_TIMER timers[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; ULONG period; } timer_cb[RTB_MAX_TIMERS];
static struct { rtb_entry_t fn; void *arg; } entries[RTB_MAX_THREADS];
static uint64_t sems_made;
static uint32_t threads_made, mutexes_made, queues_made, timers_made;

/* The block pool of rtb_mem_*: 128-byte blocks (Thread-Metric's size), ThreadX keeps one
 * pointer in front of each. */
#define POOL_BLOCKS 1 /* the suite holds one block at a time (tm.memory), like the floor */
static TX_BLOCK_POOL pool;
static ULONG pool_mem[POOL_BLOCKS * (128 + sizeof(void *)) / sizeof(ULONG)];

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap; /* never called: RTB_CAPS is every service */
    return "not provided by the ThreadX port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "Eclipse ThreadX 6.4.2 (v6.4.2_rel 06dabb0), ports/" RTB_TX_PORT "/gnu");
    bench_config("tickless", "no (ThreadX has no tick-less mode in its core): SysTick tick");
    bench_config_u("time_hz", TX_TIMER_TICKS_PER_SECOND);
    bench_config_u("prio_levels", TX_MAX_PRIORITIES);
    bench_config("checks", "off (TX_DISABLE_ERROR_CHECKING: services without the txe_ layer)");
    bench_config("assertions", "off (ThreadX has none); no trace, no performance info, no stack checking/filling");
    bench_config("preemption", "on (preemption-threshold disabled: TX_DISABLE_PREEMPTION_THRESHOLD)");
    bench_config("time_slicing", "off (TX_NO_TIME_SLICE)");
    bench_config("mutex", "priority inheritance (TX_INHERIT), no deadlock detection (timeouts break cycles)");
    bench_config("semaphore", "counting, unbounded (ThreadX has no maximum; the suite never exceeds its max)");
    bench_config("options", "TX_NOT_INTERRUPTABLE TX_INLINE_THREAD_RESUME_SUSPEND TX_REACTIVATE_INLINE "
                            "TX_DISABLE_NOTIFY_CALLBACKS TX_DISABLE_REDUNDANT_CLEARING (tx_user_sample.h: maximum speed)");
    bench_config("allocation", "static: thread stacks in suite memory, TX_THREADs in a table of 6 by thread id, objects in the port's tables, "
                               "memory blocks from a tx_block_pool of one 128-byte block");
    bench_config("timer_context", "SysTick interrupt (TX_TIMER_PROCESS_IN_ISR)");
    bench_config("isr_api", "tx_semaphore_put from a plain C handler (no context save/restore calls on Cortex-M)");
    bench_config("delay_rounding", "ceil(us/tick)+1 ticks: never shorter than requested");
    bench_config("oneshot_rounding", "tx_timer_change(ceil(us/tick)+1 ticks, reschedule 0) + tx_timer_activate "
                                     "(1 kHz tick): expires at that tick from now, never before the delay");
    bench_config("idle", "WFI in the scheduler's wait loop (TX_ENABLE_WFI)");
    bench_config("port_calls", "inline (rtb_port_inline.h): yield, priority set, sem wait/signal/signal_isr, mutex lock/unlock");
}

/* ---- start ---- */
static TX_THREAD ctrl_tcb;
static struct { void (*fn)(void *); void *stack; size_t bytes; } ctrl;

static VOID thread_tramp(ULONG id)
{
    entries[id].fn(entries[id].arg);
}

static VOID ctrl_tramp(ULONG unused)
{
    (void)unused;
    ctrl.fn(NULL);
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    ctrl.fn = main_fn;
    ctrl.stack = stack;
    ctrl.bytes = stack_bytes;
    tx_kernel_enter(); /* _tx_initialize_low_level, tx_application_define, the scheduler */
    for (;;) {
    }
}

VOID tx_application_define(VOID *first_unused_memory)
{
    (void)first_unused_memory;
    tx_block_pool_create(&pool, "mem", 128, pool_mem, sizeof pool_mem);
    tx_thread_create(&ctrl_tcb, "C", ctrl_tramp, 0, ctrl.stack, ctrl.bytes, rtb_tx_prio(RTB_PRIO_CTRL),
                     rtb_tx_prio(RTB_PRIO_CTRL), TX_NO_TIME_SLICE, TX_AUTO_START);
}

/* ---- threads ----
 * The control blocks are in a static table indexed by thread id (rtb_tx_tcbs), not in the
 * memory the suite gives, which is all stack: a TX_THREAD is 176 bytes, and the suite's
 * 272-byte small threads use up to 164 bytes of stack under ThreadX (README.md, "Thread
 * memory"). */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    if (id < 0 || id >= RTB_MAX_THREADS || (threads_made & (1u << id)))
        return RTB_ERROR;
    entries[id].fn = fn;
    entries[id].arg = arg;
    UINT p = rtb_tx_prio(prio);
    if (tx_thread_create(&rtb_tx_tcbs[id], "t", thread_tramp, (ULONG)id, stack, stack_bytes, p, p,
                         TX_NO_TIME_SLICE, TX_AUTO_START) != TX_SUCCESS)
        return RTB_ERROR;
    threads_made |= 1u << id;
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    if (threads_made & (1u << id)) {
        tx_thread_terminate(&rtb_tx_tcbs[id]);
        tx_thread_delete(&rtb_tx_tcbs[id]);
        threads_made &= ~(1u << id);
    }
}

void rtb_suspend(int id) { tx_thread_suspend(id == RTB_SELF ? tx_thread_identify() : &rtb_tx_tcbs[id]); }
void rtb_resume(int id) { tx_thread_resume(&rtb_tx_tcbs[id]); }

/* ---- semaphores: ThreadX counts to 2^32-1, it has no maximum (the suite stays below its max) ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max;
    if (id < 0 || id >= RTB_MAX_SEMS || (id >= RTB_TX_SEMS_LOW && id < RTB_MAX_SEMS - 2))
        return RTB_ERROR;
    if (sems_made & (1ull << id))
        rtb_sem_delete(id);
    if (tx_semaphore_create(rtb_tx_sem(id), "s", initial) != TX_SUCCESS)
        return RTB_ERROR;
    sems_made |= 1ull << id;
    return RTB_OK;
}
void rtb_sem_delete(int id)
{
    if (sems_made & (1ull << id)) {
        tx_semaphore_delete(rtb_tx_sem(id));
        sems_made &= ~(1ull << id);
    }
}

/* ---- mutexes: priority inheritance ---- */
int rtb_mutex_create(int id)
{
    if (mutexes_made & (1u << id))
        rtb_mutex_delete(id);
    if (tx_mutex_create(&rtb_tx_mutexes[id], "m", TX_INHERIT) != TX_SUCCESS)
        return RTB_ERROR;
    mutexes_made |= 1u << id;
    return RTB_OK;
}
void rtb_mutex_delete(int id)
{
    if (mutexes_made & (1u << id)) {
        tx_mutex_delete(&rtb_tx_mutexes[id]);
        mutexes_made &= ~(1u << id);
    }
}

/* ---- queues: ThreadX messages are 1, 2, 4, 8 or 16 words; 64 bytes of storage each ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    UINT words = 1;
    while (words * sizeof(ULONG) < msg_bytes)
        words *= 2;
    if (words > 16 || depth == 0 || words * sizeof(ULONG) * depth > sizeof qbuf[id])
        return RTB_ERROR;
    if (queues_made & (1u << id))
        rtb_queue_delete(id);
    qmsg[id].bytes = msg_bytes;
    qmsg[id].words = words;
    rtb_tx_queue_whole[id] = msg_bytes == words * sizeof(ULONG);
    if (tx_queue_create(&rtb_tx_queues[id], "q", words, qbuf[id], words * sizeof(ULONG) * depth) != TX_SUCCESS)
        return RTB_ERROR;
    queues_made |= 1u << id;
    return RTB_OK;
}
void rtb_queue_delete(int id)
{
    if (queues_made & (1u << id)) {
        tx_queue_delete(&rtb_tx_queues[id]);
        queues_made &= ~(1u << id);
    }
}
/* A message of a whole number of words, word aligned, goes straight in and out, inline
 * (rtb_port_inline.h; the suite's are 16 bytes); another size is copied through a buffer of
 * the queue's message size here, out of line, so that the direct path keeps a small stack
 * frame. */
UINT rtb_tx_queue_send_copy(int id, const void *msg, ULONG ticks)
{
    ULONG tmp[16];
    rtb_copy(tmp, msg, qmsg[id].bytes);
    return tx_queue_send(&rtb_tx_queues[id], tmp, ticks);
}
UINT rtb_tx_queue_recv_copy(int id, void *msg, ULONG ticks)
{
    ULONG tmp[16];
    UINT r = tx_queue_receive(&rtb_tx_queues[id], tmp, ticks);
    if (r == TX_SUCCESS)
        rtb_copy(msg, tmp, qmsg[id].bytes);
    return r;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { tx_thread_sleep(rtb_tx_ticks(us)); }

static VOID timer_tramp(ULONG id)
{
    timer_cb[id].cb(timer_cb[id].arg);
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    ULONG p = period_us / RTB_TX_US_PER_TICK + (period_us % RTB_TX_US_PER_TICK != 0u);
    if (p == 0)
        p = 1;
    if (timers_made & (1u << id))
        rtb_timer_delete(id);
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    timer_cb[id].period = p;
    if (tx_timer_create(&timers[id], "T", timer_tramp, (ULONG)id, p, p, TX_NO_ACTIVATE) != TX_SUCCESS)
        return RTB_ERROR;
    timers_made |= 1u << id;
    return RTB_OK;
}
/* A full period from now (tx_timer_change on the deactivated timer), then periodic. */
void rtb_timer_start(int id)
{
    tx_timer_change(&timers[id], timer_cb[id].period, timer_cb[id].period);
    tx_timer_activate(&timers[id]);
}
void rtb_timer_stop(int id) { tx_timer_deactivate(&timers[id]); }
/* One shot: tx_timer_change (initial ticks, reschedule 0) on the deactivated timer. A timer
 * of n ticks expires at the n-th tick from now, the first of which may come at once: n =
 * ceil(us/tick) + 1, as for the delays, so the callback is never early. */
int rtb_timer_once(int id, uint32_t delay_us)
{
    tx_timer_deactivate(&timers[id]);
    tx_timer_change(&timers[id], rtb_tx_ticks(delay_us ? delay_us : 1u), 0);
    return tx_timer_activate(&timers[id]) == TX_SUCCESS ? RTB_OK : RTB_ERROR;
}
void rtb_timer_delete(int id)
{
    if (timers_made & (1u << id)) {
        tx_timer_deactivate(&timers[id]);
        tx_timer_delete(&timers[id]);
        timers_made &= ~(1u << id);
    }
}

/* ---- memory: a tx_block_pool of 128-byte blocks ---- */
void *rtb_mem_alloc(size_t bytes)
{
    VOID *p;
    if (bytes > 128 || tx_block_allocate(&pool, &p, TX_NO_WAIT) != TX_SUCCESS)
        return NULL;
    return p;
}
void rtb_mem_free(void *p)
{
    if (p)
        tx_block_release(p);
}

/* ---- interrupts: the suite's default rtb_irq_install (bench_core.c) and plain handlers ---- */
