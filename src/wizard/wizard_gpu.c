/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_gpu.c: the GPU step (wizard.h): search, vGPU profiles, the
 * chosen GPUs.
 *
 * vGPU C-series sizes: the GPU table's vgpu_types (NVIDIA AI Enterprise 6,
 * "Virtual GPU Types for Supported GPUs"; see gw_wizard_profiles).
 */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <strings.h>

/* ---- GPU step ------------------------------------------------------------- */

/* ASCII case-insensitive substring. */
static int
ci_contains(const char *hay, const char *needle, size_t nlen)
{
	size_t i, hlen;

	if (hay == NULL)
		return 0;
	hlen = strlen(hay);
	for (i = 0; i + nlen <= hlen; i++) {
		size_t k;

		for (k = 0; k < nlen; k++)
			if (tolower((unsigned char)hay[i + k]) !=
			    tolower((unsigned char)needle[k]))
				break;
		if (k == nlen)
			return 1;
	}
	return 0;
}

static int
gpu_matches(const gw_gpu *g, const char *query)
{
	const char *p = query ? query : "";
	char pci[16];

	snprintf(pci, sizeof pci, "%04x:%04x", g->vendor_id & 0xffffu,
	         g->device_id & 0xffffu);
	for (;;) {
		size_t len;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 1;
		for (len = 0; p[len] && !isspace((unsigned char)p[len]); len++)
			;
		if (!ci_contains(g->id, p, len) && !ci_contains(g->name, p, len) &&
		    !ci_contains(pci, p, len))
			return 0;
		p += len;
	}
}

size_t
gw_wizard_search(const gw_wizard *w, const char *query, unsigned vendor,
                 gw_gpu_class cls, const gw_gpu **out, size_t max)
{
	const gw_table *t = gw_wizard_table(w);
	size_t i, n = 0;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->n; i++) {
		const gw_gpu *g = &t->gpus[i];

		if (vendor && g->vendor_id != vendor)
			continue;
		if (cls != GW_CLASS_ANY && g->cls != cls)
			continue;
		if (!gpu_matches(g, query))
			continue;
		if (out && n < max)
			out[n] = g;
		n++;
	}
	return n;
}

char **
gw_wizard_profiles(const gw_gpu *g)
{
	wz_strv s = { NULL, 0 };
	gw_vgpu_type vt;
	size_t i, j;
	int best, last = 0;

	if (g == NULL || g->vgpu_prefix == NULL || g->vram_gb <= 0)
		return wz_strv_finish(&s);
	/* the table's time-sliced C-series sizes, largest first */
	for (j = 0; j < g->nvgpu_types; j++) {
		for (best = 0, i = 0; i < g->nvgpu_types; i++) {
			char *prof = gw_xasprintf("x-%s", g->vgpu_types[i]);

			if (gw_vgpu_type_parse(prof, &vt) == 0 &&
			    vt.series == 'c' && vt.slices == 0 &&
			    vt.size_gb > best &&
			    (last == 0 || vt.size_gb < last))
				best = vt.size_gb;
			free(prof);
		}
		if (best == 0)
			break;
		wz_strv_push(&s, gw_xasprintf("%s-%dc", g->vgpu_prefix, best));
		last = best;
	}
	if (s.n == 0)
		wz_strv_push(&s, gw_xasprintf("%s-%dc", g->vgpu_prefix,
		                              g->vram_gb));
	return wz_strv_finish(&s);
}

static void
want_set_spec(gw_gpu_want *g)
{
	free(g->spec);
	if (g->profile)
		g->spec = gw_xasprintf("%s=%d", g->profile, g->count);
	else if (g->gpu)
		g->spec = gw_xasprintf("%s=%d", g->gpu->id, g->count);
	else
		g->spec = gw_vram_spec(g->vram_gb, g->bar1_bytes, g->count);
}

static int
count_ok(const char *what, int count, gw_err *e)
{
	if (count >= 1 && count <= GW_MMIO_MAX_COUNT)
		return 0;
	gw_err_set(e, _("%s: count %d is not a whole number from 1 to %d"),
	           what, count, GW_MMIO_MAX_COUNT);
	return -1;
}

