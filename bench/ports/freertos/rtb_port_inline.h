/*
 * The FreeRTOS port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of
 * rtb_port.h, docs/porting.md "Inline hot calls"): the same FreeRTOS calls as port.c made
 * out of line (xSemaphoreTake, xSemaphoreGive, ...), with the index-to-handle lookup and the
 * timeout conversion folded by the compiler for constant arguments, as every other port's.
 * Included by rtb_port.h only; port.c has the rest.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

/* The handles (port.c): semaphores, mutexes and queues come from heap_4, the tasks'
 * control blocks from the suite's memory. */
extern TaskHandle_t rtb_freertos_threads[RTB_MAX_THREADS];
extern SemaphoreHandle_t rtb_freertos_sems[RTB_MAX_SEMS];
extern SemaphoreHandle_t rtb_freertos_mutexes[RTB_MAX_MUTEXES];
extern QueueHandle_t rtb_freertos_queues[RTB_MAX_QUEUES];
/* xHigherPriorityTaskWoken of the running handler, for portYIELD_FROM_ISR in its epilogue
 * (rtb_port_isr.h): global because the suite's handler body is a function of its own. */
extern volatile BaseType_t rtb_freertos_woken;

/* A delay or timeout of `us` in ticks: at least `us` whatever the phase of the tick
 * (the first tick may come at once, hence the + 1). */
static inline __attribute__((always_inline)) TickType_t rtb_freertos_ticks(uint32_t us)
{
    if (us == RTB_FOREVER)
        return portMAX_DELAY;
    if (us == 0)
        return 0;
    return (TickType_t)(((uint64_t)us * configTICK_RATE_HZ + 999999u) / 1000000u) + 1u;
}

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    taskYIELD();
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    vTaskPrioritySet(id == RTB_SELF ? NULL : rtb_freertos_threads[id], (UBaseType_t)prio);
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    return xSemaphoreTake(rtb_freertos_sems[id], rtb_freertos_ticks(timeout_us)) == pdTRUE ? RTB_OK
                                                                                          : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    xSemaphoreGive(rtb_freertos_sems[id]);
}

/* From an ISR whose epilogue is portYIELD_FROM_ISR (rtb_port_isr.h). */
#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    xSemaphoreGiveFromISR(rtb_freertos_sems[id], (BaseType_t *)&rtb_freertos_woken);
}

#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    return xSemaphoreTake(rtb_freertos_mutexes[id], rtb_freertos_ticks(timeout_us)) == pdTRUE
               ? RTB_OK
               : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    xSemaphoreGive(rtb_freertos_mutexes[id]);
}

#define RTB_INLINE_rtb_queue_send 1
static inline __attribute__((always_inline)) int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    return xQueueSend(rtb_freertos_queues[id], msg, rtb_freertos_ticks(timeout_us)) == pdTRUE ? RTB_OK
                                                                                             : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_queue_recv 1
static inline __attribute__((always_inline)) int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    return xQueueReceive(rtb_freertos_queues[id], msg, rtb_freertos_ticks(timeout_us)) == pdTRUE ? RTB_OK
                                                                                                : RTB_TIMEOUT;
}

#endif
