/*
 * The ChibiOS/NIL 4 port of the benchmark suite.
 *
 * NIL's model and how the suite's is mapped onto it:
 *
 *  - A NIL thread's priority is its slot in nil.threads[] (0 most urgent; slot
 *    CH_CFG_MAX_THREADS is the idle thread, main() after chSysInit). Priorities are unique
 *    and fixed. The port lays the slots out as a NIL application's table would be: packed,
 *    in portable priority order, equal priorities side by side in creation order (a
 *    "band"), and creates each thread in its slot with chThdCreate() (NIL 4: threads created
 *    at run time into a free slot). The controller is slot 0, test threads from slot 1.
 *    To insert a thread above others, those move down one slot (a slot holds the whole
 *    thread_t; NIL finds waiters by scanning the slots, so only nil.current/next and a
 *    suspended thread's reference need updating).
 *  - NIL has no yield and no equal priorities. rtb_yield() gives the next ready thread of the
 *    caller's band the processor with NIL's own calls: the caller parks itself
 *    (chThdSuspendTimeoutS) when another thread of its band is ready; when the last ready one
 *    yields, it resumes the parked ones (chThdResumeI); a thread about to block resumes its
 *    band's parked threads first (they are ready in the suite's model). The result is the
 *    round robin a FIFO scheduler gives; its cost is NIL's suspend/resume.
 *  - NIL has no call that ends another thread (chThdExit ends the caller). rtb_thread_delete
 *    of a blocked or ready thread does what NIL's own timeout path does to a waiter (the
 *    queue counter is given back, the reference cleared) and leaves the slot in
 *    NIL_STATE_FINAL, the state chThdExit leaves it in, where chThdCreate may reuse it.
 *  - Time: tick-less on the board's compare timer (chcore_timer.h), one system tick = one
 *    cycle. Semaphores, the ISR signal, delays and timeouts are NIL's calls; queues are
 *    oslib objects FIFOs (guarded pool + mailbox), memory blocks an oslib memory pool.
 */

#include "ch.h"

#include "bench.h"
#include "rtb_copy.h"
#include "nil_board.h"

#define NSLOT CH_CFG_MAX_THREADS /* slots 0..NSLOT-1; nil.threads[NSLOT] is idle */
#define CTRL_SLOT 0

static uint8_t slot_prio[NSLOT];         /* portable priority of the thread in a slot, 0 free */
static int8_t slot_of[RTB_MAX_THREADS];  /* thread id -> slot */
static uint16_t band[RTB_PRIO_CTRL + 1]; /* slots of each portable priority */
uint16_t rtb_nil_parked;                 /* slots parked by rtb_yield */
#define parked rtb_nil_parked
static int8_t slot_id[NSLOT];            /* slot -> thread id */

_Static_assert(RTB_MAX_THREADS + 1 == CH_CFG_MAX_THREADS, "slots: the controller and the test threads");
static thread_reference_t park_ref[NSLOT], susp_ref[NSLOT];
semaphore_t rtb_nil_sems[RTB_MAX_SEMS];
#define sems rtb_nil_sems

#define interval rtb_nil_interval

static inline __attribute__((always_inline)) unsigned cur_slot(void) { return (unsigned)(nil.current - nil.threads); }

/* Resume the parked threads of `mask` (locked). */
static void unpark_i(uint32_t mask)
{
    parked &= (uint16_t)~mask;
    for (unsigned t = 0; mask; t++, mask >>= 1)
        if (mask & 1u)
            chThdResumeI(&park_ref[t], MSG_OK);
}

/* The caller is about to block (locked): the parked threads of its band are ready again. */
void rtb_nil_unpark_band(void)
{
    uint32_t m = band[slot_prio[cur_slot()]] & parked;
    if (m)
        unpark_i(m);
}

static inline __attribute__((always_inline)) void before_block(void)
{
    if (parked)
        rtb_nil_unpark_band();
}

const char *rtb_port_absent_reason(uint32_t cap)
{
    switch (cap) {
    case RTB_CAP_PRIO_SET:
    case RTB_CAP_PRIO_SET_SELF: /* sem.signal_waiter: not even the caller's own */
        return "a NIL thread's priority is its slot in the static thread array; NIL has no call to change it";
    case RTB_CAP_MUTEX:
    case RTB_CAP_MUTEX_INHERIT:
    case RTB_CAP_MUTEX_DYNAMIC:
        return "ChibiOS/NIL has no mutexes (ch.h: CH_CFG_USE_MUTEXES \"not yet supported\"), nor does oslib";
    case RTB_CAP_TIMER:
    case RTB_CAP_TIMER_ONESHOT:
        return "ChibiOS/NIL has no software timers, periodic or one-shot: no callback timer service "
               "(its system timer only ends thread sleeps and timeouts; virtual timers, chVTSet, are "
               "ChibiOS/RT only, and oslib has none)";
    default:
        return "not provided by ChibiOS/NIL";
    }
}

