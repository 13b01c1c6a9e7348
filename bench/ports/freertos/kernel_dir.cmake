# FREERTOS_KERNEL_DIR: the FreeRTOS-Kernel sources of the crate the freertos port pins (cargo
# unpacks it; we only ask cargo where). Included by this folder's CMakeLists.txt and by
# bench/ports/freertos-cmsis (configured first: its name sorts first). Leaves it unset, with a
# warning, when they cannot be had.
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
