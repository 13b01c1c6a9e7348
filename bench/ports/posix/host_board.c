/* The board layer of the `host` board: console on stdout, exit(). */
#include <stdio.h>
#include <stdlib.h>

#include "board.h"

/* "Reset" of the host board: the start of the process (a constructor runs before main). */
static uint64_t t_reset;
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
__attribute__((constructor)) static void host_reset(void)
{
    t_reset = mono_ns();
    setvbuf(stdout, NULL, _IOLBF, 0); /* whole lines, so nothing is lost if the run is killed */
}

void board_init(void) {}
void board_putc(char c) { putchar(c); }
void board_write(const char *s, size_t n) { fwrite(s, 1, n, stdout); }
void board_puts(const char *s) { fputs(s, stdout); }
void board_exit(int status)
{
    fflush(stdout);
    _Exit(status);
}
uint64_t board_cycles64(void) { return mono_ns() - t_reset; }
void board_alarm_set(uint32_t at_cycle) { (void)at_cycle; }
void board_alarm_cancel(void) {}
void board_stim_arm(uint32_t at_cycle, uint32_t period, uint32_t width)
{
    (void)at_cycle, (void)period, (void)width;
}
void board_stim_disarm(void) {}
uint32_t board_stim_last_rise(void) { return 0; }
uint32_t board_stim_last_fall(void) { return 0; }
uint32_t board_stim_count(void) { return 0; }
void board_irq_trigger(unsigned irq) { (void)irq; }
void board_irq_enable(unsigned irq, unsigned priority) { (void)irq, (void)priority; }
void board_irq_disable(unsigned irq) { (void)irq; }
void bench_irq_clear_pending(unsigned irq) { (void)irq; }
volatile uint32_t bench_entry_stops_probe;
