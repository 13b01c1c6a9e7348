/*
 * ChibiOS/NIL configuration of the footprint image (written for this port): what
 * kernel/examples/minimal.c uses of rtoslab, i.e. threads, semaphores and delays, and
 * nothing else: two threads from the static table, semaphores on, events, messages,
 * wait-exit and all of oslib off, every CH_DBG_* off, tick-less on the board's compare
 * timer as in the bench port (../chcore_timer.h).
 */
#ifndef CHCONF_H
#define CHCONF_H

#define _CHIBIOS_NIL_CONF_
#define _CHIBIOS_NIL_CONF_VER_4_0_

#if !defined(_FROM_ASM_)
#include "board_config.h"
#endif

#define CH_CFG_MAX_THREADS                  2
#define CH_CFG_AUTOSTART_THREADS            TRUE

#define CH_CFG_ST_RESOLUTION                32
#if !defined(_FROM_ASM_)
#define CH_CFG_ST_FREQUENCY                 BOARD_CLOCK_HZ
#else
#define CH_CFG_ST_FREQUENCY                 48000000
#endif
#define CH_CFG_ST_TIMEDELTA                 2

#define CH_CFG_USE_WAITEXIT                 FALSE
#define CH_CFG_USE_SEMAPHORES               TRUE
#define CH_CFG_USE_MUTEXES                  FALSE
#define CH_CFG_USE_EVENTS                   FALSE
#define CH_CFG_USE_MESSAGES                 FALSE

#define CH_CFG_USE_MAILBOXES                FALSE
#define CH_CFG_USE_MEMCHECKS                FALSE
#define CH_CFG_USE_MEMCORE                  FALSE
#define CH_CFG_MEMCORE_SIZE                 0
#define CH_CFG_USE_HEAP                     FALSE
#define CH_CFG_USE_MEMPOOLS                 FALSE
#define CH_CFG_USE_OBJ_FIFOS                FALSE
#define CH_CFG_USE_PIPES                    FALSE
#define CH_CFG_USE_OBJ_CACHES               FALSE
#define CH_CFG_USE_DELEGATES                FALSE
#define CH_CFG_USE_JOBS                     FALSE
#define CH_CFG_USE_FACTORY                  FALSE
#define CH_CFG_FACTORY_MAX_NAMES_LENGTH     8
#define CH_CFG_FACTORY_OBJECTS_REGISTRY     FALSE
#define CH_CFG_FACTORY_GENERIC_BUFFERS      FALSE
#define CH_CFG_FACTORY_SEMAPHORES           FALSE
#define CH_CFG_FACTORY_MAILBOXES            FALSE
#define CH_CFG_FACTORY_OBJ_FIFOS            FALSE
#define CH_CFG_FACTORY_PIPES                FALSE

#define CH_DBG_STATISTICS                   FALSE
#define CH_DBG_SYSTEM_STATE_CHECK           FALSE
#define CH_DBG_ENABLE_CHECKS                FALSE
#define CH_DBG_ENABLE_ASSERTS               FALSE
#define CH_DBG_ENABLE_STACK_CHECK           FALSE

#define CH_CFG_SYSTEM_INIT_HOOK() {}
#define CH_CFG_THREAD_EXT_FIELDS
#define CH_CFG_THREAD_EXT_INIT_HOOK(tp) {}
#define CH_CFG_THREAD_EXIT_HOOK(tp) {}
#define CH_CFG_IDLE_ENTER_HOOK() {}
#define CH_CFG_IDLE_LEAVE_HOOK() {}
#define CH_CFG_SYSTEM_HALT_HOOK(reason) {}

#endif
