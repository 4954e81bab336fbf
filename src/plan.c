/* plan.c: being written */
#include "gw.h"
