/*
 * The live-register variants of the hot paths (`<id>.live`, spec/contracts.toml [hot_paths]
 * and docs/methodology.md "Live-register variants"): the same operation as `<id>`, while the
 * caller (for the thread-to-thread ids: every thread of the test) keeps eight values live in
 * registers across each call, as application code does. Whatever a calling convention makes
 * the caller pay to keep them (spills and reloads around a call that clobbers more than
 * AAPCS's r0-r3, r12) falls inside the timed region; the AAPCS callee's own saves already did.
 *
 * How the values are kept live, with no per-port code: LIVE_HOLD() is an empty asm that takes
 * the eight values in registers and may change them ("+r"), so the compiler must have them in
 * registers at each hold and cannot know their values after it. The timed region is
 *   LIVE_HOLD; counter read; LIVE_HOLD; the call; LIVE_HOLD; counter read
 * so any store that saves a value for the call is after the first read (the value it saves is
 * defined by the hold after that read) and any reload is before the second read (the hold
 * before it uses the value). The holds are empty: the region holds nothing but the call and
 * what keeping the values costs. After the stop (outside the region) LIVE_CHECK compares the
 * values with their constants, so the compiler cannot drop them, and a port that loses one
 * makes the metric fail (cut short, "a live value was lost"). Each metric runs LIVE_SAMPLES
 * samples, after every other test, so that no earlier figure moves. The test's statics are
 * 7 bytes: a 16 KiB board's CoOS image has 8 to spare.
 */
#include "bench.h"
#include "irq_source.h"

#if !defined(RTB_PORT_NO_THREADS) /* a port without threads reports them absent (bench_core.c) */

#define LIVE_SAMPLES 256u

/* The eight values of a thread: constants that differ per thread (`s`), so that a thread
 * resumed with another thread's registers fails its check. */
#define LIVE_K(s, i) ((uint32_t)(s) * 0x01010101u + (uint32_t)(i) * 0x10204081u)
#define LIVE_VALUES(s)                                                                            \
    enum { lv_seed = (s) };                                                                       \
    uint32_t lv0 = LIVE_K(s, 0), lv1 = LIVE_K(s, 1), lv2 = LIVE_K(s, 2), lv3 = LIVE_K(s, 3),      \
             lv4 = LIVE_K(s, 4), lv5 = LIVE_K(s, 5), lv6 = LIVE_K(s, 6), lv7 = LIVE_K(s, 7)
#define LIVE_HOLD()                                                                               \
    __asm__ volatile("" : "+r"(lv0), "+r"(lv1), "+r"(lv2), "+r"(lv3), "+r"(lv4), "+r"(lv5),      \
                     "+r"(lv6), "+r"(lv7))
/* A difference cuts the metric short at once (bench_abort ends the sampling: every thread's
 * bench_more() is then false, and live_finish sends nothing more). */
static void live_lost(void)
{
    if (bench_more())
        bench_abort("a live value was lost across the call");
}
#define LIVE_CHECK()                                                                              \
    do {                                                                                          \
        if ((lv0 ^ LIVE_K(lv_seed, 0)) | (lv1 ^ LIVE_K(lv_seed, 1)) | (lv2 ^ LIVE_K(lv_seed, 2)) |  \
            (lv3 ^ LIVE_K(lv_seed, 3)) | (lv4 ^ LIVE_K(lv_seed, 4)) | (lv5 ^ LIVE_K(lv_seed, 5)) |  \
            (lv6 ^ LIVE_K(lv_seed, 6)) | (lv7 ^ LIVE_K(lv_seed, 7)))                              \
            live_lost();                                                                          \
    } while (0)
/* Start and stop of the timed region with the values in registers at both counter reads. */
#define LIVE_T_START(t0)                                                                          \
    do {                                                                                          \
        LIVE_HOLD();                                                                              \
        (t0) = t_start();                                                                         \
        LIVE_HOLD();                                                                              \
    } while (0)
#define LIVE_T_STOP(t1)                                                                           \
    do {                                                                                          \
        LIVE_HOLD();                                                                              \
        (t1) = t_stop();                                                                          \
        LIVE_CHECK();                                                                             \
    } while (0)
/* A call of a thread whose part of the test lies (partly) inside another thread's timed
 * region: the values live across it; the thread's LIVE_CHECK is where it is outside the region. */
#define LIVE_CALL(call)                                                                           \
    do {                                                                                          \
        LIVE_HOLD();                                                                              \
        call;                                                                                     \
        LIVE_HOLD();                                                                              \
    } while (0)

static volatile uint32_t g_t0;
static volatile uint8_t g_go;

static void live_begin(const char *id, unsigned kind) { bench_begin(id, kind, LIVE_SAMPLES); }

