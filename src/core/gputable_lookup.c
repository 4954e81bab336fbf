/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gputable_lookup.c: finding a GPU in the table by id, PCI id (with the
 * subsystem), model name or vGPU profile; every miss or ambiguity is one
 * line naming what was looked for and what would match. */
#include "gputable_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- lookup ----------------------------------------------------------- */

int
gw_is_vgpu_profile(const char *spec)
{
	const char *b;

	if (spec == NULL)
		return 0;
	b = gt_vgpu_board(spec);
	return b != NULL && *b != '\0';
}

unsigned long
gw_gpu_bar1_max_mib(const gw_gpu *g)
{
	if (g == NULL || g->nbar1 <= 0)
		return 0;
	return g->bar1_mib[g->nbar1 - 1];
}

const gw_gpu *
gw_table_find_pci(const gw_table *t, unsigned vendor, unsigned device,
                  unsigned subsys_vendor, unsigned subsys_device,
                  int *ambiguous)
{
	const gw_gpu *exact = NULL, *generic = NULL, *any = NULL;
	const gw_gpu *const *rows;
	size_t i, nrows, nexact = 0, ngeneric = 0, nany = 0;
	int have_subsys = subsys_vendor != 0 || subsys_device != 0;

	if (ambiguous)
		*ambiguous = 0;
	if (t == NULL)
		return NULL;
	rows = gt_index_pci(t, vendor, device, &nrows);
	for (i = 0; i < nrows; i++) {
		const gw_gpu *g = rows[i];

		nany++;
		any = g;
		if (g->subsys_vendor == 0 && g->subsys_device == 0) {
			ngeneric++;
			generic = g;
		} else if (have_subsys && g->subsys_vendor == subsys_vendor &&
		           g->subsys_device == subsys_device) {
			nexact++;
			exact = g;
		}
	}
	if (nexact == 1)
		return exact;
	if (nexact == 0 && ngeneric == 1)
		return generic;
	if (nexact == 0 && ngeneric == 0 && nany == 1 && !have_subsys)
		return any;
	if (ambiguous && (nexact > 1 || ngeneric > 1 || nany > 1))
		*ambiguous = 1;
	return NULL;
}

/* "10de:26b9" or "10de:25b6:10de:14a9" (each part 1-4 hex digits, 0x
 * allowed).  Returns the number of parts (2 or 4), 0 when not a PCI id. */
static int
parse_pci_spec(const char *spec, unsigned v[4])
{
	char buf[64], *p, *save = NULL;
	int n = 0;

	if (strlen(spec) >= sizeof buf)
		return 0;
	strcpy(buf, spec);
	if (buf[0] == ':' || buf[strlen(buf) - 1] == ':' || strstr(buf, "::"))
		return 0;
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (n == 4 || gt_parse_hex16(p, &v[n]) != 0)
			return 0;
		n++;
	}
	return n == 2 || n == 4 ? n : 0;
}

/* The model part of a pci.ids name: the text between the first '[' and
 * the last ']' ("AD102GL [L40S]" -> "L40S"), else the whole name. */
static const char *
model_part(const char *name, size_t *n)
{
	const char *open = strchr(name, '['), *close = strrchr(name, ']');

	if (open == NULL || close == NULL || close < open) {
		*n = strlen(name);
		return name;
	}
	*n = (size_t)(close - open - 1);
	return open + 1;
}

static int
model_equals(const char *name, const char *spec)
{
	size_t n;
	const char *m = model_part(name, &n);

	return strlen(spec) == n && strncasecmp(m, spec, n) == 0;
}

/* The model ends with spec after a space: "RTX 4080" names "GeForce RTX
 * 4080" and not "GeForce RTX 4080 SUPER". */
static int
model_tail(const char *name, const char *spec)
{
	size_t n, k = strlen(spec);
	const char *m = model_part(name, &n);

	return k > 0 && k < n && m[n - k - 1] == ' ' &&
	       strncasecmp(m + n - k, spec, k) == 0;
}

