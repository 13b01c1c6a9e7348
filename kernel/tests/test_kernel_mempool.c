/*
 * The kernel's behaviour tests, memory pools.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- memory pools -------------------------------------------------------------------------- */

K_MEMPOOL_DEFINE(pool128, 128, 4);
static struct k_mempool pool6;
static uint32_t pool6_mem[2 * 3]; /* 3 blocks of 6 bytes, rounded up to 8 */

void mempool_basic(void)
{
    void *b[5];
    KT_EQ(k_mempool_avail(&pool128), 4);
    for (int i = 0; i < 4; i++) {
        b[i] = k_mempool_alloc(&pool128);
        KT_CHECK(b[i] != NULL);
        KT_EQ(((uintptr_t)b[i] & 3u), 0);
        for (int j = 0; j < i; j++) /* distinct, not overlapping */
            KT_CHECK((uint8_t *)b[i] >= (uint8_t *)b[j] + 128 || (uint8_t *)b[j] >= (uint8_t *)b[i] + 128);
        for (int k = 0; k < 128; k++) /* the whole block is the caller's */
            ((uint8_t *)b[i])[k] = (uint8_t)(0x40 + i);
    }
    KT_EQ(k_mempool_avail(&pool128), 0);
    KT_CHECK(k_mempool_alloc(&pool128) == NULL); /* exhausted: never waits */
    for (int i = 0; i < 4; i++) /* nothing written over the neighbours */
        for (int k = 0; k < 128; k++)
            if (((uint8_t *)b[i])[k] != (uint8_t)(0x40 + i)) {
                KT_EQ(((uint8_t *)b[i])[k], 0x40 + i);
                break;
            }
    KT_EQ(k_mempool_free(&pool128, b[2]), 0);
    KT_EQ(k_mempool_free(&pool128, b[0]), 0);
    KT_EQ(k_mempool_avail(&pool128), 2);
    KT_CHECK(k_mempool_alloc(&pool128) == b[0]); /* the last one released first */
    KT_CHECK(k_mempool_alloc(&pool128) == b[2]);
    KT_CHECK(k_mempool_alloc(&pool128) == NULL);
    /* what is not a block of this pool */
    KT_EQ(k_mempool_free(&pool128, NULL), K_EINVAL);
    KT_EQ(k_mempool_free(&pool128, (uint8_t *)b[1] + 4), K_EINVAL);
    KT_EQ(k_mempool_free(&pool128, &pool6_mem[0]), K_EINVAL);
    KT_EQ(k_mempool_init(&pool128, pool6_mem, 8, 3), K_EBUSY); /* blocks are out */
    for (int i = 0; i < 4; i++)
        KT_EQ(k_mempool_free(&pool128, b[i]), 0);
    KT_EQ(k_mempool_free(&pool128, b[3]), K_EINVAL); /* all free already */
    KT_EQ(k_mempool_avail(&pool128), 4);
    KT_CHECK(k_mempool_alloc((struct k_mempool *)&sa) == NULL); /* not a pool */
    KT_MISUSE(KT_EQ(k_mempool_avail((struct k_mempool *)&sa), K_EINVAL));

    /* a pool initialised at run time, block size rounded up to a multiple of 4 */
    KT_EQ(k_mempool_init(&pool6, pool6_mem, 6, 3), 0);
    KT_MISUSE(KT_EQ(k_mempool_init(&pool6, (uint8_t *)pool6_mem + 1, 6, 3), K_EINVAL)); /* misaligned */
    void *c0 = k_mempool_alloc(&pool6), *c1 = k_mempool_alloc(&pool6), *c2 = k_mempool_alloc(&pool6);
    KT_CHECK(c0 == &pool6_mem[0] && c1 == &pool6_mem[2] && c2 == &pool6_mem[4]);
    KT_CHECK(k_mempool_alloc(&pool6) == NULL);
    KT_EQ(k_mempool_free(&pool6, (uint8_t *)c1 + 2), K_EINVAL); /* inside a block */
    KT_EQ(k_mempool_free(&pool6, c1), 0);
    KT_EQ(k_mempool_free(&pool6, c0), 0);
    KT_EQ(k_mempool_free(&pool6, c2), 0);
    KT_EQ(k_mempool_init(&pool6, pool6_mem, 6, 3), 0); /* nothing out: re-initialised */

    /* the range is the blocks handed out so far (z_used): a block never handed out, past
     * them, and one below the storage are not this pool's, with no released block to
     * search (the fast paths' case) */
    c0 = k_mempool_alloc(&pool6);
    KT_EQ(k_mempool_free(&pool6, &pool6_mem[2]), K_EINVAL); /* block 1: never handed out */
    KT_EQ(k_mempool_free(&pool6, &pool6_mem[4]), K_EINVAL);
    KT_EQ(k_mempool_free(&pool6, (void *)((uintptr_t)pool6_mem - 8u)), K_EINVAL);
    KT_EQ(k_mempool_avail(&pool6), 2);
    KT_EQ(k_mempool_free(&pool6, c0), 0);
    KT_EQ(k_mempool_avail(&pool6), 3);

    /* a block size that is not a power of two (12: the start-of-block test divides; offset
     * 16, inside the second block, would pass a mask test: 16 & 11 == 0) */
    KT_EQ(k_mempool_init(&pool6, pool6_mem, 12, 2), 0);
    void *e0 = k_mempool_alloc(&pool6), *e1 = k_mempool_alloc(&pool6);
    KT_CHECK(e0 == &pool6_mem[0] && e1 == &pool6_mem[3]);
    KT_EQ(k_mempool_free(&pool6, (uint8_t *)e1 + 4), K_EINVAL);
    KT_EQ(k_mempool_free(&pool6, e1), 0);
    KT_EQ(k_mempool_free(&pool6, e0), 0);
    KT_CHECK(k_mempool_alloc(&pool6) == e0); /* the last one released first */
    KT_EQ(k_mempool_free(&pool6, e0), 0);
    KT_EQ(k_mempool_free(&pool6, e0), K_EINVAL); /* all free already */
    /* block 0 released into an empty free list: the shift (0 for this size) passes it */
    KT_CHECK(k_mempool_alloc(&pool6) == e0 && k_mempool_alloc(&pool6) == e1);
    KT_EQ(k_mempool_free(&pool6, e0), 0);
    KT_EQ(k_mempool_avail(&pool6), 1);
    KT_EQ(k_mempool_free(&pool6, e1), 0);
    KT_EQ(k_mempool_avail(&pool6), 2);
    KT_EQ(k_mempool_init(&pool6, pool6_mem, 6, 3), 0);

    /* from an interrupt: allocate there, free here, and the other way round */
    board_irq_enable(TEST_IRQ, 1);
    isr_mode = 5;
    isr_blk = NULL;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_CHECK(isr_blk != NULL);
    KT_EQ(k_mempool_avail(&pool128), 3);
    void *d = k_mempool_alloc(&pool128);
    KT_EQ(k_mempool_free(&pool128, isr_blk), 0);
    isr_blk = d;
    isr_mode = 6;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    KT_EQ(isr_free_r, 0);
    KT_EQ(k_mempool_avail(&pool128), 4);
    isr_mode = 0;
    board_irq_disable(TEST_IRQ);
}
