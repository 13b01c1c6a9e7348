/*
 * Behaviour (conformance) checks: seed 004's qualitative thread, semaphore, priority
 * inversion and deadlock tests, plus context (xPSR), timeout and ISR signalling.
 */
#include "bench.h"

static volatile uint8_t log_buf[32];
static volatile unsigned log_n;
static void log_put(uint8_t v)
{
    if (log_n < sizeof log_buf)
        log_buf[log_n++] = v;
}
static char detail[160];
static void detail_log(const char *what)
{
    unsigned i = 0;
    for (const char *p = what; *p && i < sizeof detail - 12; p++)
        detail[i++] = *p;
    for (unsigned k = 0; k < log_n && i < sizeof detail - 2; k++) {
        uint8_t v = log_buf[k];
        detail[i++] = (char)(v < 10 ? '0' + v : v);
    }
    detail[i] = 0;
}

static void run_join(unsigned n)
{
    if (!bench_join(n))
        log_put('T');
}

/* ---- check.priority_order ---- */
static void po_thread(void *arg)
{
    log_put((uint8_t)(intptr_t)arg);
    bench_done();
}

/* ---- check.fifo_equal_priority ---- */
static void fifo_thread(void *arg)
{
    for (int r = 0; r < 3; r++) {
        log_put((uint8_t)(intptr_t)arg);
        rtb_yield();
    }
    bench_done();
}

/* ---- check.preempt_immediate ---- */
#define S0 0
#define S1 1
static volatile unsigned flag, observed;
static void pi_high(void *arg)
{
    (void)arg;
    rtb_sem_wait(S0, RTB_FOREVER);
    flag = 1;
    bench_done();
}
static void pi_low(void *arg)
{
    (void)arg;
    flag = 0;
    rtb_sem_signal(S0);
    observed = flag;
    bench_done();
}

/* ---- check.sem_counting: N=3 signals then N+1 waits: only the last one blocks ---- */
static volatile unsigned obs_runs;
static unsigned blocked_at;
static void sc_main(void *arg)
{
    (void)arg;
    unsigned before = obs_runs;
    rtb_sem_wait(S0, RTB_FOREVER); /* zero: must block (the observer signals it) */
    unsigned first_blocked = obs_runs != before;
    for (int i = 0; i < 3; i++)
        rtb_sem_signal(S0);
    blocked_at = 0;
    for (unsigned i = 1; i <= 4; i++) {
        before = obs_runs;
        rtb_sem_wait(S0, RTB_FOREVER);
        if (obs_runs != before && blocked_at == 0)
            blocked_at = i;
    }
    if (!first_blocked)
        blocked_at = 99;
    bench_done();
}
static void sc_observer(void *arg)
{
    (void)arg;
    for (;;) {
        obs_runs++;
        rtb_sem_signal(S0);
    }
}

/* ---- check.priority_inversion: L holds M, H blocks on it, a medium thread is ready ---- */
#define MX 0
#define MX2 1
static void inv_high(void *arg)
{
    (void)arg;
    rtb_sem_wait(S0, RTB_FOREVER);
    rtb_sem_signal(S1); /* the medium thread becomes ready */
    rtb_mutex_lock(MX, RTB_FOREVER);
    log_put('H');
    rtb_mutex_unlock(MX);
    bench_done();
}
static void inv_med(void *arg)
{
    (void)arg;
    rtb_sem_wait(S1, RTB_FOREVER);
    log_put('M');
    bench_done();
}
static void inv_low(void *arg)
{
    (void)arg;
    rtb_mutex_lock(MX, RTB_FOREVER);
    rtb_sem_signal(S0); /* H runs and blocks on MX */
    log_put('L');
    rtb_mutex_unlock(MX); /* back to its own priority: H, then M, run before it goes on */
    log_put('l');
    bench_done();
}

