/* esxi_report.c: `gpuwiz gpus --esxcli-file FILE [--json]` and `gpuwiz
 * gpus` on an ESXi host: prints what gw_esxi_gpus_read() found (see
 * esxi.h for the JSON shape). */
#include "esxi_report.h"
#include "out.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

/* ---- text -------------------------------------------------------------- */

static const char *
passthru_text(const gw_esxi_pci_dev *d)
{
	int en = gw_esxi_pci_passthru_enabled(d);

	if (en == 1)
		return gw_esxi_gpu_current_passthru(d) ? _("enabled")
		                                       : _("enabled, reboot needed");
	if (d->passthru_capable == 0)
		return _("not capable");
	if (en == 0 && d->passthru_capable == 1)
		return _("capable, not enabled");
	return _("unknown");
}

/* Print rows of cells aligned by terminal cells, two blanks apart. */
static void
print_table(char **cells, size_t nrows, size_t ncols)
{
	int w[8] = { 0 };
	size_t r, c;

	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++) {
			int k = gw_text_cells(cells[r * ncols + c]);

			if (k > w[c])
				w[c] = k;
		}
	for (r = 0; r < nrows; r++) {
		fputs("  ", stdout);
		for (c = 0; c < ncols; c++) {
			const char *s = cells[r * ncols + c];

			fputs(s, stdout);
			if (c + 1 < ncols)
				printf("%*s", w[c] - gw_text_cells(s) + 2, "");
		}
		fputc('\n', stdout);
	}
}

enum { NC = 6 };

/* The cells of the table of g's GPUs, header first (malloc'ed). */
static char **
gpu_cells(const gw_esxi_gpus *g)
{
	char **cells = gw_xcalloc((g->n + 1) * NC, sizeof *cells);
	size_t i;

	cells[0] = gw_xstrdup(_("Address"));
	cells[1] = gw_xstrdup(_("VMX id"));
	cells[2] = gw_xstrdup(_("PCI id"));
	cells[3] = gw_xstrdup(_("Name"));
	cells[4] = gw_xstrdup(_("VRAM"));
	cells[5] = gw_xstrdup(_("Passthrough"));
	for (i = 0; i < g->n; i++) {
		const gw_esxi_gpu *r = &g->gpus[i];
		char **c = &cells[(i + 1) * NC];

		c[0] = gw_xstrdup(r->dev->bdf);
		c[1] = gw_xstrdup(r->dev->vmx_id);
		c[2] = gw_xasprintf("%04x:%04x", r->dev->vendor_id,
		                    r->dev->device_id);
		/* esxcli's Device Name: escaped before the widths */
		c[3] = gw_str_escaped(*r->name ? r->name : "-");
		c[4] = r->vram_gb >= 0 ? gw_xasprintf(_("%d GB"), r->vram_gb)
		                       : gw_xstrdup(_("unknown"));
		c[5] = gw_xstrdup(passthru_text(r->dev));
	}
	return cells;
}

