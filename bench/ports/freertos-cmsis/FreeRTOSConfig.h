/*
 * FreeRTOS under CMSIS-FreeRTOS (its CMSIS-RTOS2 layer) for the suite: the freertos port's
 * release configuration (bench/ports/freertos/FreeRTOSConfig.h, included, never copied) with
 * only what CMSIS-FreeRTOS 11.3.0 requires changed (Include/freertos_os2.h's #error lines and
 * its priority mapping). Each change is listed in port.toml's `configuration` line.
 */
#ifndef RTB_FREERTOS_CMSIS_CONFIG_H
#define RTB_FREERTOS_CMSIS_CONFIG_H

#include "../freertos/FreeRTOSConfig.h"

/* CMSIS-RTOS2 priorities are FreeRTOS priorities one to one: osPriorityISR is 56 */
#undef configMAX_PRIORITIES
#define configMAX_PRIORITIES 56
/* the ARMv7-M ports' CLZ selection takes 32 priorities at most (portmacro.h's #error): the
 * generic selection, as ARM_CM0 has anyway */
#undef configUSE_PORT_OPTIMISED_TASK_SELECTION
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
/* the timer task above every thread, as in the freertos port (there 10, above the
 * controller's 9; here above osPriorityRealtime, the controller's) */
#undef configTIMER_TASK_PRIORITY
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
/* the services cmsis_os2.c calls (freertos_os2.h stops the build without them) */
#undef INCLUDE_xTaskGetSchedulerState
#define INCLUDE_xTaskGetSchedulerState 1
#undef INCLUDE_uxTaskGetStackHighWaterMark
#define INCLUDE_uxTaskGetStackHighWaterMark 1
#undef INCLUDE_eTaskGetState
#define INCLUDE_eTaskGetState 1
#define INCLUDE_xSemaphoreGetMutexHolder 1
#undef INCLUDE_xTaskAbortDelay
#define INCLUDE_xTaskAbortDelay 1 /* osThreadResume (a link error without it) */
/* the options of the layer whose FreeRTOS service the release configuration leaves off
 * (osThreadEnumerate needs the trace facility; event flags from an ISR need
 * xTimerPendFunctionCall): off, as freertos_os2.h documents; the suite calls neither */
#define configUSE_OS2_THREAD_ENUMERATE 0
#define configUSE_OS2_EVENTFLAGS_FROM_ISR 0
/* cmsis_os2.c defines SysTick_Handler (it calls xPortSysTickHandler) */
#undef xPortSysTickHandler

#endif
