/*
 * rhealstone.message_throughput.seed001: seed 001's message throughput (ch. 8.3: "the
 * throughput can be calculated as message size divided by round-trip time": 30 and 40 Mbit/s
 * for its two MQX kernels). The round trip of rhealstone.message_passing.seed001 (A sends a
 * 128-byte message to B, B acknowledges with 1 byte, equal priorities 3), T1_N times; the
 * metric is the 1024 bits of the message over the median round trip, in kbit/s at the board
 * clock (one value, as the seed gave one).
 */
#include "bench.h"

#define T1_Q 0
#define T1_ACK 1
#define T1_BYTES 128
#define T1_N 255u /* round trips, kept in the sample store (bench_scratch) until the median */
#ifndef RTB_PORT_QUEUE_128_ABSENT
#define RTB_PORT_QUEUE_128_ABSENT "the port's queue 0 holds fewer than 128 bytes (rtb_queue_create failed)"
#endif
/* The threads' shared variables: carved from the arena with their stacks (bench_shared; freed by
 * bench_join) and passed as the threads' argument. A static would move every RTOS variable
 * after it, and with the boot time a tick-driven kernel's tick phase in every older test. */
struct t1_shared {
    volatile uint32_t got; /* the sequence number B last received */
    uint32_t n;            /* round trips recorded */
};
#define T1_RT ((uint32_t *)bench_scratch)

static void t1_b(void *arg)
{
    struct t1_shared *sh = arg;
    uint32_t in[T1_BYTES / 4];
    for (;;) {
        rtb_queue_recv(T1_Q, in, RTB_FOREVER);
        uint8_t ack = (uint8_t)in[T1_BYTES / 4 - 1];
        sh->got = in[0];
        rtb_queue_send(T1_ACK, &ack, RTB_FOREVER);
    }
}

static void t1_a(void *arg)
{
    struct t1_shared *sh = arg;
    uint32_t msg[T1_BYTES / 4] = {0};
    for (uint32_t k = 0; sh->n < T1_N; k++) {
        uint8_t ack = 0;
        msg[0] = k;
        msg[T1_BYTES / 4 - 1] = 0xA5u;
        uint32_t t0 = t_start();
        rtb_queue_send(T1_Q, msg, RTB_FOREVER);
        rtb_queue_recv(T1_ACK, &ack, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (ack == 0xA5u && sh->got == k)
            T1_RT[sh->n++] = t1 - t0;
    }
    bench_done();
}

void t_seed001(void)
{
    const char *id = "rhealstone.message_throughput.seed001";
    if (!bench_need(RTB_CAP_QUEUE, id))
        return;
    struct t1_shared *sh = bench_shared(sizeof *sh);
    if (!sh || T1_N * 4u > bench_scratch_bytes) {
        bench_absent(id, "not enough RAM for the round trips next to the sample store");
        bench_join(0);
        return;
    }
    if (bench_queue(T1_Q, T1_BYTES, 1) != RTB_OK || bench_queue(T1_ACK, 1, 1) != RTB_OK) {
        bench_absent(id, RTB_PORT_QUEUE_128_ABSENT);
        bench_join(0);
        return;
    }
    sh->n = 0;
    bench_spawn(0, 3, t1_b, sh, BENCH_STACK);
    bench_spawn(1, 3, t1_a, sh, BENCH_STACK);
    if (!bench_join(1)) {
        bench_absent(id, "timed out");
        return;
    }
    for (uint32_t i = 1; i < T1_N; i++) /* insertion sort, for the median */
        for (uint32_t j = i; j > 0 && T1_RT[j - 1] > T1_RT[j]; j--) {
            uint32_t t = T1_RT[j];
            T1_RT[j] = T1_RT[j - 1];
            T1_RT[j - 1] = t;
        }
    uint32_t median = T1_RT[T1_N / 2];
    bench_value(id, "kbit/s", (uint32_t)(((uint64_t)T1_BYTES * 8u * bench_clock_hz()) / ((uint64_t)median * 1000u)));
}
