/* linux_report.c: the output of gpuwiz check and gpuwiz gpus
 * (linux_report.h) from the rows and devices of the Linux probes.
 */
#include "linux_report.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

static json_t *
hex_id(unsigned v)
{
	char b[8];

	snprintf(b, sizeof b, "%04x", v & 0xffffu);
	return json_string(b);
}

/* ---- gpuwiz gpus ------------------------------------------------------ */

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

/* One table line: cells padded to widths (terminal cells). */
static void
print_row(char **c, const int *w, int nc)
{
	int i, k;

	for (i = 0; i < nc; i++) {
		fputs(c[i], stdout);
		if (i + 1 < nc)
			for (k = gw_text_cells(c[i]); k < w[i] + 2; k++)
				fputc(' ', stdout);
	}
	fputc('\n', stdout);
}

static json_t *
gpu_json(const gw_gpu_dev *g)
{
	json_t *j = json_object(), *jb = json_array(), *jm = json_array();
	size_t k;

	json_object_set_new(j, "bdf", json_string(g->bdf));
	json_object_set_new(j, "vendor_id", hex_id(g->vendor));
	json_object_set_new(j, "device_id", hex_id(g->device));
	json_object_set_new(j, "subvendor_id", hex_id(g->subvendor));
	json_object_set_new(j, "subdevice_id", hex_id(g->subdevice));
	json_object_set_new(j, "name", g->name ? gw_json_text(g->name)
	                                       : json_null());
	json_object_set_new(j, "vram_gb", g->vram_gb >= 0
	                    ? json_integer(g->vram_gb) : json_null());
	for (k = 0; k < (size_t)g->nbars; k++) {
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
	json_object_set_new(j, "bars", jb);
	json_object_set_new(j, "iommu_group", g->group
	                    ? gw_json_text(g->group) : json_null());
	for (k = 0; k < g->nmates; k++)
		json_array_append_new(jm, gw_json_text(g->mates[k]));
	json_object_set_new(j, "iommu_group_devices", jm);
	json_object_set_new(j, "driver", g->driver
	                    ? gw_json_text(g->driver) : json_null());
	return j;
}

/* {"gpus": [...], "mmio_size_gb", "notes": [...]} */
static void
print_gpus_json(const gw_linux_gpus_report *r)
{
	json_t *o = json_object(), *arr = json_array(), *jn = json_array();
	size_t i;

	for (i = 0; i < r->n; i++)
		json_array_append_new(arr, gpu_json(&r->gpus[i]));
	json_object_set_new(o, "gpus", arr);
	json_object_set_new(o, "mmio_size_gb", r->mmio_known
	                    ? json_integer((json_int_t)r->mmio.mmio_gb)
	                    : json_null());
	for (i = 0; i < r->nnotes; i++)
		json_array_append_new(jn, gw_json_text(r->notes[i]));
	json_object_set_new(o, "notes", jn);
	gw_json_print(o);
	json_decref(o);
}

enum { NC = 7 };   /* the table's columns */

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

/* One GPU's cells. */
static void
gpu_cells(const gw_gpu_dev *g, char **cl)
{
	cl[0] = gw_xstrdup(g->bdf);
	cl[1] = gw_xasprintf("%04x:%04x", g->vendor, g->device);
	/* what the host said, escaped before the widths are taken */
	cl[2] = gw_str_escaped(g->name ? g->name : "-");
	cl[3] = g->vram_gb >= 0 ? gw_xasprintf(_("%d GB"), g->vram_gb)
	                        : gw_xstrdup(_("unknown"));
	cl[4] = bars_cell(g);
	cl[5] = gw_str_escaped(g->group ? g->group : "-");
	cl[6] = gw_str_escaped(g->driver ? g->driver : "-");
}

/* The table: a header and a line per GPU, columns padded to the widest
 * cell (terminal cells). */
static void
print_gpu_table(const gw_linux_gpus_report *r)
{
	char **cells = gw_xcalloc((r->n + 1) * NC, sizeof *cells);
	int w[NC] = { 0 };
	size_t i;
	int c;

	cells[0] = gw_xstrdup(_("Address"));
	cells[1] = gw_xstrdup(_("PCI id"));
	cells[2] = gw_xstrdup(_("Name"));
	cells[3] = gw_xstrdup(_("VRAM"));
	cells[4] = gw_xstrdup(_("64-bit BARs"));
	cells[5] = gw_xstrdup(_("IOMMU group"));
	cells[6] = gw_xstrdup(_("Driver"));
	for (i = 0; i < r->n; i++)
		gpu_cells(&r->gpus[i], &cells[(i + 1) * NC]);
	for (i = 0; i < (r->n + 1) * NC; i++) {
		int n = gw_text_cells(cells[i]);

		c = (int)(i % NC);
		if (n > w[c])
			w[c] = n;
	}
	for (i = 0; i <= r->n; i++)
		print_row(&cells[i * NC], w, NC);
	for (i = 0; i < (r->n + 1) * NC; i++)
		free(cells[i]);
	free(cells);
}

/* The MMIO line under the table. */
static void
print_mmio_line(const gw_linux_gpus_report *r)
{
	if (r->mmio_known && r->total_vram_gb == 0)
		printf(_("64-bit MMIO for all of them in one VM: %llu GB "
		         "(VRAM unknown, sized from the BARs)"),
		       (unsigned long long)r->mmio.mmio_gb);
	else if (r->mmio_known)
		printf(_("64-bit MMIO for all of them in one VM: %llu GB "
		         "(rule on the VRAM: %llu GB, BAR need: %llu GB)"),
		       (unsigned long long)r->mmio.mmio_gb,
		       (unsigned long long)r->mmio.rule_gb,
		       (unsigned long long)r->mmio.bar_gb);
	else
		fputs(_("64-bit MMIO: unknown (no VRAM or 64-bit BAR "
		        "known)"), stdout);
	fputc('\n', stdout);
}

static void
print_gpus_text(const gw_linux_gpus_report *r)
{
	size_t i;

	if (r->n == 0) {
		gw_fprintf_escaped(stdout, _("no display-class device in %s"),
		                   r->busdir);
		fputc('\n', stdout);
		return;
	}
	gw_fprintf_escaped(stdout, _("Display-class devices in %s:"),
	                   r->busdir);
	fputc('\n', stdout);
	print_gpu_table(r);
	print_mmio_line(r);
	for (i = 0; i < r->nnotes; i++)
		gw_fprintf_escaped(stdout, "%s\n", r->notes[i]);
}

/* gpuwiz gpus's output for r: the table (or "no display-class device")
 * with the MMIO line and the notes, or with json {"gpus", "mmio_size_gb",
 * "notes"}. */
static void
gw_linux_print_gpus(const gw_linux_gpus_report *r, int json)
{
	if (json)
		print_gpus_json(r);
	else
		print_gpus_text(r);
}

int
gw_linux_gpus_command(const gw_table *t, const char *sysroot,
                      const char *shown_root, int json, gw_err *e)
{
	gw_linux_gpus_report r;

	if (gw_linux_gpus_report_build(t, sysroot, &r, e) != 0)
		return 2;
	if (shown_root != NULL) {
		free(r.busdir);
		r.busdir = gw_xasprintf("%s/sys/bus/pci", shown_root);
	}
	gw_linux_print_gpus(&r, json);
	gw_linux_gpus_report_free(&r);
	return 0;
}
