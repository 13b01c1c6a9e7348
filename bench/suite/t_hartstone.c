/*
 * Hartstone (seed 001 §2.3.1 and ch. 9; Weiderman and Kamenoff, "Hartstone uniprocessor
 * benchmark", Real-Time Systems 4(4), 1992): sets of periodic tasks whose load is raised until
 * the first missed deadline, the breakdown point. Definitions: docs/methodology.md,
 * "Hartstone".
 *
 * The task set runs in frames of the board's stimulus generator: a periodic hardware edge
 * whose handler releases each task due in that frame (rtb_sem_signal_isr on the task's
 * semaphore), so every RTOS gets the same exact periods whatever its tick. A task's deadline
 * is its next release: a release that finds the task's previous job unfinished is a missed
 * deadline and ends the trial at once (a failing trial costs little simulated time). A
 * trial that misses nothing runs two hyperperiods.
 *
 * The workload is not Whetstones: a job is a loop of known cycles (hs_work; its cost per
 * iteration is measured on the board at the start of each series, by taking the fastest of a few
 * runs), so the breakdown utilisation is the fraction of the CPU the application's own work
 * had when the RTOS (releases, switches, its tick, the mutex) still met every deadline.
 *
 * The series, each searched by doubling then bisection of its one parameter:
 *  ph1  harmonic (frequencies 1, 2, 4, 8, 16 per 8 ms hyperperiod, 4 % of the CPU each):
 *       raise the highest frequency (x m, keeping it harmonic): Hz of the highest task
 *  ph2  the same set, raise all frequencies together (x s/16): Hz of the highest task
 *  ph3  the same set, raise every job's workload (the whole set's work, in per mille of
 *       the CPU): the work rate in kcycles/s (Hartstone's KWIPS)
 *  ph4  the same set, add tasks of the middle task's frequency and 10 % each: the task count
 *  pn   non-harmonic (frequencies 3, 4, 6, 8, 12 per 8 ms), raise the workload
 *  ah   ph3 plus aperiodic processing: at the stimulus' falling edge (mid-frame) of a
 *       pseudo-random half of the frames, an interrupt readies an aperiodic task (above the
 *       periodic ones) with 1/8 of a frame of work, due before the next falling edge
 *  sh   ph3 with synchronisation: every job does a fixed critical section (1/128 of a frame of
 *       work) in the middle of its work, under one mutex shared by all (the RTOS's mutex)
 * Each reports hartstone.<series>.utilisation (per mille) and its own unit.
 */
#include "bench.h"

#if BOARD_HAS_STIMULUS
#define HS_MAX BENCH_HS_MAX_TASKS       /* periodic tasks of one trial (RAM: ThreadX's 16 KiB image is full) */
/* Semaphores: the low ids (ThreadX's port has 0..7): */
#define HS_SEM_DONE 0                   /* the release handler: the trial is over */
#define HS_SEM_IDLE 1                   /* a task finished a job after the trial ended */
#define HS_SEM_AP 2                     /* the aperiodic task's */
#define HS_SEM_TASK(i) (3 + (int)(i))   /* periodic task i's */
#define HS_AP HS_MAX                    /* the aperiodic task's slot in `pending` */
#define HS_MUTEX 0
#define HS_H_US 8000u                   /* hyperperiod of the harmonic and non-harmonic sets */
#define HS_HYPERPERIODS 2u              /* a passing trial runs this many */
#define HS_STACK BENCH_STACK /* RIOT keeps its thread_t on the stack: the small stacks overflow there */

struct hs_task {
    uint32_t work;    /* per job: cycles when the set is made, hs_work iterations once it runs */
    uint16_t period;  /* frames */
    uint8_t prio;
};

struct hs_set {
    struct hs_task t[HS_MAX];
    unsigned n;
    uint32_t frame;      /* cycles */
    uint32_t frames;     /* trial length, a multiple of every period */
    uint32_t ap_cycles;  /* aperiodic job (0: none) */
    uint32_t cs_cycles;  /* critical section of every job (0: no mutex) */
};

