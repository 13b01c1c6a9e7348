/*
 * CMSIS-RTOS2 kernel information and control, and the generic waits (osDelay,
 * osDelayUntil), over the rtoslab kernel (docs/cmsis-rtos2.md).
 *
 * The kernel has no scheduler lock: osKernelLock raises the calling thread to OS2_LOCK_PRIO,
 * a level above every CMSIS priority, so no other thread runs until osKernelUnlock (as a
 * scheduler lock; interrupts still run). osKernelSuspend does the same: the kernel is
 * tick-less already, so there is no tick to stop.
 */
#include "os2_internal.h"

#include <string.h>

static osKernelState_t state = osKernelInactive;
static uint8_t locked;                 /* osKernelLock held */
static struct os2_thread *lock_holder; /* whose priority was raised */

#define UNITS_PER_TICK (K_TIME_HZ / OS2_TICK_HZ)
/* A delay or timeout that ends at a tick boundary ends this much after it (1/32 of a tick,
 * 31 us at 1 kHz; the tick count is still the boundary's): what a tick interrupt does first
 * on a kernel with one, the timers due at that tick waking the timer thread, is done first
 * here too (the timers expire at the boundary itself). */
#define TICK_SKEW (UNITS_PER_TICK / 32u)

/* The API's tick, kept on the kernel clock: `base` is the kernel time of the last tick
 * boundary seen and `base_tick` its tick count; tick_now() moves them on to now (32-bit
 * arithmetic: one division by the tick's length; the clock must be read once per wrap, 89 s
 * at 48 MHz: every delay, timeout and tick count read does). Returns the time since the
 * boundary. */
static uint32_t base, base_tick;
static uint32_t tick_now(uint32_t *tick)
{
    uint32_t m;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(m)::"memory");
    uint32_t since = k_now() - base;
    if (since >= UNITS_PER_TICK) {
        uint32_t n = since / UNITS_PER_TICK;
        base += n * UNITS_PER_TICK;
        base_tick += n;
        since -= n * UNITS_PER_TICK;
    }
    *tick = base_tick;
    __asm volatile("msr primask, %0" ::"r"(m) : "memory");
    return since;
}

/* Kernel time from now to the ticks-th tick boundary (plus `skew`), at most `max`. */
static k_timeout_t to_boundary(uint32_t ticks, uint32_t skew, uint32_t max)
{
    uint32_t tick;
    uint32_t since = tick_now(&tick);
    uint64_t u = (uint64_t)ticks * UNITS_PER_TICK + skew - since;
    return u > max ? (k_timeout_t)max : (k_timeout_t)u;
}

/* A timeout of n ticks ends at the n-th tick boundary from now, as on a kernel with a tick
 * interrupt (RTX5): between n - 1 and n ticks of time, and the tick count then has moved on
 * by exactly n. (A timer's first expiry is at the boundary itself: os2_timer.c.) */
k_timeout_t os2_ticks_finite(uint32_t ticks)
{
    return to_boundary(ticks, TICK_SKEW, K_TIMEOUT_MAX);
}

k_timeout_t os2_ticks_exact(uint32_t ticks)
{
    return to_boundary(ticks, 0u, K_TIMEOUT_MAX);
}

k_timeout_t os2_period(uint32_t ticks)
{
    uint64_t u = (uint64_t)ticks * UNITS_PER_TICK;
    return u > K_TIMEOUT_MAX ? K_TIMEOUT_MAX : (k_timeout_t)u;
}

int os2_locked(void) { return locked; }

void os2_prio_restore(struct os2_thread *t)
{
    if (t)
        (void)k_thread_prio_set(&t->k, os2_prio((osPriority_t)t->prio));
}

static void lock_take(void)
{
    locked = 1u;
    lock_holder = os2_self();
    if (lock_holder)
        (void)k_thread_prio_set(&lock_holder->k, OS2_LOCK_PRIO);
}

static void lock_give(void)
{
    locked = 0u;
    struct os2_thread *t = lock_holder;
    lock_holder = NULL;
    os2_prio_restore(t); /* may switch to a thread that became ready meanwhile */
}

osStatus_t osKernelInitialize(void)
{
    if (os2_in_isr())
        return osErrorISR;
    if (state != osKernelInactive)
        return osError;
    os2_memory_init();
    if (os2_timer_init() != 0)
        return osError;
    state = osKernelReady;
    return osOK;
}

