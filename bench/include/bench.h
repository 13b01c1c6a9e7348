/*
 * bench.h - the test framework of the benchmark suite: sample storage, the result protocol
 * (docs/protocol.md), the stack arena and the controller's helpers. Tests use this and
 * rtb_port.h only.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtb_port.h"

/* Samples per metric: 1024 by default, 4096 with -DRTB_SAMPLES=4096 (CMake option
 * RTOSLAB_BENCH_SAMPLES). The first RTB_COLD of them are the cold iterations. */
#ifndef RTB_SAMPLES
#define RTB_SAMPLES 1024
#endif
/* Boards with less than 16 KiB of RAM (the 8 KiB STM32F051) keep 256 samples per metric. */
#if defined(BOARD_RAM_BYTES) && BOARD_RAM_BYTES < 16384u && RTB_SAMPLES > 256
#undef RTB_SAMPLES
#define RTB_SAMPLES 256
#endif
/* Samples the RAM keeps per metric: all of them up to 4096; above (seed 003's 100 000), 32 at a
 * time, each 32 sent as soon as taken (RTB_STREAM, bench_core.c). */
#if RTB_SAMPLES > 4096
#define RTB_STREAM 1
#define RTB_STORE 32
#else
#define RTB_STREAM 0
#define RTB_STORE RTB_SAMPLES
#endif
#ifndef RTB_COLD
#define RTB_COLD 8
#endif

/* Probe pin 0 brackets every measured interval. */
#define BENCH_PIN 1u

/* Start and stop of a measured interval: pin up then counter read; counter read then pin down.
 * The counter reads are the innermost operations, so the counter interval (the reported
 * figure) carries only the instrument's own counter read (`overhead.probe`); the pin pulse,
 * the second clock, is the wider one and also contains the two reads. */
static inline uint32_t t_start(void)
{
    board_probe_set(BENCH_PIN);
    return board_cycles();
}
static inline uint32_t t_stop(void)
{
    uint32_t t = board_cycles();
    board_probe_clr(BENCH_PIN);
    return t;
}

/* Kinds of metric, for the @metric and @probe lines. */
enum bench_kind {
    BK_CYCLES = 0,     /* unsigned cycles, probe brackets start..stop on pin 0 */
    BK_SIGNED = 1,     /* signed cycles (errors): signed=1 */
    BK_FROM_STIM = 2,  /* the interval starts at the stimulus edge: @probe ID from=stim */
    BK_FROM_RESET = 4, /* the interval starts at reset: @probe ID from=reset */
    BK_NO_PROBE = 8,   /* not bracketed on the probe */
    BK_RATE = 16,      /* throughput: ops per 10^7 cycles */
};

/* Begin a metric: resets the sample store, writes the probe mark. `want` samples (0: RTB_SAMPLES). */
void bench_begin(const char *id, unsigned kind, unsigned want);
/* Store one sample (signed metrics pass a two's-complement value). */
void bench_sample(uint32_t v);
static inline bool bench_more(void)
{
    extern volatile unsigned bench_n, bench_want;
    return bench_n < bench_want;
}
/* Send the samples (@metric/@s/@end) and the @probe line. */
void bench_end(void);
/* The sample store's memory, for a test that takes no sample while it uses it (Hartstone's task
 * set, between its one-value metrics): the next bench_sample overwrites it. In flash: no RAM. */
extern void *const bench_scratch;
extern const size_t bench_scratch_bytes;
/* A metric of one value in a unit of its own (its contract group's: "permille", "Hz", ...): no
 * probe interval, no cold sample. */
void bench_value(const char *id, const char *unit, uint32_t value);
/* Abandon the current metric (cut short): nothing but a log line is sent. */
void bench_abort(const char *why);
void bench_absent(const char *id, const char *reason);
/* If the port lacks `caps`, report `id` absent with the port's reason and return false. */
bool bench_need(uint32_t caps, const char *id);
void bench_check(const char *id, bool pass, const char *detail);
void bench_log(const char *s);
void bench_out(const char *s);
void bench_out_u(uint32_t v);
void bench_out_hex(uint32_t v);

/* ---- threads of a test (controller side) ---- */
#define SEM_DONE (RTB_MAX_SEMS - 1) /* test threads signal it when finished */
#define SEM_PARK (RTB_MAX_SEMS - 2) /* never signalled: finished threads wait on it forever */
/* Hartstone's largest task set (t_hartstone.c). Its frame handler makes the suite's largest
 * burst of rtb_sem_signal_isr from one interrupt: at most one post per task and the end of the
 * trial, BENCH_MAX_ISR_SIGNALS. An RTOS that queues the posts made from interrupts and drops
 * what does not fit has its queue sized for it, which its port asserts (CoOS's
 * CFG_MAX_SERVICE_REQUEST, RTX5's OS_ISR_FIFO_QUEUE): a lost release left a task never run. */