/* The set, a trial's state and the calibration live in the sample store (bench_scratch): the
 * 16 KiB images of ThreadX, ChibiOS and CoOS have no RAM left for them, and a static would move
 * every RTOS variable after it (and with the boot time, a tick-driven kernel's tick phase in
 * every older test). Hartstone takes no sample while a search runs (its metrics are sent
 * after each one, and the calibration is made again at the start of each series). */
struct hs_state {
    struct hs_set set;
    volatile uint16_t count[HS_MAX]; /* frames to the task's next release */
    volatile uint8_t pending[HS_MAX + 1];
    volatile uint8_t stopped, missed;
    volatile uint32_t frame_no, lfsr, ap_jobs;
    uint32_t ap_iters, cs_iters;
    uint32_t c0, cpi_q16; /* hs_work(n) costs c0 + n * cpi_q16 / 65536 cycles */
};
#define hs_st ((struct hs_state *)bench_scratch)
#define hs (hs_st->set)
#define hs_count (hs_st->count)
#define hs_pending (hs_st->pending)
#define hs_stopped (hs_st->stopped)
#define hs_missed (hs_st->missed)
#define hs_frame_no (hs_st->frame_no)
#define hs_lfsr (hs_st->lfsr)
#define hs_ap_jobs (hs_st->ap_jobs)
#define hs_ap_iters (hs_st->ap_iters)
#define hs_cs_iters (hs_st->cs_iters)
#define hs_c0 (hs_st->c0)
#define hs_cpi_q16 (hs_st->cpi_q16)

/* The synthetic workload: a loop of fixed instructions (no memory access, no call). */
__attribute__((noinline)) static void hs_work(uint32_t iters)
{
    for (uint32_t i = 0; i < iters; i++)
        __asm__ volatile("");
}

static uint32_t hs_time_work(uint32_t iters)
{
    uint32_t best = 0xFFFFFFFFu;
    for (int k = 0; k < 4; k++) {
        uint32_t t0 = board_cycles();
        hs_work(iters);
        uint32_t d = board_cycles() - t0;
        if (d < best)
            best = d;
    }
    return best;
}

static void hs_calibrate(void)
{
    hs_c0 = hs_time_work(0);
    hs_cpi_q16 = (uint32_t)((((uint64_t)(hs_time_work(4096) - hs_c0)) << 16) / 4096u);
}

static uint32_t hs_iters(uint32_t cycles)
{
    return cycles > hs_c0 ? (uint32_t)((((uint64_t)(cycles - hs_c0)) << 16) / hs_cpi_q16) : 0u;
}

/* ---- one trial ---- */
static void hs_stop(void)
{
    hs_stopped = 1;
    board_stim_disarm();
    rtb_sem_signal_isr(HS_SEM_DONE);
}

/* The stimulus' rising edge: a frame starts; release every task due. */
static void hs_release(uint32_t now)
{
    (void)now;
    if (hs_stopped)
        return;
    int end = hs_frame_no++ == hs.frames;
    for (unsigned i = 0; i < hs.n; i++) {
        if (--hs_count[i])
            continue;
        hs_count[i] = hs.t[i].period;
        if (hs_pending[i]) {
            hs_missed = 1;
        } else if (!end) {
            hs_pending[i] = 1;
            rtb_sem_signal_isr(HS_SEM_TASK(i));
        }
    }
    if (hs_missed || end)
        hs_stop();
}

/* The stimulus' falling edge (ah): the aperiodic task's deadline, and maybe a new event. */
static void hs_aperiodic(uint32_t now)
{
    (void)now;
    if (hs_stopped)
        return;
    if (hs_pending[HS_AP]) {
        hs_missed = 1;
        hs_stop();
        return;
    }
    hs_lfsr = (hs_lfsr >> 1) ^ (-(hs_lfsr & 1u) & 0xB400u); /* 16-bit Galois LFSR */
    if ((hs_lfsr & 1u) && hs_frame_no < hs.frames) {
        hs_pending[HS_AP] = 1;
        hs_ap_jobs++;
        rtb_sem_signal_isr(HS_SEM_AP);
    }
}

