/*
 * Stack overflow detection: a thread with a small stack recurses until it overflows and
 * then yields; the switch must call k_fatal(K_ESTACK, that thread) before anything else
 * runs on the corrupted memory. This test's k_fatal reports and ends the run.
 */
#include "ktest.h"

static struct k_thread victim, other;
/* the victim's stack sits at the top of a padded area: its overflow lands in the pad */
static struct {
    uint64_t pad[1024 / 8];
    uint64_t stack[160 / 8];
} area;
#define victim_stack area.stack
static uint64_t other_stack[256 / 8];
static volatile uint32_t sink;

void k_fatal(int err, struct k_thread *t)
{
    kt_case_begin("overflow_detected");
    KT_EQ(err, K_ESTACK);
    KT_CHECK(t == &victim);
    kt_case_end();
    kt_finish();
}

static uint32_t deep(uint32_t n)
{
    volatile uint32_t pad[8];
    for (int i = 0; i < 8; i++)
        pad[i] = n + (uint32_t)i;
    if (n == 0)
        return pad[3];
    return deep(n - 1) + pad[5];
}

static void victim_fn(void *arg)
{
    (void)arg;
    sink = deep(12); /* about 600 bytes of stack: far past the 160 given */
    k_yield();
    kt_case_begin("overflow_detected");
    KT_CHECK(0); /* the switch should not have returned */
    kt_case_end();
    kt_finish();
}

static void other_fn(void *arg)
{
    (void)arg;
    for (;;)
        k_yield();
}

static void starter(void *arg)
{
    (void)arg;
    k_thread_create(&other, other_stack, sizeof other_stack, other_fn, NULL, 2);
    k_thread_create(&victim, victim_stack, sizeof victim_stack, victim_fn, NULL, 2);
    k_sleep(K_FOREVER);
}

K_THREAD_DEFINE(starter_thread, 512, starter, NULL, 5);

int main(void)
{
    k_start();
}
