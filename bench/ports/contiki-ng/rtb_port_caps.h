/* Contiki-NG 5.0: processes are stackless cooperative protothreads driven by events; no
 * thread of the porting layer's model exists (RTB_PORT_NO_THREADS, rtb_port.h): the standard
 * tests are absent with the reason of port.c, and t_contiki.c measures what Contiki-NG does.
 * Interrupts exist (a handler calls process_poll(); no prologue or epilogue: no
 * rtb_port_isr.h). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "5.0"
#define RTB_CAPS (RTB_CAP_IRQ)
#define RTB_TIMER_CB_IN_ISR 1 /* rtimer callbacks run in the compare-timer interrupt */
#define RTB_PORT_NO_THREADS 1
#endif
