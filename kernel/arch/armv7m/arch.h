/*
 * Port boundary for ARMv7-M (Cortex-M3, Cortex-M4, Cortex-M4F): the names of the ARMv6-M
 * port's contract (kernel/arch/armv6m/arch.h), with these differences:
 *  - the kernel's critical section masks with BASEPRI, not PRIMASK: interrupts of byte
 *    priority below ARCH_BASEPRI (0x00-0x1F) are never blocked by the kernel (and must not
 *    call it); the board's four levels (bench/boards/common/armv6m_nvic.h) are all masked;
 *  - switches are light calls that keep r4-r11 (sync_switch.S, switch_tail.inc: the save of
 *    r4-r11 is in the switch) when both threads are plain (K_CONFIG_SYNC_SWITCH=1, the default), or go through PendSV: a switch
 *    to a preempted thread (an exception frame) or from one with FP context, and every switch
 *    of the PendSV-only build (K_CONFIG_SYNC_SWITCH=0, switch.S); the assembly fast paths
 *    (K_CONFIG_FASTPATH=1, fast*.S) are the ARMv6-M port's in Thumb-2, CLZ for the top
 *    priority, without their own k_thread_prio_set (the C code's);
 *  - with an FPU (the M4F, __ARM_FP), a thread's s16-s31 are saved and restored only when it
 *    used the FPU (EXC_RETURN bit 4 clear: the hardware stacked an extended frame), with the
 *    hardware's lazy preservation of s0-s15 and FPSCR; a thread with FP context
 *    (CONTROL.FPCA) always switches through PendSV, so the light frame has no FP part.
 */
#ifndef RTOSLAB_ARCH_ARMV7M_H
#define RTOSLAB_ARCH_ARMV7M_H

#include <stdint.h>

#include "rtoslab/config.h"

/* arch_exception, arch_in_isr, arch_pend_switch, arch_switch, arch_switch_pend */
#include "../cortexm/cortexm_arch.h"

/* The kernel's mask: byte priorities 0x20 and below in urgency (numerically >=) are masked. */
#define ARCH_BASEPRI 0x20u

static inline __attribute__((always_inline)) void arch_irq_disable(void)
{
    __asm volatile("msr basepri, %0" ::"r"(ARCH_BASEPRI) : "memory");
}

static inline __attribute__((always_inline)) void arch_irq_enable(void)
{
    __asm volatile("msr basepri, %0" ::"r"(0u) : "memory");
}

static inline __attribute__((always_inline)) uint32_t arch_irq_lock(void)
{
    uint32_t key;
    /* BASEPRI_MAX only ever raises the mask: nesting inside a higher mask keeps it */
    __asm volatile("mrs %0, basepri\n msr basepri_max, %1" : "=&r"(key) : "r"(ARCH_BASEPRI) : "memory");
    return key;
}

static inline __attribute__((always_inline)) void arch_irq_unlock(uint32_t key)
{
    __asm volatile("msr basepri, %0" ::"r"(key) : "memory");
}

/* The mask an interrupt handler entered with, to restore as it unmasks: the preempted
 * context's BASEPRI, which let the interrupt in but need not be 0 (BASEPRI is not stacked:
 * a handler that wrote 0 would unmask the thread it returns to, issue 31). */
static inline __attribute__((always_inline)) uint32_t arch_isr_key(void)
{
    uint32_t bp;
    __asm volatile("mrs %0, basepri" : "=r"(bp)::"memory");
    return bp;
}

/* Nonzero while the kernel's interrupts are masked (its critical section): for assertions. */
static inline __attribute__((always_inline)) int arch_irq_locked(void)
{
    uint32_t bp;
    __asm volatile("mrs %0, basepri" : "=r"(bp));
    return bp != 0u;
}

/* The caller's interrupt mask (issue 31): arch_irq_masked() is nonzero while the caller has
 * interrupts masked, by PRIMASK or BASEPRI; arch_irq_key_masked(key) tells the same from
 * arch_irq_lock()'s key (the caller's BASEPRI) and PRIMASK, which the kernel never sets in
 * a thread call. A masked caller's call never unmasks: it pends PendSV instead of switching
 * and refuses to block (K_EMASKED). */
static inline __attribute__((always_inline)) int arch_irq_masked(void)
{
    uint32_t pm, bp;
    __asm volatile("mrs %0, primask\n mrs %1, basepri" : "=r"(pm), "=r"(bp)::"memory");
    return (int)(pm | bp);
}

static inline __attribute__((always_inline)) int arch_irq_key_masked(uint32_t key)
{
    uint32_t pm;
    __asm volatile("mrs %0, primask" : "=r"(pm)::"memory");
    return (int)(pm | key);
}

/* k_thread_exit: the kernel's mask, and PRIMASK clear (the exiting thread's own mask ends
 * with it: the next thread runs as it would after any switch) */
static inline __attribute__((always_inline)) void arch_irq_exit_mask(void)
{
    __asm volatile("msr basepri, %0\n cpsie i" ::"r"(ARCH_BASEPRI) : "memory");
}

/* Optional (arch_if.h): give interrupt line `irq` priority `prio` (0, the most urgent, .. 3,
 * as board_irq_enable: byte ((prio & 3) << 6) | 0x20, below the kernel's mask), without
 * enabling it. ARMv7-M's NVIC_IPR takes byte accesses: one store, no call. */
#define ARCH_HAS_IRQ_PRIO_SET 1
static inline __attribute__((always_inline)) void arch_irq_prio_set(unsigned irq, unsigned prio)
{
    *(volatile uint8_t *)(0xE000E400u + irq) = (uint8_t)(((prio & 3u) << 6) | ARCH_BASEPRI);
}

/* Optional (arch_if.h): two NOPs before a timer's spin to its expiry (one is the default):
 * measured on vp-m3 with the inline arch_irq_prio_set, timer.oneshot_error.10us / .100us
 * 53 / 56 cycles and timer.periodic_jitter 19 / 204 (p50 / max); one NOP: 52 / 55 and
 * 20 / 208; none: 58 / 54 and 20 / 208; three: 54 / 57 and 19 / 208. */
#define ARCH_SPIN_PAD() __asm volatile("nop\n nop")

/* Optional (arch_if.h): k_queue_send/recv have fast paths (fast_queue.S). */
#define ARCH_FAST_QUEUE 1

/* arch_init, arch_thread_init, arch_start, arch_tick_start, arch_fatal_stack: kernel/src/arch_if.h */

/* Bytes a new thread's first frame takes (arch_thread_init): a light frame (r4-r11, return
 * address) with the argument and the entry above it, which the trampoline pops; or, in the
 * PendSV-only build, r4-r11 and EXC_RETURN as PendSV saves them, then the hardware's basic
 * frame (r0-r3, r12, lr, pc, xPSR). */
#if K_CONFIG_SYNC_SWITCH
#define ARCH_INIT_FRAME_BYTES 44u
#else
#define ARCH_INIT_FRAME_BYTES 68u
#endif

#endif
