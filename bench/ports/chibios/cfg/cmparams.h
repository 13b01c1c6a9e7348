/*
 * cmparams.h for the ChibiOS/RT ARMv6-M and ARMv7-M ports on the rtoslab boards (written for this port).
 *
 * ChibiOS normally takes this file from its HAL (os/hal/ports/<vendor>/<family>/cmparams.h),
 * which is not in the pinned archive. It gives the port the core's parameters and the CMSIS
 * core header (os/common/ext/ARM/CMSIS/Core/Include/core_cm0.h, from the archive), with the
 * few device definitions CMSIS wants from a device header. The ARMv6-M boards are Cortex-M0s
 * with 2 NVIC priority bits (4 levels) and 32 external lines; the ARMv7-M ones below.
 */
#ifndef CMPARAMS_H
#define CMPARAMS_H

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
/* The ARMv7-M boards (os/common/ports/ARMv7-M): Cortex-M3, or Cortex-M4 with the FPU when
 * the image is hard-float; 3 priority bits, the fewest an ARMv7-M part has (the board's
 * levels 0..3 are bytes 0x20..0xE0: ChibiOS priorities 1, 3, 5, 7). */
#if defined(__ARM_ARCH_7EM__)
#define CORTEX_MODEL            4
#else
#define CORTEX_MODEL            3
#endif
#if defined(__ARM_FP)
#define CORTEX_HAS_FPU          1
#else
#define CORTEX_HAS_FPU          0
#endif
#define CORTEX_PRIORITY_BITS    3
#else
#define CORTEX_MODEL            0
#define CORTEX_HAS_FPU          0
#define CORTEX_PRIORITY_BITS    2
#endif
#define CORTEX_NUM_VECTORS      32

#if !defined(_FROM_ASM_)
typedef enum {
  NonMaskableInt_IRQn = -14,
  HardFault_IRQn      = -13,
  SVCall_IRQn         = -5,
  PendSV_IRQn         = -2,
  SysTick_IRQn        = -1
} IRQn_Type;

#define __MPU_PRESENT           0U
#define __NVIC_PRIO_BITS        CORTEX_PRIORITY_BITS
#define __Vendor_SysTickConfig  0U

#if CORTEX_MODEL == 4
#define __CM4_REV               0x0001U
#define __FPU_PRESENT           CORTEX_HAS_FPU
#include "core_cm4.h"
#elif CORTEX_MODEL == 3
#define __CM3_REV               0x0201U
#include "core_cm3.h"
#else
#define __CM0_REV               0x0000U
#include "core_cm0.h"
#endif
#endif

#endif /* CMPARAMS_H */
