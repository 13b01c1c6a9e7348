/* What every ChibiOS/NIL image of this port shares (nil_board.c): the start on the process
 * stack and the system timer's interrupt on the board's compare alarm. */
#ifndef NIL_BOARD_H
#define NIL_BOARD_H
#include <stddef.h>
#include "ch.h"

/* main() becomes NIL's idle thread on `idle_stack` (the process stack, as ChibiOS's crt0
 * sets it up): chSysInit(), the alarm interrupt enabled, then `after_init` (which creates
 * the first threads), then the idle loop (WFI). Never returns. */
void rtb_nil_run(stkalign_t *idle_stack, size_t bytes, void (*after_init)(void)) __attribute__((noreturn));

#define RTB_NIL_ALARM_PRIO 2 /* the NIL demo's STM32_ST_IRQ_PRIORITY (mcuconf.h) */
#endif
