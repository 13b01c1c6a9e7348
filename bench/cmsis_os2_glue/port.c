/*
 * The benchmark suite's porting layer over CMSIS-RTOS2 (cmsis_os2.h): each rtb_* call is the
 * osXxx call an application written for CMSIS-RTOS2 would make. One glue for every RTOS
 * measured through the API (bench/ports/<id>-cmsis): set beside the RTOS's native port, the
 * difference is what the API layer costs (docs/results.md, "Through CMSIS-RTOS2").
 *
 * What the RTOS's port folder gives (its rtb_port_caps.h): RTB_OS2_THREAD_CB, RTB_OS2_SEM_CB,
 * RTB_OS2_MUTEX_CB, RTB_OS2_QUEUE_CB, RTB_OS2_TIMER_CB, RTB_OS2_POOL_CB, the control block
 * sizes of its objects; RTB_OS2_PRIO(p), the CMSIS
 * priority of portable priority p (RTB_PRIO_CTRL: the controller); and rtb_os2_port_config(),
 * its @config lines.
 *
 * Memory as in the RTOS's native port: a thread's control block sits at the top of the memory
 * the suite gives; the other objects' in static tables given through the attributes, or, where
 * the native port takes them from the RTOS's heap (RTB_OS2_STATIC_OBJECTS 0: FreeRTOS), from
 * the RTOS's own allocation (the attributes' memory NULL).
 * Time: the API counts kernel ticks (osKernelGetTickFreq), so microseconds become ticks,
 * rounded up, plus one (a delay of n ticks may end up to a tick early on a ticked kernel).
 */
#include <string.h>

#include "bench.h"
#include "cmsis_os2.h"

void rtb_os2_port_config(void);

static osThreadId_t threads[RTB_MAX_THREADS];
#define WORDS(bytes) (((bytes) + 7u) / 8u)
#if RTB_OS2_STATIC_OBJECTS
static uint64_t sem_cb[RTB_MAX_SEMS][WORDS(RTB_OS2_SEM_CB)];
static uint64_t mutex_cb[RTB_MAX_MUTEXES][WORDS(RTB_OS2_MUTEX_CB)];
static uint64_t queue_cb[RTB_MAX_QUEUES][WORDS(RTB_OS2_QUEUE_CB)];
static uint64_t timer_cb_mem[RTB_MAX_TIMERS][WORDS(RTB_OS2_TIMER_CB)];
static uint32_t qbuf[RTB_MAX_QUEUES][128 / 4]; /* 128: rhealstone.message_passing.seed001 */
#define CB(mem) .cb_mem = (mem), .cb_size = sizeof(mem)
#define QBUF(id, bytes) .mq_mem = qbuf[id], .mq_size = (uint32_t)(bytes)
#define QBUF_BYTES sizeof qbuf[0]
/* An object's id is its control block's address (rtoslab's layer, RTX5: checked at creation):
 * no table of ids (160 bytes of RAM the 16 KiB boards lack) */
#define HANDLE(table, id) ((void *)(table)[id])
#define KEEP(table, id, h) ((h) == HANDLE(table, id) ? (h) : NULL)
#define sems_id(id) HANDLE(sem_cb, id)
#define mutexes_id(id) HANDLE(mutex_cb, id)
#define queues_id(id) HANDLE(queue_cb, id)
#define timers_id(id) HANDLE(timer_cb_mem, id)
#define SEM_KEEP(id, h) (KEEP(sem_cb, id, h) != NULL)
#define MUTEX_KEEP(id, h) (KEEP(mutex_cb, id, h) != NULL)
#define QUEUE_KEEP(id, h) (KEEP(queue_cb, id, h) != NULL)
#define TIMER_KEEP(id, h) (KEEP(timer_cb_mem, id, h) != NULL)
#define FORGET(table, id) ((void)0)
#else
#define CB(mem) .cb_mem = NULL
#define QBUF(id, bytes) .mq_mem = NULL
#define QBUF_BYTES 128u
/* ids from the RTOS's allocation: kept in tables */
static osSemaphoreId_t sems[RTB_MAX_SEMS];
static osMutexId_t mutexes[RTB_MAX_MUTEXES];
static osMessageQueueId_t queues[RTB_MAX_QUEUES];
static osTimerId_t timers[RTB_MAX_TIMERS];
#define sems_id(id) sems[id]
#define mutexes_id(id) mutexes[id]
#define queues_id(id) queues[id]
#define timers_id(id) timers[id]
#define SEM_KEEP(id, h) ((sems[id] = (h)) != NULL)
#define MUTEX_KEEP(id, h) ((mutexes[id] = (h)) != NULL)
#define QUEUE_KEEP(id, h) ((queues[id] = (h)) != NULL)
#define TIMER_KEEP(id, h) ((timers[id] = (h)) != NULL)
#define FORGET(table, id) ((table)[id] = NULL)
#endif
static uint64_t pool_cb[WORDS(RTB_OS2_POOL_CB)];
static struct { void (*cb)(void *); void *arg; uint32_t period; } timer_fn[RTB_MAX_TIMERS];
static osMemoryPoolId_t pool;
#define MEM_BLOCK 128u
static uint32_t pool_mem[4 * MEM_BLOCK / 4];

