/* diagnose.c: being written */
#include "gw.h"
