/*
 * tx_user.h - the ThreadX configuration of the benchmark suite (included by ThreadX through
 * TX_INCLUDE_USER_DEFINE_FILE, by the library and by the application alike). Written for
 * the suite; the option list follows the "For maximum speed" list that ThreadX's own
 * common/inc/tx_user_sample.h documents (and that Thread-Metric's ThreadX porting layer,
 * utility/benchmarks/thread_metric/threadx_example/tm_porting_layer_threadx.c, recommends
 * "for the fastest performance"). See README.md, "Configuration", for why each is fair.
 */
#ifndef TX_USER_H
#define TX_USER_H

/* The services without their parameter-checking layer (txe_*.c): tx_semaphore_get is
 * _tx_semaphore_get. ThreadX's documented fastest option (readme_threadx.txt, section 5). */
#define TX_DISABLE_ERROR_CHECKING

/* 32 priorities (0 most urgent): the suite uses 1 (controller) .. 9 (least urgent test). */
#define TX_MAX_PRIORITIES 32

/* 1 kHz tick from SysTick, like FreeRTOS in the suite (ThreadX's default is 100 Hz; its
 * core has no tick-less mode). */
#define TX_TIMER_TICKS_PER_SECOND (1000UL)

/* The "maximum speed" options of tx_user_sample.h. */
#define TX_DISABLE_PREEMPTION_THRESHOLD  /* the suite never uses preemption-threshold */
#define TX_DISABLE_REDUNDANT_CLEARING    /* the start-up code clears .bss */
#define TX_DISABLE_NOTIFY_CALLBACKS      /* no send/put/entry-exit notify callbacks */
#define TX_NOT_INTERRUPTABLE             /* kernel services run with interrupts off */
#define TX_TIMER_PROCESS_IN_ISR          /* timeouts and timers expire in the tick ISR */
#define TX_REACTIVATE_INLINE             /* periodic timer reactivation in line */
#define TX_DISABLE_STACK_FILLING         /* no 0xEF fill of thread stacks */
#define TX_INLINE_THREAD_RESUME_SUSPEND  /* resume/suspend internals in line */

/* Idle: the Cortex-M0 port's scheduler loop (in PendSV) waits with WFI, as every port of
 * the suite does when nothing is ready (ports/cortex_m0/gnu/src/tx_thread_schedule.S). */
#define TX_ENABLE_WFI

/* Off (not defined): TX_ENABLE_EVENT_TRACE, TX_*_ENABLE_PERFORMANCE_INFO,
 * TX_ENABLE_STACK_CHECKING, TX_ENABLE_EXECUTION_CHANGE_NOTIFY, TX_MISRA_ENABLE. */

#endif