static uint32_t ticks(uint32_t us)
{
    if (us == RTB_FOREVER)
        return osWaitForever;
    if (us == 0u)
        return 0u;
    uint32_t hz = osKernelGetTickFreq();
    return (uint32_t)(((uint64_t)us * hz + 999999u) / 1000000u) + 1u;
}

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided through CMSIS-RTOS2";
}

void rtb_port_config(void)
{
    rtb_os2_port_config();
    bench_config("api", "CMSIS-RTOS2 (cmsis_os2.h of CMSIS 6.2.0), every call out of line (bench/cmsis_os2_glue)");
    bench_config_u("api_tick_hz", osKernelGetTickFreq());
    bench_config("delay_rounding", "ceil(us/tick)+1 API ticks");
    bench_config("allocation", RTB_OS2_STATIC_OBJECTS
                 ? "static: threads in suite memory, objects in the glue's tables (cb_mem, mq_mem, mp_mem)"
                 : "threads static (suite memory); semaphores, mutexes, queues, timers from the RTOS's heap (cb_mem NULL)");
    bench_config("memory", "osMemoryPool: 4 blocks of 128 bytes");
    bench_config("timer_context", "the CMSIS-RTOS2 timer thread");
    bench_config("isr_api", "osSemaphoreRelease from the handler");
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    static uint64_t ctrl_cb[WORDS(RTB_OS2_THREAD_CB)];
    const osThreadAttr_t attr = {.name = "ctrl", .cb_mem = ctrl_cb, .cb_size = sizeof ctrl_cb,
                                 .stack_mem = stack, .stack_size = (uint32_t)stack_bytes,
                                 .priority = RTB_OS2_PRIO(RTB_PRIO_CTRL)};
    osKernelInitialize();
    const osMemoryPoolAttr_t pattr = {.cb_mem = pool_cb, .cb_size = sizeof pool_cb,
                                      .mp_mem = pool_mem, .mp_size = sizeof pool_mem};
    pool = osMemoryPoolNew(4, MEM_BLOCK, &pattr);
    osThreadNew(main_fn, NULL, &attr);
    osKernelStart();
    for (;;) {
    }
}

/* ---- threads ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    size_t cb = (RTB_OS2_THREAD_CB + 7u) & ~(size_t)7u;
    if (id < 0 || id >= RTB_MAX_THREADS || stack_bytes < cb + 128u)
        return RTB_ERROR;
    const osThreadAttr_t attr = {.name = "t", .cb_mem = (char *)stack + stack_bytes - cb, .cb_size = (uint32_t)cb,
                                 .stack_mem = stack, .stack_size = (uint32_t)(stack_bytes - cb),
                                 .priority = RTB_OS2_PRIO(prio)};
    threads[id] = osThreadNew(fn, arg, &attr);
    return threads[id] ? RTB_OK : RTB_ERROR;
}

void rtb_thread_delete(int id)
{
    if (threads[id]) {
        osThreadTerminate(threads[id]);
        threads[id] = NULL;
    }
}

void rtb_yield(void) { osThreadYield(); }
void rtb_suspend(int id) { osThreadSuspend(id == RTB_SELF ? osThreadGetId() : threads[id]); }
void rtb_resume(int id) { osThreadResume(threads[id]); }
void rtb_prio_set(int id, int prio)
{
    osThreadSetPriority(id == RTB_SELF ? osThreadGetId() : threads[id], RTB_OS2_PRIO(prio));
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    const osSemaphoreAttr_t attr = {CB(sem_cb[id])};
    return SEM_KEEP(id, osSemaphoreNew(max, initial, &attr)) ? RTB_OK : RTB_ERROR;
}
void rtb_sem_delete(int id)
{
    osSemaphoreDelete(sems_id(id)); /* (an id not made: osErrorParameter, nothing done) */
    FORGET(sems, id);
}
int rtb_sem_wait(int id, uint32_t timeout_us)
{
    return osSemaphoreAcquire(sems_id(id), ticks(timeout_us)) == osOK ? RTB_OK : RTB_TIMEOUT;
}
void rtb_sem_signal(int id) { osSemaphoreRelease(sems_id(id)); }
void rtb_sem_signal_isr(int id) { osSemaphoreRelease(sems_id(id)); }

