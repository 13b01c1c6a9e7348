/* rtoslab difftest runtime: vector table, reset, the driver that runs each generated
   program and prints its final state over semihosting, and a HardFault reporter.
   Built with -mcpu=cortex-m0 -mthumb -nostdlib; runs on qemu-system-arm -M microbit
   and on rtoslab-vp. */
#include <stdint.h>

#define REGION_START 0x20000000u
#define REGION_WORDS 1024u /* 0x20000000..0x20000FFF: scratch data + program stack */

/* Produced by the generator (one batch .S per image). */
extern void (*const dt_prog_table[])(void);
extern const uint32_t dt_prog_info[]; /* per program: global index, memory seed, initial SP */
extern const uint32_t dt_prog_count;

/* Filled by each program's epilogue: r0..r12, APSR, SP, PRIMASK, CONTROL, MSP, PSP. */
uint32_t dt_results[19];
uint32_t dt_saved_sp;
volatile uint32_t dt_current;
/* Set by a program's prologue, cleared by its epilogue: while set, SVC and HardFault are
   part of the test (dt_exc_handler), otherwise they are fatal (dt_fault_report). */
uint32_t dt_expect_exc;

extern uint32_t _dt_bss_start, _dt_bss_end;

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void sys_exit(uint32_t reason)
{
    /* AArch32 SYS_EXIT: r1 holds the reason itself. */
    semihost(0x18, (const void *)reason);
    for (;;) { }
}

static char line[2048];
static unsigned pos;
static void flush(void);

static void put(char c)
{
    line[pos++] = c;
    if (pos == sizeof line - 1) flush(); /* long memory listings go out in pieces */
}
static void puts_(const char *s) { while (*s) put(*s++); }
static void hex(uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4) put("0123456789abcdef"[(v >> i) & 15]);
}
static void flush(void)
{
    line[pos] = 0;
    semihost(0x04, line); /* SYS_WRITE0 */
    pos = 0;
}

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *s = x;
}

static void fill(uint32_t seed)
{
    volatile uint32_t *m = (volatile uint32_t *)REGION_START;
    uint32_t s = seed | 1;
    for (unsigned i = 0; i < REGION_WORDS; i++) m[i] = xorshift(&s);
}

static void report(uint32_t idx, uint32_t seed, uint32_t sp0)
{
    static const char *const names[19] = {
        "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
        "apsr", "sp", "primask", "control", "msp", "psp"};
    puts_("P ");
    hex(idx);
    for (unsigned i = 0; i < 19; i++) {
        uint32_t v = dt_results[i];
        if (i == 14 || i == 17) v -= sp0; /* SP, MSP as deltas from the program's initial SP */
        put(' ');
        puts_(names[i]);
        put('=');
        hex(v);
    }
    puts_(" mem");
    const volatile uint32_t *m = (const volatile uint32_t *)REGION_START;
    uint32_t s = seed | 1;
    for (unsigned i = 0; i < REGION_WORDS; i++) {
        uint32_t want = xorshift(&s);
        if (m[i] != want) {
            put(' ');
            hex(REGION_START + 4 * i);
            put(':');
            hex(m[i]);
        }
    }
    put('\n');
    flush();
}

#define REG(a) (*(volatile uint32_t *)(a))

/* Programs may enable, pend and prioritise IRQs and PendSV: start each from reset state. */
static void reset_nvic(void)
{
    REG(0xE000E180) = 0xFFFFFFFFu; /* NVIC_ICER */
    REG(0xE000E280) = 0xFFFFFFFFu; /* NVIC_ICPR */
    for (unsigned i = 0; i < 8; i++) REG(0xE000E400 + 4 * i) = 0; /* NVIC_IPR0..7 */
    REG(0xE000ED20) = 0;           /* SHPR3: PendSV and SysTick priority */
    REG(0xE000ED04) = 1u << 27;    /* ICSR.PENDSVCLR */
    __asm__ volatile("msr psp, %0" : : "r"(0)); /* PSP is UNKNOWN at reset: define it */
}

int main(void)
{
    /* The first line goes through SYS_OPEN(":tt") + SYS_WRITE and SYS_WRITEC, the rest
       through SYS_WRITE0: the runner checks that both platforms print it. */
    static const char begin[] = "DIFFTEST BEGIN";
    uint32_t open_blk[3] = {(uint32_t)":tt", 4 /* "w" */, 3};
    int h = semihost(0x01, open_blk); /* SYS_OPEN */
    uint32_t write_blk[3] = {(uint32_t)h, (uint32_t)begin, sizeof begin - 1};
    semihost(0x05, write_blk);        /* SYS_WRITE */
    semihost(0x03, "\n");             /* SYS_WRITEC */
#ifdef __ARM_FP
    REG(0xE000ED88) |= 0xFu << 20; /* CPACR: CP10/CP11 full access (--arch v7em) */
#endif
    for (uint32_t i = 0; i < dt_prog_count; i++) {
        uint32_t idx = dt_prog_info[3 * i], seed = dt_prog_info[3 * i + 1];
        dt_current = idx;
        reset_nvic();
        fill(seed);
        dt_prog_table[i]();
        report(idx, seed, dt_prog_info[3 * i + 2]);
    }
    puts_("DIFFTEST END\n");
    flush();
    sys_exit(0x20026); /* ADP_Stopped_ApplicationExit */
    return 0;
}

void dt_reset(void)
{
    for (uint32_t *p = &_dt_bss_start; p < &_dt_bss_end; p++) *p = 0;
    main();
}

