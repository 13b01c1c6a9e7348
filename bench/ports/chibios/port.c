/*
 * The ChibiOS/RT 7 port of the benchmark suite: each rtb_* call is the RT (or oslib) call an
 * application would make.
 *
 * Priorities: portable 1..9 map onto NORMALPRIO + 1 .. NORMALPRIO + 9 (129..137), the
 * controller (9) included; the idle thread is IDLEPRIO. Time: the system time is the board's
 * cycle counter (tick-less, chcore_timer.h), so a timeout of `us` is us * (clock / 1 MHz)
 * system ticks: exact, never shorter. Objects live in static tables (ChibiOS objects are
 * statically allocated and initialised at run time).
 *
 * What RT cannot express, and what the port does instead (all printed by rtb_port_config):
 *  - deleting another thread: RT has none (chThdTerminate only asks a thread to exit). The
 *    suite deletes parked test threads between tests; rtb_thread_delete takes the thread
 *    out of the ready list or the wait queue it is in (with the kernel's own list
 *    primitives, as chschd.c's timeout handler does) and cancels the timeout timer its timed
 *    wait may have on its stack. Not measured by any metric.
 *  - a mutex lock with a finite timeout: RT mutexes have none (chMtxLock waits for ever,
 *    chMtxTryLock polls): RTB_CAP_MUTEX_TIMEOUT is off (check.deadlock is absent), a timeout
 *    of 0 is chMtxTryLock, any other finite one is refused (RTB_ERROR).
 *  - suspend/resume of another thread and setting another thread's priority: absent. A
 *    thread suspends itself on its own thread reference (chThdSuspendS, RTB_CAP_SUSPEND_SELF;
 *    the reference is a field of its thread_t, CH_CFG_THREAD_EXTRA_FIELDS), rtb_resume is
 *    chThdResume on that reference; rtb_prio_set(RTB_SELF) is chThdSetPriority.
 */

#include "ch.h"

#include "bench.h"
#include "rtb_copy.h"

#define PRIO(p) ((tprio_t)(NORMALPRIO + (p)))
#define ALARM_NVIC_PRIO 2u /* the demo's timer IRQ priority; below the suite's lines (1): see board_alarm_isr */

static thread_t *threads[RTB_MAX_THREADS];
static struct { uint8_t *base; size_t bytes; } thread_mem[RTB_MAX_THREADS];
semaphore_t rtb_chibios_sems[RTB_MAX_SEMS];   /* used by rtb_port_inline.h */
mutex_t rtb_chibios_mutexes[RTB_MAX_MUTEXES];

/* Time conversions: rtb_chibios_us2i / rtb_chibios_timeout (rtb_port_inline.h). */

const char *rtb_port_absent_reason(uint32_t cap)
{
    switch (cap) {
    case RTB_CAP_SUSPEND:
        return "ChibiOS/RT 7 has no suspend/resume of an arbitrary thread: chThdSuspendS/chThdResume "
               "park the calling thread on a thread reference (self-suspension only)";
    case RTB_CAP_PRIO_SET:
        return "ChibiOS/RT 7 chThdSetPriority changes the calling thread's priority only; "
               "there is no call to set another thread's priority";
    case RTB_CAP_MUTEX_TIMEOUT:
        return "ChibiOS/RT 7 mutexes have no timed lock (chMtxLock waits for ever, chMtxTryLock polls) "
               "and RT has no deadlock detection";
    default:
        return "not provided by ChibiOS/RT";
    }
}

