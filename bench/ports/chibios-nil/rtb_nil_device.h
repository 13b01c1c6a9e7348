/* A minimal CMSIS device header for the suite's Cortex-M0 boards (written for this port):
 * what core_cm0.h needs. Only the core exceptions are named; the suite names its lines. */
#ifndef RTB_NIL_DEVICE_H
#define RTB_NIL_DEVICE_H

typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    SVCall_IRQn = -5,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
} IRQn_Type;

#define __CM0_REV 0x0000U
#define __MPU_PRESENT 0U
#define __NVIC_PRIO_BITS 2U
#define __Vendor_SysTickConfig 0U

#include "core_cm0.h"

#endif