static void live_finish(void)
{
    extern volatile unsigned bench_want; /* 0 once bench_abort has cut the metric short */
    if (!bench_join(1))
        bench_abort("timed out");
    else if (bench_want != 0)
        bench_end();
}

/* ---- rhealstone.task_switch.live: two equal-priority threads yield ---- */
static void ts_thread(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x31);
    uint32_t t1 = t_stop();
    if (g_go)
        bench_sample(t1 - g_t0);
    while (bench_more()) {
        g_go = 1;
        LIVE_T_START(g_t0);
        rtb_yield();
        LIVE_T_STOP(t1);
        bench_sample(t1 - g_t0);
    }
    bench_done();
}

/* ---- rhealstone.preemption.live: the low thread raises the high one's priority ---- */
#define PRE_H 0
static void pre_high(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x32);
    uint32_t t1 = t_stop();
    for (;;) {
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        LIVE_HOLD();
        rtb_prio_set(RTB_SELF, 1);
        LIVE_T_STOP(t1);
    }
}
static void pre_low(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x33);
    for (;;) {
        LIVE_T_START(g_t0);
        rtb_prio_set(PRE_H, 5);
        LIVE_HOLD();
        LIVE_CHECK();
    }
}

/* ---- rhealstone.semaphore_shuffle.live ---- */
#define SH_SEM 0
static void sh_a(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x34);
    for (;;) {
        LIVE_CALL(rtb_sem_wait(SH_SEM, RTB_FOREVER));
        LIVE_CALL(rtb_yield());
        LIVE_CALL(rtb_sem_signal(SH_SEM));
        LIVE_CALL(rtb_yield()); /* returns after B's stop */
        LIVE_CHECK();
    }
}
static void sh_b(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x35);
    for (;;) {
        uint32_t t1;
        LIVE_T_START(g_t0);
        rtb_sem_wait(SH_SEM, RTB_FOREVER);
        LIVE_T_STOP(t1);
        bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
        LIVE_CALL(rtb_sem_signal(SH_SEM));
        LIVE_CALL(rtb_yield());
        LIVE_CHECK();
    }
}

/* ---- rhealstone.deadlock_break.live ---- */
#define DL_M 0
#define DL_A 0
#define DL_B 1
#define DL_C 2
static void dl_c(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x36);
    rtb_suspend(RTB_SELF);
    for (;;) {
        uint32_t t1;
        LIVE_T_START(g_t0);
        rtb_mutex_lock(DL_M, RTB_FOREVER);
        LIVE_T_STOP(t1);
        bench_sample(t1 - g_t0);
        LIVE_CALL(rtb_mutex_unlock(DL_M));
        if (!bench_more())
            bench_done();
        LIVE_CALL(rtb_suspend(RTB_SELF));
        LIVE_CHECK();
    }
}
static void dl_b(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x37);
    rtb_suspend(RTB_SELF);
    for (;;) {
        LIVE_CALL(rtb_resume(DL_C)); /* returns after C's stop */
        LIVE_CALL(rtb_suspend(RTB_SELF));
        LIVE_CHECK();
    }
}
static void dl_a(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x38);
    for (;;) {
        LIVE_CALL(rtb_mutex_lock(DL_M, RTB_FOREVER));
        LIVE_CALL(rtb_resume(DL_B));
        LIVE_CALL(rtb_mutex_unlock(DL_M)); /* returns after C's stop */
        LIVE_CHECK();
    }
}

/* ---- rhealstone.message_passing.live ---- */
#define MP_Q 0
#define MSG_BYTES 16
static void mp_recv(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x39);
    uint32_t buf[MSG_BYTES / 4];
    for (;;) {
        uint32_t t1;
        LIVE_HOLD();
        rtb_queue_recv(MP_Q, buf, RTB_FOREVER);
        LIVE_T_STOP(t1);
        if (g_go && buf[0] == 0x600d600du)
            bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
    }
}
static void mp_send(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3A);
    static const uint32_t msg[MSG_BYTES / 4] = {0x600d600du, 1, 2, 3};
    for (;;) {
        g_go = 1;
        LIVE_T_START(g_t0);
        rtb_queue_send(MP_Q, msg, RTB_FOREVER);
        LIVE_CALL(rtb_yield()); /* returns after the receiver's stop */
        LIVE_CHECK();
    }
}

