/* RIOT 2026.07 (core + sys/sema + sys/ztimer + sys/memarray): see port.c and README.md. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "2026.07"
#define RTB_CAPS                                                                                 \
    (RTB_CAP_SUSPEND_SELF | RTB_CAP_PRIO_SET | RTB_CAP_THREAD_DYNAMIC | RTB_CAP_MUTEX |          \
     RTB_CAP_MUTEX_INHERIT | RTB_CAP_MUTEX_DYNAMIC | RTB_CAP_QUEUE | RTB_CAP_DELAY |             \
     RTB_CAP_TIMER | RTB_CAP_MEM | RTB_CAP_IRQ | RTB_CAP_TIMEOUT | RTB_CAP_MUTEX_TIMEOUT |   \
     RTB_CAP_TIMER_ONESHOT)
#define RTB_TIMER_CB_IN_ISR 1 /* ztimer callbacks run in the timer's interrupt */
#define RTB_PORT_ISR 1        /* RIOT handlers end in cortexm_isr_end(): rtb_port_isr.h */
#define RTB_PORT_INLINE 1     /* hot calls inline: rtb_port_inline.h */
#endif
