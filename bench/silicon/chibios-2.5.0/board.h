/* The board header the port's STM32F1xx vectors.c includes; the STM32VL-Discovery board files
 * are not in the pinned archive and the vector table needs nothing from them. */
#ifndef SILICON_BOARD_H
#define SILICON_BOARD_H
#endif
