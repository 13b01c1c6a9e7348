/* The ChibiOS/RT shape of an interrupt handler (RT documentation, "ISRs"): a handler that
 * may call I-class functions is written
 *     CH_IRQ_HANDLER(name) { CH_IRQ_PROLOGUE(); ... chSysLockFromISR(); chXxxI(); chSysUnlockFromISR(); ... CH_IRQ_EPILOGUE(); }
 * On ARMv6-M the prologue keeps the EXC_RETURN value (LR) and the epilogue, when returning
 * to thread mode, pushes a fake exception frame that makes the exit go through
 * __port_switch_from_isr (a switch, if chSchIsPreemptionRequired()) or __port_exit_from_isr,
 * both ending in an NMI that drops the fake frame (os/common/ports/ARMv6-M/chcore.c). */
#ifndef RTB_PORT_ISR_H
#define RTB_PORT_ISR_H
#include "ch.h"

#define RTB_ISR_PROLOGUE() CH_IRQ_PROLOGUE()
#define RTB_ISR_EPILOGUE() CH_IRQ_EPILOGUE()
#endif
