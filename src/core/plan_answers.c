/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_answers.c: building the operator's answers (gw_answers_*): GPU
 * specs, sizes, host PCI addresses, the system id. */
#include "plan_int.h"
#include "mmio.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>


void
gw_answers_init(gw_answers *a)
{
	memset(a, 0, sizeof *a);
	a->reserve = 1;
}

static char *
dup_or_null(const char *s)
{
	return s ? gw_xstrdup(s) : NULL;
}

void
gw_answers_copy(gw_answers *o, const gw_answers *a)
{
	size_t i;

	gw_answers_init(o);
	o->gpus = gw_xcalloc(a->ngpus ? a->ngpus : 1, sizeof *o->gpus);
	for (i = 0; i < a->ngpus; i++) {
		o->gpus[i] = a->gpus[i];
		o->gpus[i].profile = dup_or_null(a->gpus[i].profile);
		o->gpus[i].spec = dup_or_null(a->gpus[i].spec);
	}
	o->ngpus = a->ngpus;
	o->bdfs = gw_xcalloc(a->nbdfs ? a->nbdfs : 1, sizeof *o->bdfs);
	for (i = 0; i < a->nbdfs; i++)
		o->bdfs[i] = gw_xstrdup(a->bdfs[i]);
	o->nbdfs = a->nbdfs;
	o->system_id = dup_or_null(a->system_id);
	o->uvm = a->uvm;
	o->p2p = a->p2p;
	o->code43 = a->code43;
	o->dynamic = a->dynamic;
	o->reserve = a->reserve;
	o->mmio_gb = a->mmio_gb;
	o->allow_below_rule = a->allow_below_rule;
	o->memory_mb = a->memory_mb;
	o->outputs_do = a->outputs_do;
	o->esxi_version = dup_or_null(a->esxi_version);
	o->name = dup_or_null(a->name);
	if (a->avail) {
		o->avail = gw_xcalloc(a->navail ? a->navail : 1,
		                      sizeof *o->avail);
		memcpy(o->avail, a->avail, a->navail * sizeof *o->avail);
	}
	o->navail = a->navail;
}

void
gw_answers_add_avail(gw_answers *a, unsigned vendor, unsigned device,
                     int free_pt)
{
	gw_gpu_avail *v = NULL;
	size_t i;

	for (i = 0; i < a->navail && v == NULL; i++)
		if (a->avail[i].vendor_id == vendor &&
		    a->avail[i].device_id == device)
			v = &a->avail[i];
	if (v == NULL) {
		a->avail = gw_xrealloc(a->avail,
		                       (a->navail + 1) * sizeof *a->avail);
		v = &a->avail[a->navail++];
		memset(v, 0, sizeof *v);
		v->vendor_id = vendor;
		v->device_id = device;
	}
	v->detected++;
	v->count += free_pt != 0;
}

void
gw_answers_clear_avail(gw_answers *a)
{
	free(a->avail);
	a->avail = NULL;
	a->navail = 0;
}

void
gw_answers_free(gw_answers *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ngpus; i++) {
		free(a->gpus[i].profile);
		free(a->gpus[i].spec);
	}
	free(a->gpus);
	gw_strs_free(a->bdfs, a->nbdfs);
	free(a->system_id);
	free(a->esxi_version);
	free(a->name);
	free(a->avail);
	gw_answers_init(a);
}

static gw_gpu_want *
want_push(gw_answers *a)
{
	gw_gpu_want *w;

	a->gpus = gw_xrealloc(a->gpus, (a->ngpus + 1) * sizeof *a->gpus);
	w = &a->gpus[a->ngpus++];
	memset(w, 0, sizeof *w);
	return w;
}

/* Split "ID[=COUNT]": *id gets a trimmed copy of ID, *count the count. */
static int
split_count(const char *spec, const char *field, char **id, int *count,
            gw_err *e)
{
	char *s = pl_trimmed_dup(spec), *eq, *cnt;
	unsigned long long n;

	*id = NULL;
	*count = 1;
	eq = strchr(s, '=');
	if (eq) {
		*eq = '\0';
		cnt = pl_trimmed_dup(eq + 1);
		if (gw_parse_uint(cnt, GW_MMIO_MAX_COUNT, &n) != 0 || n < 1) {
			gw_err_set(e, _("%s: count '%s' in '%s' is not a whole "
			                "number from 1 to %d"), field, cnt, spec,
			           GW_MMIO_MAX_COUNT);
			free(cnt);
			free(s);
			return -1;
		}
		free(cnt);
		*count = (int)n;
	}
	*id = pl_trimmed_dup(s);
	free(s);
	return 0;
}

