/*
 * The port boundary: what the portable kernel asks of a CPU. Owned by the kernel; each port,
 * kernel/arch/<arch>/, provides it (kernel/arch/armv6m is the reference). Not API.
 *
 * A port is a directory with
 *  - arch.h: the definitions below that must be inline (static inline, or macros), and
 *    ARCH_INIT_FRAME_BYTES; it may include rtoslab/config.h and nothing of the kernel's;
 *  - arch.cmake: sets K_ARCH_SOURCES, its sources (kernel/CMakeLists.txt includes it);
 *  - optionally include/rtoslab/arch_inline.h: inline definitions of API calls (kernel.h
 *    includes it at its end if the port has one; only with K_CONFIG_FASTPATH);
 *  - a deferred switch (PendSV on Cortex-M) whose handler calls z_sched_pendsv(saved_sp)
 *    (sched.h) to save the outgoing thread's stack pointer and get the next thread's;
 *    with none ready, it idles in thread mode until an interrupt readies one;
 *  - with K_CONFIG_FASTPATH=1 (the default on ARMv6-M), the assembly fast paths; a new port
 *    builds with K_CONFIG_FASTPATH=0 (the portable C paths, tested by ktest_kernel_c).
 * Everything else the kernel needs of the hardware is the board's (rtoslab/board_if.h).
 *
 * Inline, in arch.h (the kernel calls these on its hot paths):
 *   void arch_irq_disable(void)       the kernel's critical section in thread context:
 *   void arch_irq_enable(void)        mask / unmask every interrupt the kernel's services
 *                                     may be called from (PRIMASK on ARMv6-M);
 *   uint32_t arch_irq_lock(void)      nestable critical section for code that may run in an
 *   void arch_irq_unlock(uint32_t k)  interrupt: mask, returning the previous state; restore;
 *   int arch_irq_locked(void)         nonzero while masked (assertions only);
 *   int arch_irq_masked(void)         nonzero while the caller has interrupts masked by any
 *                                     of the CPU's masks (PRIMASK; ARMv7-M also BASEPRI);
 *   int arch_irq_key_masked(uint32_t k)  the same, from arch_irq_lock()'s key taken as a
 *                                     thread call entered (issue 31: such a call keeps
 *                                     the mask, pends the deferred switch instead of
 *                                     switching, and refuses to block, K_EMASKED);
 *   uint32_t arch_isr_key(void)       in an interrupt handler, before it masks: the mask it
 *                                     entered with, which arch_irq_unlock restores where the
 *                                     handler would unmask (0 where it is always 0);
 *   void arch_irq_exit_mask(void)     k_thread_exit: the kernel's mask, whatever the
 *                                     exiting thread's own (the next thread runs unmasked);
 *   uint32_t arch_exception(void)     the exception being handled: 0 in thread mode, 16 + n
 *                                     for interrupt line n (assertions only);
 *   int arch_in_isr(void)             nonzero in an interrupt handler;
 *   void arch_pend_switch(void)       from an interrupt: switch to the top thread (through
 *                                     the deferred switch) once interrupts return;
 *   int arch_switch(struct k_thread *from, struct k_thread *to)
 *                                     called in thread context with interrupts masked: save
 *                                     `from`, make `to` z_kernel.current, restore `to`, unmask;
 *                                     returns, once `from` runs again, from->z_wait.result.
 *                                     (Without K_CONFIG_SYNC_SWITCH it may ignore `to` and go
 *                                     through the deferred switch, which picks the top thread.)
 *   int arch_switch_pend(struct k_thread *from)
 *                                     the same when no thread is ready: `from` is saved, the
 *                                     CPU idles until an interrupt readies a thread; returns
 *                                     from->z_wait.result once `from` runs again.
 *   ARCH_INIT_FRAME_BYTES             bytes arch_thread_init lays on a new stack.
 * Optional, inline in arch.h (the kernel falls back to board_irq_enable without it):
 *   ARCH_HAS_IRQ_PRIO_SET, void arch_irq_prio_set(unsigned irq, unsigned prio)
 *                                     set an interrupt line's priority (0 .. 3, as
 *                                     board_irq_enable) without enabling it; `irq` is a
 *                                     constant where the kernel calls it (BOARD_ALARM_IRQ).
 *   ARCH_FAST_QUEUE                   the port has k_queue_send/recv fast paths (with
 *                                     K_CONFIG_FASTPATH; queue.c's z_queue_*_c and
 *                                     z_queue_*_slow are their slow paths).
 *   ARCH_SPIN_PAD()                   the padding before a timer's spin to its expiry
 *                                     (timer.c; default one NOP), which places the
 *                                     expiry among the clock's polls.
 *
 * Out of line (declared here, defined by the port):
 */
#ifndef RTOSLAB_ARCH_IF_H
#define RTOSLAB_ARCH_IF_H

#include <stdint.h>

#include "arch.h"

struct k_thread;

/* Once, from k_start, interrupts masked: the deferred switch at the lowest priority (so it
 * never preempts an interrupt), the periodic tick's priority. */
void arch_init(void);
/* Lay a new thread's first frame below `top` (8-byte aligned) and set t->z_sp, so that the
 * first switch to `t` calls entry(arg), which returns into k_thread_exit. */
void arch_thread_init(struct k_thread *t, uint32_t top, void (*entry)(void *), void *arg);
/* Leave main(): run `t` (z_kernel.current) on its own stack, interrupts unmasked, main's
 * stack left to interrupts. Never returns. */
void arch_start(struct k_thread *t) __attribute__((noreturn));
/* Periodic-tick build only (K_CONFIG_TICKLESS=0): interrupt every `reload` CPU cycles and
 * call z_time_tick() from that interrupt. */
void arch_tick_start(uint32_t reload);
/* A thread's stack overflowed (found at a switch): report it (k_fatal). Never returns. */
void arch_fatal_stack(struct k_thread *t) __attribute__((noreturn));

#endif
