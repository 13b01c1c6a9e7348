/* The @config lines of rtoslab through CMSIS-RTOS2 (the glue: bench/cmsis_os2_glue/port.c). */
#include "bench.h"
#include "os2_internal.h"

void rtb_os2_port_config(void);

void rtb_os2_port_config(void)
{
    bench_config("kernel", "rtoslab " RTOSLAB_KERNEL_VERSION " (kernel/, library rtoslab_kernel) through "
                 "kernel/cmsis_os2 (library rtoslab_cmsis_os2_static)");
    bench_config("tickless", K_CONFIG_TICKLESS ? "yes (board compare timer); API ticks at 1 kHz" : "no");
    bench_config_u("time_hz", K_TIME_HZ);
    bench_config("checks", K_CONFIG_CHECKS ? "on" : "off");
    bench_config("preemption", "on");
    bench_config("time_slicing", "off");
    bench_config("mutex", "priority inheritance (transitive), deadlock detection (osErrorResource)");
}