void dt_fault_report(const uint32_t *frame, uint32_t exc_return)
{
    pos = 0;
    puts_("FAULT prog=");
    hex(dt_current);
    puts_(" pc=");
    hex(frame[6]);
    puts_(" lr=");
    hex(frame[5]);
    puts_(" xpsr=");
    hex(frame[7]);
    puts_(" exc_return=");
    hex(exc_return);
    put('\n');
    flush();
    sys_exit(0x20023); /* ADP_Stopped_RunTimeErrorUnknown: non-zero exit */
}

__attribute__((naked)) void dt_hardfault(void)
{
    __asm__ volatile(
        "mov r1, lr\n"
        "movs r0, #4\n"
        "tst r0, r1\n"
        "bne 1f\n"
        "mrs r0, msp\n"
        "b 2f\n"
        "1: mrs r0, psp\n"
        "2: ldr r2, =dt_fault_report\n"
        "bx r2\n"
        ".ltorg\n");
}

/* SVC, HardFault, PendSV and IRQs while a program runs: make the exception visible in the program's
   final state, then return to it.
     HardFault: the faulting instruction (always 16-bit) is skipped: stacked PC += 2;
     stacked r1 = stacked xPSR (flags, T, the stack-alignment bit 9), then the stacked
     xPSR gets T set (an INVSTATE fault stacks T = 0);
     stacked r2 = EXC_RETURN; stacked r3 = IPSR; stacked r0 ^= the (new) return address.
   It returns with BX LR or, when bit 1 of the return address is set and the frame is on
   MSP, PUSH {LR}; POP {PC}.
   The frame itself stays in the program's stack area, which the runtime compares too
   (the handler runs on MSP, which is the program's stack). */
__attribute__((naked)) void dt_exc_handler(void)
{
    __asm__ volatile(
        ".syntax unified\n"
        "ldr r0, =dt_expect_exc\n"
        "ldr r0, [r0]\n"
        "cmp r0, #0\n"
        "beq 9f\n"
#ifdef __ARM_FP
        /* --arch v7em: an FP instruction in the handler completes the lazy save of the
           program's S0-S15 and FPSCR into the frame, which the return restores */
        "vmov.f32 s0, #1.0\n"
#endif
#ifdef DT_CLOBBER_GE
        /* Cortex-M4 (--arch v7em): clear APSR.GE, which the exception return must restore
           from the stacked xPSR (MSR APSR_g, r1, as a raw encoding) */
        "movs r1, #0\n"
        ".inst.w 0xf3818400\n"
#endif
        "mrs r0, msp\n"
        "mov r2, lr\n"
        "movs r1, #4\n"
        "tst r2, r1\n"
        "beq 3f\n"
        "mrs r0, psp\n" /* EXC_RETURN bit 2: the frame is on the process stack */
        "3: mrs r3, ipsr\n"
        "cmp r3, #3\n"
        "bne 1f\n"
        "ldr r1, [r0, #24]\n"
        "adds r1, #2\n"
        "str r1, [r0, #24]\n"
        "1: ldr r1, [r0, #28]\n"
        "str r1, [r0, #4]\n"
        "movs r2, #1\n"
        "lsls r2, r2, #24\n"
        "orrs r1, r2\n"
        "str r1, [r0, #28]\n" /* return in Thumb state after an INVSTATE fault */
        "mov r2, lr\n"
        "str r2, [r0, #8]\n"
        "str r3, [r0, #12]\n"
        "ldr r1, [r0, #24]\n"
        "ldr r2, [r0, #0]\n"
        "eors r2, r1\n"
        "str r2, [r0, #0]\n"
        /* return with BX LR, or (return address bit 1 set, frame on MSP) with
           PUSH {LR}; POP {PC}: on the process stack the thread's PSP and the handler's MSP
           may be close enough for the push to hit the frame */
        "movs r2, #2\n"
        "tst r1, r2\n"
        "beq 4f\n"
        "mov r2, lr\n"
        "movs r1, #4\n"
        "tst r2, r1\n"
        "beq 2f\n"
        "4: bx lr\n"
        "2: push {lr}\n"
        "pop {pc}\n"
        "9: ldr r0, =dt_hardfault\n"
        "bx r0\n"
        ".ltorg\n"
        ".syntax divided\n");
}

__attribute__((naked)) void dt_other_exception(void)
{
    __asm__ volatile("mov r1, lr\n mrs r0, msp\n ldr r2, =dt_fault_report\n bx r2\n .ltorg\n");
}

extern char _dt_stack_top[];

#define X16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
__attribute__((section(".vectors"), used)) void *const dt_vectors[48] = {
    _dt_stack_top,
    (void *)dt_reset,
    (void *)dt_other_exception, /* NMI */
    (void *)dt_exc_handler, /* HardFault */
    0, 0, 0, 0, 0, 0, 0,
    (void *)dt_exc_handler, /* SVC */
    0, 0,
    (void *)dt_exc_handler, /* PendSV */
    (void *)dt_other_exception, /* SysTick */
    X16((void *)dt_exc_handler), X16((void *)dt_exc_handler), /* IRQ 0..31 */
};

/* A kilobyte of defined bytes after the last program, see link.ld. */
__attribute__((section(".dt_pad"), used)) const uint32_t dt_pad[256] = {
    0x0badc0de, 0x12345678, 0x9abcdef0, 0xfedcba98, 0x76543210, 0xdeadbeef, 0x00000000, 0xffffffff};
