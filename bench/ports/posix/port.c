/*
 * The posix port: the suite on Linux threads, the seeds' "Linux RT". Every thread is a
 * pthread with SCHED_FIFO at 10 + the portable priority, and the whole process is pinned
 * to one CPU (the last it may use) and locked in memory (seed 004's real-time settings; @config
 * rt.* says which the machine granted), so that "the highest-priority ready thread runs" holds as
 * on a microcontroller. Where SCHED_FIFO is not permitted (no CAP_SYS_NICE, no RT budget)
 * the port falls back to SCHED_OTHER and says so in @config: the numbers are then those of
 * a time-sharing scheduler and the priority checks are expected to fail.
 *
 * Time is CLOCK_MONOTONIC in ns; the run reports clock=1000000000 and unit=ns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench.h"
#include "rtb_copy.h"

#define PRIO_BASE 10
static int fifo_ok;
static char sched_note[128] = "SCHED_FIFO";
/* The real-time settings of seed 004's Linux side (Raspbian "with real-time policies"):
 * which of them this machine granted, published in @config (rt.*). */
static char rt_fifo[128] = "not tried", rt_mlock[128] = "not tried", rt_cpu[128] = "not tried";
static char rt_throttle[96] = "unknown", host_kernel[256] = "unknown";

static pthread_t threads[RTB_MAX_THREADS];
static uint8_t live[RTB_MAX_THREADS];
static sem_t susp[RTB_MAX_THREADS];
static __thread int my_id = -1;
static sem_t sems[RTB_MAX_SEMS];
static pthread_mutex_t mutexes[RTB_MAX_MUTEXES];
static struct {
    pthread_mutex_t lock;
    sem_t items, spaces;
    uint8_t buf[256];
    size_t size;
    unsigned depth, head, count;
} queues[RTB_MAX_QUEUES];

static void abs_after(struct timespec *ts, uint32_t us)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    uint64_t ns = (uint64_t)ts->tv_nsec + (uint64_t)us * 1000u;
    ts->tv_sec += (time_t)(ns / 1000000000u);
    ts->tv_nsec = (long)(ns % 1000000000u);
}

const char *rtb_port_absent_reason(uint32_t cap)
{
    if (cap == RTB_CAP_IRQ)
        return "no interrupts: a Linux user-space process cannot install or trigger an interrupt handler";
    return "not provided by the posix port";
}

void rtb_port_config(void)
{
    bench_config("kernel", "Linux pthreads (glibc), one CPU, mlockall (rt.*: what was granted)");
    bench_config("sched", sched_note);
    bench_config("time_source", "clock_gettime(CLOCK_MONOTONIC)");
    bench_config("time_unit", "ns (clock=1000000000: one nominal cycle per ns)");
    bench_config("mutex", "pthread_mutex PTHREAD_PRIO_INHERIT");
    bench_config("timer_context", "a SCHED_FIFO timer thread (clock_nanosleep, absolute)");
    bench_config("oneshot_rounding", "a timer thread per shot, clock_nanosleep to now + us (absolute): never early, late by the thread's creation and wake-up");
    bench_config("suspend", "emulated: a per-thread semaphore (self-suspension only)");
    bench_config("stacks", "pthread default stacks (the suite's stack memory is not used)");
    bench_config("rt.sched_fifo", rt_fifo);
    bench_config("rt.mlockall", rt_mlock);
    bench_config("rt.cpu_pinned", rt_cpu);
    bench_config("rt.throttling", rt_throttle);
    bench_config("host.kernel", host_kernel);
}

/* Pin to one CPU (the last one this process may use: CPU 0 takes most housekeeping), lock
 * memory, and read what else shapes RT latencies; every outcome goes to @config. */
