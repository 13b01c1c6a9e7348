/* The suite's interrupt entries on ARMv7-M boards: the NVIC registers they use (ICPR) are
 * ARMv6-M's, so the entries are the same code. */
#include "vectors_armv6m.c"
