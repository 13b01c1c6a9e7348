/* sched.h compiles on its own (kernel/tests/CMakeLists.txt: ktest_headers*). */
#include "sched.h"
