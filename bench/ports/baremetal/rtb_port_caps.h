/* baremetal: no RTOS. A hand-written fixed-priority switch (PendSV), counting semaphores,
 * mutexes with one-level priority inheritance, a ring-buffer queue, the board's alarm for
 * delays and timers, a two-block pool: the least code that does each job. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_ID "baremetal"
#define RTB_PORT_VERSION "1"
#define RTB_CAPS 0xFFFu
#define RTB_TIMER_CB_IN_ISR 1 /* timer callbacks run in the alarm interrupt */
#endif
