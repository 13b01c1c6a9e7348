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
  set(RTOSLAB_OPT_FLAGS -O2 -flto -fomit-frame-pointer -falign-functions=16)
else()
  message(FATAL_ERROR "unknown build profile '${RTOSLAB_PROFILE}' (size or speed)")
endif()
add_compile_options(${RTOSLAB_CPU_FLAGS} ${RTOSLAB_OPT_FLAGS} -g -ffunction-sections -fdata-sections
                    -fno-common -Wall -Wextra)
# LTO compiles again at the link: the link gets the same options
add_link_options(${RTOSLAB_CPU_FLAGS} ${RTOSLAB_OPT_FLAGS})
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