void rtb_port_config(void)
{
    bench_config("kernel", "ChibiOS/RT " CH_KERNEL_VERSION " (stable_21.11.x 78a2ddd2), oslib, port " RTB_CHIBIOS_PORT " ("
                           PORT_INFO ")");
    bench_config("tickless", "yes: system time = the board's cycle counter, alarm = its compare timer");
    bench_config_u("time_hz", CH_CFG_ST_FREQUENCY);
    bench_config_u("st_timedelta_ticks", CH_CFG_ST_TIMEDELTA);
    bench_config("assertions", "off (CH_DBG_* all FALSE: no checks, asserts, state check, statistics, "
                               "trace, stack check or fill)");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off (CH_CFG_TIME_QUANTUM 0)");
    bench_config("mutex_protocol", "priority inheritance (chMtx*, not recursive)");
    bench_config("mutex_timeout", "none in RT (RTB_CAP_MUTEX_TIMEOUT off): 0 is chMtxTryLock");
    bench_config("suspend", "self only: chThdSuspendS on the thread's own thread reference, "
                            "rtb_resume = chThdResume of it");
    bench_config("semaphores", "chSem* counting semaphores, FIFO queueing (the max count is not enforced)");
    bench_config("queue", "oslib objects FIFO (chFifo*: guarded pool of fixed-size objects + mailbox of pointers), "
                          "messages copied in and out");
    bench_config("memory", "oslib memory pool (chPoolAlloc/chPoolFree), 8 blocks of 128 bytes");
    bench_config("allocation", "all static: threads in the suite's memory (chThdCreateStatic), objects in "
                               "static tables");
    bench_config("thread_delete", "none in RT: the port unlinks a parked thread from its queue (kernel list "
                                  "primitives) and cancels its timeout timer");
    bench_config("timer_context", "virtual-timer callbacks in the alarm interrupt (chVTSetContinuous)");
    bench_config("oneshot_rounding", "chVTSet(us * ticks-per-us): exact (ticks are cycles), at least CH_CFG_ST_TIMEDELTA");
    bench_config("isr_api", "CH_IRQ_PROLOGUE/EPILOGUE; chSysLockFromISR + chSemSignalI + chSysUnlockFromISR");
    bench_config("delay_rounding", "us * ticks-per-us exactly (ticks are cycles), at least CH_CFG_ST_TIMEDELTA: "
                                   "never shorter than requested");
    bench_config("idle", "idle thread, WFI (CORTEX_ENABLE_WFI_IDLE)");
    bench_config("options", "CH_CFG_OPTIMIZE_SPEED TRUE; registry, dynamic, wait-exit, messages, events, "
                            "condvars, timestamps off (unused)");
}

/* ---- start: the calling flow becomes RT's main thread, on the controller's stack (PSP) ---- */
static rtb_entry_t ctrl_fn;
static void mem_init(void);

static void __attribute__((noreturn, used)) ctrl_boot(void)
{
    chSysInit(); /* the caller becomes the "main" thread at NORMALPRIO; interrupts on */
    board_irq_enable(BOARD_ALARM_IRQ, ALARM_NVIC_PRIO);
    chThdSetPriority(PRIO(RTB_PRIO_CTRL));
    mem_init();
    ctrl_fn(NULL);
    for (;;)
        chThdSleep(TIME_MAX_INTERVAL);
}

/* ChibiOS threads run on the process stack (PSP), interrupts on the main stack (the port's
 * IRQ epilogue builds its frame on PSP). Its own crt0 does that switch; the boards' start-up
 * does not, so do it here: PSP = the controller's stack, CONTROL.SPSEL = 1, MSP back to the
 * top of the main stack (all of it for the interrupts). */
static void __attribute__((naked, noreturn)) start_on_psp(uint32_t psp_top __attribute__((unused)))
{
    __asm volatile(
        "cpsid i\n"
        "msr psp, r0\n"
        "movs r1, #2\n"
        "msr control, r1\n"
        "isb\n"
        "ldr r1, =__stack_top\n"
        "msr msp, r1\n"
        "b ctrl_boot\n"
        ".ltorg\n");
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    ctrl_fn = main_fn;
    start_on_psp(((uint32_t)(uintptr_t)stack + (uint32_t)stack_bytes) & ~7u);
}

/* The alarm interrupt. The board's vector (IRQ0_Handler on the lab boards) calls this
 * function, so the prologue's saved LR is a return address into that vector, not the
 * EXC_RETURN value that CH_IRQ_EPILOGUE tests for "returning to another handler"
 * (0xFFFFFFF1). The alarm's NVIC priority (2) is below every other interrupt in use (the
 * suite's lines are at 1), so it never preempts a handler and always returns to thread
 * mode, which is the case the epilogue then assumes. */
