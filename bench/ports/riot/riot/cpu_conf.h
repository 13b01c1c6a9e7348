/*
 * cpu_conf.h - the CPU configuration RIOT's cortexm_common code expects from a CPU directory
 * (cpu/<cpu>/include/cpu_conf.h). Our boards are generic Cortex-M0 parts (the simulated lab
 * board, QEMU's nRF51, an STM32F051) and QEMU's MPS2 Cortex-M3/M4F, so this port describes a
 * bare core with the CMSIS core header instead of a vendor header. Written for this port, after RIOT's
 * cpu/nrf51/include/cpu_conf.h (same default IRQ priority).
 */
#ifndef RTB_RIOT_CPU_CONF_H
#define RTB_RIOT_CPU_CONF_H

#include "cpu_conf_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CMSIS device description of a Cortex-M0 with 2 priority bits and 32 external lines. */
typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    SVCall_IRQn = -5,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    IRQ0_IRQn = 0,
} IRQn_Type;

#define __MPU_PRESENT 0U
#define __Vendor_SysTickConfig 0U
#if defined(CPU_ARCH_ARMV7M)
/* The ARMv7-M boards: 3 priority bits (the fewest an ARMv7-M part has), VTOR. */
#define __NVIC_PRIO_BITS 3U
#if defined(CPU_CORE_CORTEX_M3)
#define __CM3_REV 0x0201U
#include "core_cm3.h"
#else
#define __CM4_REV 0x0001U
#if defined(CPU_CORE_CORTEX_M4F)
#define __FPU_PRESENT 1U
#else
#define __FPU_PRESENT 0U
#endif
#include "core_cm4.h"
#endif
#else
#define __CM0_REV 0x0000U
#define __VTOR_PRESENT 0U
#define __NVIC_PRIO_BITS 2U
#include "core_cm0.h"
#endif

#define CPU_DEFAULT_IRQ_PRIO (1U) /* as cpu/nrf51 */
#define CPU_IRQ_NUMOF (32U)
#define CPU_FLASH_BASE (0x00000000)

#ifdef __cplusplus
}
#endif
#endif
