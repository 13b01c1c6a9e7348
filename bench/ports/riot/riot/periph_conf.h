/*
 * periph_conf.h - the board's peripheral configuration for RIOT: one timer device
 * (TIMER_DEV(0)) with one channel, the board's cycle counter and compare alarm. Written for
 * this port.
 */
#ifndef RTB_RIOT_PERIPH_CONF_H
#define RTB_RIOT_PERIPH_CONF_H

#define TIMER_NUMOF (1U)
#define TIMER_CHANNEL_NUMOF (1U)

#endif
