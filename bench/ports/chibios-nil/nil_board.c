/*
 * The board glue of the ChibiOS/NIL port (written for this port): the start-up on the
 * process stack and the system timer's interrupt handler.
 *
 * ChibiOS's own crt0 runs main() on the process stack (PSP) and keeps the main stack (MSP)
 * for exceptions; NIL's ARMv6-M port relies on it (its ISR epilogue edits the frame at
 * PSP). The suite's board start-up runs main() on MSP, so rtb_nil_run() moves thread mode
 * to PSP first. The alarm handler is the HAL ST driver's shape: CH_IRQ_PROLOGUE, the
 * kernel's chSysTimerHandlerI() under chSysLockFromISR, CH_IRQ_EPILOGUE.
 */
#include "nil_board.h"

#include "board.h"

systime_t rtb_nil_alarm_at; /* chcore_timer.h: port_timer_get_alarm() */

static void (*run_after_init)(void);

void rtb_nil_boot(void) __attribute__((noreturn, used));
void rtb_nil_boot(void)
{
    board_irq_enable(BOARD_ALARM_IRQ, RTB_NIL_ALARM_PRIO); /* not armed yet */
    chSysInit();
    run_after_init();
    for (;;)
        __WFI();
}

__attribute__((naked, noreturn)) static void to_process_stack(uint32_t top)
{
    (void)top;
    __asm volatile("msr psp, r0\n"
                   "movs r0, #2\n"
                   "msr control, r0\n"
                   "isb\n"
                   "bl rtb_nil_boot\n");
}

void rtb_nil_run(stkalign_t *idle_stack, size_t bytes, void (*after_init)(void))
{
    run_after_init = after_init;
    to_process_stack((uint32_t)((uint8_t *)idle_stack + (bytes & ~(size_t)7u)));
}

void board_alarm_isr(void)
{
    CH_IRQ_PROLOGUE();
    chSysLockFromISR();
    chSysTimerHandlerI();
    chSysUnlockFromISR();
    CH_IRQ_EPILOGUE();
}
