/*
 * Thread-Metric's RTOS-neutral API (utility/benchmarks/thread_metric/tm_api.h) on ThreadX,
 * for the suite's 16 KiB boards. Written for this port: the ThreadX services it calls are
 * those of Thread-Metric's own ThreadX porting layer (threadx_example/
 * tm_porting_layer_threadx.c) - tx_thread_create with TX_DONT_START and the test's priority,
 * tx_thread_resume/suspend/relinquish/sleep, a queue of TX_4_ULONG (16-byte) messages,
 * a semaphore created at 1, a block pool of 128-byte blocks, every get/send/receive/allocate
 * with TX_NO_WAIT - but that file cannot be linked here unchanged: it reserves 10 stacks of
 * 2096 bytes (20 KiB, more than the board's RAM) and converts seconds to ticks with a fixed
 * 100 Hz, where the port's tick is TX_TIMER_TICKS_PER_SECOND (1 kHz). Here: 6 threads
 * (the tests use ids 0..5) of TM_STACK bytes, sleep in TX_TIMER_TICKS_PER_SECOND.
 */
#include "tx_api.h"
#include "tm_api.h"

#define TM_MAX_THREADS 6
#define TM_STACK 1024
#define TM_QUEUE_BYTES 200
#define TM_POOL_BYTES 2048

static TX_THREAD tm_threads[TM_MAX_THREADS];
static TX_QUEUE tm_queue;
static TX_SEMAPHORE tm_semaphore;
static TX_BLOCK_POOL tm_pool;
static ULONG tm_stacks[TM_MAX_THREADS][TM_STACK / sizeof(ULONG)];
static ULONG tm_queue_area[TM_QUEUE_BYTES / sizeof(ULONG)];
static ULONG tm_pool_area[TM_POOL_BYTES / sizeof(ULONG)];
static void (*tm_entries[TM_MAX_THREADS])(void);

static VOID tm_entry(ULONG id)
{
    tm_entries[id]();
}

void tm_initialize(void (*test_initialization_function)(void))
{
    test_initialization_function();
}

int tm_thread_create(int thread_id, int priority, void (*entry_function)(void))
{
    if (thread_id < 0 || thread_id >= TM_MAX_THREADS)
        return TM_ERROR;
    tm_entries[thread_id] = entry_function;
    return tx_thread_create(&tm_threads[thread_id], "Thread-Metric test", tm_entry, (ULONG)thread_id,
                            tm_stacks[thread_id], TM_STACK, (UINT)priority, (UINT)priority,
                            TX_NO_TIME_SLICE, TX_DONT_START) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_thread_resume(int thread_id)
{
    return tx_thread_resume(&tm_threads[thread_id]) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_thread_suspend(int thread_id)
{
    return tx_thread_suspend(&tm_threads[thread_id]) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

void tm_thread_relinquish(void)
{
    tx_thread_relinquish();
}

void tm_thread_sleep(int seconds)
{
    tx_thread_sleep((ULONG)seconds * TX_TIMER_TICKS_PER_SECOND);
}

int tm_queue_create(int queue_id)
{
    (void)queue_id;
    return tx_queue_create(&tm_queue, "Thread-Metric test", TX_4_ULONG, tm_queue_area, TM_QUEUE_BYTES) == TX_SUCCESS
               ? TM_SUCCESS : TM_ERROR;
}

int tm_queue_send(int queue_id, unsigned long *message_ptr)
{
    (void)queue_id;
    return tx_queue_send(&tm_queue, message_ptr, TX_NO_WAIT) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_queue_receive(int queue_id, unsigned long *message_ptr)
{
    (void)queue_id;
    return tx_queue_receive(&tm_queue, message_ptr, TX_NO_WAIT) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_semaphore_create(int semaphore_id)
{
    (void)semaphore_id;
    return tx_semaphore_create(&tm_semaphore, "Thread-Metric test", 1) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_semaphore_get(int semaphore_id)
{
    (void)semaphore_id;
    return tx_semaphore_get(&tm_semaphore, TX_NO_WAIT) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_semaphore_put(int semaphore_id)
{
    (void)semaphore_id;
    return tx_semaphore_put(&tm_semaphore) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_memory_pool_create(int pool_id)
{
    (void)pool_id;
    return tx_block_pool_create(&tm_pool, "Thread-Metric test", 128, tm_pool_area, TM_POOL_BYTES) == TX_SUCCESS
               ? TM_SUCCESS : TM_ERROR;
}

int tm_memory_pool_allocate(int pool_id, unsigned char **memory_ptr)
{
    (void)pool_id;
    return tx_block_allocate(&tm_pool, (VOID **)memory_ptr, TX_NO_WAIT) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}

int tm_memory_pool_deallocate(int pool_id, unsigned char *memory_ptr)
{
    (void)pool_id;
    return tx_block_release(memory_ptr) == TX_SUCCESS ? TM_SUCCESS : TM_ERROR;
}
