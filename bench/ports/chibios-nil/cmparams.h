/*
 * Cortex-M parameters of the boards (written for this port, in place of the per-device
 * os/common/startup/ARMCMx/devices/<dev>/cmparams.h): every board of the suite is a
 * Cortex-M0 with 2 priority bits and 32 interrupt lines. The C part pulls in the CMSIS
 * core header of the ChibiOS tree through a minimal device header.
 */
#ifndef CMPARAMS_H
#define CMPARAMS_H

#define CORTEX_MODEL            0
#define CORTEX_HAS_FPU          0
#define CORTEX_PRIORITY_BITS    2U
#define CORTEX_NUM_VECTORS      32
#define CORTEX_MPU_REGIONS      0

#if !defined(_FROM_ASM_)
#include "rtb_nil_device.h"
#endif

#endif
