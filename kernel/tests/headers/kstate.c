/* kstate.h compiles on its own (kernel/tests/CMakeLists.txt: ktest_headers*). */
#include "kstate.h"