static void hs_job_done(unsigned i)
{
    hs_pending[i] = 0;
    if (hs_stopped)
        rtb_sem_signal(HS_SEM_IDLE);
}

static void hs_task(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    for (;;) {
        rtb_sem_wait(HS_SEM_TASK(i), RTB_FOREVER);
        if (hs.cs_cycles) {
            uint32_t before = hs.t[i].work / 2u;
            hs_work(before);
            rtb_mutex_lock(HS_MUTEX, RTB_FOREVER);
            hs_work(hs_cs_iters);
            rtb_mutex_unlock(HS_MUTEX);
            hs_work(hs.t[i].work - before);
        } else {
            hs_work(hs.t[i].work);
        }
        hs_job_done(i);
    }
}

static void hs_ap_task(void *arg)
{
    (void)arg;
    for (;;) {
        rtb_sem_wait(HS_SEM_AP, RTB_FOREVER);
        hs_work(hs_ap_iters);
        hs_job_done(HS_AP);
    }
}

/* Threads and stacks a set needs fit the port and the arena? */
static int hs_fits(unsigned threads)
{
    return threads <= RTB_MAX_THREADS && threads * ((HS_STACK + 7u) & ~7u) <= bench_arena_free();
}

#define HS_NO_ROOM 0xFFFFFFFFu /* the port could not create the set's threads or objects */

/* Run the set in `hs`: 0 if a deadline was missed, HS_NO_ROOM if the RTOS could not create
 * what the set needs (FreeRTOS's 1 KiB heap holds about ten semaphores), else the work's share
 * of the CPU (per mille, at least 1). */
static uint32_t hs_trial(void)
{
    int made = RTB_OK;
    uint64_t work = 0; /* periodic work of the whole trial, cycles */
    for (unsigned i = 0; i < hs.n; i++)
        work += (uint64_t)hs.t[i].work * (hs.frames / hs.t[i].period);
    hs_stopped = 0;
    hs_missed = 0;
    hs_frame_no = 0;
    hs_ap_jobs = 0;
    hs_lfsr = 0xACE1u;
    hs_ap_iters = hs_iters(hs.ap_cycles);
    hs_cs_iters = hs_iters(hs.cs_cycles);
    made |= bench_try_sem(HS_SEM_DONE, 0, 1) | bench_try_sem(HS_SEM_IDLE, 0, 1000);
    if (hs.cs_cycles)
        made |= bench_try_mutex(HS_MUTEX);
    for (unsigned i = 0; i < hs.n; i++) {
        hs.t[i].work = hs_iters(hs.t[i].work - hs.cs_cycles); /* the critical section apart */
        hs_count[i] = 1; /* every task is released in frame 0 */
        hs_pending[i] = 0;
        made |= bench_try_sem(HS_SEM_TASK(i), 0, 2);
    }
    hs_pending[HS_AP] = 0;
    if (hs.ap_cycles)
        made |= bench_try_sem(HS_SEM_AP, 0, 2);
    /* the threads last, once every semaphore they wait on exists */
    for (unsigned i = 0; i < hs.n && made == RTB_OK; i++)
        made |= bench_try_spawn((int)i, hs.t[i].prio, hs_task, (void *)(uintptr_t)i, HS_STACK);
    if (hs.ap_cycles && made == RTB_OK) {
        made |= bench_try_spawn((int)hs.n, RTB_PRIO_MAX, hs_ap_task, 0, HS_STACK);
        rtb_irq_install(BOARD_STIM_FALL_IRQ, 1, hs_aperiodic);
    }
    if (made != RTB_OK) {
        bench_join(0);
        return HS_NO_ROOM;
    }
    rtb_irq_install(BOARD_STIM_IRQ, 1, hs_release);
    board_stim_arm(board_cycles() + hs.frame, hs.frame, hs.frame / 2u);
    rtb_sem_wait(HS_SEM_DONE, RTB_FOREVER);
    board_stim_disarm();
    /* let every job in progress finish, so that no thread is deleted holding the mutex */
    for (;;) {
        unsigned busy = hs_pending[HS_AP];
        for (unsigned i = 0; i < hs.n; i++)
            busy |= hs_pending[i];
        if (!busy)
            break;
        rtb_sem_wait(HS_SEM_IDLE, RTB_FOREVER);
    }
    bench_join(0);
    if (hs_missed)
        return 0;
    work += (uint64_t)hs_ap_jobs * hs.ap_cycles;
    uint32_t util = (uint32_t)((work * 1000u) / ((uint64_t)hs.frames * hs.frame));
    return util ? util : 1u;
}

