/* esxi.c: being written */
#include "gw.h"
