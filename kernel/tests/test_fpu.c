/*
 * The ARMv7-M port's FPU context (M4F, kernel/arch/armv7m/switch.S): a thread's
 * floating-point registers survive a switch, whether it blocks (s16-s31, callee-saved) or is
 * preempted by an interrupt that wakes a thread which uses the FPU too (all of s0-s31, and
 * FPSCR, through the hardware's lazy stacking), and a thread that never used the FPU runs
 * between them. Built for boards whose core has an FPU (kernel/tests/CMakeLists.txt).
 */
#include "ktest.h"

#define TEST_IRQ 30u /* pended in software */

static K_SEM_DEFINE(wake_b, 0, 0);
static K_SEM_DEFINE(b_done, 0, 0);
static uint32_t pat_a[32], pat_b[32], out[32], out_b[32];
static volatile int b_rounds, b_wrong, plain_runs;

#define S_ALL                                                                                     \
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13",      \
        "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25",      \
        "s26", "s27", "s28", "s29", "s30", "s31"

void IRQ30_Handler(void)
{
    k_sem_signal_isr(&wake_b);
}

/* B: fills every FP register with its own pattern, blocks, and checks it on return. */
static void thread_b(void *arg)
{
    (void)arg;
    for (;;) {
        k_sem_wait(&wake_b, K_FOREVER);
        __asm volatile("vldmia %0, {s0-s31}" ::"r"(pat_b) : S_ALL, "memory");
        k_sem_signal(&b_done); /* (A is lower: no switch) */
        k_sem_wait(&wake_b, K_FOREVER);
        __asm volatile("vstmia %0, {s16-s31}" ::"r"(out_b + 16) : "memory");
        for (int i = 16; i < 32; i++)
            b_wrong += out_b[i] != pat_b[i];
        b_rounds++;
    }
}

/* A thread that never touches the FPU, run between the two (basic frames only). */
static void thread_plain(void *arg)
{
    (void)arg;
    for (;;) {
        plain_runs++;
        k_yield();
    }
}

static void fill_patterns(void)
{
    for (int i = 0; i < 32; i++) {
        pat_a[i] = 0x3F800000u + (uint32_t)i * 0x10001u;
        pat_b[i] = 0xC0000000u + (uint32_t)i * 0x01010u;
    }
}

/* A is preempted, with every FP register live, by the interrupt that wakes B. */
static void preempted_keeps_all(void)
{
    volatile uint32_t *ispr = (volatile uint32_t *)0xE000E200u;
    __asm volatile("vldmia %0, {s0-s31}\n\t"
                   "str %2, [%1]\n\t"
                   "dsb\n\t"
                   "isb\n\t" /* the interrupt, then B, run here */
                   "nop\n\t"
                   "vstmia %3, {s0-s31}"
                   :
                   : "r"(pat_a), "r"(ispr), "r"(1u << TEST_IRQ), "r"(out)
                   : S_ALL, "memory");
    KT_EQ(k_sem_wait(&b_done, K_NO_WAIT), 0); /* B ran and used the FPU */
    for (int i = 0; i < 32; i++)
        KT_EQ(out[i], pat_a[i]);
}

/* A blocks with s16-s31 live; B (woken, FP used) and the plain thread run meanwhile; then B,
 * resumed, finds its own registers. */
static void blocked_keeps_callee_saved(void)
{
    __asm volatile("vldmia %0, {s16-s31}" ::"r"(pat_a + 16) : "s16", "s17", "s18", "s19", "s20",
                   "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31",
                   "memory");
    k_sleep(K_USEC(2000)); /* the plain thread runs; B's second wait is pending */
    __asm volatile("vstmia %0, {s16-s31}" ::"r"(out + 16) : "memory");
    for (int i = 16; i < 32; i++)
        KT_EQ(out[i], pat_a[i]);
    int rounds = b_rounds;
    k_sem_signal(&wake_b); /* B resumes with its registers and checks them */
    KT_EQ(b_rounds, rounds + 1);
    KT_EQ(b_wrong, 0);
    KT_CHECK(plain_runs > 0);
}

static void driver(void *arg)
{
    (void)arg;
    kt_puts("FPU context tests on " BOARD_NAME "\n");
    fill_patterns();
    board_irq_enable(TEST_IRQ, 1);
    KT_RUN(preempted_keeps_all);
    KT_RUN(blocked_keeps_callee_saved);
    board_irq_disable(TEST_IRQ);
    kt_finish();
}

K_THREAD_DEFINE(drv, 1024, driver, NULL, 2);
K_THREAD_DEFINE(fpb, 1024, thread_b, NULL, 3);
K_THREAD_DEFINE(plain, 512, thread_plain, NULL, 1);

int main(void)
{
    k_start();
}
