/* esxi_gpus.c: the GPUs of a saved or fetched `esxcli hardware pci list`,
 * their VRAM from the GPU table, the MMIO size and the notes that `gpuwiz
 * gpus` shows with them (src/report/esxi_report.c prints them). */
#include "esxi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
gw_esxi_gpu_current_passthru(const gw_esxi_pci_dev *d)
{
	return d->current_owner == NULL ||
	       gw_strieq(d->current_owner, "VM Passthru");
}

void
gw_esxi_gpus_free(gw_esxi_gpus *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->nnotes; i++)
		free(g->notes[i]);
	free(g->notes);
	free(g->gpus);
	free(g->name);
	gw_esxi_pci_list_free(&g->pci);
	memset(g, 0, sizeof *g);
}

static void
add_note(gw_esxi_gpus *g, char *s)
{
	g->notes = gw_xrealloc(g->notes, (g->nnotes + 1) * sizeof *g->notes);
	g->notes[g->nnotes++] = s;
}

/* The display-class devices and what the table knows of them. */
static void
find_gpus(gw_esxi_gpus *g, const gw_table *t)
{
	size_t i;

	for (i = 0; i < g->pci.n; i++) {
		const gw_esxi_pci_dev *d = &g->pci.devs[i];
		gw_esxi_gpu *r;

		if (!gw_esxi_pci_is_display(d))
			continue;
		g->gpus = gw_xrealloc(g->gpus, (g->n + 1) * sizeof *g->gpus);
		r = &g->gpus[g->n++];
		memset(r, 0, sizeof *r);
		r->dev = d;
		r->gpu = t ? gw_table_find_pci(t, d->vendor_id, d->device_id,
		                               d->subvendor_id, d->subdevice_id,
		                               &r->ambiguous)
		           : NULL;
		r->vram_gb = r->gpu ? r->gpu->vram_gb : -1;
		r->counted = !gw_is_onboard_display(d->vendor_id);
		r->name = r->gpu ? r->gpu->name
		        : d->device_name && *d->device_name ? d->device_name
		        : "";
	}
}

/* Why the VRAM of counted GPU r is unknown (id: "10de:26b9"). */
static void
vram_note(gw_esxi_gpus *g, const gw_esxi_gpu *r, const char *id)
{
	const gw_esxi_pci_dev *d = r->dev;

	if (r->vram_gb >= 0)
		return;
	if (r->ambiguous)
		add_note(g, gw_xasprintf(
		    _("%s (%s): several GPUs in the table share this PCI id and "
		      "its subsystem %04x:%04x does not pick one, so its VRAM is "
		      "unknown; size the VM with gpuwiz mmio --vram GB"),
		    d->bdf, id, d->subvendor_id, d->subdevice_id));
	else if (r->gpu)
		add_note(g, gw_xasprintf(
		    _("%s (%s, %s): its VRAM is unknown in the GPU table; size "
		      "the VM with gpuwiz mmio --vram GB"),
		    d->bdf, id, r->gpu->name));
	else
		add_note(g, gw_xasprintf(
		    _("%s (%s) is not in the GPU table, so its VRAM is unknown; "
		      "size the VM with gpuwiz mmio --vram GB"), d->bdf, id));
}

/* What stands between device d and a VM. */
static void
passthru_note(gw_esxi_gpus *g, const gw_esxi_pci_dev *d)
{
	int en = gw_esxi_pci_passthru_enabled(d);

	if (d->passthru_capable == 0)
		add_note(g, gw_xasprintf(
		    _("%s: ESXi says it cannot be passed through (Passthru "
		      "Capable: false); check that VT-d / AMD-Vi (IOMMU) is "
		      "enabled in the host's BIOS"), d->bdf));
	else if (en == 0)
		add_note(g, gw_xasprintf(
		    _("%s: passthrough is not enabled; enable it with: esxcli "
		      "hardware pci pcipassthru set -d %s -e true -a"),
		    d->bdf, d->bdf));
	else if (en == 1 && !gw_esxi_gpu_current_passthru(d))
		add_note(g, gw_xasprintf(
		    _("%s: passthrough is configured but the device is still "
		      "owned by %s; reboot the host to apply it"),
		    d->bdf, d->current_owner));
}

