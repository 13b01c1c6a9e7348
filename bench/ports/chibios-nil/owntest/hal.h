/*
 * The part of the ChibiOS HAL that the test framework (os/test: ch_test.h includes "hal.h"
 * when TEST_CFG_CHIBIOS_SUPPORT) uses, written for this port because the HAL is not in the
 * pinned archive: an output stream type with streamPut (the harness passes its own putchar
 * to test_execute_putchar, so the stream is never used), and the OSAL calls ch_test.c makes,
 * mapped onto NIL as the HAL's NIL OSAL maps them.
 */
#ifndef HAL_H
#define HAL_H

#include "ch.h"

typedef struct BaseSequentialStream BaseSequentialStream;
struct BaseSequentialStream {
    int (*put)(BaseSequentialStream *s, uint8_t b);
};
#define streamPut(s, b) ((s)->put((s), (b)))

#define osalThreadSleepMilliseconds(ms) chThdSleepMilliseconds(ms)
#define osalOsGetSystemTimeX() chVTGetSystemTimeX()
#define osalTimeIsInRangeX(t, s, e) chTimeIsInRangeX((t), (s), (e))
#define osalSysLock() chSysLock()
#define osalSysUnlock() chSysUnlock()

#endif
