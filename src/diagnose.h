/* diagnose.h: being written */
#ifndef GW_DIAGNOSE_H
#define GW_DIAGNOSE_H
#include "gw.h"
#endif
