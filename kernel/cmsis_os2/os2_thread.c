/*
 * CMSIS-RTOS2 threads and thread flags over the rtoslab kernel's threads (docs/cmsis-rtos2.md).
 *
 * What the kernel lacks is here: names, joinable/detached life (a semaphore signalled at the
 * end, osThreadJoin), the stack watermark (the stack filled at creation), the list of
 * threads (count, enumerate) and thread flags (a kernel event object per thread). A thread
 * that ends with its memory from the arena is reaped (its memory freed) by the next
 * creation, once the kernel says it is dead: it cannot free the stack it still runs on.
 */
#include "os2_internal.h"

#include <string.h>

#define STACK_FILL 0xCCCCCCCCu
#define FLAGS_INVALID 0x80000000u /* MAX_THREADFLAGS 31: bit 31 is the error range */

static struct os2_thread *threads; /* every thread of the layer, live or not yet reaped */

static inline uint32_t irq_save(void)
{
    uint32_t m;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(m)::"memory");
    return m;
}
static inline void irq_restore(uint32_t m) { __asm volatile("msr primask, %0" ::"r"(m) : "memory"); }

struct os2_thread *os2_self(void)
{
    struct os2_thread *t = (struct os2_thread *)k_thread_self();
    return (t && t->tag == OS2_TAG_THREAD) ? t : NULL;
}

static struct os2_thread *thread_of(osThreadId_t id)
{
    struct os2_thread *t = (struct os2_thread *)id;
    if (!t || ((uintptr_t)t & 3u) || t->tag != OS2_TAG_THREAD)
        return NULL;
    return t;
}

static void unlink_thread(struct os2_thread *t)
{
    uint32_t m = irq_save();
    for (struct os2_thread **p = &threads; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    irq_restore(m);
}

/* The thread's memory released: it is dead (the kernel's word) and nobody will join it. */
static void release(struct os2_thread *t)
{
    unlink_thread(t);
    t->tag = 0u;
    if (t->own & OS2_OWN_DATA)
        os2_free(t->stack);
    if (t->own & OS2_OWN_CB)
        os2_free(t);
}

/* Detached threads that ended: marked with tag 0 and life ENDED, freed here once dead. */
void os2_reap(void)
{
    for (;;) {
        struct os2_thread *dead = NULL;
        uint32_t m = irq_save();
        for (struct os2_thread *t = threads; t; t = t->next)
            if (!t->joinable && t->life == OS2_T_ENDED && k_thread_state(&t->k) == K_THREAD_DEAD) {
                dead = t;
                break;
            }
        irq_restore(m);
        if (!dead)
            return;
        dead->tag = OS2_TAG_THREAD; /* (release clears it) */
        release(dead);
    }
}

/* The end of a thread (return, osThreadExit, or osThreadTerminate of another): joinable, it
 * waits for osThreadJoin; detached, for the reaper. */
static void mark_ended(struct os2_thread *t)
{
    t->life = OS2_T_ENDED;
    if (t->joinable)
        (void)k_sem_signal_isr(&t->done); /* (no switch here: the caller ends or is the killer) */
    else
        t->tag = 0u; /* its id is invalid from now on */
}

static void entry(void *arg)
{
    struct os2_thread *t = arg;
    t->func(t->arg);
    osThreadExit();
}

osThreadId_t osThreadNew(osThreadFunc_t func, void *argument, const osThreadAttr_t *attr)
{
    static const osThreadAttr_t none;
    if (os2_in_isr() || !func)
        return NULL;
    if (!attr)
        attr = &none;
    osPriority_t prio = attr->priority == osPriorityNone ? osPriorityNormal : attr->priority;
    if (prio < osPriorityIdle || prio > osPriorityRealtime7)
        return NULL;
    uint32_t size = attr->stack_size ? attr->stack_size : OS2_STACK_DEFAULT;
    if ((attr->stack_mem && (((uintptr_t)attr->stack_mem & 7u) || attr->stack_size == 0u)) ||
        size < K_THREAD_STACK_MIN)
        return NULL;
    uint8_t own;
    struct os2_thread *t = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*t), &own);
    if (!t)
        return NULL;
    uint8_t *stack = attr->stack_mem;
    if (!stack) {
        stack = os2_alloc(size);
        if (!stack) {
            if (own)
                os2_free(t);
            return NULL;
        }
        own |= OS2_OWN_DATA;
    }
    size &= ~7u;
    memset(t, 0, sizeof(*t));
    t->tag = OS2_TAG_THREAD;
    t->name = attr->name;
    t->func = func;
    t->arg = argument;
    t->stack = stack;
    t->stack_size = size;
    t->prio = (uint8_t)prio;
    t->joinable = (attr->attr_bits & osThreadJoinable) != 0u;
    t->own = own;
    (void)k_event_init(&t->flags, 0u);
    (void)k_sem_init(&t->done, 0u, 1u);