static int
model_contains(const char *name, const char *spec)
{
	size_t n, k = strlen(spec), i;
	const char *m = model_part(name, &n);

	for (i = 0; k > 0 && i + k <= n; i++)
		if (strncasecmp(m + i, spec, k) == 0)
			return 1;
	return 0;
}

/* "a, b, c" of the candidates' ids, at most AMBIG_MAX_LIST then "...". */
static void
list_ids(gw_buf *b, const gw_gpu *const *c, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < AMBIG_MAX_LIST; i++)
		gw_buf_printf(b, "%s%s", i ? ", " : "", c[i]->id);
	if (n > AMBIG_MAX_LIST)
		gw_buf_printf(b, _(", ... (%zu in all)"), n);
}

/* spec's board part starts with g's vGPU board, followed by the end or a
 * '-'.  Returns the board length matched, 0 for no match; *suffix is set
 * to the text after the '-' ("" when none): the size and series ("80c",
 * "1-10c", "48q"), checked by valid_suffix(). */
static size_t
profile_match(const gw_gpu *g, const char *spec, const char **suffix)
{
	const char *sb = gt_vgpu_board(spec), *gb;
	size_t n;

	if (g->vgpu_prefix == NULL || sb == NULL)
		return 0;
	gb = gt_vgpu_board(g->vgpu_prefix);
	n = strlen(gb);
	if (strncasecmp(sb, gb, n) != 0 || (sb[n] != '-' && sb[n] != '\0'))
		return 0;
	*suffix = sb[n] == '-' ? sb + n + 1 : sb + n;
	return n;
}

static int
valid_suffix(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-')
			return 0;
	return 1;
}

