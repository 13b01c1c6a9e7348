/*
 * One idle second: one thread sleeps 1 s, nothing else happens. Built on the 1 kHz periodic
 * tick, tick-less with plain sleep and tick-less with the deep idle; kernel/tests/idle_energy.py
 * runs the three with `rtoslab-vp --energy` and checks their average currents against the
 * board's energy model.
 */
#include "ktest.h"

static void sleeper(void *arg)
{
    (void)arg;
    kt_case_begin("idle_second");
    KT_EQ(k_sleep(K_MSEC(1000)), 0);
    kt_case_end();
    kt_finish();
}

K_THREAD_DEFINE(idle_sleeper, 512, sleeper, NULL, 3);

int main(void)
{
    k_start();
}
