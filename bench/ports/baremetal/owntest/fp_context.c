/*
 * The floor's own test of the M4F's FP context (armv7m/, owntest-baremetal-fp): two threads
 * that keep values in the FP registers across every kind of switch the floor makes, and
 * count the registers that come back wrong. The suite's checks use no floating point, so
 * without this the FP paths of the switch would run nowhere. Exits 0 when every register
 * survived every switch, 1 otherwise (bench/tests/own_tests.sh).
 *
 * One round: low fills s0-s31 and pends an interrupt whose ISR wakes high (PendSV saves low
 * with an extended frame and resumes high's light frame that keeps s16-s31); high fills its
 * own and blocks (a switch in thread mode to low's extended frame, which goes through
 * PendSV); low checks s0-s31, then keeps s16-s31 across a signal that switches to high in
 * thread mode (both light frames keep s16-s31), and checks them when high blocks again.
 */
#include "bench.h"

#if !defined(__ARM_FP)
#error "owntest-baremetal-fp is for a board with an FPU (hard-float ABI)"
#endif

#define ROUNDS 8
#define S_WAKE 0 /* high waits on it */
#define S_END 1  /* the controller waits on it */

/* Fills s0-s31 with seed + i (raw bits), pends `bit` in `ispr`, spins 300 NOPs (the
 * interrupt and two switches happen here), returns how many of s0-s31 changed. */
uint32_t fp_probe(uint32_t seed, volatile uint32_t *ispr, uint32_t bit);
/* Saves s16-s31 (AAPCS), fills s0-s31 with seed + i, calls fn, returns how many of s16-s31
 * (callee-saved) changed across the call. */
uint32_t fp_hold(uint32_t seed, void (*fn)(void));
__asm__(".syntax unified\n.thumb\n"
        ".macro FP_FILL\n"
        "  .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        "  add r3, r12, #\\i\n  vmov s\\i, r3\n"
        "  .endr\n"
        ".endm\n"
        ".macro FP_COUNT first\n" /* r0 = wrong registers from s\first up, r12 = seed */
        "  movs r0, #0\n"
        "  .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        "  .if \\i >= \\first\n"
        "  vmov r3, s\\i\n  sub r3, r3, r12\n  cmp r3, #\\i\n  it ne\n  addne r0, #1\n"
        "  .endif\n"
        "  .endr\n"
        ".endm\n"
        ".text\n.align 2\n.global fp_probe\n.type fp_probe, %function\n.thumb_func\n"
        "fp_probe:\n"
        "  mov r12, r0\n"
        "  FP_FILL\n"
        "  str r2, [r1]\n"
        "  .rept 300\n  nop\n  .endr\n"
        "  FP_COUNT 0\n"
        "  bx lr\n"
        ".size fp_probe, .-fp_probe\n"
        ".global fp_hold\n.type fp_hold, %function\n.thumb_func\n"
        "fp_hold:\n"
        "  push {r4, lr}\n"
        "  vpush {s16-s31}\n"
        "  mov r4, r0\n"
        "  mov r12, r0\n"
        "  FP_FILL\n"
        "  blx r1\n"
        "  mov r12, r4\n"
        "  FP_COUNT 16\n"
        "  vpop {s16-s31}\n"
        "  pop {r4, pc}\n"
        ".size fp_hold, .-fp_hold\n");

static volatile uint32_t bad, wakes;
static uint64_t high_stack[512 / 8], low_stack[512 / 8], ctrl_stack[512 / 8];

static void wait_wake(void) { rtb_sem_wait(S_WAKE, RTB_FOREVER); }
static void signal_wake(void) { rtb_sem_signal(S_WAKE); }

static void high(void *arg)
{
    (void)arg;
    for (uint32_t k = 0;; k++) {
        bad += fp_hold(0xA0000000u + 64u * k, wait_wake);
        wakes++;
    }
}

static void low(void *arg)
{
    (void)arg;
    for (uint32_t k = 0; k < ROUNDS; k++) {
        bad += fp_probe(0x50000000u + 64u * k, (volatile uint32_t *)0xE000E200u + BENCH_SW_IRQ / 32u,
                        1u << (BENCH_SW_IRQ % 32u));
        bad += fp_hold(0x30000000u + 64u * k, signal_wake);
    }
    rtb_sem_signal(S_END);
    for (;;)
        rtb_sem_wait(S_END + 1, RTB_FOREVER);
}

void IRQ28_Handler(void) { rtb_sem_signal_isr(S_WAKE); }
_Static_assert(BENCH_SW_IRQ == 28u, "IRQ28_Handler is the software interrupt");

/* port.c reports its configuration through the suite, which this image does not link */
void bench_config(const char *key, const char *value)
{
    (void)key;
    (void)value;
}

static void put_u(uint32_t v)
{
    char b[11];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        board_putc(b[--n]);
}

static void controller(void *arg)
{
    (void)arg;
    rtb_sem_create(S_WAKE, 0, 1);
    rtb_sem_create(S_END, 0, 1);
    rtb_sem_create(S_END + 1, 0, 1);
    board_irq_enable(BENCH_SW_IRQ, 1);
    rtb_thread_create(0, 6, high, 0, high_stack, sizeof high_stack);
    rtb_thread_create(1, 3, low, 0, low_stack, sizeof low_stack);
    rtb_sem_wait(S_END, RTB_FOREVER);
    board_puts("fp context: wrong registers ");
    put_u(bad);
    board_puts(", wakes ");
    put_u(wakes);
    board_puts(bad == 0 && wakes == 2u * ROUNDS ? " (expected 0, 16): pass\n" : " (expected 0, 16): FAIL\n");
    board_exit(bad == 0 && wakes == 2u * ROUNDS ? 0 : 1);
}

int main(void)
{
    rtb_port_start(controller, ctrl_stack, sizeof ctrl_stack);
}
