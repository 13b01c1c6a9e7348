/* The few System Control Space registers the board layer needs (ARMv6-M). */
#ifndef ARMV6M_NVIC_H
#define ARMV6M_NVIC_H

#include <stdint.h>

#define SCS_REG(addr) (*(volatile uint32_t *)(addr))
#define NVIC_ISER SCS_REG(0xE000E100u)
#define NVIC_ICER SCS_REG(0xE000E180u)
#define NVIC_ISPR SCS_REG(0xE000E200u)
#define NVIC_ICPR SCS_REG(0xE000E280u)
#define NVIC_IPR(n) SCS_REG(0xE000E400u + 4u * ((n) >> 2))

static inline void nvic_set_priority(unsigned irq, unsigned prio)
{
    unsigned shift = 8u * (irq & 3u);
    uint32_t v = NVIC_IPR(irq);
    v &= ~(0xFFu << shift);
    v |= ((prio & 3u) << 6) << shift; /* 2 priority bits, in bits 7:6 of each byte */
    NVIC_IPR(irq) = v;
}

#endif
