/*
 * ARMv7-M fast paths (K_CONFIG_FASTPATH): the hot calls in Thumb-2, with the portable C
 * versions (z_*_c) as their slow paths, as in the ARMv6-M port (kernel/arch/armv6m/fast.S,
 * which lists what each does). Everything that is not the common case branches to the C
 * function with the original arguments, so behaviour is the C code's. The tests of the C's
 * checks are built only with K_CONFIG_CHECKS, as in the ARMv6-M port.
 *
 *   k_yield            rotate the caller's ring, synchronous switch (this file)
 *   k_sem_wait, k_sem_signal, k_sem_signal_isr, k_sem_signal_irq    fast_sem.S
 *   k_mutex_lock/unlock  the uncontended cases                       fast_mutex.S
 *   k_thread_suspend   the caller itself                             fast_suspend.S
 *   k_thread_resume    a suspended thread, from a thread                fast_suspend.S
 *   k_thread_prio_set  the C code (a plain tail call, below)
 *   PendSV_Handler     save, choose the next thread (bitmap + CLZ), restore  fast_pendsv.S
 *
 * The calls that may switch (k_yield, k_sem_wait, k_sem_signal, k_thread_suspend,
 * k_thread_resume) are light routines z_*_l, which the inline wrappers
 * (include/rtoslab/arch_inline.h) call with what an AAPCS call may change declared clobbered
 * (cortexm_light.h); the k_* symbols are the same routines for AAPCS callers. A light
 * routine uses r0-r3 and r12 until it knows it switches, then saves r4-r11 in its light
 * frame (FRAME_SAVE, switch_tail.inc) and may use them.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* void k_yield(void) */
    FUNC z_yield_l
    MASKED_TO 2f, r2, r3            /* masked: no switch, the mask kept (issue 31) */
    ldr     r3, =z_kernel
    IRQ_MASK r2
    ldr     r2, [r3, #ZK_CURRENT]
    cbz     r2, 1f                  /* before k_start(): nobody to yield to (issue 31) */
    ldr     r1, [r2, #ZT_NEXT]
    cmp     r1, r2
    beq     1f                      /* alone at its priority */
    ldrb    r0, [r2, #ZT_PRIO]
    add     r0, r3, r0, lsl #2
    str     r2, [r0, #ZK_READY]     /* the caller becomes the tail of its ring */
    FRAME_SAVE
    SWITCH_TAIL
1:  IRQ_UNMASK r2
2:  bx      lr
    ENDFUNC z_yield_l
    FULL_ENTRY k_yield, z_yield_l

/* The calls without a fast path of their own on ARMv7-M: the C code. */
    FUNC k_thread_prio_set
    b       z_thread_prio_set_c
    ENDFUNC k_thread_prio_set

#endif /* K_CONFIG_FASTPATH */
