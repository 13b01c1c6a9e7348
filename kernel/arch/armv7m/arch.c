/*
 * ARMv7-M port: thread frames, start-up settings, the periodic tick.
 *
 * Sections: includes / definitions / functions (as every kernel module).
 */
#include "arch.h"
#include "kernel_internal.h"

/* ---- Definitions ------------------------------------------------------------------------- */

#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define EXC_RETURN_THREAD_PSP 0xFFFFFFFDu /* basic frame: a new thread has no FP state */

void z_thread_trampoline(void);

/* ---- Functions --------------------------------------------------------------------------- */

void arch_init(void)
{
    /* PendSV at the lowest priority: a switch never preempts an interrupt. SysTick (the
     * periodic tick) above it, inside the kernel's mask (it calls the kernel). The idle loop
     * runs in thread mode, so an interrupt of any priority may wake threads. */
    SCB_SHPR3 = 0xA0FF0000u;
}

void arch_thread_init(struct k_thread *t, uint32_t top, void (*entry)(void *), void *arg)
{
#if K_CONFIG_SYNC_SWITCH
    uint32_t *f = (uint32_t *)(top - ARCH_INIT_FRAME_BYTES);
    /* A light frame, as a synchronous switch leaves it: r4-r11, then the return address (the
     * trampoline, which pops the argument and the entry above it). */
    for (unsigned i = 0; i < 8u; i++)
        f[i] = 0;
    f[8] = (uint32_t)z_thread_trampoline;
    f[9] = (uint32_t)arg;
    f[10] = (uint32_t)entry;
    t->z_sp = (uint32_t)f;
#else
    /* The frame PendSV leaves: r4-r11, EXC_RETURN, then the hardware's r0-r3, r12, lr, pc,
     * xPSR. PendSV's exception return starts the thread with r0 = arg in `entry`, which
     * returns to k_thread_exit (no trampoline). */
    uint32_t *f = (uint32_t *)(top - ARCH_INIT_FRAME_BYTES);
    for (unsigned i = 0; i < ARCH_INIT_FRAME_BYTES / 4u; i++)
        f[i] = 0;
    f[8] = EXC_RETURN_THREAD_PSP;
    f[9] = (uint32_t)arg;              /* r0 */
    f[14] = (uint32_t)k_thread_exit;   /* lr */
    f[15] = (uint32_t)entry & ~1u;     /* pc */
    f[16] = 1u << 24;                  /* xPSR: Thumb */
    t->z_sp = (uint32_t)f;
#endif
}

/* arch_fatal_stack, arch_tick_start and the SysTick handler: kernel/arch/cortexm/cortexm.c */
