/*
 * The footprint application: two threads, a semaphore and a delay, on the minimal kernels
 * (rtoslab_kernel_min: example_minimal; the smallest, rtoslab_kernel_min_c:
 * example_minimal_c, whose kernel size kernel/tests/run.sh asserts). Used to measure the
 * kernel's flash and RAM; runs with --ram 4K.
 */
#include "board.h"
#include "rtoslab/kernel.h"

static K_SEM_DEFINE(go, 0, 1);
static volatile unsigned rounds;

static void producer(void *arg)
{
    (void)arg;
    for (;;) {
        k_sleep(K_USEC(100));
        k_sem_signal(&go);
    }
}

static void consumer(void *arg)
{
    (void)arg;
    while (rounds < 10) {
        k_sem_wait(&go, K_FOREVER);
        rounds++;
    }
    board_puts("minimal: 10 rounds\n");
    board_exit(0);
}

K_THREAD_DEFINE(producer_thread, 256, producer, NULL, 1);
K_THREAD_DEFINE(consumer_thread, 256, consumer, NULL, 2);

int main(void)
{
    k_start();
}
