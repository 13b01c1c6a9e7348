/*
 * The CMSIS-RTOS2 layer's control blocks and shared helpers (not API: cmsis_os2.h is).
 * Every object is a kernel object plus what CMSIS-RTOS2 adds (a name, a tag, the options the
 * kernel lacks). An id is the control block's address; its tag says it is live and of which
 * kind, so a stale or foreign id returns osErrorParameter.
 */
#ifndef OS2_INTERNAL_H
#define OS2_INTERNAL_H

#include <stdint.h>

#include "cmsis_os2.h"
#include "os2_config.h"
#include "rtoslab/kernel.h"

/* Tags: the first word after the kernel object. */
#define OS2_TAG_THREAD 0x4F535431u
#define OS2_TAG_TIMER 0x4F535432u
#define OS2_TAG_EVENT 0x4F535433u
#define OS2_TAG_MUTEX 0x4F535434u
#define OS2_TAG_SEM 0x4F535435u
#define OS2_TAG_POOL 0x4F535436u
#define OS2_TAG_QUEUE 0x4F535437u

/* Which memory came from the arena (freed with the object). */
#define OS2_OWN_CB 1u
#define OS2_OWN_DATA 2u

/* Thread life in the layer (the kernel's own state: k_thread_state). */
#define OS2_T_LIVE 0u
#define OS2_T_ENDED 1u  /* joinable, ended, not yet joined: osThreadTerminated */

struct os2_thread {
    struct k_thread k; /* first: k_thread_self() is the layer's thread */
    uint32_t tag;
    const char *name;
    osThreadFunc_t func;
    void *arg;
    uint8_t *stack;
    uint32_t stack_size;
    struct k_event flags;      /* thread flags */
    struct k_sem done;         /* signalled when a joinable thread ends (osThreadJoin) */
    struct os2_thread *next;   /* every thread of the layer (count, enumerate, reaping) */
    uint8_t prio;              /* CMSIS priority set by the application */
    uint8_t joinable;
    uint8_t own;               /* OS2_OWN_* */
    uint8_t life;              /* OS2_T_* */
};

struct os2_timer {
    struct k_timer k;
    uint32_t tag;
    const char *name;
    osTimerFunc_t func;
    void *arg;
    uint8_t periodic;
    volatile uint8_t running;
    uint8_t own;
    uint8_t pad;
};

struct os2_event {
    struct k_event k;
    uint32_t tag;
    const char *name;
    uint8_t own;
};

struct os2_mutex {
    struct k_mutex k;
    uint32_t tag;
    const char *name;
    uint8_t attr;    /* osMutexRecursive, osMutexPrioInherit, osMutexRobust (bits 0..3) */
    uint8_t count;   /* recursive locks held by the owner (at most 255) */
    uint8_t own;
};

struct os2_sem {
    struct k_sem k;
    uint32_t tag;
    const char *name;
    uint16_t max;    /* max_count, at most 65535 */
    uint8_t own;
};

struct os2_pool {
    struct k_mempool k;
    uint32_t tag;
    const char *name;
    struct k_sem avail;  /* free blocks: a waiting osMemoryPoolAlloc waits here */
    uint32_t block;      /* block size as asked */
    uint32_t count;
    void *data;
    uint8_t own;
};

struct os2_queue {
    struct k_queue k;
    uint32_t tag;
    const char *name;
    uint8_t *data;       /* capacity + 1 items: the last is osMessageQueueReset's scratch */
    uint32_t msg_size;
    uint32_t capacity;
    uint8_t own;
};

/* ---- os2_kernel.c ---- */
/* osKernelLock's priority: above every CMSIS priority (os2_prio), so that no other thread
 * runs while it is held. */
#define OS2_LOCK_PRIO K_PRIO_MAX
/* The kernel priority of a CMSIS priority (1..55 onto 0..13, order kept). */
static inline unsigned os2_prio(osPriority_t p) { return (unsigned)p / 4u; }
/* A duration in API ticks as kernel time (osWaitForever: K_FOREVER); the two constants
 * inline (the calls' common arguments), the rest out of line. */
k_timeout_t os2_ticks_finite(uint32_t ticks);
static inline k_timeout_t os2_ticks(uint32_t ticks)
{
    if (ticks == osWaitForever)
        return K_FOREVER;
    return ticks == 0u ? K_NO_WAIT : os2_ticks_finite(ticks);
}
/* The time to the ticks-th tick boundary, for a timer's first expiry. */
k_timeout_t os2_ticks_exact(uint32_t ticks);
/* A period of `ticks` as kernel time (at most K_TIMEOUT_MAX). */
k_timeout_t os2_period(uint32_t ticks);
/* Nonzero in an interrupt handler (IPSR: an exception is active; inline, one instruction). */
static inline int os2_in_isr(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr != 0u;
}
/* The calling thread's base priority restored (after an osKernelLock or a thread's end). */
void os2_prio_restore(struct os2_thread *t);
/* Nonzero while osKernelLock or osKernelSuspend holds the scheduler. */
int os2_locked(void);

/* ---- os2_memory.c: the arena ---- */
void os2_memory_init(void);
void *os2_alloc(uint32_t bytes); /* 8-byte aligned, or NULL */
void os2_free(void *p);

/* ---- os2_thread.c ---- */
struct os2_thread *os2_self(void);
/* The memory of joined or ended detached threads back to the arena. */
void os2_reap(void);

/* ---- os2_timer.c ---- */
int os2_timer_init(void);

/* Attribute helpers: the memory an object gets (attr's, or the arena's) */
void *os2_cb(void *cb_mem, uint32_t cb_size, uint32_t need, uint8_t *own);

#endif
