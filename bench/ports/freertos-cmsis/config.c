/* FreeRTOS through CMSIS-RTOS2 (the glue: bench/cmsis_os2_glue/port.c): its @config lines and
 * what the FreeRTOS application provides, as the freertos port does (bench/ports/freertos/port.c):
 * the idle hook's WFI, the idle and timer tasks' static memory. */
#include "FreeRTOS.h"
#include "task.h"

#include "bench.h"

void rtb_os2_port_config(void);

void rtb_os2_port_config(void)
{
    bench_config("kernel", "FreeRTOS-Kernel " tskKERNEL_VERSION_NUMBER " (crates.io freertos-next 0.12.0), portable/GCC/"
                 RTB_FREERTOS_PORT " through CMSIS-FreeRTOS 11.3.0 (cmsis_os2.c)");
    bench_config_u("tick_hz", configTICK_RATE_HZ);
    bench_config("tickless", "no");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("assertions", "off");
    bench_config("trace", "off");
    bench_config_u("heap_bytes", configTOTAL_HEAP_SIZE);
    bench_config_u("max_priorities", configMAX_PRIORITIES);
    bench_config("idle", "WFI in the idle hook");
}

void vApplicationIdleHook(void)
{
    __asm volatile("wfi");
}

static StaticTask_t idle_tcb;
static StackType_t idle_stack[configMINIMAL_STACK_SIZE];
void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *depth)
{
    *tcb = &idle_tcb;
    *stack = idle_stack;
    *depth = configMINIMAL_STACK_SIZE;
}

static StaticTask_t timer_tcb;
static StackType_t timer_stack[configTIMER_TASK_STACK_DEPTH];
void vApplicationGetTimerTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *depth)
{
    *tcb = &timer_tcb;
    *stack = timer_stack;
    *depth = configTIMER_TASK_STACK_DEPTH;
}
