/* gputable.c: being written */
#include "gw.h"
