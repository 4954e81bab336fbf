/* apply.c: being written */
#include "apply.h"
