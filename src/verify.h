/* verify.h: being written */
#ifndef GW_VERIFY_H
#define GW_VERIFY_H
#include "gw.h"
#endif
