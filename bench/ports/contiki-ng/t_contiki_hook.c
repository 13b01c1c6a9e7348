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
    if (checks_only) {
        t_rtimer("contiki.rtimer_error.100us", 100, 32);
        t_etimer("contiki.etimer_error.1ms", 1000, 32);
    } else {
        for (unsigned i = 0; i < sizeof rd / sizeof rd[0]; i++) {
            t_rtimer(rd[i].id, rd[i].us, 0);
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
    }

    check_event_fifo();
    bool poll_ok = polls == n && isrs == n && n > 0;
    bench_check("check.contiki_isr_poll", poll_ok,
                poll_ok ? "every interrupt's process_poll ran the polled process once"
                        : "a poll from an interrupt was lost or repeated");
    bench_check("check.contiki_timer_not_early", g_early == 0,
                g_early == 0 ? "no etimer or rtimer expired before its delay"
                             : "a timer expired before its delay");
}
