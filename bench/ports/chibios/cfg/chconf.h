/*
 * chconf.h - ChibiOS/RT 7.0.x configuration for the rtoslab benchmark suite.
 *
 * Written for this port. It follows the RT-STM32F051-DISCOVERY demo's cfg/chconf.h of the
 * pinned tree (demos/STM32/RT-STM32F051-DISCOVERY), in release form:
 *   - every CH_DBG_* option off (no statistics, state checker, parameter checks, asserts,
 *     trace, stack check, stack fill, profiling), as in the demo;
 *   - tick-less mode (CH_CFG_ST_TIMEDELTA > 0, as in the demo) with a 32-bit system time that
 *     is the board's cycle counter (CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ: 48 MHz on the lab
 *     boards and the Discovery, 16 MHz on QEMU's microbit) and the board's compare timer as the
 *     alarm (chcore_timer.h); the demo uses a 10 kHz STM32 timer through the HAL, which is
 *     not in the archive;
 *   - no round robin (CH_CFG_TIME_QUANTUM 0, as in the demo), CH_CFG_OPTIMIZE_SPEED TRUE;
 *   - the benchmark image (default) enables only the services the suite uses: semaphores,
 *     mutexes (priority inheritance, not recursive), mailboxes + memory pools + objects FIFOs
 *     (oslib); registry, dynamic threads, wait-exit, messages, events, condition variables,
 *     time stamps, heap and core allocator are off, as an application that does not use them
 *     would configure it;
 *   - the own-test images (RTB_CHIBIOS_OWNTEST, test/rt and test/oslib) enable every service
 *     like the demo, so that every upstream test case runs; test/rt's benchmark sequence
 *     (RTB_CHIBIOS_OWNTEST_BENCH too) runs on the benchmark's time base (the cycle counter).
 * Port settings: WFI in the idle thread (CORTEX_ENABLE_WFI_IDLE), preemption through NMI (the
 * ARMv6-M port's default, CORTEX_ALTERNATE_SWITCH FALSE).
 */
#ifndef CHCONF_H
#define CHCONF_H

#define _CHIBIOS_RT_CONF_
#define _CHIBIOS_RT_CONF_VER_7_0_

#if defined(RTB_CHIBIOS_OWNTEST)
#define RTB_CH_FULL                         TRUE
#else
#define RTB_CH_FULL                         FALSE
#endif

/*===========================================================================*/
/* System settings.                                                          */
/*===========================================================================*/

#define CH_CFG_SMP_MODE                     FALSE

/*===========================================================================*/
/* System timers settings.                                                   */
/*===========================================================================*/

#define CH_CFG_ST_RESOLUTION                32

#if !defined(_FROM_ASM_)
#include "board_config.h"
#endif

#if RTB_CH_FULL && !defined(RTB_CHIBIOS_OWNTEST_BENCH)
/* The own tests: the demo's 10 kHz system time (the board's 64-bit cycle counter divided,
   chcore_timer.h). Their time windows (e.g. test 5.1: a sleep of 100 ticks must end within
   CH_CFG_ST_TIMEDELTA + 1 ticks) assume a tick far longer than the wake-up path. */
#define CH_CFG_ST_FREQUENCY                 10000
#define CH_CFG_INTERVALS_SIZE               32
#define CH_CFG_TIME_TYPES_SIZE              32
#define CH_CFG_ST_TIMEDELTA                 2
#else
/* The benchmark, and the own benchmarks (test/rt sequence 12, RTB_CHIBIOS_OWNTEST_BENCH): the
   system time is the board's cycle counter itself, so the benchmarks' time check
   (chVTIsSystemTimeWithinX on every loop) is one load and a compare, not the 64-bit division
   of the 10 kHz rate (629-665 cycles a loop, which their scores would count as the OS's). */
#define CH_CFG_ST_FREQUENCY                 BOARD_CLOCK_HZ
#define CH_CFG_INTERVALS_SIZE               32
#define CH_CFG_TIME_TYPES_SIZE              32
/* Minimum alarm distance in system ticks (here: cycles). It must exceed the few instructions
   between reading the time and programming the alarm in chvt.c, else RT retries with a
   larger delta (and records CH_RFCU_VT_INSUFFICIENT_DELTA). 64 cycles = 1.3 us at 48 MHz. */
#define CH_CFG_ST_TIMEDELTA                 64
#endif

/*===========================================================================*/
/* Kernel parameters and options.                                            */
/*===========================================================================*/

#define CH_CFG_TIME_QUANTUM                 0
#define CH_CFG_NO_IDLE_THREAD               FALSE

/*===========================================================================*/
/* Performance options.                                                      */
/*===========================================================================*/

#define CH_CFG_OPTIMIZE_SPEED               TRUE

/*===========================================================================*/
/* Subsystem options.                                                        */
/*===========================================================================*/