void board_alarm_isr(void)
{
    CH_IRQ_PROLOGUE();
    chSysLockFromISR();
    chSysTimerHandlerI();
    chSysUnlockFromISR();
    CH_IRQ_EPILOGUE();
}

/* ---- threads: the thread_t sits at the top of the memory the suite gives ---- */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    size_t bytes = stack_bytes & ~(size_t)(PORT_STACK_ALIGN - 1u);
    if (id < 0 || id >= RTB_MAX_THREADS || bytes < THD_WORKING_AREA_SIZE(64) ||
        ((uintptr_t)stack & (PORT_WORKING_AREA_ALIGN - 1u)) != 0)
        return RTB_ERROR;
    thread_mem[id].base = (uint8_t *)stack;
    thread_mem[id].bytes = bytes;
    threads[id] = chThdCreateStatic(stack, bytes, PRIO(prio), fn, arg);
    return threads[id] ? RTB_OK : RTB_ERROR;
}

/* RT has no call that deletes another thread; the suite only deletes threads that are parked
 * (blocked or ready, never running). Unlink it from wherever it waits, the way chschd.c's
 * timeout handler (__sch_wakeup) undoes a wait, and cancel the timer of a timed wait: that
 * virtual_timer_t is a local of chSchGoSleepTimeoutS, on the thread's own stack. */
void rtb_thread_delete(int id)
{
    thread_t *tp = threads[id];
    if (!tp)
        return;
    uint8_t *lo = thread_mem[id].base, *hi = lo + thread_mem[id].bytes;
    chSysLock();
    switch (tp->state) {
    case CH_STATE_WTSEM:
        tp->u.wtsemp->cnt++; /* give back the count the wait took */
        /* fall through */
    case CH_STATE_READY:
    case CH_STATE_QUEUED:
    case CH_STATE_WTMTX:
    case CH_STATE_WTCOND:
    case CH_STATE_SNDMSGQ:
        (void)ch_queue_dequeue(&tp->hdr.queue);
        break;
    default: /* sleeping, suspended, final: in no queue */
        break;
    }
    virtual_timers_list_t *vtlp = &currcore->vtlist;
    ch_delta_list_t *p = vtlp->dlist.next;
    while (p != &vtlp->dlist) {
        if ((uint8_t *)p >= lo && (uint8_t *)p < hi) {
            chVTDoResetI((virtual_timer_t *)p);
            p = vtlp->dlist.next;
        } else {
            p = p->next;
        }
    }
    tp->state = CH_STATE_FINAL;
    chSysUnlock();
    threads[id] = NULL;
}

/* RTB_CAP_SUSPEND_SELF: park the caller on its own thread reference; resume wakes it (a no-op
 * if it is not parked there, as FreeRTOS's vTaskResume of a thread that is not suspended). */
void rtb_suspend(int id)
{
    if (id != RTB_SELF)
        return; /* another thread: not a capability of this port */
    chSysLock();
    (void)chThdSuspendS((thread_reference_t *)&chThdGetSelfX()->rtb_parked);
    chSysUnlock();
}
void rtb_resume(int id)
{
    if (threads[id])
        chThdResume((thread_reference_t *)&threads[id]->rtb_parked, MSG_OK);
}
void rtb_prio_set(int id, int prio)
{
    if (id == RTB_SELF)
        (void)chThdSetPriority(PRIO(prio));
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max;
    chSemObjectInit(&rtb_chibios_sems[id], (cnt_t)initial);
    return RTB_OK;
}
void rtb_sem_delete(int id) { (void)id; }

