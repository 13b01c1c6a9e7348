/*
 * The RIOT port of the benchmark suite: each rtb_* call is the RIOT call an application
 * would make (core threads and mutexes, sys/sema semaphores, sys/ztimer for time,
 * sys/memarray for fixed blocks; queues are a bounded buffer on sys/sema, see below). Priorities: RIOT's lower number is more urgent; the
 * controller (9) is RIOT priority 1, test priority p is 10 - p (1..9), 0 and 10..15 unused.
 * No idle thread: RIOT on Cortex-M idles inside the scheduler (sched_arch_idle, WFI).
 *
 * Time: a ztimer clock on the board's cycle counter (riot_timer.c), one tick = one core cycle;
 * microseconds are converted to cycles rounding up, plus one tick (never shorter).
 */
#include <errno.h>
#include <string.h>

#include "cpu.h"
#include "irq.h"
#include "list.h"
#include "memarray.h"
#include "mutex.h"
#include "sched.h"
#include "sema.h"
#include "thread.h"
#include "ztimer.h"
#include "ztimer/periodic.h"
#include "ztimer/periph_timer.h"

#include "bench.h"
#include "rtb_copy.h"

/* The tables and the clock are shared with the inline hot calls (rtb_port_inline.h). */
kernel_pid_t rtb_riot_pids[RTB_MAX_THREADS];
sema_t rtb_riot_sems[RTB_MAX_SEMS];
mutex_t rtb_riot_mutexes[RTB_MAX_MUTEXES];
/* The clock every timed call uses: ztimer on TIMER_DEV(0), the board's cycle counter. */
ztimer_periph_timer_t rtb_riot_clock;
#define pids rtb_riot_pids
#define sems rtb_riot_sems
#define mutexes rtb_riot_mutexes
#define RIOT_PRIO(p) RTB_RIOT_PRIO(p)
#define CLK (&rtb_riot_clock.super)
#define ticks(us) rtb_riot_ticks(us)

const char *rtb_port_absent_reason(uint32_t cap)
{
    (void)cap;
    return "not provided by the RIOT port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "RIOT " RIOT_VERSION " (github.com/RIOT-OS/RIOT@50ae2eba) core + cpu/cortexm_common + sys/sema, sys/ztimer, sys/memarray; built with the port's own cpu/board glue");
    bench_config("tick", "none: tick-less, ztimer on the board's compare timer (periph_timer driver of the port)");
    bench_config("tickless", "yes");
    bench_config_u("time_hz", BOARD_CLOCK_HZ);
    bench_config("assertions", "off (NDEBUG, no DEVELHELP, no SCHED_TEST_STACK, no schedstatistics)");
    bench_config("preemption", "on (RIOT is always preemptive between priorities)");
    bench_config("time_slicing", "off (RIOT has none unless sched_round_robin is used)");
    bench_config("mutex_protocol", "priority inheritance (module core_mutex_priority_inheritance)");
    bench_config("semaphores", "sys/sema (sema_t: a count and a mutex), no maximum count");
    bench_config("queues", "bounded buffer on sys/sema (free-slot and full-slot semaphores, copy under irq_disable; 256 bytes "
                           "per queue): RIOT msg/mbox carry 32-bit msg_t, not N-byte messages");
    bench_config("allocation", "all static: threads (TCB at the top of the suite's stack), sema/mutex/queue tables; memarray of 128-byte blocks");
    bench_config_u("maxthreads", MAXTHREADS);
    bench_config("thread_delete", "unlink from its wait queue, status zombie, thread_kill_zombie (RIOT cannot delete another thread)");
    bench_config("oneshot_rounding", "ztimer_set(us * (clock / 1 MHz) + 1 cycles): one tick = one cycle, never early");
    bench_config("timer_context", "interrupt (ztimer callbacks run in the alarm ISR)");
    bench_config("isr_api", "sema_post from the ISR + cortexm_isr_end() at the end of the handler");
    bench_config("delay_rounding", "us * (clock / 1 MHz) + 1 cycles of ztimer: never shorter than requested");
    bench_config("idle", "no idle thread: sched_arch_idle (WFI inside PendSV), RIOT's Cortex-M default");
}

/* ---- start ---- */
void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    /* As RIOT boots: cpu_init (cortexm_init) and the timer's set-up with interrupts on (no
     * interrupt is enabled yet), then kernel_init's masked part: the first thread, the
     * switch to it. */
    cortexm_init();
    ztimer_periph_timer_init(&rtb_riot_clock, TIMER_DEV(0), BOARD_CLOCK_HZ, UINT32_MAX);
    irq_disable();
    thread_create((char *)stack, (int)stack_bytes, RIOT_PRIO(RTB_PRIO_CTRL), THREAD_CREATE_WOUT_YIELD,
                  (thread_task_func_t)(void (*)(void))main_fn, NULL, "ctrl");
    cpu_switch_context_exit();
}

