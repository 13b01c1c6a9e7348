/*
 * lab_device.h - the CMSIS device header of the lab boards (what CMSIS_device_header names in
 * RTE_Components.h): the exception numbers and the core's configuration for CMSIS 6's core
 * header of the board's core (core_cm0.h, core_cm3.h or core_cm4.h). One header for every
 * CMSIS-based build of the tree: RTX5 (the suite's port and its validation image) and
 * CMSIS-FreeRTOS (the validation image and the freertos-cmsis port). A vendor's device header
 * (ARMCM0.h, ...) says the same for Arm's generic cores; these builds need only the system
 * exceptions, SysTick, the core registers and SystemCoreClock. The suite's own interrupts go
 * through its vector table and NVIC helpers, not through this header.
 */
#ifndef LAB_DEVICE_H
#define LAB_DEVICE_H

#include <stdint.h>

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
/* The priority bits the lab boards implement (docs/board.md): 2 on ARMv6-M, all 8 on the
 * simulator's ARMv7-M NVIC. Code that must also run on a part with fewer bits sets its lowest
 * priority by writing the byte 0xFF (os_tick_systick.c), never by this count. */
#if defined(__ARM_ARCH_7EM__)
#define __CM4_REV 0x0001U
#define __NVIC_PRIO_BITS 8U
#define __VTOR_PRESENT 1U
#if defined(__ARM_FP)
#define __FPU_PRESENT 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm4.h"
#elif defined(__ARM_ARCH_7M__)
#define __CM3_REV 0x0201U
#define __NVIC_PRIO_BITS 8U
#define __VTOR_PRESENT 1U
#include "core_cm3.h"
#else
#define __CM0_REV 0x0000U
#define __NVIC_PRIO_BITS 2U
#include "core_cm0.h"
#endif

extern uint32_t SystemCoreClock; /* CMSIS's name for the core clock: os_tick_systick.c */

#endif