#if OS2_STACK_WATERMARK
    for (uint32_t i = 0; i < size / 4u; i++) /* the watermark of osThreadGetStackSpace */
        ((uint32_t *)stack)[i] = STACK_FILL;
#endif
    uint32_t m = irq_save();
    t->next = threads;
    threads = t;
    irq_restore(m);
    if (k_thread_create(&t->k, stack, size, entry, t, os2_prio(prio)) != 0) {
        unlink_thread(t);
        t->tag = 0u;
        if (own & OS2_OWN_DATA)
            os2_free(stack);
        if (own & OS2_OWN_CB)
            os2_free(t);
        return NULL;
    }
    return t;
}

const char *osThreadGetName(osThreadId_t thread_id)
{
    struct os2_thread *t = thread_of(thread_id);
    return t ? t->name : NULL; /* (any context) */
}

osThreadId_t osThreadGetId(void) { return os2_self(); }

osThreadState_t osThreadGetState(osThreadId_t thread_id)
{
    struct os2_thread *t = thread_of(thread_id);
    if (!t || os2_in_isr())
        return osThreadError;
    if (t->life == OS2_T_ENDED)
        return osThreadTerminated;
    if (t == os2_self())
        return osThreadRunning;
    switch (k_thread_state(&t->k)) {
    case K_THREAD_READY:
        return osThreadReady;
    case K_THREAD_BLOCKED:
    case K_THREAD_SUSPENDED:
        return osThreadBlocked;
    case K_THREAD_DEAD:
        return osThreadTerminated;
    default:
        return osThreadError;
    }
}

uint32_t osThreadGetStackSize(osThreadId_t thread_id)
{
    struct os2_thread *t = thread_of(thread_id);
    return (t && !os2_in_isr()) ? t->stack_size : 0u;
}

uint32_t osThreadGetStackSpace(osThreadId_t thread_id)
{
    struct os2_thread *t = thread_of(thread_id);
    if (!t || os2_in_isr() || !OS2_STACK_WATERMARK)
        return 0u;
    /* the words never written, from the bottom (the kernel's guard word, the first, aside) */
    const uint32_t *w = (const uint32_t *)t->stack;
    uint32_t n = t->stack_size / 4u, i = 1u;
    while (i < n && w[i] == STACK_FILL)
        i++;
    return (i - 1u) * 4u;
}

osStatus_t osThreadSetPriority(osThreadId_t thread_id, osPriority_t priority)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t || priority < osPriorityIdle || priority > osPriorityRealtime7)
        return osErrorParameter;
    if (t->life != OS2_T_LIVE)
        return osErrorResource;
    t->prio = (uint8_t)priority;
    if (os2_locked() && t == os2_self())
        return osOK; /* takes effect at osKernelUnlock */
    return k_thread_prio_set(&t->k, os2_prio(priority)) == 0 ? osOK : osErrorResource;
}

osPriority_t osThreadGetPriority(osThreadId_t thread_id)
{
    struct os2_thread *t = thread_of(thread_id);
    if (!t || os2_in_isr() || t->life != OS2_T_LIVE)
        return osPriorityError;
    /* the effective priority: a mutex waiter may lend its own (the kernel's level, taken
     * back to the CMSIS priority of the blocked thread of that level that lends it) */
    int level = k_thread_prio_get(&t->k);
    osPriority_t best = (osPriority_t)t->prio;
    if (level == (int)os2_prio(best) || level == OS2_LOCK_PRIO)
        return best;
    uint32_t m = irq_save();
    for (struct os2_thread *w = threads; w; w = w->next)
        if (w->life == OS2_T_LIVE && (int)os2_prio((osPriority_t)w->prio) == level &&
            w->prio > best && k_thread_state(&w->k) == K_THREAD_BLOCKED)
            best = (osPriority_t)w->prio;
    irq_restore(m);
    return best;
}

osStatus_t osThreadYield(void)
{
    if (os2_in_isr())
        return osErrorISR;
    k_yield();
    return osOK;
}

osStatus_t osThreadSuspend(osThreadId_t thread_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t)
        return osErrorParameter;
    if (t->life != OS2_T_LIVE)
        return osErrorResource;
    if (t == os2_self() && os2_locked())
        return osErrorResource; /* it would stop the scheduler for good */
    return k_thread_suspend(&t->k) == 0 ? osOK : osErrorResource;
}

osStatus_t osThreadResume(osThreadId_t thread_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t)
        return osErrorParameter;
    if (t->life != OS2_T_LIVE)
        return osErrorResource;
    switch (k_thread_state(&t->k)) {
    case K_THREAD_SUSPENDED:
        return k_thread_resume(&t->k) == 0 ? osOK : osErrorResource;
    case K_THREAD_BLOCKED:
        /* a waiting thread is resumed as CMSIS-RTOS2 2.3 says: its wait ends with a timeout
         * (osDelay returns osOK) */
        return k_thread_wake(&t->k) == 0 ? osOK : osErrorResource;
    default:
        return osErrorResource;
    }
}

