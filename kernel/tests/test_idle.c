/*
 * The tick-less idle's deep sleep (config.h, K_CONFIG_DEEP_IDLE; time.c, z_idle_prepare): the
 * idle loop sets SCR.SLEEPDEEP when the next deadline is further than the board's wake-up plus
 * its break-even idle and no interrupt line but the alarm is enabled, and the deadline keeps
 * its time (the alarm fires the wake-up earlier). SLEEPDEEP stays as the last idle entry chose
 * it, which is what the cases read after each sleep (cleared before it). On a board without a deep sleep
 * (BOARD_DEEP_WAKEUP_CYCLES undefined: QEMU, no energy model) the idle never sets it.
 */
#include "ktest.h"
#include "rtoslab/board_if.h"

#define SCB_SCR (*(volatile uint32_t *)0xE000ED10u)
#define SLEEPDEEP (1u << 2)
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0 (*(volatile uint32_t *)0xE000E180u)

/* Sleep `d` and return how late it ended (cycles past the request). SLEEPDEEP is cleared
 * first: set afterwards, an idle entry of this sleep chose the deep sleep (an alarm that comes
 * before the idle loop gets to choose leaves the bit as it was). */
static uint32_t late_after_sleep(uint32_t d)
{
    SCB_SCR = 0;
    uint32_t t0 = k_now();
    KT_EQ(k_sleep(d), 0);
    uint32_t dt = k_now() - t0;
    KT_CHECK(dt >= d);
    return dt - d;
}

static void deep_when_far(void)
{
#ifdef BOARD_DEEP_WAKEUP_CYCLES
    /* far: the deadline is 20 wake-ups + the break-even idle away */
    uint32_t far = 20u * BOARD_DEEP_WAKEUP_CYCLES + BOARD_DEEP_BREAK_EVEN_CYCLES + K_USEC(1000);
    uint32_t late = late_after_sleep(far);
    KT_CHECK(SCB_SCR & SLEEPDEEP);
#if BOARD_CYCLE_ACCURATE
    KT_CHECK(late <= 40u); /* as test_kernel_time.c's sleep_delays: the wake-up is not late */
#endif
    (void)late;
#else
    late_after_sleep(K_USEC(2000));
    KT_CHECK(!(SCB_SCR & SLEEPDEEP));
#endif
}

static void light_when_near(void)
{
#ifdef BOARD_DEEP_WAKEUP_CYCLES
    /* near: the alarm is due sooner than the wake-up plus the break-even idle (the sleep's
     * alarm is its deadline less the kernel's lead, config.h K_CONFIG_TIMER_LEAD) */
    uint32_t near = K_CONFIG_TIMER_LEAD + BOARD_DEEP_WAKEUP_CYCLES;
    late_after_sleep(near);
    KT_CHECK(!(SCB_SCR & SLEEPDEEP));
#endif
}

static void light_with_another_line(void)
{
#ifdef BOARD_DEEP_WAKEUP_CYCLES
    /* an enabled line (the stimulus's: it never fires here) whose interrupt a wake-up from
     * deep sleep would delay: the idle only sleeps */
    uint32_t line = 1u << (BOARD_ALARM_IRQ + 1u);
    NVIC_ISER0 = line;
    late_after_sleep(20u * BOARD_DEEP_WAKEUP_CYCLES + BOARD_DEEP_BREAK_EVEN_CYCLES + K_USEC(1000));
    KT_CHECK(!(SCB_SCR & SLEEPDEEP));
    NVIC_ICER0 = line;
#endif
}

/* The idle loop interrupted inside z_idle_prepare (C, interrupts enabled, values in r4-r11 that
 * no frame holds) by the alarm that ends a sleep, the sleeper then sleeping again at once:
 * PendSV, with nothing to run, must enter the idle loop afresh, not resume the interrupted
 * frame with the sleeper's registers (the eighth round's fix: switch.S, IDLE_ENTER; before
 * it, vp-stm32f0's ktest_kernel_list faulted under speed). The sleeps sweep the alarm's
 * arrival one cycle a step across the idle's entry, the sleeper holding 16..23 in r4-r11
 * (kt_call_keeps_regs, seed 12: each has bit 4 set, SCR's SEVONPEND; 20, in r8, bit 2 too,
 * SLEEPDEEP). Every deadline is near (below the wake-up plus the break-even idle), so every
 * idle entry must write SCR 0. With the fix reverted this fails in the PendSV-only build
 * (ktest_idle_list) on vp-m0 and vp-stm32f0 under both profiles: z_idle_prepare keeps SCR's
 * choice in r4 across the alarm's reads, and ARMv6-M's PendSV, finding nothing to run, has
 * the sleeper's r8 in r4 (it saves r8-r11 through r4-r7), so the resumed z_idle_prepare wrote
 * 20 (size) or 4 (speed) to SCR. On ARMv7-M it passes either way: there z_idle_prepare keeps
 * nothing in r4-r11. */
uint32_t kt_call_keeps_regs(void *fn, uint32_t a0, uint32_t a1, uint32_t seed); /* call_keeps_regs.S */

#ifdef BOARD_DEEP_WAKEUP_CYCLES
#define NEAR_CYCLES (BOARD_DEEP_WAKEUP_CYCLES + BOARD_DEEP_BREAK_EVEN_CYCLES)
#else
#define NEAR_CYCLES 800u
#endif

static void near_deadlines_across_the_idle_entry(void)
{
    uint32_t lost = 0, scr = 0;
    /* (the alarm comes the timer lead before a deadline: config.h K_CONFIG_TIMER_LEAD; a
     * shorter sleep spins) */
    for (uint32_t d = K_CONFIG_TIMER_LEAD; d < K_CONFIG_TIMER_LEAD + NEAR_CYCLES; d++) {
        SCB_SCR = 0;
        lost |= kt_call_keeps_regs((void *)k_sleep, d, 0, 12u);
        scr |= SCB_SCR;
    }
    KT_EQ(lost, 0);
    KT_EQ(scr, 0);
}

static void main_thread(void *arg)
{
    (void)arg;
    KT_RUN(deep_when_far);
    KT_RUN(light_when_near);
    KT_RUN(light_with_another_line);
    KT_RUN(near_deadlines_across_the_idle_entry);
    KT_RUN(deep_when_far); /* and again once the line is off */
    kt_finish();
}

K_THREAD_DEFINE(idle_main, 768, main_thread, NULL, 3);

int main(void)
{
    k_start();
}