int
gw_answers_add_gpu(gw_answers *a, const gw_table *t, const char *spec,
                   const char *field, gw_err *e)
{
	const gw_gpu *g;
	gw_gpu_want *w;
	gw_err le;
	char *id;
	int count;
	size_t i;

	if (field == NULL)
		field = "--gpu";
	if (split_count(spec ? spec : "", field, &id, &count, e) != 0)
		return -1;
	if (*id == '\0') {
		gw_err_set(e, _("%s: '%s' names no GPU (expected ID[=COUNT], "
		                "e.g. l40s=2)"), field, spec ? spec : "");
		free(id);
		return -1;
	}
	if (gw_is_vgpu_profile(id)) {
		for (i = 0; id[i]; i++) {
			unsigned char c = (unsigned char)id[i];

			if (!isalnum(c) && c != '_' && c != '-') {
				gw_err_set(e, _("%s: '%s' is not a vGPU profile "
				                "name (letters, digits, '_' and "
				                "'-', e.g. grid_l40s-48c)"),
				           field, id);
				free(id);
				return -1;
			}
			id[i] = (char)tolower(c);
		}
	}
	if (t == NULL) {
		gw_err_set(e, _("%s: no GPU table loaded to look up '%s'"),
		           field, id);
		free(id);
		return -1;
	}
	g = gw_table_lookup(t, id, &le);
	if (g == NULL) {
		gw_err_set(e, "%s: %s", field, le.msg);
		free(id);
		return -1;
	}
	if (gw_is_vgpu_profile(id) && gw_gpu_vgpu_check(g, id, &le) != 0) {
		gw_err_set(e, "%s: %s", field, le.msg);
		free(id);
		return -1;
	}
	if (g->vram_gb < 0) {
		gw_err_set(e, _("%s: the VRAM of '%s' (%s) is unknown in the GPU "
		                "table, so the MMIO size cannot be computed; give "
		                "the size with --vram GB"), field, id, g->name);
		free(id);
		return -1;
	}
	w = want_push(a);
	w->gpu = g;
	w->vram_gb = g->vram_gb;
	w->count = count;
	w->profile = gw_is_vgpu_profile(id) ? gw_xstrdup(id) : NULL;
	w->spec = pl_trimmed_dup(spec);
	free(id);
	return 0;
}

char *
gw_vram_spec(int vram_gb, uint64_t bar1_bytes, int count)
{
	char bar1[24];

	if (bar1_bytes == 0)
		return gw_xasprintf("%d=%d", vram_gb, count);
	gw_fmt_bar_size(bar1_bytes, bar1, sizeof bar1);
	return gw_xasprintf("%d/%s=%d", vram_gb, bar1, count);
}

int
gw_answers_add_vram(gw_answers *a, const char *spec, const char *field,
                    gw_err *e)
{
	gw_gpu_want *w;
	uint64_t gb, bar1 = 0;
	char *id, *slash;
	int count;

	if (field == NULL)
		field = "--vram";
	if (split_count(spec ? spec : "", field, &id, &count, e) != 0)
		return -1;
	/* "GB/BAR1": the BAR1 size, when the operator knows it */
	if ((slash = strchr(id, '/')) != NULL) {
		*slash = '\0';
		if (gw_parse_bar_size(slash + 1, field, &bar1, e) != 0) {
			free(id);
			return -1;
		}
	}
	if (gw_parse_gb(id, field, GW_MMIO_MAX_GPU_GB, &gb, e) != 0) {
		free(id);
		return -1;
	}
	free(id);
	w = want_push(a);
	w->gpu = NULL;
	w->vram_gb = (int)gb;
	w->count = count;
	w->profile = NULL;
	w->bar1_bytes = bar1;
	w->spec = pl_trimmed_dup(spec);
	return 0;
}

int
gw_answers_add_bdf(gw_answers *a, const char *bdf, const char *field,
                   gw_err *e)
{
	unsigned d, b, s, f, d2, b2, s2, f2;
	char *t = pl_trimmed_dup(bdf);
	size_t i;

	if (field == NULL)
		field = "--bdf";
	if (gw_bdf_parse(t, &d, &b, &s, &f) != 0) {
		if (pl_parse_vmx_id(t, &d, &b, &s, &f) == 0 && strlen(t) >= 12)
			gw_err_set(e, _("%s: '%s' looks like the .vmx decimal "
			                "form; give the host's hex PCI address "
			                "(e.g. 0000:42:00.0)"), field, t);
		else
			gw_err_set(e, _("%s: '%s' is not a PCI address (expected "
			                "hex 0000:42:00.0 or 42:00.0, as esxcli "
			                "hardware pci list or lspci shows it)"),
			           field, t);
		free(t);
		return -1;
	}
	free(t);
	for (i = 0; i < a->nbdfs; i++) {
		if (gw_bdf_parse(a->bdfs[i], &d2, &b2, &s2, &f2) == 0 &&
		    d == d2 && b == b2 && s == s2 && f == f2) {
			gw_err_set(e, _("%s: PCI address %04x:%02x:%02x.%x is "
			                "given twice"), field, d, b, s, f);
			return -1;
		}
	}
	a->bdfs = gw_xrealloc(a->bdfs, (a->nbdfs + 1) * sizeof *a->bdfs);
	a->bdfs[a->nbdfs++] = gw_xasprintf("%04x:%02x:%02x.%x", d, b, s, f);
	return 0;
}

int
gw_answers_set_system_id(gw_answers *a, const char *uuid, const char *field,
                         gw_err *e)
{
	char *t = pl_trimmed_dup(uuid);

	if (field == NULL)
		field = "--system-id";
	if (!gw_system_id_valid(t)) {
		gw_err_set(e, _("%s: '%s' is not a system id (expected "
		                "8-4-4-4-12 hex digits, the output of esxcli "
		                "system uuid get)"), field, t);
		free(t);
		return -1;
	}
	free(a->system_id);
	a->system_id = t;
	return 0;
}
