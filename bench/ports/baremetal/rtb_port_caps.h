/* baremetal: no RTOS, the floor. A direct thread-to-thread switch (PendSV only when an
 * interrupt causes the switch), semaphores as a counter and a FIFO of waiters, mutexes with
 * one-level priority inheritance, a hand-off queue, the board's alarm for delays and timers,
 * one memory block: the least code that does each job (docs/methodology.md). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "2"
#define RTB_CAPS RTB_CAPS_ALL
#define RTB_TIMER_CB_IN_ISR 1 /* timer callbacks run in the alarm interrupt */
#define RTB_PORT_INLINE 1     /* rtb_port_inline.h: the hot calls inline, as rtoslab */
#endif
