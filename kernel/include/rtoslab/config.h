/*
 * rtoslab kernel configuration: every compile-time option in one place.
 *
 * Each option can be overridden with a compiler definition (-DK_CONFIG_...=...), which is
 * how kernel/CMakeLists.txt builds its variants (full, minimal, periodic tick). The same
 * definitions must be seen by the kernel and by the application, because the size of
 * struct k_thread and of the objects depends on them: link against the CMake target, which
 * publishes them.
 */
#ifndef RTOSLAB_CONFIG_H
#define RTOSLAB_CONFIG_H

/* ---- Time ------------------------------------------------------------------------------ */

/* 1: tickless, on the board's compare timer (board_alarm_set), time unit = one CPU cycle.
 * 0: periodic SysTick interrupt, time unit = one tick of K_CONFIG_TICK_HZ. */
#ifndef K_CONFIG_TICKLESS
#define K_CONFIG_TICKLESS 1
#endif

/* Core clock in Hz (used for K_USEC/K_MSEC and to program SysTick): the board's
 * (rtoslab_board.h, rtoslab/board_if.h). */
#if !defined(K_CONFIG_CLOCK_HZ) && !defined(__ASSEMBLER__) /* (the port's assembly needs none) */
#include "rtoslab_board.h"
#define K_CONFIG_CLOCK_HZ BOARD_CLOCK_HZ
#endif

/* Tick rate of the periodic-tick build. */
#ifndef K_CONFIG_TICK_HZ
#define K_CONFIG_TICK_HZ 1000u
#endif

/* Tickless only: the alarm is programmed this many cycles before a sleep's or a timer's
 * deadline and the woken thread (or timer callback) spins the rest, so that a delay ends
 * within a few cycles of its deadline instead of one interrupt-plus-switch latency late.
 * Not for timed waits: a waiter stays wakeable until its deadline (time.c). 0 disables it. */
#ifndef K_CONFIG_TIMER_LEAD
#define K_CONFIG_TIMER_LEAD 0u
#endif

/* Tickless only: cycles between the call of k_sleep and its first reading of the clock, plus
 * from its last reading to the return (thread.c: k_sleep's own code, the same in every build
 * of a profile): taken off the deadline so that the caller sees the delay it asked for (never
 * more than these fixed costs, so never early). A board's figure, per profile: board.toml. */
#ifndef K_CONFIG_SLEEP_TRIM
#define K_CONFIG_SLEEP_TRIM 0u
#endif

/* Tickless only: the idle loop enters the board's deep sleep (SCR.SLEEPDEEP, the STM32's Stop)
 * when its next deadline allows: no interrupt line but the alarm enabled (a deep sleep's
 * wake-up would delay anyone else's interrupt) and the alarm further away than the board's
 * wake-up plus the idle for which Stop costs less than Sleep (BOARD_DEEP_WAKEUP_CYCLES,
 * BOARD_DEEP_BREAK_EVEN_CYCLES: its energy model). The alarm is then moved earlier by the
 * wake-up, so a deadline keeps its time. A board without them only ever sleeps. 0: never. */
#ifndef K_CONFIG_DEEP_IDLE
#define K_CONFIG_DEEP_IDLE 1
#endif

/* 1: a sleep longer than K_TIMEOUT_MAX (2^30 - 1 units: 22 s at 48 MHz, tickless), beyond
 * the API's range of durations (kernel.h), is slept in chunks of at most that. 0: no chunks
 * (20 bytes of k_sleep on ARMv6-M, the footprint build's: ChibiOS/NIL's delays are likewise
 * limited to its system time's range); a longer finite duration is then the caller's error
 * (undefined: it may end early). */
#ifndef K_CONFIG_LONG_SLEEP
#define K_CONFIG_LONG_SLEEP 1
#endif

/* 1: k_sleep(K_NO_WAIT) is a yield (k_yield), so every program that sleeps links k_yield.
 * 0: it is a sleep whose deadline has passed, like any other (it returns 0 at once, or
 * K_EMASKED with interrupts masked), and k_yield is linked only if the application calls it
 * (52 bytes on ARMv6-M in the footprint build, whose application does not; ChibiOS/NIL has
 * no yield, and its sleep refuses TIME_IMMEDIATE). */
#ifndef K_CONFIG_SLEEP_YIELD
#define K_CONFIG_SLEEP_YIELD 1
#endif

/* ---- Scheduler ------------------------------------------------------------------------- */

/* Number of priority levels, 1..16. Priority 0 is the lowest, K_PRIO_MAX the highest.
 * Each level costs 4 bytes of kernel RAM; more than 8 costs a few cycles per choice. */
#ifndef K_CONFIG_PRIO_LEVELS
#define K_CONFIG_PRIO_LEVELS 16
#endif

/* Hand-written fast paths of the port for the hot calls (k_yield, k_sem_wait/_signal/
 * _signal_isr, uncontended k_mutex_lock/_unlock, PendSV); 0 uses the portable C versions. */
#ifndef K_CONFIG_FASTPATH
#define K_CONFIG_FASTPATH 1
#endif

/* 1: a thread that blocks, yields or wakes a higher-priority thread switches synchronously
 * (a function-call frame, no exception); 0: every switch goes through PendSV (one frame
 * format: smaller code, slower switches; the footprint build). 0 needs K_CONFIG_FASTPATH=0. */
#ifndef K_CONFIG_SYNC_SWITCH
#define K_CONFIG_SYNC_SWITCH 1
#endif

