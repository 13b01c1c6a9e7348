/* ChibiOS/NIL 4: threads (created at run time into priority slots), semaphores, tick-less
 * timeouts, oslib memory pools and objects FIFOs; no mutexes, no software timers, no
 * run-time priority change. CH_CFG_MAX_THREADS 10: the controller and 9 test threads (the most the suite runs at once). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "4.1.4"
#define RTB_MAX_THREADS 9
#define RTB_CAPS (RTB_CAP_SUSPEND | RTB_CAP_THREAD_DYNAMIC | RTB_CAP_QUEUE | RTB_CAP_DELAY | \
                  RTB_CAP_MEM | RTB_CAP_IRQ | RTB_CAP_TIMEOUT)
#define RTB_TIMER_CB_IN_ISR 0 /* no software timers */
#define RTB_PORT_INLINE 1     /* semaphore calls inline: rtb_port_inline.h */
#define RTB_PORT_ISR 1        /* handlers are CH_IRQ_PROLOGUE ... CH_IRQ_EPILOGUE: rtb_port_isr.h */
#endif