void rtb_port_config(void)
{
    bench_config("kernel", "ChibiOS/NIL " CH_KERNEL_VERSION " (stable_21.11.x 78a2ddd), ports/" RTB_NIL_PORT ", oslib mempools+mailboxes+objects FIFOs");
    bench_config("tickless", "yes (CH_CFG_ST_TIMEDELTA 2, board compare timer, 32-bit)");
    bench_config_u("time_hz", CH_CFG_ST_FREQUENCY);
    bench_config("tick_hz", "none (tick-less)");
    bench_config("assertions", "off (all CH_DBG_* FALSE)");
    bench_config("preemption", "on (fixed unique priorities: slot order)");
    bench_config("time_slicing", "none in NIL; rtb_yield = round robin in a priority band by chThdSuspendTimeoutS/chThdResumeI");
    bench_config("mutex", "none (NIL has no mutexes)");
    bench_config("allocation", "static: threads in suite memory, thread slots in nil.threads[], queues objects FIFOs in port tables, memory pool of 128-byte blocks");
    bench_config("threads", "chThdCreate into a free slot; delete = slot put in NIL_STATE_FINAL (no NIL call ends another thread)");
    bench_config("timer_context", "none (no software timers)");
    bench_config("isr_api", "CH_IRQ_PROLOGUE/EPILOGUE + chSysLockFromISR; chSemSignalI; chSysUnlockFromISR (switch: return into __port_switch_from_isr, NMI unwinds)");
    bench_config("delay_rounding", "us * cycles-per-us system ticks (exact), at least CH_CFG_ST_TIMEDELTA");
    bench_config("sem_max", "not enforced (NIL semaphores are unbounded counters)");
    bench_config("idle", "main() after chSysInit: WFI loop");
    bench_config_u("alarm_irq_prio", RTB_NIL_ALARM_PRIO);
    bench_config_u("max_threads", CH_CFG_MAX_THREADS);
    bench_config("port_calls", "inline (rtb_port_inline.h): sem wait/signal/signal_isr");
}

/* ---- start: main() becomes NIL's idle thread on the process stack ---- */
static rtb_entry_t ctrl_fn;
static void *ctrl_stack;
static size_t ctrl_bytes;
static stkalign_t idle_stack[32];

static thread_t *create_in_slot(unsigned slot, rtb_entry_t fn, void *arg, void *stack, size_t bytes)
{
    thread_descriptor_t td = {
        .name = "t",
        .wbase = (stkalign_t *)stack,
        .wend = (stkalign_t *)((uint8_t *)stack + (bytes & ~(size_t)7u)),
        .prio = (tprio_t)slot,
        .funcp = fn,
        .arg = arg,
    };
    return chThdCreate(&td);
}

static void boot(void)
{
    slot_prio[CTRL_SLOT] = RTB_PRIO_CTRL;
    band[RTB_PRIO_CTRL] = 1u << CTRL_SLOT;
    create_in_slot(CTRL_SLOT, ctrl_fn, 0, ctrl_stack, ctrl_bytes);
}

void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes)
{
    ctrl_fn = main_fn;
    ctrl_stack = stack;
    ctrl_bytes = stack_bytes;
    for (int i = 0; i < RTB_MAX_THREADS; i++)
        slot_of[i] = -1;
    for (int i = 0; i < NSLOT; i++)
        slot_id[i] = -1;
    rtb_nil_run(idle_stack, sizeof idle_stack, boot);
}

/* ---- threads ---- */

#define FIRST_SLOT 1 /* test threads from slot 1 (the controller is slot 0) */

/* Move a thread to a free slot (locked). Nothing in NIL refers to a thread by address but
 * nil.current / nil.next and, for a suspended thread, its reference variable (u1.trp):
 * waiters on queues and semaphores are found by scanning the slots, the saved context is on
 * the thread's own stack, a timeout is in the slot. */