/* ---- threads: RIOT keeps the thread_t at the top of the memory the suite gives ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    if (id < 0 || id >= RTB_MAX_THREADS)
        return RTB_ERROR;
    /* The suite's thread functions never return: RIOT's void *(*)(void *) entry is called
     * with the same argument register, its result is never used. */
    kernel_pid_t pid = thread_create((char *)stack, (int)stack_bytes, RIOT_PRIO(prio), 0,
                                     (thread_task_func_t)(void (*)(void))fn, arg, "t");
    if (pid <= 0)
        return RTB_ERROR;
    pids[id] = pid;
    return RTB_OK;
}

/* The queues (see "queues" below). */
#define Q_BYTES 256u /* per queue: depth x message (word-rounded), e.g. 4 x 64 or 1 x 128 */
static struct {
    sema_t free, full;
    size_t bytes, stride;
    unsigned depth, head, tail;
    uint32_t store[Q_BYTES / 4];
} queues[RTB_MAX_QUEUES];
#define Q_SLOT(id, i) ((char *)queues[id].store + (i) * queues[id].stride)

/* Take `node` out of the wait queue of a mutex (sema_t waits on its mutex). Masked. */
static bool unlink_waiter(list_node_t *head, list_node_t *node)
{
    list_node_t *p = head;
    if (p->next == MUTEX_LOCKED)
        return false;
    while (p->next) {
        if (p->next == node) {
            p->next = node->next;
            if (head->next == NULL)
                head->next = MUTEX_LOCKED; /* still held, now without waiters */
            return true;
        }
        p = p->next;
    }
    return false;
}

/* Search one wait queue for the blocked thread t, in its own short masked section (as long as
 * RIOT's own walk of that queue). True when t is no longer blocked (found and unlinked, or
 * woken meanwhile). The search across every object of the suite is the port's bookkeeping,
 * not RIOT's: one object at a time, it never becomes the run's longest masked section. The
 * deleter is the controller, above every test thread: a thread woken between two searches
 * stays ready, it cannot run and block on another object meanwhile. */
static bool unlink_from(thread_t *t, list_node_t *head)
{
    unsigned s = irq_disable();
    bool done = t->status != STATUS_MUTEX_BLOCKED || unlink_waiter(head, (list_node_t *)&t->rq_entry);
    irq_restore(s);
    return done;
}

/* RIOT has no call that deletes another thread: a thread ends by returning or by
 * thread_zombify() (itself), and thread_kill_zombie(pid) reclaims a zombie. The port does
 * for a blocked or ready thread what RIOT would need: it unlinks it from the wait queue it is
 * on (RIOT's thread_t does not say which: every object's queue is searched, one at a time),
 * marks it a zombie (sched_set_status takes it off the run queue) and reclaims it with
 * thread_kill_zombie. A thread deleted during a timed wait would leave its ztimer armed: the
 * suite deletes only threads parked for ever (or ready). */
void rtb_thread_delete(int id)
{
    kernel_pid_t pid = pids[id];
    if (pid <= 0)
        return;
    thread_t *t = thread_get(pid);
    if (t) {
        bool done = false;
        for (int i = 0; i < RTB_MAX_SEMS && !done; i++)
            done = unlink_from(t, &sems[i].mutex.queue);
        for (int i = 0; i < RTB_MAX_MUTEXES && !done; i++)
            done = unlink_from(t, &mutexes[i].queue);
        for (int i = 0; i < RTB_MAX_QUEUES && !done; i++)
            done = unlink_from(t, &queues[i].free.mutex.queue) || unlink_from(t, &queues[i].full.mutex.queue);
        unsigned s = irq_disable();
        sched_set_status(t, STATUS_ZOMBIE);
        thread_kill_zombie(pid);
        irq_restore(s);
    }
    pids[id] = 0;
}


/* RIOT suspends only the caller (thread_sleep) and wakes a sleeping thread (thread_wakeup,
 * which leaves a thread that is not sleeping alone): RTB_CAP_SUSPEND_SELF, not
 * RTB_CAP_SUSPEND. RIOT has no call that suspends another thread. */
void rtb_suspend(int id)
{
    if (id == RTB_SELF)
        thread_sleep();
}
void rtb_resume(int id) { thread_wakeup(pids[id]); }


/* ---- semaphores: sys/sema ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max; /* sema_t has no maximum */
    sema_create(&sems[id], initial);
    return RTB_OK;
}
void rtb_sem_delete(int id) { sema_destroy(&sems[id]); }

/* ---- mutexes: core mutex (priority inheritance on) ---- */
int rtb_mutex_create(int id)
{
    mutex_init(&mutexes[id]);
    return RTB_OK;
}
void rtb_mutex_delete(int id) { (void)id; /* a RIOT mutex needs no destruction */ }

