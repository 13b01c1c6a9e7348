/*
 * CMSIS-RTOS2 timers over the kernel's software timers (docs/cmsis-rtos2.md). The kernel
 * runs a timer's callback in its time source's interrupt; CMSIS-RTOS2 runs them in a thread
 * (they may call what an interrupt may not): the kernel's callback posts the timer to the
 * timer thread's queue, and that thread calls the application's function.
 */
#include "os2_internal.h"

static struct os2_thread timer_thread;
/* (an FPU core's thread may hold the FPU context too: the board says how much more) */
#ifdef BOARD_FPU_STACK_BYTES
#define TIMER_STACK_BYTES (OS2_TIMER_STACK + BOARD_FPU_STACK_BYTES)
#else
#define TIMER_STACK_BYTES OS2_TIMER_STACK
#endif
static K_THREAD_STACK_DEFINE(timer_stack, TIMER_STACK_BYTES);
static struct os2_timer *timer_slots[OS2_TIMER_QUEUE];
static struct k_queue expired;

static struct os2_timer *timer_of(osTimerId_t id)
{
    struct os2_timer *t = (struct os2_timer *)id;
    if (!t || ((uintptr_t)t & 3u) || t->tag != OS2_TAG_TIMER)
        return NULL;
    return t;
}

/* Interrupt context: hand the expiry to the timer thread. */
static void fired(struct k_timer *kt, void *arg)
{
    (void)kt;
    struct os2_timer *t = arg;
    if (!t->periodic)
        t->running = 0u;
    (void)k_queue_send_isr(&expired, &t); /* (full: this expiry is lost, as RTX5's) */
}

static void timer_main(void *arg)
{
    (void)arg;
    for (;;) {
        struct os2_timer *t;
        if (k_queue_recv(&expired, &t, K_FOREVER) == 0 && t->tag == OS2_TAG_TIMER)
            t->func(t->arg);
    }
}

int os2_timer_init(void)
{
    if (k_queue_init(&expired, timer_slots, sizeof(timer_slots[0]), OS2_TIMER_QUEUE) != 0)
        return -1;
    static const osThreadAttr_t attr = {.name = "osTimerThread",
                                        .cb_mem = &timer_thread,
                                        .cb_size = sizeof(timer_thread),
                                        .stack_mem = timer_stack,
                                        .stack_size = sizeof(timer_stack),
                                        .priority = (osPriority_t)OS2_TIMER_PRIO};
    return osThreadNew(timer_main, NULL, &attr) ? 0 : -1;
}

osTimerId_t osTimerNew(osTimerFunc_t func, osTimerType_t type, void *argument, const osTimerAttr_t *attr)
{
    static const osTimerAttr_t none;
    if (os2_in_isr() || !func || (type != osTimerOnce && type != osTimerPeriodic))
        return NULL;
    if (!attr)
        attr = &none;
    uint8_t own;
    struct os2_timer *t = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*t), &own);
    if (!t)
        return NULL;
    t->func = func;
    t->arg = argument;
    t->periodic = type == osTimerPeriodic;
    t->running = 0u;
    t->name = attr->name;
    t->own = own;
    (void)k_timer_init(&t->k, fired, t);
    t->tag = OS2_TAG_TIMER;
    return t;
}

const char *osTimerGetName(osTimerId_t timer_id)
{
    struct os2_timer *t = timer_of(timer_id);
    return t ? t->name : NULL; /* (any context) */
}

osStatus_t osTimerStart(osTimerId_t timer_id, uint32_t ticks)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_timer *t = timer_of(timer_id);
    if (!t || ticks == 0u)
        return osErrorParameter;
    k_timeout_t d = os2_ticks_exact(ticks);
    t->running = 1u;
    return k_timer_start(&t->k, d, t->periodic ? os2_period(ticks) : 0u) == 0 ? osOK : osErrorResource;
}

osStatus_t osTimerStop(osTimerId_t timer_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_timer *t = timer_of(timer_id);
    if (!t)
        return osErrorParameter;
    if (!t->running)
        return osErrorResource;
    t->running = 0u;
    return k_timer_stop(&t->k) == 0 ? osOK : osErrorResource;
}

uint32_t osTimerIsRunning(osTimerId_t timer_id)
{
    struct os2_timer *t = timer_of(timer_id);
    return (t && !os2_in_isr()) ? t->running : 0u;
}

osStatus_t osTimerDelete(osTimerId_t timer_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_timer *t = timer_of(timer_id);
    if (!t)
        return osErrorParameter;
    t->tag = 0u;
    t->running = 0u;
    (void)k_timer_stop(&t->k);
    if (t->own)
        os2_free(t);
    return osOK;
}
