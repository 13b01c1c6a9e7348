/* Interrupt control through the ARMv6-M NVIC, shared by every ARMv6-M board. */
#include "armv6m_nvic.h"
#include "board.h"

void board_irq_trigger(unsigned irq)
{
    NVIC_ISPR = 1u << irq;
}

void board_irq_enable(unsigned irq, unsigned priority)
{
    nvic_set_priority(irq, priority);
    NVIC_ISER = 1u << irq;
}

void board_irq_disable(unsigned irq)
{
    NVIC_ICER = 1u << irq;
}
