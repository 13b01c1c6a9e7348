/*
 * The Keil RTX5 port of the benchmark suite: each rtb_* call is the CMSIS-RTOS2 call an
 * application makes (osThreadNew, osSemaphoreNew, osMutexAcquire, osMessageQueuePut,
 * osTimerStart, osMemoryPoolAlloc, ...), RTX5 being configured by RTX_Config.h (this
 * directory). Every object is static: its control block (and a queue's or a pool's data) is
 * the port's memory, given through the attributes' cb_mem/mq_mem/mp_mem, a thread's control
 * block at the top of the memory the suite gives it. The hot calls are inline
 * (rtb_port_inline.h). Priorities: portable 1..8 are osPriorityNormal+1..+8, the controller
 * osPriorityNormal+9.
 */
#include "cmsis_os2.h"
#include "rtx_os.h"

#include "bench.h"

/* An osSemaphoreRelease from a handler waits in RTX5's ISR queue until PendSV (RTX_Config.h),
 * and a full queue stops the kernel (osRtxErrorNotify): room for the suite's largest burst
 * (bench.h). */
_Static_assert(OS_ISR_FIFO_QUEUE >= BENCH_MAX_ISR_SIGNALS, "RTX5's ISR queue overflows");

osRtxSemaphore_t rtb_rtx_sems[RTB_MAX_SEMS];
osRtxMutex_t rtb_rtx_mutexes[RTB_MAX_MUTEXES];
osRtxMessageQueue_t rtb_rtx_queues[RTB_MAX_QUEUES];
osThreadId_t rtb_rtx_threads[RTB_MAX_THREADS];
static uint64_t sems_made;
static uint64_t threads_made; /* bit per thread id (40) */
static uint32_t mutexes_made, queues_made, timers_made;

/* A queue's messages: one 128-byte message (rhealstone.message_passing.seed001) or the
 * suite's small ones; RTX5 keeps a 12-byte header beside each message. */
#define QUEUE_DATA_BYTES osRtxMessageQueueMemSize(1, 128)
static uint32_t queue_data[RTB_MAX_QUEUES][QUEUE_DATA_BYTES / sizeof(uint32_t)];

/* Timers: RTX5 fixes a timer's type at creation, so each of the suite's timers is two RTX
 * timers with the same callback, a periodic one (rtb_timer_start) and a one-shot one
 * (rtb_timer_once). */
static osRtxTimer_t timer_cb[RTB_MAX_TIMERS][2];
static osTimerId_t timer_periodic[RTB_MAX_TIMERS], timer_once[RTB_MAX_TIMERS];
static uint32_t timer_ticks[RTB_MAX_TIMERS];

/* The memory of rtb_mem_*: an RTX5 memory pool of one 128-byte block (the suite holds one
 * block at a time, tm.memory, like the floor). */
static osRtxMemoryPool_t pool_cb;
static uint32_t pool_data[osRtxMemoryPoolMemSize(1, 128) / sizeof(uint32_t)];
static osMemoryPoolId_t pool;

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap; /* never called: RTB_CAPS is every service */
    return "not provided by the RTX5 port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "Keil RTX5 " RTB_PORT_VERSION " (CMSIS-RTX v5.9.1 b566de4, CMSIS 6.2.0 core), Source/GCC/irq_"
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
                           "armv7m.S"
#else
                           "armv6m.S"
#endif
    );
#if RTB_RTX_TICKLESS
    bench_config("tickless", "yes: RTX5's idle thread sleeps through osKernelSuspend/osKernelResume, SysTick "
                             "reloaded for the ticks until the next timeout (rtx5_idle.c, bench/cmsis/os_tick_systick.c)");
#else
    bench_config("tickless", "no (RTB_RTX_TICKLESS=0): WFI in the idle thread, the tick running");
#endif
    bench_config_u("tick_hz", OS_TICK_FREQ);
    bench_config("preemption", "on");
    bench_config("time_slicing", "off (OS_ROBIN_ENABLE 0)");
    bench_config("checks", "no stack check, no watermark, no safety features (no object- or SVC-pointer checks); "
                           "RTX5's parameter checks are always in");
    bench_config("assertions", "none in RTX5; no event recorder (EVR_RTX_DISABLE)");
    bench_config("mutex", "osMutexPrioInherit, not recursive, not robust; no deadlock detection (timeouts break cycles)");
    bench_config("allocation", "static: control blocks and queue/pool data in the port's tables through cb_mem/mq_mem/mp_mem, "
                               "thread control blocks at the top of the suite's memory, OS_DYNAMIC_MEM_SIZE 0");
    bench_config("timer_context", "RTX5's timer thread (OS_TIMER_THREAD_PRIO 40, above the controller)");
    bench_config("isr_api", "osSemaphoreRelease from a plain C handler (its isrRtx form, PendSV when a thread wakes)");
    bench_config("delay_rounding", "ceil(us/tick)+1 ticks: never shorter than requested");
    bench_config("oneshot_rounding", "an osTimerOnce timer started for ceil(us/tick)+1 ticks: never before the delay");
