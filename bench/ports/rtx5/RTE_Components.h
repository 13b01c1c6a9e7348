/*
 * RTE_Components.h - what a CMSIS build environment (uVision's run-time environment, the
 * CMSIS-Toolbox) generates for a project and RTX5's sources include (rtx_core_c.h): the
 * device header's name. No other RTE component is selected: in particular not the event
 * recorder (RTE_CMSIS_View_EventRecorder), so rtx_evr.h compiles its calls to nothing.
 */
#ifndef RTE_COMPONENTS_H
#define RTE_COMPONENTS_H
#define CMSIS_device_header "lab_device.h" /* bench/cmsis */
#endif
