/*
 * What every ChibiOS/NIL configuration of this port shares (written for this port): the
 * suite's port (chconf.h), NIL's own test suite (owntest/chconf.h) and the footprint image
 * (footprint/chconf.h). Each of them sets its threads, its timer frequency and its subsystems,
 * then includes this file: the system timer's tick-less mode on the board's 32-bit compare
 * timer (../chcore_timer.h), the OSLIB parts none of them uses off, the objects factory off,
 * every CH_DBG_* off (release) and the hooks empty.
 */
#ifndef CHCONF_COMMON_H
#define CHCONF_COMMON_H

#define _CHIBIOS_NIL_CONF_
#define _CHIBIOS_NIL_CONF_VER_4_0_

/* ---- system timer: tick-less (the frequency is each configuration's) ---- */
#define CH_CFG_ST_RESOLUTION                32
#define CH_CFG_ST_TIMEDELTA                 2

/* ---- OSLIB parts no configuration of the port uses ---- */
#define CH_CFG_USE_MEMCHECKS                FALSE
#define CH_CFG_USE_HEAP                     FALSE
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

#endif
