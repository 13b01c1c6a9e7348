/* posix: Linux threads (SCHED_FIFO when permitted), pinned to one CPU. No interrupts. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_ID "posix"
#define RTB_PORT_VERSION "1"
#define RTB_CAPS (RTB_CAPS_ALL & ~RTB_CAP_IRQ)
#define RTB_TIMER_CB_IN_ISR 0 /* timer callbacks run in a timer thread */
#endif
