# CMSIS-RTOS2 over rtoslab for the validation image (bench/validation/CMakeLists.txt): the
# kernel's own layer, kernel/cmsis_os2 (library rtoslab_cmsis_os2), as built for any application.
if(NOT TARGET rtoslab_cmsis_os2)
  message(STATUS "rtoslab: no rtoslab_cmsis_os2 library (kernel/cmsis_os2): no rv2 image")
  return()
endif()
add_library(cmsis_os2_${OS2_ID} INTERFACE)
target_link_libraries(cmsis_os2_${OS2_ID} INTERFACE rtoslab_cmsis_os2)
