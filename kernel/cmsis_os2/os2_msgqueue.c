/*
 * CMSIS-RTOS2 message queues over the kernel's queues (k_queue: fixed-size items, FIFO;
 * docs/cmsis-rtos2.md). Message priorities are not kept: every message goes to the back
 * (msg_prio is ignored, 0 returned). The kernel has no reset: osMessageQueueReset receives
 * the messages that were there into a scratch item.
 */
#include "os2_internal.h"

static struct os2_queue *queue_of(osMessageQueueId_t id)
{
    struct os2_queue *q = (struct os2_queue *)id;
    if (!q || ((uintptr_t)q & 3u) || q->tag != OS2_TAG_QUEUE)
        return NULL;
    return q;
}

static osStatus_t status_of(int r)
{
    switch (r) {
    case 0:
        return osOK;
    case K_ETIMEDOUT:
        return osErrorTimeout;
    case K_EINVAL:
        return osErrorParameter;
    case K_EISR:
        return osErrorISR;
    default:
        return osErrorResource;
    }
}

osMessageQueueId_t osMessageQueueNew(uint32_t msg_count, uint32_t msg_size, const osMessageQueueAttr_t *attr)
{
    static const osMessageQueueAttr_t none;
    if (os2_in_isr() || !msg_count || !msg_size || msg_count > 65534u || msg_size > 65535u)
        return NULL;
    if (!attr)
        attr = &none;
    uint32_t bytes = msg_count * msg_size;
    if (attr->mq_mem && attr->mq_size < bytes)
        return NULL;
    if (!attr->mq_mem && attr->mq_size)
        return NULL;
    uint8_t own;
    struct os2_queue *q = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*q), &own);
    if (!q)
        return NULL;
    uint8_t *data = attr->mq_mem;
    uint32_t cap = msg_count;
    /* the arena's memory has one item more: osMessageQueueReset's scratch */
    if (!data) {
        data = os2_alloc(bytes + msg_size);
        if (!data) {
            if (own)
                os2_free(q);
            return NULL;
        }
        own |= OS2_OWN_DATA;
    }
    if (k_queue_init(&q->k, data, msg_size, cap) != 0) {
        if (own & OS2_OWN_DATA)
            os2_free(data);
        if (own & OS2_OWN_CB)
            os2_free(q);
        return NULL;
    }
    q->tag = OS2_TAG_QUEUE;
    q->name = attr->name;
    q->data = data;
    q->msg_size = msg_size;
    q->capacity = cap;
    q->own = own;
    return q;
}

const char *osMessageQueueGetName(osMessageQueueId_t mq_id)
{
    struct os2_queue *q = queue_of(mq_id);
    return q ? q->name : NULL; /* (any context) */
}

osStatus_t osMessageQueuePut(osMessageQueueId_t mq_id, const void *msg_ptr, uint8_t msg_prio, uint32_t timeout)
{
    (void)msg_prio;
    struct os2_queue *q = queue_of(mq_id);
    if (!q || !msg_ptr)
        return osErrorParameter;
    if (os2_in_isr())
        return timeout ? osErrorParameter : status_of(k_queue_send_isr(&q->k, msg_ptr));
    return status_of(k_queue_send(&q->k, msg_ptr, os2_ticks(timeout)));
}

osStatus_t osMessageQueueGet(osMessageQueueId_t mq_id, void *msg_ptr, uint8_t *msg_prio, uint32_t timeout)
{
    struct os2_queue *q = queue_of(mq_id);
    if (!q || !msg_ptr)
        return osErrorParameter;
    if (msg_prio)
        *msg_prio = 0u;
    if (os2_in_isr())
        return timeout ? osErrorParameter : status_of(k_queue_recv_isr(&q->k, msg_ptr));
    return status_of(k_queue_recv(&q->k, msg_ptr, os2_ticks(timeout)));
}

uint32_t osMessageQueueGetCapacity(osMessageQueueId_t mq_id)
{
    struct os2_queue *q = queue_of(mq_id);
    return q ? q->capacity : 0u;
}

uint32_t osMessageQueueGetMsgSize(osMessageQueueId_t mq_id)
{
    struct os2_queue *q = queue_of(mq_id);
    return q ? q->msg_size : 0u;
}

uint32_t osMessageQueueGetCount(osMessageQueueId_t mq_id)
{
    struct os2_queue *q = queue_of(mq_id);
    return q ? (uint32_t)k_queue_count(&q->k) : 0u;
}

uint32_t osMessageQueueGetSpace(osMessageQueueId_t mq_id)
{
    struct os2_queue *q = queue_of(mq_id);
    return q ? q->capacity - (uint32_t)k_queue_count(&q->k) : 0u;
}

osStatus_t osMessageQueueReset(osMessageQueueId_t mq_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_queue *q = queue_of(mq_id);
    if (!q)
        return osErrorParameter;
    /* the messages there now are dropped (a sender waiting for room then puts its own) */
    uint32_t scratch[4];
    uint8_t *into = (uint8_t *)scratch, *temp = NULL;
    if (q->msg_size > sizeof(scratch)) {
        if (q->own & OS2_OWN_DATA)
            into = q->data + q->capacity * q->msg_size;
        else if (!(into = temp = os2_alloc(q->msg_size)))
            return osErrorResource;
    }
    int n = k_queue_count(&q->k);
    while (n-- > 0 && k_queue_recv_isr(&q->k, into) == 0) {
    }
    os2_free(temp);
    return osOK;
}

osStatus_t osMessageQueueDelete(osMessageQueueId_t mq_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_queue *q = queue_of(mq_id);
    if (!q)
        return osErrorParameter;
    q->tag = 0u;
    (void)k_queue_destroy(&q->k);
    if (q->own & OS2_OWN_DATA)
        os2_free(q->data);
    if (q->own & OS2_OWN_CB)
        os2_free(q);
    return osOK;
}
