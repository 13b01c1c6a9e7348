/*
 * The framework of the suite: sample store, result protocol, stack arena, controller.
 * Protocol: docs/protocol.md. Definitions of the metrics: docs/methodology.md.
 */
#include <string.h>

#include "bench.h"
#include "probe_marks.h"
#include "irq_source.h" /* irq_t0 */

#ifdef BOARD_TIME_UNIT
#define BENCH_UNIT BOARD_TIME_UNIT /* the host board counts ns */
#else
#define BENCH_UNIT "cycles"
#endif

/* ---- output ---- */
void bench_out(const char *s) { board_puts(s); }

void bench_out_u(uint32_t v)
{
    char b[11];
    int i = 10;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    board_puts(&b[i]);
}

static const char hexd[] = "0123456789abcdef";

void bench_out_hex(uint32_t v)
{
    char b[9];
    int i = 8;
    b[i] = 0;
    do {
        b[--i] = hexd[v & 15u];
        v >>= 4;
    } while (v);
    board_puts(&b[i]);
}

void bench_log(const char *s)
{
    board_puts("# ");
    board_puts(s);
    board_putc('\n');
}

void bench_config(const char *key, const char *value)
{
    board_puts("@config ");
    board_puts(key);
    board_putc('=');
    board_puts(value);
    board_putc('\n');
}

void bench_config_u(const char *key, uint32_t value)
{
    board_puts("@config ");
    board_puts(key);
    board_putc('=');
    bench_out_u(value);
    board_putc('\n');
}

#if defined(RTB_PORT_NO_THREADS)
static void nt_mark(const char *id, const char *absent_reason);
#endif

void bench_check(const char *id, bool pass, const char *detail)
{
#if defined(RTB_PORT_NO_THREADS)
    nt_mark(id, 0);
#endif
    board_puts("@check ");
    board_puts(id);
    board_puts(pass ? " pass " : " fail ");
    board_puts(detail);
    board_putc('\n');
}

void bench_absent(const char *id, const char *reason)
{
#if defined(RTB_PORT_NO_THREADS)
    nt_mark(id, reason);
#endif
    board_puts("@absent ");
    board_puts(id);
    board_putc(' ');
    board_puts(reason);
    board_putc('\n');
}

bool bench_need(uint32_t caps, const char *id)
{
    uint32_t missing = caps & ~(uint32_t)RTB_CAPS_HELD;
    if (!missing)
        return true;
    for (uint32_t bit = 1; bit; bit <<= 1)
        if (missing & bit) {
            bench_absent(id, rtb_port_absent_reason(bit));
            break;
        }
    return false;
}

/* ---- samples ----
 * Stored as their low 16 bits (signed metrics zigzag-encoded first) plus 2 more bits per
 * sample in `hi2`: 0..2 are bits 16-17 of the value, 3 means "in the side table", which
 * holds (index << 16 | high half) of the rare values of 196608 or more, in sample order, in
 * the arena's free space (below the stacks of the test, carved before measuring). So every
 * value below 3 * 65536 (a 4 ms error at 48 MHz, zigzag-encoded) costs 18 bits.
 * 1024 samples cost 2.3 KiB, 4096 cost 9 KiB of the 16 KiB RAM. If the side table runs
 * out of room, the metric ends early with the samples it has (all exact). */
static uint16_t samples[RTB_STORE]; /* also bench_scratch's memory */
static uint8_t hi2[RTB_STORE / 4];
static unsigned n_wide, lost;
volatile unsigned bench_n, bench_want;
#if !BOARD_HAS_STIMULUS
volatile uint32_t irq_t0; /* irq_source.h: where the interval of a software interrupt starts */
#endif
static const char *cur_id;
static unsigned cur_kind, metric_index;
static size_t arena_room(void);
static uint32_t *side_base(void);

