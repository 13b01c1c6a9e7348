# vp-m4: the lab board with a Cortex-M4F (ARMv7E-M with the single-precision FPU), hard-float ABI.
# Included by cmake/firmware_flags.cmake.
set(RTOSLAB_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
set(RTOSLAB_BOARD_ARCH armv7m)
