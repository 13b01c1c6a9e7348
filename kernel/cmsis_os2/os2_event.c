/*
 * CMSIS-RTOS2 event flags over the kernel's event objects (k_event), and the flags wait that
 * thread flags share (docs/cmsis-rtos2.md).
 */
#include "os2_internal.h"

#define FLAGS_INVALID 0x80000000u /* MAX_EVENTFLAGS 31: bit 31 is the error range */

static inline uint32_t irq_save(void)
{
    uint32_t m;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(m)::"memory");
    return m;
}
static inline void irq_restore(uint32_t m) { __asm volatile("msr primask, %0" ::"r"(m) : "memory"); }

uint32_t os2_flags_wait(struct k_event *e, uint32_t flags, uint32_t options, uint32_t timeout);

uint32_t os2_flags_wait(struct k_event *e, uint32_t flags, uint32_t options, uint32_t timeout)
{
    unsigned opt = (options & osFlagsWaitAll) ? K_EVENT_ALL : K_EVENT_ANY;
    if (!(options & osFlagsNoClear))
        opt |= K_EVENT_CLEAR;
    uint32_t got = 0;
    int r = k_event_wait(e, flags, opt, os2_ticks(timeout), &got);
    switch (r) {
    case 0:
        /* the flags before clearing: those that satisfied the wait and the others set */
        return got | k_event_get(e);
    case K_EAGAIN:
        return (uint32_t)osFlagsErrorResource;
    case K_ETIMEDOUT:
        return (uint32_t)osFlagsErrorTimeout;
    case K_EISR:
        return (uint32_t)osFlagsErrorISR;
    case K_EINVAL:
        return (uint32_t)osFlagsErrorParameter;
    default:
        return (uint32_t)osFlagsErrorResource; /* deleted while waiting */
    }
}

static struct os2_event *event_of(osEventFlagsId_t id)
{
    struct os2_event *e = (struct os2_event *)id;
    if (!e || ((uintptr_t)e & 3u) || e->tag != OS2_TAG_EVENT)
        return NULL;
    return e;
}

osEventFlagsId_t osEventFlagsNew(const osEventFlagsAttr_t *attr)
{
    static const osEventFlagsAttr_t none;
    if (os2_in_isr())
        return NULL;
    if (!attr)
        attr = &none;
    uint8_t own;
    struct os2_event *e = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*e), &own);
    if (!e)
        return NULL;
    (void)k_event_init(&e->k, 0u);
    e->tag = OS2_TAG_EVENT;
    e->name = attr->name;
    e->own = own;
    return e;
}

const char *osEventFlagsGetName(osEventFlagsId_t ef_id)
{
    struct os2_event *e = event_of(ef_id);
    return e ? e->name : NULL; /* (any context) */
}

uint32_t osEventFlagsSet(osEventFlagsId_t ef_id, uint32_t flags)
{
    struct os2_event *e = event_of(ef_id);
    if (!e || !flags || (flags & FLAGS_INVALID))
        return (uint32_t)osFlagsErrorParameter;
    uint32_t m = irq_save();
    uint32_t now = k_event_get(&e->k) | flags;
    irq_restore(m);
    if (os2_in_isr())
        (void)k_event_set_isr(&e->k, flags);
    else
        (void)k_event_set(&e->k, flags);
    uint32_t left = k_event_get(&e->k);
    return (left & flags) == flags ? now : left | (now & ~flags);
}

uint32_t osEventFlagsClear(osEventFlagsId_t ef_id, uint32_t flags)
{
    struct os2_event *e = event_of(ef_id);
    if (!e || (flags & FLAGS_INVALID))
        return (uint32_t)osFlagsErrorParameter;
    uint32_t m = irq_save();
    uint32_t before = k_event_get(&e->k);
    (void)k_event_clear(&e->k, flags);
    irq_restore(m);
    return before;
}

uint32_t osEventFlagsGet(osEventFlagsId_t ef_id)
{
    struct os2_event *e = event_of(ef_id);
    return e ? k_event_get(&e->k) : 0u;
}

uint32_t osEventFlagsWait(osEventFlagsId_t ef_id, uint32_t flags, uint32_t options, uint32_t timeout)
{
    struct os2_event *e = event_of(ef_id);
    if (!e || (flags & FLAGS_INVALID))
        return (uint32_t)osFlagsErrorParameter;
    if (os2_in_isr() && timeout != 0u)
        return (uint32_t)osFlagsErrorParameter;
    return os2_flags_wait(&e->k, flags, options, timeout);
}

osStatus_t osEventFlagsDelete(osEventFlagsId_t ef_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_event *e = event_of(ef_id);
    if (!e)
        return osErrorParameter;
    e->tag = 0u;
    (void)k_event_destroy(&e->k);
    if (e->own)
        os2_free(e);
    return osOK;
}
