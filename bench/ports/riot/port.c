/*
 * The RIOT port of the benchmark suite: each rtb_* call is the RIOT call an application
 * would make (core threads, mutexes and mailboxes, sys/sema semaphores, sys/ztimer for time,
 * sys/memarray for fixed blocks). Priorities: RIOT's lower number is more urgent; the
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
#include "mbox.h"
#include "memarray.h"
#include "mutex.h"
#include "sched.h"
#include "sema.h"
#include "thread.h"
#include "ztimer.h"
#include "ztimer/periodic.h"
#include "ztimer/periph_timer.h"

#include "bench.h"

#define RIOT_PRIO(p) ((uint8_t)(RTB_PRIO_CTRL + 1 - (p)))

static kernel_pid_t pids[RTB_MAX_THREADS];
static sema_t sems[RTB_MAX_SEMS];
static mutex_t mutexes[RTB_MAX_MUTEXES];

/* The clock every timed call uses: ztimer on TIMER_DEV(0), the board's cycle counter. */
static ztimer_periph_timer_t clock_cycles;
#define CLK (&clock_cycles.super)

/* A delay or timeout of `us` in clock ticks (cycles): at least `us`. */
static inline uint32_t ticks(uint32_t us)
{
    return (uint32_t)(((uint64_t)us * BOARD_CLOCK_HZ + 999999u) / 1000000u) + 1u;
}

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
    bench_config("queues", "core mbox: two mailboxes per queue (free slots, full slots) of pointers to fixed-size slots; messages copied in and out");
    bench_config("allocation", "all static: threads (TCB at the top of the suite's stack), sema/mutex/mbox tables; memarray of 128-byte blocks");
    bench_config_u("maxthreads", MAXTHREADS);
    bench_config("thread_delete", "unlink from its wait queue, status zombie, thread_kill_zombie (RIOT cannot delete another thread)");
    bench_config("timer_context", "interrupt (ztimer callbacks run in the alarm ISR)");
    bench_config("isr_api", "sema_post from the ISR + cortexm_isr_end() at the end of the handler");
    bench_config("delay_rounding", "ceil(us * clock / 1e6) + 1 cycles of ztimer: never shorter than requested");
    bench_config("idle", "no idle thread: sched_arch_idle (WFI inside PendSV), RIOT's Cortex-M default");
}

/* ---- start ---- */
void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    irq_disable();
    cortexm_init();
    ztimer_periph_timer_init(&clock_cycles, TIMER_DEV(0), BOARD_CLOCK_HZ, UINT32_MAX);
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

/* Take `t` out of a wait list of RIOT (a mutex queue or an mbox list). */
static bool unlink_waiter(list_node_t *head, list_node_t *node, bool is_mutex)
{
    list_node_t *p = head;
    if (is_mutex && p->next == MUTEX_LOCKED)
        return false;
    while (p->next) {
        if (p->next == node) {
            p->next = node->next;
            if (is_mutex && head->next == NULL)
                head->next = MUTEX_LOCKED; /* still held, now without waiters */
            return true;
        }
        p = p->next;
    }
    return false;
}

static mbox_t mboxes[RTB_MAX_QUEUES][2];

/* RIOT has no call that deletes another thread: a thread ends by returning or by
 * thread_zombify() (itself), and thread_kill_zombie(pid) reclaims a zombie. The port does
 * for a blocked or ready thread what RIOT would need: it unlinks it from the wait queue it is
 * on, marks it a zombie (sched_set_status takes it off the run queue) and reclaims it with
 * thread_kill_zombie. A thread deleted during a timed wait would leave its ztimer armed: the
 * suite deletes only threads parked for ever (or ready). */
void rtb_thread_delete(int id)
{
    kernel_pid_t pid = pids[id];
    if (pid <= 0)
        return;
    unsigned s = irq_disable();
    thread_t *t = thread_get(pid);
    if (t) {
        list_node_t *node = (list_node_t *)&t->rq_entry;
        if (t->status == STATUS_MUTEX_BLOCKED) {
            bool done = false;
            for (int i = 0; i < RTB_MAX_SEMS && !done; i++)
                done = unlink_waiter(&sems[i].mutex.queue, node, true);
            for (int i = 0; i < RTB_MAX_MUTEXES && !done; i++)
                done = unlink_waiter(&mutexes[i].queue, node, true);
        }
        else if (t->status == STATUS_MBOX_BLOCKED) {
            bool done = false;
            for (int q = 0; q < RTB_MAX_QUEUES && !done; q++)
                for (int k = 0; k < 2 && !done; k++)
                    done = unlink_waiter(&mboxes[q][k].readers, node, false) ||
                           unlink_waiter(&mboxes[q][k].writers, node, false);
        }
        sched_set_status(t, STATUS_ZOMBIE);
        thread_kill_zombie(pid);
    }
    pids[id] = 0;
    irq_restore(s);
}

void rtb_yield(void) { thread_yield(); }

/* RIOT suspends only the caller (thread_sleep) and wakes a sleeping thread
 * (thread_wakeup); the suite only ever suspends itself. */
