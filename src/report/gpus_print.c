/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpus_print.c: gpuwiz gpus's text and JSON (gpus_print.h) from a host's
 * GPU list, the same layout for every back end. */
#include "gpus_print.h"
#include "jsonutil.h"
#include "plan.h"          /* gw_bdf_vmx_id */
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text --------------------------------------------------------------- */

enum { NC = 9 };   /* the table's columns */

/* "64G", "32M", "16K", "128": bytes in the largest exact unit. */
static char *
size_text(uint64_t b)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (b >= 1024 && b % 1024 == 0 && u < 3) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		return gw_xasprintf("%llu", (unsigned long long)b);
	return gw_xasprintf("%llu%c", (unsigned long long)b, units[u]);
}

/* "0:32M 1:64G": the 64-bit BARs, "-" when none. */
static char *
bars_cell(const gw_gpu_dev *g)
{
	gw_buf b;
	char *cell;
	int k;

	gw_buf_init(&b);
	for (k = 0; k < g->nbars; k++) {
		char *s;

		if (!g->bars[k].is64)
			continue;
		s = size_text(g->bars[k].size);
		gw_buf_printf(&b, "%s%d:%s", b.len ? " " : "", g->bars[k].index,
		              s);
		free(s);
	}
	cell = b.len ? gw_buf_steal(&b) : gw_xstrdup("-");
	gw_buf_free(&b);
	return cell;
}

static const char *
passthru_text(const gw_gpu_dev *g)
{
	if (g->passthru_enabled == 1)
		return g->passthru_active != 0 ? _("enabled")
		                               : _("enabled, reboot needed");
	if (g->passthru_capable == 0)
		return _("not capable");
	if (g->passthru_enabled == 0 && g->passthru_capable == 1)
		return _("capable, not enabled");
	if (g->passthru_capable < 0 && g->passthru_enabled < 0)
		return "-";
	return _("unknown");
}

static char *
vmx_id(const gw_gpu_dev *g)
{
	char b[32];

	gw_bdf_vmx_id(g->dom, g->bus, g->dev, g->fn, b, sizeof b);
	return gw_xstrdup(b);
}

/* One GPU's cells; what the host said is escaped before the widths are
 * taken. */
static void
gpu_cells(const gw_gpu_dev *g, char **cl)
{
	cl[0] = gw_str_escaped(g->bdf);
	cl[1] = vmx_id(g);
	/* no id read and none from the table's name: nothing to show */
	cl[2] = g->ids_unread && g->row == NULL
	        ? gw_xstrdup("-")
	        : gw_xasprintf("%04x:%04x", g->vendor, g->device);
	cl[3] = gw_str_escaped(g->name && *g->name ? g->name : "-");
	cl[4] = g->vram_gb >= 0 ? gw_xasprintf(_("%d GB"), g->vram_gb)
	                        : gw_xstrdup(_("unknown"));
	cl[5] = bars_cell(g);
	cl[6] = gw_str_escaped(g->group ? g->group : "-");
	cl[7] = gw_str_escaped(g->driver ? g->driver : "-");
	cl[8] = gw_xstrdup(passthru_text(g));
}

/* The table: a header and a line per GPU, columns padded to the widest
 * cell (terminal cells). */
static void
render_table(gw_buf *out, const gw_gpu_list *l)
{
	char **cells = gw_xcalloc((l->n + 1) * NC, sizeof *cells);
	int w[NC] = { 0 };
	size_t i;
	int c, k;

	cells[0] = gw_xstrdup(_("Address"));
	cells[1] = gw_xstrdup(_("VMX id"));
	cells[2] = gw_xstrdup(_("PCI id"));
	cells[3] = gw_xstrdup(_("Name"));
	cells[4] = gw_xstrdup(_("VRAM"));
	cells[5] = gw_xstrdup(_("64-bit BARs"));
	cells[6] = gw_xstrdup(_("IOMMU group"));
	cells[7] = gw_xstrdup(_("Driver"));
	cells[8] = gw_xstrdup(_("Passthrough"));
	for (i = 0; i < l->n; i++)
		gpu_cells(&l->gpus[i], &cells[(i + 1) * NC]);
	for (i = 0; i < (l->n + 1) * NC; i++) {
		int n = gw_text_cells(cells[i]);

		c = (int)(i % NC);
		if (n > w[c])
			w[c] = n;
	}
	for (i = 0; i <= l->n; i++) {
		gw_buf_puts(out, "  ");
		for (c = 0; c < NC; c++) {
			const char *s = cells[i * NC + c];

			gw_buf_puts(out, s);
			if (c + 1 < NC)
				for (k = gw_text_cells(s); k < w[c] + 2; k++)
					gw_buf_puts(out, " ");
		}
		gw_buf_puts(out, "\n");
	}
	for (i = 0; i < (l->n + 1) * NC; i++)
		free(cells[i]);
	free(cells);
}

/* The MMIO line under the table. */
static void
render_mmio(gw_buf *out, const gw_gpu_list *l)
{
	const gw_mmio_need *m = &l->mmio;

	if (l->mmio_known && l->total_vram_gb == 0)
		gw_buf_printf(out, _("64-bit MMIO for all of them in one VM: %llu GB "
		                     "(VRAM unknown, sized from the BARs)"),
		              (unsigned long long)m->mmio_gb);
	else if (l->mmio_known && m->bar_gb == 0)
		gw_buf_printf(out, _("64-bit MMIO size for these GPUs in one VM: %llu GB"),
		              (unsigned long long)m->mmio_gb);
	else if (l->mmio_known)
		gw_buf_printf(out, _("64-bit MMIO for all of them in one VM: %llu GB "
		                     "(rule on the VRAM: %llu GB, BAR need: %llu GB)"),
		              (unsigned long long)m->mmio_gb,
		              (unsigned long long)m->rule_gb,
		              (unsigned long long)m->bar_gb);
	else if (l->nnotes > 0)
		gw_buf_puts(out, _("64-bit MMIO size: not computed (see the notes)"));
	else
		gw_buf_puts(out, _("64-bit MMIO: unknown (no VRAM or 64-bit BAR "
		                   "known)"));
	gw_buf_puts(out, "\n");
}

