/*
 * owntest-jobbed: Jobbed's own tests, unchanged, on qemu-raspi2b.
 *
 * Jobbed's tests (usr/test.c test_super; usr/tests/test.c test_entry, which ends by starting
 * qualitative_tests) report on the framebuffer: timings as numbers, the qualitative tests as
 * letters drawn in order by the threads involved (x advances for every letter). This file
 * replaces usr/main.c: it starts them, records what they draw (the linker wraps
 * draw_cletter and draw_string), prints it on the UART, and when qualitative_tests' last
 * thread (time_status, least urgent) runs, checks the sequences against the behaviour
 * seed 004 describes for each test, then exits through semihosting (status 0: all pass).
 */
#include <stdint.h>

#include "board.h"

#include <cpu.h>
#include <sys/schedule.h>

void test_super(void);
void test_entry(void);
void __real_draw_cletter(unsigned int lx, unsigned int ly, unsigned char letter, unsigned int c);
void __real_draw_string(unsigned int lx, unsigned int ly, char *s);
void __real_time_status(void);

static void out_u(uint32_t v)
{
    char b[11];
    int k = 0;
    do {
        b[k++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (k)
        board_putc(b[--k]);
}

/* Every non-blank draw_string of the tests (test_super's labels and its mean, standard
 * deviation and maximum in ns, measured with the 1 MHz system timer): printed. */
void __wrap_draw_string(unsigned int lx, unsigned int ly, char *s)
{
    int blank = 1;
    for (const char *p = s; *p; p++)
        if (*p != ' ')
            blank = 0;
    if (ly >= 11 && !blank) {
        board_puts("# jobbed screen (");
        out_u(lx);
        board_putc(',');
        out_u(ly);
        board_puts("): ");
        for (const char *p = s; *p; p++)
            if (*p != ' ')
                board_putc(*p);
        board_putc('\n');
    }
    __real_draw_string(lx, ly, s);
}

/* The qualitative tests' letters, in the order they are drawn, with the drawing thread's
 * colour. */
static char seq[160];
static uint32_t seq_col[160];
static unsigned nseq;
static char atest_result;
void __wrap_draw_cletter(unsigned int lx, unsigned int ly, unsigned char letter, unsigned int c)
{
    if (lx == 0 && ly == 11 && (letter == 'Y' || letter == 'N'))
        atest_result = (char)letter; /* test.S atest: 'Y' when the flags survived */
    else if (nseq < sizeof seq) {
        seq[nseq] = (char)letter;
        seq_col[nseq++] = c;
    }
    __real_draw_cletter(lx, ly, letter, c);
}

static unsigned pos_of(uint32_t c, char letter)
{
    for (unsigned i = 0; i < nseq; i++)
        if (seq_col[i] == c && seq[i] == letter)
            return i;
    return 1000;
}
static int streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static int failures;
static void verdict(const char *name, int ok, const char *what)
{
    board_puts(ok ? "# jobbed own test ok   " : "# jobbed own test FAIL ");
    board_puts(name);
    board_puts(": ");
    board_puts(what);
    board_putc('\n');
    if (!ok)
        failures++;
}

#define RED 0xFF0000u
#define GREEN 0x00FF00u
#define BLUE 0x0000FFu
#define YELLOW 0xAFAF00u
#define DGREEN 0xFF00u

/* qualitative_tests' last thread (priority 8): every other test thread has run. */
void __wrap_time_status(void)
{
    __real_time_status();
    board_puts("# jobbed qualitative letters: ");
    for (unsigned i = 0; i < nseq; i++)
        board_putc(seq[i] == ' ' ? '_' : seq[i]);
    board_putc('\n');
    /* atest (test.S): flags set, SVC yield to a more urgent thread, flags tested. */
    verdict("cpsr (atest)", atest_result == 'Y', atest_result == 'Y' ? "flags preserved across a switch" : "flags lost");
    /* priority inversion: T1 (3, red) holds the lock; T3 (2, green) starts T2 (1, blue),
     * which blocks on it; T1 inherits 1, unlocks, T2 runs to its end before T3 ends and
     * before T4 (3, yellow) starts. */
    unsigned bl = pos_of(BLUE, 'L'), bf = pos_of(BLUE, 'F'), gf = pos_of(GREEN, 'F'), ys = pos_of(YELLOW, 'S');
    verdict("priority inversion", bl < gf && bf < gf && gf < ys && ys < 1000,
            "the blocked high thread ran before the medium one finished");
    /* deadlock: the two threads lock two mutexes in opposite orders; both finish. */
    /* (deadlock_test2 is red like other tests' threads: count the letters only the deadlock
     * test draws, l and u: each thread took and released the second mutex) */
    unsigned dl = 0;
    for (unsigned i = 0; i < nseq; i++)
        if (seq[i] == 'l' || seq[i] == 'u')
            dl++;
    verdict("deadlock", dl == 4 && pos_of(DGREEN, 'F') < 1000, "both threads took both mutexes and finished");
    /* semaphore: T1 (6, red) waits on 0 and blocks; T2 (7, green) signals and T1 runs: three
     * V, then four P of which only the fourth blocks; T2's second V lets it finish. */
    const char *want = "_STSVPVVVTPTPTPTVPFF";
    char sem[40];
    unsigned k = 0, start = 0;
    for (unsigned i = 0; i < nseq; i++)
        if (seq[i] == ' ' && seq_col[i] == RED)
            start = i; /* semaphore_test1 starts with a blank */
    for (unsigned i = start; i < nseq && k + 1 < sizeof sem; i++)
        if (seq_col[i] == RED || seq_col[i] == DGREEN)
            sem[k++] = seq[i] == ' ' ? '_' : seq[i];
    sem[k] = 0;
    verdict("semaphore counting", streq(sem, want), sem);
    board_puts(failures ? "# jobbed own tests: FAILED\n" : "# jobbed own tests: all passed\n");
    board_exit(failures ? 1 : 0);
}

/* usr/main.c's role: Jobbed starts main() as a thread at priority 0 (its return value is
 * not used: the thread ends in Jobbed's cleanup). */
int main(void)
{
    board_init();
    board_puts("# owntest-jobbed: Jobbed's usr/test.c (test_super) and usr/tests/test.c (test_entry, qualitative_tests)\n");
    add_thread(test_super, 0, 4);
    add_thread(test_entry, 0, 5);
    return 0;
}
