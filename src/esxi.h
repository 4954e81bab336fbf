/* esxi.h: being written */
#ifndef GW_ESXI_H
#define GW_ESXI_H
#include "gw.h"
#endif
