/*
 * ARMv6-M fast paths (K_CONFIG_FASTPATH): the hot calls written for the cycle counts of a
 * Cortex-M0, with the portable C versions (z_*_c) as their slow paths. Everything that is not
 * the common case (a timeout, an error, a waiter of lower priority, an interrupted target)
 * branches to the C function with the original arguments, so behaviour is the C code's.
 * The tests whose failure is an error of the C's checks (Z_CHECK, kcheck.h: NULL or not the
 * object's type, a bad argument, a thread-only call in an interrupt) are built only with
 * K_CONFIG_CHECKS, as the C's (`#if K_CONFIG_CHECKS` around them, here and in the inline
 * paths of include/rtoslab); those that choose a path stay.
 *
 *   k_yield            rotate the caller's ring, synchronous switch
 *   k_sem_wait         take a unit, or block (K_FOREVER) and switch
 *   k_sem_signal       count, or hand the unit to a higher-priority waiter and switch to it
 *   k_sem_signal_isr   count, or hand the unit to a waiter and pend PendSV if it preempts
 *   k_mutex_lock/unlock  the uncontended cases
 *   k_thread_prio_set  a ready thread, no mutex contended anywhere
 *   k_thread_suspend   the caller itself: out of its ring, switch to the top thread
 *   k_thread_resume    a suspended thread: into its ring, switch to it if it outranks the caller
 *   k_mempool_alloc/free  the free list; a block of a power-of-two size (AAPCS: no switch)
 *   k_queue_send/recv  the ring with room or an item, the hand-off to a receiver that does not
 *                      outrank the sender (AAPCS: no switch)
 *   PendSV_Handler     save, choose the next thread (bitmap + table), restore
 *
 * The calls that may switch (k_yield, k_sem_wait, k_sem_signal, k_thread_prio_set,
 * k_thread_suspend, k_thread_resume) are
 * "light" routines z_*_l, which the inline wrappers of kernel.h call with every register but
 * r7 declared clobbered (switch_tail.inc), so a switch saves only r7 and the return address;
 * the k_* symbols are the same routines for AAPCS callers, through z_call_full. A light
 * routine must leave r7 alone until its SWITCH_TAIL, and may use r0-r6 and r12 freely.
 *
 * One file per object, linked in this order (kernel/CMakeLists.txt: the order of the code
 * in flash): fast_suspend.S (before switch.S, arch.cmake), fast.S (k_yield), fast_sem.S,
 * fast_prio.S, fast_mutex.S, fast_mempool.S, fast_pendsv.S, fast_queue.S;
 * fast_macros.inc, what they share.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH

#include "fast_macros.inc"

/* void k_yield(void) */
    FUNC z_yield_l
    ldr     r3, =z_kernel
    MASKED_TO 2f, r0                /* masked: no switch, the mask kept (issue 31) */
    cpsid   i
    ldr     r2, [r3, #ZK_CURRENT]
    ldr     r1, [r2, #ZT_NEXT]
    cmp     r1, r2
    beq     1f                      /* alone at its priority */
    cmp     r2, #0
    beq     1f                      /* before k_start(): nobody to yield to (issue 31) */
    ldrb    r0, [r2, #ZT_PRIO]
    lsls    r0, r0, #2
    adds    r0, r0, r3
    str     r2, [r0, #ZK_READY]     /* the caller becomes the tail of its ring */
    SWITCH_TAIL
1:  cpsie   i
2:  bx      lr
    ENDFUNC z_yield_l
    FULL_ENTRY k_yield, z_yield_l

#endif /* K_CONFIG_FASTPATH */
