/* ktime.h compiles on its own (kernel/tests/CMakeLists.txt: ktest_headers*). */
#include "ktime.h"
