/* wizard.c: being written */
#include "wizard.h"
