/*
 * Port boundary for ARMv7-M (Cortex-M3, Cortex-M4, Cortex-M4F): the names of the ARMv6-M
 * port's contract (kernel/arch/armv6m/arch.h), with these differences:
 *  - the kernel's critical section masks with BASEPRI, not PRIMASK: interrupts of byte
 *    priority below ARCH_BASEPRI (0x00-0x1F) are never blocked by the kernel (and must not
 *    call it); the board's four levels (bench/boards/common/armv6m_nvic.h) are all masked;
 *  - every switch goes through PendSV (the PendSV-only build: K_CONFIG_SYNC_SWITCH=0, the
 *    portable C paths, K_CONFIG_FASTPATH=0; kernel/CMakeLists.txt sets both): the ARMv6-M
 *    assembly fast paths and the thread-mode switch are Thumb-1 code written for the M0's
 *    register limits, and this first ARMv7-M port measures the C paths;
 *  - with an FPU (the M4F, __ARM_FP), a thread's s16-s31 are saved and restored only when it
 *    used the FPU (EXC_RETURN bit 4 clear: the hardware stacked an extended frame), with the
 *    hardware's lazy preservation of s0-s15 and FPSCR (switch.S).
 */
#ifndef RTOSLAB_ARCH_ARMV7M_H
#define RTOSLAB_ARCH_ARMV7M_H

#include <stdint.h>

#include "rtoslab/config.h"

#if K_CONFIG_SYNC_SWITCH || K_CONFIG_FASTPATH
#error "the ARMv7-M port switches through PendSV only: K_CONFIG_SYNC_SWITCH=0, K_CONFIG_FASTPATH=0"
#endif

struct k_thread;

#define ARCH_SCB_ICSR (*(volatile uint32_t *)0xE000ED04u)
#define ARCH_ICSR_PENDSVSET (1u << 28)
#define ARCH_ICSR_PENDSVCLR (1u << 27)
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

/* Nonzero while the kernel's interrupts are masked (its critical section): for assertions. */
static inline __attribute__((always_inline)) int arch_irq_locked(void)
{
    uint32_t bp;
    __asm volatile("mrs %0, basepri" : "=r"(bp));
    return bp != 0u;
}

/* The exception being handled (IPSR: 0 in thread mode, 16 + n for interrupt line n). */
static inline __attribute__((always_inline)) uint32_t arch_exception(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr;
}

static inline __attribute__((always_inline)) int arch_in_isr(void)
{
    return arch_exception() != 0u;
}

static inline __attribute__((always_inline)) void arch_pend_switch(void)
{
    ARCH_SCB_ICSR = ARCH_ICSR_PENDSVSET;
}

/* arch_init, arch_thread_init, arch_start, arch_tick_start, arch_fatal_stack: kernel/src/arch_if.h */
int arch_switch_pend(struct k_thread *from);
/* Every switch through PendSV, which chooses the top thread (`to` is that thread). */
static inline __attribute__((always_inline)) int arch_switch(struct k_thread *from,
                                                             struct k_thread *to)
{
    (void)to;
    return arch_switch_pend(from);
}

/* Bytes a new thread's first frame takes (arch_thread_init): r4-r11 and EXC_RETURN as PendSV
 * saves them, then the hardware's basic frame (r0-r3, r12, lr, pc, xPSR). */
#define ARCH_INIT_FRAME_BYTES 68u

#endif
