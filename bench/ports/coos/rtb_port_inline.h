/*
 * The CoOS port's hot calls, inline at the call site (the RTB_PORT_INLINE hook of rtb_port.h,
 * docs/porting.md "Inline hot calls"): the same CoOS calls and result mapping as port.c's
 * out-of-line versions had, with the index-to-id lookup and the timeout conversion folded by
 * the compiler for constant arguments. rtb_yield stays out of line (it uses CoOS internals).
 * CoOS's headers are not included here (their short names, E_OK, TASK_READY, U8..., would
 * reach every test): the few CoOS prototypes are repeated with their plain C types
 * (StatusType, OS_EventID, OS_MutexID, OS_TID and U8 are unsigned char, U32 unsigned int).
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include "OsConfig.h" /* CFG_SYSTICK_FREQ */

extern unsigned char CoAcceptSem(unsigned char id);
extern unsigned char CoPendSem(unsigned char id, unsigned int timeout);
extern unsigned char CoPostSem(unsigned char id);
extern unsigned char isr_PostSem(unsigned char id);
extern unsigned char CoEnterMutexSection(unsigned char mutexID);
extern unsigned char CoLeaveMutexSection(unsigned char mutexID);
extern unsigned char CoSetPriority(unsigned char taskID, unsigned char priority);
extern unsigned char CoGetCurTaskID(void);

extern unsigned char rtb_coos_tids[RTB_MAX_THREADS];
extern unsigned char rtb_coos_sems[RTB_MAX_SEMS];
extern unsigned char rtb_coos_mutexes[RTB_MAX_MUTEXES];

#define RTB_COOS_PRIO(p) ((unsigned char)(10 - (p))) /* suite 1..9 -> CoOS 9..1 (0 most urgent) */
#define RTB_COOS_FOREVER_TICKS 0x7FFFFFFFu /* InsertDelayList computes in S32: below 2^31 */

/* A delay or timeout of `us` in ticks: at least `us` whatever the phase of the tick. A CoOS
 * delay of n ticks ends at the n-th SysTick, which may come at once: hence the + 1.
 * RTB_FOREVER is a long timed wait: CoOS's "timeout 0" pre-decrements the count (README). */
static inline __attribute__((always_inline)) unsigned int rtb_coos_ticks(uint32_t us)
{
    if (us == RTB_FOREVER)
        return RTB_COOS_FOREVER_TICKS;
    uint64_t t = ((uint64_t)us * CFG_SYSTICK_FREQ + 999999u) / 1000000u + 1u;
    return t >= RTB_COOS_FOREVER_TICKS ? RTB_COOS_FOREVER_TICKS - 1u : (unsigned int)t;
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    CoSetPriority(id == RTB_SELF ? CoGetCurTaskID() : rtb_coos_tids[id], RTB_COOS_PRIO(prio));
}

#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    if (timeout_us == 0)
        return CoAcceptSem(rtb_coos_sems[id]) == 0 ? RTB_OK : RTB_TIMEOUT;
    return CoPendSem(rtb_coos_sems[id], rtb_coos_ticks(timeout_us)) == 0 ? RTB_OK : RTB_TIMEOUT;
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    CoPostSem(rtb_coos_sems[id]);
}

#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    isr_PostSem(rtb_coos_sems[id]);
}

#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    (void)timeout_us; /* CoEnterMutexSection waits for ever (RTB_CAP_MUTEX_TIMEOUT is off) */
    return CoEnterMutexSection(rtb_coos_mutexes[id]) == 0 ? RTB_OK : RTB_ERROR;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    CoLeaveMutexSection(rtb_coos_mutexes[id]);
}
#endif