/* Notes, in device order. */
static void
gpu_notes(gw_esxi_gpus *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		const gw_esxi_gpu *r = &g->gpus[i];
		const gw_esxi_pci_dev *d = r->dev;
		char id[16];

		snprintf(id, sizeof id, "%04x:%04x", d->vendor_id, d->device_id);
		if (!r->counted) {
			add_note(g, gw_xasprintf(
			    _("%s (%s) is an on-board management or virtual "
			      "display, not counted in the MMIO size"),
			    d->bdf, id));
			continue;
		}
		vram_note(g, r, id);
		passthru_note(g, d);
	}
}

/* The MMIO size for all counted GPUs in one VM, when each one's VRAM is
 * known. */
static void
gpus_mmio(gw_esxi_gpus *g, const gw_table *t)
{
	gw_answers a;
	gw_plan p;
	gw_err pe;
	size_t i, ncounted = 0;

	for (i = 0; i < g->n; i++) {
		if (!g->gpus[i].counted)
			continue;
		if (g->gpus[i].vram_gb < 0)
			return;
		ncounted++;
	}
	if (ncounted == 0)
		return;
	gw_answers_init(&a);
	a.reserve = 0;   /* sizing only */
	a.gpus = gw_xcalloc(ncounted, sizeof *a.gpus);
	for (i = 0; i < g->n; i++) {
		gw_gpu_want *w;

		if (!g->gpus[i].counted)
			continue;
		w = &a.gpus[a.ngpus++];
		w->gpu = g->gpus[i].gpu;
		w->vram_gb = g->gpus[i].vram_gb;
		w->count = 1;
		w->spec = gw_xstrdup(g->gpus[i].dev->bdf);
	}
	if (gw_plan_build(&a, t, NULL, &p, &pe) == 0) {
		g->mmio_gb = p.mmio_gb;
		g->mmio_known = 1;
	} else {
		add_note(g, gw_xasprintf(_("no MMIO size: %s"), pe.msg));
	}
	gw_plan_free(&p);
	gw_answers_free(&a);
}

int
gw_esxi_gpus_read(const gw_table *t, const char *text, const char *name,
                  gw_esxi_gpus *out, gw_err *e)
{
	memset(out, 0, sizeof *out);
	if (text == NULL)
		text = "";
	if (name == NULL)
		name = CMD_PCI_LIST;
	if (strlen(text) > GW_ESXI_MAX_BYTES) {
		gw_err_set(e, _("%s: more than %u bytes; expected the output of "
		                "%s"), name, GW_ESXI_MAX_BYTES, CMD_PCI_LIST);
		return -1;
	}
	if (gw_esxi_parse_pci_list(text, name, &out->pci, e) != 0)
		return -1;
	out->name = gw_xstrdup(name);
	find_gpus(out, t);
	gpu_notes(out);
	gpus_mmio(out, t);
	return 0;
}

int
gw_esxi_gpus_read_file(const gw_table *t, const char *path,
                       gw_esxi_gpus *out, gw_err *e)
{
	char *data = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("--esxcli-file: no file given"));
		return -1;
	}
	if (gw_read_file(path, GW_ESXI_MAX_BYTES, &data, &len, e) != 0)
		return -1;
	if (memchr(data, '\0', len) != NULL) {
		gw_err_set(e, _("%s: binary data (NUL byte); expected the text "
		                "output of %s"), path, CMD_PCI_LIST);
		free(data);
		return -1;
	}
	rc = gw_esxi_gpus_read(t, data, path, out, e);
	free(data);
	return rc;
}
