/* Keil RTX5 5.9.1: every service of the porting layer is there (threads created and
 * terminated at run time, suspend/resume, priority change, counting semaphores, mutexes with
 * priority inheritance and timeouts, message queues that copy messages of any size, delays
 * and timeouts, periodic and one-shot timers, fixed-block memory pools). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "5.9.1"
#define RTB_CAPS RTB_CAPS_ALL
#define RTB_TIMER_CB_IN_ISR 0 /* timer callbacks run in RTX5's timer thread (osRtxTimerThread) */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
/* No RTB_PORT_ISR: RTX5's services are called from plain C handlers (an osXxx call from an
 * exception runs its isrRtxXxx form and pends PendSV when a thread must run). */
#endif
