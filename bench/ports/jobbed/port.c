/*
 * The porting layer on Jobbed (MPSLab-ASU, seed 004), an RTOS for the Raspberry Pi 2B.
 *
 * Jobbed boots itself (boot.S: vector table, stacks, MMU, kernel_main) and runs the
 * application's main() as a user-mode thread at its most urgent priority (0); the suite's
 * main() is that application. Threads run in user mode and call the kernel through SVC
 * (cpu.h: sys0/sys1), exactly as Jobbed's own tests do (usr/tests/test.c):
 *   add_thread(fn, arg, prio)       thread creation (SVC 3), preempts if more urgent
 *   SYS_YIELD                       behind the other ready threads of the same priority
 *   SYS_SEMAPHORE_P / _V            counting semaphores: an unsigned long, waiters by address
 *   create_mutex/lock_mutex/unlock_mutex/delete_mutex   its mutex manager (inheritance)
 *   subscribe_irq(SYS_TIMER_n_IRQ)  an interrupt handler, run by the kernel as a new thread
 * Priorities: Jobbed has 20, 0 the most urgent; the suite's 1..9 map to 9..1 (0 is main's
 * and the interrupt handlers').
 */
#include <stdint.h>

#include "bench.h"
#include "rtb_port.h"

#include <cpu.h>
#include <cpu/irq.h>
#include <globals.h>
#include <lib/queue.h>
#include <sys/schedule.h>
#include <util/lock.h>
#include <util/mutex.h>

/* kernel/sys/schedule.c (not in its header): the queue entry before the thread `pid` */
struct Entry *find_pid(unsigned long pid);

static unsigned char jprio(int p) { return (unsigned char)(10 - p); } /* 1..9 -> 9..1 */

/* ---- identity and configuration ---- */
const char *rtb_port_absent_reason(uint32_t cap)
{
    switch (cap) {
    case RTB_CAP_SUSPEND:
        return "Jobbed has no call to suspend or resume a thread (threads block only on a mutex or a semaphore)";
    case RTB_CAP_PRIO_SET:
        return "Jobbed has no call to change a thread's priority (only its mutex manager raises and restores one)";
    case RTB_CAP_QUEUE:
        return "Jobbed has no message queues";
    case RTB_CAP_TIMEOUT:
        return "Jobbed has no timeouts: a thread blocked on a mutex or a semaphore waits until it is released";
    case RTB_CAP_TIMER:
        return "Jobbed has no software timers (its periodic system-timer subscription starts a new thread per period, not a callback the porting layer can start and stop)";
    case RTB_CAP_MEM:
        return "Jobbed has no memory allocator for applications (seed 004: no dynamic memory allocation)";
    default:
        return "not provided by Jobbed";
    }
}

void rtb_port_config(void)
{
    bench_config("kernel", "Jobbed 0.9z (MPSLab-ASU/Jobbed master e36b951), ARMv7-A, BSP23 (Raspberry Pi 2B)");
    bench_config("tick_hz", "none (no tick: no time slicing)");
    bench_config("preemption", "on (fixed priorities, 0 most urgent of 20; suite 1..9 -> 9..1)");
    bench_config("time_slicing", "off (Jobbed has none)");
    bench_config("assertions", "none in Jobbed");
    bench_config("threads", "user mode; add_thread into a static slot with its own 16 KiB stack at a fixed address (the suite's stack memory is unused); delete = the port takes a blocked thread off its scheduler queue with Jobbed's queue functions and frees the slot, as Jobbed's cleanup does for a finished thread");
    bench_config("allocation", "static: thread slots, mutex manager entries; semaphores are the suite's words");
    bench_config("semaphore", "SVC P/V on a word; V wakes a waiter only when the count becomes 1; poll (timeout 0) = P only when the count is non-zero (Jobbed has no try-wait)");
    bench_config("mutex", "Jobbed's mutex manager: lock_mutex/unlock_mutex, priority inheritance, deadlock avoidance by re-locking held mutexes in order");
    bench_config("timer_context", "none (no software timers)");
    bench_config("delay", "one-shot subscribe_irq(SYS_TIMER_0_IRQ) at now + us + 1 (1 MHz system timer) whose handler thread signals the waiting thread's semaphore (seed 004's delayed execution)");
    bench_config("isr_api", "subscribe_irq(SYS_TIMER_n_IRQ): the kernel's IRQ code starts the handler as a new thread at priority 0 and reschedules; rtb_sem_signal_isr = SYS_SEMAPHORE_V from that thread");
    bench_config("idle", "Jobbed's usrloopthread, its WFE compiled as WFI (CMakeLists.txt: QEMU halts on WFI, not on WFE)");
    bench_config("irq_entry", "the port's irq_entry.S before Jobbed's: copies SPSR_irq to SPSR_svc when a thread is interrupted (a defect of the pinned Jobbed: it saves SPSR_svc as the preempted thread's CPSR)");
    bench_config("compiler_flags", "the project's (-Os), not Jobbed's Makefile (-O3 -fpic)");
}

