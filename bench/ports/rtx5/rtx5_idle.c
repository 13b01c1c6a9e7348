/*
 * rtx5_idle.c - RTX5's idle thread (osRtxIdleThread, weak in Config/RTX_Config.c): the
 * tick-less idle that RTX5's documentation describes ("Tick-less Low-Power Operation"):
 * osKernelSuspend stops the tick and returns the ticks until the next timeout, the core
 * sleeps that long or until an interrupt, osKernelResume gives the kernel the ticks slept.
 * RTB_RTX_TICKLESS=0 builds the plain loop instead (WFI with the tick running), to measure
 * what the tick-less mode costs (README.md).
 */
#include "cmsis_os2.h"
#include "lab_device.h"
#include "os_tick_sleep.h"

#ifndef RTB_RTX_TICKLESS
#define RTB_RTX_TICKLESS 1
#endif

__NO_RETURN void osRtxIdleThread(void *argument)
{
    (void)argument;
    for (;;) {
#if RTB_RTX_TICKLESS
        osKernelResume(os_tick_sleep(osKernelSuspend()));
#else
        __WFI();
#endif
    }
}
