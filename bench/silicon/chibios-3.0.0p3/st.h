/* The HAL's system-timer driver (os/hal/include/st.h) the port's chcore_timer.h includes: the
 * kernel runs tickless (the demo's chconf.h: CH_CFG_ST_TIMEDELTA 2, CH_CFG_ST_FREQUENCY 10000),
 * on the STM32F4's 32-bit TIM2 counting at 10 kHz with compare channel 1 as the alarm (the
 * HAL's st_lld.c). Here the same counter and alarm on the lab board's compare timer (docs/board.md,
 * "Compare timer"): the count is the cycle counter divided by the cycles per tick, the alarm the
 * comparator at that tick's first cycle. The count wraps with the cycle counter's low 32 bits
 * (2^32 cycles, 25.5 s at 168 MHz), not at 2^32 ticks: the suite finishes well before. */
#ifndef SILICON_ST_H
#define SILICON_ST_H

#include "lab_regs.h"

#define ST_CORE_HZ 168000000u /* the report's SYSCLK (STM32F4-Discovery demo: 168 MHz) */
#define ST_CYCLES_PER_TICK (ST_CORE_HZ / CH_CFG_ST_FREQUENCY)
#define ST_ARM 1u

/* stGetCounter: TIM2->CNT */
static inline systime_t stGetCounter(void) {
  return (systime_t)(LAB_TIMER_NOW / ST_CYCLES_PER_TICK);
}

/* stStartAlarm: CCR1 = time, SR = 0, DIER = CC1IE */
static inline void stStartAlarm(systime_t time) {
  LAB_TIMER_CMP = (uint32_t)time * ST_CYCLES_PER_TICK;
  LAB_TIMER_CTRL = ST_ARM;
}

/* stStopAlarm: DIER = 0 */
static inline void stStopAlarm(void) {
  LAB_TIMER_CTRL = 0;
}

/* stSetAlarm: CCR1 = time (the comparator disarms when it fires, TIM2's stays enabled) */
static inline void stSetAlarm(systime_t time) {
  LAB_TIMER_CMP = (uint32_t)time * ST_CYCLES_PER_TICK;
  LAB_TIMER_CTRL = ST_ARM;
}

/* stGetAlarm: CCR1 */
static inline systime_t stGetAlarm(void) {
  return (systime_t)(LAB_TIMER_CMP / ST_CYCLES_PER_TICK);
}

#endif
