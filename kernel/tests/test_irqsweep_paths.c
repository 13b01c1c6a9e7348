/*
 * The paths of the interrupt sweep (test_irqsweep.c, the harness): for each, a setup, the
 * path itself, the interrupt's work, and the check of the outcome once the run is over;
 * the table of paths at the end.
 */
#include "test_irqsweep.h"

static K_SEM_DEFINE(s, 0, 0);
static K_SEM_DEFINE(go, 0, 0);
static K_SEM_DEFINE(side, 0, 0);
static K_SEM_DEFINE(done, 0, 0);
static K_MUTEX_DEFINE(mm);
K_QUEUE_DEFINE(q, 4, 2);
volatile int wakes, side_runs, given, taken, res_w, res_h;
volatile uint32_t w0;
static volatile uint32_t w1;
static volatile uint32_t isr_ts; /* when the interrupt signalled (path 3) */

/* the interrupt's side: a signal, or a K_NO_WAIT take, by the parity of the offset */
static void isr_sem_give_or_take(void)
{
    if (cur_n & 1u) {
        if (k_sem_wait(&s, K_NO_WAIT) == 0)
            taken++;
    } else if (k_sem_signal_isr(&s) == 0) {
        given++;
    }
}

static void isr_side_signal(void)
{
    if (k_sem_signal_isr(&side) == 0)
        given++;
}

static void t_counter(void *arg)
{
    (void)arg;
    for (;;) {
        k_sem_wait(&s, K_FOREVER);
        wakes++;
    }
}

static void t_side(void *arg)
{
    (void)arg;
    for (;;) {
        k_sem_wait(&side, K_FOREVER);
        side_runs++;
    }
}

/* ---- the paths ----------------------------------------------------------------------------- */

/* 1. k_sem_signal with no waiter (the count) */
#define SIG_LEAD 64u
static void p_sig_setup(void)
{
    k_sem_init(&s, 0, 0);
}
static void p_sig_run(void)
{
    /* (the signal after ARM_LEAD, inside the arrivals: the inline no-waiter signal of the
     * speed profile is over in 16 cycles, and without this ended before the first arrival) */
    uint32_t t = k_now();
    while (k_now() - t < SIG_LEAD) {
    }
    k_sem_signal(&s);
}
static void p_sig_check(void)
{
    await_isr();
    INV(k_sem_count(&s) + taken == 1 + given);
}

/* 2. k_sem_signal to a higher-priority waiter: the switch, and the waiter's blocking again */
static void p_sigw_setup(void)
{
    k_sem_init(&s, 0, 0);
    spawn(0, t_counter, 5); /* blocks at once */
}
static void p_sigw_check(void)
{
    await_isr();
    INV(wakes + k_sem_count(&s) + taken == 1 + given); /* each unit delivered once */
    INV(k_sem_count(&s) == 0);                          /* to the waiter, which outranks us */
}

/* 3. a timed wait near its deadline: the interrupt signals across [deadline - 700, + 700) */
static void isr_signal_timed(void)
{
    uint32_t key = arch_irq_lock(); /* (the alarm interrupt outranks this one) */
    isr_ts = k_now();
    if (k_sem_signal_isr(&s) == 0)
        given++;
    arch_irq_unlock(key);
}
static void t_timed(void *arg)
{
    (void)arg;
    w0 = k_now();
    res_w = k_sem_wait(&s, TW);
    w1 = k_now();
    k_sem_signal(&done);
}
static void p_tw_setup(void)
{
    k_sem_init(&s, 0, 0);
    k_sem_init(&done, 0, 0);
    spawn(0, t_timed, 5); /* waits */
}
void p_tw_run(void)
{
    k_sem_wait(&done, K_FOREVER);
}
static void p_tw_check(void)
{
    await_isr();
    if ((int32_t)(w0 + TW - isr_ts) > 0)
        INV(res_w == 0); /* given before the earliest deadline: never a timeout */
    if (res_w == K_ETIMEDOUT)
        INV(w1 - w0 >= TW); /* never early */
    else
        INV(res_w == 0);
    INV(k_sem_count(&s) == (res_w == 0 ? 0 : 1)); /* the unit delivered once */
}

/* 4. mutex hand-over with inheritance: L (3) holds it, H (6) waits (L inherits 6); L
 * unlocks: H gets it and runs, L drops back to 3. The interrupt wakes M (4). */