/* ---- queues: RIOT's message queues (core msg, core mbox) carry a msg_t (16-bit type, 32-bit
 * value or pointer), not messages of N bytes, and both add fields to every thread_t (which
 * the suite's 272-byte stacks cannot spare: see README.md). A queue of `depth` messages is
 * the classic bounded buffer on RIOT's semaphores: `depth` slots, a sema_t of free slots and
 * one of full slots; the copy in or out and the slot index move under irq_disable (RIOT's
 * critical section). Send waits for a free slot (blocks while the queue is full), receive
 * for a full one. ---- */

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    size_t stride = (msg_bytes + 3u) & ~(size_t)3u;
    if (depth == 0 || msg_bytes > Q_BYTES || stride * depth > Q_BYTES)
        return RTB_ERROR;
    queues[id].bytes = msg_bytes;
    queues[id].stride = stride;
    queues[id].depth = depth;
    queues[id].head = queues[id].tail = 0;
    sema_create(&queues[id].free, depth);
    sema_create(&queues[id].full, 0);
    return RTB_OK;
}
void rtb_queue_delete(int id)
{
    sema_destroy(&queues[id].free);
    sema_destroy(&queues[id].full);
}

static int q_take(sema_t *s, uint32_t timeout_us)
{
    int r;
    if (timeout_us == RTB_FOREVER)
        r = sema_wait(s);
    else if (timeout_us == 0)
        r = sema_try_wait(s);
    else
        r = sema_wait_timed_ztimer(s, CLK, ticks(timeout_us));
    return r == 0 ? RTB_OK : RTB_TIMEOUT;
}

int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    if (q_take(&queues[id].free, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    unsigned s = irq_disable();
    unsigned i = queues[id].tail;
    queues[id].tail = i + 1 == queues[id].depth ? 0 : i + 1;
    rtb_copy(Q_SLOT(id, i), msg, queues[id].bytes);
    irq_restore(s);
    sema_post(&queues[id].full);
    return RTB_OK;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    if (q_take(&queues[id].full, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    unsigned s = irq_disable();
    unsigned i = queues[id].head;
    queues[id].head = i + 1 == queues[id].depth ? 0 : i + 1;
    rtb_copy(msg, Q_SLOT(id, i), queues[id].bytes);
    irq_restore(s);
    sema_post(&queues[id].free);
    return RTB_OK;
}

/* ---- time: ztimer ---- */
void rtb_delay_us(uint32_t us) { ztimer_sleep(CLK, ticks(us)); }

static ztimer_periodic_t timers[RTB_MAX_TIMERS];
static ztimer_t once[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; } timer_cb[RTB_MAX_TIMERS];
static bool timer_tramp(void *arg)
{
    int id = (int)(intptr_t)arg;
    timer_cb[id].cb(timer_cb[id].arg);
    return ZTIMER_PERIODIC_KEEP_GOING;
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    uint32_t p = (uint32_t)(((uint64_t)period_us * BOARD_CLOCK_HZ + 999999u) / 1000000u);
    ztimer_periodic_init(CLK, &timers[id], timer_tramp, (void *)(intptr_t)id, p ? p : 1u);
    return RTB_OK;
}
void rtb_timer_start(int id) { ztimer_periodic_start(&timers[id]); }
void rtb_timer_stop(int id)
{
    ztimer_periodic_stop(&timers[id]);
    ztimer_remove(CLK, &once[id]);
}
void rtb_timer_delete(int id)
{
    ztimer_periodic_stop(&timers[id]);
    ztimer_remove(CLK, &once[id]);
}
/* One shot: a plain ztimer_t on the same clock, its callback the suite's, in the alarm ISR.
 * ztimer_set(clock, t, n) fires at ztimer_now() + n, read inside the call, so n = the
 * delay's ticks(us) (us in cycles + 1) is never early. */
int rtb_timer_once(int id, uint32_t delay_us)
{
    once[id].callback = timer_cb[id].cb;
    once[id].arg = timer_cb[id].arg;
    ztimer_set(CLK, &once[id], ticks(delay_us));
    return RTB_OK;
}

/* ---- memory: sys/memarray, a pool of fixed 128-byte blocks (not thread-safe by itself:
 * the port brackets it with irq_disable/irq_restore, as RIOT's users of memarray do) ---- */
#define MEM_BLOCKS 2u
static uint64_t mem_store[MEM_BLOCKS * 128u / 8u];
static memarray_t mem_pool;
static bool mem_ready;
void *rtb_mem_alloc(size_t bytes)
{
    if (bytes > 128u)
        return NULL;
    unsigned s = irq_disable();
    if (!mem_ready) {
        memarray_init(&mem_pool, mem_store, 128u, MEM_BLOCKS);
        mem_ready = true;
    }
    void *p = memarray_alloc(&mem_pool);
    irq_restore(s);
    return p;
}
void rtb_mem_free(void *p)
{
    if (!p)
        return;
    unsigned s = irq_disable();
    memarray_free(&mem_pool, p);
    irq_restore(s);
}

/* ---- interrupts: the suite's handlers end in cortexm_isr_end() (rtb_port_isr.h) ---- */
