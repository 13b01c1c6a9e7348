/*
 * Inline hot calls of the ChibiOS/NIL port (docs/porting.md, "Inline hot calls"): the
 * semaphore calls are NIL's own, called directly from the tests; the same calls and result
 * mapping as the out-of-line versions they replace. A wait that will block first resumes
 * the caller's band peers parked by rtb_yield (port.c): one load and a branch when none is.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "ch.h"

extern semaphore_t rtb_nil_sems[RTB_MAX_SEMS];
extern uint16_t rtb_nil_parked;
void rtb_nil_unpark_band(void); /* locked: resume the caller's band peers parked by rtb_yield */

#define RTB_NIL_CYC_PER_US (BOARD_CLOCK_HZ / 1000000u)

/* A timeout of `us` in system ticks (cycles): exact, so never shorter than asked. */
static inline __attribute__((always_inline)) sysinterval_t rtb_nil_interval(uint32_t us)
{
    if (us == RTB_FOREVER)
        return TIME_INFINITE;
    if (us == 0)
        return TIME_IMMEDIATE;
    if (us > (uint32_t)TIME_MAX_INTERVAL / RTB_NIL_CYC_PER_US)
        return TIME_MAX_INTERVAL;
    return (sysinterval_t)(us * RTB_NIL_CYC_PER_US);
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    semaphore_t *sp = &rtb_nil_sems[id];
    chSysLock();
    if (timeout_us != 0 && rtb_nil_parked && sp->cnt <= 0)
        rtb_nil_unpark_band();
    msg_t m = chSemWaitTimeoutS(sp, rtb_nil_interval(timeout_us));
    chSysUnlock();
    return m == MSG_OK ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    chSemSignal(&rtb_nil_sems[id]);
}

#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    chSysLockFromISR();
    chSemSignalI(&rtb_nil_sems[id]);
    chSysUnlockFromISR();
}

#endif
