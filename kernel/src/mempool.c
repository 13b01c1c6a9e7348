/*
 * Memory pools: fixed-size blocks, O(1) allocation and release, any context.
 *
 * Sections (every module): definitions / state / internal functions / kernel-internal API /
 * API; an empty one says so.
 *
 * A released block goes on a free list linked through its first word; allocation takes the
 * most recently released block (warm in a cache, were there one) or, when the list is
 * empty, the next block never handed out yet (at z_used, the bytes handed out so far), so
 * a pool needs no initialisation loop and K_MEMPOOL_DEFINE runs no code. z_used counts
 * bytes, not blocks, so that a release checks its block's range with no multiply, and with
 * one unsigned compare of its offset (below the storage, NULL too, wraps past it).
 * Nothing waits: an empty pool gives NULL, which keeps both calls usable from interrupts (a
 * short critical section each; the free's search for a double free is as long as the list
 * of released blocks). No count of the blocks left is kept: k_mempool_avail counts them
 * (the never-used ones from z_used, the released ones on the list), so that the fast paths
 * touch the list head only (ARMv7-M: one LDREX/STREX, no mask; fast_mempool.S).
 */
#include "kernel_internal.h"

#if K_CONFIG_MEMPOOL

/* ---- Definitions --------------------------------------------------------------------------- */

#define Z_POOL_OK(p) ((p) && (p)->z_type == Z_OBJ_MEMPOOL)

/* ---- State --------------------------------------------------------------------------------- */

/* (none) */

/* ---- Internal functions -------------------------------------------------------------------- */

/* Is `off` (from the start of the storage) the start of a block? A shift for the usual
 * power-of-two sizes (z_shift): Cortex-M0 has no divide instruction. */
static int z_block_start(const struct k_mempool *p, uint32_t off)
{
    return p->z_shift ? (off << p->z_shift) == 0 : off % p->z_block == 0;
}

/* Z_MEMPOOL_SHIFT at run time, without a count-trailing-zeros instruction (ARMv6-M has none). */
static uint8_t z_shift_of(uint32_t size)
{
    if (size & (size - 1u))
        return 0;
    uint8_t sh = 32;
    for (; size > 1u; size >>= 1)
        sh--;
    return sh;
}

/* Blocks left: never used (past z_used) and released (the list). Interrupts masked. */
static int z_avail_of(const struct k_mempool *p)
{
    int n = p->z_count - (int)(p->z_used / p->z_block);
    for (void *w = p->z_free; w; w = *(void **)w)
        n++;
    return n;
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
    if (p->z_type == Z_OBJ_MEMPOOL && z_avail_of(p) != p->z_count) {
        arch_irq_unlock(key);
        return K_EBUSY; /* blocks are out: they would be handed out twice */
    }
    p->z_free = NULL;
    p->z_buf = buf;
    p->z_used = 0;
    p->z_block = Z_MEMPOOL_BLOCK(block_size);
    p->z_shift = z_shift_of(p->z_block);
    p->z_count = (uint16_t)count;
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
    } else if (p->z_used < (uint32_t)p->z_count * p->z_block) {
        b = p->z_buf + p->z_used;
        p->z_used += p->z_block;
    } else {
        arch_irq_unlock(key);
        return NULL;
    }
    arch_irq_unlock(key);
    return b;
}

int Z_FAST(mempool_free)(struct k_mempool *p, void *block)
{
    Z_CHECK(Z_POOL_OK(p), K_EINVAL);
    uint32_t off = (uint32_t)((uint8_t *)block - p->z_buf);
    /* (NULL or below the storage wraps to a large offset) */
    if (off >= p->z_used || !z_block_start(p, off))
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
    arch_irq_unlock(key);
    return 0;
}

int k_mempool_avail(const struct k_mempool *p)
{
    Z_CHECK(Z_POOL_OK(p), K_EINVAL);
    uint32_t key = arch_irq_lock();
    int n = z_avail_of(p);
    arch_irq_unlock(key);
    return n;
}

#endif /* K_CONFIG_MEMPOOL */
