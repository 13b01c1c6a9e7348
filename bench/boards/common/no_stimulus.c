/*
 * The stimulus calls for boards without a signal generator (everything but the simulator):
 * they report nothing, and tests that need an interrupt use board_irq_trigger() instead
 * (BOARD_HAS_STIMULUS is 0 on these boards, so the suite knows).
 */
#include "board.h"

void board_stim_arm(uint32_t at_cycle, uint32_t period, uint32_t width)
{
    (void)at_cycle, (void)period, (void)width;
}
void board_stim_disarm(void) {}
uint32_t board_stim_last_rise(void) { return 0; }
uint32_t board_stim_last_fall(void) { return 0; }
uint32_t board_stim_count(void) { return 0; }
