/* RTX5's build for the validation image (bench/validation/rtx5): what CMSIS-Pack's generated
 * RTE_Components.h gives RTX5's sources, the device header's name. */
#ifndef RTE_COMPONENTS_H
#define RTE_COMPONENTS_H

#define CMSIS_device_header "lab_device.h" /* bench/cmsis */
#define RTE_CMSIS_RTOS2
#define RTE_CMSIS_RTOS2_RTX5
#define RTE_CMSIS_RTOS2_RTX5_SOURCE

#endif