/* Print g to stdout as text (the table, the MMIO line and the notes). */
static void
gw_esxi_gpus_print_text(const gw_esxi_gpus *g)
{
	char **cells;
	size_t i;

	if (g->n == 0) {
		gw_fprintf_escaped(stdout, _("no display-class device in %s"),
		                   g->name);
		fputc('\n', stdout);
		return;
	}
	gw_fprintf_escaped(stdout, _("Display-class devices in %s:"), g->name);
	fputc('\n', stdout);
	cells = gpu_cells(g);
	print_table(cells, g->n + 1, NC);
	for (i = 0; i < (g->n + 1) * NC; i++)
		free(cells[i]);
	free(cells);
	if (g->mmio_known)
		printf(_("64-bit MMIO size for these GPUs in one VM: %llu GB"),
		       (unsigned long long)g->mmio_gb);
	else
		fputs(_("64-bit MMIO size: not computed (see the notes)"), stdout);
	fputc('\n', stdout);
	if (g->nnotes > 0) {
		printf("%s\n", _("Notes:"));
		for (i = 0; i < g->nnotes; i++)
			gw_fprintf_escaped(stdout, "  - %s\n", g->notes[i]);
	}
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *
hex_id(unsigned v)
{
	char b[8];

	snprintf(b, sizeof b, "0x%04x", v & 0xffffu);
	return json_string(b);
}

static json_t *
tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* A string, or null for NULL. */
static json_t *
text_or_null(const char *s)
{
	return s ? gw_json_text(s) : json_null();
}

static json_t *
gpu_json(const gw_esxi_gpu *r)
{
	const gw_esxi_pci_dev *d = r->dev;
	json_t *j = json_object();

	json_object_set_new(j, "bdf", json_string(d->bdf));
	json_object_set_new(j, "vmx_id", json_string(d->vmx_id));
	json_object_set_new(j, "vendor_id", hex_id(d->vendor_id));
	json_object_set_new(j, "device_id", hex_id(d->device_id));
	json_object_set_new(j, "subvendor_id",
	    gw_esxi_pci_field(d, "SubVendor ID") ? hex_id(d->subvendor_id)
	                                         : json_null());
	json_object_set_new(j, "subdevice_id",
	    gw_esxi_pci_field(d, "SubDevice ID") ? hex_id(d->subdevice_id)
	                                         : json_null());
	json_object_set_new(j, "name", gw_json_text(r->name));
	json_object_set_new(j, "table_id",
	                    r->gpu ? json_string(r->gpu->id) : json_null());
	json_object_set_new(j, "vram_gb", r->vram_gb >= 0
	                    ? json_integer(r->vram_gb) : json_null());
	json_object_set_new(j, "passthru_capable", tri(d->passthru_capable));
	json_object_set_new(j, "passthru_enabled",
	                    tri(gw_esxi_pci_passthru_enabled(d)));
	json_object_set_new(j, "configured_owner",
	                    text_or_null(d->configured_owner));
	json_object_set_new(j, "current_owner", text_or_null(d->current_owner));
	json_object_set_new(j, "counted_in_mmio", json_boolean(r->counted));
	return j;
}

/* Print g to stdout as JSON. */
static void
gw_esxi_gpus_print_json(const gw_esxi_gpus *g)
{
	json_t *o = json_object(), *arr = json_array(), *jn = json_array();
	size_t i;

	json_object_set_new(o, "file", gw_json_text(g->name));
	for (i = 0; i < g->n; i++)
		json_array_append_new(arr, gpu_json(&g->gpus[i]));
	json_object_set_new(o, "gpus", arr);
	json_object_set_new(o, "mmio_size_gb", g->mmio_known
	                    ? json_integer((json_int_t)g->mmio_gb) : json_null());
	for (i = 0; i < g->nnotes; i++)
		json_array_append_new(jn, gw_json_text(g->notes[i]));
	json_object_set_new(o, "notes", jn);
	gw_json_print(o);
	json_decref(o);
}

/* ---- the commands ------------------------------------------------------ */

static void
gpus_print(const gw_esxi_gpus *g, int json)
{
	if (json)
		gw_esxi_gpus_print_json(g);
	else
		gw_esxi_gpus_print_text(g);
	gw_out_flush();
}

int
gw_esxi_gpus_command(const gw_table *t, const char *path, int json,
                     gw_err *e)
{
	gw_esxi_gpus g;

	if (gw_esxi_gpus_read_file(t, path, &g, e) != 0)
		return 2;
	gpus_print(&g, json);
	gw_esxi_gpus_free(&g);
	return 0;
}

int
gw_esxi_gpus_text_command(const gw_table *t, const char *text,
                          const char *name, int json, gw_err *e)
{
	gw_esxi_gpus g;

	if (gw_esxi_gpus_read(t, text, name, &g, e) != 0)
		return 2;
	gpus_print(&g, json);
	gw_esxi_gpus_free(&g);
	return 0;
}

const char *
gw_power_name(gw_power p)
{
	switch (p) {
	/* TRANSLATORS: a VM's power state; at most 14 cells each. */
	case GW_POWER_ON: return _("powered on");
	case GW_POWER_OFF: return _("powered off");
	case GW_POWER_SUSPENDED: return _("suspended");
	default: return _("state unknown");
	}
}
