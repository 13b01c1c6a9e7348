/*
 * The port's IRQ entry: a correction in front of Jobbed's, for a defect in the pinned Jobbed
 * (e36b951). Our own code, written from the ARM Architecture Reference Manual (ARMv7-A and
 * ARMv7-R edition, "Exception handling": an IRQ copies the interrupted CPSR to SPSR_irq;
 * the CPS, MRS and MSR instructions: each mode has its own banked SPSR).
 *
 * The defect: when an IRQ preempts a user-mode thread, Jobbed's IRQ code switches to SVC
 * mode and enters its scheduler, which saves SPSR_svc as the thread's CPSR. The interrupted
 * thread's CPSR is in SPSR_irq, never read; SPSR_svc still holds the CPSR of the last SVC
 * call, so the thread resumes with that call's flags (check.xpsr_preserved: 15 of 16
 * patterns wrong). The correction: when the interrupted mode is User, copy SPSR_irq into
 * SPSR_svc before Jobbed's IRQ code runs. SVC mode has no live state then (a thread in User
 * mode is inside no system call), so nothing of the kernel's is lost; an IRQ taken from
 * any other mode is left exactly as Jobbed handles it.
 *
 * Linked in place of Jobbed's entry with -Wl,--wrap=irq (CMakeLists.txt): the vector
 * table's `irq` word then names __wrap_irq, and __real_irq is Jobbed's own, unchanged.
 */
    .syntax unified
    .arm
    .text
    .align 2
    .global __wrap_irq
    .type __wrap_irq, %function
__wrap_irq:
    push {r0, r1}           /* IRQ mode's stack (Jobbed's boot sets it); IRQs are masked */
    mrs r0, spsr            /* the interrupted CPSR */
    and r1, r0, #0x1f
    cmp r1, #0x10           /* interrupted in User mode? */
    bne 1f
    cps #0x13               /* SVC mode (I, F, A unchanged: still masked) */
    msr spsr_cxsf, r0       /* SPSR_svc := the thread's CPSR */
    cps #0x12               /* back to IRQ mode */
1:  pop {r0, r1}
    b __real_irq
    .size __wrap_irq, .-__wrap_irq