char *
gw_gpu_vgpu_profile(const gw_gpu *g, const char *profile)
{
	const char *suffix = NULL;
	char *out, *p;

	if (g == NULL || profile == NULL || profile_match(g, profile, &suffix) == 0 ||
	    !valid_suffix(suffix))
		return NULL;
	out = gw_xasprintf("%s-%s", g->vgpu_prefix, suffix);
	for (p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return out;
}

/* The text after the last "-<digits>" group start: "nvidia_l40s-48c" ->
 * "48c", "grid_a100-1-10c" -> "1-10c", "nvidia_rtx6000-ada-4c" -> "4c". */
int
gw_vgpu_type_parse(const char *profile, gw_vgpu_type *out)
{
	const char *dash, *s, *q;
	size_t n;

	memset(out, 0, sizeof *out);
	if (profile == NULL || (dash = strrchr(profile, '-')) == NULL ||
	    !isdigit((unsigned char)dash[1]))
		return -1;
	out->size_gb = atoi(dash + 1);
	for (s = dash + 1; isdigit((unsigned char)*s); s++)
		;
	n = strlen(s);
	/* the series: one letter, or "cme" (MIG with media extensions) */
	if (!(n == 1 || (n == 3 && strncasecmp(s + 1, "me", 2) == 0)) ||
	    !isalpha((unsigned char)*s) || out->size_gb <= 0)
		return -1;
	out->series = (char)tolower((unsigned char)*s);
	/* "-<digits>" before the size: MIG slices */
	for (q = dash; q > profile && isdigit((unsigned char)q[-1]); q--)
		;
	if (q < dash && q > profile && q[-1] == '-')
		out->slices = atoi(q);
	return 0;
}

void
gt_vgpu_type_entry(const gw_vgpu_type *vt, char *buf, size_t size)
{
	if (vt->slices)
		snprintf(buf, size, "%d-%d%c", vt->slices, vt->size_gb,
		         vt->series);
	else
		snprintf(buf, size, "%d%c", vt->size_gb, vt->series);
}

/* Is entry (of vgpu_types) the type vt? */
static int
type_is(const char *entry, const gw_vgpu_type *vt)
{
	char buf[32];

	gt_vgpu_type_entry(vt, buf, sizeof buf);
	return strcmp(entry, buf) == 0;
}

/* Does entry belong to series and mode? */
static int
entry_of(const char *entry, char series, int mig, gw_vgpu_type *et)
{
	char *prof = gw_xasprintf("x-%s", entry);
	int ok = gw_vgpu_type_parse(prof, et) == 0 && et->series == series &&
	         (et->slices != 0) == (mig != 0);

	free(prof);
	return ok;
}

/* Is profile one of the types NVIDIA lists for g (vgpu_types)?  1 yes;
 * 0 no (g lists types of that series, and not this one); -1 not known
 * (no list for that series, or the profile does not parse). */
static int
vgpu_type_known(const gw_gpu *g, const char *profile)
{
	gw_vgpu_type vt, et;
	size_t i;
	int listed = 0;

	if (g == NULL || gw_vgpu_type_parse(profile, &vt) != 0)
		return -1;
	if (strchr(g->vgpu_no_series, vt.series) != NULL)
		return 0;
	for (i = 0; i < g->nvgpu_types; i++) {
		/* a board that lists a series lists all its types: a MIG
		 * profile on a board without MIG types of it is unknown */
		if (!entry_of(g->vgpu_types[i], vt.series, 0, &et) &&
		    !entry_of(g->vgpu_types[i], vt.series, 1, &et))
			continue;
		listed = 1;
		if (type_is(g->vgpu_types[i], &vt))
			return 1;
	}
	return listed ? 0 : -1;
}

char *
gw_gpu_vgpu_sizes(const gw_gpu *g, char series, int mig)
{
	gw_vgpu_type et;
	gw_buf b;
	size_t i;

	gw_buf_init(&b);
	for (i = 0; g && i < g->nvgpu_types; i++) {
		if (!entry_of(g->vgpu_types[i], series, mig, &et))
			continue;
		if (b.len)
			gw_buf_puts(&b, ", ");
		if (mig)
			gw_buf_printf(&b, "%d-%d", et.slices, et.size_gb);
		else
			gw_buf_printf(&b, "%d", et.size_gb);
	}
	if (b.len == 0) {
		gw_buf_free(&b);
		return NULL;
	}
	return gw_buf_steal(&b);
}

int
gw_gpu_vgpu_full_size(const gw_gpu *g, char series)
{
	gw_vgpu_type et;
	size_t i;
	int best = -1;

	for (i = 0; g && i < g->nvgpu_types; i++)
		if (entry_of(g->vgpu_types[i], series, 0, &et) &&
		    et.size_gb > best)
			best = et.size_gb;
	return best;
}

const char *
gw_vgpu_types_source(const char *profile)
{
	gw_vgpu_type vt;

	if (gw_vgpu_type_parse(profile, &vt) != 0 || vt.series == 'c')
		return GW_SRC_VGPU_TYPES;
	return GW_SRC_VGPU_TYPES_QAB;
}

int
gw_gpu_vgpu_check(const gw_gpu *g, const char *profile, gw_err *e)
{
	gw_vgpu_type vt;
	char *ts, *mig;

	if (vgpu_type_known(g, profile) != 0)
		return 0;
	gw_vgpu_type_parse(profile, &vt);
	ts = gw_gpu_vgpu_sizes(g, vt.series, 0);
	mig = gw_gpu_vgpu_sizes(g, vt.series, 1);
	if (ts == NULL && mig == NULL) {
		char *cs = gw_gpu_vgpu_sizes(g, 'c', 0);

		/* TRANSLATORS: %c the series letter (Q); then the C-series
		 * sizes in GB and the source (NVIDIA's file). */
		gw_err_set(e, _("vGPU profile '%s' does not exist on %s: NVIDIA offers no %c-series vGPU types on it, only C-series, sizes %s (%s-<size>c) (%s)"),
		           profile, g->id, toupper((unsigned char)vt.series),
		           cs ? cs : "-", g->vgpu_prefix, GW_SRC_VGPU_TYPES_QAB);
		free(cs);
	} else if (ts && mig)
		/* TRANSLATORS: %c the series letter (C); the sizes are
		 * GB, "1-10" is <MIG slices>-<GB>; the last %s is the
		 * source (NVIDIA's document). */
		gw_err_set(e, _("vGPU profile '%s' does not exist on %s: NVIDIA lists %c-series sizes %s GB (%s-<GB>%c) and MIG-backed %s (%s-<slices>-<GB>%c) (%s)"),
		           profile, g->id, toupper((unsigned char)vt.series), ts,
		           g->vgpu_prefix, vt.series, mig, g->vgpu_prefix,
		           vt.series, gw_vgpu_types_source(profile));
	else
		/* TRANSLATORS: %c the series letter (C); the sizes are
		 * GB or <MIG slices>-<GB>; the last %s is the source. */
		gw_err_set(e, _("vGPU profile '%s' does not exist on %s: NVIDIA lists %c-series sizes %s (%s-<size>%c) (%s)"),
		           profile, g->id, toupper((unsigned char)vt.series),
		           ts ? ts : mig, g->vgpu_prefix, vt.series,
		           gw_vgpu_types_source(profile));
	free(ts);
	free(mig);
	return -1;
}

static const gw_gpu *
lookup_profile(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu *best = NULL, *g;
	const char *sb = gt_vgpu_board(spec), *suffix = NULL;
	size_t n;

	/* The longest board wins: nvidia_rtx6000-ada-48q is rtx6000-ada.
	 * A board is followed by '-' or the end (profile_match): each such
	 * length is looked up, the longest first. */
	for (n = strlen(sb); best == NULL && n > 0; n--) {
		if (sb[n] != '-' && sb[n] != '\0')
			continue;
		if ((g = gt_index_board(t, sb, n)) != NULL) {
			best = g;
			suffix = sb[n] == '-' ? sb + n + 1 : sb + n;
		}
	}
	if (best == NULL) {
		gw_err_set(e, _("unknown vGPU profile '%s' (no GPU in %s has vGPU types of that board; expected e.g. nvidia_l40s-48c or grid_a100-40c)"),
		           spec, t->path ? t->path : _("the table"));
		return NULL;
	}
	if (!valid_suffix(suffix)) {
		gw_err_set(e, _("vGPU profile '%s' has no valid size and series after the board (expected e.g. %s-%dc for [%s])"),
		           spec, best->vgpu_prefix,
		           best->vram_gb > 0 ? best->vram_gb : 4, best->id);
		return NULL;
	}
	return best;
}

/* "a2 = 10de:25b6:10de:157e, a16 = ..." for the rows of one PCI id. */
static void
list_subsys(gw_buf *b, const gw_gpu *const *c, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < AMBIG_MAX_LIST; i++) {
		if (c[i]->subsys_vendor == 0 && c[i]->subsys_device == 0)
			gw_buf_printf(b, "%s%s = %04x:%04x", i ? ", " : "", c[i]->id,
			              c[i]->vendor_id, c[i]->device_id);
		else
			gw_buf_printf(b, "%s%s = %04x:%04x:%04x:%04x", i ? ", " : "",
			              c[i]->id, c[i]->vendor_id, c[i]->device_id,
			              c[i]->subsys_vendor, c[i]->subsys_device);
	}
}

