/* ARM semihosting calls (BKPT 0xAB), used by boards whose console is the debugger/emulator. */
#ifndef SEMIHOSTING_H
#define SEMIHOSTING_H

#include <stdint.h>

#define SH_SYS_WRITEC 0x03u
#define SH_SYS_WRITE0 0x04u
#define SH_SYS_EXIT 0x18u
#define SH_SYS_EXIT_EXTENDED 0x20u
#define SH_ADP_STOPPED_APPLICATION_EXIT 0x20026u

static inline uint32_t semihosting_call(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#endif