/* ---- the sets ---- */
static uint32_t hs_h_cycles(void) { return us_to_cycles(HS_H_US); }

/* Tasks of the given periods (frames, longest first: rate-monotonic priorities from 3 up),
 * each with `permille_each` per mille of the CPU. */
static void hs_set_periodic(const uint32_t *periods, unsigned n, uint32_t frame, uint32_t hyper_frames,
                            uint32_t permille_each)
{
    hs.n = n;
    hs.frame = frame;
    hs.frames = HS_HYPERPERIODS * hyper_frames;
    hs.ap_cycles = 0;
    hs.cs_cycles = 0;
    for (unsigned i = 0; i < n; i++) {
        hs.t[i].period = (uint16_t)periods[i];
        hs.t[i].work = (uint32_t)(((uint64_t)periods[i] * frame * permille_each) / 1000u);
        hs.t[i].prio = (uint8_t)(3u + i);
    }
}

static const uint32_t hs_ph_periods[5] = {16, 8, 4, 2, 1};
static const uint32_t hs_pn_periods[5] = {8, 6, 4, 3, 2}; /* frequencies 3, 4, 6, 8, 12 per 24 frames */
#define HS_BASE_PERMILLE 40u                              /* 4 % of the CPU per task */

/* ph1: the highest task's frequency x m (its job unchanged); the others as in the baseline. */
static int hs_setup_ph1(uint32_t m)
{
    uint32_t frame = hs_h_cycles() / (16u * m);
    uint32_t periods[5];
    for (unsigned i = 0; i < 4; i++)
        periods[i] = hs_ph_periods[i] * m;
    periods[4] = 1;
    hs_set_periodic(periods, 5, frame, 16u * m, HS_BASE_PERMILLE);
    for (unsigned i = 0; i < 4; i++) /* the others keep their baseline jobs (their frame shrank) */
        hs.t[i].work = (uint32_t)(((uint64_t)hs_ph_periods[i] * (hs_h_cycles() / 16u) * HS_BASE_PERMILLE) / 1000u);
    hs.t[4].work = (uint32_t)(((uint64_t)(hs_h_cycles() / 16u) * HS_BASE_PERMILLE) / 1000u);
    return 1;
}

/* ph2: every frequency x s/16 (the frame shrinks), jobs unchanged. */
static int hs_setup_ph2(uint32_t s16)
{
    uint32_t base = hs_h_cycles() / 16u;
    hs_set_periodic(hs_ph_periods, 5, (uint32_t)(((uint64_t)base * 16u) / s16), 16u, HS_BASE_PERMILLE);
    for (unsigned i = 0; i < 5; i++)
        hs.t[i].work = (uint32_t)(((uint64_t)hs_ph_periods[i] * base * HS_BASE_PERMILLE) / 1000u);
    return 1;
}

/* ph3: the set's work raised to k per mille of the CPU. */
static int hs_setup_ph3(uint32_t k)
{
    hs_set_periodic(hs_ph_periods, 5, hs_h_cycles() / 16u, 16u, k / 5u);
    return k >= 5u;
}