static void
gw_gpus_render(gw_buf *out, const gw_gpu_list *l)
{
	char *src = gw_str_escaped(l->source ? l->source : "");
	size_t i;

	if (out->data == NULL)
		gw_buf_init(out);
	if (l->n == 0) {
		gw_buf_printf(out, _("no display-class device in %s"), src);
		gw_buf_puts(out, "\n");
		free(src);
		return;
	}
	gw_buf_printf(out, _("Display-class devices in %s:"), src);
	gw_buf_puts(out, "\n");
	free(src);
	render_table(out, l);
	render_mmio(out, l);
	if (l->nnotes > 0) {
		gw_buf_printf(out, "%s\n", _("Notes:"));
		for (i = 0; i < l->nnotes; i++) {
			char *n = gw_str_escaped(l->notes[i]);

			gw_buf_printf(out, "  - %s\n", n);
			free(n);
		}
	}
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *
hex_id(unsigned v)
{
	char b[8];

	snprintf(b, sizeof b, "%04x", v & 0xffffu);
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
bars_json(const gw_gpu_dev *g)
{
	json_t *jb = json_array();
	int k;

	for (k = 0; k < g->nbars; k++) {
		const gw_gpu_bar *b = &g->bars[k];
		json_t *x = json_object();

		json_object_set_new(x, "index", json_integer(b->index));
		json_object_set_new(x, "size_bytes",
		                    json_integer((json_int_t)b->size));
		json_object_set_new(x, "is_64bit", json_boolean(b->is64));
		json_object_set_new(x, "prefetchable", json_boolean(b->pref));
		json_object_set_new(x, "io", json_boolean(b->io));
		json_array_append_new(jb, x);
	}
	return jb;
}

static json_t *
gpu_json(const gw_gpu_dev *g)
{
	json_t *j = json_object(), *jm = json_array();
	char *vid = vmx_id(g);
	size_t k;

	json_object_set_new(j, "bdf", gw_json_text(g->bdf));
	json_object_set_new(j, "vmx_id", json_string(vid));
	free(vid);
	json_object_set_new(j, "vendor_id", g->ids_unread && g->vendor == 0
	                    ? json_null() : hex_id(g->vendor));
	json_object_set_new(j, "device_id", g->ids_unread && g->row == NULL
	                    ? json_null() : hex_id(g->device));
	json_object_set_new(j, "subvendor_id", g->subsys_known
	                    ? hex_id(g->subvendor) : json_null());
	json_object_set_new(j, "subdevice_id", g->subsys_known
	                    ? hex_id(g->subdevice) : json_null());
	json_object_set_new(j, "name", text_or_null(g->name));
	json_object_set_new(j, "table_id",
	                    g->row ? json_string(g->row->id) : json_null());
	json_object_set_new(j, "vram_gb", g->vram_gb >= 0
	                    ? json_integer(g->vram_gb) : json_null());
	json_object_set_new(j, "bars", bars_json(g));
	json_object_set_new(j, "iommu_group", text_or_null(g->group));
	for (k = 0; k < g->nmates; k++)
		json_array_append_new(jm, gw_json_text(g->mates[k]));
	json_object_set_new(j, "iommu_group_devices", jm);
	json_object_set_new(j, "driver", text_or_null(g->driver));
	json_object_set_new(j, "passthru_capable", tri(g->passthru_capable));
	json_object_set_new(j, "passthru_enabled", tri(g->passthru_enabled));
	json_object_set_new(j, "configured_owner",
	                    text_or_null(g->configured_owner));
	json_object_set_new(j, "current_owner", text_or_null(g->current_owner));
	json_object_set_new(j, "counted_in_mmio", json_boolean(!g->onboard));
	return j;
}

static json_t *
gw_gpus_json(const gw_gpu_list *l)
{
	json_t *o = json_object(), *arr = json_array(), *jn = json_array();
	size_t i;

	json_object_set_new(o, "file", text_or_null(l->source));
	for (i = 0; i < l->n; i++)
		json_array_append_new(arr, gpu_json(&l->gpus[i]));
	json_object_set_new(o, "gpus", arr);
	json_object_set_new(o, "mmio_size_gb", l->mmio_known
	                    ? json_integer((json_int_t)l->mmio.mmio_gb)
	                    : json_null());
	for (i = 0; i < l->nnotes; i++)
		json_array_append_new(jn, gw_json_text(l->notes[i]));
	json_object_set_new(o, "notes", jn);
	return o;
}

void
gw_gpus_output(gw_buf *out, const gw_gpu_list *l, int json)
{
	json_t *j;
	char *txt;

	if (!json) {
		gw_gpus_render(out, l);
		return;
	}
	j = gw_gpus_json(l);
	txt = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (out->data == NULL)
		gw_buf_init(out);
	gw_buf_puts(out, txt ? txt : "");
	gw_buf_puts(out, "\n");
	free(txt);
	json_decref(j);
}
