/*
 * What the simulated lab boards have in common (board layer "lab"): the board_config.h
 * generated from a board's board.toml (bench/boards/CMakeLists.txt) defines BOARD_NAME,
 * BOARD_CLOCK_HZ and BOARD_RAM_BYTES and includes this.
 */
#ifndef LAB_BOARD_CONFIG_H
#define LAB_BOARD_CONFIG_H

#include "lab_regs.h"

#define BOARD_CYCLE_ACCURATE 1
#define BOARD_HAS_ALARM 1
#define BOARD_ALARM_IRQ LAB_TIMER_IRQ
#define BOARD_HAS_STIMULUS 1
#define BOARD_STIM_IRQ LAB_STIM_IRQ
#define BOARD_STIM_FALL_IRQ LAB_STIM_FALL_IRQ
#define BOARD_HAS_PROBE 1

/* The hot-path operations: one load or one store each. */
static inline uint32_t board_cycles(void) { return LAB_TIMER_NOW; }
static inline void board_probe_set(uint32_t pins) { LAB_PROBE_SET = pins; }
static inline void board_probe_clr(uint32_t pins) { LAB_PROBE_CLR = pins; }
static inline void board_probe_mark(uint32_t value) { LAB_PROBE_MARK = value; }
/* The rtoslab kernel's deep idle (board_if.h): whether the alarm is armed, and for when; inline,
 * since the idle loop asks with interrupts masked. */
static inline int board_alarm_armed(uint32_t *at_cycle)
{
    *at_cycle = LAB_TIMER_CMP;
    return (int)(LAB_TIMER_CTRL & 1u);
}

#endif
