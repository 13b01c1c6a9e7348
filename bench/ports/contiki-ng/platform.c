/*
 * platform.c - the minimal Contiki-NG "platform" of this port (written for the suite; no
 * Contiki-NG platform exists for a Cortex-M0 in 5.0): the clock (os/sys/clock.h), the rtimer
 * architecture (os/sys/rtimer.h) and the idle/scheduler loop of os/contiki-main.c.
 *
 * Tick-less: there is no periodic interrupt. clock_time() is the board's 64-bit cycle counter
 * divided down to CLOCK_SECOND (incrementally, see clock_time()); the board's one compare
 * timer (board_alarm_*) is shared by
 *  - the rtimer: rtimer_arch_schedule(t) arms it for cycle t; the alarm interrupt calls
 *    rtimer_run_next() (the rtimer callback runs in interrupt context, as on every
 *    Contiki-NG platform);
 *  - the etimer wake-up: before the CPU sleeps, the idle loop arms it for the first cycle of
 *    the tick at which the next etimer expires (etimer_next_expiration_time()); the alarm
 *    interrupt then calls etimer_request_poll() (process_poll of the etimer process), as
 *    the clock interrupts of arch/cpu/cc2538/clock.c and arch/cpu/nrf/os/clock.c do.
 * The alarm is programmed for the earlier of the two deadlines.
 */
#include "contiki.h"
#include "sys/rtimer.h"
#include "sys/etimer.h"

#include "board.h"
#include "contiki_platform.h"

#define CYCLES_PER_TICK (BOARD_CLOCK_HZ / CLOCK_SECOND)

static inline void irq_off(void) { __asm volatile("cpsid i" ::: "memory"); }
static inline void irq_on(void) { __asm volatile("cpsie i" ::: "memory"); }

/* ---- clock (os/sys/clock.h) ---- */
void clock_init(void) {}

/* The tick count is kept with the cycle at which its tick began, and advanced by the ticks
 * passed since: a 32-bit division when called at least every 89 s (the 64-bit one, far
 * slower on a Cortex-M0, only after a longer sleep). Called from processes and interrupts:
 * done with interrupts off. */
static uint64_t tick_cycle; /* the cycle at which tick `ticks` began */
static clock_time_t ticks;

clock_time_t clock_time(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask\n cpsid i" : "=r"(primask)::"memory");
    uint64_t d = board_cycles64() - tick_cycle;
    if (d >= CYCLES_PER_TICK) {
        if ((d >> 32) == 0) { /* the usual case: 32-bit arithmetic only */
            uint32_t q = (uint32_t)d / CYCLES_PER_TICK;
            ticks += q;
            tick_cycle += q * CYCLES_PER_TICK; /* < d: fits in 32 bits */
        } else {
            uint32_t q = (uint32_t)(d / CYCLES_PER_TICK);
            ticks += q;
            tick_cycle += (uint64_t)q * CYCLES_PER_TICK;
        }
    }
    clock_time_t t = ticks;
    __asm volatile("msr primask, %0" ::"r"(primask) : "memory");
    return t;
}

unsigned long clock_seconds(void)
{
    return (unsigned long)(board_cycles64() / BOARD_CLOCK_HZ);
}

void clock_wait(clock_time_t t)
{
    clock_time_t start = clock_time();
    while ((clock_time_t)(clock_time() - start) < t) {
    }
}

void clock_delay_usec(uint16_t dt)
{
    uint32_t t0 = board_cycles();
    uint32_t n = (uint32_t)(((uint64_t)dt * BOARD_CLOCK_HZ + 999999u) / 1000000u);
    while ((uint32_t)(board_cycles() - t0) < n) {
    }
}

/* ---- the shared compare timer ---- */
static volatile uint8_t rt_armed, et_armed;
static volatile uint32_t rt_at, et_at;

/* Interrupts off. Arm the earlier of the armed deadlines (one in the past fires at once). */
static void alarm_program(void)
{
    if (rt_armed && et_armed) {
        uint32_t now = board_cycles();
        board_alarm_set((int32_t)(rt_at - now) <= (int32_t)(et_at - now) ? rt_at : et_at);
    } else if (rt_armed) {
        board_alarm_set(rt_at);
    } else if (et_armed) {
        board_alarm_set(et_at);
    } else {
        board_alarm_cancel();
    }
}

/* ---- rtimer architecture (os/sys/rtimer.h) ---- */
void rtimer_arch_init(void)
{
    board_alarm_cancel();
    /* The most urgent priority: rtimer callbacks are Contiki-NG's hard real-time path. */
    board_irq_enable(BOARD_ALARM_IRQ, 0);
}

void rtimer_arch_schedule(rtimer_clock_t t)
{
    uint32_t primask; /* also called from rtimer callbacks (interrupt context) */
    __asm volatile("mrs %0, primask\n cpsid i" : "=r"(primask)::"memory");
    rt_at = t;
    rt_armed = 1;
    alarm_program();
    __asm volatile("msr primask, %0" ::"r"(primask) : "memory");
}

/* The board's compare interrupt (board.h), at the most urgent priority (nothing preempts it:
 * no masking needed). The rtimer callback first; the alarm is reprogrammed at the end (a
 * callback that sets the next rtimer has armed it already). */
void board_alarm_isr(void)
{
    uint32_t now = board_cycles();
    if (rt_armed && (int32_t)(now - rt_at) >= 0) {
        rt_armed = 0;
        rtimer_run_next(); /* may schedule the next rtimer */
    }
    if (et_armed && (int32_t)(now - et_at) >= 0) {
        et_armed = 0;
        etimer_request_poll();
    }
    alarm_program();
}

/* ---- the scheduler loop of os/contiki-main.c ---- */
void contiki_platform_init(void)
{
    /* os/contiki-main.c's start-up, without the platform stages, networking, energest,
     * the shell and the node id (none exists here). */
    clock_init();
    rtimer_init();
    process_init();
    process_start(&etimer_process, NULL);
    ctimer_init();
}

/* platform_idle(): nothing to run. With interrupts off (so that an interrupt's
 * process_poll cannot be missed between the test and the sleep): arm the etimer wake-up
 * for the next expiry, then WFI; the pending interrupt runs when interrupts are back on. */
void contiki_platform_idle(void)
{
    contiki_platform_idle_while(NULL, 0);
}

/* The same, but the CPU sleeps only while *flag == value (if flag is not NULL): a test's
 * loop waiting for an interrupt that sets a flag does not sleep past it. */
void contiki_platform_idle_while(volatile uint32_t *flag, uint32_t value)
{
    irq_off();
    if (process_nevents() == 0 && (flag == NULL || *flag == value)) {
        if (etimer_pending()) {
            /* The first cycle of the expiry tick (where clock_time() reaches it), counted
             * from the current tick (32-bit clock_time_t: the difference is what counts). */
            clock_time_t now = clock_time(); /* tick_cycle: where tick `now` began */
            int32_t ahead = (int32_t)(etimer_next_expiration_time() - now);
            if (ahead > 60 * CLOCK_SECOND) /* beyond the 32-bit alarm's reach: wake to re-arm */
                ahead = 60 * CLOCK_SECOND;
            et_at = (uint32_t)tick_cycle + (uint32_t)ahead * CYCLES_PER_TICK;
            et_armed = 1;
        } else {
            et_armed = 0;
        }
        alarm_program();
        __asm volatile("wfi");
    }
    irq_on();
}

/* One turn of os/contiki-main.c's main loop: every pending poll and event, then idle. */
void contiki_platform_run_once(void)
{
    while (process_run() > 0) {
    }
    contiki_platform_idle();
}
