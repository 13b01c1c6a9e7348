/* The few System Control Space registers the board layer needs (ARMv6-M, and ARMv7-M's
 * superset). */
#ifndef ARMV6M_NVIC_H
#define ARMV6M_NVIC_H

#include <stdint.h>

#define SCS_REG(addr) (*(volatile uint32_t *)(addr))
#define NVIC_ISER SCS_REG(0xE000E100u)
#define NVIC_ICER SCS_REG(0xE000E180u)
#define NVIC_ISPR SCS_REG(0xE000E200u)
#define NVIC_ICPR SCS_REG(0xE000E280u)
#define NVIC_IPR(n) SCS_REG(0xE000E400u + 4u * ((n) >> 2))

/* The priority byte of the board's level `prio` (0, the most urgent, .. 3): ARMv6-M has 2
 * priority bits, in bits 7:6 of each byte. ARMv7-M has 3 or more: the four levels sit below
 * byte 0x20 (bit 5 set), and the bytes 0x00-0x1F above them are left to interrupts that call
 * no kernel: every kernel masks with BASEPRI = 0x20 (kernel/arch/armv7m, FreeRTOSConfig.h), so
 * the board's four levels are all kernel-aware, as under PRIMASK on ARMv6-M. */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define NVIC_PRIO_BYTE(prio) ((((prio) & 3u) << 6) | 0x20u)
#define NVIC_KERNEL_BASEPRI 0x20u
#else
#define NVIC_PRIO_BYTE(prio) (((prio) & 3u) << 6)
#endif

static inline void nvic_set_priority(unsigned irq, unsigned prio)
{
    unsigned shift = 8u * (irq & 3u);
    uint32_t v = NVIC_IPR(irq);
    v &= ~(0xFFu << shift);
    v |= (uint32_t)NVIC_PRIO_BYTE(prio) << shift;
    NVIC_IPR(irq) = v;
}

#endif
