/*
 * CMSIS-RTOS2 semaphores over the kernel's counting semaphores (docs/cmsis-rtos2.md). The
 * kernel's limit is 1..255 or 65535; the layer enforces any other max_count itself.
 */
#include "os2_internal.h"

static struct os2_sem *sem_of(osSemaphoreId_t id)
{
    struct os2_sem *s = (struct os2_sem *)id;
    if (!s || ((uintptr_t)s & 3u) || s->tag != OS2_TAG_SEM)
        return NULL;
    return s;
}

osSemaphoreId_t osSemaphoreNew(uint32_t max_count, uint32_t initial_count, const osSemaphoreAttr_t *attr)
{
    static const osSemaphoreAttr_t none;
    if (os2_in_isr() || max_count == 0u || max_count > 65535u || initial_count > max_count)
        return NULL;
    if (!attr)
        attr = &none;
    uint8_t own;
    struct os2_sem *s = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*s), &own);
    if (!s)
        return NULL;
    if (k_sem_init(&s->k, initial_count, max_count <= 255u ? max_count : 0u) != 0) {
        if (own)
            os2_free(s);
        return NULL;
    }
    s->tag = OS2_TAG_SEM;
    s->name = attr->name;
    s->max = (uint16_t)max_count;
    s->own = own;
    return s;
}

const char *osSemaphoreGetName(osSemaphoreId_t semaphore_id)
{
    struct os2_sem *s = sem_of(semaphore_id);
    return s ? s->name : NULL; /* (any context) */
}

osStatus_t osSemaphoreAcquire(osSemaphoreId_t semaphore_id, uint32_t timeout)
{
    struct os2_sem *s = sem_of(semaphore_id);
    if (!s)
        return osErrorParameter;
    if (os2_in_isr() && timeout != 0u)
        return osErrorParameter;
    switch (k_sem_wait(&s->k, os2_ticks(timeout))) {
    case 0:
        return osOK;
    case K_ETIMEDOUT:
        return osErrorTimeout;
    case K_EISR:
        return osErrorISR;
    case K_EINVAL:
        return osErrorParameter;
    default:
        return osErrorResource; /* none left (no wait), or deleted while waiting */
    }
}

osStatus_t osSemaphoreRelease(osSemaphoreId_t semaphore_id)
{
    struct os2_sem *s = sem_of(semaphore_id);
    if (!s)
        return osErrorParameter;
    /* the kernel's limit is max itself up to 255 (and 65535): above 255 the layer checks */
    if (s->max > 255u && s->max != 65535u && (uint32_t)k_sem_count(&s->k) >= s->max)
        return osErrorResource;
    int r = os2_in_isr() ? k_sem_signal_isr(&s->k) : k_sem_signal(&s->k);
    return r == 0 ? osOK : osErrorResource;
}

uint32_t osSemaphoreGetCount(osSemaphoreId_t semaphore_id)
{
    struct os2_sem *s = sem_of(semaphore_id);
    return s ? (uint32_t)k_sem_count(&s->k) : 0u;
}

osStatus_t osSemaphoreDelete(osSemaphoreId_t semaphore_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_sem *s = sem_of(semaphore_id);
    if (!s)
        return osErrorParameter;
    s->tag = 0u;
    (void)k_sem_destroy(&s->k);
    if (s->own)
        os2_free(s);
    return osOK;
}