/* ---- sem.signal_wake.live / sem.wait_block.live ---- */
#define SW_SEM 0
static void sw_high(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3B);
    for (;;) {
        uint32_t t1;
        LIVE_HOLD();
        rtb_sem_wait(SW_SEM, RTB_FOREVER);
        LIVE_T_STOP(t1);
        if (g_go)
            bench_sample(t1 - g_t0);
        if (!bench_more())
            bench_done();
    }
}
static void sw_low(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3C);
    for (;;) {
        g_go = 1;
        LIVE_T_START(g_t0);
        rtb_sem_signal(SW_SEM);
        LIVE_HOLD();
        LIVE_CHECK();
    }
}
static void wb_high(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3D);
    for (;;) {
        if (!bench_more())
            bench_done();
        LIVE_T_START(g_t0);
        rtb_sem_wait(SW_SEM, RTB_FOREVER);
        LIVE_HOLD();
        LIVE_CHECK();
    }
}
static void wb_low(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3E);
    uint32_t t1 = t_stop();
    for (;;) {
        bench_sample(t1 - g_t0);
        LIVE_HOLD();
        rtb_sem_signal(SW_SEM);
        LIVE_T_STOP(t1);
    }
}

/* ---- the primitives: one worker measures one metric, chosen by g_which ---- */
#define S_A 0
#define S_B 1
#define M_A 0
#define W_ID 0
#define HELP_ID 2
enum { P_MTX_LOCK, P_MTX_UNLOCK, P_SEM_WAIT_AVAIL, P_SEM_SIGNAL_NOWAIT, P_SEM_SIGNAL_WAITER };
static volatile uint8_t g_which;

static void worker(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x3F);
    uint32_t t0, t1;
    while (bench_more()) {
        switch (g_which) {
        case P_MTX_LOCK:
            LIVE_T_START(t0);
            rtb_mutex_lock(M_A, RTB_FOREVER);
            LIVE_T_STOP(t1);
            bench_sample(t1 - t0);
            rtb_mutex_unlock(M_A);
            break;
        case P_MTX_UNLOCK:
            rtb_mutex_lock(M_A, RTB_FOREVER);
            LIVE_T_START(t0);
            rtb_mutex_unlock(M_A);
            LIVE_T_STOP(t1);
            bench_sample(t1 - t0);
            break;
        case P_SEM_WAIT_AVAIL:
            rtb_sem_signal(S_A);
            LIVE_T_START(t0);
            rtb_sem_wait(S_A, RTB_FOREVER);
            LIVE_T_STOP(t1);
            bench_sample(t1 - t0);
            break;
        case P_SEM_SIGNAL_NOWAIT:
            LIVE_T_START(t0);
            rtb_sem_signal(S_A);
            LIVE_T_STOP(t1);
            bench_sample(t1 - t0);
            rtb_sem_wait(S_A, RTB_FOREVER);
            break;
        case P_SEM_SIGNAL_WAITER:
            /* the helper (lower priority) is blocked on S_A */
            LIVE_T_START(t0);
            rtb_sem_signal(S_A);
            LIVE_T_STOP(t1);
            bench_sample(t1 - t0);
            rtb_prio_set(RTB_SELF, 1); /* let the helper wait again */
            rtb_prio_set(RTB_SELF, 4);
            break;
        }
    }
    bench_done();
}

static void helper_wait(void *arg)
{
    (void)arg;
    for (;;)
        rtb_sem_wait(S_A, RTB_FOREVER);
}

static void run_worker(const char *id, int which)
{
    live_begin(id, BK_CYCLES);
    g_which = which;
    bench_spawn(W_ID, 4, worker, 0, BENCH_STACK);
    if (which == P_SEM_SIGNAL_WAITER)
        bench_spawn(HELP_ID, 2, helper_wait, 0, BENCH_STACK);
    live_finish();
}

/* mutex.lock_contended.live: H locks a mutex held by L; L releases it at once. */
static void lc_high(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x40);
    for (;;) {
        uint32_t t1;
        rtb_sem_wait(S_B, RTB_FOREVER);
        LIVE_T_START(g_t0);
        rtb_mutex_lock(M_A, RTB_FOREVER);
        LIVE_T_STOP(t1);
        bench_sample(t1 - g_t0);
        rtb_mutex_unlock(M_A);
        if (!bench_more())
            bench_done();
    }
}
static void lc_low(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x41);
    for (;;) {
        rtb_mutex_lock(M_A, RTB_FOREVER);
        LIVE_CALL(rtb_sem_signal(S_B)); /* H runs and blocks on the mutex */
        LIVE_CALL(rtb_mutex_unlock(M_A)); /* returns after H's stop */
        LIVE_CHECK();
    }
}

/* ---- irq.to_thread.live: the woken thread keeps its values across its wait. The interrupt's
 * start and origin: irq_source.h. ---- */
#define IT_SEM 0
static volatile uint8_t g_seq;

static void it_isr(uint32_t now)
{
    (void)now;
    rtb_sem_signal_isr(IT_SEM);
}
static void it_high(void *arg)
{
    (void)arg;
    LIVE_VALUES(0x42);
    for (;;) {
        uint32_t t1;
        LIVE_HOLD();
        rtb_sem_wait(IT_SEM, RTB_FOREVER);
        LIVE_T_STOP(t1);
        bench_sample(t1 - irq_origin());
        g_seq++;
        if (!bench_more())
            bench_done();
    }
}
static void it_low(void *arg)
{
    (void)arg;
    for (unsigned i = 0;; i++) {
        uint8_t s = g_seq;
        irq_fire(200u + (i % 8u));
        while (g_seq == s) {
        }
    }
}