void bench_begin(const char *id, unsigned kind, unsigned want)
{
#if defined(RTB_PORT_NO_THREADS)
    nt_mark(id, 0);
#endif
    cur_id = id;
    cur_kind = kind;
    bench_n = 0;
    n_wide = 0;
    lost = 0;
    memset(hi2, 0, sizeof hi2);
    bench_want = (want == 0 || want > RTB_SAMPLES) ? RTB_SAMPLES : want;
    board_probe_clr(BENCH_PIN);
    if (!(kind & BK_FROM_RESET)) /* boot.first_thread's mark was written at boot */
        board_probe_mark(MARK_METRIC | metric_index);
}

#define SIDE (side_base()) /* entries: (index << 16) | high half */

#if RTB_STREAM
/* More samples than RAM holds (--samples above 4096, e.g. seed 003's 100 000): each metric's
 * @metric line goes out with its first 32 samples and its samples 32 at a time, as they come
 * (the printing falls between samples, in whatever context took the 32nd: a test whose
 * samples come back to back, such as a pulse train, may see it). */
static uint32_t stream_buf[32];
static unsigned stream_fill, stream_headed;
static void stream_flush(void)
{
    if (!stream_headed) {
        board_puts("@metric ");
        board_puts(cur_id);
        board_puts((cur_kind & BK_RATE) ? " unit=ops/1e7cycles n=" : " unit=" BENCH_UNIT " n=");
        bench_out_u(bench_want);
        board_puts(" cold=");
        bench_out_u((cur_kind & (BK_RATE | BK_FROM_RESET)) ? 0 : (bench_want < RTB_COLD ? bench_want : RTB_COLD));
        if (cur_kind & BK_SIGNED)
            board_puts(" signed=1");
        board_putc('\n');
        stream_headed = 1;
    }
    if (!stream_fill)
        return;
    board_puts("@s");
    for (unsigned j = 0; j < stream_fill; j++) {
        board_putc(' ');
        bench_out_hex(stream_buf[j]);
    }
    board_putc('\n');
    stream_fill = 0;
}
#endif

void bench_sample(uint32_t v)
{
    unsigned i = bench_n;
#if RTB_STREAM
    if (i >= bench_want)
        return;
    stream_buf[stream_fill++] = v;
    bench_n = i + 1;
    if (stream_fill == 32)
        stream_flush();
    return;
#endif
    if (i >= bench_want)
        return;
    if (cur_kind & BK_SIGNED)
        v = (v << 1) ^ (uint32_t)((int32_t)v >> 31);
    uint32_t hi = v >> 16;
    if (hi >= 3u) {
        if (n_wide >= arena_room() / 4u) {
            lost++;
            bench_want = i; /* end the metric here */
            return;
        }
        SIDE[n_wide++] = ((uint32_t)i << 16) | hi;
        hi = 3u;
    }
    hi2[i / 4] |= (uint8_t)(hi << (2 * (i % 4)));
    samples[i] = (uint16_t)v;
    bench_n = i + 1;
}

static unsigned side_cursor;
static uint32_t sample_at(unsigned i)
{
    uint32_t v = samples[i];
    uint32_t hi = (hi2[i / 4] >> (2 * (i % 4))) & 3u;
    if (hi == 3u) {
        while (side_cursor < n_wide && (SIDE[side_cursor] >> 16) < i)
            side_cursor++;
        hi = side_cursor < n_wide ? SIDE[side_cursor] & 0xFFFFu : 0xFFFFu;
    }
    v |= hi << 16;
    if (cur_kind & BK_SIGNED)
        v = (v >> 1) ^ (uint32_t)-(int32_t)(v & 1u);
    return v;
}

