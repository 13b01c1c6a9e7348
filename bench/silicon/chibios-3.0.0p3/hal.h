/* The HAL header ChibiOS 3.0's test suite includes (test/rt/test.c). The suite needs no driver
 * of the HAL, only the kernel's BaseSequentialStream it prints to; the STM32F4 HAL is not in the
 * pinned archive, and this harness (main.c, st.h) replaces what it did before the test thread
 * ran: the system timer (TIM2, tickless) and the serial port. */
#ifndef SILICON_HAL_H
#define SILICON_HAL_H

#include "ch.h"

#define PLATFORM_NAME "rtoslab vp (STM32F407 silicon reference)"
#define BOARD_NAME "vp-stm32f407"

#endif
