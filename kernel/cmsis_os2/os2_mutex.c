/*
 * CMSIS-RTOS2 mutexes over the kernel's mutexes (docs/cmsis-rtos2.md). The kernel's mutex is
 * owned, not recursive, with priority inheritance, and a thread that ends gives its mutexes
 * away: recursion (osMutexRecursive) is counted here; inheritance and robustness are the
 * kernel's, whatever the attributes ask (a mutex without osMutexPrioInherit still lends its
 * priority, one without osMutexRobust is still released when its owner ends).
 */
#include "os2_internal.h"

#define MAX_LOCKS 255u /* recursive locks (RTX5's limit) */

static struct os2_mutex *mutex_of(osMutexId_t id)
{
    struct os2_mutex *m = (struct os2_mutex *)id;
    if (!m || ((uintptr_t)m & 3u) || m->tag != OS2_TAG_MUTEX)
        return NULL;
    return m;
}

osMutexId_t osMutexNew(const osMutexAttr_t *attr)
{
    static const osMutexAttr_t none;
    if (os2_in_isr())
        return NULL;
    if (!attr)
        attr = &none;
    uint8_t own;
    struct os2_mutex *m = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*m), &own);
    if (!m)
        return NULL;
    if (k_mutex_init(&m->k) != 0) {
        if (own)
            os2_free(m);
        return NULL;
    }
    m->tag = OS2_TAG_MUTEX;
    m->name = attr->name;
    m->attr = (uint8_t)attr->attr_bits;
    m->count = 0u;
    m->own = own;
    return m;
}

const char *osMutexGetName(osMutexId_t mutex_id)
{
    struct os2_mutex *m = mutex_of(mutex_id);
    return m ? m->name : NULL; /* (any context) */
}

osStatus_t osMutexAcquire(osMutexId_t mutex_id, uint32_t timeout)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_mutex *m = mutex_of(mutex_id);
    if (!m)
        return osErrorParameter;
    /* the kernel's lock first (its fast path); it refuses a lock of one's own mutex as a
     * wait-for cycle, which is where recursion is counted */
    switch (k_mutex_lock(&m->k, os2_ticks(timeout))) {
    case 0:
        m->count = 1u; /* (a previous owner that ended left its count behind) */
        return osOK;
    case K_ETIMEDOUT:
        return osErrorTimeout;
    case K_EINVAL:
        return osErrorParameter;
    case K_EAGAIN: /* (no wait: the kernel may say busy before it looks for a cycle) */
    case K_EDEADLK: {
        struct os2_thread *self = os2_self();
        if (self && k_mutex_owner(&m->k) == &self->k && (m->attr & osMutexRecursive) &&
            m->count < MAX_LOCKS) {
            m->count++;
            return osOK;
        }
        return osErrorResource; /* taken, locked again without osMutexRecursive, a cycle */
    }
    default:
        return osErrorResource; /* deleted while waiting */
    }
}

osStatus_t osMutexRelease(osMutexId_t mutex_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_mutex *m = mutex_of(mutex_id);
    if (!m)
        return osErrorParameter;
    if (m->count > 1u) { /* (only the owner's count can be above 1: checked) */
        struct os2_thread *self = os2_self();
        if (self && k_mutex_owner(&m->k) == &self->k) {
            m->count--;
            return osOK;
        }
    }
    /* the last lock: the kernel checks the owner (K_EPERM); the count stays 1, which the next
     * owner sets anyway */
    return k_mutex_unlock(&m->k) == 0 ? osOK : osErrorResource;
}

osThreadId_t osMutexGetOwner(osMutexId_t mutex_id)
{
    struct os2_mutex *m = mutex_of(mutex_id);
    if (!m || os2_in_isr())
        return NULL;
    return (osThreadId_t)k_mutex_owner(&m->k);
}

osStatus_t osMutexDelete(osMutexId_t mutex_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_mutex *m = mutex_of(mutex_id);
    if (!m)
        return osErrorParameter;
    struct os2_thread *self = os2_self();
    if (self && k_mutex_owner(&m->k) == &self->k) {
        m->count = 0u;
        (void)k_mutex_unlock(&m->k); /* deleting one's own locked mutex releases it first */
    }
    m->tag = 0u;
    (void)k_mutex_destroy(&m->k);
    if (m->own)
        os2_free(m);
    return osOK;
}