#if RTB_RTX_TICKLESS
    bench_config("idle", "RTX5's idle thread: osKernelSuspend, WFI with SysTick set for the ticks until the next timeout, osKernelResume");
#else
    bench_config("idle", "RTX5's idle thread: WFI");
#endif
    bench_config("port_calls", "inline (rtb_port_inline.h): yield, priority set, sem wait/signal/signal_isr, "
                               "mutex lock/unlock, queue send/receive");
}

/* ---- start ---- */
static osRtxThread_t ctrl_cb;

/* A thread's memory from the suite: its control block at the top (4-byte aligned, as RTX5
 * requires), the rest its stack (8-byte aligned, a multiple of 8 bytes). */
static void thread_attr(osThreadAttr_t *a, void *mem, size_t bytes, osRtxThread_t *cb)
{
    uintptr_t lo = ((uintptr_t)mem + 7u) & ~(uintptr_t)7u;
    uintptr_t top = (uintptr_t)mem + bytes;
    if (cb == NULL) {
        top = (top - sizeof(osRtxThread_t)) & ~(uintptr_t)3u;
        cb = (osRtxThread_t *)top;
    }
    *a = (osThreadAttr_t){0};
    a->attr_bits = osThreadDetached;
    a->cb_mem = cb;
    a->cb_size = sizeof(osRtxThread_t);
    a->stack_mem = (void *)lo;
    a->stack_size = (uint32_t)((top - lo) & ~(uintptr_t)7u);
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    osKernelInitialize();
    osMemoryPoolAttr_t pa = {.cb_mem = &pool_cb, .cb_size = sizeof pool_cb, .mp_mem = pool_data,
                             .mp_size = sizeof pool_data};
    pool = osMemoryPoolNew(1, 128, &pa);
    osThreadAttr_t a;
    thread_attr(&a, stack, stack_bytes, &ctrl_cb);
    a.name = "C";
    a.priority = rtb_rtx_prio(RTB_PRIO_CTRL);
    osThreadNew(main_fn, NULL, &a);
    osKernelStart(); /* SysTick through OS_Tick_Setup, the controller runs */
    for (;;) {
    }
}

/* ---- threads: the entry is the suite's function itself (osThreadFunc_t is its type) ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    if (id < 0 || id >= RTB_MAX_THREADS || (threads_made & (1ull << id)))
        return RTB_ERROR;
    osThreadAttr_t a;
    thread_attr(&a, stack, stack_bytes, NULL);
    a.priority = rtb_rtx_prio(prio);
    osThreadId_t t = osThreadNew(fn, arg, &a);
    if (t == NULL)
        return RTB_ERROR;
    rtb_rtx_threads[id] = t;
    threads_made |= 1ull << id;
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    if (threads_made & (1ull << id)) {
        osThreadTerminate(rtb_rtx_threads[id]);
        threads_made &= ~(1ull << id);
    }
}

/* RTX5's osThreadResume ends any blocked state, a wait on an object or a delay too
 * (rtx_thread.c, svcRtxThreadResume); the porting layer wants rtb_resume of a thread that is
 * not suspended to be a no-op. A thread that osThreadSuspend blocked has the state
 * osRtxThreadBlocked exactly (a waiting thread has a waiting state, osRtxThreadWaitingXxx),
 * and only osThreadResume or osThreadTerminate change it: the port resumes only such a
 * thread. CMSIS-RTOS2 has no "self" handle: RTB_SELF is osThreadGetId(), as in an
 * application. */
void rtb_suspend(int id) { osThreadSuspend(id == RTB_SELF ? osThreadGetId() : rtb_rtx_threads[id]); }
void rtb_resume(int id)
{
    osThreadId_t t = rtb_rtx_threads[id];
    if ((threads_made & (1ull << id)) && ((const osRtxThread_t *)t)->state == osRtxThreadBlocked)
        osThreadResume(t);
}

