/* The board header the port's STM32F4xx cmparams.h includes for the device's name, which
 * selects the CMSIS device header (the ST_STM32F4_DISCOVERY board.h defines the same); the
 * board files themselves are not in the pinned archive and the suite needs nothing else. */
#ifndef SILICON_BOARD_H
#define SILICON_BOARD_H

#define STM32F407xx

#endif
