/* contiki_platform.h - the minimal Contiki-NG platform of this port (platform.c). */
#ifndef CONTIKI_PLATFORM_H
#define CONTIKI_PLATFORM_H

#include <stdint.h>

void contiki_platform_init(void);     /* os/contiki-main.c's start-up sequence */
void contiki_platform_idle(void);     /* platform_idle(): arm the etimer wake-up, WFI */
void contiki_platform_run_once(void); /* run every poll and event, then idle once */
/* Idle only while *flag == value (flag NULL: as contiki_platform_idle). */
void contiki_platform_idle_while(volatile uint32_t *flag, uint32_t value);

#endif
