/*
 * Cortex-M parameters of the boards (written for this port, in place of the per-device
 * os/common/startup/ARMCMx/devices/<dev>/cmparams.h): the ARMv6-M boards are Cortex-M0s
 * with 2 priority bits and 32 interrupt lines; the ARMv7-M ones below. The C part pulls in the CMSIS
 * core header of the ChibiOS tree through a minimal device header.
 */
#ifndef CMPARAMS_H
#define CMPARAMS_H

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
/* The ARMv7-M boards (os/common/ports/ARMv7-M): Cortex-M3, or M4 with the FPU when the image
 * is hard-float; 3 priority bits, the fewest an ARMv7-M part has. */
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
#define CORTEX_PRIORITY_BITS    3U
#else
#define CORTEX_MODEL            0
#define CORTEX_HAS_FPU          0
#define CORTEX_PRIORITY_BITS    2U
#endif
#define CORTEX_NUM_VECTORS      32
#define CORTEX_MPU_REGIONS      0

#if !defined(_FROM_ASM_)
#include "rtb_nil_device.h"
#endif

#endif