/* ---- check.deadlock: T1 holds R1 and wants R2, T2 holds R2 and wants R1; timeouts break it ---- */
static volatile int t1_res, t2_res;
static void dl_t2(void *arg)
{
    (void)arg;
    rtb_sem_wait(S0, RTB_FOREVER);
    rtb_mutex_lock(MX2, RTB_FOREVER);
    t2_res = rtb_mutex_lock(MX, 2000); /* T1 holds it: blocks */
    if (t2_res == RTB_OK)
        rtb_mutex_unlock(MX);
    rtb_mutex_unlock(MX2); /* back off */
    log_put('2');
    bench_done();
}
static void dl_t1(void *arg)
{
    (void)arg;
    rtb_mutex_lock(MX, RTB_FOREVER);
    rtb_sem_signal(S0);                 /* T2 runs, takes R2, blocks on R1 */
    t1_res = rtb_mutex_lock(MX2, 5000); /* T2 holds it: the cycle closes */
    if (t1_res == RTB_OK)
        rtb_mutex_unlock(MX2);
    rtb_mutex_unlock(MX);
    log_put('1');
    bench_done();
}

/* ---- check.timeout ---- */
static volatile uint32_t to_elapsed;
static volatile int to_res;
static void to_thread(void *arg)
{
    (void)arg;
    uint32_t t0 = board_cycles();
    to_res = rtb_sem_wait(S0, 1000);
    to_elapsed = board_cycles() - t0;
    bench_done();
}

/* ---- check.isr_signal ---- */
static volatile unsigned isr_runs, wakes, bad;
static void is_isr(uint32_t now)
{
    (void)now;
    isr_runs++;
    rtb_sem_signal_isr(S0);
}
static void is_thread(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 10; i++) {
        unsigned before = isr_runs;
        board_irq_trigger(BENCH_SW_IRQ);
        rtb_sem_wait(S0, RTB_FOREVER);
        if (isr_runs != before + 1)
            bad++;
        wakes++;
    }
    bench_done();
}

#if defined(__arm__)
/* ---- check.xpsr_preserved: flags survive an interrupt that switches to another thread ---- */
uint32_t bench_xpsr_probe(uint32_t flags, volatile uint32_t *ispr, uint32_t bit);
__asm__(".text\n.thumb\n.syntax unified\n.align 2\n"
        ".global bench_xpsr_probe\n.type bench_xpsr_probe, %function\n"
        ".thumb_func\n"
        "bench_xpsr_probe:\n"
        "  msr APSR_nzcvq, r0\n"
        "  str r2, [r1]\n"       /* pend the interrupt: its ISR wakes a thread that clobbers flags */
        "  .rept 300\n  nop\n  .endr\n"
        "  mrs r0, apsr\n"
        "  bx lr\n"
        ".size bench_xpsr_probe, .-bench_xpsr_probe\n");
static volatile unsigned xp_bad, xp_switches;
static void xp_high(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(S0, RTB_FOREVER);
        xp_switches++;
        __asm volatile("movs r0, #0\n cmp r0, #0\n" ::: "r0", "cc"); /* Z=1 C=1 N=0 V=0 */
    }
}
static void xp_low(void *arg)
{
    (void)arg;
    for (uint32_t p = 0; p < 16; p++) {
        uint32_t got = bench_xpsr_probe(p << 28, (volatile uint32_t *)0xE000E200u, 1u << BENCH_SW_IRQ);
        if ((got >> 28) != p)
            xp_bad++;
    }
    bench_done();
}
static void xp_isr(uint32_t now)
{
    (void)now;
    rtb_sem_signal_isr(S0);
}
#endif

