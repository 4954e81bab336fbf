/* host_sample_name.c: which bundled sample a host is (host_sample_name.h). */
#include "host_int.h"
#include "host_sample_name.h"

const char *
gw_host_sample_name(const gw_host *h)
{
	return h != NULL && h->have_sample ? h->smp.name : NULL;
}
