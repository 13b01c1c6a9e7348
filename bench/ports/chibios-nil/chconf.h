/*
 * ChibiOS/NIL configuration for the rtoslab benchmark suite (written for this port; the
 * values follow the NIL-STM32F051-DISCOVERY demo's cfg/chconf.h except where noted).
 *
 *  - tick-less (CH_CFG_ST_TIMEDELTA > 0) like the demo, but on the board's 32-bit compare
 *    timer counting CPU cycles: CH_CFG_ST_FREQUENCY = BOARD_CLOCK_HZ (the demo runs TIM2
 *    divided to 1 kHz; the undivided counter gives every timeout cycle resolution);
 *  - every CH_DBG_* off (the demo's release values);
 *  - CH_CFG_MAX_THREADS 10, sized as a NIL application sizes it, for the most threads the
 *    suite runs at once: the controller and 9 test threads (scale.*.n8), plus NIL's idle
 *    thread (NIL accepts at most 16: ch.h);
 *  - no auto-started thread table: every thread, the controller included, is created at run
 *    time with chThdCreate() into its priority slot (NIL 4);
 *  - oslib: memory pools, mailboxes and objects FIFOs (the suite's memory blocks and
 *    message queues); the rest of oslib off.
 */
#ifndef CHCONF_H
#define CHCONF_H

#define _CHIBIOS_NIL_CONF_
#define _CHIBIOS_NIL_CONF_VER_4_0_

#if !defined(_FROM_ASM_)
#include "board_config.h" /* BOARD_CLOCK_HZ */
#endif

/* ---- kernel parameters and options ---- */
#define CH_CFG_MAX_THREADS                  10
#define CH_CFG_AUTOSTART_THREADS            FALSE

/* ---- system timer: tick-less on the board's compare timer ---- */
#define CH_CFG_ST_RESOLUTION                32
#if !defined(_FROM_ASM_)
#define CH_CFG_ST_FREQUENCY                 BOARD_CLOCK_HZ
#else
#define CH_CFG_ST_FREQUENCY                 48000000
#endif
#define CH_CFG_ST_TIMEDELTA                 2

/* ---- subsystem options ---- */
#define CH_CFG_USE_WAITEXIT                 FALSE
#define CH_CFG_USE_SEMAPHORES               TRUE
#define CH_CFG_USE_MUTEXES                  FALSE /* NIL has none (ch.h: "not yet supported") */
#define CH_CFG_USE_EVENTS                   TRUE
#define CH_CFG_USE_MESSAGES                 FALSE

/* ---- OSLIB options ---- */
#if !defined(CH_CFG_USE_MAILBOXES)
#define CH_CFG_USE_MAILBOXES                TRUE
#endif
#define CH_CFG_USE_MEMCHECKS                FALSE
#if !defined(CH_CFG_USE_MEMCORE)
#define CH_CFG_USE_MEMCORE                  TRUE
#endif
#define CH_CFG_MEMCORE_SIZE                 8 /* pools need the core allocator; the port loads them from arrays */
#define CH_CFG_USE_HEAP                     FALSE
#if !defined(CH_CFG_USE_MEMPOOLS)
#define CH_CFG_USE_MEMPOOLS                 TRUE
#endif
#if !defined(CH_CFG_USE_OBJ_FIFOS)
#define CH_CFG_USE_OBJ_FIFOS                TRUE
#endif
#define CH_CFG_USE_PIPES                    FALSE
#define CH_CFG_USE_OBJ_CACHES               FALSE
#define CH_CFG_USE_DELEGATES                FALSE
#define CH_CFG_USE_JOBS                     FALSE

/* ---- objects factory: off ---- */
#define CH_CFG_USE_FACTORY                  FALSE
#define CH_CFG_FACTORY_MAX_NAMES_LENGTH     8
#define CH_CFG_FACTORY_OBJECTS_REGISTRY     FALSE
#define CH_CFG_FACTORY_GENERIC_BUFFERS      FALSE
#define CH_CFG_FACTORY_SEMAPHORES           FALSE
#define CH_CFG_FACTORY_MAILBOXES            FALSE
#define CH_CFG_FACTORY_OBJ_FIFOS            FALSE
#define CH_CFG_FACTORY_PIPES                FALSE

/* ---- debug options: all off (release) ---- */
#define CH_DBG_STATISTICS                   FALSE
#define CH_DBG_SYSTEM_STATE_CHECK           FALSE
#define CH_DBG_ENABLE_CHECKS                FALSE
#define CH_DBG_ENABLE_ASSERTS               FALSE
#define CH_DBG_ENABLE_STACK_CHECK           FALSE

/* ---- hooks: empty ---- */
#define CH_CFG_SYSTEM_INIT_HOOK() {}
#define CH_CFG_THREAD_EXT_FIELDS
#define CH_CFG_THREAD_EXT_INIT_HOOK(tp) {}
#define CH_CFG_THREAD_EXIT_HOOK(tp) {}
#define CH_CFG_IDLE_ENTER_HOOK() {}
#define CH_CFG_IDLE_LEAVE_HOOK() {}
#define CH_CFG_SYSTEM_HALT_HOOK(reason) {}

/* ---- port options (ARMv6-M): the defaults ---- */
/* CORTEX_ALTERNATE_SWITCH FALSE: preemption from an ISR through the NMI (the port's default). */

#endif
