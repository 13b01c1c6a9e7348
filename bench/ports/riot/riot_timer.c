/*
 * RIOT's periph_timer interface (drivers/include/periph/timer.h) on the board's cycle counter
 * and compare alarm: TIMER_DEV(0) counts core cycles (board_cycles(), 32 bits, BOARD_CLOCK_HZ)
 * and its one channel is board_alarm_set/cancel. ztimer (sys/ztimer/periph_timer.c) runs on it,
 * so RIOT is tick-less here as it is on its own boards. The alarm's handler is a RIOT
 * interrupt handler: the driver's callback, then cortexm_isr_end() (RIOT's ISR epilogue).
 * Written for this port.
 */
#include "board.h"
#include "cpu.h"
#include "irq.h"
#include "periph/timer.h"

static timer_isr_ctx_t ctx;

int timer_init(tim_t dev, uint32_t freq, timer_cb_t cb, void *arg)
{
    if (dev != TIMER_DEV(0) || freq != BOARD_CLOCK_HZ)
        return -1;
    ctx.cb = cb;
    ctx.arg = arg;
    board_alarm_cancel();
    board_irq_enable(BOARD_ALARM_IRQ, CPU_DEFAULT_IRQ_PRIO);
    return 0;
}

int timer_set_absolute(tim_t dev, int channel, unsigned int value)
{
    (void)dev;
    (void)channel;
    board_alarm_set(value);
    return 0;
}

int timer_set(tim_t dev, int channel, unsigned int timeout)
{
    (void)dev;
    (void)channel;
    unsigned s = irq_disable();
    board_alarm_set(board_cycles() + timeout);
    irq_restore(s);
    return 0;
}

int timer_clear(tim_t dev, int channel)
{
    (void)dev;
    (void)channel;
    board_alarm_cancel();
    return 0;
}

unsigned int timer_read(tim_t dev)
{
    (void)dev;
    return board_cycles();
}

void timer_start(tim_t dev) { (void)dev; }
void timer_stop(tim_t dev) { (void)dev; }

/* The board's alarm interrupt (the board's vector calls it). */
void board_alarm_isr(void)
{
    ctx.cb(ctx.arg, 0);
    cortexm_isr_end();
}
