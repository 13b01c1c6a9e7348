/*
 * The kernel's behaviour tests, queues: FIFO order, blocking senders and receivers.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- queues ------------------------------------------------------------------------------ */

K_QUEUE_DEFINE(q4, 4, 3);

static void t_recv_log(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;) { /* without timeout: items are handed over directly */
        KT_EQ(k_queue_recv(&q4, &v, K_FOREVER), 0);
        if (v == 0)
            break;
        log_add((int)v);
    }
}

static void t_send5(void *arg)
{
    (void)arg;
    for (uint32_t v = 1; v <= 5; v++)
        res[0] = k_queue_send(&q4, &v, K_FOREVER);
    log_add(99);
}

void queue_basic(void)
{
    uint32_t v;
    for (v = 1; v <= 3; v++)
        KT_EQ(k_queue_send(&q4, &v, K_NO_WAIT), 0);
    KT_EQ(k_queue_send(&q4, &v, K_NO_WAIT), K_EAGAIN);
    KT_EQ(k_queue_count(&q4), 3);
    uint32_t t0 = k_now();
    KT_EQ(k_queue_send(&q4, &v, K_USEC(200)), K_ETIMEDOUT);
    KT_CHECK(k_now() - t0 >= K_USEC(200));
    for (uint32_t i = 1; i <= 3; i++) {
        KT_EQ(k_queue_recv(&q4, &v, K_NO_WAIT), 0);
        KT_EQ(v, i);
    }
    KT_EQ(k_queue_recv(&q4, &v, K_NO_WAIT), K_EAGAIN);
    t0 = k_now();
    KT_EQ(k_queue_recv(&q4, &v, K_USEC(200)), K_ETIMEDOUT);
    KT_CHECK(k_now() - t0 >= K_USEC(200));

    uint8_t buf[5 * 6], item[6] = {1, 2, 3, 4, 5, 6}, out[6];
    struct k_queue qb;
    KT_EQ(k_queue_init(&qb, buf, 6, 5), 0);
    KT_EQ(k_queue_send(&qb, item, K_NO_WAIT), 0);
    KT_EQ(k_queue_recv(&qb, out, K_NO_WAIT), 0);
    for (int i = 0; i < 6; i++)
        KT_EQ(out[i], item[i]);
}

/* Items of every word count from 1 to 6 (the copy moves two words at a time, then one) and
 * an odd byte size, through the ring (which wraps) and handed over to a waiting receiver:
 * every word arrives, nothing beyond the item is written. */
static struct k_queue qw;
static uint32_t qw_got[7];

static void t_recv_words(void *arg)
{
    (void)arg;
    KT_EQ(k_queue_recv(&qw, qw_got, K_FOREVER), 0);
}

void queue_item_sizes(void)
{
    static uint32_t ring[3 * 6];
    for (unsigned words = 1; words <= 6; words++) {
        unsigned n = words * 4u;
        KT_EQ(k_queue_init(&qw, ring, n, 3), 0);
        for (unsigned round = 0; round < 5; round++) { /* the head goes round the ring */
            uint32_t in[6], out[7];
            for (unsigned i = 0; i < 6; i++)
                in[i] = 0x1000u * words + 0x10u * round + i;
            out[words] = 0xDEADBEEFu;
            KT_EQ(k_queue_send(&qw, in, K_NO_WAIT), 0);
            KT_EQ(k_queue_recv(&qw, out, K_NO_WAIT), 0);
            for (unsigned i = 0; i < words; i++)
                KT_EQ(out[i], in[i]);
            KT_EQ(out[words], 0xDEADBEEFu);
        }
        /* the hand-off: straight into the buffer of a receiver waiting without timeout,
         * one that preempts the sender (6), one of its priority and one below it (the
         * ARMv7-M fast path's case: no switch; the item is in the buffer before the
         * receiver runs) */
        static const unsigned prios[] = {6, DRV, DRV - 1};
        for (unsigned k = 0; k < 3; k++) {
            for (unsigned i = 0; i <= words; i++)
                qw_got[i] = 0xDEADBEEFu;
            spawn(0, t_recv_words, 0, prios[k]);
            settle(); /* (it waits) */
            uint32_t in[6] = {11, 22, 33, 44, 55, 66 + k};
            KT_EQ(k_queue_send(&qw, in, K_NO_WAIT), 0);
            for (unsigned i = 0; i < words; i++)
                KT_EQ(qw_got[i], in[i]);
            KT_EQ(qw_got[words], 0xDEADBEEFu);
            KT_EQ(k_queue_count(&qw), 0);
            settle();
        }
    }
}

void queue_blocking(void)
{
    log_reset();
    spawn(0, t_recv_log, 0, 6); /* blocks on the empty queue */
    for (uint32_t v = 10; v < 15; v++)
        KT_EQ(k_queue_send(&q4, &v, K_FOREVER), 0); /* each runs the receiver at once */
    LOG_IS(10, 11, 12, 13, 14);
    KT_EQ(k_queue_count(&q4), 0);
    uint32_t zero = 0;
    KT_EQ(k_queue_send(&q4, &zero, K_FOREVER), 0); /* ends it */
    settle();
    log_reset();
    spawn(1, t_send5, 0, 6); /* fills the queue, blocks on the 4th */
    KT_EQ(k_queue_count(&q4), 3);
    uint32_t v;
    for (uint32_t i = 1; i <= 5; i++) {
        KT_EQ(k_queue_recv(&q4, &v, K_MSEC(2)), 0);
        KT_EQ(v, i);
    }
    LOG_IS(99);
    KT_EQ(res[0], 0);
}