void bench_end(void)
{
    unsigned n = bench_n;
    board_probe_clr(BENCH_PIN);
#if RTB_STREAM
    stream_flush(); /* the head if no sample came, and the last samples */
    stream_headed = 0;
    n = 0;
#endif
    side_cursor = 0;
    if (lost)
        bench_log("fewer samples than asked: no RAM left for more samples wider than 16 bits");
#if !RTB_STREAM
    board_puts("@metric ");
    board_puts(cur_id);
    board_puts((cur_kind & BK_RATE) ? " unit=ops/1e7cycles n=" : " unit=" BENCH_UNIT " n=");
    bench_out_u(n);
    board_puts(" cold=");
    bench_out_u((cur_kind & (BK_RATE | BK_FROM_RESET)) ? 0 : (n < RTB_COLD ? n : RTB_COLD));
    if (cur_kind & BK_SIGNED)
        board_puts(" signed=1");
    board_putc('\n');
#endif
    for (unsigned i = 0; i < n; i += 32) {
        board_puts("@s");
        for (unsigned j = i; j < n && j < i + 32; j++) {
            board_putc(' ');
            bench_out_hex(sample_at(j));
        }
        board_putc('\n');
    }
    board_puts("@end ");
    board_puts(cur_id);
    board_putc('\n');
    if (BOARD_HAS_PROBE && !(cur_kind & BK_NO_PROBE)) {
        board_puts("@probe ");
        board_puts(cur_id);
        if (cur_kind & BK_FROM_STIM)
            board_puts(" from=stim");
        if (cur_kind & BK_FROM_RESET)
            board_puts(" from=reset");
        board_putc('\n');
    }
    metric_index++;
}

/* A metric of one value in a unit of its own (the issue-28 metrics: Hartstone's, seed 001's
 * throughput). Its own lines, so that bench_end stays instruction for instruction what it was:
 * its cycles between metrics set a tick-driven kernel's tick phase in every later test. */
void bench_value(const char *id, const char *unit, uint32_t value)
{
    bench_begin(id, BK_NO_PROBE, 1); /* the probe mark, and the metric's number */
    board_puts("@metric ");
    board_puts(id);
    board_puts(" unit=");
    board_puts(unit);
    board_puts(" n=1 cold=0\n@s ");
    bench_out_hex(value);
    board_puts("\n@end ");
    board_puts(id);
    board_putc('\n');
    metric_index++;
}

void *const bench_scratch = samples;
const size_t bench_scratch_bytes = sizeof samples;

void bench_abort(const char *why)
{
    board_puts("# ");
    board_puts(cur_id);
    board_puts(" incomplete: ");
    board_puts(why);
    board_putc('\n');
    board_probe_clr(BENCH_PIN);
    /* The mark was written: the index is used even though no @metric line follows, so the
     * host must not pair later marks with this one. Keep the numbering by sending n=0. */
    bench_want = 0;
    board_puts("@metric ");
    board_puts(cur_id);
    board_puts(" unit=cycles n=0 cold=0 incomplete=1\n@end ");
    board_puts(cur_id);
    board_putc('\n');
    metric_index++;
}

/* ---- arena: stacks of the current test ---- */
/* Its size, BENCH_ARENA_BYTES: bench.h. */
static uint64_t arena[BENCH_ARENA_BYTES / 8];
static size_t arena_used;
static size_t arena_room(void) { return sizeof arena - arena_used; }
static uint32_t *side_base(void) { return (uint32_t *)arena; }
static uint16_t stack_len[64]; /* sizes of the pieces carved, last first (NOT_A_STACK: data) */
static unsigned n_stacks;
#define NOT_A_STACK 0x8000u /* a piece of shared variables (bench_shared): no low water */

static void *carve(size_t bytes, uint16_t flag)
{
    bytes = (bytes + 7u) & ~(size_t)7u;
    if (arena_used + bytes > sizeof arena)
        return NULL;
    arena_used += bytes;
    if (n_stacks < 64) {
        for (unsigned k = n_stacks; k > 0; k--)
            stack_len[k] = stack_len[k - 1];
        stack_len[0] = (uint16_t)(bytes | flag);
        n_stacks++;
        if (n_stacks < 64)
            stack_len[n_stacks] = 0;
    }
    char *p = (char *)arena + sizeof arena - arena_used;
    memset(p, 0xA5, bytes); /* painted: bench_join reports the least stack ever left */
    return p;
}

void *bench_stack(size_t bytes) { return carve(bytes, 0); }

void *bench_shared(size_t bytes) { return carve(bytes, NOT_A_STACK); }

