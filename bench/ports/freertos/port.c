/*
 * The FreeRTOS port of the benchmark suite: each rtb_* call is the FreeRTOS call an
 * application would make. Priorities map 1:1 (FreeRTOS 0 is the idle task).
 */
#include <string.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "bench.h"

/* threads, semaphores, mutexes and queues: not static, the inline hot calls use them (rtb_port_inline.h) */
TaskHandle_t rtb_freertos_threads[RTB_MAX_THREADS];
SemaphoreHandle_t rtb_freertos_sems[RTB_MAX_SEMS];
SemaphoreHandle_t rtb_freertos_mutexes[RTB_MAX_MUTEXES];
QueueHandle_t rtb_freertos_queues[RTB_MAX_QUEUES];
static TimerHandle_t timers[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; } timer_cb[RTB_MAX_TIMERS];
volatile BaseType_t rtb_freertos_woken; /* rtb_port_inline.h says why it is global */

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided by the FreeRTOS port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "FreeRTOS-Kernel " tskKERNEL_VERSION_NUMBER " (crates.io freertos-next 0.12.0), portable/GCC/" RTB_FREERTOS_PORT);
    bench_config_u("tick_hz", configTICK_RATE_HZ);
    bench_config("tickless", "no");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("assertions", "off");
    bench_config("trace", "off");
    bench_config("allocation", "threads static (suite memory); semaphores, mutexes, queues, timers from heap_4");
    bench_config_u("heap_bytes", configTOTAL_HEAP_SIZE);
    bench_config("delay_rounding", "ceil(us/tick)+1 ticks: never shorter than requested");
    bench_config("timer_context", "timer service task, priority above the controller");
    bench_config("oneshot_rounding", "xTimerChangePeriod to ceil(us/tick)+1 ticks, auto-reload off: never shorter than requested");
    bench_config("isr_api", "xSemaphoreGiveFromISR + portYIELD_FROM_ISR");
    bench_config("idle", "WFI in the idle hook");
}

/* ---- start ---- */
static StaticTask_t ctrl_tcb;
static rtb_entry_t ctrl_fn;

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    ctrl_fn = main_fn;
    xTaskCreateStatic(main_fn, "C", (configSTACK_DEPTH_TYPE)(stack_bytes / sizeof(StackType_t)), NULL,
                      RTB_PRIO_CTRL, (StackType_t *)stack, &ctrl_tcb);
    vTaskStartScheduler();
    for (;;) {
    }
}

/* ---- threads: the control block sits at the top of the memory the suite gives ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    size_t tcb_bytes = (sizeof(StaticTask_t) + 7u) & ~(size_t)7u;
    if (id < 0 || id >= RTB_MAX_THREADS || stack_bytes < tcb_bytes + 128u)
        return RTB_ERROR;
    StaticTask_t *tcb = (StaticTask_t *)((char *)stack + stack_bytes - tcb_bytes);
    StackType_t *stk = (StackType_t *)stack;
    configSTACK_DEPTH_TYPE depth = (configSTACK_DEPTH_TYPE)((stack_bytes - tcb_bytes) / sizeof(StackType_t));
    rtb_freertos_threads[id] = xTaskCreateStatic(fn, "t", depth, arg, (UBaseType_t)prio, stk, tcb);
    return rtb_freertos_threads[id] ? RTB_OK : RTB_ERROR;
}

void rtb_thread_delete(int id)
{
    if (rtb_freertos_threads[id]) {
        vTaskDelete(rtb_freertos_threads[id]);
        rtb_freertos_threads[id] = NULL;
    }
}

void rtb_suspend(int id) { vTaskSuspend(id == RTB_SELF ? NULL : rtb_freertos_threads[id]); }
void rtb_resume(int id) { vTaskResume(rtb_freertos_threads[id]); }

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    rtb_freertos_sems[id] = xSemaphoreCreateCounting(max, initial);
    return rtb_freertos_sems[id] ? RTB_OK : RTB_ERROR;
}
void rtb_sem_delete(int id)
{
    if (rtb_freertos_sems[id]) {
        vSemaphoreDelete(rtb_freertos_sems[id]);
        rtb_freertos_sems[id] = NULL;
    }
}
/* wait, signal, signal from an ISR: inline (rtb_port_inline.h) */

/* ---- mutexes ---- */
int rtb_mutex_create(int id)
{
    rtb_freertos_mutexes[id] = xSemaphoreCreateMutex();
    return rtb_freertos_mutexes[id] ? RTB_OK : RTB_ERROR;
}
void rtb_mutex_delete(int id)
{
    if (rtb_freertos_mutexes[id]) {
        vSemaphoreDelete(rtb_freertos_mutexes[id]);
        rtb_freertos_mutexes[id] = NULL;
    }
}
/* lock, unlock: inline (rtb_port_inline.h) */

/* ---- queues ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    rtb_freertos_queues[id] = xQueueCreate(depth, msg_bytes);
    return rtb_freertos_queues[id] ? RTB_OK : RTB_ERROR;
}
void rtb_queue_delete(int id)
{
    if (rtb_freertos_queues[id]) {
        vQueueDelete(rtb_freertos_queues[id]);
        rtb_freertos_queues[id] = NULL;
    }
}
/* send, receive: inline (rtb_port_inline.h) */

/* ---- time ---- */
void rtb_delay_us(uint32_t us) { vTaskDelay(rtb_freertos_ticks(us)); }

static void timer_tramp(TimerHandle_t t)
{
    int id = (int)(intptr_t)pvTimerGetTimerID(t);
    timer_cb[id].cb(timer_cb[id].arg);
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    TickType_t p = (TickType_t)(((uint64_t)period_us * configTICK_RATE_HZ + 999999u) / 1000000u);
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    timers[id] = xTimerCreate("T", p ? p : 1, pdTRUE, (void *)(intptr_t)id, timer_tramp);
    return timers[id] ? RTB_OK : RTB_ERROR;
}
void rtb_timer_start(int id) { xTimerStart(timers[id], portMAX_DELAY); }
void rtb_timer_stop(int id) { xTimerStop(timers[id], portMAX_DELAY); }
int rtb_timer_once(int id, uint32_t delay_us)
{
    /* as rtb_delay_us: ceil(us/tick) + 1 ticks, never shorter than asked */
    TickType_t p = (TickType_t)(((uint64_t)delay_us * configTICK_RATE_HZ + 999999u) / 1000000u) + 1u;
    vTimerSetReloadMode(timers[id], pdFALSE);
    return xTimerChangePeriod(timers[id], p, portMAX_DELAY) == pdPASS ? RTB_OK : RTB_ERROR;
}
void rtb_timer_delete(int id)
{
    if (timers[id]) {
        xTimerDelete(timers[id], portMAX_DELAY);
        timers[id] = NULL;
    }
}

/* ---- memory ---- */
void *rtb_mem_alloc(size_t bytes) { return pvPortMalloc(bytes); }
void rtb_mem_free(void *p) { vPortFree(p); }

/* ---- interrupts: the handlers end in portYIELD_FROM_ISR (rtb_port_isr.h) ---- */
