/* The tick-less sleep of RTX5's idle thread (os_tick_systick.c, used by rtx5_idle.c). */
#ifndef RTX5_SLEEP_H
#define RTX5_SLEEP_H
#include <stdint.h>
/* Sleep at most `ticks` ticks with the kernel suspended; returns the whole ticks slept. */
uint32_t rtb_rtx_tick_sleep(uint32_t ticks);
#endif
