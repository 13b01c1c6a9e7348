# FREERTOS_KERNEL_DIR: the FreeRTOS-Kernel sources of the crate the freertos port pins (cargo
# unpacks it; we only ask cargo where). Included by this folder's CMakeLists.txt and by
# bench/ports/freertos-cmsis (configured first: its name sorts first). Leaves it unset, with a
# warning, when they cannot be had.
# freertos_port(PORT_VAR SOURCES_VAR): FreeRTOS's port for the board's core, ARM_CM0 (ARMv6-M),
# ARM_CM3 or ARM_CM4F (hard float), and its sources: one choice for every FreeRTOS build of the
# tree (the port, freertos-cmsis, the CMSIS-RTOS2 validation image).
function(freertos_port port_var sources_var)
  set(k ${FREERTOS_KERNEL_DIR})
  if(RTOSLAB_BOARD_ARCH STREQUAL "armv6m")
    set(port ARM_CM0)
    set(sources ${k}/portable/GCC/ARM_CM0/port.c ${k}/portable/GCC/ARM_CM0/portasm.c)
  else()
    if("-mfloat-abi=hard" IN_LIST RTOSLAB_CPU_FLAGS)
      set(port ARM_CM4F)
    else()
      set(port ARM_CM3)
    endif()
    set(sources ${k}/portable/GCC/${port}/port.c)
  endif()
  set(${port_var} ${port} PARENT_SCOPE)
  set(${sources_var} ${sources} PARENT_SCOPE)
endfunction()

set(FREERTOS_PIN ${RTOSLAB_ROOT}/third_party/freertos/Cargo.toml)
if(NOT FREERTOS_KERNEL_DIR)
  find_program(CARGO cargo HINTS $ENV{HOME}/.cargo/bin)
  if(NOT CARGO)
    message(WARNING "cargo not found: no FreeRTOS-Kernel sources")
    return()
  endif()
  execute_process(COMMAND ${CARGO} fetch --manifest-path ${FREERTOS_PIN}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  execute_process(
    COMMAND ${CARGO} metadata --manifest-path ${FREERTOS_PIN} --format-version 1
    OUTPUT_VARIABLE meta RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(WARNING "cargo metadata failed for ${FREERTOS_PIN}: no FreeRTOS-Kernel sources")
    return()
  endif()
  string(JSON npk LENGTH "${meta}" packages)
  math(EXPR last "${npk} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${meta}" packages ${i} name)
    if(name STREQUAL "freertos-next")
      string(JSON manifest GET "${meta}" packages ${i} manifest_path)
      get_filename_component(pkgdir ${manifest} DIRECTORY)
      set(FREERTOS_KERNEL_DIR ${pkgdir}/FreeRTOS-Kernel CACHE PATH "FreeRTOS-Kernel sources (from cargo)")
    endif()
  endforeach()
endif()
