# RTX5 (CMSIS-RTX 5.9.1, natively CMSIS-RTOS2) for the validation image
# (bench/validation/CMakeLists.txt), built from the pinned sources with the validation suite's
# own RTX5 configuration (Layer/App/Validation_RTX5/RTE/CMSIS/RTX_Config.h), its memory sized
# for the boards' 16 KiB of RAM. Not the suite port's library (bench/ports/rtx5, target
# rtx5_kernel: the release configuration the benchmarks measure): conformance is checked in the
# configuration Arm validates RTX5 with, as FreeRTOS's is (bench/ports/freertos, [cmsis_os2]).
set(RTX ${RTOSLAB_PEERS_SRC}/cmsis-rtx)
set(RV2_RTX_CONFIG ${RTOSLAB_PEERS_SRC}/cmsis-rtos2-validation/Layer/App/Validation_RTX5/RTE/CMSIS)
if(NOT EXISTS ${RTX}/Source/rtx_kernel.c)
  message(STATUS "rtx5: sources not in ${RTX} (make setup): no rv2 image")
  return()
endif()
if(RTOSLAB_BOARD_ARCH STREQUAL "armv6m")
  set(rtx_irq ${RTX}/Source/GCC/irq_armv6m.S)
else()
  set(rtx_irq ${RTX}/Source/GCC/irq_armv7m.S)
endif()
file(GLOB rtx_sources ${RTX}/Source/rtx_*.c)
add_library(cmsis_os2_${OS2_ID} STATIC ${rtx_sources} ${rtx_irq} ${RTX}/Config/RTX_Config.c
            ${LAB_CMSIS}/os_tick_systick.c)
target_include_directories(cmsis_os2_${OS2_ID} PUBLIC ${OS2_DIR} ${LAB_CMSIS} ${RTX}/Include ${RV2_RTX_CONFIG}
  ${CMSIS6}/CMSIS/RTOS2/Include ${CMSIS6}/CMSIS/Core/Include PRIVATE ${RTX}/Source)
# 16 KiB of RAM: the objects' memory, the default stack and the idle thread's stack smaller
# than the configuration's (32 KiB, 3 KiB, 512 bytes)
target_compile_definitions(cmsis_os2_${OS2_ID} PUBLIC _RTE_ OS_DYNAMIC_MEM_SIZE=7168 OS_STACK_SIZE=512
  OS_IDLE_THREAD_STACK_SIZE=256)
target_link_libraries(cmsis_os2_${OS2_ID} PUBLIC board)
target_compile_options(cmsis_os2_${OS2_ID} PRIVATE -w)
