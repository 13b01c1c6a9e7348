/*
 * The rtoslab port of the benchmark suite: each rtb_* call is the rtoslab call an
 * application would make (kernel/include/rtoslab/kernel.h). Objects live in static tables;
 * a thread's control block sits at the top of the memory the suite gives for it.
 * Priorities: portable 1..6 are kernel 1..6, the controller is K_PRIO_MAX.
 */
#include <string.h>

#include "bench.h"
#include "rtoslab/kernel.h"

/* (not static: the inline hot calls of rtb_port_inline.h use them) */
struct k_thread *rtb_rtoslab_threads[RTB_MAX_THREADS];
/* (not static: the inline hot calls of rtb_port_inline.h use them) */
struct k_sem rtb_rtoslab_sems[RTB_MAX_SEMS];
struct k_mutex rtb_rtoslab_mutexes[RTB_MAX_MUTEXES];
struct k_queue rtb_rtoslab_queues[RTB_MAX_QUEUES]; /* the inline calls use it */
static uint32_t qbuf[RTB_MAX_QUEUES][128 / 4]; /* 128: rhealstone.message_passing.seed001 */
static struct k_timer timers[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; } timer_cb[RTB_MAX_TIMERS];


/* (timeouts: rtb_rtoslab_kto, in rtb_port_inline.h) */

/* The kernel library linked (the ports shown for information, bench/ports/rtoslab-no*, link a
 * variant of it: their CMakeLists.txt name it) */
#ifndef RTB_RTOSLAB_LIB
#define RTB_RTOSLAB_LIB "rtoslab_kernel"
#endif

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided by the rtoslab port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "rtoslab " RTOSLAB_KERNEL_VERSION " (kernel/, library " RTB_RTOSLAB_LIB ")");
    bench_config("tickless", K_CONFIG_TICKLESS ? "yes (board compare timer)" : "no");
    bench_config_u("time_hz", K_TIME_HZ);
    bench_config_u("timer_lead_cycles", K_CONFIG_TIMER_LEAD);
    bench_config_u("prio_levels", K_CONFIG_PRIO_LEVELS);
    bench_config("checks", K_CONFIG_CHECKS ? "on" : "off");
    bench_config("stack_check", K_CONFIG_STACK_CHECK ? "on" : "off");
    bench_config("assertions", K_CONFIG_ASSERT ? "on" : "off");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("mutex", "priority inheritance (transitive), deadlock detection");
    bench_config("allocation", "static: threads in suite memory, objects in the port's tables");
    bench_config("memory", "k_mempool: 4 blocks of 128 bytes (no heap; larger requests fail)");
    bench_config("timer_context", "time source interrupt");
    bench_config("oneshot_rounding", "k_timer_start(delay = K_USEC(us), period 0): one kernel time unit = one cycle, exact");
    bench_config("isr_api", "k_sem_signal_irq (k_sem_signal_isr for handlers with interrupts enabled; switch on return)");
    bench_config("port_calls", "inline (rtb_port_inline.h): yield, priority set, sem wait/signal/signal_isr, mutex lock/unlock");
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    static struct k_thread ctrl;
    k_thread_create(&ctrl, stack, stack_bytes, main_fn, 0, rtb_rtoslab_kprio(RTB_PRIO_CTRL));
    k_start();
}

/* ---- threads ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    size_t tcb = (sizeof(struct k_thread) + 7u) & ~(size_t)7u;
    if (id < 0 || id >= RTB_MAX_THREADS || stack_bytes < tcb + K_THREAD_STACK_MIN)
        return RTB_ERROR;
    struct k_thread *t = (struct k_thread *)((char *)stack + stack_bytes - tcb);
    /* fresh memory for the kernel (it may hold an old, dead thread): word stores, unrolled
     * (newlib's memset took 84 cycles of thread.create_* for these few words) */
    volatile uint32_t *w = (volatile uint32_t *)t;
#pragma GCC unroll 16
    for (unsigned i = 0; i < sizeof *t / 4u; i++)
        w[i] = 0;
    rtb_rtoslab_threads[id] = t;
    return k_thread_create(t, stack, stack_bytes - tcb, fn, arg, rtb_rtoslab_kprio(prio)) == K_OK ? RTB_OK : RTB_ERROR;
}

void rtb_thread_delete(int id)
{
    if (rtb_rtoslab_threads[id]) {
        k_thread_abort(rtb_rtoslab_threads[id]);
        rtb_rtoslab_threads[id] = 0;
    }
}

void rtb_suspend(int id) { k_thread_suspend(id == RTB_SELF ? NULL : rtb_rtoslab_threads[id]); }
void rtb_resume(int id) { k_thread_resume(rtb_rtoslab_threads[id]); }

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    return k_sem_init(&rtb_rtoslab_sems[id], initial, max > 255u ? 0u : max) == K_OK ? RTB_OK : RTB_ERROR;
}
void rtb_sem_delete(int id) { k_sem_destroy(&rtb_rtoslab_sems[id]); }

/* ---- mutexes ---- */
int rtb_mutex_create(int id) { return k_mutex_init(&rtb_rtoslab_mutexes[id]) == K_OK ? RTB_OK : RTB_ERROR; }
void rtb_mutex_delete(int id) { k_mutex_destroy(&rtb_rtoslab_mutexes[id]); }

/* ---- queues ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    if (msg_bytes * depth > sizeof qbuf[0])
        return RTB_ERROR;
    return k_queue_init(&rtb_rtoslab_queues[id], qbuf[id], msg_bytes, depth) == K_OK ? RTB_OK : RTB_ERROR;
}
void rtb_queue_delete(int id) { k_queue_destroy(&rtb_rtoslab_queues[id]); }
/* send, receive: inline (rtb_port_inline.h) */

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { k_sleep(K_USEC(us)); }

static void timer_tramp(struct k_timer *t, void *arg)
{
    (void)t;
    int id = (int)(intptr_t)arg;
    timer_cb[id].cb(timer_cb[id].arg);
}
static k_timeout_t timer_period[RTB_MAX_TIMERS];
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    timer_period[id] = K_USEC(period_us);
    return k_timer_init(&timers[id], timer_tramp, (void *)(intptr_t)id) == K_OK ? RTB_OK : RTB_ERROR;
}
void rtb_timer_start(int id) { k_timer_start(&timers[id], timer_period[id], timer_period[id]); }
void rtb_timer_stop(int id) { k_timer_stop(&timers[id]); }
int rtb_timer_once(int id, uint32_t delay_us)
{
    return k_timer_start(&timers[id], K_USEC(delay_us), 0) == K_OK ? RTB_OK : RTB_ERROR;
}
void rtb_timer_delete(int id) { k_timer_stop(&timers[id]); }

/* ---- memory: a kernel memory pool of 128-byte blocks (no heap) ---- */
#define RTB_RTOSLAB_MEM_BLOCK 128u
K_MEMPOOL_DEFINE(rtb_rtoslab_pool, RTB_RTOSLAB_MEM_BLOCK, 4);
void *rtb_mem_alloc(size_t bytes)
{
    return bytes <= RTB_RTOSLAB_MEM_BLOCK ? k_mempool_alloc(&rtb_rtoslab_pool) : 0;
}
void rtb_mem_free(void *p)
{
    if (p)
        k_mempool_free(&rtb_rtoslab_pool, p);
}

/* ---- interrupts: the kernel switches on return from an ISR that woke a thread ----
 * rtb_yield, rtb_sem_wait/signal/signal_isr and rtb_mutex_lock/unlock are inline
 * (rtb_port_inline.h). */