static void t_low(void *arg)
{
    (void)arg;
    k_mutex_lock(&mm, K_FOREVER);
    k_sem_wait(&go, K_FOREVER);
    k_mutex_unlock(&mm);
    k_sem_wait(&done, K_FOREVER); /* parked */
}
static void t_high(void *arg)
{
    (void)arg;
    res_h = k_mutex_lock(&mm, K_FOREVER);
    wakes++;
    k_mutex_unlock(&mm);
}
static void p_mx_setup(void)
{
    k_sem_init(&go, 0, 0);
    k_sem_init(&side, 0, 0);
    k_sem_init(&done, 0, 0);
    spawn(0, t_low, 3);
    spawn(1, t_side, 4);
    spawn(2, t_high, 6);
    INV(th[0].z_prio == 6); /* inherited */
}
static void p_mx_run(void)
{
    k_sem_signal(&go);
}
static void p_mx_check(void)
{
    await_isr();
    INV(res_h == 0 && wakes == 1);
    INV(side_runs == given);
    INV(th[0].z_prio == 3 && th[2].z_state == Z_STATE_DEAD);
    INV(mm.z_owner == Z_MUTEX_FREE && !mm.z_waitq && !z_kernel.contended);
}

/* 4b. the usual contention (the ports' contended lock and hand-over in assembly): L (1),
 * ready, holds the mutex; the driver (2) locks it: L inherits 2 and runs, unlocks: the
 * driver gets it back and runs, L drops to 1. The interrupt wakes M (4). */
static void t_owner_ready(void *arg)
{
    (void)arg;
    k_mutex_lock(&mm, K_FOREVER);
    k_thread_prio_set(NULL, 1); /* the driver runs: L ready, holding mm */
    wakes++;
    k_mutex_unlock(&mm); /* the driver waits on it: the hand-over */
    k_sem_wait(&done, K_FOREVER); /* parked */
}
static void p_mc_setup(void)
{
    k_sem_init(&side, 0, 0);
    k_sem_init(&done, 0, 0);
    spawn(1, t_side, 4);
    spawn(0, t_owner_ready, 3);
    INV(th[0].z_prio == 1 && mm.z_owner == (uintptr_t)&th[0]);
}
static void p_mc_run(void)
{
    res_h = k_mutex_lock(&mm, K_FOREVER);
    k_mutex_unlock(&mm);
}
static void p_mc_check(void)
{
    await_isr();
    INV(res_h == 0 && wakes == 1);
    INV(side_runs == given);
    INV(th[0].z_prio == 1 && th[0].z_state == Z_STATE_BLOCKED);
    INV(mm.z_owner == Z_MUTEX_FREE && !mm.z_waitq && !z_kernel.contended);
}

/* 5. queue: a send handed over to a receiver without timeout (it outranks us), then a send
 * to the ring; the interrupt sends or receives (K_NO_WAIT) by the offset's parity.
 * 6. the same with a receiver that waits with a timeout (the ring and the retry). */
static volatile uint32_t got_mask, isr_sent_mask, isr_got_mask;
static volatile int recv_timed;

static void t_receiver(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;) {
        if (k_queue_recv(&q, &v, recv_timed ? K_MSEC(5) : K_FOREVER) == 0) {
            INV(!(got_mask & (1u << v))); /* not twice */
            got_mask |= 1u << v;
        }
    }
}
static void isr_queue(void)
{
    uint32_t v = 10;
    if (cur_n & 1u) {
        if (k_queue_recv_isr(&q, &v) == 0)
            isr_got_mask |= 1u << v;
    } else if (k_queue_send_isr(&q, &v) == 0) {
        isr_sent_mask |= 1u << v;
    }
}
static void p_q_setup(void)
{
    uint32_t v;
    while (k_queue_recv(&q, &v, K_NO_WAIT) == 0) {
    }
    got_mask = isr_sent_mask = isr_got_mask = 0;
    spawn(0, t_receiver, 5);
}
static void p_q_setup_plain(void)
{
    recv_timed = 0;
    p_q_setup();
}
static void p_q_setup_timed(void)
{
    recv_timed = 1;
    p_q_setup();
}
static void p_q_run(void)
{
    uint32_t v = 1;
    k_queue_send(&q, &v, K_FOREVER);
    v = 2;
    k_queue_send(&q, &v, K_NO_WAIT);
}
static void p_q_check(void)
{
    await_isr();
    uint32_t left = 0, v;
    while (k_queue_recv(&q, &v, K_NO_WAIT) == 0)
        left |= 1u << v;
    uint32_t sent = (1u << 1) | (1u << 2) | isr_sent_mask;
    INV((got_mask & isr_got_mask) == 0 && (got_mask & left) == 0 && (isr_got_mask & left) == 0);
    INV((got_mask | isr_got_mask | left) == sent); /* each item delivered exactly once */
}