static const gw_gpu *
lookup_pci(const gw_table *t, const char *spec, const unsigned v[4], int n,
           gw_err *e)
{
	const gw_gpu *g;
	const gw_gpu *const *c;
	int amb = 0;
	size_t nc = 0;
	gw_buf ids, subs;

	g = gw_table_find_pci(t, v[0], v[1], n == 4 ? v[2] : 0,
	                      n == 4 ? v[3] : 0, &amb);
	if (g)
		return g;
	/* every candidate, in the table's order, so the "(N in all)" count
	 * is true */
	c = gt_index_pci(t, v[0], v[1], &nc);
	if (nc == 0) {
		gw_err_set(e, _("unknown GPU '%s' (no GPU in %s has this PCI id)"),
		           spec, t->path ? t->path : _("the table"));
		return NULL;
	}
	gw_buf_init(&ids);
	gw_buf_init(&subs);
	list_ids(&ids, c, nc);
	list_subsys(&subs, c, nc);
	if (amb && n == 2)
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (the PCI subsystem id tells them apart: %s)"),
		           spec, ids.data, subs.data);
	else if (amb)
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (subsystem %04x:%04x is not in the table: %s)"),
		           spec, ids.data, v[2], v[3], subs.data);
	else
		gw_err_set(e, _("unknown GPU '%s' (subsystem %04x:%04x is not in the table: %s)"),
		           spec, v[2], v[3], subs.data);
	gw_buf_free(&ids);
	gw_buf_free(&subs);
	return NULL;
}

