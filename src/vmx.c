/* vmx.c: being written */
#include "gw.h"
