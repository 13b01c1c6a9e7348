/* rtoslab: the project's kernel (kernel/include/rtoslab/kernel.h). No heap: the memory
 * service is a kernel memory pool of 128-byte blocks (port.c). */
#ifndef RTB_PORT_CAPS_H
#define RTB_PORT_CAPS_H
#include "rtoslab/kernel.h"
#define RTB_PORT_VERSION RTOSLAB_KERNEL_VERSION
#define RTB_CAPS RTB_CAPS_ALL
#define RTB_TIMER_CB_IN_ISR 1 /* k_timer callbacks run in the time source's interrupt */
#define RTB_PORT_INLINE 1     /* the hot calls are inline: rtb_port_inline.h */
#endif
