/*
 * riot_defs.h - what RIOT's make-based build would put in its generated riotbuild.h (and on
 * the compiler's command line) for this port. The port does not use RIOT's build system: it
 * compiles RIOT's core, cpu/cortexm_common and a few sys modules itself (CMakeLists.txt), so
 * the defines are written here, by hand, and force-included (-include) in every RIOT
 * translation unit and in the port's own sources. Written for this port (not copied).
 *
 * Release configuration, as a RIOT application built without DEVELHELP gets it:
 *   - DEVELHELP        not defined (no stack painting, no thread names, no assertion texts)
 *   - NDEBUG           defined (RIOT's assert() compiles to nothing)
 *   - SCHED_TEST_STACK not defined (no stack-overflow check in the scheduler)
 *   - MODULE_SCHEDSTATISTICS, MODULE_SCHED_CB, MODULE_CORE_MUTEX_DEBUG, MODULE_PM_LAYERED,
 *     MODULE_CORE_IDLE_THREAD: not used (cortexm idles in sched_arch_idle: WFI in PendSV)
 *   - MODULE_CORE_MUTEX_PRIORITY_INHERITANCE: used (RIOT's optional priority inheritance)
 */
#ifndef RIOT_DEFS_H
#define RIOT_DEFS_H

#define RIOT_VERSION "2026.07"
#define RIOT_VERSION_CODE RIOT_VERSION_NUM(2026, 7, 0, 0)
#define RIOT_BOARD "rtoslab"
#define RIOT_APPLICATION "rtoslab-bench"
#if defined(__ARM_ARCH_7EM__) && defined(__ARM_FP)
#define RIOT_CPU "rtoslab_m4f"
#define CPU_CORE_CORTEX_M4F 1
#define CPU_ARCH_ARMV7M 1
#define MODULE_CORTEXM_FPU 1 /* RIOT's FPU context (s16-s31 when EXC_RETURN says so) */
#elif defined(__ARM_ARCH_7EM__)
#define RIOT_CPU "rtoslab_m4"
#define CPU_CORE_CORTEX_M4 1
#define CPU_ARCH_ARMV7M 1
#elif defined(__ARM_ARCH_7M__)
#define RIOT_CPU "rtoslab_m3"
#define CPU_CORE_CORTEX_M3 1
#define CPU_ARCH_ARMV7M 1
#else
#define RIOT_CPU "rtoslab_m0"
#define CPU_CORE_CORTEX_M0 1
#define CPU_ARCH_ARMV6M 1
#endif

/* The modules used (MODULE_<NAME> = 1, as RIOT's build defines them). */
#define MODULE_CORE 1
#define MODULE_CORE_INIT 1
#define MODULE_CORE_LIB 1
#define MODULE_CORE_THREAD 1
#define MODULE_CORE_MUTEX_PRIORITY_INHERITANCE 1
#define MODULE_CORTEXM_COMMON 1
#define MODULE_PERIPH_TIMER 1
#define MODULE_PERIPH_COMMON 1
#define MODULE_SEMA 1
#define MODULE_MEMARRAY 1
#define MODULE_ZTIMER 1
#define MODULE_ZTIMER_CORE 1
#define MODULE_ZTIMER_EXTEND 1
#define MODULE_ZTIMER_PERIPH_TIMER 1
#define MODULE_ZTIMER_PERIODIC 1
#define MODULE_ZTIMER_CONVERT 1
#define MODULE_ZTIMER_CONVERT_FRAC 1
#define MODULE_FRAC 1

/* Threads: the suite's 40 thread ids, its controller, and room to spare. RIOT's default is
 * 32 (sched.h); the scaling tests need 33 test threads plus the controller. */
#define MAXTHREADS 42

#ifndef NDEBUG
#define NDEBUG 1
#endif

#endif
