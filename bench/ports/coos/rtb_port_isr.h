/* The CoOS shape of an interrupt handler that calls isr_ services (CoOS user's guide:
 * "CoEnterISR() at the entry of the ISR, CoExitISR() at its exit"): CoEnterISR counts the
 * nesting (OSIntNesting), CoExitISR schedules when the outermost handler leaves and a
 * switch was requested (Schedule -> PendSV). */
#ifndef RTB_PORT_ISR_H
#define RTB_PORT_ISR_H
#include "CoOS.h"

#define RTB_ISR_PROLOGUE() CoEnterISR()
#define RTB_ISR_EPILOGUE() CoExitISR()
#endif