static void rt_settings(void)
{
    cpu_set_t allowed, one;
    int cpu = -1;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
            if (CPU_ISSET(c, &allowed))
                cpu = c;
    if (cpu < 0)
        cpu = 0;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0)
        snprintf(rt_cpu, sizeof rt_cpu, "granted: every thread on CPU %d (sched_setaffinity)", cpu);
    else
        snprintf(rt_cpu, sizeof rt_cpu, "refused (sched_setaffinity: %s): threads on any CPU", strerror(errno));
    if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
        snprintf(rt_mlock, sizeof rt_mlock, "granted (MCL_CURRENT|MCL_FUTURE)");
    else
        snprintf(rt_mlock, sizeof rt_mlock, "refused (mlockall: %s): pages may fault during a measurement", strerror(errno));
    FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
    long rt = 0;
    if (f) {
        if (fscanf(f, "%ld", &rt) == 1)
            snprintf(rt_throttle, sizeof rt_throttle, rt < 0 ? "off (sched_rt_runtime_us -1)"
                                                          : "sched_rt_runtime_us %ld of 1000000", rt);
        fclose(f);
    }
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(host_kernel, sizeof host_kernel, "%s %s %s", u.sysname, u.release, u.version);
}

static int prio_of(int p) { return fifo_ok ? PRIO_BASE + p : 0; }

/* Threads are created at SCHED_FIFO priority 1 and then raised to theirs: Linux puts a
 * thread whose priority is raised at the back of its new list, so equal-priority threads
 * queue in creation order. (Created directly at its priority, a thread starts at the
 * creator's and is lowered, which puts it at the *front*: reverse order.) */
static pthread_attr_t *thread_attr(pthread_attr_t *a, int prio)
{
    (void)prio;
    pthread_attr_init(a);
    pthread_attr_setstacksize(a, 64 * 1024);
    if (fifo_ok) {
        struct sched_param sp = {.sched_priority = 1};
        pthread_attr_setinheritsched(a, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(a, SCHED_FIFO);
        pthread_attr_setschedparam(a, &sp);
    }
    return a;
}

struct start { rtb_entry_t fn; void *arg; int id; };
static struct start starts[RTB_MAX_THREADS + 1];

static void *tramp(void *p)
{
    struct start *s = p;
    my_id = s->id;
    pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);
    s->fn(s->arg);
    return NULL;
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    (void)stack, (void)stack_bytes;
    rt_settings();
    struct sched_param sp = {.sched_priority = PRIO_BASE + RTB_PRIO_CTRL + 2};
    int e = sched_setscheduler(0, SCHED_FIFO, &sp);
    if (e == 0) {
        fifo_ok = 1;
        snprintf(rt_fifo, sizeof rt_fifo, "granted: priorities %d..%d", PRIO_BASE + 1, PRIO_BASE + RTB_PRIO_CTRL + 2);
    } else {
        snprintf(sched_note, sizeof sched_note,
                 "SCHED_OTHER (SCHED_FIFO not permitted: %s): priorities are not enforced", strerror(errno));
        snprintf(rt_fifo, sizeof rt_fifo, "refused (sched_setscheduler: %s)", strerror(errno));
    }
    pthread_attr_t a;
    pthread_t ctrl;
    starts[RTB_MAX_THREADS] = (struct start){main_fn, 0, -1};
    if (pthread_create(&ctrl, thread_attr(&a, RTB_PRIO_CTRL), tramp, &starts[RTB_MAX_THREADS]) != 0) {
        fifo_ok = 0;
        snprintf(sched_note, sizeof sched_note, "SCHED_OTHER (creating a SCHED_FIFO thread failed): priorities are not enforced");
        snprintf(rt_fifo, sizeof rt_fifo, "refused (pthread_create with SCHED_FIFO failed)");
        pthread_create(&ctrl, thread_attr(&a, RTB_PRIO_CTRL), tramp, &starts[RTB_MAX_THREADS]);
    } else if (fifo_ok) {
        pthread_setschedprio(ctrl, prio_of(RTB_PRIO_CTRL));
    }
    pthread_join(ctrl, NULL);
    exit(0);
}

