# The compiler flags of every firmware image: one set for every RTOS, so that comparisons are
# fair (published in docs/methodology.md). Included by the tree's CMakeLists.txt and by the
# application entry (cmake/sdk); the board library also carries the CPU flags to whatever
# links it, so an application's own sources are Thumb code for the board's core.
set(RTOSLAB_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
set(RTOSLAB_BOARD_ARCH armv6m)
# A board of another core chooses its own: bench/boards/<board>/board.cmake sets
# RTOSLAB_CPU_FLAGS and RTOSLAB_BOARD_ARCH (qemu-raspi2b: Cortex-A7, armv7a).
if(DEFINED RTOSLAB_BOARD AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/../bench/boards/${RTOSLAB_BOARD}/board.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/../bench/boards/${RTOSLAB_BOARD}/board.cmake)
endif()
add_compile_options(${RTOSLAB_CPU_FLAGS} -Os -g -ffunction-sections -fdata-sections
                    -fno-common -Wall -Wextra)
add_link_options(${RTOSLAB_CPU_FLAGS})
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
