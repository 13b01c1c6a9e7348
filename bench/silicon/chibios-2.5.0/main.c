/* ChibiOS 2.5.0's own test suite (test/, unchanged) on the simulator, started as the STM32F103
 * (Olimex STM32-P103) demo starts it with the user button pressed (demos/ARMCM3-STM32F103
 * main.c: halInit, chSysInit, sdStart, a LED blinker thread, then TestThread from main), so that its benchmark
 * scores compare with the published report docs/reports/STM32F103-72-GCC.txt (scripts and
 * table: python/rtoslab/silicon.py, docs/results.md "Against silicon").
 *
 * What replaces the HAL: SysTick counting the 72 MHz core clock to CH_FREQUENCY, as the
 * STM32F1xx hal_lld_init programs it, and a stream on the lab UART instead of USART2 (the
 * report's serial port drained its 16-byte queue by interrupts at 38400 baud at the start of
 * each test; not reproduced, a few interrupts per second of benchmark; nor is the blinker, which wakes
 * twice a second). The exit status is
 * TestThread's result (0 = every test passed). */
#include "ch.h"
#include "hal.h"
#include "test.h"
#include "lab_regs.h"

#define CORE_HZ 72000000u /* the report's SYSCLK (its header: "SYSCLK=72") */

/* SysTick (ARMv7-M ARM B3.3): CSR, RVR, CVR. */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE_TICKINT_CORECLK 7u

/* 2.5.0's test suite prints to a BaseChannel (os/kernel/include/chioch.h): the stream methods
 * and the timed ones; the suite calls put only. */
static size_t uart_write(void *ip, const uint8_t *bp, size_t n) {
  (void)ip;
  for (size_t i = 0; i < n; i++)
    LAB_UART_TX = bp[i];
  return n;
}

static size_t uart_read(void *ip, uint8_t *bp, size_t n) {
  (void)ip; (void)bp; (void)n;
  return 0;
}

static bool_t uart_putwouldblock(void *ip) {
  (void)ip;
  return FALSE;
}

static bool_t uart_getwouldblock(void *ip) {
  (void)ip;
  return TRUE;
}

static msg_t uart_put(void *ip, uint8_t b, systime_t time) {
  (void)ip; (void)time;
  LAB_UART_TX = b;
  return RDY_OK;
}

static msg_t uart_get(void *ip, systime_t time) {
  (void)ip; (void)time;
  return RDY_RESET;
}

static size_t uart_writet(void *ip, const uint8_t *bp, size_t n, systime_t time) {
  (void)time;
  return uart_write(ip, bp, n);
}

static size_t uart_readt(void *ip, uint8_t *bp, size_t n, systime_t time) {
  (void)time;
  return uart_read(ip, bp, n);
}

static const struct BaseChannelVMT uart_vmt = {uart_write, uart_read, uart_putwouldblock,
                                               uart_getwouldblock, uart_put, uart_get,
                                               uart_writet, uart_readt};
static BaseChannel uart = {&uart_vmt};

int main(void) {
  /* hal_lld_init (STM32F1xx): the system tick from the core clock, interrupt enabled. */
  SYST_RVR = CORE_HZ / CH_FREQUENCY - 1;
  SYST_CVR = 0;
  SYST_CSR = SYST_CSR_ENABLE_TICKINT_CORECLK;
  chSysInit();
  LAB_EXIT = (uint32_t)TestThread(&uart);
  for (;;)
    ;
}
