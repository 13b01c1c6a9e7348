/*
 * ARMv6-M port: thread frames, start-up settings, the periodic tick.
 *
 * Sections: includes / definitions / functions (as every kernel module).
 */
#include "arch_if.h"
#include "kernel_internal.h"

/* ---- Definitions ------------------------------------------------------------------------- */

#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)

void z_thread_trampoline(void);

/* ---- Functions --------------------------------------------------------------------------- */

void arch_init(void)
{
    /* PendSV at the lowest priority: a switch never preempts an interrupt. SysTick (the
     * periodic tick) one above. The idle loop runs in thread mode, so an interrupt of any
     * priority, the lowest included, may wake threads. */
    SCB_SHPR3 = 0x80C00000u; /* (bits 15:0 are reserved on ARMv6-M: no read-modify-write) */
}

void arch_thread_init(struct k_thread *t, uint32_t top, void (*entry)(void *), void *arg)
{
#if K_CONFIG_SYNC_SWITCH
    uint32_t *f = (uint32_t *)(top - ARCH_INIT_FRAME_BYTES);
    for (unsigned i = 0; i < ARCH_INIT_FRAME_BYTES / 4u; i++)
        f[i] = 0;
    /* z_thread_trampoline pops these two from the top of the first frame */
    f[ARCH_INIT_FRAME_BYTES / 4u - 2u] = (uint32_t)arg;
    f[ARCH_INIT_FRAME_BYTES / 4u - 1u] = (uint32_t)entry;
    /* A sync frame, as a synchronous switch leaves it: r7, then the return address. */
    f[1] = (uint32_t)z_thread_trampoline;
    t->z_sp = (uint32_t)f;
#else
    /* An exception frame, as PendSV leaves it (bit 0 of z_sp set): r8-r11, r4-r7, then the
     * hardware's r0-r3, r12, lr, pc, xPSR. PendSV's exception return starts the thread with
     * r0 = arg in `entry`, which returns to k_thread_exit (no trampoline); the other
     * registers start with whatever the stack held. */
    uint32_t *f = (uint32_t *)(top - ARCH_INIT_FRAME_BYTES);
    f[8] = (uint32_t)arg;                        /* r0 */
    f[13] = (uint32_t)k_thread_exit;             /* lr */
    f[14] = (uint32_t)entry - 1u;                /* pc: without the Thumb bit (always set) */
    f[15] = 1u << 24;                            /* xPSR: Thumb */
    t->z_sp = (uint32_t)f + 1u;
#endif
}

/* arch_fatal_stack, arch_tick_start and the SysTick handler: kernel/arch/cortexm/cortexm.c */
