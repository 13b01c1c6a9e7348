/* FreeRTOS-Kernel V11: every service of the porting layer is there. */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#define RTB_PORT_VERSION "11.2.0"
#define RTB_CAPS RTB_CAPS_ALL
#define RTB_TIMER_CB_IN_ISR 0 /* timer callbacks run in the timer service task */
#define RTB_PORT_ISR 1        /* handlers end in portYIELD_FROM_ISR: rtb_port_isr.h */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
#endif
