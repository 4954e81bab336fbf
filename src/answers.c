/* answers.c: being written */
#include "gw.h"
