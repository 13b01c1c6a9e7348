/*
 * The RTX5 port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of rtb_port.h,
 * docs/porting.md "Inline hot calls"): each is the CMSIS-RTOS2 call an application makes
 * (osSemaphoreAcquire, osMutexRelease, osMessageQueuePut, osThreadYield, ...), with the
 * index-to-object lookup and the timeout conversion folded for constant arguments. The
 * object ids are the addresses of the port's control blocks (static, RTX_Config.h), so the
 * lookup is an address computation. Included by rtb_port.h only; port.c has the rest.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "cmsis_os2.h"
#include "rtx_os.h"

/* The control blocks (port.c): RTX5 takes them through the attributes' cb_mem, so an
 * object's id is its block's address. */
extern osRtxSemaphore_t rtb_rtx_sems[RTB_MAX_SEMS];
extern osRtxMutex_t rtb_rtx_mutexes[RTB_MAX_MUTEXES];
extern osRtxMessageQueue_t rtb_rtx_queues[RTB_MAX_QUEUES];
extern osThreadId_t rtb_rtx_threads[RTB_MAX_THREADS];

/* Microseconds to ticks, never shorter than asked: ceil(us / tick) + 1, because the first
 * tick may come at once (osDelay(n) ends at the n-th tick from now). */
#define RTB_RTX_US_PER_TICK (1000000u / OS_TICK_FREQ)
static inline __attribute__((always_inline)) uint32_t rtb_rtx_ticks(uint32_t us)
{
    if (us == RTB_FOREVER)
        return osWaitForever;
    if (us == 0)
        return 0u;
    return us / RTB_RTX_US_PER_TICK + (us % RTB_RTX_US_PER_TICK != 0u) + 1u;
}

/* Portable 1 (least urgent) .. 8 and the controller 9 onto osPriorityNormal + 1 .. + 9
 * (25 .. 33): below RTX5's timer thread (OS_TIMER_THREAD_PRIO 40), above its idle thread. */
static inline __attribute__((always_inline)) osPriority_t rtb_rtx_prio(int p)
{
    if (p > RTB_PRIO_CTRL)
        p = RTB_PRIO_CTRL;
    if (p < 1)
        p = 1;
    return (osPriority_t)(osPriorityNormal + p);
}

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    osThreadYield();
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    osThreadSetPriority(id == RTB_SELF ? osThreadGetId() : rtb_rtx_threads[id], rtb_rtx_prio(prio));
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    return osSemaphoreAcquire(&rtb_rtx_sems[id], rtb_rtx_ticks(timeout_us)) == osOK ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    osSemaphoreRelease(&rtb_rtx_sems[id]);
}

/* From an ISR: the same call (RTX5 runs isrRtxSemaphoreRelease in an exception; it pends
 * PendSV when a thread is woken and the handler needs nothing around it). */
#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    osSemaphoreRelease(&rtb_rtx_sems[id]);
}

/* RTX5 has no deadlock detection: a lock that closes a wait cycle waits for its timeout. */
#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    return osMutexAcquire(&rtb_rtx_mutexes[id], rtb_rtx_ticks(timeout_us)) == osOK ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    osMutexRelease(&rtb_rtx_mutexes[id]);
}

/* Queues: RTX5 copies messages of the queue's size in and out (any size, no priority). */
#define RTB_INLINE_rtb_queue_send 1
static inline __attribute__((always_inline)) int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    return osMessageQueuePut(&rtb_rtx_queues[id], msg, 0u, rtb_rtx_ticks(timeout_us)) == osOK ? RTB_OK
                                                                                              : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_queue_recv 1
static inline __attribute__((always_inline)) int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    return osMessageQueueGet(&rtb_rtx_queues[id], msg, NULL, rtb_rtx_ticks(timeout_us)) == osOK ? RTB_OK
                                                                                                : RTB_TIMEOUT;
}

#endif
