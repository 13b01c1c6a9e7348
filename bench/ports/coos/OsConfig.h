/*
 * OsConfig.h - CoOS configuration of the rtoslab benchmark port (written for this port).
 *
 * Follows the layout and the values of the OsConfig.h that CoOS ships with its kernel and
 * its STM32F103RB example (Example/ST/STM32F1xx/STM32F103RB_CoOS/.../OsConfig.h), changed
 * to the suite's release form (docs/methodology.md "Configurations"):
 *   - Cortex-M0 (CFG_CHIP_TYPE 2; 1 on Cortex-M3, 3 on the M4F), CPU clock = the board's clock, SysTick at 1 kHz (CoOS
 *     has no tick-less mode);
 *   - parameter checks (CFG_PAR_CHECKOUT_EN) and stack checks (CFG_STK_CHECKOUT_EN) off;
 *   - round robin (CFG_ROBIN_EN) off: no time slicing, like the other ports;
 *   - CFG_ORDER_LIST_SCHEDULE_EN 1: the ready list is one list sorted by priority (the
 *     other choice, 0, is CoOS's "binary scheduling" table that its own OsConfig.h selects
 *     from 15 tasks up); see README.md for the choice;
 *   - every service on (tasks dynamic, priority set, suspend, semaphores, mailboxes,
 *     queues, flags, mutexes, timers, memory partitions), tables sized for the suite: 41
 *     user tasks (40 test threads + the controller), 16 events (the suite holds at most
 *     ~10 semaphores and queues at once: CoOS allocates them from a free list), 2 timers, 1 memory partition, 4 mutexes (+ room).
 * The image of CoOS's own test suite (owntest-coos, COOS_OWNTEST defined) uses the
 * preconditions of Test/suite1/src/readme.txt and upstream's defaults instead: parameter
 * checks on (its tests check the refusal of invalid arguments), round robin on (slice 10),
 * KHEAP_SIZE 100, 10 mutexes, 20 events.
 */
#ifndef _CONFIG_H
#define _CONFIG_H

#include "board_config.h" /* BOARD_CLOCK_HZ */

#if defined(__ARM_ARCH_7EM__) && defined(__ARM_FP)
#define CFG_CHIP_TYPE (3) /* Cortex-M4F: s16-s31 in every switch, extended frames always */
#define RTB_COOS_CHIP "3 (Cortex-M4F)"
#elif defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define CFG_CHIP_TYPE (1) /* Cortex-M3 */
#define RTB_COOS_CHIP "1 (Cortex-M3)"
#else
#define CFG_CHIP_TYPE (2) /* Cortex-M0 */
#define RTB_COOS_CHIP "2 (Cortex-M0)"
#endif
#define CFG_LOWEST_PRIO (64)

#if defined(BOARD_RAM_BYTES) && BOARD_RAM_BYTES < 16384u
#define CFG_MAX_USER_TASKS (20) /* 8 KiB parts: the scaling metrics are absent there anyway */
#else
#define CFG_MAX_USER_TASKS (41)
#endif

/* Words, as upstream's CoOS/OsConfig.h: 25, and 58 on the M4F (CFG_CHIP_TYPE 3), where
 * InitTaskContext builds a 50-word context (an extended frame and s16-s31) and the first
 * PendSV stores 24 words below the PSP that SetEnvironment sets 25 words under the top:
 * 25 words there overwrite the RAM below idle_stk (the M4F hang before any output). */
#if CFG_CHIP_TYPE == 3
#define CFG_IDLE_STACK_SIZE (58)
#else
#define CFG_IDLE_STACK_SIZE (25)
#endif
#define CFG_CPU_FREQ (BOARD_CLOCK_HZ)
#define CFG_SYSTICK_FREQ (1000)
/* CoOS's isr_PostSem, called while the scheduler is locked (the interrupt came in a kernel
 * call), queues the post here until the lock is released, and drops it (E_SEV_REQ_FULL) when
 * the queue is full: a lost post. The suite's largest burst from one handler is Hartstone's
 * frame release (bench/suite/t_hartstone.c): up to HS_MAX (14) task semaphores and the end
 * of the trial, 15 posts (the stimulus' other edge comes half a frame later, long after the
 * interrupted kernel call has unlocked and emptied the queue; the tick posts nothing here).
 * With 5, the speed profile's ph4 lost posts at 11 tasks: a released task never ran and the
 * trial waited for it for ever. 8 bytes a cell (16 does not fit the 16 KiB image). A board
 * without the stimulus generator runs no Hartstone: 5 as before (qemu-microbit's image has
 * not a byte to spare). */
#if BOARD_HAS_STIMULUS
#define CFG_MAX_SERVICE_REQUEST (15)
#else
#define CFG_MAX_SERVICE_REQUEST (5)
#endif
#ifndef COOS_ORDER_LIST /* -DCOOS_ORDER_LIST=0: CoOS's binary scheduling, for comparison */
#define COOS_ORDER_LIST 1
#endif
#define CFG_ORDER_LIST_SCHEDULE_EN (COOS_ORDER_LIST)
#if defined(COOS_OWNTEST)
#define CFG_ROBIN_EN (1) /* upstream's default: its tests create tasks with time slices */
#define CFG_TIME_SLICE (10)
#else
#define CFG_ROBIN_EN (0)
#endif

#define CFG_TASK_WAITTING_EN (1)
#define CFG_TASK_SCHEDULE_EN (1)
#define CFG_PRIORITY_SET_EN (1)
#define CFG_TASK_SUSPEND_EN (1)

#if defined(COOS_OWNTEST)
#define CFG_PAR_CHECKOUT_EN (1)
#else
#define CFG_PAR_CHECKOUT_EN (0)
#endif
#define CFG_STK_CHECKOUT_EN (0)

#define CFG_MM_EN (1)
#define CFG_MAX_MM (2)

#if defined(COOS_OWNTEST)
#define CFG_KHEAP_EN (1)
#define KHEAP_SIZE (100)
#else
#define CFG_KHEAP_EN (0)
#endif

#define CFG_TIME_DELAY_EN (1)

#define CFG_TMR_EN (1)
#define CFG_MAX_TMR (2)

#define CFG_EVENT_EN (1)
#define CFG_EVENT_SORT (3) /* FIFO or priority, chosen per object */
#if defined(COOS_OWNTEST)
#define CFG_MAX_EVENT (20) /* upstream's value */
#else
#define CFG_MAX_EVENT (16) /* the suite holds at most ~10 at once: SEM_DONE, SEM_PARK, a test's few */
#endif
#define CFG_SEM_EN (1)
#define CFG_MAILBOX_EN (1)
#define CFG_QUEUE_EN (1)
#define CFG_MAX_QUEUE (2)

#define CFG_FLAG_EN (1)

#define CFG_MUTEX_EN (1)
#define CFG_MAX_MUTEX (10)

#define CFG_UTILITY_EN (1)
#define CFG_TICK_TO_TIME_EN (1)
#define CFG_TIME_TO_TICK_EN (1)

#endif /* _CONFIG_H */
