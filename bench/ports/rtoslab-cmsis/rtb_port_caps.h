/* rtoslab through CMSIS-RTOS2: the generic glue (bench/cmsis_os2_glue/port.c) over the
 * kernel's CMSIS-RTOS2 layer (kernel/cmsis_os2). The layer's control blocks give the sizes. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#include "os2_internal.h" /* (the control blocks' sizes, as RTX5's rtx_os.h gives its own) */
#define RTB_PORT_VERSION RTOSLAB_KERNEL_VERSION
/* everything but the one-shot timer (CMSIS-RTOS2 timers are one-shot or periodic when
 * created; the suite's timers are created periodic) */
#define RTB_CAPS (RTB_CAPS_ALL & ~RTB_CAP_TIMER_ONESHOT)
#define RTB_TIMER_CB_IN_ISR 0 /* the layer's timer thread */
#define RTB_OS2_STATIC_OBJECTS 1 /* objects in static tables, as the rtoslab port */
#define RTB_OS2_THREAD_CB sizeof(struct os2_thread)
#define RTB_OS2_SEM_CB sizeof(struct os2_sem)
#define RTB_OS2_MUTEX_CB sizeof(struct os2_mutex)
#define RTB_OS2_QUEUE_CB sizeof(struct os2_queue)
#define RTB_OS2_TIMER_CB sizeof(struct os2_timer)
#define RTB_OS2_POOL_CB sizeof(struct os2_pool)
/* portable 1..8 onto osPriorityLow.. in steps of 4 (one kernel level each); the controller
 * osPriorityRealtime (above the layer's timer thread, osPriorityHigh) */
#define RTB_OS2_PRIO(p) ((p) >= RTB_PRIO_CTRL ? osPriorityRealtime : (osPriority_t)(osPriorityLow + 4 * ((p) < 1 ? 0 : (p) - 1)))
/* The layer's thread control block (88 bytes with the stack check, the native port's 32)
 * sits in the memory the suite gives each thread (448 bytes): a 128-byte message on the
 * stack of rhealstone.message_passing.seed001's threads then overflows it (the kernel's
 * stack check stops the run). Measured on vp-m0. */
#define RTB_OS2_QUEUE_MSG_MAX 64u
#define RTB_PORT_QUEUE_128_ABSENT                                                              \
    "through CMSIS-RTOS2 the layer's thread control block (88 bytes) takes the suite's thread "  \
    "memory: a 128-byte message on the thread's stack overflows it"
#endif