static void
want_pop(gw_answers *a)
{
	gw_gpu_want *g = &a->gpus[a->ngpus - 1];

	free(g->profile);
	free(g->spec);
	a->ngpus--;
}

/* Two profiles of g are the same vGPU type (grid_/nvidia_ spelling aside). */
static int
same_profile(const gw_gpu *g, const char *a, const char *b)
{
	char *ca = gw_gpu_vgpu_profile(g, a), *cb = gw_gpu_vgpu_profile(g, b);
	int same;

	if (ca && cb)
		same = strcmp(ca, cb) == 0;
	else
		same = gw_strieq(a, b);
	free(ca);
	free(cb);
	return same;
}

int
gw_wizard_add_gpu(gw_wizard *w, const gw_gpu *g, const char *profile,
                  int count, gw_err *e)
{
	gw_answers *a = &w->af.a;
	char *spec, *canon = NULL;
	size_t i;
	gw_err le;

	if (profile && *profile == '\0')
		profile = NULL;
	if (g == NULL) {
		gw_err_set(e, "%s", _("GPU selection: no GPU given"));
		return -1;
	}
	if (count_ok(g->id, count, e) != 0)
		return -1;
	if (g->vram_gb < 0) {
		gw_err_set(e, _("%s (%s): its VRAM is unknown in the GPU table, so the MMIO size cannot be computed; enter the framebuffer size in GB instead"),
		           g->id, g->name);
		return -1;
	}
	if (profile) {
		const char *q;

		for (q = profile; *q; q++)
			if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-')
				break;
		if (g->vgpu_prefix == NULL) {
			gw_err_set(e, _("%s: this GPU has no vGPU profiles; choose passthrough"),
			           g->id);
			return -1;
		}
		if (*q != '\0' || !gw_is_vgpu_profile(profile) ||
		    (canon = gw_gpu_vgpu_profile(g, profile)) == NULL) {
			gw_err_set(e, _("%s: '%s' is not a vGPU profile of this GPU (expected e.g. %s-%dc)"),
			           g->id, profile, g->vgpu_prefix, g->vram_gb);
			return -1;
		}
		free(canon);
	}
	/* the same GPU and profile again: one entry with the counts added */
	for (i = 0; i < a->ngpus; i++) {
		gw_gpu_want *x = &a->gpus[i];

		if (x->gpu != g || (x->profile == NULL) != (profile == NULL))
			continue;
		if (profile && !same_profile(g, x->profile, profile))
			continue;
		if (count_ok(g->id, x->count + count, e) != 0)
			return -1;
		x->count += count;
		want_set_spec(x);
		wz_changed(w);
		return 0;
	}
	spec = gw_xasprintf("%s=%d", profile ? profile : g->id, count);
	le.msg[0] = '\0';
	if (gw_answers_add_gpu(a, gw_wizard_table(w), spec, g->id, &le) != 0) {
		gw_err_set(e, "%s", le.msg);
		free(spec);
		return -1;
	}
	free(spec);
	if (a->gpus[a->ngpus - 1].gpu != g) {
		want_pop(a);
		gw_err_set(e, _("%s: '%s' belongs to another GPU in the table"),
		           g->id, profile ? profile : g->id);
		return -1;
	}
	wz_changed(w);
	return 0;
}

/* A GPU of vram_gb (BAR1 bar1 bytes, 0: not known): merged with a
 * size-only entry of the same sizes. */
