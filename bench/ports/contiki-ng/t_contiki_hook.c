/*
 * t_contiki_hook.c - the hook of the Contiki-NG port (rtb_port.h): which of t_contiki.c's
 * measurements and checks run, in which order, in the suite's image and in the check image,
 * and the verdicts of the checks. Included at the end of t_contiki.c (it calls that file's
 * static functions): not compiled on its own.
 */
void rtb_port_own_tests(int checks_only)
{
    ev_ping = process_alloc_event();
    ev_pong = process_alloc_event();
    ev_seq = process_alloc_event();
    g_early = 0;

    if (!checks_only) {
        t_irq_standard();
        t_process_start();
        t_event_post_switch();
        t_event_post_synch();
    }

    /* contiki.poll_from_isr (the metric; 32 samples in the check image) */
    t_poll_from_isr("contiki.poll_from_isr", checks_only ? 32u : 0u);
    uint32_t polls = g_polls, isrs = g_poll_isrs;
    unsigned n = bench_n;
    if (!checks_only) /* the check image keeps its samples to itself */
        bench_end();

    static const struct { const char *id; uint32_t us; } rd[] = {
        {"contiki.rtimer_error.10us", 10}, {"contiki.rtimer_error.20us", 20},
        {"contiki.rtimer_error.50us", 50}, {"contiki.rtimer_error.100us", 100},
        {"contiki.rtimer_error.200us", 200}, {"contiki.rtimer_error.500us", 500},
        {"contiki.rtimer_error.1ms", 1000}, {"contiki.rtimer_error.5ms", 5000},
        {"contiki.rtimer_error.10ms", 10000},
    };
    static const struct { const char *id; uint32_t us; } ed[] = {
        {"contiki.etimer_error.1ms", 1000}, {"contiki.etimer_error.5ms", 5000},
        {"contiki.etimer_error.10ms", 10000},
    };
    static const struct { const char *id; uint32_t us; } od[] = {
        {"timer.oneshot_error.10us", 10}, {"timer.oneshot_error.100us", 100},
        {"timer.oneshot_error.1ms", 1000}, {"timer.oneshot_error.10ms", 10000},
    };
    const unsigned rt_kind = BK_SIGNED | (BOARD_HAS_STIMULUS ? BK_FROM_STIM : BK_NO_PROBE);
    if (checks_only) {
        t_rtimer("contiki.rtimer_error.100us", 100, 32, rt_kind);
        t_etimer("contiki.etimer_error.1ms", 1000, 32);
    } else {
        for (unsigned i = 0; i < sizeof rd / sizeof rd[0]; i++) {
            t_rtimer(rd[i].id, rd[i].us, 0, rt_kind);
            bench_end();
        }
        for (unsigned i = 0; i < sizeof od / sizeof od[0]; i++) {
            t_rtimer(od[i].id, od[i].us, 0, BK_SIGNED | BK_NO_PROBE);
            bench_end();
        }
        for (unsigned i = 0; i < sizeof ed / sizeof ed[0]; i++) {
            t_etimer(ed[i].id, ed[i].us, 0);
            bench_end();
        }
        t_contiki_throughput();
#if BOARD_HAS_STIMULUS
        t_irq_latency_worst();
#else
        bench_absent("contiki.irq_latency_worst", "board has no external stimulus generator: "
                                                  "the phase sweep needs a cycle-exact "
                                                  "interrupt source");
#endif
        t_seed002_switch(); /* last: the figures above stay as they were */
    }

    /* The standard metrics and checks of services Contiki-NG lacks altogether are absent
     * with that service's reason (port.c), not the thread model's. */
    static const struct { const char *id; uint32_t cap; } lacks[] = {
        {"rhealstone.message_passing", RTB_CAP_QUEUE},
        {"rhealstone.message_passing.seed001", RTB_CAP_QUEUE},
        {"rhealstone.message_throughput.seed001", RTB_CAP_QUEUE},
        {"mutex.lock_unlock.seed003", RTB_CAP_MUTEX},
        {"tm.message", RTB_CAP_QUEUE},
        {"rhealstone.deadlock_break", RTB_CAP_MUTEX},
        {"rhealstone.semaphore_shuffle.seed003", RTB_CAP_MUTEX},
        {"mutex.create", RTB_CAP_MUTEX}, {"mutex.destroy", RTB_CAP_MUTEX},
        {"mutex.lock_uncontended", RTB_CAP_MUTEX}, {"mutex.lock_contended", RTB_CAP_MUTEX},
        {"mutex.unlock", RTB_CAP_MUTEX},
        {"check.priority_inversion", RTB_CAP_MUTEX}, {"check.deadlock", RTB_CAP_MUTEX},
    };
    for (unsigned i = 0; i < sizeof lacks / sizeof lacks[0]; i++)
        if (!checks_only || strncmp(lacks[i].id, "check.", 6) == 0)
            bench_absent(lacks[i].id, rtb_port_absent_reason(lacks[i].cap));

    check_event_fifo();
    bool poll_ok = polls == n && isrs == n && n > 0;
    bench_check("check.contiki_isr_poll", poll_ok,
                poll_ok ? "every interrupt's process_poll ran the polled process once"
                        : "a poll from an interrupt was lost or repeated");
    bench_check("check.contiki_timer_not_early", g_early == 0,
                g_early == 0 ? "no etimer or rtimer expired before its delay"
                             : "a timer expired before its delay");
}
