/*
 * Harness running ChibiOS/NIL's own test suite (test/nil, with os/test's framework, both
 * unchanged) on the suite's boards: the NIL-STM32F051-DISCOVERY demo's thread table (two
 * sleeping blinkers at slots 0 and 1, the tester at slot 4) without LEDs or serial driver;
 * the tester runs test_execute on nil_test_suite with output to the board console, and
 * exits 0 when the suite's final result is SUCCESS, 1 otherwise.
 */
#include "ch.h"
#include "hal.h"
#include "nil_test_root.h"

#include "board.h"
#include "nil_board.h"

static int put(int c)
{
    if (c != '\r')
        board_putc((char)c);
    return c;
}

static THD_WORKING_AREA(wa_blinker1, 128);
static THD_FUNCTION(blinker1, arg)
{
    (void)arg;
    for (;;)
        chThdSleepMilliseconds(500);
}

static THD_WORKING_AREA(wa_blinker2, 128);
static THD_FUNCTION(blinker2, arg)
{
    (void)arg;
    for (;;)
        chThdSleepMilliseconds(250);
}

static THD_WORKING_AREA(wa_tester, 512);
static THD_FUNCTION(tester, arg)
{
    (void)arg;
    bool fail = test_execute_putchar(put, &nil_test_suite);
    board_puts(fail ? "owntest-chibios-nil: FAILURE\n" : "owntest-chibios-nil: SUCCESS\n");
    board_exit(fail ? 1 : 0);
}

THD_TABLE_BEGIN
  THD_TABLE_THREAD(0, "blinker1", wa_blinker1, blinker1, NULL)
  THD_TABLE_THREAD(1, "blinker2", wa_blinker2, blinker2, NULL)
  THD_TABLE_THREAD(4, "tester", wa_tester, tester, NULL)
THD_TABLE_END

static stkalign_t idle_stack[32];

static void nothing(void) {}

int main(void)
{
    rtb_nil_run(idle_stack, sizeof idle_stack, nothing);
}
