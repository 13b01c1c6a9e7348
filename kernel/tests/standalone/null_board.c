/* The standalone build's board (rtoslab_board.h): the board_if.h functions, doing nothing. */
#include "rtoslab/board_if.h"

volatile uint32_t null_board_counter;

void board_alarm_set(uint32_t at_cycle) { (void)at_cycle; }
void board_irq_enable(unsigned irq, unsigned priority) { (void)irq, (void)priority; }
void board_puts(const char *s) { (void)s; }
void board_exit(int status)
{
    (void)status;
    for (;;) {
    }
}
