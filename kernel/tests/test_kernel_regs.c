/*
 * The kernel's behaviour tests, the out-of-line (AAPCS) entries keep r4-r11 across switches (with
 * call_keeps_regs.S), values live across the inline wait's blocking path survive, and a preempted
 * thread gets every register back.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- the out-of-line (AAPCS) entries keep r4-r11 across switches ------------------------- */

/* (call_keeps_regs.S) */
uint32_t kt_call_keeps_regs(void *fn, uint32_t a0, uint32_t a1, uint32_t seed);
static volatile uint32_t regs_bad, regs_calls;

static void regs_record(uint32_t mask)
{
    regs_bad |= mask;
    regs_calls++;
}

static void t_regs_wait(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20; i++)
        regs_record(kt_call_keeps_regs((void *)k_sem_wait, (uint32_t)&sa, (uint32_t)K_FOREVER,
                                       0x51000000u));
}

static void t_regs_signal(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20; i++) {
        /* wakes the higher-priority waiter: a switch inside the call */
        regs_record(kt_call_keeps_regs((void *)k_sem_signal, (uint32_t)&sa, 0, 0xA1000000u));
        /* and on to the other thread of this priority */
        regs_record(kt_call_keeps_regs((void *)k_yield, 0, 0, 0xA2000000u));
    }
}

static void t_regs_yield(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20; i++)
        regs_record(kt_call_keeps_regs((void *)k_yield, 0, 0, 0xB1000000u + (uint32_t)i));
}

void aapcs_entries_keep_regs(void)
{
    regs_bad = 0;
    regs_calls = 0;
    spawn(0, t_regs_wait, 0, 3);
    spawn(1, t_regs_signal, 0, 2);
    spawn(2, t_regs_yield, 0, 2);
    settle();
    KT_EQ(regs_calls, 80);
    KT_EQ(regs_bad, 0);
}

/* ---- values live across the inline wait's blocking path ----------------------------------- */

/* The waiter holds eight values in registers across an inline k_sem_wait that blocks, while
 * the signaller that wakes it runs with its own patterns in r4-r11 (call_keeps_regs.S). The
 * compiler keeps them where the inline call's clobbers let it: under the speed profile on
 * ARMv6-M in r4-r7, which the blocking path then saves (z_sem_wait_lbs); on ARMv7-M in
 * r4-r11, which the switch's light frame keeps. The values come from volatile loads, so the
 * compiler cannot make them again after the call instead of keeping them. */
static volatile uint32_t regs_seed[8];
#define REGS_HOLD()                                                                                \
    __asm volatile("" : "+r"(v0), "+r"(v1), "+r"(v2), "+r"(v3), "+r"(v4), "+r"(v5), "+r"(v6),     \
                   "+r"(v7))
static void t_regs_inline_wait(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < 20; i++) {
        for (uint32_t k = 0; k < 8; k++)
            regs_seed[k] = 0x60000000u + (k << 20) + i;
        uint32_t v0 = regs_seed[0], v1 = regs_seed[1], v2 = regs_seed[2], v3 = regs_seed[3],
                 v4 = regs_seed[4], v5 = regs_seed[5], v6 = regs_seed[6], v7 = regs_seed[7];
        REGS_HOLD();
        int r = k_sem_wait(&sa, K_FOREVER);
        REGS_HOLD();
        uint32_t bad = (v0 ^ regs_seed[0]) | (v1 ^ regs_seed[1]) | (v2 ^ regs_seed[2]) |
                       (v3 ^ regs_seed[3]) | (v4 ^ regs_seed[4]) | (v5 ^ regs_seed[5]) |
                       (v6 ^ regs_seed[6]) | (v7 ^ regs_seed[7]);
        regs_record(bad | (uint32_t)(r != 0));
    }
}

void inline_wait_keeps_regs(void)
{
    regs_bad = 0;
    regs_calls = 0;
    k_sem_init(&sa, 0, 0);
    spawn(0, t_regs_inline_wait, 0, 3);
    spawn(1, t_regs_signal, 0, 2);
    spawn(2, t_regs_yield, 0, 2);
    settle();
    KT_EQ(regs_calls, 80);
    KT_EQ(regs_bad, 0);
}

/* ---- a preempted thread gets every register back ------------------------------------------ */

/* A low thread spins with r1-r12 and lr set (call_keeps_regs.S) while a periodic timer wakes
 * a high thread, which blocks again at once, and the driver wakes from its sleeps: each
 * preempts the spinner (PendSV saves it), and each switch back to it is a switch to a
 * preempted thread (on ARMv7-M the thread that blocks leaves its light frame and PendSV does
 * not save it again: switch_tail.inc, z_switch_pendsv_saved_l). */
uint32_t kt_spin_keeps_regs(uint32_t seed, volatile uint32_t *stop);
static K_SEM_DEFINE(pk_sem, 0, 0);
static struct k_timer pk_timer;
static volatile uint32_t pk_stop, pk_hits, pk_bad, pk_done;

static void pk_tick(struct k_timer *t, void *arg)
{
    (void)t;
    (void)arg;
    k_sem_signal_isr(&pk_sem);
}

static void t_pk_high(void *arg)
{
    (void)arg;
    for (;;) {
        k_sem_wait(&pk_sem, K_FOREVER);
        if (++pk_hits == 40u)
            pk_stop = 1;
    }
}

static void t_pk_spin(void *arg)
{
    (void)arg;
    pk_bad = kt_spin_keeps_regs(0xC3000000u, &pk_stop);
    pk_done = 1;
}

void preempted_thread_keeps_regs(void)
{
    pk_stop = 0;
    pk_hits = 0;
    pk_done = 0;
    pk_bad = ~0u;
    k_sem_init(&pk_sem, 0, 0);
    spawn(0, t_pk_high, 0, 6); /* blocks at once */
    spawn(1, t_pk_spin, 0, 3); /* below the driver: spins while the driver sleeps */
    KT_EQ(k_timer_init(&pk_timer, pk_tick, NULL), 0);
    KT_EQ(k_timer_start(&pk_timer, K_USEC(50), K_USEC(50)), 0);
    for (int i = 0; i < 1000 && !pk_done; i++)
        k_sleep(K_USEC(70));
    k_timer_stop(&pk_timer);
    KT_EQ(pk_done, 1);
    KT_EQ(pk_hits >= 40u, 1);
    KT_EQ(pk_bad, 0);
}