osStatus_t osKernelGetInfo(osVersion_t *version, char *id_buf, uint32_t id_size)
{
    static const char id[] = "rtoslab V" RTOSLAB_KERNEL_VERSION;
    if (version) {
        version->api = 20030000u;    /* CMSIS-RTOS2 API 2.3.0 (cmsis_os2.h of CMSIS 6.2.0) */
        version->kernel = 100000u;   /* 0.1.0 as MMmmmpppp */
    }
    if (id_buf && id_size) {
        uint32_t n = sizeof(id) < id_size ? sizeof(id) : id_size;
        memcpy(id_buf, id, n);
        id_buf[n - 1u] = '\0';
    }
    return osOK;
}

osKernelState_t osKernelGetState(void)
{
    if (state == osKernelRunning && locked)
        return osKernelLocked;
    return state;
}

osStatus_t osKernelStart(void)
{
    if (os2_in_isr())
        return osErrorISR;
    if (state != osKernelReady)
        return osError;
    state = osKernelRunning;
    k_start();
}

int32_t osKernelLock(void)
{
    if (os2_in_isr())
        return (int32_t)osErrorISR;
    if (state == osKernelSuspended || state != osKernelRunning)
        return (int32_t)osError;
    if (locked)
        return 1;
    lock_take();
    return 0;
}

int32_t osKernelUnlock(void)
{
    if (os2_in_isr())
        return (int32_t)osErrorISR;
    if (state != osKernelRunning)
        return (int32_t)osError;
    if (!locked)
        return 0;
    lock_give();
    return 1;
}

int32_t osKernelRestoreLock(int32_t lock)
{
    if (os2_in_isr())
        return (int32_t)osErrorISR;
    if (state != osKernelRunning)
        return (int32_t)osError;
    if (lock == 1) {
        if (!locked)
            lock_take();
        return 1;
    }
    if (lock == 0) {
        if (locked)
            lock_give();
        return 0;
    }
    return (int32_t)osError;
}

uint32_t osKernelSuspend(void)
{
    if (os2_in_isr() || state != osKernelRunning)
        return 0u; /* (already suspended: 0, as RTX5) */
    if (!locked)
        lock_take();
    state = osKernelSuspended;
    /* tick-less: nothing to stop; what it returns is the time to the next expiry, in ticks
     * (rounded up), osWaitForever when nothing is due */
    uint32_t at;
    if (!k_next_expiry(&at))
        return osWaitForever;
    int32_t left = (int32_t)(at - k_now());
    return left <= 0 ? 0u : ((uint32_t)left + UNITS_PER_TICK - 1u) / UNITS_PER_TICK;
}

void osKernelResume(uint32_t sleep_ticks)
{
    (void)sleep_ticks; /* the kernel's clock ran on: nothing to catch up */
    if (os2_in_isr() || state != osKernelSuspended)
        return;
    state = osKernelRunning;
    lock_give();
}

uint32_t osKernelGetTickCount(void)
{
    uint32_t tick;
    (void)tick_now(&tick);
    return tick;
}
uint32_t osKernelGetTickFreq(void) { return OS2_TICK_HZ; }
uint32_t osKernelGetSysTimerCount(void) { return k_now(); }
uint32_t osKernelGetSysTimerFreq(void) { return K_TIME_HZ; }

osStatus_t osDelay(uint32_t ticks)
{
    if (os2_in_isr())
        return osErrorISR;
    if (ticks == 0u)
        return osErrorParameter;
    if (ticks == osWaitForever)
        return k_sleep(K_FOREVER) == 0 ? osOK : osError; /* (until osThreadResume) */
    /* until the ticks-th tick boundary (os2_ticks); k_sleep takes a long one in parts */
    return k_sleep(to_boundary(ticks, TICK_SKEW, K_FOREVER - 1u)) == 0 ? osOK : osError;
}

osStatus_t osDelayUntil(uint32_t ticks)
{
    if (os2_in_isr())
        return osErrorISR;
    uint32_t tick;
    (void)tick_now(&tick);
    uint32_t delta = ticks - tick;
    if (delta == 0u || delta > 0x7FFFFFFFu)
        return osErrorParameter;
    /* the start of tick `ticks` */
    return k_sleep(to_boundary(delta, TICK_SKEW, K_FOREVER - 1u)) == 0 ? osOK : osError;
}
