/* The HAL header ChibiOS 2.5.0's test suite includes (test/test.c). The suite needs no driver
 * of the HAL, only the kernel's BaseSequentialStream it prints to; the STM32F103 demo's HAL is
 * not in the pinned archive, and this harness (main.c) replaces the two things it did before
 * the test thread ran: the SysTick set-up and the serial port. */
#ifndef SILICON_HAL_H
#define SILICON_HAL_H

#include "ch.h"

#define PLATFORM_NAME "rtoslab vp (STM32F103 silicon reference)"
#define BOARD_NAME "vp-stm32f103"

#endif
