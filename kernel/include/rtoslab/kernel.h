/*
 * rtoslab kernel: the public API.
 *
 * Naming: k_ is the API; a suffix names the calling context where it is not "a thread":
 * *_isr may be called from an interrupt handler (and from a thread). Functions without the
 * suffix are for threads; a blocking one called from an interrupt returns K_EISR.
 * z_ names are the kernel's internals, arch_ the port boundary; neither is API.
 *
 * Errors are negative ints (K_E*), 0 is success. Objects may be defined statically
 * (K_*_DEFINE, no code runs) or initialised at run time in memory the caller provides
 * (k_*_init / k_thread_create). There is no heap anywhere.
 *
 * Priorities: 0 is the lowest, K_PRIO_MAX the highest; threads of equal priority run in
 * FIFO order (a thread that is preempted keeps its place, k_yield moves it to the back).
 *
 * Time: kernel time units. Tickless (K_CONFIG_TICKLESS=1, the default) counts CPU cycles;
 * the periodic-tick build counts ticks. Use K_USEC/K_MSEC/K_CYCLES to write durations
 * portably. Durations are at most K_TIMEOUT_MAX units; K_FOREVER waits without limit.
 */
#ifndef RTOSLAB_KERNEL_H
#define RTOSLAB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "rtoslab/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RTOSLAB_KERNEL_VERSION "0.1.0"

/* ---- Error codes ------------------------------------------------------------------------ */

#define K_OK          0
#define K_EINVAL     (-1)  /* NULL, foreign or uninitialised object; bad argument */
#define K_ETIMEDOUT  (-2)  /* the timeout expired before the wait was satisfied */
#define K_EAGAIN     (-3)  /* K_NO_WAIT and the call would have blocked */
#define K_EDEADLK    (-4)  /* the mutex lock would close a wait-for cycle */
#define K_EPERM      (-5)  /* the caller does not own the mutex */
#define K_EISR       (-6)  /* a blocking (thread-only) call made from an interrupt */
#define K_EOVERFLOW  (-7)  /* semaphore count at its limit */
#define K_ESTATE     (-8)  /* the thread is not in a state that allows it */
#define K_EDESTROYED (-9)  /* the object was destroyed while the caller waited on it */
#define K_ESTACK     (-10) /* stack overflow (reported to k_fatal only) */
#define K_EASSERT    (-11) /* internal assertion (reported to k_fatal only) */
#define K_EBUSY      (-12) /* (re)initialising an object in use (waiters, or a locked mutex) */
#define K_EMASKED    (-13) /* a call that would block (or sleep) made with interrupts masked */

/* ---- Time ------------------------------------------------------------------------------- */

typedef uint32_t k_timeout_t; /* a duration in kernel time units */

#define K_NO_WAIT ((k_timeout_t)0)
#define K_FOREVER ((k_timeout_t)0xFFFFFFFFu)
#define K_TIMEOUT_MAX ((k_timeout_t)0x3FFFFFFFu)

#if K_CONFIG_TICKLESS
#define K_TIME_HZ K_CONFIG_CLOCK_HZ
#else
#define K_TIME_HZ K_CONFIG_TICK_HZ
#endif

/* Conversions, rounded up (a duration is never shortened). When the time unit divides
 * evenly (tickless at a whole number of MHz), a conversion is one 32-bit multiply. */
#define K_CYCLES(c) ((k_timeout_t)(((uint64_t)(c) * K_TIME_HZ + K_CONFIG_CLOCK_HZ - 1u) / K_CONFIG_CLOCK_HZ))
#define K_USEC(us)                                                                          \
    ((K_TIME_HZ % 1000000u) == 0u ? (k_timeout_t)((uint32_t)(us) * (K_TIME_HZ / 1000000u)) \
                                  : (k_timeout_t)(((uint64_t)(us) * K_TIME_HZ + 999999u) / 1000000u))
#define K_MSEC(ms)                                                                    \
    ((K_TIME_HZ % 1000u) == 0u ? (k_timeout_t)((uint32_t)(ms) * (K_TIME_HZ / 1000u)) \
                               : (k_timeout_t)(((uint64_t)(ms) * K_TIME_HZ + 999u) / 1000u))

/* The current kernel time (wraps around; compare with (int32_t)(a - b)). Any context. */
uint32_t k_now(void);

/* ---- Threads ---------------------------------------------------------------------------- */

