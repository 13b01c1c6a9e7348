/*
 * ChibiOS/NIL configuration for NIL's own test suite (test/nil) on the suite's boards
 * (written for this port). It follows test/nil/testbuild/chconf.h and the
 * NIL-STM32F051-DISCOVERY demo: threads from a table (the demo's "tester" at slot 4),
 * semaphores, events, messages and thread wait-exit on (the suite tests them), oslib off
 * (its own suite is not part of this target), debug off as in the release build of the port.
 * Timer: the same tick-less system timer on the board's compare alarm as the port
 * (../chcore_timer.h), at the testbuild's 1 kHz (the suite's time windows are one tick wide:
 * a wake-up must land within one tick, so the tick must be longer than the wake-up path).
 * What the port's configurations share: ../chconf_common.h, included last.
 */
#ifndef CHCONF_H
#define CHCONF_H

#if !defined(_FROM_ASM_)
#include "board_config.h"
#endif

#define CH_CFG_MAX_THREADS                  8
#define CH_CFG_AUTOSTART_THREADS            TRUE

#define CH_CFG_ST_FREQUENCY                 1000

#define CH_CFG_USE_WAITEXIT                 TRUE
#define CH_CFG_USE_SEMAPHORES               TRUE
#define CH_CFG_USE_MUTEXES                  FALSE
#define CH_CFG_USE_EVENTS                   TRUE
#define CH_CFG_USE_MESSAGES                 TRUE

#define CH_CFG_USE_MAILBOXES                FALSE
#define CH_CFG_USE_MEMCORE                  FALSE
#define CH_CFG_MEMCORE_SIZE                 0
#define CH_CFG_USE_MEMPOOLS                 FALSE
#define CH_CFG_USE_OBJ_FIFOS                FALSE

#include "../chconf_common.h"

#endif
