/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_sample_int.h: what host_sample.c and host_sample_say.c share. */
#ifndef GW_HOST_SAMPLE_INT_H
#define GW_HOST_SAMPLE_INT_H

#include "host_int.h"

/* A sample host whose scratch copy goes when it closes: its probe rows,
 * errors and written paths name the sample's own paths, not the copy's
 * (host_sample_say.c). */
void gw_host_sample_say(gw_host *h);

#endif
