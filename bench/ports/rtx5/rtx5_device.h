/*
 * rtx5_device.h - the CMSIS device header RTX5 includes (CMSIS_device_header): the exception
 * numbers and the core's configuration for the CMSIS 6 core header of the board's core
 * (core_cm0.h, core_cm3.h or core_cm4.h). Written for the port: a vendor's device header
 * (ARMCM0.h, ...) says the same for Arm's generic cores; RTX5 needs only the system
 * exceptions, SysTick and the core registers. The suite's own interrupts go through its
 * vector table and NVIC helpers, not through this header.
 */
#ifndef RTX5_DEVICE_H
#define RTX5_DEVICE_H

typedef enum IRQn {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    DebugMonitor_IRQn = -4,
#endif
    SVCall_IRQn = -5,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    Interrupt0_IRQn = 0,
} IRQn_Type;

#define __MPU_PRESENT 0U
#define __Vendor_SysTickConfig 0U
#if defined(__ARM_ARCH_7EM__)
#define __CM4_REV 0x0001U
/* At least 3 on the boards' ARMv7-M cores (bench/boards/common/armv6m_nvic.h; the simulator
 * keeps 8). RTX5 itself does not use it; the port sets its one priority by the byte. */
#define __NVIC_PRIO_BITS 3U
#define __VTOR_PRESENT 1U
#if defined(__ARM_FP)
#define __FPU_PRESENT 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm4.h"
#elif defined(__ARM_ARCH_7M__)
#define __CM3_REV 0x0201U
#define __NVIC_PRIO_BITS 3U
#define __VTOR_PRESENT 1U
#include "core_cm3.h"
#else
#define __CM0_REV 0x0000U
#define __NVIC_PRIO_BITS 2U
#include "core_cm0.h"
#endif

extern uint32_t SystemCoreClock; /* os_tick_systick.c: the board's clock */

#endif
