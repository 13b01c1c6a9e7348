/*
 * FreeRTOSConfig.h used by the benchmark suite: published so that the comparison is
 * reproducible and fair (see docs/methodology.md, "Configurations").
 *
 * - Preemptive, fixed priority. Time slicing is off: no thread of the suite relies on it,
 *   and a tick-driven round robin would add switches that belong to no measured operation
 *   (rtoslab has no time slicing either).
 * - 1 kHz tick from SysTick (FreeRTOS's usual rate; tickless idle is not used): delays and
 *   timeouts have a resolution of 1 ms, which is what timer.delay_error.* shows.
 * - No trace, no assertions, no stack-overflow checking, no run-time statistics: the
 *   kernel does only its job, like the rtoslab build with checks that cost a few cycles.
 * - Kernel objects use FreeRTOS's own dynamic allocation from heap_4 (semaphores, mutexes,
 *   queues); thread control blocks and stacks are static, in memory the suite provides
 *   (xTaskCreateStatic), because the suite owns every thread's memory on every RTOS.
 * - Idle calls WFI (the idle hook), as every port of the suite does when nothing is ready.
 * - Compiled with the same flags as every other RTOS: -mcpu=cortex-m0 -mthumb -Os (the
 *   board's core flags on ARMv7-M boards, where the port is ARM_CM3 or ARM_CM4F).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "board_config.h"

/* The core, from the compiler (every ARMv7-M board alike: Cortex-M3, M4, M4F). */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define RTB_FREERTOS_ARMV7M 1
#else
#define RTB_FREERTOS_ARMV7M 0
#endif

#define configCPU_CLOCK_HZ                      BOARD_CLOCK_HZ
#define configTICK_RATE_HZ                      1000
#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  0
#if RTB_FREERTOS_ARMV7M
/* ARM_CM3/ARM_CM4F: the ports' own fastest selection (CLZ on the ready bitmap); ARMv6-M has
 * no CLZ, so ARM_CM0 has only the generic one. */
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#else
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#endif
#define configUSE_TICKLESS_IDLE                 0
#define configMAX_PRIORITIES                    11 /* 0 idle, 1..8 tests, 9 controller, 10 timer task */
#define configMINIMAL_STACK_SIZE                64
#define configMAX_TASK_NAME_LEN                 2
#define configTICK_TYPE_WIDTH_IN_BITS           TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TASK_NOTIFICATIONS            1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES   1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             0
#define configUSE_COUNTING_SEMAPHORES           1
#define configQUEUE_REGISTRY_SIZE               0
#define configUSE_QUEUE_SETS                    0
#define configUSE_NEWLIB_REENTRANT              0
#define configENABLE_BACKWARD_COMPATIBILITY     0
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 0
#define configUSE_MINI_LIST_ITEM                1
#define configSTACK_DEPTH_TYPE                  uint16_t
#define configMESSAGE_BUFFER_LENGTH_TYPE        size_t
#define configHEAP_CLEAR_MEMORY_ON_FREE         0

#define configSUPPORT_STATIC_ALLOCATION         1
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configTOTAL_HEAP_SIZE                   1024
#define configAPPLICATION_ALLOCATED_HEAP        0

#define configUSE_IDLE_HOOK                     1
#define configUSE_TICK_HOOK                     0
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configUSE_DAEMON_TASK_STARTUP_HOOK      0
#define configGENERATE_RUN_TIME_STATS           0
#define configUSE_TRACE_FACILITY                0
#define configUSE_STATS_FORMATTING_FUNCTIONS    0
#define configUSE_CO_ROUTINES                   0

#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               10
#define configTIMER_QUEUE_LENGTH                4
#define configTIMER_TASK_STACK_DEPTH            96

#define configKERNEL_INTERRUPT_PRIORITY         255
#if RTB_FREERTOS_ARMV7M
/* ARMv7-M masks with BASEPRI: every level of the board (0..3: bytes 0x20..0xE0,
 * armv6m_nvic.h) may call FromISR functions, as under PRIMASK on ARMv6-M; bytes below 0x20
 * are never masked by the kernel. */
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0x20
/* ARM_CM3/ARM_CM4F name their handlers; the board's vector table names the CMSIS ones. */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler
#else
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0
#endif
#define configENABLE_MPU                        0
#define configENABLE_FPU                        0
#define configENABLE_TRUSTZONE                  0
#define configRUN_FREERTOS_SECURE_ONLY          0
#define configCHECK_HANDLER_INSTALLATION        0

#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_vTaskDelayUntil                 1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskGetSchedulerState          0
#define INCLUDE_xTaskGetCurrentTaskHandle       1
#define INCLUDE_uxTaskGetStackHighWaterMark     0
#define INCLUDE_xTaskGetIdleTaskHandle          0
#define INCLUDE_eTaskGetState                   0
#define INCLUDE_xTimerPendFunctionCall          0
#define INCLUDE_xTaskAbortDelay                 0
#define INCLUDE_xTaskGetHandle                  0
#define INCLUDE_xTaskResumeFromISR              1

/* No configASSERT: assertions are off in the measured build. */

#endif
