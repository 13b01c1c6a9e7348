/*
 * rtb_port.h - the porting layer of the rtoslab benchmark suite.
 *
 * Everything a benchmark needs from an RTOS goes through these functions. A port is one
 * directory bench/ports/<id>/ with a port.c implementing them and an rtb_port_caps.h that
 * says which services exist (RTB_CAPS) and why the others do not. The tests never call an
 * RTOS directly, so one test source measures every RTOS the same way. See docs/porting.md.
 *
 * Objects are named by small integers (thread 0..RTB_MAX_THREADS-1, semaphore 0..RTB_MAX_SEMS-1,
 * ...); the port keeps its handles in static tables indexed by them. Priorities are portable:
 * 1 (least urgent test thread) .. RTB_PRIO_MAX (most urgent); RTB_PRIO_CTRL is the controller
 * thread, above every test thread. The port maps them onto its own scale.
 *
 * Time arguments are microseconds; RTB_FOREVER waits without limit, 0 polls.
 */
#ifndef RTB_PORT_H
#define RTB_PORT_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "rtb_port_caps.h" /* from the port: RTB_CAPS, RTB_PORT_ID, RTB_PORT_VERSION */

#ifndef RTB_MAX_THREADS
#define RTB_MAX_THREADS 40
#endif
#define RTB_MAX_SEMS 40
#define RTB_MAX_MUTEXES 4
#define RTB_MAX_QUEUES 2
#define RTB_MAX_TIMERS 2

#define RTB_PRIO_MAX 8
#define RTB_PRIO_CTRL 9
#define RTB_SELF (-1)
#define RTB_FOREVER 0xFFFFFFFFu
#define RTB_OK 0
#define RTB_TIMEOUT 1
#define RTB_DEADLOCK 2 /* rtb_mutex_lock: the kernel refused a lock that would close a wait cycle */
#define RTB_ERROR (-1)

/* Capability bits: a service the port lacks is reported `@absent` with the port's reason. */
#define RTB_CAP_SUSPEND        (1u << 0)  /* rtb_suspend / rtb_resume of any thread */
#define RTB_CAP_PRIO_SET       (1u << 1)  /* rtb_prio_set of any thread */
#define RTB_CAP_THREAD_DYNAMIC (1u << 2)  /* create and delete threads while running */
#define RTB_CAP_MUTEX          (1u << 3)  /* rtb_mutex_* */
#define RTB_CAP_MUTEX_INHERIT  (1u << 4)  /* mutexes use priority inheritance */
#define RTB_CAP_MUTEX_DYNAMIC  (1u << 5)  /* create and delete mutexes at run time */
#define RTB_CAP_QUEUE          (1u << 6)  /* rtb_queue_* */
#define RTB_CAP_DELAY          (1u << 7)  /* rtb_delay_us and timeouts */
#define RTB_CAP_TIMER          (1u << 8)  /* rtb_timer_* (software timers) */
#define RTB_CAP_MEM            (1u << 9)  /* rtb_mem_alloc / rtb_mem_free */
#define RTB_CAP_IRQ            (1u << 10) /* interrupts (rtb_irq_install, ISR signalling) */
#define RTB_CAP_TIMEOUT        (1u << 11) /* rtb_sem_wait / rtb_queue_* with a finite timeout */
/* Finer bits (docs/porting.md, "Capabilities"). A port that has the general service sets
 * the narrower one too (RTB_CAPS_ALL: everything). */
#define RTB_CAP_MUTEX_TIMEOUT  (1u << 12) /* rtb_mutex_lock with a finite timeout; without it only
                                           * RTB_FOREVER and 0 (try) are valid, others RTB_ERROR */
#define RTB_CAP_SUSPEND_SELF   (1u << 13) /* rtb_suspend(RTB_SELF), and rtb_resume of a thread that
                                           * suspended itself (a no-op for any other thread) */
#define RTB_CAP_PRIO_SET_SELF  (1u << 14) /* rtb_prio_set(RTB_SELF, prio) */
#define RTB_CAP_TIMER_ONESHOT  (1u << 15) /* rtb_timer_once: a one-shot software timer */
#define RTB_CAP_THREADS        (1u << 16) /* threads that block inside C functions: see below */
#define RTB_CAPS_ALL           0x1FFFFu