void rtb_suspend(int id)
{
    if (id == RTB_SELF)
        thread_sleep();
}
void rtb_resume(int id) { thread_wakeup(pids[id]); }

void rtb_prio_set(int id, int prio)
{
    thread_t *t = id == RTB_SELF ? thread_get_active() : thread_get(pids[id]);
    sched_change_priority(t, RIOT_PRIO(prio));
}

/* ---- semaphores: sys/sema ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max; /* sema_t has no maximum */
    sema_create(&sems[id], initial);
    return RTB_OK;
}
void rtb_sem_delete(int id) { sema_destroy(&sems[id]); }
int rtb_sem_wait(int id, uint32_t timeout_us)
{
    int r;
    if (timeout_us == RTB_FOREVER)
        r = sema_wait(&sems[id]);
    else if (timeout_us == 0)
        r = sema_try_wait(&sems[id]);
    else
        r = sema_wait_timed_ztimer(&sems[id], CLK, ticks(timeout_us));
    return r == 0 ? RTB_OK : RTB_TIMEOUT;
}
void rtb_sem_signal(int id) { sema_post(&sems[id]); }
void rtb_sem_signal_isr(int id) { sema_post(&sems[id]); }

/* ---- mutexes: core mutex (priority inheritance on) ---- */
int rtb_mutex_create(int id)
{
    mutex_init(&mutexes[id]);
    return RTB_OK;
}
void rtb_mutex_delete(int id) { (void)id; /* a RIOT mutex needs no destruction */ }
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        mutex_lock(&mutexes[id]);
        return RTB_OK;
    }
    if (timeout_us == 0)
        return mutex_trylock(&mutexes[id]) ? RTB_OK : RTB_TIMEOUT;
    return ztimer_mutex_lock_timeout(CLK, &mutexes[id], ticks(timeout_us)) == 0 ? RTB_OK : RTB_TIMEOUT;
}
void rtb_mutex_unlock(int id) { mutex_unlock(&mutexes[id]); }

/* ---- queues: RIOT's mbox carries a msg_t (16-bit type, 32-bit value or pointer), not
 * messages of N bytes. A queue of `depth` messages is `depth` slots and two mailboxes of slot
 * pointers: `free` (empty slots) and `full`. Send takes a free slot (blocks while the queue
 * is full), copies the message in and puts the slot into `full`; receive takes a slot from
 * `full` (blocks while empty), copies it out and gives it back to `free`. ---- */
#define Q_SLOT_BYTES 64u
#define Q_DEPTH_MAX 4u
static uint32_t q_slots[RTB_MAX_QUEUES][Q_DEPTH_MAX][Q_SLOT_BYTES / 4];
static msg_t q_msgs[RTB_MAX_QUEUES][2][Q_DEPTH_MAX];
static size_t q_bytes[RTB_MAX_QUEUES];
#define Q_FREE 0
#define Q_FULL 1

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    if (msg_bytes > Q_SLOT_BYTES || depth == 0 || depth > Q_DEPTH_MAX)
        return RTB_ERROR;
    unsigned size = 1;
    while (size < depth)
        size <<= 1; /* cib sizes are powers of two */
    q_bytes[id] = msg_bytes;
    mbox_init(&mboxes[id][Q_FREE], q_msgs[id][Q_FREE], size);
    mbox_init(&mboxes[id][Q_FULL], q_msgs[id][Q_FULL], size);
    for (unsigned i = 0; i < depth; i++) {
        msg_t m = {.content.ptr = q_slots[id][i]};
        mbox_try_put(&mboxes[id][Q_FREE], &m);
    }
    return RTB_OK;
}
void rtb_queue_delete(int id) { q_bytes[id] = 0; }

static int q_take(mbox_t *mb, msg_t *m, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        mbox_get(mb, m);
        return RTB_OK;
    }
    if (timeout_us == 0)
        return mbox_try_get(mb, m) ? RTB_OK : RTB_TIMEOUT;
    return ztimer_mbox_get_timeout(CLK, mb, m, ticks(timeout_us)) == 0 ? RTB_OK : RTB_TIMEOUT;
}

int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    msg_t m;
    if (q_take(&mboxes[id][Q_FREE], &m, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    memcpy(m.content.ptr, msg, q_bytes[id]);
    mbox_put(&mboxes[id][Q_FULL], &m); /* never blocks: as many slots as places */
    return RTB_OK;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    msg_t m;
    if (q_take(&mboxes[id][Q_FULL], &m, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    memcpy(msg, m.content.ptr, q_bytes[id]);
    mbox_put(&mboxes[id][Q_FREE], &m);
    return RTB_OK;
}

/* ---- time: ztimer ---- */
void rtb_delay_us(uint32_t us) { ztimer_sleep(CLK, ticks(us)); }

static ztimer_periodic_t timers[RTB_MAX_TIMERS];
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
void rtb_timer_stop(int id) { ztimer_periodic_stop(&timers[id]); }
void rtb_timer_delete(int id) { ztimer_periodic_stop(&timers[id]); }

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
