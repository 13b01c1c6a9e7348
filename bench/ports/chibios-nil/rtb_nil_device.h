/* A minimal CMSIS device header for the suite's boards (written for this port): what
 * core_cm0.h (core_cm3.h, core_cm4.h on ARMv7-M) needs. Only the core exceptions are named; the suite names its lines. */
#ifndef RTB_NIL_DEVICE_H
#define RTB_NIL_DEVICE_H

typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    SVCall_IRQn = -5,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
} IRQn_Type;

#define __MPU_PRESENT 0U
#define __NVIC_PRIO_BITS CORTEX_PRIORITY_BITS
#define __Vendor_SysTickConfig 0U

#if CORTEX_MODEL == 4
#define __CM4_REV 0x0001U
#define __FPU_PRESENT CORTEX_HAS_FPU
#include "core_cm4.h"
#elif CORTEX_MODEL == 3
#define __CM3_REV 0x0201U
#include "core_cm3.h"
#else
#define __CM0_REV 0x0000U
#include "core_cm0.h"
#endif

#endif
