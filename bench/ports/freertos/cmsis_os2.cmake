# FreeRTOS through CMSIS-FreeRTOS 11.3.0 (its CMSIS-RTOS2 layer, cmsis_os2.c) for the validation
# image (bench/validation/CMakeLists.txt): the FreeRTOS-Kernel this port builds (its crate's
# sources, bench/ports/freertos/CMakeLists.txt), compiled again with the validation suite's
# FreeRTOSConfig.h for CMSIS-FreeRTOS (Layer/App/Validation_FreeRTOS/RTE/RTOS), heap_4.
set(CF ${RTOSLAB_PEERS_SRC}/cmsis-freertos/CMSIS/RTOS2/FreeRTOS)
set(CF_CONFIG ${RTOSLAB_PEERS_SRC}/cmsis-rtos2-validation/Layer/App/Validation_FreeRTOS/RTE/RTOS)
if(NOT EXISTS ${CF}/Source/cmsis_os2.c OR NOT EXISTS "${FREERTOS_KERNEL_DIR}/tasks.c")
  message(STATUS "freertos: CMSIS-FreeRTOS or the FreeRTOS-Kernel sources missing (make setup): no rv2 image")
  return()
endif()
set(K ${FREERTOS_KERNEL_DIR})
include(${RTOSLAB_ROOT}/bench/ports/freertos/kernel_dir.cmake)
freertos_port(cf_port cf_port_sources)
add_library(cmsis_os2_${OS2_ID} STATIC
  ${K}/tasks.c ${K}/queue.c ${K}/list.c ${K}/timers.c ${K}/event_groups.c ${cf_port_sources}
  ${K}/portable/MemMang/heap_4.c ${CF}/Source/cmsis_os2.c ${CF}/Source/freertos_evr.c
  ${LAB_CMSIS}/os_tick_systick.c)
target_include_directories(cmsis_os2_${OS2_ID} PUBLIC ${OS2_DIR}/cmsis_os2 ${LAB_CMSIS} ${CF_CONFIG}
  ${CF}/Include ${K}/include ${K}/portable/GCC/${cf_port}
  ${CMSIS6}/CMSIS/RTOS2/Include ${CMSIS6}/CMSIS/Core/Include)
target_link_libraries(cmsis_os2_${OS2_ID} PUBLIC board)
target_compile_options(cmsis_os2_${OS2_ID} PRIVATE -w)
