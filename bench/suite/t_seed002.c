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
/* The threads' shared variables: carved from the arena with their stacks (bench_shared; freed by
 * bench_join) and passed as the threads' argument. A static would move every RTOS variable
 * after it, and with the boot time a tick-driven kernel's tick phase in every older test. */
struct s2_shared {
    volatile uint32_t t0;
    volatile unsigned go;
};

static void s2_task(void *arg)
{
    struct s2_shared *sh = arg;
    uint32_t work = us_to_cycles(S2_WORK_US);
    for (;;) {
        uint32_t t1 = t_stop();
        if (sh->go)
            bench_sample(t1 - sh->t0);
        if (!bench_more())
            bench_done();
        bench_spin(work);
        sh->go = 1;
        sh->t0 = t_start();
        rtb_yield();
    }
}

void t_seed002(void)
{
    struct s2_shared *sh = bench_shared(sizeof *sh);
    if (!sh) {
        bench_absent("rhealstone.task_switch.seed002", "no room in the arena");
        return;
    }
    bench_begin("rhealstone.task_switch.seed002", BK_CYCLES, 0);
    sh->go = 0;
    bench_spawn(0, 3, s2_task, sh, BENCH_STACK);
    bench_spawn(1, 3, s2_task, sh, BENCH_STACK);
    if (bench_join(1))
        bench_end();
    else
        bench_abort("timed out");
}
