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
 * What the port's three configurations share is chconf_common.h, included last.
 */
#ifndef CHCONF_H
#define CHCONF_H

#if !defined(_FROM_ASM_)
#include "board_config.h" /* BOARD_CLOCK_HZ */
#endif

/* ---- kernel parameters and options ---- */
#define CH_CFG_MAX_THREADS                  10
#define CH_CFG_AUTOSTART_THREADS            FALSE

/* ---- system timer: tick-less on the board's compare timer ---- */
#if !defined(_FROM_ASM_)
#define CH_CFG_ST_FREQUENCY                 BOARD_CLOCK_HZ
#else
#define CH_CFG_ST_FREQUENCY                 48000000
#endif

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
#if !defined(CH_CFG_USE_MEMCORE)
#define CH_CFG_USE_MEMCORE                  TRUE
#endif
#define CH_CFG_MEMCORE_SIZE                 8 /* pools need the core allocator; the port loads them from arrays */
#if !defined(CH_CFG_USE_MEMPOOLS)
#define CH_CFG_USE_MEMPOOLS                 TRUE
#endif
#if !defined(CH_CFG_USE_OBJ_FIFOS)
#define CH_CFG_USE_OBJ_FIFOS                TRUE
#endif

/* ---- port options (ARMv6-M): the defaults ---- */
/* CORTEX_ALTERNATE_SWITCH FALSE: preemption from an ISR through the NMI (the port's default). */

#include "chconf_common.h"

#endif