/* The fewest untouched (still painted) bytes at the low end of any stack of the test. */
static size_t arena_low_water(void)
{
    const uint8_t *p = (const uint8_t *)arena + sizeof arena - arena_used;
    const uint8_t *end = (const uint8_t *)arena + sizeof arena;
    size_t best = (size_t)-1;
    for (int k = 0; k < 64 && p < end; k++) {
        size_t len = stack_len[k] & ~NOT_A_STACK;
        if (!len)
            break;
        if (stack_len[k] & NOT_A_STACK) { /* variables: written from their first byte */
            p += len;
            continue;
        }
        size_t n = 8; /* a kernel may keep a guard word at the very bottom */
        while (n < len && p[n] == 0xA5)
            n++;
        n -= 8;
        if (n < best)
            best = n;
        p += len;
    }
    return best;
}

size_t bench_arena_free(void) { return sizeof arena - arena_used; }

static uint64_t spawned; /* bit per thread id (ids < 64) */
static uint64_t sems_made;
static unsigned mutexes_made, queues_made;

void bench_spawn(int id, int prio, rtb_entry_t fn, void *arg, size_t stack_bytes)
{
    void *stk = bench_stack(stack_bytes);
    if (!stk || rtb_thread_create(id, prio, fn, arg, stk, stack_bytes) != RTB_OK) {
        bench_log("cannot create a test thread (arena or port limit)");
        return;
    }
    spawned |= 1ull << id;
}

void bench_sem(int id, unsigned initial, unsigned max)
{
    rtb_sem_create(id, initial, max);
    sems_made |= 1ull << id;
}
void bench_mutex(int id)
{
    rtb_mutex_create(id);
    mutexes_made |= 1u << id;
}
/* As bench_spawn, bench_sem, bench_mutex, with the port's answer (a test that must know
 * whether the RTOS could create what it asked for: Hartstone's sets). Separate functions: the
 * others stay as they were, instruction for instruction. */
int bench_try_spawn(int id, int prio, rtb_entry_t fn, void *arg, size_t stack_bytes)
{
    void *stk = bench_stack(stack_bytes);
    if (!stk || rtb_thread_create(id, prio, fn, arg, stk, stack_bytes) != RTB_OK)
        return RTB_ERROR;
    spawned |= 1ull << id;
    return RTB_OK;
}
int bench_try_sem(int id, unsigned initial, unsigned max)
{
    int r = rtb_sem_create(id, initial, max);
    sems_made |= 1ull << id;
    return r;
}
int bench_try_mutex(int id)
{
    int r = rtb_mutex_create(id);
    mutexes_made |= 1u << id;
    return r;
}
int bench_queue(int id, size_t msg_bytes, unsigned depth)
{
    int r = rtb_queue_create(id, msg_bytes, depth);
    if (r == RTB_OK)
        queues_made |= 1u << id; /* deleted after the test; one that failed is not there */
    return r;
}

bool bench_join(unsigned ndone)
{
    bool ok = true;
    /* Wait in slices of 10 s (a timeout every kernel can express), up to a limit that the
     * longest test (1 ms phase + 10 ms delay per sample) fits in. */
    uint32_t slices = 3u + (RTB_SAMPLES * 20u) / 10000u;
    for (unsigned i = 0; i < ndone && ok; i++) {
        if (!RTB_HAS(RTB_CAP_TIMEOUT)) {
            rtb_sem_wait(SEM_DONE, RTB_FOREVER);
            continue;
        }
        unsigned k = 0;
        while (rtb_sem_wait(SEM_DONE, 10000000u) != RTB_OK)
            if (++k >= slices) {
                ok = false;
                break;
            }
    }
    for (int id = 0; id < 64; id++)
        if (spawned & (1ull << id))
            rtb_thread_delete(id);
    spawned = 0;
    for (int id = 0; id < 64; id++)
        if (sems_made & (1ull << id))
            rtb_sem_delete(id);
    sems_made = 0;
    for (int id = 0; id < 32; id++)
        if (mutexes_made & (1u << id))
            rtb_mutex_delete(id);
    mutexes_made = 0;
    for (int id = 0; id < 32; id++)
        if (queues_made & (1u << id))
            rtb_queue_delete(id);
    queues_made = 0;
    if (arena_used) {
        size_t lw = arena_low_water();
        if (lw < 32) { /* less than one exception frame of margin */
            board_puts("# warning: a test thread left only ");
            bench_out_u((uint32_t)lw);
            board_puts(" bytes of its stack unused\n");
        }
    }
    arena_used = 0;
    n_stacks = 0;
    stack_len[0] = 0;
    for (unsigned irq = 0; irq < 32; irq++)
        rtb_irq_uninstall(irq);
    if (!ok)
        bench_log("test timed out: its threads were deleted");
    /* A thread that ran off may have left pending signals on DONE: drain them. */
    while (rtb_sem_wait(SEM_DONE, 0) == RTB_OK) {
    }
    return ok;
}

