/* The FreeRTOS shape of an interrupt handler: the FromISR calls of its body set
 * xHigherPriorityTaskWoken (here rtb_freertos_woken), and the handler ends in
 * portYIELD_FROM_ISR, which pends the switch to the woken task (ARM_CM0: PendSV). */
#ifndef RTB_PORT_ISR_H
#define RTB_PORT_ISR_H
#include "FreeRTOS.h"
#include "task.h"

extern volatile BaseType_t rtb_freertos_woken;

#define RTB_ISR_PROLOGUE() ((void)0)
#define RTB_ISR_EPILOGUE()                                                                 \
    do {                                                                                   \
        if (rtb_freertos_woken) {                                                          \
            rtb_freertos_woken = pdFALSE;                                                  \
            portYIELD_FROM_ISR(pdTRUE);                                                    \
        }                                                                                  \
    } while (0)
#endif
