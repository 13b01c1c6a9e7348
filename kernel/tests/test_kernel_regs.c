/*
 * The kernel's behaviour tests, the out-of-line (AAPCS) entries keep r4-r11 across switches (with call_keeps_regs.S),
 * and values live across the inline wait's blocking path survive.
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
