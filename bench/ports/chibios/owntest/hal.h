/*
 * hal.h for ChibiOS's own test suites on the rtoslab boards (written for this port).
 *
 * The test sources (os/test, test/rt, test/oslib) include "hal.h" for the HAL's streams
 * (BaseSequentialStream, streamPut) and OSAL; the HAL is not in the pinned archive. This
 * gives them exactly that much: the kernel, and a sequential stream with the HAL's layout
 * (hal_streams.h) whose put method the harness implements with board_putc.
 */
#ifndef HAL_H
#define HAL_H

#include "ch.h"
#include "board.h"

struct BaseSequentialStreamVMT {
  size_t instance_offset;
  size_t (*write)(void *instance, const uint8_t *bp, size_t n);
  size_t (*read)(void *instance, uint8_t *bp, size_t n);
  msg_t (*put)(void *instance, uint8_t b);
  msg_t (*get)(void *instance);
};

typedef struct {
  const struct BaseSequentialStreamVMT *vmt;
} BaseSequentialStream;

#define streamWrite(ip, bp, n) ((ip)->vmt->write(ip, bp, n))
#define streamRead(ip, bp, n)  ((ip)->vmt->read(ip, bp, n))
#define streamPut(ip, b)       ((ip)->vmt->put(ip, b))
#define streamGet(ip)          ((ip)->vmt->get(ip))

/* The OSAL calls the test runtime uses (os/hal/osal/rt-nil/osal.h maps them the same way). */
#define osalSysLock()                           chSysLock()
#define osalSysUnlock()                         chSysUnlock()
#define osalThreadSleepMilliseconds(ms)         chThdSleepMilliseconds(ms)
#define osalOsGetSystemTimeX()                  chVTGetSystemTimeX()
#define osalTimeIsInRangeX(time, start, end)    chTimeIsInRangeX(time, start, end)

#endif /* HAL_H */
