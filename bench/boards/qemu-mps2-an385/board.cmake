# qemu-mps2-an385: a Cortex-M3 (ARMv7-M), no FPU. Included by cmake/firmware_flags.cmake.
set(RTOSLAB_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
set(RTOSLAB_BOARD_ARCH armv7m)