/* A port whose RTOS has no thread the porting layer can block in (a cooperative, stackless
 * RTOS such as Contiki-NG's protothreads) defines RTB_PORT_NO_THREADS in its rtb_port_caps.h.
 * The framework (bench_core.c) then runs no standard test that needs a thread: it measures
 * boot.first_thread and overhead.probe, calls rtb_port_own_tests() from main's context (the
 * port measures there, with the framework's bench_begin/bench_sample/bench_end, whatever its
 * RTOS can do: its own metric ids, and standard ids whose definition it can meet), then
 * reports every standard metric and check the port did not report `@absent` with
 * rtb_port_absent_reason(RTB_CAP_THREADS). The port's rtb_port_start calls `main_fn` in
 * main's context once its RTOS is initialised. Other ports are unaffected. */
#if defined(RTB_PORT_NO_THREADS)
void rtb_port_own_tests(int checks_only); /* checks_only: the check-<rtos> image */
#endif

/* The services a port has: its RTB_CAPS, plus the narrower bits its general ones imply
 * (suspending any thread covers suspending oneself; so for a priority change). */
#define RTB_CAPS_HELD                                                                        \
    (RTB_CAPS | ((RTB_CAPS & RTB_CAP_SUSPEND) ? RTB_CAP_SUSPEND_SELF : 0u) |                  \
     ((RTB_CAPS & RTB_CAP_PRIO_SET) ? RTB_CAP_PRIO_SET_SELF : 0u))

/* Is a service present? Constant-folded: a test for a missing service is compiled out. */
#define RTB_HAS(cap) ((RTB_CAPS_HELD & (cap)) != 0)

/* Optional inline hot calls (docs/porting.md, "Inline hot calls"): a port whose
 * rtb_port_caps.h defines RTB_PORT_INLINE provides rtb_port_inline.h, included here, with
 * `static inline` definitions of some of the calls below; for each one it defines
 * RTB_INLINE_<call> (e.g. RTB_INLINE_rtb_yield), which skips the out-of-line declaration
 * (the port then has no out-of-line definition of that call). Any port may use it. */
#if defined(RTB_PORT_INLINE)
#include "rtb_port_inline.h"
#endif

/* ---- the port's identity and configuration ---- */
const char *rtb_port_absent_reason(uint32_t cap); /* why `cap` is missing (never NULL) */
void rtb_port_config(void);                      /* emits @config lines through bench_config() */
/* Start the RTOS with one thread, the controller, at RTB_PRIO_CTRL running `main_fn`. */
void rtb_port_start(void (*main_fn)(void *), void *stack, size_t stack_bytes) __attribute__((noreturn));

/* ---- threads ---- */
typedef void (*rtb_entry_t)(void *arg);
/* Create thread `id` ready to run at `prio` on the given stack (the suite owns the memory). A
 * thread function must not return: test threads end by blocking and are deleted by the
 * controller. Returns RTB_OK or RTB_ERROR. */
int rtb_thread_create(int id, int prio, rtb_entry_t fn, void *arg, void *stack, size_t stack_bytes);
void rtb_thread_delete(int id); /* a thread that is not running (blocked or ready) */
#ifndef RTB_INLINE_rtb_yield
void rtb_yield(void);           /* let the next ready thread of equal priority run */
#endif
void rtb_suspend(int id);       /* RTB_SELF (RTB_CAP_SUSPEND_SELF) or another thread (RTB_CAP_SUSPEND) */
void rtb_resume(int id);
#ifndef RTB_INLINE_rtb_prio_set
void rtb_prio_set(int id, int prio);
#endif

/* ---- counting semaphores ---- */
int rtb_sem_create(int id, unsigned initial, unsigned max);
void rtb_sem_delete(int id);
#ifndef RTB_INLINE_rtb_sem_wait
int rtb_sem_wait(int id, uint32_t timeout_us); /* RTB_OK or RTB_TIMEOUT */
#endif
#ifndef RTB_INLINE_rtb_sem_signal
void rtb_sem_signal(int id);
#endif
#ifndef RTB_INLINE_rtb_sem_signal_isr
void rtb_sem_signal_isr(int id); /* from an ISR installed with rtb_irq_install */
#endif