/* ---- the detail line of a check: text and numbers appended in order ---- */
static unsigned detail_end(void)
{
    unsigned i = 0;
    while (detail[i])
        i++;
    return i;
}
static void detail_start(void)
{
    detail[0] = 0;
}
static void detail_put(const char *s)
{
    unsigned i = detail_end();
    while (*s && i < sizeof detail - 1)
        detail[i++] = *s++;
    detail[i] = 0;
}
static void detail_put_u(uint32_t v)
{
    char b[11];
    int k = 0;
    do {
        b[k++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    unsigned i = detail_end();
    while (k && i < sizeof detail - 1)
        detail[i++] = b[--k];
    detail[i] = 0;
}

/* ---- the checks, one function each, run in this order by t_checks() ---- */

/* created lowest first; must run highest first */
static void check_priority_order(void)
{
    log_n = 0;
    for (int i = 0; i < 5; i++)
        bench_spawn(i, i + 1, po_thread, (void *)(intptr_t)(i + 1), BENCH_STACK_SMALL);
    run_join(5);
    detail_log("run order (priorities) ");
    bench_check("check.priority_order", log_n == 5 && log_buf[0] == 5 && log_buf[1] == 4 &&
                log_buf[2] == 3 && log_buf[3] == 2 && log_buf[4] == 1, detail);
}

static void check_fifo_equal_priority(void)
{
    log_n = 0;
    for (int i = 0; i < 3; i++)
        bench_spawn(i, 3, fifo_thread, (void *)(intptr_t)i, BENCH_STACK_SMALL);
    run_join(3);
    bool ok = log_n == 9;
    for (unsigned k = 0; k < 9 && ok; k++)
        ok = log_buf[k] == k % 3;
    detail_log("run order (creation index) ");
    bench_check("check.fifo_equal_priority", ok, detail);
}

static void check_preempt_immediate(void)
{
    observed = 0;
    bench_sem(S0, 0, 1);
    bench_spawn(0, 6, pi_high, 0, BENCH_STACK);
    bench_spawn(1, 2, pi_low, 0, BENCH_STACK);
    run_join(2);
    bench_check("check.preempt_immediate", observed == 1,
                observed ? "the woken high-priority thread ran before the signal returned"
                         : "the signalling thread continued before the woken high-priority thread");
}

static void check_sem_counting(void)
{
    obs_runs = 0;
    blocked_at = 0;
    bench_sem(S0, 0, 8);
    bench_spawn(0, 4, sc_main, 0, BENCH_STACK);
    bench_spawn(1, 2, sc_observer, 0, BENCH_STACK);
    run_join(1);
    detail_start();
    detail_put("after 3 signals the wait that blocked was number ");
    detail_put_u(blocked_at);
    bench_check("check.sem_counting", blocked_at == 4,
                blocked_at == 99 ? "a wait on a zero semaphore did not block" : detail);
}

/* INV_ROUNDS runs with L at 1 or 2 and M at 3, 4 or 5: each must give L H M l (L runs boosted
 * to its unlock, H takes the mutex at once, M runs before L continues: L has dropped back to
 * its own priority; a kernel that leaves L boosted gives L l H M). */
static void check_priority_inversion(void)
{
    if (!bench_need(RTB_CAP_MUTEX, "check.priority_inversion"))
        return;
    enum { INV_ROUNDS = 12 };
    unsigned bad = 0;
    uint8_t first_bad[8] = {0};
    unsigned first_n = 0;
    for (unsigned r = 0; r < INV_ROUNDS; r++) {
        log_n = 0;
        bench_sem(S0, 0, 1);
        bench_sem(S1, 0, 1);
        bench_mutex(MX);
        bench_spawn(0, 6, inv_high, 0, BENCH_STACK);
        bench_spawn(1, 3 + (int)(r % 3u), inv_med, 0, BENCH_STACK);
        bench_spawn(2, 1 + (int)(r % 2u), inv_low, 0, BENCH_STACK);
        run_join(3);
        bool ok = log_n == 4 && log_buf[0] == 'L' && log_buf[1] == 'H' && log_buf[2] == 'M' &&
                  log_buf[3] == 'l';
        if (!ok && bad++ == 0) {
            first_n = log_n < sizeof first_bad ? log_n : sizeof first_bad;
            for (unsigned k = 0; k < first_n; k++)
                first_bad[k] = log_buf[k];
        }
    }
    detail_start();
    detail_put("12 runs, completion order L H M l (l: L after its unlock); wrong runs: ");
    detail_put_u(bad);
    if (bad) {
        char order[sizeof first_bad + 1];
        for (unsigned k = 0; k < first_n; k++)
            order[k] = (char)first_bad[k];
        order[first_n] = 0;
        detail_put(", first wrong order ");
        detail_put(order);
    }
    bench_check("check.priority_inversion", bad == 0, detail);
}

/* Passes only if the kernel detects the cycle (a lock refused with RTB_DEADLOCK). The lock
 * timeouts are there so that a kernel without detection does not hang: if they alone broke
 * the cycle the check is absent ("not detected"), not passed. */
static void check_deadlock(void)
{
    if (!bench_need(RTB_CAP_MUTEX | RTB_CAP_MUTEX_TIMEOUT, "check.deadlock"))
        return;
    log_n = 0;
    t1_res = t2_res = -2;
    bench_sem(S0, 0, 1);
    bench_mutex(MX);
    bench_mutex(MX2);
    bench_spawn(0, 3, dl_t1, 0, BENCH_STACK);
    bench_spawn(1, 4, dl_t2, 0, BENCH_STACK);
    run_join(2);
    /* Detected if both threads finished, at least one of the two locks having been refused
     * as a deadlock. */
    bool detected = log_n == 2 && (t1_res == RTB_DEADLOCK || t2_res == RTB_DEADLOCK);
    bool timed_out = log_n == 2 && !detected && (t1_res == RTB_TIMEOUT || t2_res == RTB_TIMEOUT);
    const char *how = t1_res == RTB_DEADLOCK || t2_res == RTB_DEADLOCK
                          ? "cycle R1->R2->R1 refused at once as a deadlock; finish order "
                          : t2_res == RTB_TIMEOUT || t1_res == RTB_TIMEOUT
                                ? "cycle R1->R2->R1 broken by the lock timeout; finish order "
                                : t1_res == RTB_OK && t2_res == RTB_OK
                                      ? "the wait cycle never formed (no preemption); finish order "
                                      : "cycle R1->R2->R1 was not broken; finish order ";
    detail_log(how);
    detail_put("; lock results T1 ");
    detail_put_u((uint32_t)(t1_res + 2));
    detail_put(" T2 ");
    detail_put_u((uint32_t)(t2_res + 2));
    detail_put(" (2 ok, 3 timeout, 4 deadlock)");
    if (timed_out)
        bench_absent("check.deadlock", "not detected: no deadlock detection, the cycle R1->R2->R1 was broken "
                                       "only by the lock timeout");
    else
        bench_check("check.deadlock", detected, detail);
}

static void check_xpsr_preserved(void)
{
#if defined(__arm__)
    if (!bench_need(RTB_CAP_IRQ, "check.xpsr_preserved"))
        return;
    xp_bad = xp_switches = 0;
    bench_sem(S0, 0, 1);
    rtb_irq_install(BENCH_SW_IRQ, 1, xp_isr);
    bench_spawn(0, 6, xp_high, 0, BENCH_STACK);
    bench_spawn(1, 3, xp_low, 0, BENCH_STACK);
    run_join(1);
    detail_start();
    detail_put("16 NZCV patterns across an interrupt and a switch; wrong: ");
    detail_put_u(xp_bad);
    detail_put(", switches: ");
    detail_put_u(xp_switches);
    bench_check("check.xpsr_preserved", xp_bad == 0 && xp_switches == 16, detail);
#else
    bench_absent("check.xpsr_preserved", "no xPSR on this architecture: user-space threads on Linux");
#endif
}

static void check_timeout(void)
{
    if (!bench_need(RTB_CAP_TIMEOUT, "check.timeout"))
        return;
    to_res = -2;
    bench_sem(S0, 0, 1);
    bench_spawn(0, 4, to_thread, 0, BENCH_STACK);
    run_join(1);
    uint32_t min = us_to_cycles(1000), max = us_to_cycles(4000);
    detail_start();
    detail_put("wait of 1000 us on an empty semaphore returned timeout after cycles: ");
    detail_put_u(to_elapsed);
    /* The upper bound only where time is the core clock: an emulator may run late. */
    bool in_time = to_elapsed >= min && (to_elapsed <= max || !BOARD_CYCLE_ACCURATE);
    bench_check("check.timeout", to_res == RTB_TIMEOUT && in_time, detail);
}

static void check_isr_signal(void)
{
    if (!bench_need(RTB_CAP_IRQ, "check.isr_signal"))
        return;
    isr_runs = wakes = bad = 0;
    bench_sem(S0, 0, 1);
    rtb_irq_install(BENCH_SW_IRQ, 1, is_isr);
    bench_spawn(0, 4, is_thread, 0, BENCH_STACK);
    run_join(1);
    bench_check("check.isr_signal", wakes == 10 && bad == 0 && isr_runs == 10,
                (wakes == 10 && bad == 0) ? "10 software interrupts each woke the waiting thread once"
                                          : "a wake did not match its interrupt");
}

/* The order of the checks' lines (docs/interfaces.md lists the ids). */
static void (*const checks[])(void) = {
    check_priority_order,  check_fifo_equal_priority, check_preempt_immediate,
    check_sem_counting,    check_priority_inversion,  check_deadlock,
    check_xpsr_preserved,  check_timeout,             check_isr_signal,
};

void t_checks(void)
{
    for (unsigned i = 0; i < sizeof checks / sizeof checks[0]; i++)
        checks[i]();
}
