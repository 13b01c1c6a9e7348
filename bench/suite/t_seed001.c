/*
 * rhealstone.message_throughput.seed001: seed 001's message throughput (ch. 8.3: "the
 * throughput can be calculated as message size divided by round-trip time": 30 and 40 Mbit/s
 * for its two MQX kernels). The round trip of rhealstone.message_passing.seed001 (A sends a
 * 128-byte message to B, B acknowledges with 1 byte, equal priorities 3), and per sample the
 * 1024 bits of the message over that round trip, in kbit/s at the board clock.
 */
#include "bench.h"

#define T1_Q 0
#define T1_ACK 1
#define T1_BYTES 128
#ifndef RTB_PORT_QUEUE_128_ABSENT
#define RTB_PORT_QUEUE_128_ABSENT "the port's queue 0 holds fewer than 128 bytes (rtb_queue_create failed)"
#endif
/* The threads' shared variables: carved from the arena with their stacks (bench_stack; freed by
 * bench_join) and passed as the threads' argument. A static would move every RTOS variable
 * after it, and with the boot time a tick-driven kernel's tick phase in every older test. */
struct t1_shared {
    volatile uint32_t got; /* the sequence number B last received */
};

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
    for (uint32_t k = 0;; k++) {
        uint8_t ack = 0;
        msg[0] = k;
        msg[T1_BYTES / 4 - 1] = 0xA5u;
        uint32_t t0 = t_start();
        rtb_queue_send(T1_Q, msg, RTB_FOREVER);
        rtb_queue_recv(T1_ACK, &ack, RTB_FOREVER);
        uint32_t t1 = t_stop();
        if (ack == 0xA5u && sh->got == k && t1 != t0) /* bits * clock / cycles, in kbit/s */
            bench_sample((uint32_t)(((uint64_t)T1_BYTES * 8u * bench_clock_hz()) / ((uint64_t)(t1 - t0) * 1000u)));
        if (!bench_more())
            bench_done();
    }
}

void t_seed001(void)
{
    const char *id = "rhealstone.message_throughput.seed001";
    if (!bench_need(RTB_CAP_QUEUE, id))
        return;
    if (bench_queue(T1_Q, T1_BYTES, 1) != RTB_OK || bench_queue(T1_ACK, 1, 1) != RTB_OK) {
        bench_absent(id, RTB_PORT_QUEUE_128_ABSENT);
        bench_join(0);
        return;
    }
    struct t1_shared *sh = bench_stack(sizeof *sh);
    if (!sh) {
        bench_absent(id, "no room in the arena");
        bench_join(0);
        return;
    }
    bench_begin(id, BK_NO_PROBE | BK_KBIT_PER_S, 0);
    bench_spawn(0, 3, t1_b, sh, BENCH_STACK);
    bench_spawn(1, 3, t1_a, sh, BENCH_STACK);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}