#define K_PRIO_MAX (K_CONFIG_PRIO_LEVELS - 1)
#define K_PRIO_MIN 0

typedef void (*k_entry_t)(void *arg);

/* Thread control block. Fields are private (z_); the port's assembly uses their offsets
 * (kernel/src/offsets.h, checked at compile time). 24 bytes in the minimal build, 28 with
 * wait timeouts or mutexes. */
struct k_thread {
    uint32_t z_sp;             /* saved stack pointer; bit 0 set: saved by an exception */
    struct k_thread *z_next;   /* ready ring (or list) or wait queue */
#if K_CONFIG_STACK_CHECK
    uint32_t z_lim;            /* lowest address of the stack: holds the guard word */
#endif
#if Z_HAS_WAIT_OBJ
    union {
        void *obj;             /* while blocked: the object waited on */
        int result;            /* once woken: the result of the wait */
    } z_wait;
#endif
    struct k_thread *z_tnext;  /* timeout list */
    uint32_t z_wake;           /* expiry time while in the timeout list (time.c); while
                                  receiving from a queue without timeout: where to put the item */
    uint8_t z_prio;            /* effective priority */
    uint8_t z_state;           /* Z_STATE_*: high nibble is a validity mark */
    uint8_t z_base;            /* priority set by the application (before inheritance) */
    uint8_t z_pad;             /* (K_CONFIG_EVENT: the options of an event wait) */
#if K_CONFIG_EVENT
    uint32_t z_evbits;         /* waiting on an event: the bits it waits for; once woken:
                                  the bits that satisfied the wait */
#endif
};

/* Stack storage: 8-byte aligned, size in bytes (rounded up to 8). */
#define K_THREAD_STACK_DEFINE(name, bytes) \
    uint64_t name[((bytes) + 7u) / 8u] __attribute__((aligned(8)))

/* Smallest useful stack: the switch frame (exception frame + 8 saved registers) and the
 * guard word, with room for a few calls. */
#define K_THREAD_STACK_MIN 128u

/*
 * Create a thread in caller-provided memory: `t` and the stack (`stack`, `stack_bytes`).
 * The thread is ready at once; created by a running thread with a higher priority, it
 * preempts the creator. Before k_start() it just becomes ready.
 * Returns 0, or K_EINVAL (NULL pointer, stack too small, priority out of range, `t` already
 * a live thread).
 */
int k_thread_create(struct k_thread *t, void *stack, size_t stack_bytes, k_entry_t entry,
                    void *arg, unsigned prio);

