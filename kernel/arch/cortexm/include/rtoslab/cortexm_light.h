/*
 * The light-call convention both Cortex-M ports share (docs/kernel-api.md, "Light calls"): a
 * call of a port routine that may switch threads declares every core register but r7
 * clobbered, so that a switch saves only r7 and the return address and the compiler keeps
 * across the call only what is live at that call site. Used by the public inline calls
 * (cortexm_inline.h) and by the kernel's own switches (kernel/arch/cortexm/cortexm_arch.h).
 * (s16-s31 need no clobber on the M4F: a thread with FP context switches through PendSV,
 * which saves them.)
 */
#ifndef RTOSLAB_CORTEXM_LIGHT_H
#define RTOSLAB_CORTEXM_LIGHT_H

#define Z_LIGHT_CLOBBERS \
    "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

#endif
