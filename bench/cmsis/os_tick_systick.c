/*
 * os_tick_systick.c - the CMSIS-RTOS2 OS Tick API (os_tick.h) on the core's SysTick, and a
 * tick-less sleep on it, for every CMSIS-based build of the tree: RTX5 (the suite's port and
 * its validation image) asks for a tick of OS_TICK_FREQ and handles SysTick_Handler itself
 * (GCC/irq_armv*.S, which calls OS_Tick_AcknowledgeIRQ and osRtxTick_Handler);
 * CMSIS-FreeRTOS only reads the count for osKernelGetSysTimerCount (FreeRTOS programs SysTick
 * itself, so the interval and count are read from the timer, not from OS_Tick_Setup's
 * figures).
 *
 * Neither pinned archive has an OS Tick implementation: CMSIS 5 shipped one for SysTick
 * (CMSIS/RTOS2/Source/os_systick.c), CMSIS 6 and CMSIS-RTX do not (a device pack provides
 * it). This one is written from the contract of os_tick.h: OS_Tick_Setup programs the
 * interval and the lowest exception priority (RTX5 requires its tick at the priority of
 * PendSV: rtx_kernel.c calls the tick handler's work unlocked), Enable/Disable keep a tick
 * that was pending when the timer stopped, GetCount/GetOverflow give the count inside the
 * interval.
 */
#include "board.h"
#include "lab_device.h"
#include "os_tick.h"
#include "os_tick_sleep.h"

uint32_t SystemCoreClock = BOARD_CLOCK_HZ; /* CMSIS's name for the core clock */

#define SCB_SHPR3_WORD (*(volatile uint32_t *)0xE000ED20u) /* PendSV 23:16, SysTick 31:24 */

static uint32_t tick_load;  /* the interval's reload value: clock / tick rate - 1 */
static uint32_t sleep_max;  /* the most ticks one SysTick reload holds (24 bits) */
static uint8_t tick_pended; /* a tick came while the timer was disabled */

int32_t OS_Tick_Setup(uint32_t freq, IRQHandler_t handler)
{
    (void)handler; /* SysTick_Handler is bound by name in the vector table */
    if (freq == 0u || SystemCoreClock / freq - 1u > SysTick_LOAD_RELOAD_Msk)
        return -1;
    tick_load = SystemCoreClock / freq - 1u;
    sleep_max = (SysTick_LOAD_RELOAD_Msk + 1u) / (tick_load + 1u);
    /* The lowest priority, as RTX5's SVC_Setup gives PendSV (byte 0xFF): a word write of
     * SHPR3's SysTick byte, valid on ARMv6-M (word access only) and whatever priority bits
     * an ARMv7-M core implements (the simulator's and QEMU's keep more than 3). */
    SCB_SHPR3_WORD = (SCB_SHPR3_WORD & 0x00FFFFFFu) | 0xFF000000u;
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk;
    SysTick->LOAD = tick_load;
    SysTick->VAL = 0u;
    tick_pended = 0u;
    return 0;
}

void OS_Tick_Enable(void)
{
    if (tick_pended) {
        tick_pended = 0u;
        SCB->ICSR = SCB_ICSR_PENDSTSET_Msk;
    }
    SysTick->CTRL |= SysTick_CTRL_ENABLE_Msk;
}

void OS_Tick_Disable(void)
{
    SysTick->CTRL &= ~SysTick_CTRL_ENABLE_Msk;
    if (SCB->ICSR & SCB_ICSR_PENDSTSET_Msk) {
        SCB->ICSR = SCB_ICSR_PENDSTCLR_Msk;
        tick_pended = 1u;
    }
}

void OS_Tick_AcknowledgeIRQ(void)
{
    (void)SysTick->CTRL; /* reading CTRL clears COUNTFLAG */
}

int32_t OS_Tick_GetIRQn(void) { return (int32_t)SysTick_IRQn; }
uint32_t OS_Tick_GetClock(void) { return SystemCoreClock; }
uint32_t OS_Tick_GetInterval(void) { return SysTick->LOAD + 1u; }
uint32_t OS_Tick_GetCount(void) { return SysTick->LOAD - SysTick->VAL; }
uint32_t OS_Tick_GetOverflow(void) { return (SysTick->CTRL & SysTick_CTRL_COUNTFLAG_Msk) != 0u; }

/*
 * Tick-less sleep: called between OS_Tick_Disable and OS_Tick_Enable (for RTX5: by the idle
 * thread between osKernelSuspend and osKernelResume). SysTick is reloaded to count to the
 * boundary of the `ticks`-th tick from the current tick's phase (at most what its 24 bits
 * hold), the core waits in WFI with interrupts masked (no division inside: ARMv6-M divides in
 * a library call), and the whole ticks that passed are returned. The part of a tick that
 * passed when an interrupt ended the sleep early is not counted, and the tick restarts with a
 * full interval at OS_Tick_Enable: the kernel's time then runs behind, never ahead, so a delay
 * is never shorter than asked.
 */
uint32_t os_tick_sleep(uint32_t ticks)
{
    const uint32_t period = tick_load + 1u;
    if (ticks == 0u || tick_pended)
        return 0u; /* a tick is due: let the kernel take it */
    if (ticks > sleep_max)
        ticks = sleep_max; /* the span below then fits the 24-bit reload */
    __disable_irq();
    uint32_t left = SysTick->VAL; /* the current tick's remaining count (the timer is stopped) */
    if (left == 0u)
        left = period;
    const uint32_t span = left + (ticks - 1u) * period;
    SysTick->LOAD = span - 1u;
    SysTick->VAL = 0u;
    (void)SysTick->CTRL; /* clear COUNTFLAG */
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk | SysTick_CTRL_ENABLE_Msk;
    __DSB();
    __WFI();
    const uint32_t ctrl = SysTick->CTRL;
    const uint32_t val = SysTick->VAL;
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk; /* stopped */
    SCB->ICSR = SCB_ICSR_PENDSTCLR_Msk; /* the wake-up tick: counted below, not handled */
    __enable_irq(); /* the interrupt that woke the core runs now */
    uint32_t slept;
    if (ctrl & SysTick_CTRL_COUNTFLAG_Msk) {
        slept = ticks;
    } else {
        const uint32_t done = span - 1u - val; /* counts since the reload */
        slept = done >= left ? 1u + (done - left) / period : 0u;
    }
    SysTick->LOAD = tick_load;
    SysTick->VAL = 0u;
    return slept;
}