/* 7. timer expiry: a one-shot timer due 2000 cycles after the start; the interrupt, swept
 * across [due - 800, due + 400), starts a second one 300 cycles ahead. Each fires once, not
 * early. */
static struct k_timer tm1, tm2;
static volatile uint32_t due1, at1, at2, fired1, fired2, start2;
static void on_tm(struct k_timer *t, void *arg)
{
    (void)arg;
    if (t == &tm1) {
        at1 = k_now();
        fired1++;
    } else {
        at2 = k_now();
        fired2++;
    }
    k_sem_signal_isr(&done);
}
static void isr_timer(void)
{
    start2 = k_now();
    k_timer_start(&tm2, 300, 0);
}
static void p_tm_setup(void)
{
    k_sem_init(&done, 0, 0);
    k_timer_init(&tm1, on_tm, NULL);
    k_timer_init(&tm2, on_tm, NULL);
    fired1 = fired2 = 0;
}
static void p_tm_run(void)
{
    due1 = k_now() + 2000u;
    k_timer_start_at(&tm1, due1, 0);
    k_sem_wait(&done, K_MSEC(1));
}
static void p_tm_check(void)
{
    await_isr();
    k_sem_wait(&done, K_MSEC(1));
    k_sem_wait(&done, K_MSEC(1));
    INV(fired1 == 1 && fired2 == 1);
    INV((int32_t)(at1 - due1) >= 0);
    INV((int32_t)(at2 - (start2 + 300u)) >= 0);
    INV(!z_kernel.timers);
}

/* 8. thread exit: X (5), woken by the driver, returns; the interrupt wakes S (4) or tries to
 * resume X (not suspended: K_ESTATE), by parity. */
static volatile int resume_r;
static void t_exiter(void *arg)
{
    (void)arg;
    k_sem_wait(&go, K_FOREVER);
    wakes++;
}
static void isr_exit(void)
{
    if (cur_n & 1u)
        resume_r = k_thread_resume_isr(&th[0]);
    else if (k_sem_signal_isr(&side) == 0)
        given++;
}
static void p_ex_setup(void)
{
    k_sem_init(&go, 0, 0);
    k_sem_init(&side, 0, 0);
    resume_r = 0;
    spawn(0, t_exiter, 5);
    spawn(1, t_side, 4);
}
static void p_ex_run(void)
{
    k_sem_signal(&go);
}
static void p_ex_check(void)
{
    await_isr();
    INV(wakes == 1 && th[0].z_state == Z_STATE_DEAD);
    INV(side_runs == given);
    INV(resume_r == 0 || resume_r == K_ESTATE);
}

/* 9. k_thread_abort of a thread waiting with a timeout while the interrupt signals its
 * semaphore: the unit is the thread's (it ran) or still counted, never lost. */
static void t_timed_waiter(void *arg)
{
    (void)arg;
    if (k_sem_wait(&s, K_MSEC(5)) == 0)
        wakes++;
    k_sem_wait(&done, K_FOREVER); /* parked */
}
static void p_ab_setup(void)
{
    k_sem_init(&s, 0, 0);
    k_sem_init(&done, 0, 0);
    spawn(0, t_timed_waiter, 5);
}
static void p_ab_run(void)
{
    k_thread_abort(&th[0]);
}
static void isr_signal_s(void)
{
    if (k_sem_signal_isr(&s) == 0)
        given++;
}
static void p_ab_check(void)
{
    await_isr();
    INV(th[0].z_state == Z_STATE_DEAD);
    INV(wakes + k_sem_count(&s) == given);
}

/* 10. priority changes through inheritance: W (3) waits on the mutex L (3) holds; the
 * driver raises W to 6 (L inherits 6) and lowers it back (L drops to 3); the interrupt
 * wakes S (4), which outranks the driver but not L while L is boosted. */
static void t_waiter_mm(void *arg)
{
    (void)arg;
    res_w = k_mutex_lock(&mm, K_FOREVER);
    k_mutex_unlock(&mm);
}
static void p_pr_setup(void)
{
    k_sem_init(&go, 0, 0);
    k_sem_init(&side, 0, 0);
    k_sem_init(&done, 0, 0);
    spawn(0, t_low, 3);
    spawn(1, t_waiter_mm, 3);
    spawn(2, t_side, 4);
}
static void p_pr_run(void)
{
    k_thread_prio_set(&th[1], 6);
    k_thread_prio_set(&th[1], 3);
}
static void p_pr_check(void)
{
    await_isr();
    INV(side_runs == given);
    INV(th[0].z_prio == 3 && th[1].z_prio == 3 && th[1].z_state == Z_STATE_BLOCKED_MUTEX);
    INV(z_kernel.contended == &mm && mm.z_waitq == &th[1]);
}