/* ph4: 5 + n tasks, the n added ones of the middle task's period, 10 % each. */
static int hs_setup_ph4(uint32_t n)
{
    uint32_t periods[HS_MAX];
    unsigned total = 5u + n;
    for (unsigned i = 0; i < 5; i++)
        periods[i] = hs_ph_periods[i];
    for (unsigned i = 5; i < total; i++)
        periods[i] = hs_ph_periods[2];
    hs_set_periodic(periods, total, hs_h_cycles() / 16u, 16u, HS_BASE_PERMILLE);
    for (unsigned i = 5; i < total; i++) {
        hs.t[i].work = (hs.t[i].work * 5u) / 2u; /* 10 % */
        hs.t[i].prio = hs.t[2].prio;
    }
    return hs_fits(total);
}

static int hs_setup_pn(uint32_t k)
{
    hs_set_periodic(hs_pn_periods, 5, hs_h_cycles() / 24u, 24u, k / 5u);
    return k >= 5u;
}

static int hs_setup_ah(uint32_t k)
{
    int ok = hs_setup_ph3(k);
    hs.ap_cycles = hs.frame / 8u; /* the aperiodic task at RTB_PRIO_MAX, above the periodic 3..7 */
    return ok && hs_fits(6);
}

static int hs_setup_sh(uint32_t k)
{
    int ok = hs_setup_ph3(k);
    hs.cs_cycles = hs.frame / 128u;
    for (unsigned i = 0; i < hs.n; i++)
        if (hs.t[i].work < 2u * hs.cs_cycles) /* the critical section fits in every job */
            ok = 0;
    return ok;
}

/* ---- the breakdown search ---- */
typedef int (*hs_setup_t)(uint32_t p);

static uint32_t hs_try(hs_setup_t setup, uint32_t p)
{
    return setup(p) ? hs_trial() : HS_NO_ROOM;
}

enum { HS_FOUND, HS_BASELINE_MISSES, HS_NO_BREAKDOWN };

/* The largest p in [p0, pmax] whose trial passes (*p, its utilisation *util), assuming a trial
 * that passes at p passes at every smaller p: doubling from p0, then bisection. */
static int hs_breakdown(hs_setup_t setup, uint32_t p0, uint32_t pmax, uint32_t *p, uint32_t *util)
{
    uint32_t u = hs_try(setup, p0);
    if (u == HS_NO_ROOM)
        return HS_NO_BREAKDOWN;
    if (!u)
        return HS_BASELINE_MISSES;
    uint32_t lo = p0, hi = p0, hi_no_room = 0;
    *util = u;
    for (;;) {
        if (hi == pmax) {
            *p = pmax;
            return HS_NO_BREAKDOWN;
        }
        hi = hi * 2u > pmax ? pmax : (hi ? hi * 2u : 1u);
        u = hs_try(setup, hi);
        if (!u || u == HS_NO_ROOM) {
            hi_no_room = u == HS_NO_ROOM;
            break;
        }
        lo = hi;
        *util = u;
    }
    while (hi - lo > 1u) {
        uint32_t mid = lo + (hi - lo) / 2u;
        u = hs_try(setup, mid);
        if (u && u != HS_NO_ROOM) {
            lo = mid;
            *util = u;
        } else {
            hi = mid;
            hi_no_room = u == HS_NO_ROOM;
        }
    }
    *p = lo;
    return hi_no_room ? HS_NO_BREAKDOWN : HS_FOUND; /* the first load that failed did not fit */
}

struct hs_series {
    const char *util_id, *unit_id;
    const char *unit;
    hs_setup_t setup;
    uint32_t p0, pmax;
};

/* The series' own unit at its breakdown point p. */
static uint32_t hs_unit_value(const struct hs_series *s, uint32_t p, uint32_t util)
{
    if (s->setup == hs_setup_ph1 || s->setup == hs_setup_ph2) {
        s->setup(p);
        return bench_clock_hz() / hs.frame; /* the highest task is released every frame */
    }
    if (s->setup == hs_setup_ph4)
        return 5u + p;
    return (uint32_t)(((uint64_t)util * bench_clock_hz()) / 1000000u); /* kcycles of work per s */
}

