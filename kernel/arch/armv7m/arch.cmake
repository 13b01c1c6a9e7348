# The ARMv7-M port's sources (included by kernel/CMakeLists.txt): the portable core's arch_
# functions, the thread-mode switch (sync_switch.S, K_CONFIG_SYNC_SWITCH=1, the default) and
# the PendSV-only build's switch with the idle loop (switch.S). No assembly fast paths yet:
# the portable C paths (K_CONFIG_FASTPATH=0).
set(K_ARCH_SOURCES ${K_ARCH_DIR}/arch.c ${K_ARCH_DIR}/sync_switch.S ${K_ARCH_DIR}/switch.S
    ${K_ARCH_DIR}/../cortexm/cortexm.c)
set(K_ARCH_DEFS K_CONFIG_FASTPATH=0)
