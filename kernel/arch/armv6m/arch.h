/*
 * The ARMv6-M port (Cortex-M0/M0+): the inline half of the kernel's port boundary, whose
 * contract, one comment per function, is kernel/src/arch_if.h (which includes this file and
 * declares the out-of-line half: arch.c, switch.S). Critical sections on PRIMASK; switches
 * are light calls (switch_tail.inc) or PendSV.
 */
#ifndef RTOSLAB_ARCH_ARMV6M_H
#define RTOSLAB_ARCH_ARMV6M_H

#include <stdint.h>

#include "rtoslab/config.h"

/* arch_exception, arch_in_isr, arch_pend_switch, arch_switch, arch_switch_pend */
#include "../cortexm/cortexm_arch.h"

static inline __attribute__((always_inline)) void arch_irq_disable(void)
{
    __asm volatile("cpsid i" ::: "memory");
}

static inline __attribute__((always_inline)) void arch_irq_enable(void)
{
    __asm volatile("cpsie i" ::: "memory");
}

static inline __attribute__((always_inline)) uint32_t arch_irq_lock(void)
{
    uint32_t key;
    __asm volatile("mrs %0, primask\n cpsid i" : "=r"(key)::"memory");
    return key;
}

static inline __attribute__((always_inline)) void arch_irq_unlock(uint32_t key)
{
    if (__builtin_constant_p(key) && key == 0u)
        __asm volatile("cpsie i" ::: "memory"); /* (a known 0: CPSIE, 1 cycle, not MSR's 4) */
    else
        __asm volatile("msr primask, %0" ::"r"(key) : "memory");
}

/* The mask an interrupt handler entered with, to restore as it unmasks: on ARMv6-M always
 * 0 (a handler runs only if PRIMASK was clear), a constant. */
static inline __attribute__((always_inline)) uint32_t arch_isr_key(void)
{
    return 0u;
}

/* Nonzero while interrupts are masked (the kernel's critical section): for assertions. */
static inline __attribute__((always_inline)) int arch_irq_locked(void)
{
    uint32_t pm;
    __asm volatile("mrs %0, primask" : "=r"(pm));
    return pm & 1u;
}

/* The caller's interrupt mask (issue 31): arch_irq_masked() is nonzero while the caller has
 * interrupts masked (PRIMASK); arch_irq_key_masked(key) tells the same from arch_irq_lock()'s
 * key, taken as a thread call entered. A masked caller's call never unmasks: it pends PendSV
 * instead of switching and refuses to block (K_EMASKED). */
static inline __attribute__((always_inline)) int arch_irq_masked(void)
{
    uint32_t pm;
    __asm volatile("mrs %0, primask" : "=r"(pm)::"memory");
    return (int)pm;
}

static inline __attribute__((always_inline)) int arch_irq_key_masked(uint32_t key)
{
    return key != 0u;
}

/* k_thread_exit: the kernel's mask, PRIMASK (the exiting thread's own mask ends with it) */
static inline __attribute__((always_inline)) void arch_irq_exit_mask(void)
{
    __asm volatile("cpsid i" ::: "memory");
}

/* Optional (arch_if.h): give interrupt line `irq` priority `prio` (0, the most urgent, .. 3,
 * as board_irq_enable), without enabling it. NVIC_IPR takes word accesses only on ARMv6-M;
 * with a constant `irq` its word and byte lane fold: about 10 cycles, no call. */
#define ARCH_HAS_IRQ_PRIO_SET 1
static inline __attribute__((always_inline)) void arch_irq_prio_set(unsigned irq, unsigned prio)
{
    volatile uint32_t *ipr = (volatile uint32_t *)(0xE000E400u + (irq & ~3u));
    unsigned shift = (irq & 3u) * 8u;
    *ipr = (*ipr & ~(0xFFu << shift)) | ((prio << 6) << shift);
}

/* Optional (arch_if.h): k_queue_send/recv have fast paths (fast_queue.S). */
#define ARCH_FAST_QUEUE 1

/* Bytes a new thread's first frame takes (arch_thread_init): a sync frame (r7, return
 * address) with the argument and the entry above it, which the trampoline pops; or,
 * without synchronous switches, an exception frame (r8-r11, r4-r7, then the hardware's
 * r0-r3, r12, lr, pc, xPSR) that starts the entry itself. */
#if K_CONFIG_SYNC_SWITCH
#define ARCH_INIT_FRAME_BYTES 16u
#else
#define ARCH_INIT_FRAME_BYTES 64u
#endif

#endif
