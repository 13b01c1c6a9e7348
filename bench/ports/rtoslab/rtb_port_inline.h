/*
 * The rtoslab port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of
 * rtb_port.h, docs/porting.md "Inline hot calls"): the same kernel calls as the rest of
 * port.c makes, with the index-to-object lookup and the timeout conversion folded by the
 * compiler when the arguments are constants. Included by rtb_port.h only.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "rtoslab/kernel.h"

extern struct k_thread *rtb_rtoslab_threads[RTB_MAX_THREADS];
extern struct k_sem rtb_rtoslab_sems[RTB_MAX_SEMS];
#if K_CONFIG_MUTEX
extern struct k_mutex rtb_rtoslab_mutexes[RTB_MAX_MUTEXES];
#endif

static inline __attribute__((always_inline)) k_timeout_t rtb_rtoslab_kto(uint32_t us)
{
    if (us == RTB_FOREVER)
        return K_FOREVER;
    return us ? K_USEC(us) : K_NO_WAIT;
}

/* Portable priorities 1..6 are kernel 1..6; the controller is K_PRIO_MAX. */
static inline __attribute__((always_inline)) unsigned rtb_rtoslab_kprio(int p)
{
    if (p >= RTB_PRIO_CTRL)
        return K_PRIO_MAX;
    if (p >= (int)K_PRIO_MAX)
        return K_PRIO_MAX - 1u;
    return p < 1 ? 1u : (unsigned)p;
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    k_thread_prio_set(id == RTB_SELF ? NULL : rtb_rtoslab_threads[id], rtb_rtoslab_kprio(prio));
}

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    k_yield();
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    return k_sem_wait(&rtb_rtoslab_sems[id], rtb_rtoslab_kto(timeout_us)) == K_OK ? RTB_OK
                                                                                   : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    k_sem_signal(&rtb_rtoslab_sems[id]);
}

/* The suite calls it from the ISRs it installs (handler mode, interrupts enabled): the
 * kernel's handler-only variant, which need not save PRIMASK. */
#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    k_sem_signal_irq(&rtb_rtoslab_sems[id]);
}

#if K_CONFIG_MUTEX
#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    int r = k_mutex_lock(&rtb_rtoslab_mutexes[id], rtb_rtoslab_kto(timeout_us));
    return r == K_OK ? RTB_OK : r == K_EDEADLK ? RTB_DEADLOCK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    k_mutex_unlock(&rtb_rtoslab_mutexes[id]);
}
#endif

/* Interrupt handlers need no prologue or epilogue: the kernel switches through PendSV on
 * return (so no rtb_port_isr.h). */

extern struct k_queue rtb_rtoslab_queues[RTB_MAX_QUEUES];

#define RTB_INLINE_rtb_queue_send 1
static inline __attribute__((always_inline)) int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    return k_queue_send(&rtb_rtoslab_queues[id], msg, rtb_rtoslab_kto(timeout_us)) == K_OK ? RTB_OK
                                                                                          : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_queue_recv 1
static inline __attribute__((always_inline)) int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    return k_queue_recv(&rtb_rtoslab_queues[id], msg, rtb_rtoslab_kto(timeout_us)) == K_OK ? RTB_OK
                                                                                          : RTB_TIMEOUT;
}

#endif
