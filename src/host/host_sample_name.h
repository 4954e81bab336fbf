/* host_sample_name.h: which bundled sample host (samplehost.h) a host is,
 * for the wizard's welcome screen, which marks the sample in use. */
#ifndef GW_HOST_SAMPLE_NAME_H
#define GW_HOST_SAMPLE_NAME_H

#include "host.h"

/* The sample's name (its folder under data/hosts) when h was opened by
 * gw_host_open_sample, else NULL (also for h NULL). */
const char *gw_host_sample_name(const gw_host *h);

#endif