#define CH_CFG_USE_TM                       FALSE  /* needs PORT_SUPPORTS_RT: not on ARMv6-M */
#define CH_CFG_USE_TIMESTAMP                RTB_CH_FULL
#define CH_CFG_USE_REGISTRY                 RTB_CH_FULL
#define CH_CFG_USE_WAITEXIT                 RTB_CH_FULL
#define CH_CFG_USE_SEMAPHORES               TRUE
#define CH_CFG_USE_SEMAPHORES_PRIORITY      FALSE
#define CH_CFG_USE_MUTEXES                  TRUE
#define CH_CFG_USE_MUTEXES_RECURSIVE        FALSE
#define CH_CFG_USE_CONDVARS                 RTB_CH_FULL
#define CH_CFG_USE_CONDVARS_TIMEOUT         RTB_CH_FULL
#define CH_CFG_USE_EVENTS                   RTB_CH_FULL
#define CH_CFG_USE_EVENTS_TIMEOUT           RTB_CH_FULL
#define CH_CFG_USE_MESSAGES                 RTB_CH_FULL
#define CH_CFG_USE_MESSAGES_PRIORITY        FALSE
#define CH_CFG_USE_DYNAMIC                  RTB_CH_FULL

/*===========================================================================*/
/* OSLIB options.                                                            */
/*===========================================================================*/

#define CH_CFG_USE_MAILBOXES                TRUE
/* Memory pools require the core allocator (chmempools.h). The boards' linker script has no
   __heap_base__, so its area is a static array: 3 KiB for the own tests, a token 16 bytes for
   the benchmark (which gives its pool a static array of blocks and no provider). */
#define CH_CFG_USE_MEMCORE                  TRUE
#if RTB_CH_FULL
#define CH_CFG_MEMCORE_SIZE                 3072
#else
#define CH_CFG_MEMCORE_SIZE                 16
#endif
#define CH_CFG_USE_HEAP                     RTB_CH_FULL
#define CH_CFG_USE_MEMPOOLS                 TRUE
#define CH_CFG_USE_OBJ_FIFOS                TRUE
#define CH_CFG_USE_PIPES                    RTB_CH_FULL
#define CH_CFG_USE_OBJ_CACHES               RTB_CH_FULL
#define CH_CFG_USE_DELEGATES                RTB_CH_FULL
#define CH_CFG_USE_JOBS                     RTB_CH_FULL

/*===========================================================================*/
/* Objects factory options.                                                  */
/*===========================================================================*/

#define CH_CFG_USE_FACTORY                  RTB_CH_FULL
#define CH_CFG_FACTORY_MAX_NAMES_LENGTH     8
#define CH_CFG_FACTORY_OBJECTS_REGISTRY     RTB_CH_FULL
#define CH_CFG_FACTORY_GENERIC_BUFFERS      RTB_CH_FULL
#define CH_CFG_FACTORY_SEMAPHORES           RTB_CH_FULL
#define CH_CFG_FACTORY_MAILBOXES            RTB_CH_FULL
#define CH_CFG_FACTORY_OBJ_FIFOS            RTB_CH_FULL
#define CH_CFG_FACTORY_PIPES                RTB_CH_FULL

/*===========================================================================*/
/* Debug options: all off (release).                                         */
/*===========================================================================*/

#define CH_DBG_STATISTICS                   FALSE
#define CH_DBG_SYSTEM_STATE_CHECK           FALSE
#define CH_DBG_ENABLE_CHECKS                FALSE
#define CH_DBG_ENABLE_ASSERTS               FALSE
#define CH_DBG_TRACE_MASK                   CH_DBG_TRACE_MASK_DISABLED
#define CH_DBG_TRACE_BUFFER_SIZE            128
#define CH_DBG_ENABLE_STACK_CHECK           FALSE
#define CH_DBG_FILL_THREADS                 FALSE
#define CH_DBG_THREADS_PROFILING            FALSE

/*===========================================================================*/
/* Kernel hooks: all empty.                                                  */
/*===========================================================================*/

#define CH_CFG_SYSTEM_EXTRA_FIELDS
#define CH_CFG_SYSTEM_INIT_HOOK() {}
#define CH_CFG_OS_INSTANCE_EXTRA_FIELDS
#define CH_CFG_OS_INSTANCE_INIT_HOOK(oip) {}
/* rtb_suspend(RTB_SELF) parks the caller on a thread reference kept in its own thread_t
 * (bench/ports/chibios/port.c). */
#define CH_CFG_THREAD_EXTRA_FIELDS void *rtb_parked;
#define CH_CFG_THREAD_INIT_HOOK(tp) { (tp)->rtb_parked = NULL; }
#define CH_CFG_THREAD_EXIT_HOOK(tp) {}
#define CH_CFG_CONTEXT_SWITCH_HOOK(ntp, otp) {}
#define CH_CFG_IRQ_PROLOGUE_HOOK() {}
#define CH_CFG_IRQ_EPILOGUE_HOOK() {}
#define CH_CFG_IDLE_ENTER_HOOK() {}
#define CH_CFG_IDLE_LEAVE_HOOK() {}
#define CH_CFG_IDLE_LOOP_HOOK() {}
#define CH_CFG_SYSTEM_TICK_HOOK() {}
#define CH_CFG_SYSTEM_HALT_HOOK(reason) {}
#define CH_CFG_TRACE_HOOK(tep) {}
#define CH_CFG_RUNTIME_FAULTS_HOOK(mask) {}

/*===========================================================================*/
/* Port-specific settings (override port settings defaulted in chcore.h).    */
/*===========================================================================*/

#define CORTEX_ENABLE_WFI_IDLE              TRUE
#define CORTEX_ALTERNATE_SWITCH             FALSE

#endif /* CHCONF_H */