/* 1: the ready threads in one list sorted by priority (FIFO among equals), the running one
 * first: no ring per priority, no bitmap, no table, one pointer of RAM for any number of
 * levels, and the same insertion code as the wait queues; making a thread ready walks the
 * ready threads of its priority and above (O(n) instead of O(1)). 0: the O(1) rings. The
 * footprint build; needs K_CONFIG_FASTPATH=0 (the fast paths work on the rings). */
#ifndef K_CONFIG_READY_LIST
#define K_CONFIG_READY_LIST 0
#endif

/* The scheduler's hot primitives inlined at every call site (faster, bigger). */
#ifndef K_CONFIG_INLINE
#define K_CONFIG_INLINE 1
#endif

/* ---- Features (0 removes the code and the per-object/per-thread fields) ---------------- */

#ifndef K_CONFIG_MUTEX
#define K_CONFIG_MUTEX 1        /* mutexes with priority inheritance, deadlock detection */
#endif
#ifndef K_CONFIG_QUEUE
#define K_CONFIG_QUEUE 1        /* message queues of fixed-size items */
#endif
#ifndef K_CONFIG_TIMER
#define K_CONFIG_TIMER 1        /* software timers (callbacks in interrupt context) */
#endif
#ifndef K_CONFIG_WAIT_TIMEOUT
#define K_CONFIG_WAIT_TIMEOUT 1 /* timeouts on blocking calls (k_sleep is always there) */
#endif
#ifndef K_CONFIG_SUSPEND
#define K_CONFIG_SUSPEND 1      /* k_thread_suspend / k_thread_resume */
#endif
#ifndef K_CONFIG_DESTROY
#define K_CONFIG_DESTROY 1      /* k_*_destroy: wake the waiters with K_EDESTROYED */
#endif
#ifndef K_CONFIG_MEMPOOL
#define K_CONFIG_MEMPOOL 1      /* fixed-size block pools (k_mempool_*) */
#endif
#ifndef K_CONFIG_EVENT
#define K_CONFIG_EVENT 1        /* event flags (k_event_*): 4 more bytes per thread */
#endif

/* ---- Safety ---------------------------------------------------------------------------- */

/* Argument and misuse checks (NULL or foreign object, waiting in an ISR, unlocking a mutex
 * one does not own): the call returns a negative error code. */
#ifndef K_CONFIG_CHECKS
#define K_CONFIG_CHECKS 1
#endif

/* Stack overflow detection at every context switch (saved SP against the stack limit, and
 * a guard word at the limit). An overflow calls k_fatal(K_ESTACK, thread). */
#ifndef K_CONFIG_STACK_CHECK
#define K_CONFIG_STACK_CHECK 1
#endif

/* Internal consistency assertions (K_ASSERT): a failure calls k_fatal(K_EASSERT, ...). */
#ifndef K_CONFIG_ASSERT
#define K_CONFIG_ASSERT 0
#endif

/* ---- Derived (do not override) --------------------------------------------------------- */

#if K_CONFIG_FASTPATH && !K_CONFIG_SYNC_SWITCH
#error "K_CONFIG_SYNC_SWITCH=0 needs K_CONFIG_FASTPATH=0"
#endif
#if K_CONFIG_FASTPATH && K_CONFIG_READY_LIST
#error "K_CONFIG_READY_LIST=1 needs K_CONFIG_FASTPATH=0"
#endif
#if K_CONFIG_PRIO_LEVELS < 1 || K_CONFIG_PRIO_LEVELS > 16
#error "K_CONFIG_PRIO_LEVELS must be 1..16"
#endif

/* The footprint build's scheduler: the ready list, every switch through PendSV (which on
 * ARMv6-M picks the list's head itself: no stack check, no assertions to call into C for),
 * an idle loop without the deep idle, and no call from an interrupt that reads the current
 * thread (the queues' _isr calls compare with its priority; the checks tell K_EISR from
 * K_ESTATE by it). There z_kernel.current is NULL while the CPU idles, as before k_start
 * (PendSV, or z_sched_pendsv, stores the head it found, NULL included): an interrupt that
 * readies any thread then finds it differs from the current one and pends PendSV
 * (z_reschedule_isr), so the ARMv6-M idle loop only sleeps (no look at the ready list, no
 * PendSV of its own: 28 bytes; the ARMv7-M port's loop, shared with its other builds, still
 * looks). Elsewhere the current thread stays the one that left until PendSV resumes
 * another. */
#define Z_IDLE_NO_CURRENT                                                                  \
    (K_CONFIG_READY_LIST && !K_CONFIG_SYNC_SWITCH && !K_CONFIG_STACK_CHECK &&               \
     !K_CONFIG_ASSERT && !(K_CONFIG_TICKLESS && K_CONFIG_DEEP_IDLE) && !K_CONFIG_QUEUE &&   \
     !K_CONFIG_CHECKS)

/* A thread remembers the object it waits on (and the wake-up result) when a wait can end
 * otherwise than by the object: a timeout, destruction, or mutex bookkeeping. */
#define Z_HAS_WAIT_OBJ (K_CONFIG_WAIT_TIMEOUT || K_CONFIG_MUTEX || K_CONFIG_DESTROY || K_CONFIG_EVENT)
/* Lazy timeout removal: the assembly fast paths that wake a semaphore waiter leave its
 * timeout in the list (no list walk on the hot path). Such a timeout is stale: the alarm
 * drops it when it falls due if the thread is no longer blocked, and a thread that blocks
 * again first removes its own (z_block_prepare, z_timeout_add; the fast wait goes to C when
 * its caller still has one). A blocked thread's timeout is therefore always its own. */
#define Z_LAZY_TIMEOUTS (K_CONFIG_FASTPATH && K_CONFIG_WAIT_TIMEOUT)

#endif
