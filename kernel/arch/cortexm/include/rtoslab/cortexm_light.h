/*
 * The light-call convention both Cortex-M ports share (docs/kernel-api.md, "Light calls"): a
 * call of a port routine that may switch threads, inlined as a `BL` whose clobbers say what
 * the routine may change (r0 and r1 are its operands). Used by the public inline calls
 * (cortexm_inline.h) and by the kernel's own switches (kernel/arch/cortexm/cortexm_arch.h).
 *  - ARMv6-M: every core register but r7, so that a switch saves only r7 and the return
 *    address and the compiler keeps across the call only what is live at that call site
 *    (Thumb-1 reaches r8-r11 only through r0-r7: saving them in the switch is dear).
 *  - ARMv7-M: what an AAPCS call may change (r2, r3, r12, lr), so that a caller keeps its
 *    live values in r4-r11 at no cost; the routines that switch save r4-r11 in their light
 *    frame (kernel/arch/armv7m/switch_tail.inc), the others leave them alone.
 * (s16-s31 need no clobber on the M4F: a thread with FP context switches through PendSV,
 * which saves them.)
 */
#ifndef RTOSLAB_CORTEXM_LIGHT_H
#define RTOSLAB_CORTEXM_LIGHT_H

#if defined(__thumb2__)
#define Z_LIGHT_CLOBBERS "r2", "r3", "r12", "lr", "cc", "memory"
#else
#define Z_LIGHT_CLOBBERS \
    "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"
#endif

#endif
