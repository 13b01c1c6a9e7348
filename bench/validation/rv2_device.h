/*
 * The CMSIS device header of the suite's lab boards, for the RTOSes built for the validation
 * that include CMSIS_device_header (RTX5, CMSIS-FreeRTOS): the exception numbers, the core's options, CMSIS 6's core header for
 * the board's core, and SystemCoreClock (the board's clock).
 */
#ifndef RV2_DEVICE_H
#define RV2_DEVICE_H

#include <stdint.h>

#include "board_config.h" /* BOARD_CLOCK_HZ */

typedef enum IRQn {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    SVCall_IRQn = -5,
    DebugMonitor_IRQn = -4,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    Interrupt0_IRQn = 0,
} IRQn_Type;

#define __MPU_PRESENT 0U
#define __VTOR_PRESENT 1U
#define __Vendor_SysTickConfig 0U

#if defined(__ARM_ARCH_7EM__)
#define __CM4_REV 0x0001U
#define __NVIC_PRIO_BITS 8U /* the simulator's ARMv7-M NVIC keeps all 8 (docs/board.md) */
#if defined(__ARM_FP)
#define __FPU_PRESENT 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm4.h"
#elif defined(__ARM_ARCH_7M__)
#define __CM3_REV 0x0201U
#define __NVIC_PRIO_BITS 8U
#include "core_cm3.h"
#else
#define __CM0_REV 0x0000U
#define __NVIC_PRIO_BITS 2U
#include "core_cm0.h"
#endif

#define SystemCoreClock ((uint32_t)BOARD_CLOCK_HZ)

#endif
