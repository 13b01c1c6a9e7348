# Toolchain file for Cortex-M firmware built with the Arm GNU toolchain (Debian's
# gcc-arm-none-eabi). The board's CMake adds the -mcpu flags; this file only finds the tools.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "objcopy")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "size")
# The archiver and indexer that keep link-time-optimisation objects usable in a static library
# (the speed profile, cmake/firmware_flags.cmake); the same archives as plain ar otherwise.
set(CMAKE_AR arm-none-eabi-gcc-ar CACHE FILEPATH "ar with the LTO plugin")
set(CMAKE_RANLIB arm-none-eabi-gcc-ranlib CACHE FILEPATH "ranlib with the LTO plugin")
# A bare-metal compiler cannot link a test program without a linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
