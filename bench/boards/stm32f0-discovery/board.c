/*
 * Board layer of the STM32F0 Discovery (STM32F051R8): clock tree, USART1 console, TIM2 as
 * cycle counter and alarm, GPIOC as the probe. Register addresses from RM0091.
 */
#include "armv6m_nvic.h"
#include "board.h"

#define REG(a) (*(volatile uint32_t *)(a))
#define RCC_CR REG(0x40021000u)
#define RCC_CFGR REG(0x40021004u)
#define RCC_AHBENR REG(0x40021014u)
#define RCC_APB2ENR REG(0x40021018u)
#define RCC_APB1ENR REG(0x4002101Cu)
#define FLASH_ACR REG(0x40022000u)
#define GPIOA_MODER REG(0x48000000u)
#define GPIOA_AFRH REG(0x48000024u)
#define GPIOC_MODER REG(0x48000800u)
#define GPIOC_OSPEEDR REG(0x48000808u)
#define USART1_CR1 REG(0x40013800u)
#define USART1_BRR REG(0x4001380Cu)
#define USART1_ISR REG(0x4001381Cu)
#define USART1_TDR REG(0x40013828u)
#define TIM2_CR1 REG(0x40000000u)
#define TIM2_DIER REG(0x4000000Cu)
#define TIM2_SR REG(0x40000010u)
#define TIM2_EGR REG(0x40000014u)
#define TIM2_PSC REG(0x40000028u)
#define TIM2_ARR REG(0x4000002Cu)
#define TIM2_CCR1 REG(0x40000034u)

void board_init(void)
{
    /* 48 MHz: HSI/2 x 12 through the PLL; one wait state and the prefetch buffer first. */
    FLASH_ACR = (1u << 4) | 1u;
    RCC_CFGR = (RCC_CFGR & ~((0xFu << 18) | (1u << 16))) | (10u << 18); /* PLLSRC=HSI/2, PLLMUL=x12 */
    RCC_CR |= 1u << 24;                                                   /* PLLON */
    while (!(RCC_CR & (1u << 25))) {
    }
    RCC_CFGR = (RCC_CFGR & ~3u) | 2u; /* SYSCLK = PLL */
    while ((RCC_CFGR & (3u << 2)) != (2u << 2)) {
    }

    RCC_AHBENR |= (1u << 17) | (1u << 19); /* GPIOA, GPIOC */
    RCC_APB2ENR |= 1u << 14;               /* USART1 */
    RCC_APB1ENR |= 1u << 0;                /* TIM2 */

    /* PA9 = USART1_TX (AF1), 115200 8N1 */
    GPIOA_MODER = (GPIOA_MODER & ~(3u << 18)) | (2u << 18);
    GPIOA_AFRH = (GPIOA_AFRH & ~(0xFu << 4)) | (1u << 4);
    USART1_BRR = (BOARD_CLOCK_HZ + 57600u) / 115200u;
    USART1_CR1 = (1u << 3) | 1u; /* TE, UE */

    /* PC8..PC15 outputs, high speed: the probe */
    GPIOC_MODER = (GPIOC_MODER & 0x0000FFFFu) | 0x55550000u;
    GPIOC_OSPEEDR |= 0xFFFF0000u;

    /* TIM2: free-running 32-bit counter at the core clock */
    TIM2_PSC = 0;
    TIM2_ARR = 0xFFFFFFFFu;
    TIM2_EGR = 1u;
    TIM2_SR = 0;
    TIM2_CR1 = 1u;
}

void board_putc(char c)
{
    if (c == '\n')
        board_putc('\r');
    while (!(USART1_ISR & (1u << 7))) { /* TXE */
    }
    USART1_TDR = (uint8_t)c;
}


void board_exit(int status)
{
    (void)status;
    while (!(USART1_ISR & (1u << 6))) { /* TC: the last byte is out */
    }
    __asm volatile("cpsid i");
    for (;;)
        __asm volatile("wfi");
}

uint64_t board_cycles64(void)
{
    return board_cycles(); /* 32 bits at 48 MHz: 89 s, longer than any run of the suite */
}

void board_alarm_set(uint32_t at_cycle)
{
    TIM2_CCR1 = at_cycle;
    TIM2_SR = ~(1u << 1);
    TIM2_DIER |= 1u << 1; /* CC1IE */
    if ((int32_t)(board_cycles() - at_cycle) >= 0)
        NVIC_ISPR = 1u << BOARD_ALARM_IRQ; /* already due: fire at once, as on the lab board */
}

void board_alarm_cancel(void)
{
    TIM2_DIER &= ~(1u << 1);
    TIM2_SR = ~(1u << 1);
    NVIC_ICPR = 1u << BOARD_ALARM_IRQ;
}

__attribute__((weak)) void board_alarm_isr(void)
{
}

void IRQ15_Handler(void)
{
    TIM2_DIER &= ~(1u << 1); /* one-shot, like the lab compare timer */
    TIM2_SR = ~(1u << 1);
    board_alarm_isr();
}
