/*
 * What the kernel's behaviour tests (test_kernel.c and test_kernel_<object>.c) share: the
 * driver's priority, the helper threads and the log, the objects more than one file uses,
 * and the cases the driver runs.
 */
#ifndef TEST_KERNEL_H
#define TEST_KERNEL_H

#include "ktest.h"

#define DRV 4
#define NH 6
#define STACK 512
#define TEST_IRQ 20u /* nRF51 SWI0; unused on the lab boards */

/* the log of the helpers, checked against the expected sequence */
#define LOG_IS(...)                                                     \
    do {                                                                \
        static const int exp_[] = {__VA_ARGS__};                        \
        KT_EQ(nlog, (int)(sizeof exp_ / sizeof exp_[0]));               \
        for (int i_ = 0; i_ < nlog && i_ < (int)(sizeof exp_ / sizeof exp_[0]); i_++) \
            KT_EQ(logv[i_], exp_[i_]);                                  \
    } while (0)

/* A misuse the checks refuse with an error code (K_EINVAL, K_EISR, K_ESTATE: K_CONFIG_CHECKS,
 * the C's Z_CHECK and the assembly's checks); without the checks the call is undefined, so
 * the build without them (ktest_kernel_nochecks) neither makes it nor tests its result. */
#if K_CONFIG_CHECKS
#define KT_MISUSE(stmt) stmt
#else
#define KT_MISUSE(stmt) ((void)0)
#endif

/* A timeout the test observes from outside: short on the cycle-accurate boards, long enough
 * on an emulator whose clock follows the host's (which may stall). */
#if BOARD_CYCLE_ACCURATE
#define T_OBSERVED K_USEC(300)
#else
#define T_OBSERVED K_MSEC(50)
#endif

/* test_kernel.c */
extern struct k_thread th[NH];
extern uint64_t stacks[NH][STACK / 8];
extern volatile int logv[32];
extern volatile int nlog;
extern volatile int res[NH];
void log_add(int v);
void log_reset(void);
int spawn(int i, k_entry_t fn, int arg, unsigned prio);
void settle(void);

/* test_kernel_thread.c */
void t_log_id(void *arg);
void prio_order(void);
void preempt_immediate(void);
void fifo_equal_priority(void);
void preempted_keeps_place(void);
void suspend_resume(void);
void prio_change(void);
void exit_abort(void);

/* test_kernel_sem.c */
extern struct k_sem sa;
extern struct k_sem sdyn;
void sem_counting(void);
void sem_timeout(void);
void stale_timeouts(void);
void sem_wake_order(void);
void sem_no_switch_to_lower(void);
void sem_pingpong(void);

/* test_kernel_time.c */
void sleep_delays(void);
void timeout_never_early(void);

/* test_kernel_info.c */
void thread_queries(void);
void thread_wake(void);
void mutex_owner_query(void);
void next_expiry(void);

/* test_kernel_mutex.c */
extern struct k_mutex m1;
extern struct k_sem go2;
void mutex_basic(void);
void mutex_inheritance(void);
void mutex_inheritance_ready_owner(void);
void mutex_contention_rings(void);
void mutex_transitive(void);
void mutex_timeout_drops_inheritance(void);
void mutex_deadlock(void);
void mutex_owner_exits(void);

/* test_kernel_queue.c */
extern struct k_queue q4;
void queue_basic(void);
void queue_blocking(void);
void queue_item_sizes(void);

/* test_kernel_timer.c */
void timers(void);

/* test_kernel_event.c */
extern struct k_event ev1;
void event_flags(void);

/* test_kernel_isr.c */
extern struct k_sem isem;
extern volatile int isr_r[8];
extern volatile int isr_mode;
extern struct k_mutex *volatile isr_mutex;
extern void *volatile isr_blk;
extern volatile int isr_free_r;
extern struct k_thread *volatile isr_prio_target;
void t_hold_m1_go2(void *arg);
void isr_signal(void);
void isr_signal_irq(void);
void isr_lowest_priority(void);

/* test_kernel_errors.c */
void errors(void);
void destroy_wakes(void);
void mutex_refused_in_isr(void);
void prestart_record(void);
void prestart_calls(void);
void reinit_in_use(void);

/* test_kernel_mempool.c */
extern struct k_mempool pool128;
void mempool_basic(void);

/* test_kernel_misuse.c */
void prestart_misuse(void);
void prestart_misuse_check(void);
void prio_set_in_isr(void);
void timer_stop_late(void);
void mempool_double_free(void);

/* test_kernel_mask.c */
void mask_kept(void);

/* test_kernel_regs.c */
void aapcs_entries_keep_regs(void);
void inline_wait_keeps_regs(void);
void preempted_thread_keeps_regs(void);

#endif
