/* The ChibiOS shape of an interrupt handler (NIL's documentation, "IRQ handlers"): the body
 * between CH_IRQ_PROLOGUE() and CH_IRQ_EPILOGUE(); I-class calls inside chSysLockFromISR()
 * / chSysUnlockFromISR(). On ARMv6-M the prologue saves LR (EXC_RETURN) and the epilogue,
 * when returning to a thread and a switch is due, plants a return frame that performs the
 * switch in thread mode (the NMI path of the port, CORTEX_ALTERNATE_SWITCH FALSE). */
#ifndef RTB_PORT_ISR_H
#define RTB_PORT_ISR_H
#include "ch.h"

#define RTB_ISR_PROLOGUE() CH_IRQ_PROLOGUE()
#define RTB_ISR_EPILOGUE() CH_IRQ_EPILOGUE()
#endif
