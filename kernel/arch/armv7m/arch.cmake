# The ARMv7-M port's sources (included by kernel/CMakeLists.txt): the portable core's arch_
# functions and the PendSV switch. It has no assembly fast paths yet, so every switch goes
# through PendSV on the portable C paths.
set(K_ARCH_SOURCES ${K_ARCH_DIR}/arch.c ${K_ARCH_DIR}/switch.S ${K_ARCH_DIR}/../cortexm/cortexm.c)
set(K_ARCH_DEFS K_CONFIG_FASTPATH=0 K_CONFIG_SYNC_SWITCH=0)
