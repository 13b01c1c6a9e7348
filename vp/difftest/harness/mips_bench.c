/* CPU-bound benchmark image for vp/difftest/mips.py: insertion sort, bitwise CRC-32 and an
   8x8 matrix product over pseudo-random data, ITERS times; prints a checksum through
   semihosting and exits with SYS_EXIT (ADP_Stopped_ApplicationExit). The same image runs
   on rtoslab-vp and on qemu-system-arm -M microbit.

   With -DQEMU_TIMER the image also reads the nRF51 TIMER0 of QEMU's microbit machine at
   start and end; under `-icount shift=0` (1 ns of virtual time per instruction) that gives
   QEMU's own estimate of the instruction count (16 MHz timer: 62.5 instructions a tick).

   With -DTIGHT the work is a tight loop instead (a xorshift step per pass, about 10
   instructions, one basic block and its branch), ITERS * 2800 passes: the other end of
   the workloads from the mixed one (calls, loads and stores, data-dependent branches). */
#include <stdint.h>

#ifndef ITERS
#define ITERS 1400
#endif

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static char buf[96];
static unsigned pos;
static void put(char c) { buf[pos++] = c; }
static void puts_(const char *s) { while (*s) put(*s++); }
static void hex(uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4) put("0123456789abcdef"[(v >> i) & 15]);
}

#ifndef TIGHT
#define N_SORT 48
#define N_MAT 8
static uint32_t arr[N_SORT];
static int32_t ma[N_MAT][N_MAT], mb[N_MAT][N_MAT], mc[N_MAT][N_MAT];

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

static void isort(uint32_t *a, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint32_t v = a[i];
        unsigned j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static uint32_t crc32(const uint8_t *p, unsigned n, uint32_t crc)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t matmul(void)
{
    uint32_t sum = 0;
    for (int i = 0; i < N_MAT; i++)
        for (int j = 0; j < N_MAT; j++) {
            int32_t acc = 0;
            for (int k = 0; k < N_MAT; k++) acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
            sum = (sum << 1 | sum >> 31) ^ (uint32_t)acc;
        }
    return sum;
}
#endif

#ifdef QEMU_TIMER
#define TIMER0(off) (*(volatile uint32_t *)(0x40008000u + (off)))
static uint32_t timer_now(void)
{
    TIMER0(0x040) = 1; /* TASKS_CAPTURE[0] */
    return TIMER0(0x540); /* CC[0] */
}
#endif

int main(void)
{
#ifdef QEMU_TIMER
    TIMER0(0x504) = 0; /* MODE: timer */
    TIMER0(0x508) = 3; /* BITMODE: 32 bit */
    TIMER0(0x510) = 0; /* PRESCALER: 16 MHz */
    TIMER0(0x000) = 1; /* TASKS_START */
    uint32_t t0 = timer_now();
#endif
    uint32_t seed = 12345, check = 0;
#ifdef TIGHT
    for (unsigned it = 0; it < ITERS * 2800u; it++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        check += seed;
    }
#else
    for (unsigned it = 0; it < ITERS; it++) {
        for (unsigned i = 0; i < N_SORT; i++) arr[i] = lcg(&seed);
        isort(arr, N_SORT);
        check = crc32((const uint8_t *)arr, sizeof arr, check);
        for (int i = 0; i < N_MAT; i++)
            for (int j = 0; j < N_MAT; j++) {
                ma[i][j] = (int32_t)(lcg(&seed) >> 20) - 2048;
                mb[i][j] = (int32_t)(lcg(&seed) >> 22) - 512;
            }
        check += matmul();
    }
#endif
    puts_("MIPS-BENCH checksum=");
    hex(check);
#ifdef QEMU_TIMER
    uint32_t t1 = timer_now();
    puts_(" qemu_timer_ticks=");
    hex(t1 - t0);
#endif
    put('\n');
    put(0);
    semihost(0x04, buf);
    semihost(0x18, (const void *)0x20026);
    for (;;) { }
}

void dt_reset(void)
{
    extern uint32_t _dt_bss_start, _dt_bss_end;
    for (uint32_t *p = &_dt_bss_start; p < &_dt_bss_end; p++) *p = 0;
    main();
}

static void fault(void)
{
    semihost(0x04, "MIPS-BENCH fault\n");
    semihost(0x18, (const void *)0x20023);
    for (;;) { }
}

extern char _dt_stack_top[];
__attribute__((section(".vectors"), used)) void *const vectors[16] = {
    _dt_stack_top, (void *)dt_reset, (void *)fault, (void *)fault,
    0, 0, 0, 0, 0, 0, 0, (void *)fault, 0, 0, (void *)fault, (void *)fault};