static void move_slot(int from, int to)
{
    int p = slot_prio[from], id = slot_id[from];
    thread_t *ftp = &nil.threads[from], *ttp = &nil.threads[to];
    *ttp = *ftp;
    ftp->state = NIL_STATE_WTSTART;
    ftp->timeout = (sysinterval_t)0;
    if (NIL_THD_IS_SUSPENDED(ttp) && *ttp->u1.trp == ftp)
        *ttp->u1.trp = ttp;
    if (nil.current == ftp)
        nil.current = ttp;
    if (nil.next == ftp)
        nil.next = ttp;
    slot_prio[to] = (uint8_t)p;
    slot_prio[from] = 0;
    band[p] = (uint16_t)((band[p] & ~(1u << from)) | (1u << to));
    if (parked & (1u << from))
        parked = (uint16_t)((parked & ~(1u << from)) | (1u << to));
    park_ref[to] = park_ref[from];
    susp_ref[to] = susp_ref[from];
    if (park_ref[to] == ftp)
        park_ref[to] = ttp;
    if (susp_ref[to] == ftp)
        susp_ref[to] = ttp;
    park_ref[from] = susp_ref[from] = NULL;
    slot_id[to] = (int8_t)id;
    slot_id[from] = -1;
    slot_of[id] = (int8_t)to;
}

/* A slot for a new thread of portable priority p (locked), as a NIL application lays out
 * its table: packed from slot 1, in priority order, equal priorities in creation order. The
 * slot after every thread of priority >= p; the threads below it move down one slot to make
 * room. -1 if the table is full. */
static int alloc_slot(int p)
{
    int pos = FIRST_SLOT;
    for (int s = 0; s < NSLOT; s++)
        if (slot_prio[s] >= p && s + 1 > pos)
            pos = s + 1;
    if (pos >= NSLOT)
        return -1;
    int f = pos;
    while (f < NSLOT && slot_prio[f])
        f++;
    if (f >= NSLOT)
        return -1;
    for (int j = f - 1; j >= pos; j--)
        move_slot(j, j + 1);
    return pos;
}

int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes)
{
    if (id < 0 || id >= RTB_MAX_THREADS || prio < 1 || prio > RTB_PRIO_MAX || stack_bytes < 128u)
        return RTB_ERROR;
    chSysLock();
    int s = alloc_slot(prio);
    if (s >= 0) {
        slot_prio[s] = (uint8_t)prio;
        band[prio] |= (uint16_t)(1u << s);
        slot_of[id] = (int8_t)s;
        slot_id[s] = (int8_t)id;
        park_ref[s] = susp_ref[s] = NULL;
    }
    chSysUnlock();
    if (s < 0)
        return RTB_ERROR;
    create_in_slot((unsigned)s, fn, arg, stack, stack_bytes);
    return RTB_OK;
}

void rtb_thread_delete(int id)
{
    int s = slot_of[id];
    if (s < 0)
        return;
    thread_t *tp = &nil.threads[s];
    chSysLock();
    if (NIL_THD_IS_WTQUEUE(tp))
        tp->u1.tqp->cnt++; /* as chSysTimerHandlerI does for a waiter that times out */
    else if (NIL_THD_IS_SUSPENDED(tp))
        *tp->u1.trp = NULL;
    tp->timeout = (sysinterval_t)0;
    tp->state = NIL_STATE_FINAL;
    parked &= (uint16_t)~(1u << s);
    band[slot_prio[s]] &= (uint16_t)~(1u << s);
    slot_prio[s] = 0;
    slot_of[id] = -1;
    slot_id[s] = -1;
    chSysUnlock();
}

void rtb_yield(void)
{
    chSysLock();
    unsigned s = cur_slot();
    uint32_t peers = band[slot_prio[s]] & ~(1u << s);
    /* Another ready thread of the band that is not parked: the caller runs, so every more
     * urgent slot is not ready: look below it only. */
    uint32_t m = (peers & ~(uint32_t)parked) >> (s + 1);
    for (thread_t *tp = nil.current + 1; m; tp++, m >>= 1)
        if ((m & 1u) && NIL_THD_IS_READY(tp)) {
            parked |= (uint16_t)(1u << s);
            (void)chThdSuspendTimeoutS(&park_ref[s], TIME_INFINITE);
            chSysUnlock();
            return;
        }
    if (peers & parked) { /* the last ready one: the parked ones are next, in slot order */
        unpark_i(peers & parked);
        chSchRescheduleS();
    }
    chSysUnlock();
}

