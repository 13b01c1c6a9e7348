/* The RIOT shape of an interrupt handler on Cortex-M (cpu/cortexm_common/include/cpu.h): the
 * body, then cortexm_isr_end(), which pends PendSV when the body made a thread runnable that
 * should preempt (sched_context_switch_request). No prologue. */
#ifndef RTB_PORT_ISR_H
#define RTB_PORT_ISR_H
#include "cpu.h"

#define RTB_ISR_PROLOGUE() ((void)0)
#define RTB_ISR_EPILOGUE() cortexm_isr_end()
#endif
