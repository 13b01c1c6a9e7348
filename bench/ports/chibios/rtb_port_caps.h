/* ChibiOS/RT 7.0.6: what the porting layer can express with RT + oslib (port.c says how). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "7.0.6"
/* Absent: RTB_CAP_SUSPEND (no suspend/resume of another thread, only self-suspension on a
 * thread reference: RTB_CAP_SUSPEND_SELF), RTB_CAP_PRIO_SET (chThdSetPriority changes the
 * caller's priority only: RTB_CAP_PRIO_SET_SELF) and RTB_CAP_MUTEX_TIMEOUT (chMtxLock has no
 * timeout). See rtb_port_absent_reason() in port.c. */
#define RTB_CAPS (RTB_CAP_THREAD_DYNAMIC | RTB_CAP_MUTEX | RTB_CAP_MUTEX_INHERIT |           \
                  RTB_CAP_MUTEX_DYNAMIC | RTB_CAP_QUEUE | RTB_CAP_DELAY | RTB_CAP_TIMER |     \
                  RTB_CAP_MEM | RTB_CAP_IRQ | RTB_CAP_TIMEOUT | RTB_CAP_SUSPEND_SELF |        \
                  RTB_CAP_PRIO_SET_SELF | RTB_CAP_TIMER_ONESHOT)
#define RTB_TIMER_CB_IN_ISR 1 /* virtual-timer callbacks run in the alarm interrupt */
#define RTB_PORT_ISR 1        /* handlers are CH_IRQ_PROLOGUE ... CH_IRQ_EPILOGUE: rtb_port_isr.h */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
#endif