void t_live(void)
{
    live_begin("rhealstone.task_switch.live", BK_CYCLES);
    g_go = 0;
    bench_spawn(0, 3, ts_thread, 0, BENCH_STACK);
    bench_spawn(1, 3, ts_thread, 0, BENCH_STACK);
    live_finish();

    if (bench_need(RTB_CAP_PRIO_SET, "rhealstone.preemption.live")) {
        live_begin("rhealstone.preemption.live", BK_CYCLES);
        bench_spawn(PRE_H, 1, pre_high, 0, BENCH_STACK);
        bench_spawn(1, 2, pre_low, 0, BENCH_STACK);
        live_finish();
    }

    live_begin("rhealstone.semaphore_shuffle.live", BK_CYCLES);
    bench_sem(SH_SEM, 1, 1);
    bench_spawn(0, 3, sh_a, 0, BENCH_STACK);
    bench_spawn(1, 3, sh_b, 0, BENCH_STACK);
    live_finish();

    if (bench_need(RTB_CAP_MUTEX | RTB_CAP_SUSPEND_SELF, "rhealstone.deadlock_break.live")) {
        live_begin("rhealstone.deadlock_break.live", BK_CYCLES);
        bench_mutex(DL_M);
        bench_spawn(DL_A, 2, dl_a, 0, BENCH_STACK);
        bench_spawn(DL_B, 4, dl_b, 0, BENCH_STACK);
        bench_spawn(DL_C, 6, dl_c, 0, BENCH_STACK);
        live_finish();
    }

    if (bench_need(RTB_CAP_QUEUE, "rhealstone.message_passing.live")) {
        live_begin("rhealstone.message_passing.live", BK_CYCLES);
        g_go = 0;
        bench_queue(MP_Q, MSG_BYTES, 1);
        bench_spawn(0, 3, mp_recv, 0, BENCH_STACK);
        bench_spawn(1, 3, mp_send, 0, BENCH_STACK);
        live_finish();
    }

    live_begin("sem.signal_wake.live", BK_CYCLES);
    g_go = 0;
    bench_sem(SW_SEM, 0, 1);
    bench_spawn(0, 6, sw_high, 0, BENCH_STACK);
    bench_spawn(1, 2, sw_low, 0, BENCH_STACK);
    live_finish();

    live_begin("sem.wait_block.live", BK_CYCLES);
    bench_sem(SW_SEM, 0, 1);
    bench_spawn(0, 6, wb_high, 0, BENCH_STACK);
    bench_spawn(1, 2, wb_low, 0, BENCH_STACK);
    live_finish();

    bench_sem(S_A, 0, 4);
    run_worker("sem.wait_available.live", P_SEM_WAIT_AVAIL);
    bench_sem(S_A, 0, 4);
    run_worker("sem.signal_no_waiter.live", P_SEM_SIGNAL_NOWAIT);
    if (bench_need(RTB_CAP_PRIO_SET_SELF, "sem.signal_waiter.live")) {
        bench_sem(S_A, 0, 4);
        run_worker("sem.signal_waiter.live", P_SEM_SIGNAL_WAITER);
    }
    if (bench_need(RTB_CAP_MUTEX, "mutex.lock_uncontended.live")) {
        bench_mutex(M_A);
        run_worker("mutex.lock_uncontended.live", P_MTX_LOCK);
    }
    if (bench_need(RTB_CAP_MUTEX, "mutex.unlock.live")) {
        bench_mutex(M_A);
        run_worker("mutex.unlock.live", P_MTX_UNLOCK);
    }
    if (bench_need(RTB_CAP_MUTEX, "mutex.lock_contended.live")) {
        live_begin("mutex.lock_contended.live", BK_CYCLES);
        bench_mutex(M_A);
        bench_sem(S_B, 0, 1);
        bench_spawn(0, 6, lc_high, 0, BENCH_STACK);
        bench_spawn(1, 2, lc_low, 0, BENCH_STACK);
        live_finish();
    }

    if (bench_need(RTB_CAP_IRQ, "irq.to_thread.live")) {
        live_begin("irq.to_thread.live", BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_CYCLES);
        g_seq = 0;
        bench_sem(IT_SEM, 0, 1);
        rtb_irq_install(LAT_IRQ, 1, it_isr);
        bench_spawn(0, 6, it_high, 0, BENCH_STACK);
        bench_spawn(1, 2, it_low, 0, BENCH_STACK);
        live_finish();
    }
}
#endif
