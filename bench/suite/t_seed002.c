/*
 * rhealstone.task_switch.seed002: the context switch as seed 002 (II §1.3) timed it. Two
 * equal-priority tasks take turns: each works 1 ms in the foreground (a busy wait, the seed's
 * clock_delay_usec(1000)), then lets the other run (Contiki-NG's PROCESS_PAUSE(), RIOT's
 * thread_yield(): here rtb_yield()). The seed's oscilloscope measured from the first task's
 * GPIO going low after its work to the second task's GPIO going high: here from the counter
 * read just before the yield to the other task's first counter read after its own yield
 * returns (probe pin 0 high in between). Unlike rhealstone.task_switch, the tasks work
 * between switches, so a tick or timer falls in the work as in the seed's application.
 * Contiki-NG measures the same interval between two processes in its own tests
 * (bench/ports/contiki-ng/t_contiki.c).
 */
#include "bench.h"

#define S2_WORK_US 1000u
static volatile uint32_t s2_t0;
static volatile unsigned s2_go;

static void s2_task(void *arg)
{
    (void)arg;
    uint32_t work = us_to_cycles(S2_WORK_US);
    for (;;) {
        uint32_t t1 = t_stop();
        if (s2_go)
            bench_sample(t1 - s2_t0);
        if (!bench_more())
            bench_done();
        bench_spin(work);
        s2_go = 1;
        s2_t0 = t_start();
        rtb_yield();
    }
}

void t_seed002(void)
{
    bench_begin("rhealstone.task_switch.seed002", BK_CYCLES, 0);
    s2_go = 0;
    bench_spawn(0, 3, s2_task, 0, BENCH_STACK);
    bench_spawn(1, 3, s2_task, 0, BENCH_STACK);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}
