/* The standalone build's application: a thread that sleeps and signals, so that the kernel's
 * scheduler, time and semaphore code are linked. */
#include "rtoslab/kernel.h"

static struct k_sem sem;

static void worker(void *arg)
{
    (void)arg;
    for (;;) {
        k_sleep(K_USEC(10));
        k_sem_signal(&sem);
    }
}
K_THREAD_DEFINE(worker_thread, 256, worker, 0, 1);

int main(void)
{
    k_sem_init(&sem, 0, 1);
    k_start();
}
