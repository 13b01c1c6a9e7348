/*
 * The interrupt sweep's storms (test_irqsweep.c runs them after the single arrivals):
 * repeated arrivals during the restores of a preempted thread (issue 31: on ARMv6-M an
 * interrupt pending as z_resume_exc_l ended was taken before its last pop; when it woke a
 * higher-priority thread again, the preempted thread was switched away with a return word
 * left on its stack, one more at each round: its stack leaked until k_fatal(K_ESTACK)).
 *
 * A busy thread B (1, below the driver) spins, checking that its own stack pointer never
 * moves. A waiter H (5) arms the stimulus `d` cycles ahead and blocks, STORM_N times: each
 * arrival wakes it (a preemption of B, by PendSV) and its block switches back to B's
 * exception frame, so the next arrival, `d` after the arming, falls at the same point of
 * H's block and B's restore every round. d runs over every cycle of that path. Checked
 * after each storm: B's SP constant, every arrival delivered once, and every thread's stack
 * high-water mark within its budget (test_irqsweep.c, stack_check), which the leak passes
 * after a few dozen rounds.
 */
#include "test_irqsweep.h"

#define STORM_D1 220u /* the arming delays d tried: 0 .. STORM_D1 */
#define STORM_N 64u   /* rounds per delay */

static K_SEM_DEFINE(ss, 0, 0);
static K_SEM_DEFINE(sdone, 0, 0);
static volatile uint32_t b_sp0, b_moved, h_wakes, storm_irqs, storm_d;

static void isr_storm(void)
{
    storm_irqs++;
    k_sem_signal_isr(&ss);
}

static void t_busy(void *arg)
{
    (void)arg;
    uint32_t sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    b_sp0 = sp;
    for (;;) {
        __asm volatile("mov %0, sp" : "=r"(sp));
        if (sp != b_sp0)
            b_moved++;
    }
}

static void t_storm_waiter(void *arg)
{
    (void)arg;
    k_sleep(K_USEC(100)); /* (the driver blocks meanwhile: B is the thread preempted) */
    for (uint32_t i = 0; i < STORM_N; i++) {
        board_stim_arm(k_now() + 60u + storm_d, 0, 1); /* (60: past the arming itself) */
        if (k_sem_wait(&ss, K_MSEC(1)) == 0)
            h_wakes++;
    }
    k_sem_signal(&sdone);
}

/* One storm: STORM_N arrivals, each armed d cycles before H's block. */
static void storm(uint32_t d)
{
    k_sem_init(&ss, 0, 0);
    k_sem_init(&sdone, 0, 0);
    b_moved = h_wakes = storm_irqs = 0;
    storm_d = d;
    isr_set(isr_storm);
    spawn(0, t_busy, 1);
    spawn(1, t_storm_waiter, 5);
    INV(k_sem_wait(&sdone, K_MSEC(20)) == 0);
    isr_set(NULL);
    INV(b_moved == 0);
    INV(storm_irqs == STORM_N && h_wakes == STORM_N); /* each arrival delivered once */
    stack_check();
}

uint32_t irq_storms(void)
{
    unsigned bad0 = inv_count();
    inv_path("storms (arrival offset: the arming delay)");
    for (uint32_t d = 0; d <= STORM_D1; d++) {
        cur_n = d;
        storm(d);
        cleanup();
        if (inv_count() != bad0 && inv_count() > 8)
            break;
    }
    kt_puts(inv_count() == bad0 ? "  ok   " : "  FAIL ");
    kt_puts("storms: ");
    kt_putu(STORM_D1 + 1u);
    kt_puts(" arming delays x ");
    kt_putu(STORM_N);
    kt_puts(" arrivals during restores\n");
    return (STORM_D1 + 1u) * STORM_N;
}
