/* emit.c: being written */
#include "gw.h"
