/*
 * contiki-conf.h - the Contiki-NG 5.0 configuration of the suite's minimal "platform"
 * (bench/ports/contiki-ng), written for this port. Contiki-NG has no Cortex-M0 platform; the
 * values follow arch/cpu/arm/arm-def.h and arch/platform/native/contiki-conf.h where they
 * apply, and are chosen for a release build:
 *  - clock: CLOCK_SECOND = 1000 (native's and Cooja's value; arm-def.h's 128 is for a
 *    hardware tick, which this platform does not have: clock_time() is computed from the
 *    board's cycle counter, tick-less, so its resolution costs nothing). 32-bit
 *    clock_time_t (arch/cpu/msp430's choice; 49 days at 1 kHz) instead of the 64-bit
 *    default: the native width of the core.
 *  - rtimer: 32-bit, at the board's clock (RTIMER_ARCH_SECOND = BOARD_CLOCK_HZ), on the
 *    board's compare timer (rtimer-arch.h, platform.c).
 *  - logs: every module at LOG_LEVEL_NONE (the default of log-conf.h), no process names.
 *  - no networking: the NETSTACK is not compiled; no energest, no stack check, no watchdog.
 */
#ifndef CONTIKI_CONF_H_
#define CONTIKI_CONF_H_

#include <stdint.h>
#include <inttypes.h>
#include "board_config.h"

/* This toolchain's newlib <inttypes.h> leaves the 64-bit PRI macros undefined (its
 * __int64_t_defined test fails); unit-test.c prints with PRIu64/PRId64. */
#ifndef PRIu64
#define PRIu64 "llu"
#endif
#ifndef PRId64
#define PRId64 "lld"
#endif

#ifdef PROJECT_CONF_PATH /* an upstream test's project-conf.h (owntest images) */
#include PROJECT_CONF_PATH
#endif

#define CLOCK_CONF_SECOND 1000
#define CLOCK_CONF_SIZE 4
#define RTIMER_CONF_CLOCK_SIZE 4

/* Release: the strings of process names are not kept (PROCESS_NAME_STRING is ""). */
#ifndef PROCESS_CONF_NO_PROCESS_NAMES
#define PROCESS_CONF_NO_PROCESS_NAMES 1
#endif
#define PROCESS_CONF_STATS 0
#define ENERGEST_CONF_ON 0
#define LOG_CONF_LEVEL_SYS LOG_LEVEL_NONE
#define LOG_CONF_LEVEL_MAIN LOG_LEVEL_NONE

/* The core has no networking here. */
#define NETSTACK_CONF_WITH_IPV6 0
#define NETSTACK_CONF_WITH_NULLNET 1

/* A type Contiki-NG's headers expect from a platform (arch/cpu/arm/arm-def.h). */
typedef uint32_t uip_stats_t;

#endif /* CONTIKI_CONF_H_ */