void bench_done(void)
{
    rtb_sem_signal(SEM_DONE);
    for (;;)
        rtb_sem_wait(SEM_PARK, RTB_FOREVER);
}

void bench_spin(uint32_t cycles)
{
    uint32_t t0 = board_cycles();
#ifdef BOARD_SPIN_STRIDE
    /* A board where reading the counter is dear for the host (board_config.h) burns the bulk
     * of a long spin in strides of plain instructions between reads; the last 2 strides poll
     * as below, so the spin ends at the same count. */
    while ((uint32_t)(board_cycles() - t0) + 2u * BOARD_SPIN_STRIDE < cycles) {
        for (volatile uint32_t i = 0; i < BOARD_SPIN_STRIDE / 8u; i++) {
        }
    }
#endif
    while ((uint32_t)(board_cycles() - t0) < cycles) {
    }
}

const unsigned bench_cycle_accurate = BOARD_CYCLE_ACCURATE;

/* ---- interrupts: the table behind the suite's vector entries ----
 * Every entry is callable (an unused line runs bench_isr_none), so a vector's dispatch is one
 * load and one call. */
static void bench_isr_none(uint32_t now) { (void)now; }

#define ISR_NONE4 bench_isr_none, bench_isr_none, bench_isr_none, bench_isr_none
rtb_isr_t bench_isr_table[32] = {ISR_NONE4, ISR_NONE4, ISR_NONE4, ISR_NONE4,
                                 ISR_NONE4, ISR_NONE4, ISR_NONE4, ISR_NONE4};

/* The default installation: route and enable through the board's NVIC helpers. A port whose
 * kernel owns interrupt installation overrides rtb_irq_install/rtb_irq_uninstall. */
/* A port without RTB_CAP_TIMER_ONESHOT need not define it (the test is not run). */
__attribute__((weak)) int rtb_timer_once(int id, uint32_t delay_us)
{
    (void)id;
    (void)delay_us;
    return RTB_ERROR;
}

__attribute__((weak)) void rtb_irq_install(unsigned irq, unsigned prio, rtb_isr_t isr)
{
    bench_isr_table[irq & 31u] = isr;
    bench_irq_clear_pending(irq);
    board_irq_enable(irq, prio);
}

__attribute__((weak)) void rtb_irq_uninstall(unsigned irq)
{
    if (bench_isr_table[irq & 31u] != bench_isr_none) {
        board_irq_disable(irq);
        bench_isr_table[irq & 31u] = bench_isr_none;
    }
}


#if defined(RTB_PORT_NO_THREADS)
/* ---- a port without threads (rtb_port.h, RTB_PORT_NO_THREADS) ----
 * Every standard metric and check (metric_ids.h, generated from spec/contracts.toml), so
 * that the ones the port does not report are sent `@absent` with the port's reason. */
#include "metric_ids.h"
static const char *const nt_metrics[] = {BENCH_STANDARD_METRICS};
static const char *const nt_checks[] = {BENCH_STANDARD_CHECKS};
#define NT_NM (sizeof nt_metrics / sizeof nt_metrics[0])
#define NT_NC (sizeof nt_checks / sizeof nt_checks[0])
static uint8_t nt_done[NT_NM + NT_NC];       /* reported (measured, checked or absent) */
static const char *nt_absent[NT_NM];        /* the reason of a metric reported absent */

