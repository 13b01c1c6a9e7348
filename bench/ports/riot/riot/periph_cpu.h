/*
 * periph_cpu.h - the peripheral types of this port's "CPU" for RIOT's driver interfaces.
 * Only periph_timer is used: one timer device, the board's 32-bit cycle counter with its
 * compare alarm (riot_timer.c). Written for this port.
 */
#ifndef RTB_RIOT_PERIPH_CPU_H
#define RTB_RIOT_PERIPH_CPU_H

#include <stdint.h>
#include "cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* timer_set() is implemented by the driver (relative to the counter, with IRQs off). */
#define PERIPH_TIMER_PROVIDES_SET 1

#ifdef __cplusplus
}
#endif
#endif
