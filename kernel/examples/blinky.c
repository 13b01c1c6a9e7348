/*
 * Example: a periodic software timer signals a semaphore from interrupt context; a worker
 * thread waits on it and prints. Two threads, static objects only; fits in 4 KiB of RAM.
 */
#include "board.h"
#include "rtoslab/kernel.h"

static K_SEM_DEFINE(tick, 0, 0);

static void on_timer(struct k_timer *t, void *arg)
{
    (void)t, (void)arg;
    k_sem_signal_isr(&tick);                /* interrupt context: the _isr call */
}
static K_TIMER_DEFINE(period, on_timer, NULL);

static void worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        k_sem_wait(&tick, K_FOREVER);       /* woken by the timer every millisecond */
        board_puts("tick\n");
    }
    board_exit(0);
}

static void starter(void *arg)
{
    (void)arg;
    k_timer_start(&period, K_MSEC(1), K_MSEC(1));
    k_sleep(K_FOREVER);
}

K_THREAD_DEFINE(worker_thread, 256, worker, NULL, 2);
K_THREAD_DEFINE(starter_thread, 256, starter, NULL, 1);

int main(void)
{
    k_start();                              /* never returns */
}
