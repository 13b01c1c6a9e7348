/* kernel_internal.h compiles on its own (kernel/tests/CMakeLists.txt: ktest_headers*). */
#include "kernel_internal.h"
