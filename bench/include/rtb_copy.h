/*
 * rtb_copy.h - the one message copy of the ports' glue (docs/methodology.md, "Glue at parity").
 *
 * A port whose RTOS copies a queue message itself (FreeRTOS, ThreadX, rtoslab) lets it do so.
 * A port whose RTOS passes pointers only (ChibiOS/RT and NIL objects FIFOs, CoOS mailboxes,
 * RIOT, the bare-metal floor) copies the message in its glue, and every such port copies with
 * this helper, not newlib's memcpy (75 cycles for 16 bytes on the M0: its size and alignment
 * dispatch), so that no port's queue figure carries a slower or faster copy than another's.
 * When both ends and the length are word aligned (the suite's messages are): four words a
 * turn by LDM/STM on ARM, then word by word; byte by byte otherwise.
 */
#ifndef RTB_COPY_H
#define RTB_COPY_H

#include <stddef.h>
#include <stdint.h>

/* Inline at every use. Without the empty asm (a memory barrier in each iteration: the loop
 * cannot be split into a memcpy and the rest) GCC turns a loop into a memcpy call
 * (-ftree-loop-distribute-patterns: it did in ThreadX's copy through a stack buffer); with
 * it no port's queue glue calls memcpy (`rtoslab run --glue` would show one as glue cycles). */
static inline __attribute__((always_inline)) void rtb_copy(void *dst, const void *src, size_t n)
{
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 3u) == 0) {
        uint32_t *d = dst;
        const uint32_t *s = src;
        const uint32_t *end = s + n / 4u;
#if defined(__arm__)
        while (end - s >= 4) /* four words a turn: one LDM, one STM (the cores' block transfer) */
            __asm__ volatile("ldmia %0!, {r3, r4, r5, r6}\n\tstmia %1!, {r3, r4, r5, r6}"
                             : "+l"(s), "+l"(d)
                             :
                             : "r3", "r4", "r5", "r6", "memory"); /* not r7: a frame pointer */
#endif
        for (; s != end; d++, s++) {
            *d = *s;
            __asm__ volatile("" ::: "memory"); /* GCC cannot make a loop a memcpy call */
        }
    } else {
        uint8_t *d = dst;
        const uint8_t *s = src;
        for (size_t i = 0; i < n; i++) {
            d[i] = s[i];
            __asm__ volatile("" ::: "memory");
        }
    }
}

#endif
