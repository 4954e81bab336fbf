/* mmio.c: being written */
#include "gw.h"
