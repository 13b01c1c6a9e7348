/* FreeRTOS through CMSIS-RTOS2 (the glue: bench/cmsis_os2_glue/port.c): its @config lines.
 * What the FreeRTOS application provides (the idle hook, the idle and timer tasks' memory) is
 * the freertos port's bench/ports/freertos/app_hooks.c. */
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
