/*
 * The footprint application of the ChibiOS/NIL port: the same job as
 * kernel/examples/minimal.c (two threads, a semaphore and a delay: the producer sleeps
 * 100 us and signals, the consumer counts 10 rounds and exits), written with NIL's calls,
 * threads in NIL's static table. Its map file gives NIL's flash and RAM.
 */
#include "ch.h"

#include "board.h"
#include "nil_board.h"

static SEMAPHORE_DECL(go, 0);
static volatile unsigned rounds;

static THD_WORKING_AREA(wa_consumer, 256);
static THD_FUNCTION(consumer, arg)
{
    (void)arg;
    while (rounds < 10) {
        chSemWait(&go);
        rounds++;
    }
    board_puts("minimal: 10 rounds\n");
    board_exit(0);
}

static THD_WORKING_AREA(wa_producer, 256);
static THD_FUNCTION(producer, arg)
{
    (void)arg;
    for (;;) {
        chThdSleepMicroseconds(100);
        chSemSignal(&go);
    }
}

THD_TABLE_BEGIN
  THD_TABLE_THREAD(0, "consumer", wa_consumer, consumer, NULL)
  THD_TABLE_THREAD(1, "producer", wa_producer, producer, NULL)
THD_TABLE_END

static stkalign_t idle_stack[16];

static void nothing(void) {}

int main(void)
{
    rtb_nil_run(idle_stack, sizeof idle_stack, nothing);
}
