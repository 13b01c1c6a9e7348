/*
 * ARMv7-M fast paths of the mutexes (K_CONFIG_FASTPATH and K_CONFIG_MUTEX; see fast.S):
 * k_mutex_lock/unlock uncontended, out of line (the inline versions are in
 * include/rtoslab/arch_inline.h), and the inline versions' slow paths, which call the C code.
 */
#include "rtoslab/config.h"
#include "offsets.h"

#if K_CONFIG_FASTPATH && K_CONFIG_MUTEX

#include "fast_macros.inc"

/* int k_mutex_lock(struct k_mutex *m, k_timeout_t timeout): the uncontended case (the lock
 * word Z_MUTEX_FREE, the address of z_kernel, means a free, valid mutex; SP below z_kernel
 * means an interrupt, which C refuses) */
    FUNC k_mutex_lock
    ldr     r3, =z_kernel
    IRQ_MASK r2
    ldr     r2, [r0, #ZM_OWNER]
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    cmp     r2, r3
    bne     8f
    ldr     r2, [r3, #ZK_CURRENT]
    str     r2, [r0, #ZM_OWNER]
    IRQ_UNMASK r0
    bx      lr
8:  IRQ_UNMASK r3
    b       z_mutex_lock_c          /* r0-r1 are the arguments */
    ENDFUNC k_mutex_lock

/* int k_mutex_unlock(struct k_mutex *m): the lock word exactly the caller (no waiters) */
    FUNC k_mutex_unlock
    ldr     r3, =z_kernel
    IRQ_MASK r2
    cmp     sp, r3
    bls     8f                      /* the interrupt stack (or main before k_start): C */
    ldr     r2, [r0, #ZM_OWNER]
    ldr     r1, [r3, #ZK_CURRENT]
    cmp     r2, r1
    bne     8f
    str     r3, [r0, #ZM_OWNER]     /* Z_MUTEX_FREE */
    IRQ_UNMASK r0
    bx      lr
8:  IRQ_UNMASK r3
    b       z_mutex_unlock_c        /* r0 is the argument */
    ENDFUNC k_mutex_unlock

/* The slow paths of the inline k_mutex_lock/unlock: called masked, r0 = m (r1 = timeout);
 * the result in r3; r0 kept (the inline code clobbers r1-r3, r12 and lr, so that the caller
 * may keep the mutex in r0 around it). */
    .macro MUTEX_SLOW name, cfn
    FUNC \name
    push    {r0, lr}                /* (8-byte aligned at the call) */
    IRQ_UNMASK r3
    bl      \cfn
    mov     r3, r0
    pop     {r0, pc}
    ENDFUNC \name
    .endm
    MUTEX_SLOW z_mutex_lock_slow, z_mutex_lock_c
    MUTEX_SLOW z_mutex_unlock_slow, z_mutex_unlock_c

#endif /* K_CONFIG_FASTPATH && K_CONFIG_MUTEX */
