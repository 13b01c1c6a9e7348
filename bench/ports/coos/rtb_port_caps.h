/* CoOS 1.1.6 (coocox/CoOS master): what the porting layer can express with it. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "1.1.6"
/* Not here:
 *  RTB_CAP_MUTEX_DYNAMIC: CoOS has no mutex deletion (no CoDelMutex; CoCreateMutex takes
 *    the next of CFG_MAX_MUTEX slots for good);
 *  RTB_CAP_MUTEX_TIMEOUT: CoEnterMutexSection has no timeout (semaphore and queue waits have
 *    one: RTB_CAP_TIMEOUT is on); check.deadlock needs it. */
#define RTB_CAPS                                                                           \
    (RTB_CAP_SUSPEND | RTB_CAP_PRIO_SET | RTB_CAP_THREAD_DYNAMIC | RTB_CAP_MUTEX |         \
     RTB_CAP_MUTEX_INHERIT | RTB_CAP_QUEUE | RTB_CAP_DELAY | RTB_CAP_TIMER | RTB_CAP_MEM |  \
     RTB_CAP_IRQ | RTB_CAP_TIMEOUT | RTB_CAP_SUSPEND_SELF | RTB_CAP_PRIO_SET_SELF |           \
     RTB_CAP_TIMER_ONESHOT)
#define RTB_TIMER_CB_IN_ISR 1 /* CoOS timer callbacks run in its SysTick handler */
#define RTB_PORT_ISR 1        /* handlers are bracketed by CoEnterISR/CoExitISR */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
#endif
