/* Jobbed (seed 004): threads, counting semaphores, priority-inheritance mutexes and
 * interrupt handlers run as threads, delays as a system-timer subscription; no timeouts,
 * software timers, queues, memory pools, suspension or priority changes (rtb_port_absent_reason in port.c says why). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "0.9z"
#define RTB_CAPS (RTB_CAP_THREAD_DYNAMIC | RTB_CAP_MUTEX | RTB_CAP_MUTEX_INHERIT | \
                  RTB_CAP_MUTEX_DYNAMIC | RTB_CAP_IRQ | RTB_CAP_DELAY)
#define RTB_TIMER_CB_IN_ISR 0 /* no software timers */
#endif
