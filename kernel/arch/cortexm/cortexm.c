/*
 * What every Cortex-M port of the kernel shares (ARMv6-M and ARMv7-M alike): the fatal stop
 * on a stack overflow and the periodic SysTick tick of the tick builds. Compiled with the
 * port's own arch.h (kernel/arch/<arch>/arch.cmake lists this file after the port's sources,
 * so the port's code keeps its place in flash).
 *
 * Sections: includes / definitions / functions (as every kernel module).
 */
#include "arch.h"
#include "kernel_internal.h"

/* ---- Definitions ------------------------------------------------------------------------- */

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

/* ---- Functions --------------------------------------------------------------------------- */

void arch_fatal_stack(struct k_thread *t)
{
    k_fatal(K_ESTACK, t);
}

#if !K_CONFIG_TICKLESS
void arch_tick_start(uint32_t reload)
{
    SYST_RVR = reload - 1u;
    SYST_CVR = 0u;
    SYST_CSR = 7u; /* processor clock, interrupt, enable */
}

void SysTick_Handler(void)
{
    z_time_tick();
}
#endif
