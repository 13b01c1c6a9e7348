# The ARMv7-M port's sources (included by kernel/CMakeLists.txt): the portable core's arch_
# functions, the thread-mode switch (sync_switch.S, K_CONFIG_SYNC_SWITCH=1, the default), the
# PendSV-only build's switch with the idle loop (switch.S), and the assembly fast paths
# (K_CONFIG_FASTPATH=1, the default: fast.S, fast_sem.S, fast_suspend.S, fast_mutex.S, fast_pendsv.S,
# fast_mempool.S, fast_queue.S); then what every Cortex-M port shares (kernel/arch/cortexm).
set(K_ARCH_SOURCES ${K_ARCH_DIR}/arch.c ${K_ARCH_DIR}/sync_switch.S ${K_ARCH_DIR}/switch.S
    ${K_ARCH_DIR}/fast.S ${K_ARCH_DIR}/fast_sem.S ${K_ARCH_DIR}/fast_suspend.S ${K_ARCH_DIR}/fast_mutex.S
    ${K_ARCH_DIR}/fast_pendsv.S ${K_ARCH_DIR}/fast_mempool.S ${K_ARCH_DIR}/fast_queue.S
    ${K_ARCH_DIR}/../cortexm/cortexm.c)
