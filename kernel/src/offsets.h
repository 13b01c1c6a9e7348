/*
 * Offsets of the kernel structures used by the port's assembly. Plain #defines so that both
 * C and assembly can include it; sched.c checks them against offsetof at compile time.
 */
#ifndef RTOSLAB_OFFSETS_H
#define RTOSLAB_OFFSETS_H

#include "rtoslab/config.h"

/* struct k_thread */
#define ZT_SP 0
#define ZT_NEXT 4
#if K_CONFIG_STACK_CHECK
#define ZT_LIM 8
#define ZT_AFTER_LIM 12
#else
#define ZT_AFTER_LIM 8 /* (no z_lim without the stack check) */
#endif
#if Z_HAS_WAIT_OBJ
#define ZT_WAIT ZT_AFTER_LIM
#define ZT_TNEXT (ZT_AFTER_LIM + 4)
#else
#define ZT_TNEXT ZT_AFTER_LIM
#endif
#define ZT_WAKE (ZT_TNEXT + 4)
#define ZT_PRIO (ZT_TNEXT + 8)
#define ZT_STATE (ZT_TNEXT + 9)
#define ZT_BASE (ZT_TNEXT + 10)

/* struct z_kernel */
#define ZK_CURRENT 0
#if K_CONFIG_READY_LIST
#define ZK_READY 4 /* the head of the ready list (no bitmap) */
#define ZK_CONTENDED 12
#else
#define ZK_BITMAP 4
#if K_CONFIG_PRIO_LEVELS > 8
#define ZK_SAVED 7 /* pendsv_saved, after the bitmap and `started` */
#else
#define ZK_SAVED 6
#endif
#define ZK_READY 8
#define ZK_CONTENDED (ZK_READY + 4 * K_CONFIG_PRIO_LEVELS + 4)
#endif

/* struct k_sem */
#define ZS_WAITQ 0
#define ZS_COUNT 4
#define ZS_TYPE 6
/* struct k_mutex */
#define ZM_WAITQ 0
#define ZM_OWNER 4
#define ZM_CNEXT 8
#define ZM_TYPE 12

/* struct k_queue */
#define ZQ_WAITQ 0
#define ZQ_SWAITQ 4
#define ZQ_BUF 8
#define ZQ_COUNT 12
#define ZQ_TYPE 14
#define ZQ_ITEM 16
#define ZQ_CAP 18
#define ZQ_HEAD 20
#define ZQ_DELIVERED 1 /* the wake-up result of a receiver handed its item (queue.c) */

/* struct k_mempool */
#define ZP_FREE 0
#define ZP_BUF 4
#define ZP_USED 8
#define ZP_BLOCK 12
#define ZP_COUNT 16
#define ZP_SHIFT 18
#define ZP_TYPE 19

/* thread states (kernel_internal.h) and object types (kernel.h) */
#define ZS_READY 0xA1
#define ZS_BLOCKED 0xA2
#define ZS_BLOCKED_MUTEX 0xA3
#define ZS_SUSPENDED 0xA4
#define ZO_SEM 0xA5
#define ZO_MUTEX 0xA6
#define ZO_QUEUE 0xA7
#define ZO_MEMPOOL 0xA9

#endif
