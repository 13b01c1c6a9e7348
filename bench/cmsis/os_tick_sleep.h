/* The tick-less sleep on the OS Tick of os_tick_systick.c (RTX5's idle thread uses it). */
#ifndef OS_TICK_SLEEP_H
#define OS_TICK_SLEEP_H
#include <stdint.h>
/* Sleep at most `ticks` ticks with the tick stopped (OS_Tick_Disable); returns the whole
 * ticks slept. */
uint32_t os_tick_sleep(uint32_t ticks);
#endif
