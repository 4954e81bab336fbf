/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner_guard.c: gw_esxi_session_passthru_guard(): never pass through
 * the storage adapter of a datastore or of the boot device (doc/design.md,
 * section 15.6). */
#include "runner_int.h"

#include <stdlib.h>
#include <string.h>

/* What the storage listings say about one adapter. */
typedef struct guard {
	const char *label;       /* the PCI device, for messages */
	const char *adapter;     /* "vmhba0" */
	gw_esxi_storage_path_list pl;
	gw_esxi_vmfs_extent_list xl;
	gw_esxi_storage_dev_list dl;
	gw_buf ds;               /* "\"vol1\", \"vol2\"": its datastores */
	size_t nds;
	int boot;                /* it reaches the boot device */
	char *unknown;           /* a device that does not say whether it is
	                          * the boot device */
} guard;

/* "LABEL is storage adapter A and gpuwiz cannot tell ...: WHY". */
static int
cannot_tell(const guard *g, const char *why, gw_err *e)
{
	gw_err_set(e, _("%s is storage adapter %s and gpuwiz cannot tell "
	                "whether it holds a datastore or the boot device, so it "
	                "is not passed through: %s"),
	           g->label, g->adapter, why);
	return -1;
}

/* Run one storage listing; the error says why the adapter cannot be
 * shown to be safe. */
static int
guard_list(gw_runner *r, const guard *g, const char *const argv[],
           char **out, gw_err *e)
{
	gw_err why;

	if (gw_runner_run_ok(r, argv, out, &why) != 0)
		return cannot_tell(g, why.msg, e);
	return 0;
}

/* Run and parse the three storage listings. */
static int
guard_read(gw_runner *r, guard *g, gw_err *e)
{
	const char *pargv[] = {"esxcli", "storage", "core", "path", "list",
	                       NULL};
	const char *xargv[] = {"esxcli", "storage", "vmfs", "extent", "list",
	                       NULL};
	const char *dargv[] = {"esxcli", "storage", "core", "device", "list",
	                       NULL};
	char *po = NULL, *xo = NULL, *dout = NULL;
	gw_err why;
	int rc = -1;

	if (guard_list(r, g, pargv, &po, e) != 0 ||
	    guard_list(r, g, xargv, &xo, e) != 0 ||
	    guard_list(r, g, dargv, &dout, e) != 0)
		goto done;
	if (gw_esxi_parse_storage_paths(po, "esxcli storage core path list",
	                                &g->pl, &why) != 0 ||
	    gw_esxi_parse_vmfs_extents(xo, "esxcli storage vmfs extent list",
	                               &g->xl, &why) != 0 ||
	    gw_esxi_parse_storage_devices(dout,
	                                  "esxcli storage core device list",
	                                  &g->dl, &why) != 0) {
		cannot_tell(g, why.msg, e);
		goto done;
	}
	rc = 0;
done:
	free(po);
	free(xo);
	free(dout);
	return rc;
}

/* Was the device of path i already seen on an earlier path of the
 * adapter? */
static int
seen_before(const guard *g, size_t i)
{
	const gw_esxi_storage_path *p = g->pl.paths;
	size_t k;

	for (k = 0; k < i; k++)
		if (strcmp(p[k].adapter, g->adapter) == 0 &&
		    strcmp(p[k].device, p[i].device) == 0)
			return 1;
	return 0;
}

/* Add the datastores with an extent on device d (by volume name, else
 * VMFS UUID, else the device), each once. */
static void
add_datastores(guard *g, const char *d)
{
	size_t j;

	for (j = 0; j < g->xl.n; j++) {
		const gw_esxi_vmfs_extent *x = &g->xl.extents[j];
		const char *vol = *x->volume_name ? x->volume_name
		                : x->vmfs_uuid ? x->vmfs_uuid : x->device_name;
		char *q;

		if (strcmp(x->device_name, d) != 0)
			continue;
		q = gw_xasprintf("\"%s\"", vol);
		if (g->ds.len == 0 || strstr(g->ds.data, q) == NULL) {
			gw_buf_printf(&g->ds, "%s%s", g->nds ? ", " : "", q);
			g->nds++;
		}
		free(q);
	}
}

