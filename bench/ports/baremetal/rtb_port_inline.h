/*
 * The baremetal floor's hot calls, inline at the call site (the RTB_PORT_INLINE hook of
 * rtb_port.h, docs/porting.md "Inline hot calls"), as rtoslab has them: the object's address
 * folds for a constant index, the calls that may switch are light calls, a semaphore's
 * counting and the uncontended mutex are a few inline instructions, and the ISR bracket is
 * nothing. The rest (blocking, switching, the uncommon cases) is in switch.S and port.c.
 * Included by rtb_port.h only.
 */
#ifndef RTB_PORT_INLINE_H
#define RTB_PORT_INLINE_H

#include <stdint.h>

/* Shared with port.c (its layouts are checked there). */
struct th;
/* lim = 0x10000 - the maximum count: count + lim carries out of 16 bits at the maximum */
struct bm_sem { uint16_t count, lim; struct th *wt; };
struct bm_mtx { struct th *owner, *wt; };
extern struct bm_sem bm_sems[RTB_MAX_SEMS];
extern struct bm_mtx bm_mtxs[RTB_MAX_MUTEXES];
struct bm_sched_s;
extern struct bm_sched_s bm_sched; /* its first word: the running thread (port.c) */
extern struct th *bm_threads[RTB_MAX_THREADS];

void bm_sem_signal_isr(struct bm_sem *s); /* assembly, port.c */

/* The calls that may switch threads are "light": a BL to switch.S's routine with every
 * register but r7 (the frame pointer at -O0, which an asm may not clobber) declared
 * clobbered, so the switch saves only r7 and the return address, and the compiler keeps
 * across the call only what the caller needs, where it chooses. With an FPU (the M4F), the
 * caller-saved s0-s15 too; the switch keeps s16-s31 of a thread that has an FP context. */
#if defined(__ARM_FP)
#define BM_FP_CLOBBERS "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
#else
#define BM_FP_CLOBBERS
#endif
#define BM_LIGHT_CLOBBERS BM_FP_CLOBBERS \
    "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

/* The inline critical sections (bm_macros.inc's BM_MASK, BM_UNMASK): CPSID/CPSIE, or on
 * ARMv7-M BASEPRI through a scratch register (0x20: bm_layout.h's BM_BASEPRI) */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define BM_ASM_MASK(r) "movs " r ", #0x20\n\tmsr basepri, " r "\n\t"
#define BM_ASM_UNMASK(r) "movs " r ", #0\n\tmsr basepri, " r "\n\t"
#define BM_ASM_UNMASK0(r) "msr basepri, " r "\n\t" /* r is 0 already */
#define BM_ASM_UNMASK_OK "movs r0, #0\n\tmsr basepri, r0\n\t" /* and r0 = 0 */
#else
#define BM_ASM_MASK(r) "cpsid i\n\t"
#define BM_ASM_UNMASK(r) "cpsie i\n\t"
#define BM_ASM_UNMASK0(r) "cpsie i\n\t"
#define BM_ASM_UNMASK_OK "cpsie i\n\tmovs r0, #0\n\t"
#endif

#define RTB_INLINE_rtb_yield 1
static inline __attribute__((always_inline)) void rtb_yield(void)
{
    __asm volatile("bl bm_yield_l" ::: "r0", "r1", BM_LIGHT_CLOBBERS);
}

#define RTB_INLINE_rtb_prio_set 1
static inline __attribute__((always_inline)) void rtb_prio_set(int id, int prio)
{
    register struct th *a0 __asm__("r0") =
        id == RTB_SELF ? *(struct th **)(void *)&bm_sched : bm_threads[id];
    register int a1 __asm__("r1") = prio;
    __asm volatile("bl bm_prio_set_l" : "+l"(a0), "+l"(a1) : : BM_LIGHT_CLOBBERS);
}

#if defined(__thumb__)
/* A semaphore's counting is inline (a unit is taken, or counted up to the maximum, in a few
 * instructions); blocking and waking are light calls of switch.S's bm_sem_wait_b and
 * bm_sem_signal_w, entered with IRQs still disabled. */