osStatus_t osThreadDetach(osThreadId_t thread_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t)
        return osErrorParameter;
    if (!t->joinable)
        return osErrorResource;
    t->joinable = 0u;
    if (t->life == OS2_T_ENDED) {
        t->tag = 0u;
        os2_reap();
    }
    return osOK;
}

osStatus_t osThreadJoin(osThreadId_t thread_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t)
        return osErrorParameter;
    if (!t->joinable || t == os2_self())
        return osErrorResource;
    if (k_sem_wait(&t->done, K_FOREVER) != 0)
        return osErrorResource;
    /* ended: once the kernel has it dead (it may still be leaving), its memory goes back */
    while (k_thread_state(&t->k) != K_THREAD_DEAD)
        k_yield();
    t->joinable = 0u;
    release(t);
    return osOK;
}

__NO_RETURN void osThreadExit(void)
{
    struct os2_thread *t = os2_self();
    if (t) {
        /* the highest level, so that no joiner frees this thread before it is dead */
        (void)k_thread_prio_set(&t->k, OS2_LOCK_PRIO);
        mark_ended(t);
    }
    k_thread_exit();
}

osStatus_t osThreadTerminate(osThreadId_t thread_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_thread *t = thread_of(thread_id);
    if (!t)
        return osErrorParameter;
    if (t->life != OS2_T_LIVE)
        return osErrorResource;
    if (t == os2_self())
        osThreadExit();
    if (k_thread_abort(&t->k) != 0)
        return osErrorResource;
    mark_ended(t);
    os2_reap();
    return osOK;
}

uint32_t osThreadGetCount(void)
{
    if (os2_in_isr())
        return 0u;
    uint32_t n = 0;
    uint32_t m = irq_save();
    for (struct os2_thread *t = threads; t; t = t->next)
        if (t->life == OS2_T_LIVE)
            n++;
    irq_restore(m);
    return n;
}

uint32_t osThreadEnumerate(osThreadId_t *thread_array, uint32_t array_items)
{
    if (os2_in_isr() || !thread_array || !array_items)
        return 0u;
    uint32_t n = 0;
    uint32_t m = irq_save();
    for (struct os2_thread *t = threads; t && n < array_items; t = t->next)
        if (t->life == OS2_T_LIVE)
            thread_array[n++] = t;
    irq_restore(m);
    return n;
}

/* ---- Thread flags: the thread's k_event ---- */

uint32_t osThreadFlagsSet(osThreadId_t thread_id, uint32_t flags)
{
    struct os2_thread *t = thread_of(thread_id);
    if (!t || (flags & FLAGS_INVALID) || t->life != OS2_T_LIVE)
        return (uint32_t)osFlagsErrorParameter;
    uint32_t m = irq_save(); /* (the value returned: the flags with these set) */
    uint32_t now = k_event_get(&t->flags) | flags;
    irq_restore(m);
    if (os2_in_isr())
        (void)k_event_set_isr(&t->flags, flags);
    else
        (void)k_event_set(&t->flags, flags);
    /* a waiter woken with clearing consumed its flags: RTX5 returns what is left then */
    uint32_t left = k_event_get(&t->flags);
    return (left & flags) == flags ? now : left | (now & ~flags);
}

uint32_t osThreadFlagsClear(uint32_t flags)
{
    if (os2_in_isr())
        return (uint32_t)osFlagsErrorISR;
    struct os2_thread *t = os2_self();
    if (!t)
        return (uint32_t)osFlagsErrorUnknown;
    if (flags & FLAGS_INVALID)
        return (uint32_t)osFlagsErrorParameter;
    uint32_t m = irq_save();
    uint32_t before = k_event_get(&t->flags);
    (void)k_event_clear(&t->flags, flags);
    irq_restore(m);
    return before;
}

uint32_t osThreadFlagsGet(void)
{
    if (os2_in_isr())
        return 0u;
    struct os2_thread *t = os2_self();
    return t ? k_event_get(&t->flags) : 0u;
}

/* The flags wait shared with event flags (os2_event.c). */
uint32_t os2_flags_wait(struct k_event *e, uint32_t flags, uint32_t options, uint32_t timeout);

uint32_t osThreadFlagsWait(uint32_t flags, uint32_t options, uint32_t timeout)
{
    if (os2_in_isr())
        return (uint32_t)osFlagsErrorISR;
    struct os2_thread *t = os2_self();
    if (!t)
        return (uint32_t)osFlagsErrorUnknown;
    if (flags & FLAGS_INVALID)
        return (uint32_t)osFlagsErrorParameter;
    return os2_flags_wait(&t->flags, flags, options, timeout);
}