/* Every device the adapter reaches: its datastores, and whether it is
 * (or may be) the boot device. */
static void
guard_scan(guard *g)
{
	size_t i;

	for (i = 0; i < g->pl.n; i++) {
		const char *d = g->pl.paths[i].device;
		const gw_esxi_storage_dev *sd;

		if (strcmp(g->pl.paths[i].adapter, g->adapter) != 0 ||
		    seen_before(g, i))
			continue;
		add_datastores(g, d);
		sd = gw_esxi_storage_dev_find(&g->dl, d);
		if (sd && sd->is_boot == 1)
			g->boot = 1;
		else if ((sd == NULL || sd->is_boot < 0) && g->unknown == NULL)
			g->unknown = gw_xstrdup(d);
	}
}

/* 0 when the adapter holds nothing ESXi needs, else -1 saying what. */
static int
guard_verdict(const guard *g, gw_err *e)
{
	if (g->boot && g->nds)
		/* TRANSLATORS: the last %s is the datastores' names, quoted
		 * and separated by ", "; the form follows how many names. */
		gw_err_set(e, P_("%s is storage adapter %s, which holds the "
		                 "boot device and the datastore %s: passing it "
		                 "through would take them away from ESXi; refused",
		                 "%s is storage adapter %s, which holds the "
		                 "boot device and the datastores %s: passing it "
		                 "through would take them away from ESXi; refused",
		                 g->nds),
		           g->label, g->adapter, g->ds.data);
	else if (g->nds)
		/* TRANSLATORS: as above, without the boot device. */
		gw_err_set(e, P_("%s is storage adapter %s, which holds the "
		                 "datastore %s: passing it through would take "
		                 "it away from ESXi; refused",
		                 "%s is storage adapter %s, which holds the "
		                 "datastores %s: passing it through would take "
		                 "them away from ESXi; refused", g->nds),
		           g->label, g->adapter, g->ds.data);
	else if (g->boot)
		gw_err_set(e, _("%s is storage adapter %s, which holds the boot "
		                "device: passing it through would take it away "
		                "from ESXi; refused"), g->label, g->adapter);
	else if (g->unknown)
		gw_err_set(e, _("%s is storage adapter %s, and this ESXi does not "
		                "say whether its device %s is the boot device (no "
		                "'Is Boot Device' in esxcli storage core device "
		                "list before ESXi 6.7), so it is not passed "
		                "through; if it is not, pass it through in the "
		                "Host Client"), g->label, g->adapter, g->unknown);
	else
		return 0;
	return -1;
}

int
gw_esxi_session_passthru_guard(gw_runner *r, const gw_esxi_pci_dev *dev,
                               gw_err *e)
{
	guard g;
	char *label;
	int rc = -1;

	if (dev == NULL) {
		gw_err_set(e, "%s", _("no PCI device given"));
		return -1;
	}
	if (dev->vmkernel_name == NULL ||
	    strncmp(dev->vmkernel_name, "vmhba", 5) != 0)
		return 0;
	memset(&g, 0, sizeof g);
	gw_buf_init(&g.ds);
	g.label = label = runner_dev_label(dev);
	g.adapter = dev->vmkernel_name;
	if (guard_read(r, &g, e) == 0) {
		guard_scan(&g);
		rc = guard_verdict(&g, e);
	}
	gw_esxi_storage_path_list_free(&g.pl);
	gw_esxi_vmfs_extent_list_free(&g.xl);
	gw_esxi_storage_dev_list_free(&g.dl);
	gw_buf_free(&g.ds);
	free(g.unknown);
	free(label);
	return rc;
}
