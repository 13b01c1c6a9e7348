/*
 * The CMSIS OS tick (os_tick.h) on the core's SysTick, for the validation images of RTOSes
 * built on it: RTX5 asks for a tick of OS_TICK_FREQ and handles SysTick_Handler itself;
 * CMSIS-FreeRTOS reads the count for osKernelGetSysTimerCount (FreeRTOS programs SysTick
 * itself). CMSIS's own os_systick.c is not in the pinned archives; this is the same few
 * register accesses.
 */
#include "os_tick.h"
#include "RTE_Components.h"
#include CMSIS_device_header

static uint8_t pended; /* a tick pended while the timer was disabled */

int32_t OS_Tick_Setup(uint32_t freq, IRQHandler_t handler)
{
    (void)handler; /* (SysTick_Handler is RTX5's) */
    if (freq == 0u)
        return -1;
    uint32_t load = SystemCoreClock / freq - 1u;
    if (load > 0x00FFFFFFu)
        return -1;
    NVIC_SetPriority(SysTick_IRQn, (1u << __NVIC_PRIO_BITS) - 1u); /* the lowest */
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk;
    SysTick->LOAD = load;
    SysTick->VAL = 0u;
    pended = 0u;
    return 0;
}

void OS_Tick_Enable(void)
{
    if (pended) {
        pended = 0u;
        SCB->ICSR = SCB_ICSR_PENDSTSET_Msk;
    }
    SysTick->CTRL |= SysTick_CTRL_ENABLE_Msk;
}

void OS_Tick_Disable(void)
{
    SysTick->CTRL &= ~SysTick_CTRL_ENABLE_Msk;
    if (SCB->ICSR & SCB_ICSR_PENDSTSET_Msk) {
        SCB->ICSR = SCB_ICSR_PENDSTCLR_Msk;
        pended = 1u;
    }
}

void OS_Tick_AcknowledgeIRQ(void) { (void)SysTick->CTRL; }
int32_t OS_Tick_GetIRQn(void) { return (int32_t)SysTick_IRQn; }
uint32_t OS_Tick_GetClock(void) { return SystemCoreClock; }
uint32_t OS_Tick_GetInterval(void) { return SysTick->LOAD + 1u; }
uint32_t OS_Tick_GetCount(void) { return SysTick->LOAD - SysTick->VAL; }
uint32_t OS_Tick_GetOverflow(void) { return (SysTick->CTRL >> 16) & 1u; }
