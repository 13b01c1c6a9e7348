/*
 * The exception-return value of CoOS's Cortex-M0 context switch.
 *
 * CoOS's portable/GCC/port.c ends PendSV_Handler (CFG_CHIP_TYPE 2) with
 *     LDR R3,=INT_EXIT ; LDR R0,[R3] ; BX R0
 * where its variable INT_EXIT is 0xFFFFFFFC. That EXC_RETURN has bit 0 clear: a reserved
 * value in ARMv6-M (ARMv6-M ARM B1.5.8: only 0xFFFFFFF1/F9/FD are defined; anything else is
 * UNPREDICTABLE). The cycle-exact simulator and QEMU both fault on it. The port compiles
 * port.c with -DINT_EXIT=coos_port_c_INT_EXIT (upstream's variable is renamed, its source is
 * untouched) and defines the symbol that the assembly loads here, with the architectural
 * value for "return to Thread mode, process stack": 0xFFFFFFFD. Same instructions, same
 * cycles; see README.md.
 */
#include "coocox.h"

U32 INT_EXIT = 0xFFFFFFFDu;