#define BENCH_HS_MAX_TASKS 14
#define BENCH_MAX_ISR_SIGNALS (BENCH_HS_MAX_TASKS + 1)
/* Test thread stacks, bytes. A core with an FPU stacks more per thread (its board's
 * BOARD_FPU_STACK_BYTES, board_config.h): every RTOS gets the same larger stacks there. */
#ifndef BOARD_FPU_STACK_BYTES
#define BOARD_FPU_STACK_BYTES 0
#endif
#define BENCH_STACK (448 + BOARD_FPU_STACK_BYTES)       /* default test thread */
#define BENCH_STACK_SMALL (272 + BOARD_FPU_STACK_BYTES) /* scaling threads */
/* The arena the test stacks are carved from (bench_core.c), bytes; a board may set its own.
 * Room for 33 small threads (scale.*.n32, 8976 bytes) and 64 bytes of side table next to
 * 1024 samples. The 4096-sample build gives the arena's RAM to the samples, and the
 * scaling metrics that no longer fit are reported absent; so do boards with 8 KiB, and the
 * FPU boards with 16 KiB (their small threads are larger). FPU boards with more RAM get the
 * room of 33 of their small threads. */
#ifndef BENCH_ARENA_BYTES
#if defined(BOARD_RAM_BYTES) && BOARD_RAM_BYTES < 16384u
#define BENCH_ARENA_BYTES 2560u
#elif defined(BOARD_RAM_BYTES) && BOARD_RAM_BYTES > 16384u
#define BENCH_ARENA_BYTES                                                                         \
    (9040u + 2048u + 256u - 2u * RTB_STORE - RTB_STORE / 4u + 33u * BOARD_FPU_STACK_BYTES)
#else
#define BENCH_ARENA_BYTES (9040u + 2048u + 256u - 2u * RTB_STORE - RTB_STORE / 4u)
#endif
#endif
void *bench_stack(size_t bytes);    /* carve a stack from the arena (freed by bench_join) */
void *bench_shared(size_t bytes);   /* the same for a test's shared variables (no low-water check) */
size_t bench_arena_free(void);
/* Create test thread `id` (ready at `prio`) on an arena stack; it runs when the controller blocks. */
void bench_spawn(int id, int prio, rtb_entry_t fn, void *arg, size_t stack_bytes);
/* Wait until `ndone` threads have called bench_done(), then delete every spawned thread and
 * every object created with bench_sem/bench_mutex/bench_queue, and free the arena.
 * Returns false if the test timed out. */
bool bench_join(unsigned ndone);
/* Called by a test thread when it is finished: signals SEM_DONE then parks forever. */
void bench_done(void) __attribute__((noreturn));
void bench_sem(int id, unsigned initial, unsigned max);
void bench_mutex(int id);
/* The same with the port's answer, RTB_OK or RTB_ERROR (bench_try_spawn logs nothing). */
int bench_try_spawn(int id, int prio, rtb_entry_t fn, void *arg, size_t stack_bytes);
int bench_try_sem(int id, unsigned initial, unsigned max);
int bench_try_mutex(int id);
int bench_queue(int id, size_t msg_bytes, unsigned depth); /* rtb_queue_create's result */

/* Spin for `cycles` cycles on the cycle counter (no RTOS call). */
void bench_spin(uint32_t cycles);
/* 0 on boards where the cycle counter is not the core clock. */
extern const unsigned bench_cycle_accurate;
uint32_t bench_clock_hz(void);
static inline uint32_t us_to_cycles(uint32_t us) { return (uint32_t)(((uint64_t)us * bench_clock_hz()) / 1000000u); }

/* Tests (bench/suite/t_*.c), run in this order by the controller. */
void t_boot_record(void);
void t_overhead(void);
void t_rhealstone(void);
void t_sem_switch(void);
void t_primitives(void);
void t_irq(void);
void t_time(void);
void t_scale(void);
void t_scale_long_timeouts(void); /* scale.timeout_wake.n30: after the checks */
void t_throughput(void);
void t_energy(void); /* energy.*_window: after everything else (t_energy.c) */
void t_checks(void);
void t_live(void); /* the hot paths' live-register variants (`<id>.live`) */
/* After every older test, so that their figures (a tick-driven kernel's tick phase) stay the same: */
void t_seed002(void);     /* rhealstone.task_switch.seed002 (t_seed002.c) */
void t_seed001(void);     /* rhealstone.message_throughput.seed001 (t_seed001.c) */
void t_seed003(void);     /* mutex.lock_unlock.seed003, sem.signal_wake.seed003 (t_seed003.c) */
void t_seed004(void);     /* seed 004's full pulse and callback sets: absent unless --preset seed004 */
void t_hartstone(void);   /* hartstone.* (t_hartstone.c) */

void bench_irq_clear_pending(unsigned irq);
extern volatile uint32_t bench_entry_stops_probe; /* the vector entry drops probe pin 0 */

/* The IRQ lines the suite uses. */
#define BENCH_SW_IRQ 28u /* a line no board wires: pended in software */
#endif