/* ---- semaphores: counting, with the suite's maximum ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    if (id < 0 || id >= RTB_MAX_SEMS)
        return RTB_ERROR;
    if (sems_made & (1ull << id))
        rtb_sem_delete(id);
    if (max < initial)
        max = initial;
    if (max == 0u)
        max = 1u;
    osSemaphoreAttr_t a = {.cb_mem = &rtb_rtx_sems[id], .cb_size = sizeof rtb_rtx_sems[id]};
    if (osSemaphoreNew(max, initial, &a) == NULL)
        return RTB_ERROR;
    sems_made |= 1ull << id;
    return RTB_OK;
}
void rtb_sem_delete(int id)
{
    if (sems_made & (1ull << id)) {
        osSemaphoreDelete(&rtb_rtx_sems[id]);
        sems_made &= ~(1ull << id);
    }
}

/* ---- mutexes: priority inheritance ---- */
int rtb_mutex_create(int id)
{
    if (mutexes_made & (1u << id))
        rtb_mutex_delete(id);
    osMutexAttr_t a = {.attr_bits = osMutexPrioInherit, .cb_mem = &rtb_rtx_mutexes[id],
                       .cb_size = sizeof rtb_rtx_mutexes[id]};
    if (osMutexNew(&a) == NULL)
        return RTB_ERROR;
    mutexes_made |= 1u << id;
    return RTB_OK;
}
void rtb_mutex_delete(int id)
{
    if (mutexes_made & (1u << id)) {
        osMutexDelete(&rtb_rtx_mutexes[id]);
        mutexes_made &= ~(1u << id);
    }
}

/* ---- queues: RTX5 copies the messages ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    if (depth == 0 || msg_bytes == 0 || osRtxMessageQueueMemSize(depth, msg_bytes) > sizeof queue_data[id])
        return RTB_ERROR;
    if (queues_made & (1u << id))
        rtb_queue_delete(id);
    osMessageQueueAttr_t a = {.cb_mem = &rtb_rtx_queues[id], .cb_size = sizeof rtb_rtx_queues[id],
                              .mq_mem = queue_data[id],
                              .mq_size = osRtxMessageQueueMemSize(depth, msg_bytes)};
    if (osMessageQueueNew(depth, (uint32_t)msg_bytes, &a) == NULL)
        return RTB_ERROR;
    queues_made |= 1u << id;
    return RTB_OK;
}
void rtb_queue_delete(int id)
{
    if (queues_made & (1u << id)) {
        osMessageQueueDelete(&rtb_rtx_queues[id]);
        queues_made &= ~(1u << id);
    }
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { osDelay(rtb_rtx_ticks(us)); }

/* A period of n ticks: a periodic timer started for n ticks fires at the n-th tick from
 * now, then every n ticks. */
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    uint32_t p = period_us / RTB_RTX_US_PER_TICK + (period_us % RTB_RTX_US_PER_TICK != 0u);
    if (p == 0)
        p = 1;
    if (timers_made & (1u << id))
        rtb_timer_delete(id);
    timer_ticks[id] = p;
    osTimerAttr_t a = {.cb_mem = &timer_cb[id][0], .cb_size = sizeof timer_cb[id][0]};
    timer_periodic[id] = osTimerNew(cb, osTimerPeriodic, arg, &a);
    a.cb_mem = &timer_cb[id][1];
    timer_once[id] = osTimerNew(cb, osTimerOnce, arg, &a);
    if (timer_periodic[id] == NULL || timer_once[id] == NULL)
        return RTB_ERROR;
    timers_made |= 1u << id;
    return RTB_OK;
}
void rtb_timer_start(int id) { osTimerStart(timer_periodic[id], timer_ticks[id]); }
/* Stops the timer whichever way it runs (periodic, or a pending one shot). */
void rtb_timer_stop(int id)
{
    osTimerStop(timer_periodic[id]);
    osTimerStop(timer_once[id]);
}
/* One shot: the one-shot twin started (or restarted) for ceil(us/tick) + 1 ticks, as the
 * delays: the first tick may come at once, so the callback is never early. */
int rtb_timer_once(int id, uint32_t delay_us)
{
    return osTimerStart(timer_once[id], rtb_rtx_ticks(delay_us ? delay_us : 1u)) == osOK ? RTB_OK : RTB_ERROR;
}
void rtb_timer_delete(int id)
{
    if (timers_made & (1u << id)) {
        osTimerDelete(timer_periodic[id]);
        osTimerDelete(timer_once[id]);
        timers_made &= ~(1u << id);
    }
}

/* ---- memory: an RTX5 memory pool of one 128-byte block ---- */
void *rtb_mem_alloc(size_t bytes)
{
    if (bytes > 128)
        return NULL;
    return osMemoryPoolAlloc(pool, 0u);
}
void rtb_mem_free(void *p)
{
    if (p)
        osMemoryPoolFree(pool, p);
}

/* ---- interrupts: the suite's default rtb_irq_install (bench_core.c) and plain handlers ---- */
