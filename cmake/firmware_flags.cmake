# The compiler flags of every firmware image: one set for every RTOS, so that comparisons are
# fair (published in docs/methodology.md). Included by the tree's CMakeLists.txt and by the
# application entry (cmake/sdk); the board library also carries the CPU flags to whatever
# links it, so an application's own sources are Thumb code for the board's core.
#
# The board comes from the board registry (bench/boards/<board>/board.toml, read by
# python/rtoslab/boards.py): its core's flags (RTOSLAB_CPU_FLAGS), its architecture
# (RTOSLAB_BOARD_ARCH: armv6m, armv7m, armv7a), its board layer, memory and the kernel's
# calibration (RTOSLAB_BOARD_*). No board given: the registry's default.
find_program(RTOSLAB_PYTHON NAMES python3 REQUIRED)
execute_process(
  COMMAND ${RTOSLAB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/../python/rtoslab/boards.py cmake "${RTOSLAB_BOARD}"
  OUTPUT_VARIABLE board_settings ERROR_VARIABLE board_error RESULT_VARIABLE board_status)
if(NOT board_status EQUAL 0)
  string(STRIP "${board_error}" board_error)
  message(FATAL_ERROR "${board_error}")
endif()
set(board_file ${CMAKE_BINARY_DIR}/rtoslab_board.cmake)
file(WRITE ${board_file} "${board_settings}")
include(${board_file}) # sets RTOSLAB_BOARD too: an empty one is the registry's default
# a change of the board's entry configures the build again
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_LIST_DIR}/../bench/boards/${RTOSLAB_BOARD}/board.toml
             ${CMAKE_CURRENT_LIST_DIR}/../spec/contracts.toml)

# The build profile: the same for every RTOS, the kernel and the suite (docs/methodology.md,
# "Build profiles"). size: -Os, what the suite always used; speed: -O2 with link-time
# optimisation, plus what the RTOSes' own demos add that is no correctness switch
# (-fomit-frame-pointer, -falign-functions=16: ChibiOS's demo Makefiles).
set(RTOSLAB_PROFILE "size" CACHE STRING "build profile: size (-Os) or speed (-O2 and LTO)")
set_property(CACHE RTOSLAB_PROFILE PROPERTY STRINGS size speed)
if(RTOSLAB_PROFILE STREQUAL "size")
  set(RTOSLAB_OPT_FLAGS -Os)
elseif(RTOSLAB_PROFILE STREQUAL "speed")
  # -fno-ipa-reference: a correctness switch, the same for every RTOS. GCC's whole-program
  # analysis of static variables (ipa-reference: which statics a call may read or write)
  # assumes a function runs only when called; a thread's function runs after a context
  # switch (an exception return), which no call shows, and the analysis ignores the "memory"
  # clobbers of the switch's inline assembly. Under LTO every global the assembly does not
  # name becomes such a static: a store made before a blocking call, for another thread to
  # read, was deleted (FreeRTOS's port: timers[] of rtb_timer_create, read by the suite's
  # one-shot thread: NULL; rtoslab: check.sem_counting, "the wait that blocked was number 0").
  set(RTOSLAB_OPT_FLAGS -O2 -flto -fno-ipa-reference -fomit-frame-pointer -falign-functions=16)
  # LTO generates the code at the link: the link needs the code-generation options too, or
  # every function lands in one .text per partition (no --gc-sections by function, and the
  # start-up's Thumb-1 `b board_fault` out of range of a function placed 2 KiB away)
  set(RTOSLAB_LTO_LINK_FLAGS -ffunction-sections -fdata-sections)
else()
  message(FATAL_ERROR "unknown build profile '${RTOSLAB_PROFILE}' (size or speed)")
endif()
add_compile_options(${RTOSLAB_CPU_FLAGS} ${RTOSLAB_OPT_FLAGS} -g -ffunction-sections -fdata-sections
                    -fno-common -Wall -Wextra)
# LTO compiles again at the link: the link gets the same options
add_link_options(${RTOSLAB_CPU_FLAGS} ${RTOSLAB_OPT_FLAGS} ${RTOSLAB_LTO_LINK_FLAGS})
# The profile's placement of code in flash, included at the head of .text after the vector
# table (bench/boards/common/armv6m_sections.ld; the board library's link options find it): empty under size (the images as always).
# Under speed, LTO emits the C code as one object, placed before the assembly objects, and the
# objects pulled from archives come in another order: hand-written Thumb-1 branches (B reaches
# +-2 KiB) from assembly to a C function or to another assembly file, which rely on the
# order of the objects, get their targets placed together here.
if(RTOSLAB_PROFILE STREQUAL "speed")
  set(RTOSLAB_PROFILE_TEXT "\
/* the start-up's naked fault handler branches to board_fault (armv6m_startup.c) */
*(.text.Default_HardFault_Handler .text.board_fault)
/* ChibiOS: the start on the process stack branches to the controller (bench/ports/chibios: port.c, owntest) */
*(.text.start_on_psp .text.ctrl_boot .text.boot)
/* the rtoslab kernel's ARMv6-M fast paths branch to switch.S's resume paths: its
 * assembly in one block (2.5 KiB), switch.S in the middle */
*librtoslab_kernel*.a:fast_mutex.S.obj(.text .text.*)
*librtoslab_kernel*.a:fast_prio.S.obj(.text .text.*)
*librtoslab_kernel*.a:switch.S.obj(.text .text.*)
*librtoslab_kernel*.a:*.S.obj(.text .text.*)
")
else()
  set(RTOSLAB_PROFILE_TEXT "")
endif()
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/profile/rtoslab_profile_text.ld CONTENT
"/* build profile ${RTOSLAB_PROFILE}: generated by cmake/firmware_flags.cmake */
${RTOSLAB_PROFILE_TEXT}")
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
