# qemu-raspi2b: a Cortex-A7 (ARMv7-A) board. Included by cmake/firmware_flags.cmake: the
# board chooses its core's flags and its architecture (which picks the vectors file, the
# start-up and the ports that build for it: bench/CMakeLists.txt).
set(RTOSLAB_CPU_FLAGS -mcpu=cortex-a7 -marm -mfloat-abi=soft)
set(RTOSLAB_BOARD_ARCH armv7a)
