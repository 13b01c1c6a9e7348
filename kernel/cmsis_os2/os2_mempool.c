/*
 * CMSIS-RTOS2 memory pools over the kernel's block pools (k_mempool: any context, never
 * waits), with a counting semaphore of the free blocks for the timed allocation
 * (docs/cmsis-rtos2.md).
 */
#include "os2_internal.h"

#include <string.h>

#define BLOCK(size) (((size) < 4u ? 4u : (size) + 3u) & ~3u)

static struct os2_pool *pool_of(osMemoryPoolId_t id)
{
    struct os2_pool *p = (struct os2_pool *)id;
    if (!p || ((uintptr_t)p & 3u) || p->tag != OS2_TAG_POOL)
        return NULL;
    return p;
}

osMemoryPoolId_t osMemoryPoolNew(uint32_t block_count, uint32_t block_size, const osMemoryPoolAttr_t *attr)
{
    static const osMemoryPoolAttr_t none;
    if (os2_in_isr() || !block_count || !block_size || block_count > 65535u || block_size > 65532u)
        return NULL;
    if (!attr)
        attr = &none;
    uint32_t bytes = BLOCK(block_size) * block_count;
    if (attr->mp_mem && (((uintptr_t)attr->mp_mem & 3u) || attr->mp_size < bytes))
        return NULL;
    if (!attr->mp_mem && attr->mp_size)
        return NULL;
    uint8_t own;
    struct os2_pool *p = os2_cb(attr->cb_mem, attr->cb_size, sizeof(*p), &own);
    if (!p)
        return NULL;
    void *data = attr->mp_mem;
    if (!data) {
        data = os2_alloc(bytes);
        if (!data) {
            if (own)
                os2_free(p);
            return NULL;
        }
        own |= OS2_OWN_DATA;
    }
    if (k_mempool_init(&p->k, data, block_size, block_count) != 0 ||
        k_sem_init(&p->avail, block_count, block_count <= 255u ? block_count : 0u) != 0) {
        if (own & OS2_OWN_DATA)
            os2_free(data);
        if (own & OS2_OWN_CB)
            os2_free(p);
        return NULL;
    }
    p->tag = OS2_TAG_POOL;
    p->name = attr->name;
    p->block = block_size;
    p->count = block_count;
    p->data = data;
    p->own = own;
    return p;
}

const char *osMemoryPoolGetName(osMemoryPoolId_t mp_id)
{
    struct os2_pool *p = pool_of(mp_id);
    return p ? p->name : NULL; /* (any context) */
}

void *osMemoryPoolAlloc(osMemoryPoolId_t mp_id, uint32_t timeout)
{
    struct os2_pool *p = pool_of(mp_id);
    if (!p || (os2_in_isr() && timeout != 0u))
        return NULL;
    if (k_sem_wait(&p->avail, os2_ticks(timeout)) != 0)
        return NULL;
    return k_mempool_alloc(&p->k);
}

osStatus_t osMemoryPoolFree(osMemoryPoolId_t mp_id, void *block)
{
    struct os2_pool *p = pool_of(mp_id);
    if (!p || !block)
        return osErrorParameter;
    if (k_mempool_free(&p->k, block) != 0)
        return osErrorParameter;
    (void)(os2_in_isr() ? k_sem_signal_isr(&p->avail) : k_sem_signal(&p->avail));
    return osOK;
}

uint32_t osMemoryPoolGetCapacity(osMemoryPoolId_t mp_id)
{
    struct os2_pool *p = pool_of(mp_id);
    return p ? p->count : 0u;
}

uint32_t osMemoryPoolGetBlockSize(osMemoryPoolId_t mp_id)
{
    struct os2_pool *p = pool_of(mp_id);
    return p ? p->block : 0u;
}

uint32_t osMemoryPoolGetCount(osMemoryPoolId_t mp_id)
{
    struct os2_pool *p = pool_of(mp_id);
    return p ? p->count - (uint32_t)k_mempool_avail(&p->k) : 0u;
}

uint32_t osMemoryPoolGetSpace(osMemoryPoolId_t mp_id)
{
    struct os2_pool *p = pool_of(mp_id);
    return p ? (uint32_t)k_mempool_avail(&p->k) : 0u;
}

osStatus_t osMemoryPoolDelete(osMemoryPoolId_t mp_id)
{
    if (os2_in_isr())
        return osErrorISR;
    struct os2_pool *p = pool_of(mp_id);
    if (!p)
        return osErrorParameter;
    p->tag = 0u;
    (void)k_sem_destroy(&p->avail); /* waiters get osErrorResource (NULL) */
    if (p->own & OS2_OWN_DATA)
        os2_free(p->data);
    if (p->own & OS2_OWN_CB)
        os2_free(p);
    return osOK;
}