/* 11. suspend and resume: the driver resumes X (5), which preempts it, counts and suspends
 * itself again; the interrupt resumes X too (K_ESTATE unless X is suspended) or wakes S (4),
 * by parity. */
static volatile int isr_resumes;
static void t_self_suspender(void *arg)
{
    (void)arg;
    for (;;) {
        k_thread_suspend(NULL);
        wakes++;
    }
}
static void isr_resume_or_side(void)
{
    if (cur_n & 1u) {
        if (k_thread_resume_isr(&th[0]) == 0)
            isr_resumes++;
    } else if (k_sem_signal_isr(&side) == 0) {
        given++;
    }
}
static void p_su_setup(void)
{
    k_sem_init(&side, 0, 0);
    isr_resumes = 0;
    spawn(0, t_self_suspender, 5); /* runs at once and suspends itself */
    spawn(1, t_side, 4);
}
static void p_su_run(void)
{
    resume_r = k_thread_resume(&th[0]);
}
static void p_su_check(void)
{
    await_isr();
    INV(th[0].z_state == Z_STATE_SUSPENDED);
    INV(side_runs == given);
    /* the driver's resume found X suspended unless the interrupt resumed it first */
    INV(wakes == (resume_r == 0) + isr_resumes);
    INV(resume_r == 0 || resume_r == K_ESTATE);
}

/* 12. the idle loop's entry: the driver waits with a timeout and the idle loop runs (its
 * sleep's choice in C, the WFI); the interrupt wakes P (4) at every cycle of it. P waits with
 * r4-r11 holding addresses no code may store through (the Cortex-M's reserved space), so its
 * registers must survive the switches to and from the idle loop, and the idle loop must not
 * run on them. (The stimulus line is enabled, so the idle never chooses the deep sleep here:
 * the deep path's resumption, fixed in the PendSV-only build in the eighth round, is not
 * swept.) */
uint32_t kt_call_keeps_regs(void *fn, uint32_t a0, uint32_t a1, uint32_t seed); /* call_keeps_regs.S */
static volatile uint32_t p_regs_lost, idle_arrivals;
/* the side signal, counting the arrivals that found the idle loop running (the driver
 * asleep, no thread ready: the current thread stays the one that left) */
static void isr_side_signal_in_idle(void)
{
    if (driver_thread.z_state == Z_STATE_BLOCKED && th[0].z_state == Z_STATE_BLOCKED)
        idle_arrivals++;
    isr_side_signal();
}
static void t_poisoned_waiter(void *arg)
{
    (void)arg;
    for (;;) {
        p_regs_lost |= kt_call_keeps_regs((void *)k_sem_wait, (uint32_t)&side, (uint32_t)K_FOREVER, 0xF0000000u);
        side_runs++;
    }
}
#define IDLE_WAIT K_CYCLES(3000) /* (a wait much shorter may spin to its deadline) */
#define IDLE_WINDOW 560u
static void p_id_setup(void)
{
    k_sem_init(&side, 0, 0);
    k_sem_init(&done, 0, 0);
    p_regs_lost = 0;
    if (cur_n == 0)
        idle_arrivals = 0;
    spawn(0, t_poisoned_waiter, 4);
}
static void p_id_run(void)
{
    res_w = k_sem_wait(&done, IDLE_WAIT);
}
static void p_id_check(void)
{
    await_isr();
    INV(side_runs == given);
    INV(p_regs_lost == 0);
    INV(res_w == K_ETIMEDOUT);
    INV(cur_n < IDLE_WINDOW - 1 || idle_arrivals > IDLE_WINDOW / 2); /* the sweep was the idle's */
}

/* ---- the table ---------------------------------------------------------------------------- */

#if K_CONFIG_MEMPOOL
/* 13. a memory pool's allocation and release (ARMv7-M: the list head by LDREX/STREX, no
 * mask; a failed release goes to the C), the interrupt allocating and releasing in between
 * at every cycle. Three blocks: Y stays out, X goes round through the thread's allocation
 * and release, Z (never used at first) through the interrupt's; no block may be handed out
 * twice, nor lost. */
