/* Eclipse ThreadX 6.4.2: every service of the porting layer is there (threads created and
 * deleted at run time, suspend/resume, priority change, counting semaphores, mutexes with
 * priority inheritance and timeouts, queues, sleep and timeouts, application timers periodic
 * and one-shot, block pools). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "6.4.2"
#define RTB_CAPS RTB_CAPS_ALL
/* ... but a tx_queue message is 1, 2, 4, 8 or 16 words: */
#define RTB_PORT_QUEUE_128_ABSENT                                                            \
    "ThreadX copies queue messages of 1, 2, 4, 8 or 16 32-bit words only (tx_queue_create: at " \
    "most 64 bytes); a 128-byte message would travel as a pointer, without the copy the seed "   \
    "times"
#define RTB_TIMER_CB_IN_ISR 1 /* TX_TIMER_PROCESS_IN_ISR: timer expirations in the SysTick ISR */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
/* 6 threads besides the controller (the suite's tests use at most 5 at once; scale.*.n8 and
 * above need 9 to 33 and are reported absent): the 176-byte TX_THREADs are in a static
 * table of the port, because the suite's 272-byte small thread memory cannot hold one next
 * to the up to 164 bytes of stack a ThreadX thread uses there, and 16 KiB of RAM has room
 * for 6 (README.md, "Thread memory"). */
#define RTB_MAX_THREADS 6
/* No RTB_PORT_ISR: ThreadX on Cortex-M0 wants plain C handlers (readme_threadx.txt, 6.2). */
#endif
