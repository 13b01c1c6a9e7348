/*
 * ChibiOS/NIL configuration of the footprint image (written for this port): what
 * kernel/examples/minimal.c uses of rtoslab, i.e. threads, semaphores and delays, and
 * nothing else: two threads from the static table, semaphores on, events, messages,
 * wait-exit and all of oslib off, every CH_DBG_* off, tick-less on the board's compare
 * timer as in the bench port (../chcore_timer.h). What the port's configurations share:
 * ../chconf_common.h, included last.
 */
#ifndef CHCONF_H
#define CHCONF_H

#if !defined(_FROM_ASM_)
#include "board_config.h"
#endif

#define CH_CFG_MAX_THREADS                  2
#define CH_CFG_AUTOSTART_THREADS            TRUE

#if !defined(_FROM_ASM_)
#define CH_CFG_ST_FREQUENCY                 BOARD_CLOCK_HZ
#else
#define CH_CFG_ST_FREQUENCY                 48000000
#endif

#define CH_CFG_USE_WAITEXIT                 FALSE
#define CH_CFG_USE_SEMAPHORES               TRUE
#define CH_CFG_USE_MUTEXES                  FALSE
#define CH_CFG_USE_EVENTS                   FALSE
#define CH_CFG_USE_MESSAGES                 FALSE

#define CH_CFG_USE_MAILBOXES                FALSE
#define CH_CFG_USE_MEMCORE                  FALSE
#define CH_CFG_MEMCORE_SIZE                 0
#define CH_CFG_USE_MEMPOOLS                 FALSE
#define CH_CFG_USE_OBJ_FIFOS                FALSE

#include "../chconf_common.h"

#endif
