/*
 * The kernel's behaviour tests, event flags.
 * (test_kernel.c: the helpers and the driver, which runs every case in its order.)
 */
#include "test_kernel.h"

/* ---- event flags ------------------------------------------------------------------------- */

K_EVENT_DEFINE(ev1, 0);
static struct {
    uint32_t bits;
    unsigned opt;
    k_timeout_t to;
} ev_req[NH];
static volatile uint32_t ev_got[NH];

static void t_ev_wait(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint32_t got = 0xDEAD;
    res[id] = k_event_wait(&ev1, ev_req[id].bits, ev_req[id].opt, ev_req[id].to, &got);
    ev_got[id] = got;
    log_add('a' + id);
}

static void ev_spawn(int id, uint32_t bits, unsigned opt, k_timeout_t to, unsigned prio)
{
    ev_req[id].bits = bits;
    ev_req[id].opt = opt;
    ev_req[id].to = to;
    res[id] = 0x7777;
    spawn(id, t_ev_wait, id, prio);
}

void event_flags(void)
{
    uint32_t got = 0;
    /* without waiting: any, all, consume, bad arguments */
    KT_EQ(k_event_init(&ev1, 0x5), 0);
    KT_EQ(k_event_wait(&ev1, 0x3, K_EVENT_ANY, K_NO_WAIT, &got), 0);
    KT_EQ(got, 0x1);
    KT_EQ(k_event_wait(&ev1, 0x3, K_EVENT_ALL, K_NO_WAIT, &got), K_EAGAIN);
    KT_EQ(k_event_wait(&ev1, 0x5, K_EVENT_ALL, K_NO_WAIT, &got), 0);
    KT_EQ(got, 0x5);
    KT_EQ(k_event_wait(&ev1, 0x6, K_EVENT_ANY | K_EVENT_CLEAR, K_NO_WAIT, &got), 0);
    KT_EQ(got, 0x4);
    KT_EQ(k_event_get(&ev1), 0x1); /* 0x4 consumed */
    KT_MISUSE(KT_EQ(k_event_wait(&ev1, 0, K_EVENT_ANY, K_NO_WAIT, &got), K_EINVAL));
    KT_MISUSE(KT_EQ(k_event_wait(&ev1, 0x1, 8u, K_NO_WAIT, &got), K_EINVAL));
    KT_MISUSE(KT_EQ(k_event_wait((struct k_event *)&isem, 0x1, 0, K_NO_WAIT, &got), K_EINVAL));
    KT_MISUSE(KT_EQ(k_event_set(NULL, 1), K_EINVAL));
    KT_EQ(k_event_clear(&ev1, 0x1), 0);
    KT_EQ(k_event_get(&ev1), 0);

    /* waiters (above the driver): one set wakes every waiter it satisfies, in priority
     * order; a consuming waiter takes its bits from those behind it */
    log_reset();
    ev_spawn(0, 0x3, K_EVENT_ALL, K_FOREVER, 6);                  /* a: all of 1|2 */
    ev_spawn(1, 0x2, K_EVENT_ANY | K_EVENT_CLEAR, K_FOREVER, 5);  /* b: 2, consumes it */
    ev_spawn(2, 0x4, K_EVENT_ANY, K_FOREVER, 6);                  /* c: 4 */
    ev_spawn(3, 0x2, K_EVENT_ANY, K_FOREVER, 5);                  /* d: 2, behind b */
    KT_EQ(nlog, 0);
    KT_EQ(k_event_set(&ev1, 0x1), 0); /* not all of a's: nobody */
    KT_EQ(nlog, 0);
    KT_EQ(k_event_init(&ev1, 0), K_EBUSY);
    KT_EQ(k_event_set(&ev1, 0x2), 0); /* a (1|2), then b (2, consumed); d keeps waiting */
    LOG_IS('a', 'b');
    KT_EQ(res[0], 0);
    KT_EQ(ev_got[0], 0x3);
    KT_EQ(res[1], 0);
    KT_EQ(ev_got[1], 0x2);
    KT_EQ(k_event_get(&ev1), 0x1);
    KT_EQ(res[3], 0x7777);
    KT_EQ(k_event_set(&ev1, 0x2), 0); /* now d */
    LOG_IS('a', 'b', 'd');
    KT_EQ(ev_got[3], 0x2);
    KT_EQ(k_event_get(&ev1), 0x3);

    /* from an interrupt: c wakes when the interrupt returns, before the driver goes on */
    board_irq_enable(TEST_IRQ, 1);
    isr_mode = 7;
    board_irq_trigger(TEST_IRQ);
    __asm volatile("dsb\n isb");
    log_add('D');
    LOG_IS('a', 'b', 'd', 'c', 'D');
    KT_EQ(isr_r[0], 0);
    KT_EQ(isr_r[1], K_EISR);
    KT_EQ(isr_r[2], 0);
    KT_EQ(isr_r[3], 0);
    KT_EQ(ev_got[2], 0x4);
    KT_EQ(k_event_get(&ev1), 0x6);

    /* a timeout, never early; a lower waiter woken without a switch; destroy */
    uint32_t t0 = k_now();
    KT_EQ(k_event_wait(&ev1, 0x10, K_EVENT_ANY, K_USEC(200), &got), K_ETIMEDOUT);
    KT_CHECK(k_now() - t0 >= K_USEC(200));
    log_reset();
    ev_spawn(0, 0x18, K_EVENT_ALL | K_EVENT_CLEAR, K_MSEC(50), 6);
    KT_EQ(k_event_set(&ev1, 0x8), 0);
    KT_EQ(nlog, 0);
    KT_EQ(k_event_set(&ev1, 0x10), 0);
    LOG_IS('a');
    KT_EQ(res[0], 0);
    KT_EQ(ev_got[0], 0x18);
    KT_EQ(k_event_get(&ev1), 0x6);
    ev_spawn(1, 0x1, K_EVENT_ANY, K_FOREVER, 2); /* below the driver: waits when it runs */
    settle();
    KT_EQ(res[1], 0x7777);
    KT_EQ(k_event_set(&ev1, 0x1), 0); /* ready, does not preempt */
    KT_EQ(res[1], 0x7777);
    settle();
    KT_EQ(res[1], 0);
    KT_EQ(ev_got[1], 0x1);
    ev_spawn(2, 0x100, K_EVENT_ANY, K_FOREVER, 6);
    KT_EQ(k_event_destroy(&ev1), 0);
    KT_EQ(res[2], K_EDESTROYED);
    KT_MISUSE(KT_EQ(k_event_set(&ev1, 1), K_EINVAL));
    KT_EQ(k_event_init(&ev1, 0), 0);
}
