/* ChibiOS 3.0.0p3's own test suite (test/rt, unchanged) on the simulator, started as the
 * STM32F407-Discovery demo (demos/STM32/RT-STM32F407-DISCOVERY) starts it with the user button
 * pressed: halInit, chSysInit, sdStart, a LED blinker thread, then TestThread from main; so that
 * its benchmark scores compare with the published reports doc/rt/reports/STM32F407-168-GCC.txt
 * and -GCC-FPU.txt (scripts and table: python/rtoslab/silicon.py, docs/results.md "Against
 * silicon").
 *
 * What replaces the HAL: the tickless system timer (st.h here, and its interrupt below at TIM2's
 * priority, mcuconf.h's STM32_ST_IRQ_PRIORITY 8), and a stream on the lab UART instead of USART2
 * (the report's serial port drained its 16-byte queue by interrupts at 38400 baud at the start
 * of each test; not reproduced, a few interrupts per second of benchmark; nor is the blinker,
 * which wakes twice a second). The exit status is the suite's result (0 = every test passed). */
#include "ch.h"
#include "hal.h"
#include "test.h"
#include "lab_regs.h"

/* NVIC (ARMv7-M ARM B3.4): the set-enable and the priority bytes of IRQ 0..3. */
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define NVIC_IPR0 (*(volatile uint32_t *)0xE000E400u)
#define ST_IRQ_PRIORITY 8u /* mcuconf.h: STM32_ST_IRQ_PRIORITY */

/* st_lld.c's TIM2 handler: the kernel's timer handler under the lock. */
CH_IRQ_HANDLER(Vector40) {
  CH_IRQ_PROLOGUE();
  chSysLockFromISR();
  chSysTimerHandlerI();
  chSysUnlockFromISR();
  CH_IRQ_EPILOGUE();
}

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

static msg_t uart_put(void *ip, uint8_t b) {
  (void)ip;
  LAB_UART_TX = b;
  return MSG_OK;
}

static msg_t uart_get(void *ip) {
  (void)ip;
  return MSG_RESET;
}

static const struct BaseSequentialStreamVMT uart_vmt = {uart_write, uart_read, uart_put, uart_get};
static BaseSequentialStream uart = {&uart_vmt};

int main(void) {
  /* st_lld_init: the timer's interrupt at its priority (4 priority bits, in the high nibble). */
  NVIC_IPR0 = ST_IRQ_PRIORITY << 4;
  NVIC_ISER0 = 1u;
  chSysInit();
  TestThread(&uart);
  LAB_EXIT = test_global_fail ? 1u : 0u;
  for (;;)
    ;
}