static int
add_size(gw_wizard *w, int vram_gb, uint64_t bar1, int count, gw_err *e)
{
	gw_answers *a = &w->af.a;
	char *spec, *what;
	size_t i;
	int rc;

	/* TRANSLATORS: names the field in errors: "48 GB: count 0 is ..." */
	what = gw_xasprintf(_("%d GB"), vram_gb);
	rc = count_ok(what, count, e);
	free(what);
	if (rc != 0)
		return -1;
	if (vram_gb < 1 || (uint64_t)vram_gb > GW_MMIO_MAX_GPU_GB) {
		gw_err_set(e, _("VRAM size: %d GB is not a plausible size (expected 1..%llu)"),
		           vram_gb, (unsigned long long)GW_MMIO_MAX_GPU_GB);
		return -1;
	}
	for (i = 0; i < a->ngpus; i++) {
		gw_gpu_want *x = &a->gpus[i];

		if (x->gpu || x->profile || x->vram_gb != vram_gb ||
		    x->bar1_bytes != bar1)
			continue;
		what = gw_xasprintf(_("%d GB"), vram_gb);
		rc = count_ok(what, x->count + count, e);
		free(what);
		if (rc != 0)
			return -1;
		x->count += count;
		want_set_spec(x);
		wz_changed(w);
		return 0;
	}
	spec = gw_vram_spec(vram_gb, bar1, count);
	rc = gw_answers_add_vram(a, spec, _("VRAM size"), e);
	free(spec);
	if (rc != 0)
		return -1;
	wz_changed(w);
	return 0;
}

int
gw_wizard_add_vram(gw_wizard *w, int vram_gb, int count, gw_err *e)
{
	return add_size(w, vram_gb, 0, count, e);
}

static int
blank(const char *s)
{
	while (s && isspace((unsigned char)*s))
		s++;
	return s == NULL || *s == '\0';
}

int
gw_wizard_add_sized(gw_wizard *w, const char *vram, const char *bar1,
                    gw_err *e)
{
	uint64_t gb, bytes = 0;

	/* TRANSLATORS: the field names of "Add a GPU by its memory size",
	 * in its errors. */
	if (gw_parse_gb(vram, _("VRAM size"), GW_MMIO_MAX_GPU_GB, &gb, e) != 0)
		return -1;
	if (!blank(bar1) &&
	    gw_parse_bar_size(bar1, _("BAR1 size"), &bytes, e) != 0)
		return -1;
	return add_size(w, (int)gb, bytes, 1, e);
}

/* Is detected GPU d counted in entry x?  gw_wizard_add_detected adds it
 * to the passthrough entry of its table row (VRAM known), else to the
 * size-only entry of its BAR size; entries merge, so there is at most
 * one such entry. */
static int
detected_in(const gw_gpu_dev *d, const gw_gpu_want *x)
{
	if (x->profile)
		return 0;
	if (d->row && d->row->vram_gb >= 0)
		return x->gpu == d->row;
	return x->gpu == NULL && (uint64_t)x->vram_gb == gw_gpu_dev_bar_gb(d);
}

/* Forget host PCI address bdf (the VM step's list). */
static void
drop_bdf(gw_answers *a, const char *bdf)
{
	size_t k;

	for (k = 0; k < a->nbdfs; k++) {
		if (strcmp(a->bdfs[k], bdf) != 0)
			continue;
		free(a->bdfs[k]);
		memmove(&a->bdfs[k], &a->bdfs[k + 1],
		        (a->nbdfs - k - 1) * sizeof *a->bdfs);
		a->nbdfs--;
		return;
	}
}

/* How many detected GPUs of the same entry were added before i. */
static int
added_before(const gw_wizard *w, size_t i, const gw_gpu_want *x)
{
	size_t j;
	int n = 0;

	for (j = 0; j < w->ndetected; j++)
		if (w->detected_added[j] &&
		    w->detected_added[j] < w->detected_added[i] &&
		    detected_in(&w->detected[j], x))
			n++;
	return n;
}

/* The rule that keeps the detected GPUs and the host addresses with the
 * selection: an entry counts its detected GPUs in the order they were
 * added (detected_added[i] is that order, from 1); those beyond its count
 * (all of them once the entry is gone) are no longer added, and their
 * addresses leave the answers, so the plan (which pairs the addresses
 * with the passthrough GPUs in order) never gives an address to a GPU no
 * longer chosen.  Addresses typed on the VM step stay. */