K_MEMPOOL_DEFINE(mp, 16, 3);
static void *mp_y;
static void *volatile mp_thread_blk; /* (read by the interrupt) */
static volatile int mp_r, mp_twice, mp_kept;
static void isr_mempool(void)
{
    void *b = k_mempool_alloc(&mp);
    if (!b)
        return; /* (the thread holds X and Z is out: nothing left) */
    if (b == mp_y || b == mp_thread_blk)
        mp_twice++;
    ((volatile uint32_t *)b)[1] = 0x15Au;
    if (k_mempool_free(&mp, b) == 0)
        given++;
}
static void p_mp_setup(void)
{
    if (mp_y) /* (Y of a run the harness did not check: its length's measure) */
        k_mempool_free(&mp, mp_y);
    INV(k_mempool_init(&mp, mp_buf, 16, 3) == 0); /* (every block back) */
    void *x = k_mempool_alloc(&mp);
    mp_y = k_mempool_alloc(&mp);
    k_mempool_free(&mp, x); /* X on the list, Z never used */
    mp_thread_blk = NULL;
    mp_r = -100;
    mp_twice = mp_kept = 0;
}
static void p_mp_run(void)
{
    uint32_t t = k_now();
    while (k_now() - t < SIG_LEAD) { /* (inside the arrivals, as path 1) */
    }
    volatile uint32_t *x = k_mempool_alloc(&mp);
    mp_thread_blk = (void *)x; /* the thread's until its release: never the interrupt's */
    x[1] = 0x7EADu;            /* (the interrupt marks every block it gets) */
    t = k_now();
    while (k_now() - t < 32u) {
    }
    mp_kept = x[1] == 0x7EADu;
    mp_thread_blk = NULL;
    mp_r = k_mempool_free(&mp, (void *)x);
}
static void p_mp_check(void)
{
    await_isr();
    INV(mp_twice == 0 && mp_kept);
    INV(mp_r == 0);
    INV(k_mempool_avail(&mp) == 2); /* X and Z back, Y out */
    void *a = k_mempool_alloc(&mp), *b = k_mempool_alloc(&mp);
    INV(a && b && a != b && a != mp_y && b != mp_y && !k_mempool_alloc(&mp));
    INV(k_mempool_free(&mp, a) == 0 && k_mempool_free(&mp, b) == 0 && k_mempool_free(&mp, mp_y) == 0);
    mp_y = NULL;
    INV(k_mempool_avail(&mp) == 3);
}
#define MEMPOOL_PATH {"mempool alloc / free (the interrupt's between)", p_mp_setup, p_mp_run, isr_mempool, p_mp_check, 0, 0},
#else
#define MEMPOOL_PATH
#endif

const struct path paths[] = {
    {"sem.signal (no waiter)", p_sig_setup, p_sig_run, isr_sem_give_or_take, p_sig_check, 0, 0},
    {"sem.signal (wake, switch)", p_sigw_setup, p_sig_run, isr_sem_give_or_take, p_sigw_check, 0, 0},
    {"sem.wait (timed, at its deadline)", p_tw_setup, p_tw_run, isr_signal_timed, p_tw_check, 1400, -700},
    {"mutex hand-over (inheritance)", p_mx_setup, p_mx_run, isr_side_signal, p_mx_check, 0, 0},
    {"mutex contention (a ready owner)", p_mc_setup, p_mc_run, isr_side_signal, p_mc_check, 0, 0},
    {"queue (hand-off)", p_q_setup_plain, p_q_run, isr_queue, p_q_check, 0, 0},
    {"queue (timed receiver)", p_q_setup_timed, p_q_run, isr_queue, p_q_check, 0, 0},
    {"timer expiry", p_tm_setup, p_tm_run, isr_timer, p_tm_check, 1200, 2000 - 800},
    {"thread exit", p_ex_setup, p_ex_run, isr_exit, p_ex_check, 0, 0},
    {"thread abort (timed waiter)", p_ab_setup, p_ab_run, isr_signal_s, p_ab_check, 0, 0},
    {"prio_set of a mutex waiter (inheritance)", p_pr_setup, p_pr_run, isr_side_signal, p_pr_check, 0, 0},
    {"thread suspend / resume", p_su_setup, p_su_run, isr_resume_or_side, p_su_check, 0, 0},
    {"idle loop entry (sleep, wake from the idle)", p_id_setup, p_id_run, isr_side_signal_in_idle, p_id_check, IDLE_WINDOW, 0},
    MEMPOOL_PATH
};
const unsigned n_paths = sizeof paths / sizeof paths[0];
