/*
 * Memory pools: fixed-size blocks, O(1) allocation and release, any context.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * A released block goes on a free list linked through its first word; allocation takes the
 * most recently released block (warm in a cache, were there one) or, when the list is
 * empty, the next block never handed out yet (z_fresh), so a pool needs no initialisation
 * loop and K_MEMPOOL_DEFINE runs no code. Nothing waits: an empty pool gives NULL, which
 * keeps both calls usable from interrupts (a short critical section each; the free's
 * search for a double free is as long as the list of released blocks).
 */
#include "kernel_internal.h"

#if K_CONFIG_MEMPOOL

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_POOL_OK(p) ((p) && (p)->z_type == Z_OBJ_MEMPOOL)

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

/* Is `off` (from the start of the storage) the start of a block? A mask for the usual
 * power-of-two sizes: Cortex-M0 has no divide instruction. */
static int z_block_start(const struct k_mempool *p, uint32_t off)
{
    uint32_t b = p->z_block;
    return (b & (b - 1u)) == 0 ? (off & (b - 1u)) == 0 : off % b == 0;
}

/* ---- Kernel-internal API ------------------------------------------------------------------- */

/* (none) */

/* ---- API ----------------------------------------------------------------------------------- */

int k_mempool_init(struct k_mempool *p, void *buf, size_t block_size, size_t count)
{
    Z_CHECK(p && buf && ((uintptr_t)buf & 3u) == 0 && count && count <= 0xFFFFu &&
                block_size && block_size <= 0xFFFCu,
            K_EINVAL);
    uint32_t key = arch_irq_lock();
    if (p->z_type == Z_OBJ_MEMPOOL && p->z_avail != p->z_count) {
        arch_irq_unlock(key);
        return K_EBUSY; /* blocks are out: they would be handed out twice */
    }
    p->z_free = NULL;
    p->z_buf = buf;
    p->z_block = (uint16_t)Z_MEMPOOL_BLOCK(block_size);
    p->z_count = (uint16_t)count;
    p->z_fresh = 0;
    p->z_avail = (uint16_t)count;
    p->z_type = Z_OBJ_MEMPOOL;
    arch_irq_unlock(key);
    return 0;
}

void *Z_FAST(mempool_alloc)(struct k_mempool *p)
{
    if (!Z_POOL_OK(p))
        return NULL;
    uint32_t key = arch_irq_lock();
    void *b = p->z_free;
    if (b) {
        p->z_free = *(void **)b;
    } else if (p->z_fresh < p->z_count) {
        b = p->z_buf + (uint32_t)p->z_fresh * p->z_block;
        p->z_fresh++;
    } else {
        arch_irq_unlock(key);
        return NULL;
    }
    p->z_avail--;
    arch_irq_unlock(key);
    return b;
}

int Z_FAST(mempool_free)(struct k_mempool *p, void *block)
{
    Z_CHECK(Z_POOL_OK(p), K_EINVAL);
    uint32_t off = (uint32_t)((uint8_t *)block - p->z_buf);
    /* (NULL or below the storage wraps to a large offset) */
    if (off >= (uint32_t)p->z_fresh * p->z_block || !z_block_start(p, off))
        return K_EINVAL; /* not a block this pool handed out */
    uint32_t key = arch_irq_lock();
    /* A block released already (a double free) would make the list a cycle, count one
     * block twice and be handed out twice: refused. The search is of the released blocks,
     * interrupts masked (the fast paths skip it when there are none). */
    for (void *w = p->z_free; w; w = *(void **)w) {
        if (w == block) {
            arch_irq_unlock(key);
            return K_EINVAL;
        }
    }
    *(void **)block = p->z_free;
    p->z_free = block;
    p->z_avail++;
    arch_irq_unlock(key);
    return 0;
}

int k_mempool_avail(const struct k_mempool *p)
{
    Z_CHECK(Z_POOL_OK(p), K_EINVAL);
    return p->z_avail;
}

#endif /* K_CONFIG_MEMPOOL */