/* ---- start ---- */
static unsigned long park; /* a semaphore nobody signals: main blocks on it for ever */

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    (void)stack;
    (void)stack_bytes;
    board_init();
    add_thread((void *)main_fn, 0, jprio(RTB_PRIO_CTRL));
    for (;;)
        sys1(SYS_SEMAPHORE_P, &park);
}

/* ---- threads ---- */
static unsigned long tpid[RTB_MAX_THREADS];

int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    (void)stack;
    (void)stack_bytes;
    /* the pid add_thread gives (svc_add_thread: nextpid++); nothing runs between */
    tpid[id] = nextpid;
    if (add_thread((void *)fn, arg, jprio(prio)) != 0)
        return RTB_ERROR;
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    struct Entry *prev = find_pid(tpid[id]);
    if (prev == 0)
        return; /* finished (cleaned up by Jobbed) */
    struct Entry *e = remove_next_from_queue(prev);
    if (e != 0) {
        ((struct Thread *)e->value)->mptr = 0;
        push_to_queue(e, &scheduler.free_threads);
    }
}

void rtb_yield(void) { sys0(SYS_YIELD); }
void rtb_suspend(int id) { (void)id; }
void rtb_resume(int id) { (void)id; }
void rtb_prio_set(int id, int prio)
{
    (void)id;
    (void)prio;
}

/* ---- semaphores ---- */
static unsigned long sems[RTB_MAX_SEMS];

int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max; /* Jobbed's semaphores have no maximum */
    sems[id] = initial;
    return RTB_OK;
}
void rtb_sem_delete(int id) { sems[id] = 0; }

int rtb_sem_wait(int id, uint32_t timeout_us)
{
    if (timeout_us != RTB_FOREVER && *(volatile unsigned long *)&sems[id] == 0)
        return RTB_TIMEOUT; /* poll: Jobbed has no try-wait; P below cannot block */
    sys1(SYS_SEMAPHORE_P, &sems[id]);
    return RTB_OK;
}
void rtb_sem_signal(int id) { sys1(SYS_SEMAPHORE_V, &sems[id]); }
void rtb_sem_signal_isr(int id) { sys1(SYS_SEMAPHORE_V, &sems[id]); }

/* ---- mutexes ---- */
static struct Mutex *mtx[RTB_MAX_MUTEXES];

int rtb_mutex_create(int id)
{
    mtx[id] = create_mutex(0);
    return mtx[id] ? RTB_OK : RTB_ERROR;
}
void rtb_mutex_delete(int id)
{
    if (mtx[id])
        delete_mutex(mtx[id]);
    mtx[id] = 0;
}
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    (void)timeout_us;
    lock_mutex(mtx[id]);
    return RTB_OK;
}
void rtb_mutex_unlock(int id) { unlock_mutex(mtx[id]); }

/* ---- queues, time, memory: absent ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    (void)id;
    (void)msg_bytes;
    (void)depth;
    return RTB_ERROR;
}
void rtb_queue_delete(int id) { (void)id; }
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    (void)id;
    (void)msg;
    (void)timeout_us;
    return RTB_ERROR;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    (void)id;
    (void)msg;
    (void)timeout_us;
    return RTB_ERROR;
}
/* ---- delay: Jobbed's delayed execution, as seed 004's delayed-execution test uses it ----
 * A one-shot subscription of system-timer compare 0 (subscribe_irq sets C0 = now + the
 * first word of the info, in us) whose handler, started by the kernel as a thread at
 * priority 0, signals a semaphore the delayed thread waits on. now + us + 1: the 1 MHz
 * counter may be about to tick, so the wait is at least `us`. One delayed thread at a time
 * (the suite's tests delay from one thread). */
