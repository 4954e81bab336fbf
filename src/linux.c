/* linux.c: being written */
#include "linux.h"