/* ---- threads ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    (void)stack, (void)stack_bytes;
    pthread_attr_t a;
    starts[id] = (struct start){fn, arg, id};
    sem_init(&susp[id], 0, 0);
    if (pthread_create(&threads[id], thread_attr(&a, prio), tramp, &starts[id]) != 0)
        return RTB_ERROR;
    live[id] = 1;
    if (fifo_ok)
        pthread_setschedprio(threads[id], prio_of(prio)); /* may preempt the caller */
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    if (!live[id])
        return;
    pthread_cancel(threads[id]); /* acted on at the thread's next port call */
    pthread_join(threads[id], NULL);
    sem_destroy(&susp[id]);
    live[id] = 0;
}

void rtb_yield(void)
{
    pthread_testcancel();
    sched_yield();
}
void rtb_suspend(int id)
{
    (void)id; /* the suite suspends only itself */
    while (sem_wait(&susp[my_id]) != 0) {
    }
}
void rtb_resume(int id) { sem_post(&susp[id]); pthread_testcancel(); }
void rtb_prio_set(int id, int prio)
{
    pthread_testcancel();
    if (fifo_ok)
        pthread_setschedprio(id == RTB_SELF ? pthread_self() : threads[id], prio_of(prio));
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max;
    return sem_init(&sems[id], 0, initial) == 0 ? RTB_OK : RTB_ERROR;
}
void rtb_sem_delete(int id) { sem_destroy(&sems[id]); }
int rtb_sem_wait(int id, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        while (sem_wait(&sems[id]) != 0) {
        }
        return RTB_OK;
    }
    if (timeout_us == 0) {
        pthread_testcancel();
        return sem_trywait(&sems[id]) == 0 ? RTB_OK : RTB_TIMEOUT;
    }
    struct timespec ts;
    abs_after(&ts, timeout_us);
    for (;;) {
        if (sem_clockwait(&sems[id], CLOCK_MONOTONIC, &ts) == 0)
            return RTB_OK;
        if (errno == ETIMEDOUT)
            return RTB_TIMEOUT;
    }
}
void rtb_sem_signal(int id)
{
    pthread_testcancel();
    sem_post(&sems[id]);
}
void rtb_sem_signal_isr(int id) { sem_post(&sems[id]); }

/* ---- mutexes ---- */
int rtb_mutex_create(int id)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
    return pthread_mutex_init(&mutexes[id], &a) == 0 ? RTB_OK : RTB_ERROR;
}
void rtb_mutex_delete(int id) { pthread_mutex_destroy(&mutexes[id]); }
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    pthread_testcancel();
    if (timeout_us == RTB_FOREVER)
        return pthread_mutex_lock(&mutexes[id]) == 0 ? RTB_OK : RTB_ERROR;
    /* Priority-inheritance mutexes take CLOCK_REALTIME deadlines only (FUTEX_LOCK_PI). */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)timeout_us * 1000u;
    ts.tv_sec += (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    int r = pthread_mutex_timedlock(&mutexes[id], &ts);
    return r == 0 ? RTB_OK : r == EDEADLK ? RTB_DEADLOCK : RTB_TIMEOUT;
}
void rtb_mutex_unlock(int id) { pthread_mutex_unlock(&mutexes[id]); }

