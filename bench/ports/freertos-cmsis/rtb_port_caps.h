/* FreeRTOS through CMSIS-RTOS2: the generic glue (bench/cmsis_os2_glue/port.c) over
 * CMSIS-FreeRTOS 11.3.0 (cmsis_os2.c). FreeRTOS's own types give the control blocks' sizes. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#include "FreeRTOS.h"
#include "freertos_mpool.h" /* MemPool_t, CMSIS-FreeRTOS's memory pool control block */
#define RTB_PORT_VERSION "11.2.0"
/* everything but the one-shot timer (CMSIS-RTOS2 timers are one-shot or periodic when
 * created; the suite's timers are created periodic) */
#define RTB_CAPS (RTB_CAPS_ALL & ~RTB_CAP_TIMER_ONESHOT)
#define RTB_TIMER_CB_IN_ISR 0 /* FreeRTOS's timer service task */
/* semaphores, mutexes, queues and timers from heap_4 (cb_mem NULL), as the freertos port */
#define RTB_OS2_STATIC_OBJECTS 0
#define RTB_OS2_THREAD_CB sizeof(StaticTask_t)
#define RTB_OS2_POOL_CB sizeof(MemPool_t)
/* portable 1..8 onto osPriorityLow.. in steps of 4 (FreeRTOS priorities 8..36); the
 * controller osPriorityRealtime (48), below the timer task (55), as in the freertos port */
#define RTB_OS2_PRIO(p) ((p) >= RTB_PRIO_CTRL ? osPriorityRealtime : (osPriority_t)(osPriorityLow + 4 * ((p) < 1 ? 0 : (p) - 1)))
#endif
