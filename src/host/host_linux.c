/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_linux.c: the Linux back end of host.h: a root with /proc and /sys
 * (this host, --sysroot, or a Linux sample's scratch copy), read by the
 * probes of linux.h.  No VMs here: gpuwiz plans for KVM hosts offline. */
#include "host_int.h"

#include <stdlib.h>
#include <string.h>

static int
linux_probe(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	gw_gpu_dev *all = NULL;
	size_t nall = 0, i;
	gw_err e;

	e.msg[0] = '\0';
	if (gw_linux_checks(h->sysroot, &p->checks, &p->nchecks, &e) != 0) {
		p->checks_error = gw_xstrdup(e.msg);
		p->fails++;
	}
	for (i = 0; i < p->nchecks; i++)
		p->fails += p->checks[i].sev == GW_SEV_ERROR;

	e.msg[0] = '\0';
	if (gw_linux_gpus(t, h->sysroot, &all, &nall, &e) != 0) {
		p->gpus_error = gw_xstrdup(e.msg);
		gw_host_drop_bdfs(h);
		return p->fails;
	}
	/* keep the GPUs: not the BMC's or an emulated display */
	p->gpus = gw_xcalloc(nall ? nall : 1, sizeof *p->gpus);
	for (i = 0; i < nall; i++) {
		if (all[i].onboard)
			gw_host_gpu_drop(&all[i]);
		else
			p->gpus[p->ngpus++] = all[i];
	}
	free(all);
	gw_host_keep_bdfs(h, p->gpus, p->ngpus);
	return p->fails;
}

/* gpuwiz gpus: every display-class device under the root; a sample's
 * scratch copy is gone when the command ends, so its paths are said as
 * on that host (/sys/...). */
static int
linux_gpus(gw_host *h, const gw_table *t, gw_gpu_list *out, gw_err *e)
{
	char *root;

	if (gw_linux_gpus(t, h->sysroot, &out->gpus, &out->n, e) != 0)
		return -1;
	if (h->have_sample && !h->keep_scratch) {
		out->source = gw_xstrdup("/sys/bus/pci");
	} else {
		if ((root = gw_linux_root(h->sysroot, e)) == NULL)
			return -1;
		out->source = gw_xasprintf("%s/sys/bus/pci", root);
		free(root);
	}
	out->iommu_known = 1;
	gw_gpu_list_sum(out);
	return 0;
}

const gw_host_methods gw_host_linux_methods = {
	.name = "linux",
	.kind = GW_HOST_LINUX,
	.caps = HOST_CHECKS | HOST_GPUS | HOST_SYSROOT,
	.probe = linux_probe,
	.gpus = linux_gpus,
};

gw_host *
gw_host_open_linux(const char *sysroot)
{
	gw_host *h;

	h = gw_host_new(&gw_host_linux_methods, sysroot ? sysroot : "/");
	h->sysroot = sysroot ? gw_xstrdup(sysroot) : NULL;
	return h;
}
