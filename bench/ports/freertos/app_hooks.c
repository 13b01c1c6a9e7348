/*
 * What a FreeRTOS application provides to the kernel, shared by the two FreeRTOS images
 * (bench-freertos: port.c; bench-freertos-cmsis: through CMSIS-FreeRTOS): the idle hook's
 * WFI (configUSE_IDLE_HOOK) and the idle and timer tasks' static memory
 * (configSUPPORT_STATIC_ALLOCATION).
 */
#include "FreeRTOS.h"
#include "task.h"

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
