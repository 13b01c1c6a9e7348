/*
 * The CMSIS-RTOS2 layer's configuration (docs/cmsis-rtos2.md). Each option may be overridden
 * with a compiler definition (-DOS2_...), as the kernel's own (rtoslab/config.h).
 */
#ifndef OS2_CONFIG_H
#define OS2_CONFIG_H

/* The static memory of objects created with cb_mem (or stack_mem, mp_mem, mq_mem) NULL: one
 * arena, first fit (os2_memory.c). 0 disables it: every object then needs its memory in
 * its attributes. */
#ifndef OS2_ARENA_BYTES
#define OS2_ARENA_BYTES 6144u
#endif

/* The stack of a thread created with stack_size 0. */
#ifndef OS2_STACK_DEFAULT
#define OS2_STACK_DEFAULT 512u
#endif

/* 1: a thread's stack is filled at creation, so that osThreadGetStackSpace can say how much
 * was never used; 0: no fill (creation is faster; osThreadGetStackSpace returns 0), for an
 * application that measures its stacks its own way (the benchmark suite does). */
#ifndef OS2_STACK_WATERMARK
#define OS2_STACK_WATERMARK 1
#endif

/* The timer thread, which runs the osTimer callbacks (os2_timer.c): its stack, its CMSIS
 * priority (RTX5's default, osPriorityHigh) and how many expiries may wait for it. */
#ifndef OS2_TIMER_STACK
#define OS2_TIMER_STACK 512u
#endif
#ifndef OS2_TIMER_PRIO
#define OS2_TIMER_PRIO 40 /* osPriorityHigh */
#endif
#ifndef OS2_TIMER_QUEUE
#define OS2_TIMER_QUEUE 8u
#endif

/* The kernel tick of the API (osKernelGetTickFreq): durations are given in these ticks. */
#ifndef OS2_TICK_HZ
#define OS2_TICK_HZ 1000u
#endif

#endif