static void nt_mark(const char *id, const char *absent_reason)
{
    for (unsigned i = 0; i < NT_NM + NT_NC; i++)
        if (strcmp(id, i < NT_NM ? nt_metrics[i] : nt_checks[i - NT_NM]) == 0) {
            nt_done[i] = 1;
            if (i < NT_NM)
                nt_absent[i] = absent_reason;
        }
}

/* A live-register variant (`<id>.live`) is absent for the reason its plain id is, if any. */
static const char *nt_live_reason(const char *id)
{
    size_t n = strlen(id);
    if (n < 5 || strcmp(id + n - 5, ".live") != 0)
        return 0;
    for (unsigned i = 0; i < NT_NM; i++)
        if (strlen(nt_metrics[i]) == n - 5 && strncmp(nt_metrics[i], id, n - 5) == 0)
            return nt_absent[i];
    return 0;
}

static void bench_no_threads(void)
{
    int checks_only = 1;
#ifndef BENCH_CHECKS_ONLY
    checks_only = 0;
    t_boot_record();
    t_overhead();
#endif
    rtb_port_own_tests(checks_only);
    const char *why = rtb_port_absent_reason(RTB_CAP_THREADS);
    for (unsigned i = checks_only ? NT_NM : 0; i < NT_NM + NT_NC; i++)
        if (!nt_done[i]) {
            const char *id = i < NT_NM ? nt_metrics[i] : nt_checks[i - NT_NM];
            const char *plain_why = nt_live_reason(id);
            bench_absent(id, plain_why ? plain_why : why);
        }
}
#endif

/* ---- the controller ---- */
uint32_t bench_boot_cycles;
static uint64_t ctrl_stack[768 / 8];

static void controller(void *arg)
{
    (void)arg;
    bench_boot_cycles = (uint32_t)board_cycles64(); /* first instruction of the first thread */
    board_probe_mark(MARK_METRIC);                   /* boot.first_thread is metric 0 */
    board_probe_set(BENCH_PIN);
    board_probe_clr(BENCH_PIN);

    board_puts("@rtoslab 1\n@run rtos=" RTB_PORT_ID " version=" RTB_PORT_VERSION " board=" BOARD_NAME " clock=");
    bench_out_u(bench_clock_hz());
    board_puts(BOARD_CYCLE_ACCURATE ? " accurate=1\n" : " accurate=0\n");
    if (!BOARD_CYCLE_ACCURATE)
        bench_log("this board is not cycle-accurate: timings are indicative only");
    bench_config_u("bench.samples", RTB_SAMPLES);
    bench_config_u("bench.cold", RTB_COLD);
    bench_config("bench.cycle_accurate", BOARD_CYCLE_ACCURATE ? "yes" : "no");
    rtb_port_config();

#if defined(RTB_PORT_NO_THREADS)
    bench_no_threads();
#else
    rtb_sem_create(SEM_DONE, 0, 64);
    rtb_sem_create(SEM_PARK, 0, 1);

#ifndef BENCH_CHECKS_ONLY /* check-<rtos> images: the behaviour checks alone */
    t_boot_record();
    t_overhead();
    t_rhealstone();
    t_sem_switch();
    t_primitives();
    t_irq();
    t_time();
    t_scale();
    t_throughput();
#endif
    t_checks();
#ifndef BENCH_CHECKS_ONLY
    t_scale_long_timeouts();
    t_live();
    t_energy();
    t_seed002();
    t_seed001();
    t_seed003();
    t_seed004();
    t_hartstone();
#endif
#endif

    board_puts("@done\n");
    board_exit(0);
}

int main(void)
{
    rtb_port_start(controller, ctrl_stack, sizeof ctrl_stack);
}

uint32_t bench_clock_hz(void) { return BOARD_CLOCK_HZ; }
