/*
 * The kernel's behaviour tests: scheduling order, semaphores, mutexes (inheritance,
 * deadlock detection), queues, timers, timeouts, interrupts, errors.
 *
 * The driver runs at priority DRV; helpers are created per case from a small pool.
 * One file per object (test_kernel_<object>.c, what they share test_kernel.h); this one
 * has the helpers and the driver, which runs every case in the original order.
 */
#include "test_kernel.h"

struct k_thread th[NH];
uint64_t stacks[NH][STACK / 8];

volatile int logv[32];
volatile int nlog;
volatile int res[NH];

void log_add(int v)
{
    if (nlog < 32)
        logv[nlog++] = v;
}

void log_reset(void)
{
    nlog = 0;
    for (int i = 0; i < NH; i++)
        res[i] = 0x7777;
}

int spawn(int i, k_entry_t fn, int arg, unsigned prio)
{
    return k_thread_create(&th[i], stacks[i], sizeof stacks[i], fn, (void *)(intptr_t)arg, prio);
}

static void cleanup(void)
{
    for (int i = 0; i < NH; i++)
        if (th[i].z_state)
            (void)k_thread_abort(&th[i]);
}

/* Let every other ready thread run until it blocks or ends: the driver drops to the lowest
 * priority and yields (deterministic, unlike a sleep on an emulator whose clock follows the
 * host's), then takes its priority back. */
void settle(void)
{
    k_thread_prio_set(NULL, 0);
    k_yield();
    k_thread_prio_set(NULL, DRV);
}

/* ---- driver ------------------------------------------------------------------------------ */

static void driver(void *arg)
{
    (void)arg;
    kt_puts("kernel tests on " BOARD_NAME "\n");
#define CASE(fn)   \
    do {           \
        KT_RUN(fn); \
        cleanup(); \
    } while (0)
    CASE(prio_order);
    CASE(preempt_immediate);
    CASE(fifo_equal_priority);
    CASE(preempted_keeps_place);
    CASE(sem_counting);
    CASE(sem_timeout);
    CASE(stale_timeouts);
    CASE(sem_wake_order);
    CASE(sem_no_switch_to_lower);
    CASE(sem_pingpong);
    CASE(sleep_delays);
    CASE(timeout_never_early);
    CASE(suspend_resume);
    CASE(prio_change);
    CASE(exit_abort);
    CASE(mutex_basic);
    CASE(mutex_inheritance);
    CASE(mutex_inheritance_ready_owner);
    CASE(mutex_contention_rings);
    CASE(mutex_transitive);
    CASE(mutex_timeout_drops_inheritance);
    CASE(mutex_deadlock);
    CASE(mutex_owner_exits);
    CASE(queue_basic);
    CASE(queue_blocking);
    CASE(queue_item_sizes);
    CASE(timers);
    CASE(isr_signal);
    CASE(isr_signal_irq);
    CASE(isr_lowest_priority);
    KT_MISUSE(CASE(errors));
    CASE(destroy_wakes);
    CASE(mutex_refused_in_isr);
    KT_MISUSE(CASE(prestart_calls)); /* (main's blocking calls: K_ESTATE) */
    CASE(reinit_in_use);
    CASE(mempool_basic);
    CASE(event_flags);
    CASE(prestart_misuse_check);
    KT_MISUSE(CASE(prio_set_in_isr));
    CASE(timer_stop_late);
    CASE(mempool_double_free);
    CASE(aapcs_entries_keep_regs);
    CASE(inline_wait_keeps_regs);
    CASE(preempted_thread_keeps_regs);
    CASE(mask_kept);
    CASE(thread_queries);
    CASE(thread_wake);
    CASE(mutex_owner_query);
    CASE(next_expiry);
    kt_finish();
}

K_THREAD_DEFINE(driver_thread, 1024, driver, NULL, DRV);

int main(void)
{
    KT_MISUSE(prestart_record());
    prestart_misuse();
    k_start();
}