void rtb_suspend(int id)
{
    if (id != RTB_SELF) /* NIL suspends only the caller; the suite suspends only itself */
        return;
    chSysLock();
    before_block();
    (void)chThdSuspendTimeoutS(&susp_ref[cur_slot()], TIME_INFINITE);
    chSysUnlock();
}

void rtb_resume(int id)
{
    int s = slot_of[id];
    if (s < 0)
        return;
    chThdResume(&susp_ref[s], MSG_OK);
}

void rtb_prio_set(int id, int prio)
{
    (void)id;
    (void)prio;
}

/* ---- semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max)
{
    (void)max;
    chSemObjectInit(&sems[id], (cnt_t)initial);
    return RTB_OK;
}
void rtb_sem_delete(int id) { (void)id; }

/* rtb_sem_wait, rtb_sem_signal, rtb_sem_signal_isr: inline (rtb_port_inline.h). */

/* ---- mutexes: none in NIL (capability off) ---- */
int rtb_mutex_create(int id)
{
    (void)id;
    return RTB_ERROR;
}
void rtb_mutex_delete(int id) { (void)id; }
int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    (void)id;
    (void)timeout_us;
    return RTB_ERROR;
}
void rtb_mutex_unlock(int id) { (void)id; }

/* ---- queues: oslib objects FIFOs (a guarded pool of message buffers + a mailbox) ---- */
#define Q_BYTES 128
#define Q_DEPTH 16
static struct {
    objects_fifo_t f;
    size_t size;
    msg_t msgs[Q_DEPTH];
    uint32_t objs[Q_BYTES / 4];
} queues[RTB_MAX_QUEUES];

int rtb_queue_create(int id, size_t msg_bytes, unsigned depth)
{
    size_t sz = (msg_bytes + 3u) & ~(size_t)3u;
    if (sz < sizeof(void *))
        sz = sizeof(void *);
    if (depth == 0 || depth > Q_DEPTH || sz * depth > Q_BYTES)
        return RTB_ERROR;
    queues[id].size = msg_bytes;
    chFifoObjectInit(&queues[id].f, sz, depth, queues[id].objs, queues[id].msgs);
    return RTB_OK;
}
void rtb_queue_delete(int id) { (void)id; }

int rtb_queue_send(int id, const void *msg, uint32_t timeout_us)
{
    objects_fifo_t *f = &queues[id].f;
    chSysLock();
    if (timeout_us != 0 && chGuardedPoolGetCounterI(&f->free) <= 0)
        before_block();
    void *o = chFifoTakeObjectTimeoutS(f, interval(timeout_us));
    if (o == NULL) {
        chSysUnlock();
        return RTB_TIMEOUT;
    }
    rtb_copy(o, msg, queues[id].size);
    chFifoSendObjectS(f, o);
    chSysUnlock();
    return RTB_OK;
}

int rtb_queue_recv(int id, void *msg, uint32_t timeout_us)
{
    objects_fifo_t *f = &queues[id].f;
    void *o;
    chSysLock();
    if (timeout_us != 0 && chMBGetUsedCountI(&f->mbx) == 0)
        before_block();
    msg_t m = chFifoReceiveObjectTimeoutS(f, &o, interval(timeout_us));
    if (m != MSG_OK) {
        chSysUnlock();
        return RTB_TIMEOUT;
    }
    rtb_copy(msg, o, queues[id].size);
    chFifoReturnObjectS(f, o);
    chSysUnlock();
    return RTB_OK;
}

/* ---- time ---- */
void rtb_delay_us(uint32_t us)
{
    if (us == 0)
        return;
    chSysLock();
    before_block();
    chThdSleepS(interval(us));
    chSysUnlock();
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

/* ---- memory: an oslib memory pool of 128-byte blocks ---- */
#define MEM_BLOCKS 2
static memory_pool_t mem_pool;
static uint32_t mem_buf[MEM_BLOCKS][128 / 4];
static bool mem_ready;

void *rtb_mem_alloc(size_t bytes)
{
    if (!mem_ready) {
        chPoolObjectInit(&mem_pool, 128, NULL);
        chPoolLoadArray(&mem_pool, mem_buf, MEM_BLOCKS);
        mem_ready = true;
    }
    if (bytes > 128)
        return NULL;
    return chPoolAlloc(&mem_pool);
}
void rtb_mem_free(void *p) { chPoolFree(&mem_pool, p); }
