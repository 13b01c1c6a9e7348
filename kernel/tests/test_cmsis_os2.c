/*
 * The CMSIS-RTOS2 layer's own tests (kernel/cmsis_os2, docs/cmsis-rtos2.md), where Arm's
 * validation suite (`rtoslab validate`) does not look: the arena gives back what deleted
 * objects and ended threads held (round after round the same number of objects fit), the
 * priorities keep their order on the kernel's levels, osKernelLock holds off a more urgent
 * thread until osKernelUnlock, and the tick count moves on by exactly the ticks of a delay.
 */
#include "cmsis_os2.h"
#include "ktest.h"
#include "os2_internal.h"

#define ROUNDS 3

static int fill_semaphores(osSemaphoreId_t *ids, int max)
{
    int n = 0;
    while (n < max && (ids[n] = osSemaphoreNew(1, 0, NULL)) != NULL)
        n++;
    return n;
}

static void arena_gives_back(void)
{
    static osSemaphoreId_t ids[512];
    int first = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int n = fill_semaphores(ids, 512);
        KT_CHECK(n > 10 && n < 512); /* the arena ran out */
        if (round == 0)
            first = n;
        KT_EQ(n, first);
        for (int i = 0; i < n; i++)
            KT_EQ(osSemaphoreDelete(ids[i]), osOK);
        KT_EQ(osSemaphoreDelete(ids[0]), osErrorParameter); /* deleted: a stale id */
    }
}

static volatile int ran;
static void t_mark(void *arg)
{
    (void)arg;
    ran++;
}

static void ended_threads_are_reaped(void)
{
    /* detached threads that end (their memory from the arena) leave the arena as it was */
    static osSemaphoreId_t ids[512];
    int before = fill_semaphores(ids, 512);
    for (int i = 0; i < before; i++)
        osSemaphoreDelete(ids[i]);
    const osThreadAttr_t attr = {.priority = osPriorityHigh}; /* it runs and ends at once */
    for (int round = 0; round < 2 * ROUNDS; round++)
        KT_CHECK(osThreadNew(t_mark, NULL, &attr) != NULL);
    KT_EQ(ran, 2 * ROUNDS);
    int after = fill_semaphores(ids, 512); /* (reaps the ended threads first) */
    KT_EQ(after, before);
    for (int i = 0; i < after; i++)
        osSemaphoreDelete(ids[i]);
}

static void priorities_keep_their_order(void)
{
    static const osPriority_t order[] = {osPriorityIdle, osPriorityLow, osPriorityBelowNormal,
                                         osPriorityNormal, osPriorityNormal4, osPriorityAboveNormal,
                                         osPriorityHigh, osPriorityRealtime, osPriorityRealtime7};
    for (unsigned i = 1; i < sizeof order / sizeof order[0]; i++)
        KT_CHECK(os2_prio(order[i]) > os2_prio(order[i - 1]));
    KT_CHECK(os2_prio(osPriorityRealtime7) < OS2_LOCK_PRIO);
}

static void lock_holds_off_a_more_urgent_thread(void)
{
    ran = 0;
    KT_EQ(osKernelLock(), 0);
    const osThreadAttr_t attr = {.priority = osPriorityRealtime};
    KT_CHECK(osThreadNew(t_mark, NULL, &attr) != NULL);
    KT_EQ(ran, 0); /* ready, more urgent, held off */
    KT_EQ(osKernelGetState(), osKernelLocked);
    KT_EQ(osKernelUnlock(), 1);
    KT_EQ(ran, 1); /* ran at the unlock */
}

static void delays_move_the_tick_count_exactly(void)
{
    static const uint32_t n[] = {1, 2, 5, 17};
    for (unsigned i = 0; i < sizeof n / sizeof n[0]; i++) {
        uint32_t t0 = osKernelGetTickCount();
        KT_EQ(osDelay(n[i]), osOK);
        KT_EQ(osKernelGetTickCount() - t0, n[i]);
    }
}

static void runner(void *arg)
{
    (void)arg;
    kt_puts("CMSIS-RTOS2 layer tests on " BOARD_NAME "\n");
    KT_RUN(arena_gives_back);
    KT_RUN(ended_threads_are_reaped);
    KT_RUN(priorities_keep_their_order);
    KT_RUN(lock_holds_off_a_more_urgent_thread);
    KT_RUN(delays_move_the_tick_count_exactly);
    kt_finish();
}

int main(void)
{
    static const osThreadAttr_t attr = {.name = "runner", .stack_size = 1024, .priority = osPriorityNormal};
    osKernelInitialize();
    osThreadNew(runner, NULL, &attr);
    osKernelStart();
    return 1;
}
