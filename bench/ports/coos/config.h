/* config.h - what CoOS's test suite (Test/suite1/src, which includes <config.h> first)
 * expects from the application: TRUE/FALSE and NULL. Written for this port. */
#ifndef COOS_TEST_CONFIG_H
#define COOS_TEST_CONFIG_H
#include <stddef.h>
#ifndef TRUE
#define TRUE (1)
#endif
#ifndef FALSE
#define FALSE (0)
#endif
#endif
