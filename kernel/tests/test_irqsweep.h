/*
 * What the interrupt sweep's harness (test_irqsweep.c) and its paths (test_irqsweep_paths.c)
 * share.
 */
#ifndef TEST_IRQSWEEP_H
#define TEST_IRQSWEEP_H

#include "ktest.h"
#include "kernel_internal.h" /* the invariant checks read the kernel's structures */

#define DRV 2
#define NT 4

/* ---- the harness's (test_irqsweep.c) ---- */
extern struct k_thread th[NT];
extern struct k_thread driver_thread; /* the sweep's own thread (priority DRV) */
extern volatile uint32_t cur_n;  /* the arrival offset of the run in progress */

void inv_fail(int line);
#define INV(c)                  \
    do {                        \
        if (!(c))               \
            inv_fail(__LINE__); \
    } while (0)

void spawn(int i, k_entry_t fn, unsigned prio); /* (paints the stack: stack_check) */
void cleanup(void);                               /* abort every thread spawned */
void isr_set(void (*fn)(void));                   /* the interrupt's work (NULL: none) */
unsigned inv_count(void);                         /* invariants failed so far */
void inv_path(const char *name);                  /* what inv_fail names */
/* Every thread's stack high-water mark within its budget; the driver's SP where it was. */
void stack_check(void);
/* Let an interrupt armed for later than the path's end arrive (and its work finish). */
void await_isr(void);

/* ---- the paths' (test_irqsweep_paths.c) ---- */
struct path {
    const char *name;
    void (*setup)(void);
    void (*run)(void);
    void (*isr)(void);
    void (*check)(void);
    int32_t window; /* 0: from the start past the end; else arrivals from `from` on, this many */
    int32_t from;   /* (relative to the start of run, or to the timed wait's deadline) */
};

extern const struct path paths[];
/* the storms (test_irqsweep_storm.c): periodic arrivals; returns the arrivals taken */
uint32_t irq_storms(void);
extern const unsigned n_paths;

/* what the harness resets before each run */
extern volatile int wakes, side_runs, given, taken, res_w, res_h;
/* the timed wait's path: its arrivals are around its deadline, w0 + TW */
#define TW K_USEC(100)
extern volatile uint32_t w0;
void p_tw_run(void);

#endif
