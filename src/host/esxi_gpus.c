/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_gpus.c: the GPUs of a saved or fetched `esxcli hardware pci list`
 * as the rows of hosttypes.h (their VRAM from the GPU table, the
 * passthrough state), which gpuwiz gpus prints (src/report/gpus_print.c). */
#include "esxi_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when the device is owned by VM Passthru now, or its block does not
 * say (no Current Owner line); 0 for another owner. */
static int
gpu_current_passthru(const gw_esxi_pci_dev *d)
{
	return d->current_owner == NULL ||
	       gw_strieq(d->current_owner, "VM Passthru");
}

void
gw_esxi_gpu_dev(const gw_table *t, const gw_esxi_pci_dev *d, gw_gpu_dev *g)
{
	gw_gpu_dev_init(g);
	g->bdf = gw_xstrdup(d->bdf);
	g->dom = d->domain;
	g->bus = d->bus;
	g->dev = d->slot;
	g->fn = d->function;
	g->vendor = d->vendor_id;
	g->device = d->device_id;
	g->subvendor = d->subvendor_id;
	g->subdevice = d->subdevice_id;
	g->subsys_known = gw_esxi_pci_field(d, "SubVendor ID") != NULL &&
	                  gw_esxi_pci_field(d, "SubDevice ID") != NULL;
	g->row = t ? gw_table_find_pci(t, d->vendor_id, d->device_id,
	                               d->subvendor_id, d->subdevice_id,
	                               &g->ambiguous)
	           : NULL;
	if (g->row)
		g->name = gw_xstrdup(g->row->name);
	else if (d->device_name && *d->device_name)
		g->name = gw_xstrdup(d->device_name);
	g->vram_gb = g->row ? g->row->vram_gb : -1;
	if (d->module_name && *d->module_name && strcmp(d->module_name, "None"))
		g->driver = gw_xstrdup(d->module_name);
	g->onboard = gw_is_onboard_display(d->vendor_id);
	g->passthru_capable = d->passthru_capable;
	g->passthru_enabled = gw_esxi_pci_passthru_enabled(d);
	g->passthru_active = gpu_current_passthru(d);
	if (d->configured_owner)
		g->configured_owner = gw_xstrdup(d->configured_owner);
	if (d->current_owner)
		g->current_owner = gw_xstrdup(d->current_owner);
}

/* The display devices of src, read line by line: only their blocks are
 * kept, so memory grows with the GPUs, not with the listing. */
static int
gpu_list_src(const gw_table *t, const esxi_src *src, const char *name,
             gw_gpu_list *out, gw_err *e)
{
	gw_esxi_pci_list pci;
	size_t i;

	if (esxi_parse_pci_src(src, name, gw_esxi_pci_keep_display, NULL, &pci,
	                       e) != 0)
		return -1;
	out->source = gw_xstrdup(name);
	out->gpus = gw_xcalloc(pci.n ? pci.n : 1, sizeof *out->gpus);
	for (i = 0; i < pci.n; i++)
		gw_esxi_gpu_dev(t, &pci.devs[i], &out->gpus[out->n++]);
	gw_esxi_pci_list_free(&pci);
	gw_gpu_list_sum(out);
	return 0;
}

int
gw_esxi_gpu_list_read(const gw_table *t, const char *text, const char *name,
                      gw_gpu_list *out, gw_err *e)
{
	esxi_src src = { .text = text };

	memset(out, 0, sizeof *out);
	if (text == NULL)
		src.text = text = "";
	if (name == NULL)
		name = CMD_PCI_LIST;
	if (strlen(text) > GW_ESXI_MAX_BYTES) {
		gw_err_set(e, _("%s: more than %u bytes; expected the output of "
		                "%s"), name, GW_ESXI_MAX_BYTES, CMD_PCI_LIST);
		return -1;
	}
	return gpu_list_src(t, &src, name, out, e);
}

int
gw_esxi_gpu_list_read_from(const gw_table *t, gw_esxi_produce *produce,
                           void *pctx, const char *name, gw_gpu_list *out,
                           gw_err *e)
{
	esxi_src src = { .produce = produce, .pctx = pctx };

	memset(out, 0, sizeof *out);
	return gpu_list_src(t, &src, name ? name : CMD_PCI_LIST, out, e);
}

int
gw_esxi_gpu_list_read_file(const gw_table *t, const char *path,
                           gw_gpu_list *out, gw_err *e)
{
	esxi_src src = { .path = path, .max = GW_ESXI_MAX_BYTES };
	int fd, rc;

	memset(out, 0, sizeof *out);
	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("--esxcli-file: no file given"));
		return -1;
	}
	if ((fd = gw_open_regular(path, e)) < 0)
		return -1;
	if ((src.f = fdopen(fd, "r")) == NULL) {
		gw_err_set(e, _("%s: cannot read: %s"), path, strerror(errno));
		close(fd);
		return -1;
	}
	rc = gpu_list_src(t, &src, path, out, e);
	fclose(src.f);
	return rc;
}
