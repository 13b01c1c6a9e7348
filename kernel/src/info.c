/*
 * Queries of threads and mutexes for layers above the kernel (the CMSIS-RTOS2 layer,
 * kernel/cmsis_os2: osThreadGetState, osMutexGetOwner): read-only, any context.
 */
#include "kernel_internal.h"

int k_thread_state(const struct k_thread *t)
{
    if (!t || !Z_STATE_VALID(t->z_state))
        return K_EINVAL;
    switch (t->z_state) {
    case Z_STATE_READY:
        return K_THREAD_READY;
    case Z_STATE_SUSPENDED:
        return K_THREAD_SUSPENDED;
    case Z_STATE_DEAD:
        return K_THREAD_DEAD;
    default:
        return K_THREAD_BLOCKED;
    }
}

#if K_CONFIG_MUTEX
struct k_thread *k_mutex_owner(const struct k_mutex *m)
{
    if (!m || m->z_type != Z_OBJ_MUTEX)
        return NULL;
    uintptr_t w = m->z_owner & ~(uintptr_t)3u;
    if (w == 0u || w == Z_MUTEX_FREE)
        return NULL; /* free, or held by main() before k_start */
    struct k_thread *t = (struct k_thread *)w;
    /* an uncontended mutex of a thread that ended is taken over by its next locker */
    return t->z_state == Z_STATE_DEAD ? NULL : t;
}
#endif

int k_next_expiry(uint32_t *at)
{
    uint32_t key = arch_irq_lock();
    int have = 0;
    uint32_t when = 0;
    for (const struct k_thread *t = z_kernel.timeouts; t; t = t->z_tnext) {
#if Z_LAZY_TIMEOUTS
        if (!Z_STATE_IS_BLOCKED(t->z_state))
            continue; /* stale (config.h) */
#endif
        when = t->z_wake;
        have = 1;
        break;
    }
#if K_CONFIG_TIMER
    if (z_kernel.timers && (!have || (int32_t)(z_kernel.timers->z_at - when) < 0)) {
        when = z_kernel.timers->z_at;
        have = 1;
    }
#endif
    arch_irq_unlock(key);
    if (have && at)
        *at = when;
    return have;
}
