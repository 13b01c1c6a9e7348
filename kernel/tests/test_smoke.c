/* Smoke test: two threads ping-pong on semaphores, sleep, exit. */
#include "ktest.h"

static void kt_finish_fail(void)
{
    kt_case_begin("before_start");
    KT_CHECK(0);
    kt_case_end();
    kt_finish();
}

static K_SEM_DEFINE(ping, 0, 0);
static K_SEM_DEFINE(pong, 0, 0);
static volatile int count;

static void lo_entry(void *arg)
{
    (void)arg;
    for (int i = 0; i < 10; i++) {
        k_sem_signal(&ping);
        k_sem_wait(&pong, K_FOREVER);
    }
}

static void hi_entry(void *arg)
{
    (void)arg;
    kt_case_begin("pingpong");
    for (int i = 0; i < 10; i++) {
        KT_EQ(k_sem_wait(&ping, K_FOREVER), 0);
        count++;
        k_sem_signal(&pong);
    }
    KT_EQ(count, 10);
    kt_case_end();
    kt_case_begin("sleep");
    uint32_t t0 = k_now();
    KT_EQ(k_sleep(K_USEC(500)), 0);
    uint32_t dt = k_now() - t0;
    KT_CHECK(dt >= K_USEC(500));
    kt_case_end();
    kt_finish();
}

K_THREAD_DEFINE(hi, 512, hi_entry, NULL, 3);
K_THREAD_DEFINE(lo, 512, lo_entry, NULL, 1);

int main(void)
{
    /* before k_start: a blocking call has no thread to block */
    static struct k_sem s0;
    k_sem_init(&s0, 0, 0);
    int r1 = k_sem_wait(&s0, K_FOREVER), r2 = k_sleep(K_USEC(10));
    if (r1 != K_ESTATE || r2 != K_ESTATE) {
        kt_puts("blocking before k_start did not return K_ESTATE\n");
        kt_finish_fail();
    }
    k_start();
}
