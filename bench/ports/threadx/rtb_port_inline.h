/*
 * The ThreadX port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of
 * rtb_port.h, docs/porting.md "Inline hot calls"): the ThreadX services an application
 * calls (with TX_DISABLE_ERROR_CHECKING, tx_semaphore_get is _tx_semaphore_get), with the
 * index-to-object lookup and the timeout conversion folded for constant arguments.
 * Included by rtb_port.h only; port.c has the rest.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "tx_api.h"

extern TX_THREAD rtb_tx_tcbs[RTB_MAX_THREADS];
/* Semaphores: the suite names ids 0..3 and its two own, SEM_PARK and SEM_DONE (the last two
 * ids); the port stores ids 0..7 and those two (RAM: 28 bytes each), and refuses the others
 * at creation. */
#define RTB_TX_SEMS_LOW 8
struct rtb_tx_semtab {
    TX_SEMAPHORE low[RTB_TX_SEMS_LOW]; /* ids 0..7 */
    TX_SEMAPHORE top[2];               /* ids RTB_MAX_SEMS-2, RTB_MAX_SEMS-1 */
};
extern struct rtb_tx_semtab rtb_tx_sems;
static inline __attribute__((always_inline)) TX_SEMAPHORE *rtb_tx_sem(int id)
{
    return id >= RTB_MAX_SEMS - 2 ? &rtb_tx_sems.top[(id - (RTB_MAX_SEMS - 2)) & 1]
                                  : &rtb_tx_sems.low[id & (RTB_TX_SEMS_LOW - 1)];
}
extern TX_MUTEX rtb_tx_mutexes[RTB_MAX_MUTEXES];

/* Microseconds to ticks, never shorter than asked: ceil(us / tick) + 1, because the first
 * tick may come at once (tx_thread_sleep(n) ends at the n-th tick from now). */
#define RTB_TX_US_PER_TICK (1000000u / TX_TIMER_TICKS_PER_SECOND)
static inline __attribute__((always_inline)) ULONG rtb_tx_ticks(uint32_t us)
{
    if (us == RTB_FOREVER)
        return TX_WAIT_FOREVER;
    if (us == 0)
        return TX_NO_WAIT;
    return (ULONG)(us / RTB_TX_US_PER_TICK + (us % RTB_TX_US_PER_TICK != 0u) + 1u);
}

/* Portable 1 (least urgent) .. 8 and the controller 9 onto ThreadX 9 .. 2 and 1
 * (0 is the most urgent in ThreadX; nothing of the suite runs there). */
static inline __attribute__((always_inline)) UINT rtb_tx_prio(int p)
{
    if (p > RTB_PRIO_CTRL)
        p = RTB_PRIO_CTRL;
    if (p < 1)
        p = 1;
    return (UINT)(RTB_PRIO_CTRL + 1 - p);
}

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    tx_thread_relinquish();
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    UINT old;
    tx_thread_priority_change(id == RTB_SELF ? tx_thread_identify() : &rtb_tx_tcbs[id],
                              rtb_tx_prio(prio), &old);
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    return tx_semaphore_get(rtb_tx_sem(id), rtb_tx_ticks(timeout_us)) == TX_SUCCESS ? RTB_OK
                                                                                       : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    tx_semaphore_put(rtb_tx_sem(id));
}

/* From an ISR: the same service (ThreadX's put is callable from ISRs; it pends PendSV when a
 * thread is woken and the handler needs nothing around it). */
#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    tx_semaphore_put(rtb_tx_sem(id));
}

/* ThreadX has no deadlock detection: a lock that closes a wait cycle waits for its timeout. */
#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    return tx_mutex_get(&rtb_tx_mutexes[id], rtb_tx_ticks(timeout_us)) == TX_SUCCESS ? RTB_OK
                                                                                     : RTB_TIMEOUT;
}

/* Queues: a message of whole words at a word-aligned address goes to ThreadX as it is
 * (ThreadX copies it in words); any other is copied through a buffer, out of line (port.c). */
extern TX_QUEUE rtb_tx_queues[RTB_MAX_QUEUES];
extern uint8_t rtb_tx_queue_whole[RTB_MAX_QUEUES]; /* the message size is whole words */
UINT rtb_tx_queue_send_copy(int id, const void *msg, ULONG ticks) __attribute__((noinline));
UINT rtb_tx_queue_recv_copy(int id, void *msg, ULONG ticks) __attribute__((noinline));

#define RTB_INLINE_rtb_queue_send 1
static inline __attribute__((always_inline)) int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    UINT r = rtb_tx_queue_whole[id] && ((uintptr_t)msg & 3u) == 0
                 ? tx_queue_send(&rtb_tx_queues[id], (VOID *)msg, rtb_tx_ticks(timeout_us))
                 : rtb_tx_queue_send_copy(id, msg, rtb_tx_ticks(timeout_us));
    return r == TX_SUCCESS ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_queue_recv 1
static inline __attribute__((always_inline)) int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    UINT r = rtb_tx_queue_whole[id] && ((uintptr_t)msg & 3u) == 0
                 ? tx_queue_receive(&rtb_tx_queues[id], msg, rtb_tx_ticks(timeout_us))
                 : rtb_tx_queue_recv_copy(id, msg, rtb_tx_ticks(timeout_us));
    return r == TX_SUCCESS ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    tx_mutex_put(&rtb_tx_mutexes[id]);
}

#endif
