/*
 * The Contiki-NG 5.0 port of the suite (RTB_PORT_NO_THREADS, rtb_port.h).
 *
 * Contiki-NG's execution model is processes that are protothreads: stackless, cooperative,
 * resumed by the scheduler loop (process_run()) with an event, never preempted, without
 * priorities. There is no multithreading library for Cortex-M in 5.0 (os/sys/mt.h and every
 * mtarch are gone from the tree). A porting-layer thread blocks inside a C function
 * (rtb_sem_wait, rtb_delay_us): a protothread can only wait in its own body, at a
 * PROCESS_WAIT_* of the process's thread function, so none of the standard tests can be
 * written; the framework reports them absent with the reason below and runs t_contiki.c,
 * which measures what Contiki-NG can do (events, polls from interrupts, etimer, rtimer).
 * The functions of the porting layer that cannot exist are stubs returning RTB_ERROR; the
 * framework never calls them for this port.
 */
#include "bench.h"
#include "contiki.h"
#include "contiki_platform.h"


static const char no_threads[] =
    "Contiki-NG processes are stackless cooperative protothreads: a blocking call inside a C "
    "function (the porting layer's thread model) cannot be expressed; no preemption, no "
    "priorities";

const char *rtb_port_absent_reason(uint32_t cap)
{
    switch (cap) {
    case RTB_CAP_MUTEX:
    case RTB_CAP_MUTEX_INHERIT:
    case RTB_CAP_MUTEX_DYNAMIC:
        return "Contiki-NG has no blocking mutex (os/sys/mutex.h is a non-blocking try-lock "
               "for interrupt safety), and its processes are stackless cooperative "
               "protothreads: no preemption, no priorities";
    case RTB_CAP_QUEUE:
        return "Contiki-NG has no message queue between threads: processes exchange events "
               "(measured as contiki.event_post_switch); its processes are stackless "
               "cooperative protothreads";
    case RTB_CAP_MEM:
        return "Contiki-NG's memb/heapmem allocators exist, but Thread-Metric's memory test "
               "runs in a porting-layer thread: Contiki-NG processes are stackless "
               "cooperative protothreads";
    default:
        return no_threads;
    }
}

void rtb_port_config(void)
{
    bench_config("kernel", "Contiki-NG 5.0 (release/v5.0 25815e38), os/sys core + os/lib");
    bench_config("tickless", "yes (no periodic interrupt: clock_time() from the cycle counter, "
                             "etimer wake-up and rtimer on the board's compare timer)");
    bench_config_u("time_hz", CLOCK_SECOND);
    bench_config_u("rtimer_hz", RTIMER_ARCH_SECOND);
    bench_config("assertions", "off (no assert in the core; logs at LOG_LEVEL_NONE)");
    bench_config("preemption", "none (cooperative protothreads)");
    bench_config("time_slicing", "no");
    bench_config("priorities", "none (events in FIFO order, polls first)");
    bench_config("mutex", "none (no blocking mutex)");
    bench_config("allocation", "static: processes, events and timers are static objects");
    bench_config_u("event_queue", PROCESS_CONF_NUMEVENTS);
    bench_config("timer_context", "rtimer: compare-timer interrupt; etimer: etimer process "
                                  "(event to the waiting process); ctimer: etimer process");
    bench_config("isr_api", "process_poll() from the handler, no prologue/epilogue");
    bench_config("delay_rounding", "etimer: ceil(us / 1 ms) + 1 ticks; rtimer: exact cycles");
    bench_config("oneshot_rounding", "rtimer_set(RTIMER_NOW() + us in cycles): exact (rtimer ticks are cycles), never early");
    bench_config("idle", "WFI in the scheduler loop when no event or poll is pending");
    bench_config("process_names", "off (PROCESS_CONF_NO_PROCESS_NAMES)");
    bench_config("networking", "none (NETSTACK not built)");
}

/* Start Contiki-NG as os/contiki-main.c does, then the controller in main's context. */
void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    (void)stack;
    (void)stack_bytes;
    contiki_platform_init();
    main_fn(NULL);
    for (;;) {
    }
}

/* ---- the thread model of the porting layer: cannot exist (never called) ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    (void)id; (void)prio; (void)fn; (void)arg; (void)stack; (void)stack_bytes;
    return RTB_ERROR;
}
void rtb_thread_delete(int id) { (void)id; }
void rtb_yield(void) {}
void rtb_suspend(int id) { (void)id; }
void rtb_resume(int id) { (void)id; }
void rtb_prio_set(int id, int prio) { (void)id; (void)prio; }
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)id; (void)initial; (void)max;
    return RTB_ERROR;
}
void rtb_sem_delete(int id) { (void)id; }
int rtb_sem_wait(int id, uint32_t timeout_us)
{
    (void)id; (void)timeout_us;
    return RTB_ERROR;
}
void rtb_sem_signal(int id) { (void)id; }
void rtb_sem_signal_isr(int id) { (void)id; }
int rtb_mutex_create(int id) { (void)id; return RTB_ERROR; }
void rtb_mutex_delete(int id) { (void)id; }
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    (void)id; (void)timeout_us;
    return RTB_ERROR;
}
void rtb_mutex_unlock(int id) { (void)id; }
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    (void)id; (void)msg_bytes; (void)depth;
    return RTB_ERROR;
}
void rtb_queue_delete(int id) { (void)id; }
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    (void)id; (void)msg; (void)timeout_us;
    return RTB_ERROR;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    (void)id; (void)msg; (void)timeout_us;
    return RTB_ERROR;
}
void rtb_delay_us(uint32_t us) { (void)us; }
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    (void)id; (void)period_us; (void)cb; (void)arg;
    return RTB_ERROR;
}
void rtb_timer_start(int id) { (void)id; }
void rtb_timer_stop(int id) { (void)id; }
void rtb_timer_delete(int id) { (void)id; }
void *rtb_mem_alloc(size_t bytes) { (void)bytes; return NULL; }
void rtb_mem_free(void *p) { (void)p; }
