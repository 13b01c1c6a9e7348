/*
 * k_thread_wake: end another thread's wait or sleep now, as if its timeout had expired
 * (CMSIS-RTOS2's osThreadResume of a blocked thread, kernel/cmsis_os2). Added beside the
 * objects rather than in them: their hot paths stay as they are.
 */
#include "kernel_internal.h"

#if Z_HAS_WAIT_OBJ
int k_thread_wake(struct k_thread *t)
{
    Z_CHECK(t && Z_STATE_VALID(t->z_state), K_EINVAL);
    uint32_t key = arch_irq_lock(); /* (the caller's mask: kept, issue 31) */
    if (!Z_STATE_IS_BLOCKED(t->z_state) || t == z_kernel.current) {
        arch_irq_unlock(key);
        return K_ESTATE;
    }
    struct k_thread **q = (struct k_thread **)t->z_wait.obj;
    if (q) {
        uint8_t state = t->z_state;
        z_waitq_remove(q, t);
        z_wake(t, K_ETIMEDOUT);
        z_waiter_left(state, q);
    } else {
        z_wake(t, 0); /* a sleep: it ends */
    }
    if (arch_in_isr()) {
        z_reschedule_isr();
        arch_irq_unlock(key);
    } else {
        z_reschedule_key(key);
    }
    return 0;
}
#endif
