/*
 * Kernel internals: thread states and the kernel state (z_kernel). Not API. Compiles on its
 * own (kernel/tests/headers).
 */
#ifndef RTOSLAB_KSTATE_H
#define RTOSLAB_KSTATE_H

#include "arch_if.h"
#include "rtoslab/kernel.h"

/* ---- Thread states (high nibble 0xA0 marks a valid thread) ------------------------------- */

#define Z_STATE_READY 0xA1u         /* ready or running: in its priority's ready ring */
#define Z_STATE_BLOCKED 0xA2u       /* on a wait queue or sleeping */
#define Z_STATE_BLOCKED_MUTEX 0xA3u /* on a mutex's wait queue (z_wait.obj is the mutex) */
#define Z_STATE_SUSPENDED 0xA4u
#define Z_STATE_DEAD 0xA5u
#define Z_STATE_VALID(s) (((s) & 0xF0u) == 0xA0u)
/* Blocked, on whatever object (the two blocked states differ in bit 0 only). */
#define Z_STATE_IS_BLOCKED(s) (((s) & 0xFEu) == Z_STATE_BLOCKED)

/* k_start has run (Z_STARTED()). No field in the footprint build (Z_IDLE_NO_CURRENT,
 * config.h) when no interrupt asks (no resume from an interrupt, no timers): there the
 * calls that ask are thread calls, or tell an interrupt first, and the current thread is
 * set in every thread from k_start's first switch on (4 bytes of RAM, 4 of flash). */
#define Z_HAS_STARTED (!Z_IDLE_NO_CURRENT || K_CONFIG_SUSPEND || K_CONFIG_TIMER)
#if Z_HAS_STARTED
#define Z_STARTED() (z_kernel.started)
#else
#define Z_STARTED() (z_kernel.current != NULL)
#endif

/* ---- The kernel state: one struct ---------------------------------------------------------- */

struct z_kernel {
    struct k_thread *current;                    /* offset 0: used by the port's assembly */
#if K_CONFIG_READY_LIST
    struct k_thread *ready;                      /* offset 4: the ready list, highest first */
#else
#if K_CONFIG_PRIO_LEVELS > 8                     /* offset 4 (within reach of LDRH/LDRB) */
    uint16_t bitmap;                             /* bit of priority p: ring p is not empty */
#else
    uint8_t bitmap;
#endif
    uint8_t started;
    uint8_t pendsv_saved;                        /* ARMv7-M: the thread PendSV switches from
                                                    saved its light frame (switch_tail.inc) */
    struct k_thread *ready[K_CONFIG_PRIO_LEVELS]; /* tail of each priority's ring, or NULL */
#endif
    struct k_thread *timeouts;                   /* sleeping / timed waiters, by deadline */
#if K_CONFIG_MUTEX
    struct k_mutex *contended;                   /* mutexes with waiters */
#endif
#if K_CONFIG_TIMER
    struct k_timer *timers;                      /* running timers, by expiry */
#endif
#if !K_CONFIG_TICKLESS
    uint32_t ticks;
#endif
#if K_CONFIG_READY_LIST && Z_HAS_STARTED
    uint8_t started;
#endif
};

extern struct z_kernel z_kernel;

#endif