/* ---- mutexes (recursive or not: the suite never locks twice) ---- */
int rtb_mutex_create(int id);
void rtb_mutex_delete(int id);
#ifndef RTB_INLINE_rtb_mutex_lock
int rtb_mutex_lock(int id, uint32_t timeout_us); /* RTB_OK, RTB_TIMEOUT or RTB_DEADLOCK; a finite
                                                  * timeout needs RTB_CAP_MUTEX_TIMEOUT */
#endif
#ifndef RTB_INLINE_rtb_mutex_unlock
void rtb_mutex_unlock(int id);
#endif

/* ---- message queues of fixed-size messages ---- */
int rtb_queue_create(int id, size_t msg_bytes, unsigned depth);
void rtb_queue_delete(int id);
#ifndef RTB_INLINE_rtb_queue_send
int rtb_queue_send(int id, const void *msg, uint32_t timeout_us);
#endif
#ifndef RTB_INLINE_rtb_queue_recv
int rtb_queue_recv(int id, void *msg, uint32_t timeout_us);
#endif

/* ---- time ---- */
void rtb_delay_us(uint32_t us); /* block the caller for at least `us` */
/* A periodic software timer: `cb` runs every `period_us` in whatever context the RTOS uses
 * for timer callbacks (documented per port in @config timer_context). */
int rtb_timer_create(int id, uint32_t period_us, void (*cb)(void *), void *arg);
void rtb_timer_start(int id);
void rtb_timer_stop(int id);
void rtb_timer_delete(int id);
/* RTB_CAP_TIMER_ONESHOT: start timer `id` (made by rtb_timer_create; its period is not used)
 * to call its callback once, `delay_us` from now, in the same context as the periodic one.
 * The port rounds as its RTOS does and says how in @config oneshot_rounding (an early call
 * is reported as such by timer.oneshot_error.*, never hidden). */
int rtb_timer_once(int id, uint32_t delay_us);

/* ---- memory blocks (Thread-Metric's memory test) ---- */
void *rtb_mem_alloc(size_t bytes);
void rtb_mem_free(void *p);

/* ---- interrupts ----
 * rtb_irq_install routes IRQ line `irq` to `isr` at NVIC priority `prio` (0 most urgent..3) and
 * enables it. Triggering is the board's: board_irq_trigger(irq) or the stimulus generator.
 *
 * The interrupt entry is the RTOS's (docs/methodology.md, "Interrupt entry"): every vector of
 * the suite is a handler written the way the RTOS requires applications to write them,
 *     void IRQn_Handler(void) { RTB_ISR_PROLOGUE(); <body>; RTB_ISR_EPILOGUE(); }
 * where the body's first statement reads the cycle counter (`now`, the end of every interrupt
 * latency) and calls the installed ISR through one table load (the suite's dispatch,
 * measured as irq.dispatch). A port whose RTOS wants code around its handlers (ChibiOS
 * CH_IRQ_PROLOGUE/EPILOGUE, FreeRTOS portYIELD_FROM_ISR, RIOT cortexm_isr_end, CoOS
 * CoEnterISR/CoExitISR) defines RTB_PORT_ISR in rtb_port_caps.h and provides rtb_port_isr.h
 * with the two macros (statements in the handler's scope: a prologue may declare a variable
 * that the epilogue uses). Without RTB_PORT_ISR both are empty. */
typedef void (*rtb_isr_t)(uint32_t now);
void rtb_irq_install(unsigned irq, unsigned prio, rtb_isr_t isr);
void rtb_irq_uninstall(unsigned irq);

/* ---- provided by the suite, for ports ---- */
void bench_config(const char *key, const char *value); /* one @config line */
void bench_config_u(const char *key, uint32_t value);
extern rtb_isr_t bench_isr_table[32]; /* the vector entries call bench_isr_table[n](now) */

#endif