static void
trim_detected(gw_wizard *w)
{
	size_t i, k;

	if (w->detected_added == NULL)
		return;
	for (i = 0; i < w->ndetected; i++) {
		const gw_gpu_want *x = NULL;

		if (!w->detected_added[i])
			continue;
		for (k = 0; k < w->af.a.ngpus && x == NULL; k++)
			if (detected_in(&w->detected[i], &w->af.a.gpus[k]))
				x = &w->af.a.gpus[k];
		if (x && added_before(w, i, x) < x->count)
			continue;
		w->detected_added[i] = 0;
		drop_bdf(&w->af.a, w->detected[i].bdf);
	}
}

int
gw_wizard_set_count(gw_wizard *w, size_t idx, int count, gw_err *e)
{
	gw_gpu_want *x;

	if (idx >= w->af.a.ngpus) {
		gw_err_set(e, _("GPU selection: there is no entry %zu"), idx + 1);
		return -1;
	}
	x = &w->af.a.gpus[idx];
	if (count_ok(x->profile ? x->profile : x->gpu ? x->gpu->id : x->spec,
	             count, e) != 0)
		return -1;
	x->count = count;
	want_set_spec(x);
	trim_detected(w);
	wz_changed(w);
	return 0;
}

int
gw_wizard_remove_gpu(gw_wizard *w, size_t idx)
{
	gw_answers *a = &w->af.a;

	if (idx >= a->ngpus)
		return -1;
	free(a->gpus[idx].profile);
	free(a->gpus[idx].spec);
	memmove(&a->gpus[idx], &a->gpus[idx + 1],
	        (a->ngpus - idx - 1) * sizeof *a->gpus);
	a->ngpus--;
	trim_detected(w);
	wz_changed(w);
	return 0;
}

/* The order of the next detected GPU added (detected_added). */
static int
next_added(const gw_wizard *w)
{
	size_t i;
	int m = 0;

	for (i = 0; i < w->ndetected; i++)
		if (w->detected_added[i] > m)
			m = w->detected_added[i];
	return m + 1;
}

int
gw_wizard_add_detected(gw_wizard *w, size_t idx, gw_err *e)
{
	const gw_gpu_dev *d;
	int rc;

	if (idx >= w->ndetected) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	d = &w->detected[idx];
	if (w->detected_added[idx]) {
		/* TRANSLATORS: %s is a PCI address (0000:41:00.0). */
		gw_err_set(e, _("%s is already added: one detected GPU is one GPU."),
		           d->bdf);
		return -1;
	}
	if (d->row && d->row->vram_gb >= 0) {
		rc = gw_wizard_add_gpu(w, d->row, NULL, 1, e);
	} else {
		uint64_t gb = gw_gpu_dev_bar_gb(d);

		if (gb == 0) {
			/* TRANSLATORS: %s is a PCI address. */
			gw_err_set(e, _("%s: the VRAM is unknown and the device has no 64-bit BAR to size it from; pick the GPU from the table instead."),
			           d->bdf);
			return -1;
		}
		rc = gw_wizard_add_vram(w, (int)gb, 1, e);
	}
	if (rc != 0)
		return -1;
	w->detected_added[idx] = next_added(w);
	if (w->af.a.system_id) {
		size_t k;
		int have = 0;

		for (k = 0; k < w->af.a.nbdfs; k++)
			have |= strcmp(w->af.a.bdfs[k], d->bdf) == 0;
		if (!have && gw_wizard_add_bdf(w, d->bdf, e) != 0)
			return -1;
	}
	return 0;
}

void
wz_fill_avail(gw_wizard *w)
{
	gw_host *h = wz_host_for(w, w->mode);

	/* the session's rule (a queued enable counts as done); a GPU of a
	 * root probed here (no attached host) counts as free */
	gw_session_fill_avail(&w->sess, h == w->host ? h : NULL, &w->af.a,
	                      w->detected, w->ndetected);
	if (w->ndetected == 0)
		return;
	wz_stale(w);
}
