/*
 * The ChibiOS/RT port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of
 * rtb_port.h, docs/porting.md "Inline hot calls"): the same RT calls as port.c would make,
 * with the index-to-object lookup and the timeout conversion folded by the compiler for
 * constant arguments. Included by rtb_port.h only.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "ch.h"

extern semaphore_t rtb_chibios_sems[RTB_MAX_SEMS];
extern mutex_t rtb_chibios_mutexes[RTB_MAX_MUTEXES];

/* Microseconds to system ticks (the board's cycles: CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ),
 * rounded up; RTB_FOREVER is TIME_INFINITE, 0 is TIME_IMMEDIATE. */
static inline __attribute__((always_inline)) sysinterval_t rtb_chibios_us2i(uint32_t us)
{
#if (CH_CFG_ST_FREQUENCY % 1000000u) == 0
    if (us >= (uint32_t)(TIME_MAX_INTERVAL / (CH_CFG_ST_FREQUENCY / 1000000u)))
        return TIME_MAX_INTERVAL;
    return (sysinterval_t)(us * (CH_CFG_ST_FREQUENCY / 1000000u));
#else
    uint64_t t = ((uint64_t)us * CH_CFG_ST_FREQUENCY + 999999u) / 1000000u;
    return t >= TIME_MAX_INTERVAL ? TIME_MAX_INTERVAL : (sysinterval_t)t;
#endif
}
static inline __attribute__((always_inline)) sysinterval_t rtb_chibios_timeout(uint32_t us)
{
    if (us == RTB_FOREVER)
        return TIME_INFINITE;
    if (us == 0)
        return TIME_IMMEDIATE;
    return rtb_chibios_us2i(us);
}

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    chThdYield();
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    msg_t m = timeout_us == RTB_FOREVER ? chSemWait(&rtb_chibios_sems[id])
                                        : chSemWaitTimeout(&rtb_chibios_sems[id], rtb_chibios_timeout(timeout_us));
    return m == MSG_OK ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    chSemSignal(&rtb_chibios_sems[id]);
}

/* From an ISR written with CH_IRQ_PROLOGUE/EPILOGUE (rtb_port_isr.h): RT's I-class call in
 * the ISR critical zone; the epilogue switches if the woken thread is more urgent. */
#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    chSysLockFromISR();
    chSemSignalI(&rtb_chibios_sems[id]);
    chSysUnlockFromISR();
}

/* RT mutexes have no timed lock (RTB_CAP_MUTEX_TIMEOUT is off): RTB_FOREVER is chMtxLock,
 * 0 is chMtxTryLock, any other timeout is refused. */
#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        chMtxLock(&rtb_chibios_mutexes[id]);
        return RTB_OK;
    }
    if (timeout_us == 0)
        return chMtxTryLock(&rtb_chibios_mutexes[id]) ? RTB_OK : RTB_TIMEOUT;
    return RTB_ERROR;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    chMtxUnlock(&rtb_chibios_mutexes[id]);
}

#endif
