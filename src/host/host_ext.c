/* host_ext.c: host_ext.h, over the back ends' shared state (host_int.h). */
#include "host_int.h"
#include "host_ext.h"

#include <stdlib.h>

int
gw_host_pci_listing(gw_host *h, char **text, gw_err *e)
{
	static const char *const argv[] = { "esxcli", "hardware", "pci", "list",
	                                    NULL };

	*text = NULL;
	if (h->m->kind != GW_HOST_ESXI || h->runner == NULL) {
		/* TRANSLATORS: %s names the kind of host (linux, esxi, vsphere). */
		gw_err_set(e, _("this host (%s) cannot do that"), h->m->name);
		return -1;
	}
	return gw_runner_run_ok(h->runner, argv, text, e);
}

void
gw_host_hand_over(gw_host *h, gw_runner **r, gw_vs **vs)
{
	*r = NULL;
	*vs = NULL;
	if (h == NULL)
		return;
	*r = h->runner;
	*vs = h->vs;
	h->runner = NULL;
	h->vs = NULL;
	gw_host_close(h);
}

void
gw_host_set_batch(gw_host *h, int on)
{
	h->batch = on;
}