#define RTB_INLINE_rtb_sem_wait 1
static inline __attribute__((always_inline)) int rtb_sem_wait(int id, uint32_t timeout_us)
{
    register struct bm_sem *a0 __asm__("r0") = &bm_sems[id];
    register uint32_t a1 __asm__("r1") = timeout_us;
    __asm volatile(".syntax unified\n\t"
                   BM_ASM_MASK("r3")
                   "ldrh r3, [r0]\n\t"         /* count */
                   "subs r3, #1\n\t"
                   "bcc 1f\n\t"                /* (borrow: no unit) */
                   "strh r3, [r0]\n\t"
                   BM_ASM_UNMASK_OK            /* r0 = RTB_OK */
                   "b 2f\n"
                   "1:\tbl bm_sem_wait_b\n"
                   "2:"
                   : "+l"(a0), "+l"(a1)
                   :
                   : BM_LIGHT_CLOBBERS);
    return (int)(uintptr_t)a0; /* RTB_OK or RTB_TIMEOUT */
}

#define RTB_INLINE_rtb_sem_signal 1
static inline __attribute__((always_inline)) void rtb_sem_signal(int id)
{
    register struct bm_sem *a0 __asm__("r0") = &bm_sems[id];
    __asm volatile(".syntax unified\n\t"
                   BM_ASM_MASK("r3")
                   "ldr r3, [r0, #4]\n\t"      /* the waiters' tail */
                   "cmp r3, #0\n\t"
                   "bne 1f\n\t"
                   "ldr r1, [r0]\n\t"          /* lim << 16 | count */
                   "lsls r2, r1, #16\n\t"
                   "adds r2, r2, r1\n\t"       /* carry: count + lim >= 0x10000, the maximum */
                   "bcs 3f\n\t"
                   "adds r1, #1\n\t"
                   "strh r1, [r0]\n"            /* count + 1 */
                   "3:\t" BM_ASM_UNMASK("r2")
                   "b 2f\n"
                   "1:\tbl bm_sem_signal_w\n"
                   "2:"
                   : "+l"(a0)
                   :
                   : "r1", BM_LIGHT_CLOBBERS);
}
#endif

#define RTB_INLINE_rtb_sem_signal_isr 1
static inline __attribute__((always_inline)) void rtb_sem_signal_isr(int id)
{
    bm_sem_signal_isr(&bm_sems[id]);
}

#if defined(__thumb__)
/* A free mutex is taken, one nobody waits on is freed, inline (the owner cannot inherit a
 * priority through it: port.c keeps that true); anything else calls bm_mutex_*_slow (switch.S) with IRQs still disabled
 * (r0 = the mutex, r1 = the timeout; the result in r0). */
#define RTB_INLINE_rtb_mutex_lock 1
static inline __attribute__((always_inline)) int rtb_mutex_lock(int id, uint32_t timeout_us)
{
    register struct bm_mtx *a0 __asm__("r0") = &bm_mtxs[id];
    register uint32_t a1 __asm__("r1") = timeout_us;
    register struct th **a2 __asm__("r2") = (struct th **)(void *)&bm_sched;
    register int r __asm__("r3");
    __asm volatile(".syntax unified\n\t"
                   BM_ASM_MASK("r3")
                   "ldr r3, [r0]\n\t"          /* owner */
                   "cmp r3, #0\n\t"
                   "beq 1f\n\t"
                   "bl bm_mutex_lock_slow\n\t"
                   "movs r3, r0\n\t"
                   "b 2f\n"
                   "1:\tldr r1, [r2]\n\t"
                   "str r1, [r0]\n\t"          /* owner = the caller; r3 = 0 = RTB_OK */
                   BM_ASM_UNMASK0("r3") "\n"
                   "2:"
                   : "=l"(r), "+l"(a0), "+l"(a1), "+l"(a2)
                   :
                   : BM_FP_CLOBBERS "r12", "lr", "cc", "memory");
    return r;
}

#define RTB_INLINE_rtb_mutex_unlock 1
static inline __attribute__((always_inline)) void rtb_mutex_unlock(int id)
{
    register struct bm_mtx *a0 __asm__("r0") = &bm_mtxs[id];
    __asm volatile(".syntax unified\n\t"
                   BM_ASM_MASK("r1")
                   "ldr r1, [r0, #4]\n\t"      /* waiters */
                   "cmp r1, #0\n\t"
                   "bne 1f\n\t"                /* (nobody waits: the owner inherits nothing from it) */
                   "str r1, [r0]\n\t"          /* owner = none */
                   BM_ASM_UNMASK0("r1")        /* (r1 = 0) */
                   "b 2f\n"
                   "1:\tbl bm_mutex_unlock_slow\n"
                   "2:"
                   : "+l"(a0)
                   :
                   : BM_FP_CLOBBERS "r1", "r2", "r3", "r12", "lr", "cc", "memory");
}
#endif

/* Interrupt handlers need no prologue or epilogue: a switch they ask for is PendSV on
 * return (so no rtb_port_isr.h). */

#endif