/* ---- mutexes ---- */
int rtb_mutex_create(int id)
{
    chMtxObjectInit(&rtb_chibios_mutexes[id]);
    return RTB_OK;
}
void rtb_mutex_delete(int id) { (void)id; } /* a static RT object has nothing to release */
/* ---- queues: oslib objects FIFOs ---- */
#define Q_DEPTH 16
static objects_fifo_t queues[RTB_MAX_QUEUES];
static size_t q_msg_bytes[RTB_MAX_QUEUES];
/* queue 0 holds 128 bytes (rhealstone.message_passing.seed001's message), queue 1 64 */
static uint32_t q_buf0[128 / 4], q_buf1[64 / 4];
static uint32_t *const q_buf[RTB_MAX_QUEUES] = {q_buf0, q_buf1};
static const size_t q_cap[RTB_MAX_QUEUES] = {sizeof q_buf0, sizeof q_buf1};
static msg_t q_ptrs[RTB_MAX_QUEUES][Q_DEPTH];

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    size_t obj = (msg_bytes + 3u) & ~(size_t)3u;
    if (obj == 0 || depth == 0 || depth > Q_DEPTH || obj * depth > q_cap[id])
        return RTB_ERROR;
    q_msg_bytes[id] = msg_bytes;
    chFifoObjectInit(&queues[id], obj, depth, q_buf[id], q_ptrs[id]);
    return RTB_OK;
}
void rtb_queue_delete(int id) { (void)id; }
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    void *obj = chFifoTakeObjectTimeout(&queues[id], rtb_chibios_timeout(timeout_us));
    if (obj == NULL)
        return RTB_TIMEOUT;
    rtb_copy(obj, msg, q_msg_bytes[id]);
    chFifoSendObject(&queues[id], obj);
    return RTB_OK;
}
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    void *obj;
    if (chFifoReceiveObjectTimeout(&queues[id], &obj, rtb_chibios_timeout(timeout_us)) != MSG_OK)
        return RTB_TIMEOUT;
    rtb_copy(msg, obj, q_msg_bytes[id]);
    chFifoReturnObject(&queues[id], obj);
    return RTB_OK;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us)
{
    if (us == 0)
        chThdYield();
    else
        chThdSleep(rtb_chibios_us2i(us));
}

static virtual_timer_t timers[RTB_MAX_TIMERS];
static struct { void (*cb)(void *); void *arg; sysinterval_t period; } timer_cb[RTB_MAX_TIMERS];
static void timer_tramp(virtual_timer_t *vtp, void *p)
{
    (void)vtp;
    int id = (int)(intptr_t)p;
    timer_cb[id].cb(timer_cb[id].arg);
}
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg)
{
    timer_cb[id].cb = cb;
    timer_cb[id].arg = arg;
    timer_cb[id].period = rtb_chibios_us2i(period_us ? period_us : 1u);
    chVTObjectInit(&timers[id]);
    return RTB_OK;
}
void rtb_timer_start(int id)
{
    chVTSetContinuous(&timers[id], timer_cb[id].period, timer_tramp, (void *)(intptr_t)id);
}
void rtb_timer_stop(int id) { chVTReset(&timers[id]); }
int rtb_timer_once(int id, uint32_t delay_us)
{
    chVTSet(&timers[id], rtb_chibios_us2i(delay_us ? delay_us : 1u), timer_tramp, (void *)(intptr_t)id);
    return RTB_OK;
}
void rtb_timer_delete(int id) { chVTReset(&timers[id]); }

/* ---- memory: an oslib memory pool of 128-byte blocks ---- */
#define MEM_BLOCK 128u
#define MEM_BLOCKS 8u
static memory_pool_t mem_pool;
static uint32_t mem_buf[MEM_BLOCKS][MEM_BLOCK / 4];
static void mem_init(void)
{
    chPoolObjectInit(&mem_pool, MEM_BLOCK, NULL);
    chPoolLoadArray(&mem_pool, mem_buf, MEM_BLOCKS);
}
void *rtb_mem_alloc(size_t bytes)
{
    if (bytes > MEM_BLOCK)
        return NULL;
    return chPoolAlloc(&mem_pool);
}
void rtb_mem_free(void *p)
{
    if (p)
        chPoolFree(&mem_pool, p);
}