/* Static definition: storage at compile time, created and started by k_start(). */
struct z_thread_def {
    struct k_thread *thread;
    void *stack;
    uint32_t stack_bytes;
    k_entry_t entry;
    void *arg;
    uint32_t prio;
};
#define K_THREAD_DEFINE(name, stack_bytes, entry, arg, prio)                                  \
    static K_THREAD_STACK_DEFINE(name##_stack, stack_bytes);                                  \
    struct k_thread name;                                                                     \
    static const struct z_thread_def z_tdef_##name                                            \
        __attribute__((section("k_thread_defs"), used, aligned(4))) = {                       \
            &name, name##_stack, sizeof(name##_stack), (entry), (void *)(arg), (prio)}

/* Start multitasking: create the K_THREAD_DEFINE threads, start the time source and run
 * the highest-priority thread. main()'s stack becomes the interrupt stack. Never returns. */
void k_start(void) __attribute__((noreturn));

/* The running thread (NULL before k_start; in an interrupt that came while the CPU idled,
 * the thread that ran last, or NULL in the footprint build: config.h, Z_IDLE_NO_CURRENT).
 * Any context. */
struct k_thread *k_thread_self(void);

/* Nonzero when called from an interrupt handler. */
int k_in_isr(void);

/* Move the calling thread behind the other ready threads of its priority. */
void k_yield(void);

/* Block the calling thread for `duration` (K_NO_WAIT: yield; without K_CONFIG_SLEEP_YIELD,
 * config.h, it returns at once). Returns 0, or K_EISR. */
int k_sleep(k_timeout_t duration);

/* Block until the kernel time `deadline` (absolute, as from k_now()). For periodic work:
 * next += period; k_sleep_until(next). A deadline already past returns at once. */
int k_sleep_until(uint32_t deadline);

/* Suspend a ready or running thread (K_ESTATE if it is blocked, suspended or dead);
 * suspending oneself switches away at once. Resume makes it ready again (K_ESTATE if it
 * was not suspended). k_thread_resume_isr may be called from interrupts. */
int k_thread_suspend(struct k_thread *t);
int k_thread_resume(struct k_thread *t);
int k_thread_resume_isr(struct k_thread *t);

/* Set the base priority of `t` (NULL: the caller). The effective priority stays at least
 * the priority inherited through mutexes. May preempt the caller. */
int k_thread_prio_set(struct k_thread *t, unsigned prio);
/* Effective priority of `t` (NULL: the caller), or K_EINVAL. */
int k_thread_prio_get(const struct k_thread *t);

/* End the calling thread. Contended mutexes it still holds pass to their waiters (an
 * uncontended one is taken over by its next locker). Never returns. */
void k_thread_exit(void) __attribute__((noreturn));

/* End another thread, whatever it is doing (ready, blocked, sleeping, suspended); with
 * t == NULL or the caller, the same as k_thread_exit. Its memory may then be reused by
 * k_thread_create. 0, K_ESTATE (already dead; or, in a build without wait timeouts, mutexes
 * and destroy, waiting on an object or forever: such a thread does not record where it
 * waits), K_EINVAL, K_EISR. */
int k_thread_abort(struct k_thread *t);

/* The state of `t`: K_THREAD_READY (ready or running), K_THREAD_BLOCKED (waiting on an
 * object or sleeping), K_THREAD_SUSPENDED, K_THREAD_DEAD (ended: exit or abort); K_EINVAL
 * for memory that never held a thread. Any context (kernel/src/info.c). */
#define K_THREAD_READY 1
#define K_THREAD_BLOCKED 2
#define K_THREAD_SUSPENDED 3
#define K_THREAD_DEAD 4
int k_thread_state(const struct k_thread *t);

/* End the wait or sleep of the blocked thread `t` now, as if its timeout had expired: a wait
 * on an object returns K_ETIMEDOUT, a sleep returns 0 (a thread that is not blocked:
 * K_ESTATE). Any context (kernel/src/wake.c). */
int k_thread_wake(struct k_thread *t);

/* The earliest kernel time at which a timeout or a timer falls due: 1 and `*at` (may be
 * NULL), or 0 when nothing is due (for a power manager, or CMSIS-RTOS2's osKernelSuspend).
 * Any context (kernel/src/info.c). */
int k_next_expiry(uint32_t *at);

/* ---- Fatal errors ----------------------------------------------------------------------- */

/* Called with interrupts disabled on a stack overflow (K_ESTACK, `t` the thread) or a
 * failed assertion (K_EASSERT). Weak: the default prints one line on the console and ends
 * the run with status 3. An application may define its own; it must not return. */
void k_fatal(int err, struct k_thread *t) __attribute__((noreturn));

/* ---- Counting semaphores ---------------------------------------------------------------- */

struct k_sem {
    struct k_thread *z_waitq; /* waiters, highest priority first, FIFO among equals */
    uint16_t z_count;
    uint8_t z_type;
    uint8_t z_limit;          /* largest count, 1..255; 0 means 65535 */
};

#define Z_OBJ_SEM 0xA5u
#define Z_OBJ_MUTEX 0xA6u
#define Z_OBJ_QUEUE 0xA7u
#define Z_OBJ_TIMER 0xA8u
#define Z_OBJ_MEMPOOL 0xA9u
#define Z_OBJ_EVENT 0xAAu

/* limit: 1 for a binary semaphore, 0 for the widest (65535), else 2..255. */
#define K_SEM_INITIALIZER(initial, limit) {NULL, (initial), Z_OBJ_SEM, (limit)}
#define K_SEM_DEFINE(name, initial, limit) struct k_sem name = K_SEM_INITIALIZER(initial, limit)

/* 0, K_EINVAL, or K_EBUSY (it has waiters: nothing changes; destroy it first). */
int k_sem_init(struct k_sem *s, unsigned initial, unsigned limit);
/* Take one unit, waiting at most `timeout`. 0, K_EAGAIN (K_NO_WAIT), K_ETIMEDOUT, K_EISR,
 * K_EDESTROYED, K_EINVAL. */
int k_sem_wait(struct k_sem *s, k_timeout_t timeout);
/* Give one unit: wakes the highest-priority waiter (and switches to it at once if it has a
 * higher priority than the caller). 0, K_EOVERFLOW, K_EINVAL. */
int k_sem_signal(struct k_sem *s);
int k_sem_signal_isr(struct k_sem *s); /* from interrupts: the switch happens on return */
/* The same, only from an interrupt handler that runs with interrupts enabled (PRIMASK
 * clear, as every handler the kernel or the board installs): it masks and unmasks instead of
 * saving PRIMASK (7 cycles less on ARMv6-M). Checked with K_CONFIG_ASSERT. */
int k_sem_signal_irq(struct k_sem *s);
int k_sem_count(const struct k_sem *s);
/* Wake every waiter with K_EDESTROYED and invalidate the object. */
int k_sem_destroy(struct k_sem *s);

/* ---- Mutexes ---------------------------------------------------------------------------- */

/* Owned, not recursive, with transitive priority inheritance; a lock that would close a
 * wait-for cycle (including locking one's own mutex again) returns K_EDEADLK. Threads only:
 * from an interrupt, lock and unlock return K_EISR and change nothing. Before k_start(),
 * main() may lock and unlock (as an owner of its own); a mutex it still holds at k_start()
 * is taken over by its next locker. */
struct k_mutex {
    struct k_thread *z_waitq;
    uintptr_t z_owner;        /* lock word: Z_MUTEX_FREE, or the owner's address, plus
                                 Z_MUTEX_WAITERS while the wait queue is not empty; 0 when
                                 held by main() before k_start, or (z_type 0) not initialised
                                 or destroyed */
    struct k_mutex *z_cnext;  /* list of contended mutexes (non-empty wait queue) */
    uint8_t z_type;
    uint8_t z_pad[3];
};

/* The kernel state (the running thread is its first word); its address is the lock word of
 * a free mutex, which the inline calls below compare with a register they hold anyway. */
/* (the state's type is the kernel's own, kstate.h: one declaration of the symbol with one
 * type, as link-time optimisation requires; z_kernel_current is its first word) */
struct z_kernel;
extern struct z_kernel z_kernel;
#define z_kernel_current (*(struct k_thread **)&z_kernel) /* z_kernel.current */
#define Z_MUTEX_FREE ((uintptr_t)&z_kernel_current)
#define Z_MUTEX_WAITERS 2u
#define K_MUTEX_INITIALIZER {NULL, Z_MUTEX_FREE, NULL, Z_OBJ_MUTEX, {0, 0, 0}}
#define K_MUTEX_DEFINE(name) struct k_mutex name = K_MUTEX_INITIALIZER

/* 0, K_EINVAL, or K_EBUSY (locked, by a thread or main(): nothing changes). */
int k_mutex_init(struct k_mutex *m);
/* 0, K_EAGAIN, K_ETIMEDOUT, K_EDEADLK, K_EISR, K_EDESTROYED, K_EINVAL. */
int k_mutex_lock(struct k_mutex *m, k_timeout_t timeout);
/* 0, K_EPERM (not the owner), K_EISR, K_EINVAL. Ownership passes to the top waiter. */
int k_mutex_unlock(struct k_mutex *m);

/* K_EPERM if locked by another thread; waiters (if any) get K_EDESTROYED. */
int k_mutex_destroy(struct k_mutex *m);

/* The thread holding `m`, or NULL: free, held by main() before k_start, or held by a thread
 * that has ended (its next locker takes it over). Any context (kernel/src/info.c). */
struct k_thread *k_mutex_owner(const struct k_mutex *m);

/* ---- Message queues --------------------------------------------------------------------- */

/* A ring of `capacity` items of `item_size` bytes, copied in and out. */
struct k_queue {
    struct k_thread *z_waitq;  /* receivers waiting for an item */
    struct k_thread *z_swaitq; /* senders waiting for room */
    uint8_t *z_buf;
    uint16_t z_count;
    uint8_t z_type;
    uint8_t z_pad;
    uint16_t z_item;
    uint16_t z_cap;
    uint16_t z_head;
    uint16_t z_pad2;
};

#define K_QUEUE_DEFINE(name, item_size, capacity)                                             \
    static uint8_t name##_buf[(item_size) * (capacity)] __attribute__((aligned(4)));          \
    struct k_queue name = {NULL, NULL, name##_buf, 0, Z_OBJ_QUEUE, 0, (item_size), (capacity), 0, 0}

/* 0, K_EINVAL, or K_EBUSY (it has waiters: nothing changes; destroy it first). */
int k_queue_init(struct k_queue *q, void *buf, size_t item_size, size_t capacity);
/* Copy one item in (at the back) / out (from the front), waiting at most `timeout`.
 * 0, K_EAGAIN, K_ETIMEDOUT, K_EISR, K_EDESTROYED, K_EINVAL; K_ESTATE if it would wait
 * before k_start(). */
int k_queue_send(struct k_queue *q, const void *item, k_timeout_t timeout);
int k_queue_recv(struct k_queue *q, void *item, k_timeout_t timeout);
/* From interrupts (never wait): 0, K_EAGAIN, K_EINVAL. */
int k_queue_send_isr(struct k_queue *q, const void *item);
int k_queue_recv_isr(struct k_queue *q, void *item);
int k_queue_count(const struct k_queue *q);
int k_queue_destroy(struct k_queue *q);

/* ---- Software timers -------------------------------------------------------------------- */

struct k_timer;
/* Runs in interrupt context (the time source's interrupt): use the *_isr calls only. */
typedef void (*k_timer_fn)(struct k_timer *timer, void *arg);

struct k_timer {
    struct k_timer *z_next;
    uint32_t z_at;            /* next expiry (kernel time) */
    k_timeout_t z_period;     /* 0: one-shot */
    k_timer_fn z_fn;
    void *z_arg;
    uint8_t z_type;
    uint8_t z_active;
    uint8_t z_pad[2];
};

#define K_TIMER_INITIALIZER(fn, arg) {NULL, 0, 0, (fn), (arg), Z_OBJ_TIMER, 0, {0, 0}}
#define K_TIMER_DEFINE(name, fn, arg) struct k_timer name = K_TIMER_INITIALIZER(fn, arg)

/* A running timer is stopped first (it does not fire until started again). 0 or K_EINVAL. */
int k_timer_init(struct k_timer *t, k_timer_fn fn, void *arg);
/* (Re)start: first expiry after `delay` (K_NO_WAIT: as soon as possible), then every
 * `period` (0: one-shot). Any context. 0 or K_EINVAL. */
int k_timer_start(struct k_timer *t, k_timeout_t delay, k_timeout_t period);
/* Start at an absolute kernel time. Any context. */
int k_timer_start_at(struct k_timer *t, uint32_t at, k_timeout_t period);
/* Stop; 0 if it was running (its callback will not run), K_ESTATE if not: expired, or its
 * expiry already under way (within the board's timer lead the handler commits to the expiry
 * and waits for its cycle: the callback then runs once). Any context. */
int k_timer_stop(struct k_timer *t);

/* ---- Memory pools ------------------------------------------------------------------------ */

/* Fixed-size blocks in storage the application provides: allocation and release are O(1)
 * (a free list, and a bump index over the blocks never used yet, so that a pool needs no
 * initialisation loop) and never wait, so they work in any context, interrupts included.
 * Blocks are 4-byte aligned (the storage must be), their size a multiple of 4. */
struct k_mempool {
    void *z_free;             /* released blocks, linked through their first word */
    uint8_t *z_buf;
    uint32_t z_used;          /* bytes of z_buf handed out: the rest never were */
    uint32_t z_block;         /* block size in bytes */
    uint16_t z_count;         /* blocks in the pool (those left are counted when asked) */
    uint8_t z_shift;          /* Z_MEMPOOL_SHIFT(z_block) */
    uint8_t z_type;           /* a word's top byte: NULL's read of it (the vector table's
                               * MemManage entry, an address below 16 MiB, or 0) is no type */
};

#define Z_MEMPOOL_BLOCK(bytes) ((((bytes) < 4u ? 4u : (bytes)) + 3u) & ~3u)
/* The left shift that leaves a block's offset in the storage 0 only at the start of a block:
 * 32 - log2(size) for a power-of-two size; 0 for any other (then only the first block's
 * offset passes, and the release divides). */
#define Z_MEMPOOL_SHIFT(size) (((size) & ((size) - 1u)) ? 0u : 32u - (unsigned)__builtin_ctz(size))
/* Static definition: the pool and its storage, no code runs. */
#define K_MEMPOOL_DEFINE(name, block_size, count)                                            \
    static uint32_t name##_buf[Z_MEMPOOL_BLOCK(block_size) / 4u * (count)];                   \
    struct k_mempool name = {NULL, (uint8_t *)name##_buf, 0,                                   \
                             Z_MEMPOOL_BLOCK(block_size), (count),                             \
                             Z_MEMPOOL_SHIFT(Z_MEMPOOL_BLOCK(block_size)), Z_OBJ_MEMPOOL}

/* `count` blocks of `block_size` bytes (rounded up to a multiple of 4) in `buf` (4-byte
 * aligned, block_size * count bytes). 0, K_EINVAL, or K_EBUSY (a pool with blocks
 * allocated: nothing changes). Any context. */
int k_mempool_init(struct k_mempool *p, void *buf, size_t block_size, size_t count);
/* A block, or NULL when none is left (or `p` is not a pool). Never waits; any context. */
void *k_mempool_alloc(struct k_mempool *p);
/* Give a block back. 0, or K_EINVAL (NULL, not the start of a block this pool handed out,
 * or a block released already: a walk of the released blocks, interrupts masked). Any
 * context. */
int k_mempool_free(struct k_mempool *p, void *block);
/* Blocks left to allocate, or K_EINVAL. Counted when asked (the blocks never used and the
 * released ones, a walk of the free list with interrupts masked), so that neither
 * allocation nor release keeps a count. */
int k_mempool_avail(const struct k_mempool *p);

/* ---- Event flags ------------------------------------------------------------------------ */

#if K_CONFIG_EVENT
/* 32 flags; threads wait for any or all of a set of them. The wait queue first (the layout
 * every object shares: the kernel's timeout and abort code take it off by that address). */
struct k_event {
    struct k_thread *z_waitq; /* waiters, highest priority first, FIFO among equals */
    uint32_t z_bits;          /* the flags that are set */
    uint8_t z_type;
    uint8_t z_pad[3];
};

#define K_EVENT_ANY 0u   /* k_event_wait: any of the bits (the default) */
#define K_EVENT_ALL 1u   /* k_event_wait: all of the bits */
#define K_EVENT_CLEAR 2u /* k_event_wait: clear the bits that satisfied the wait (consume) */

#define K_EVENT_INITIALIZER(bits) {NULL, (bits), Z_OBJ_EVENT, {0, 0, 0}}
#define K_EVENT_DEFINE(name, bits) struct k_event name = K_EVENT_INITIALIZER(bits)

/* The flags `bits` set, no waiter. 0, K_EINVAL, or K_EBUSY (waiters: nothing changes). */
int k_event_init(struct k_event *e, uint32_t bits);
/* Wait until any (K_EVENT_ANY) or all (K_EVENT_ALL) of `bits` (not 0) are set; with
 * K_EVENT_CLEAR, clear those that satisfied the wait. `*got` (may be NULL) receives them
 * (the flags among `bits` that were set when the wait was satisfied). 0, K_EAGAIN
 * (K_NO_WAIT), K_ETIMEDOUT, K_EDESTROYED, K_EISR (an interrupt that would block),
 * K_ESTATE (before k_start, would block), K_EINVAL. */
int k_event_wait(struct k_event *e, uint32_t bits, unsigned options, k_timeout_t timeout,
                 uint32_t *got);
/* Set `bits` and wake, in priority order, every waiter they satisfy (a K_EVENT_CLEAR waiter
 * consumes its bits before the next one is tested). k_event_set from a thread switches to
 * a woken thread of higher priority at once; from an interrupt (or k_event_set_isr, any
 * context) the switch happens when the interrupts return. 0 or K_EINVAL. */
int k_event_set(struct k_event *e, uint32_t bits);
int k_event_set_isr(struct k_event *e, uint32_t bits);
/* Clear `bits` (wakes nobody). Any context. 0 or K_EINVAL. */
int k_event_clear(struct k_event *e, uint32_t bits);
/* The flags that are set (0 for an object that is not an event). Any context. */
uint32_t k_event_get(const struct k_event *e);
/* Waiters get K_EDESTROYED; the object is no longer an event. 0 or K_EINVAL. */
int k_event_destroy(struct k_event *e);
#endif

/* The port's inline fast paths, if it has any (kernel/arch/<arch>/include/rtoslab/
 * arch_inline.h; ARMv6-M: light calls, the uncontended mutex): definitions, in assembly, of
 * some of the calls declared above. This header has none: a port without the file gets the
 * out-of-line calls. */
#if defined(__has_include)
#if __has_include("rtoslab/arch_inline.h")
#include "rtoslab/arch_inline.h"
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif
