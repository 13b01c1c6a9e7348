# The compiler flags of every firmware image: one set for every RTOS, so that comparisons are
# fair (published in docs/methodology.md). Included by the tree's CMakeLists.txt and by the
# application entry (cmake/sdk); the board library also carries the CPU flags to whatever
# links it, so an application's own sources are Thumb code for the board's core.
set(RTOSLAB_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
add_compile_options(${RTOSLAB_CPU_FLAGS} -Os -g -ffunction-sections -fdata-sections
                    -fno-common -Wall -Wextra)
add_link_options(${RTOSLAB_CPU_FLAGS})
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