/* ---- mutexes ---- */
int rtb_mutex_create(int id)
{
    const osMutexAttr_t attr = {.attr_bits = osMutexPrioInherit, CB(mutex_cb[id])};
    return MUTEX_KEEP(id, osMutexNew(&attr)) ? RTB_OK : RTB_ERROR;
}
void rtb_mutex_delete(int id)
{
    osMutexDelete(mutexes_id(id));
    FORGET(mutexes, id);
}
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    osStatus_t s = osMutexAcquire(mutexes_id(id), ticks(timeout_us));
    if (s == osOK)
        return RTB_OK;
    /* osErrorResource on a wait that was allowed: the lock was refused (a wait-for cycle) */
    return s == osErrorResource && timeout_us != 0u ? RTB_DEADLOCK : RTB_TIMEOUT;
}
void rtb_mutex_unlock(int id) { osMutexRelease(mutexes_id(id)); }

/* ---- queues ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
#ifdef RTB_OS2_QUEUE_MSG_MAX
    if (msg_bytes > RTB_OS2_QUEUE_MSG_MAX)
        return RTB_ERROR; /* (the port's RTB_PORT_QUEUE_128_ABSENT says why) */
#endif
    if (msg_bytes * depth > QBUF_BYTES)
        return RTB_ERROR;
    const osMessageQueueAttr_t attr = {CB(queue_cb[id]), QBUF(id, msg_bytes * depth)};
    return QUEUE_KEEP(id, osMessageQueueNew(depth, (uint32_t)msg_bytes, &attr)) ? RTB_OK : RTB_ERROR;
}
void rtb_queue_delete(int id)
{
    osMessageQueueDelete(queues_id(id));
    FORGET(queues, id);
}
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    return osMessageQueuePut(queues_id(id), msg, 0, ticks(timeout_us)) == osOK ? RTB_OK : RTB_TIMEOUT;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    return osMessageQueueGet(queues_id(id), msg, NULL, ticks(timeout_us)) == osOK ? RTB_OK : RTB_TIMEOUT;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { osDelay(ticks(us)); }

static void timer_tramp(void *arg)
{
    int id = (int)(intptr_t)arg;
    timer_fn[id].cb(timer_fn[id].arg);
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    timer_fn[id].cb = cb;
    timer_fn[id].arg = arg;
    timer_fn[id].period = ticks(period_us) - 1u; /* a period: ceil(us/tick), not one more */
    const osTimerAttr_t attr = {CB(timer_cb_mem[id])};
    return TIMER_KEEP(id, osTimerNew(timer_tramp, osTimerPeriodic, (void *)(intptr_t)id, &attr)) ? RTB_OK
                                                                                            : RTB_ERROR;
}
void rtb_timer_start(int id) { osTimerStart(timers_id(id), timer_fn[id].period ? timer_fn[id].period : 1u); }
void rtb_timer_stop(int id) { osTimerStop(timers_id(id)); }
void rtb_timer_delete(int id)
{
    osTimerDelete(timers_id(id));
    FORGET(timers, id);
}

/* ---- memory: an osMemoryPool of 128-byte blocks ---- */
void *rtb_mem_alloc(size_t bytes) { return bytes <= MEM_BLOCK ? osMemoryPoolAlloc(pool, 0) : NULL; }
void rtb_mem_free(void *p)
{
    if (p)
        osMemoryPoolFree(pool, p);
}
