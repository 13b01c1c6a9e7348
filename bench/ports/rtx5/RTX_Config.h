/*
 * RTX_Config.h - the Keil RTX5 configuration of the benchmark suite. RTX5 reads its options
 * from RTX_Config.h (Include/rtx_def.h); this file, first on the include path, sets the
 * suite's choices and then includes the upstream template (Config/RTX_Config.h of the pinned
 * CMSIS-RTX), whose every option is `#ifndef`-guarded: what is not set here keeps RTX5's
 * documented default. README.md, "Configuration", says why each choice is fair.
 */
#ifndef RTB_RTX_CONFIG_H
#define RTB_RTX_CONFIG_H

/* Objects: every control block and data buffer is given by the port through the osXxxAttr_t
 * memory fields (cb_mem, stack_mem, mq_mem, mp_mem): no RTX memory pool, no dynamic memory.
 * RTX's own idle and timer threads are static in rtx_lib.c. */
#define OS_DYNAMIC_MEM_SIZE 0
#define OS_THREAD_OBJ_MEM 0
#define OS_TIMER_OBJ_MEM 0
#define OS_EVFLAGS_OBJ_MEM 0
#define OS_MUTEX_OBJ_MEM 0
#define OS_SEMAPHORE_OBJ_MEM 0
#define OS_MEMPOOL_OBJ_MEM 0
#define OS_MSGQUEUE_OBJ_MEM 0
/* The default stack for a thread created without one: never used by the port. */
#define OS_STACK_SIZE 256

/* 1 kHz tick (the suite's rate, as FreeRTOS and ThreadX) from SysTick through os_tick
 * (os_tick_systick.c); tick-less idle in the idle thread (rtx5_idle.c). */
#define OS_TICK_FREQ 1000

/* No round robin: threads of one priority switch only when one blocks or yields. */
#define OS_ROBIN_ENABLE 0

/* Release build: no stack overflow check at each switch, no watermark fill, no safety
 * features (which would bring the object-pointer and SVC-pointer checks, safety classes,
 * execution zones, thread watchdogs). */
#define OS_STACK_CHECK 0
#define OS_STACK_WATERMARK 0
#define OS_SAFETY_FEATURES 0
#define OS_OBJ_PTR_CHECK 0
#define OS_SVC_PTR_CHECK 0

/* Threads run privileged (RTX5's default): the suite's threads touch the board's registers. */
#define OS_PRIVILEGE_MODE 1

/* RTX's idle thread: the tick-less loop (rtx5_idle.c) is small. The timer thread runs the
 * suite's timer callbacks (a semaphore signal, a counter read). */
#define OS_IDLE_THREAD_STACK_SIZE 256
#define OS_TIMER_THREAD_STACK_SIZE 384
/* The timer thread above the suite's controller (osPriorityNormal + 9 = 33), as FreeRTOS's
 * timer task is: a callback runs as soon as its timer expires. */
#define OS_TIMER_THREAD_PRIO 40

/* Interrupt service calls queued for the kernel (RTX's default, 16). */
#define OS_ISR_FIFO_QUEUE 16

/* No event recorder: every EvrRtx* call compiles to nothing (Include/rtx_evr.h). */
#define OS_EVR_INIT 0
#ifndef EVR_RTX_DISABLE
#define EVR_RTX_DISABLE
#endif

#include_next "RTX_Config.h"

#endif