enum name_tier { TIER_FULL, TIER_MODEL, TIER_MODEL_TAIL, TIER_MODEL_PART,
                 TIER_ANY_PART, TIER_END };

static const gw_gpu *
lookup_name(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu **c = gw_xcalloc(t->n ? t->n : 1, sizeof *c);
	const gw_gpu *found = NULL;
	int tier;
	size_t i, nc = 0;

	for (tier = TIER_FULL; tier < TIER_END && nc == 0; tier++) {
		for (i = 0; i < t->n; i++) {
			const char *name = t->gpus[i].name;
			int hit = tier == TIER_FULL ? gw_strieq(name, spec) :
			          tier == TIER_MODEL ? model_equals(name, spec) :
			          tier == TIER_MODEL_TAIL ? model_tail(name, spec) :
			          tier == TIER_MODEL_PART ? model_contains(name, spec) :
			          gw_str_icontains(name, spec);

			if (hit)
				c[nc++] = &t->gpus[i];
		}
	}
	if (nc == 1) {
		found = c[0];
	} else if (nc > 1) {
		gw_buf b;

		gw_buf_init(&b);
		list_ids(&b, c, nc);
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (name one by its id)"),
		           spec, b.data);
		gw_buf_free(&b);
	} else {
		gw_err_set(e, _("unknown GPU '%s' (not an id, PCI id, vGPU profile or model name in %s)"),
		           spec, t->path ? t->path : _("the table"));
	}
	free(c);
	return found;
}

const gw_gpu *
gw_table_lookup(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu *g = NULL;
	unsigned v[4];
	char *s;
	int n;

	if (t == NULL || spec == NULL) {
		gw_err_set(e, _("no GPU given"));
		return NULL;
	}
	s = gw_trim(gw_xstrdup(spec));
	if (*s == '\0') {
		gw_err_set(e, _("no GPU given (expected an id such as l40s, a PCI id such as 10de:26b9, a vGPU profile or a model name)"));
		free(s);
		return NULL;
	}
	/* 1. short id */
	if ((g = gt_index_id(t, s, strlen(s))) != NULL) {
		free(s);
		return g;
	}
	/* 2. PCI id, 3. vGPU profile, 4. model name */
	if ((n = parse_pci_spec(s, v)) != 0)
		g = lookup_pci(t, s, v, n, e);
	else if (gw_is_vgpu_profile(s))
		g = lookup_profile(t, s, e);
	else
		g = lookup_name(t, s, e);
	free(s);
	return g;
}

int
gw_is_onboard_display(unsigned vendor)
{
	return vendor == 0x1a03 ||   /* ASPEED (BMC) */
	       vendor == 0x102b ||   /* Matrox (BMC) */
	       vendor == 0x15ad ||   /* VMware SVGA (nested ESXi) */
	       vendor == 0x1234 ||   /* QEMU standard VGA */
	       vendor == 0x1b36;     /* QEMU/Red Hat QXL */
}

int
gw_is_gpu_maker(unsigned vendor)
{
	return vendor == 0x10de ||   /* NVIDIA */
	       vendor == 0x1002;     /* AMD/ATI (Radeon, Instinct) */
}