static void hs_run_series(const struct hs_series *s)
{
    uint32_t p = 0, util = 0, pmax = s->pmax;
    if (s->setup == hs_setup_ph4) /* as many tasks as the port's threads and the arena allow */
        while (pmax && !hs_fits(5u + pmax))
            pmax--;
    int r = hs_breakdown(s->setup, s->p0, pmax, &p, &util);
    if (r != HS_FOUND) {
        const char *why = r == HS_BASELINE_MISSES
                              ? "the series' baseline load already misses a deadline"
                              : "no deadline missed in the largest set the port could create (its threads and semaphores, the arena)";
        bench_absent(s->util_id, why);
        bench_absent(s->unit_id, why);
        return;
    }
    bench_value(s->util_id, "permille", util);
    uint32_t value = hs_unit_value(s, p, util); /* before the next sample overwrites the set */
    bench_value(s->unit_id, s->unit, value);
}

static const struct hs_series hs_all[] = {
    {"hartstone.ph1.utilisation", "hartstone.ph1.frequency", "Hz", hs_setup_ph1, 1, 64},
    {"hartstone.ph2.utilisation", "hartstone.ph2.frequency", "Hz", hs_setup_ph2, 16, 256},
    {"hartstone.ph3.utilisation", "hartstone.ph3.workload", "kcycles/s", hs_setup_ph3, 100, 1000},
    {"hartstone.ph4.utilisation", "hartstone.ph4.tasks", "tasks", hs_setup_ph4, 0, HS_MAX - 5},
    {"hartstone.pn.utilisation", "hartstone.pn.workload", "kcycles/s", hs_setup_pn, 100, 1000},
    {"hartstone.ah.utilisation", "hartstone.ah.workload", "kcycles/s", hs_setup_ah, 100, 1000},
    {"hartstone.sh.utilisation", "hartstone.sh.workload", "kcycles/s", hs_setup_sh, 100, 1000},
};
#define HS_NSERIES (sizeof hs_all / sizeof hs_all[0])

static void hs_absent_all(const char *why)
{
    for (unsigned i = 0; i < HS_NSERIES; i++) {
        bench_absent(hs_all[i].util_id, why);
        bench_absent(hs_all[i].unit_id, why);
    }
}

void t_hartstone(void)
{
    if (!RTB_HAS(RTB_CAP_IRQ)) {
        hs_absent_all(rtb_port_absent_reason(RTB_CAP_IRQ));
        return;
    }
    if (!hs_fits(6) || sizeof(struct hs_state) > bench_scratch_bytes || ((uintptr_t)bench_scratch & 3u)) {
        hs_absent_all("not enough RAM for the task set's threads next to the sample store (use the default sample count)");
        return;
    }
    hs_calibrate();
    bench_config_u("hartstone.work_cycles_per_1024_iterations", (uint32_t)(((uint64_t)hs_cpi_q16 * 1024u) >> 16));
    for (unsigned i = 0; i < HS_NSERIES; i++) {
        const struct hs_series *s = &hs_all[i];
        if (s->setup == hs_setup_sh && !RTB_HAS(RTB_CAP_MUTEX)) {
            bench_absent(s->util_id, rtb_port_absent_reason(RTB_CAP_MUTEX));
            bench_absent(s->unit_id, rtb_port_absent_reason(RTB_CAP_MUTEX));
            continue;
        }
        hs_calibrate(); /* the last series' metrics overwrote the store */
        hs_run_series(s);
    }
}
#else /* a board without the stimulus generator */
void t_hartstone(void)
{
    static const char *const ids[] = {
        "hartstone.ph1.utilisation", "hartstone.ph1.frequency", "hartstone.ph2.utilisation",
        "hartstone.ph2.frequency", "hartstone.ph3.utilisation", "hartstone.ph3.workload",
        "hartstone.ph4.utilisation", "hartstone.ph4.tasks", "hartstone.pn.utilisation",
        "hartstone.pn.workload", "hartstone.ah.utilisation", "hartstone.ah.workload",
        "hartstone.sh.utilisation", "hartstone.sh.workload"};
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++)
        bench_absent(ids[i], "the board has no stimulus generator to clock the task set's frames");
}
#endif
