/*
 * The inline half of the port boundary (kernel/src/arch_if.h) that both Cortex-M ports share:
 * the exception number, the PendSV request and the kernel's switch (a light call, or through
 * PendSV in the PendSV-only build, K_CONFIG_SYNC_SWITCH=0). Included by the port's arch.h,
 * which defines the rest (its critical section, its interrupt priorities, its frame).
 */
#ifndef RTOSLAB_CORTEXM_ARCH_H
#define RTOSLAB_CORTEXM_ARCH_H

#include <stdint.h>

#include "rtoslab/config.h"
#include "include/rtoslab/cortexm_light.h"

struct k_thread;

#define ARCH_SCB_ICSR (*(volatile uint32_t *)0xE000ED04u)
#define ARCH_ICSR_PENDSVSET (1u << 28)
#define ARCH_ICSR_PENDSVCLR (1u << 27)
/* The idle loop's deep sleep (time.c, z_idle_prepare): SCR.SLEEPDEEP, and what else could
 * wake the core: the NVIC's enabled lines (the lab boards have 32) and SysTick's interrupt. */
#define ARCH_SCB_SCR (*(volatile uint32_t *)0xE000ED10u)
#define ARCH_SCR_SLEEPDEEP (1u << 2)
#define ARCH_NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define ARCH_SYST_CSR (*(volatile uint32_t *)0xE000E010u)

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

#if K_CONFIG_SYNC_SWITCH
/* The kernel's C code switches with light calls (the port's switch_tail.inc): a call of the
 * port's routine with Z_LIGHT_CLOBBERS (include/rtoslab/cortexm_light.h). */
static inline __attribute__((always_inline)) int arch_switch(struct k_thread *from,
                                                             struct k_thread *to)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)from;
    register uintptr_t a1 __asm__("r1") = (uintptr_t)to;
    __asm volatile("bl z_switch_l" : "+l"(a0), "+l"(a1) : : Z_LIGHT_CLOBBERS);
    return (int)a0;
}

static inline __attribute__((always_inline)) int arch_switch_pend(struct k_thread *from)
{
    register uintptr_t a0 __asm__("r0") = (uintptr_t)from;
    __asm volatile("bl z_switch_idle_c" : "+l"(a0) : : "r1", Z_LIGHT_CLOBBERS);
    return (int)a0;
}
#else
int arch_switch_pend(struct k_thread *from);
/* Every switch through PendSV, which chooses the top thread (`to` is that thread). */
static inline __attribute__((always_inline)) int arch_switch(struct k_thread *from,
                                                             struct k_thread *to)
{
    (void)to;
    return arch_switch_pend(from);
}
#endif

#endif
