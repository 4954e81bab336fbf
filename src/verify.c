/* verify.c: being written */
#include "gw.h"
