# The ARMv6-M port's sources (included by kernel/CMakeLists.txt): the portable core's
# arch_ functions, the switch, and the fast paths, one file per object, in this order (the
# order of their code in flash: fast_suspend.S before switch.S, so that its branches to the
# switch's tails reach, 2 KiB, and the others' too; fast_queue.S, which does not switch, last); then what every Cortex-M port shares
# (kernel/arch/cortexm).
set(K_ARCH_SOURCES
  ${K_ARCH_DIR}/arch.c ${K_ARCH_DIR}/fast_suspend.S ${K_ARCH_DIR}/switch.S
  ${K_ARCH_DIR}/fast.S ${K_ARCH_DIR}/fast_sem.S ${K_ARCH_DIR}/fast_prio.S
  ${K_ARCH_DIR}/fast_mutex.S ${K_ARCH_DIR}/fast_mempool.S ${K_ARCH_DIR}/fast_pendsv.S
  ${K_ARCH_DIR}/fast_queue.S
  ${K_ARCH_DIR}/../cortexm/cortexm.c)
