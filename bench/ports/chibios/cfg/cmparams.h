/*
 * cmparams.h for the ChibiOS/RT ARMv6-M port on the rtoslab boards (written for this port).
 *
 * ChibiOS normally takes this file from its HAL (os/hal/ports/<vendor>/<family>/cmparams.h),
 * which is not in the pinned archive. It gives the port the core's parameters and the CMSIS
 * core header (os/common/ext/ARM/CMSIS/Core/Include/core_cm0.h, from the archive), with the
 * few device definitions CMSIS wants from a device header. Every rtoslab board is a
 * Cortex-M0 with 2 NVIC priority bits (4 levels) and 32 external lines.
 */
#ifndef CMPARAMS_H
#define CMPARAMS_H

#define CORTEX_MODEL            0
#define CORTEX_HAS_FPU          0
#define CORTEX_PRIORITY_BITS    2
#define CORTEX_NUM_VECTORS      32

#if !defined(_FROM_ASM_)
typedef enum {
  NonMaskableInt_IRQn = -14,
  HardFault_IRQn      = -13,
  SVCall_IRQn         = -5,
  PendSV_IRQn         = -2,
  SysTick_IRQn        = -1
} IRQn_Type;

#define __CM0_REV               0x0000U
#define __MPU_PRESENT           0U
#define __NVIC_PRIO_BITS        2U
#define __Vendor_SysTickConfig  0U

#include "core_cm0.h"
#endif

#endif /* CMPARAMS_H */
