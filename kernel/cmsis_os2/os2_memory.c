/*
 * The layer's static memory for objects created without memory in their attributes: one
 * arena of OS2_ARENA_BYTES, first fit. Each block has a header (its size, and whether it is
 * in use); free neighbours merge as the walk passes them. Threads only (creation and
 * deletion are not interrupt calls); short sections with interrupts masked keep it
 * consistent between threads.
 */
#include "os2_internal.h"

#include <string.h>

#if OS2_ARENA_BYTES
/* In words: arena[i] is a block's header (its size in words, bit 0 of the byte size: in use),
 * arena[i + 1] a pad, its memory from arena[i + 2] (8-byte aligned). */
static uint32_t arena[OS2_ARENA_BYTES / 8u * 2u] __attribute__((aligned(8)));
#define WORDS (sizeof(arena) / 4u)
#define USED 0x80000000u

static inline uint32_t irq_save(void)
{
    uint32_t m;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(m)::"memory");
    return m;
}
static inline void irq_restore(uint32_t m) { __asm volatile("msr primask, %0" ::"r"(m) : "memory"); }

void os2_memory_init(void)
{
    arena[0] = WORDS; /* one free block */
}

void *os2_alloc(uint32_t bytes)
{
    uint32_t need = ((bytes + 7u) / 8u) * 2u + 2u; /* words, header included */
    uint32_t m = irq_save();
    for (uint32_t i = 0; i < WORDS; i += arena[i] & ~USED) {
        uint32_t h = arena[i];
        if (h & USED)
            continue;
        /* merge the free blocks that follow */
        while (i + h < WORDS && !(arena[i + h] & USED))
            h += arena[i + h];
        arena[i] = h;
        if (h >= need) {
            if (h - need >= 4u) { /* split: the rest stays free */
                arena[i + need] = h - need;
                h = need;
            }
            arena[i] = h | USED;
            irq_restore(m);
            return &arena[i + 2u];
        }
    }
    irq_restore(m);
    return NULL;
}

void os2_free(void *p)
{
    if (!p)
        return;
    uint32_t m = irq_save();
    ((uint32_t *)p)[-2] &= ~USED;
    irq_restore(m);
}
#else
void os2_memory_init(void) {}
void *os2_alloc(uint32_t bytes)
{
    (void)bytes;
    return NULL;
}
void os2_free(void *p) { (void)p; }
#endif

void *os2_cb(void *cb_mem, uint32_t cb_size, uint32_t need, uint8_t *own)
{
    *own = 0;
    if (cb_mem) {
        /* the application's memory: big enough and word aligned */
        if (cb_size < need || ((uintptr_t)cb_mem & 3u))
            return NULL;
        memset(cb_mem, 0, need); /* (whatever it held: not a live kernel object) */
        return cb_mem;
    }
    if (cb_size != 0u)
        return NULL; /* a size without memory */
    os2_reap();
    void *p = os2_alloc(need);
    if (p) {
        memset(p, 0, need);
        *own = OS2_OWN_CB;
    }
    return p;
}
