/* CMSIS-FreeRTOS's build for the validation image (bench/ports/freertos/cmsis_os2.cmake): what
 * CMSIS-Pack's generated RTE_Components.h gives its sources, the device header's name. */
#ifndef RTE_COMPONENTS_H
#define RTE_COMPONENTS_H

#define CMSIS_device_header "lab_device.h" /* bench/cmsis */
#define RTE_CMSIS_RTOS2
#define RTE_CMSIS_RTOS2_FreeRTOS
#define RTE_RTOS_FreeRTOS_CORE
#define RTE_RTOS_FreeRTOS_EVENTGROUPS
#define RTE_RTOS_FreeRTOS_TIMERS
#define RTE_RTOS_FreeRTOS_HEAP_4

#endif