static unsigned long delay_sem;
static struct SysTimerInfo delay_info;

static void delay_expired(void) { sys1(SYS_SEMAPHORE_V, &delay_sem); }

void rtb_delay_us(uint32_t us)
{
    if (us == 0) {
        sys0(SYS_YIELD);
        return;
    }
    delay_info.tick_rate = us + 1u;
    delay_info.priority = 0;
    delay_info.arg = 0;
    delay_info.oneshot = 1;
    /* The last delay's compare: Jobbed's c_irq_handler re-arms C0 at now + tick_rate even for
     * a one-shot (it only masks the line), so it matches again us + 1 after the last expiry.
     * Moved 71 minutes away before its match flag is cleared: subscribe_irq enables the line
     * before it writes the new compare, and a request made just then (a delay started about
     * us + 1 after the previous one ended) would take that match and end at once. */
    BCM_SYSTMR_C(0) = BCM_SYSTMR_CLO - 1u;
    BCM_SYSTMR_CS = 1u << 0;
    subscribe_irq(SYS_TIMER_0_IRQ, (void *)delay_expired, &delay_info);
    sys1(SYS_SEMAPHORE_P, &delay_sem);
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    (void)id;
    (void)period_us;
    (void)cb;
    (void)arg;
    return RTB_ERROR;
}
void rtb_timer_start(int id) { (void)id; }
void rtb_timer_stop(int id) { (void)id; }
void rtb_timer_delete(int id) { (void)id; }
void *rtb_mem_alloc(size_t bytes)
{
    (void)bytes;
    return 0;
}
void rtb_mem_free(void *p) { (void)p; }

/* ---- interrupts: Jobbed's subscribe_irq on the system-timer compare of the line ----
 * The kernel's IRQ code (c_irq_handler) starts the subscribed handler as a thread at the
 * subscription's priority and re-arms the compare at now + tick_rate: a tick_rate of
 * 0xFFFFFFF0 us puts the next match 71 minutes away, so each board_irq_trigger() gives one
 * interrupt. The handler is the suite's entry for the line (vectors_armv7a.c). */
void IRQ1_Handler(void);
void IRQ2_Handler(void);
void IRQ28_Handler(void);
void IRQ30_Handler(void);
void IRQ31_Handler(void);
static struct SysTimerInfo irq_info[4];
static void isr_none(uint32_t now) { (void)now; }

static void (*line_entry(unsigned irq))(void)
{
    switch (irq) {
    case 1: return IRQ1_Handler;
    case 2: return IRQ2_Handler;
    case 28: return IRQ28_Handler;
    case 30: return IRQ30_Handler;
    case 31: return IRQ31_Handler;
    default: return 0;
    }
}

void rtb_irq_install(unsigned irq, unsigned prio, rtb_isr_t isr)
{
    (void)prio; /* Jobbed's handlers are threads: all at priority 0, above every test thread */
    void (*entry)(void) = line_entry(irq);
    if (!entry)
        return;
    unsigned c = board_irq_compare(irq);
    bench_isr_table[irq & 31u] = isr;
    bench_irq_clear_pending(irq);
    irq_info[c].tick_rate = 0xFFFFFFF0u;
    irq_info[c].priority = 0;
    irq_info[c].arg = 0;
    irq_info[c].oneshot = 0;
    subscribe_irq(SYS_TIMER_0_IRQ + c, (void *)entry, &irq_info[c]);
}

void rtb_irq_uninstall(unsigned irq)
{
    if (!line_entry(irq))
        return;
    unsigned c = board_irq_compare(irq);
    if (irqs[SYS_TIMER_0_IRQ + c].handler == (void *)line_entry(irq))
        unsubscribe_irq(SYS_TIMER_0_IRQ + c);
    bench_isr_table[irq & 31u] = isr_none;
}
