/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_sample.c: a bundled sample host (samplehost.h), opened as the
 * Linux back end over its scratch root or the ESXi back end over its
 * stand-ins.  The sample itself is never modified; the scratch copy goes
 * with the host unless kept (the wizard keeps it: it holds what was
 * written, and the screens show its path). */
#include "host_sample_int.h"

#include <stdlib.h>
#include <string.h>

int
gw_host_open_sample(const char *name, int keep_scratch, gw_host **out,
                    gw_err *e)
{
	gw_sample smp;
	gw_runner *r;
	gw_host *h;
	char *label;

	*out = NULL;
	if (gw_sample_open(name, &smp, e) != 0)
		return -1;
	label = gw_sample_label(&smp);
	r = gw_sample_runner(&smp);
	if (r != NULL) {
		h = gw_host_open_esxi(r, label);
	} else {
		h = gw_host_open_linux(smp.sysroot);
		free(h->label);
		h->label = gw_xstrdup(label);
	}
	free(label);
	h->smp = smp;
	h->have_sample = 1;
	h->keep_scratch = keep_scratch;
	if (!keep_scratch)   /* gone at exit: say the sample's own paths */
		gw_host_sample_say(h);
	*out = h;
	return 0;
}

const char *
gw_host_sample_name(const gw_host *h)
{
	return h != NULL && h->have_sample ? h->smp.name : NULL;
}

void
gw_host_relabel(gw_host *h)
{
	if (h == NULL || !h->have_sample)
		return;
	free(h->label);
	h->label = gw_sample_label(&h->smp);
}
