/*
 * The kernel's behaviour tests, the out-of-line (AAPCS) entries keep r4-r11 across switches (with call_keeps_regs.S).
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