/* ---- queues: a ring, a lock and two counting semaphores ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    if (msg_bytes * depth > sizeof queues[id].buf)
        return RTB_ERROR;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
    pthread_mutex_init(&queues[id].lock, &a);
    sem_init(&queues[id].items, 0, 0);
    sem_init(&queues[id].spaces, 0, depth);
    queues[id].size = msg_bytes;
    queues[id].depth = depth;
    queues[id].head = queues[id].count = 0;
    return RTB_OK;
}
void rtb_queue_delete(int id)
{
    pthread_mutex_destroy(&queues[id].lock);
    sem_destroy(&queues[id].items);
    sem_destroy(&queues[id].spaces);
}
static int take(sem_t *s, uint32_t timeout_us)
{
    if (timeout_us == RTB_FOREVER) {
        while (sem_wait(s) != 0) {
        }
        return RTB_OK;
    }
    struct timespec ts;
    abs_after(&ts, timeout_us);
    while (sem_clockwait(s, CLOCK_MONOTONIC, &ts) != 0)
        if (errno == ETIMEDOUT)
            return RTB_TIMEOUT;
    return RTB_OK;
}
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    if (take(&queues[id].spaces, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    pthread_mutex_lock(&queues[id].lock);
    unsigned slot = (queues[id].head + queues[id].count) % queues[id].depth;
    rtb_copy(&queues[id].buf[slot * queues[id].size], msg, queues[id].size);
    queues[id].count++;
    pthread_mutex_unlock(&queues[id].lock);
    sem_post(&queues[id].items);
    return RTB_OK;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    if (take(&queues[id].items, timeout_us) != RTB_OK)
        return RTB_TIMEOUT;
    pthread_mutex_lock(&queues[id].lock);
    rtb_copy(msg, &queues[id].buf[queues[id].head * queues[id].size], queues[id].size);
    queues[id].head = (queues[id].head + 1u) % queues[id].depth;
    queues[id].count--;
    pthread_mutex_unlock(&queues[id].lock);
    sem_post(&queues[id].spaces);
    return RTB_OK;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us)
{
    struct timespec ts = {.tv_sec = (time_t)(us / 1000000u), .tv_nsec = (long)(us % 1000000u) * 1000};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR) {
    }
}

static struct {
    pthread_t th;
    uint32_t period_us;
    void (*cb)(void *);
    void *arg;
    volatile int run, made, once;
} timers[RTB_MAX_TIMERS];

static void *timer_thread(void *p)
{
    int id = (int)(intptr_t)p;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        uint64_t ns = (uint64_t)next.tv_nsec + (uint64_t)timers[id].period_us * 1000u;
        next.tv_sec += (time_t)(ns / 1000000000u);
        next.tv_nsec = (long)(ns % 1000000000u);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {
        }
        if (timers[id].run)
            timers[id].cb(timers[id].arg);
        if (timers[id].once) {
            timers[id].run = 0;
            return NULL;
        }
    }
    return NULL;
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    timers[id].period_us = period_us;
    timers[id].cb = cb;
    timers[id].arg = arg;
    timers[id].run = 0;
    return RTB_OK;
}
void rtb_timer_start(int id)
{
    pthread_attr_t a;
    timers[id].run = 1;
    timers[id].once = 0;
    if (pthread_create(&timers[id].th, thread_attr(&a, RTB_PRIO_CTRL + 1), timer_thread, (void *)(intptr_t)id) == 0) {
        timers[id].made = 1;
        if (fifo_ok)
            pthread_setschedprio(timers[id].th, prio_of(RTB_PRIO_CTRL + 1));
    }
}
void rtb_timer_stop(int id)
{
    timers[id].run = 0;
    if (timers[id].made) {
        pthread_cancel(timers[id].th);
        pthread_join(timers[id].th, NULL);
        timers[id].made = 0;
    }
}
void rtb_timer_delete(int id) { rtb_timer_stop(id); }
/* one-shot: a timer thread that sleeps until now + delay (absolute), calls, and ends */
int rtb_timer_once(int id, uint32_t delay_us)
{
    rtb_timer_stop(id);
    timers[id].period_us = delay_us;
    pthread_attr_t a;
    timers[id].run = 1;
    timers[id].once = 1;
    if (pthread_create(&timers[id].th, thread_attr(&a, RTB_PRIO_CTRL + 1), timer_thread, (void *)(intptr_t)id) != 0)
        return RTB_ERROR;
    timers[id].made = 1;
    if (fifo_ok)
        pthread_setschedprio(timers[id].th, prio_of(RTB_PRIO_CTRL + 1));
    return RTB_OK;
}

/* ---- memory ---- */
void *rtb_mem_alloc(size_t bytes)
{
    pthread_testcancel();
    return malloc(bytes);
}
void rtb_mem_free(void *p) { free(p); }

