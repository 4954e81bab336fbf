/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gputable.c: the GPU fact table (data/gpus.ini), read with iniparser.
 *
 * Loading is in three steps, so that every problem gets one clear line,
 * each step linear in the size of the table:
 *  1. gw_read_file(): missing, unreadable, a directory, too large, binary.
 *     The file is read once; the rest works on that text.
 *  2. A scan of the text for the sections and keys with their lines and
 *     what iniparser accepts silently (a repeated section or key, a key
 *     before any section; sections and keys found by hash), and
 *     iniparser, given a few sections at a time (gt_ini_load): syntax
 *     errors and over-long lines, caught through its error callback and
 *     turned into "FILE:LINE: ...".
 *  3. A check of every section's fields, naming FILE:LINE, [section] and
 *     field, then the index (gputable_index.c): rows by id, vGPU board
 *     and PCI id, and in the same pass two rows sharing a PCI id or a
 *     board.
 */
#include "gputable_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- field parsers ---------------------------------------------------- */

/* "0x10de", "10DE": 1 to 4 hex digits, optional 0x. */
int
gt_parse_hex16(const char *s, unsigned *out)
{
	unsigned v = 0;
	int nd = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, nd++) {
		int c = tolower((unsigned char)*s);

		if (nd == 4 || !isxdigit(c))
			return -1;
		v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	if (nd == 0)
		return -1;
	*out = v;
	return 0;
}

/* "0x10de:0x14a9" */
static int
parse_subsys(const char *s, unsigned *sv, unsigned *sd)
{
	const char *colon = strchr(s, ':');
	char first[16];
	size_t n;

	if (colon == NULL || strchr(colon + 1, ':') != NULL)
		return -1;
	n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof first)
		return -1;
	memcpy(first, s, n);
	first[n] = '\0';
	if (gt_parse_hex16(first, sv) != 0 || gt_parse_hex16(colon + 1, sd) != 0)
		return -1;
	if (*sv == 0 && *sd == 0)
		return -1;
	return 0;
}

/* "unknown", or 1..4 ascending powers of two "256|65536". */
static int
parse_bar1(const char *s, unsigned long out[4], int *n)
{
	char buf[128], *tok, *save = NULL;
	int k = 0;

	if (strcmp(s, "unknown") == 0) {
		*n = 0;
		return 0;
	}
	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	if (buf[0] == '|' || buf[strlen(buf) - 1] == '|' || strstr(buf, "||"))
		return -1;
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		unsigned long long v;

		if (k == 4 || gw_parse_uint(tok, 1ULL << 40, &v) != 0 || v == 0 ||
		    (v & (v - 1)) != 0)
			return -1;
		if (k > 0 && v <= out[k - 1])
			return -1;
		out[k++] = (unsigned long)v;
	}
	if (k == 0)
		return -1;
	*n = k;
	return 0;
}

/* A short id: [a-z0-9][a-z0-9.-]*.  No ':' (a PCI id) and no '_' (a vGPU
 * profile), so the three kinds of spec never overlap. */
static int
valid_id(const char *s)
{
	if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
		      *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/* The board part of a profile or prefix: after "grid_" or "nvidia_";
 * NULL when it has neither. */
const char *
gt_vgpu_board(const char *s)
{
	if (strncasecmp(s, "grid_", 5) == 0)
		return s + 5;
	if (strncasecmp(s, "nvidia_", 7) == 0)
		return s + 7;
	return NULL;
}

/* grid_<board> / nvidia_<board>, lower case, board [a-z0-9-], not ending
 * in '-'. */
static int
valid_prefix(const char *s)
{
	const char *b = gt_vgpu_board(s), *p;

	if (b == NULL || *b == '\0' || *b == '-' || b[strlen(b) - 1] == '-')
		return 0;
	for (p = s; *p; p++)
		if (isupper((unsigned char)*p))
			return 0;
	for (p = b; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '-'))
			return 0;
	return 1;
}

/* ---- load ------------------------------------------------------------- */

static const char *const known_keys[] = {
	"name", "vendor_id", "device_id", "subsys_id", "vram_gb", "bar1_mib",
	"vgpu_prefix", "class", "sriov", "source", "vgpu_types",
	"vgpu_no_series", "vgpu_mmio_gb", "vgpu_source", NULL
};

/* The words of class = (gw_gpu_class order, GW_CLASS_ANY has none). */
static const char *const class_words[GW_NCLASSES] = {
	NULL, "datacenter", "workstation", "geforce"
};

static void
gpu_free(gw_gpu *g)
{
	free(g->id);
	free(g->name);
	free(g->vgpu_prefix);
	free(g->source);
	while (g->nvgpu_types > 0)
		free(g->vgpu_types[--g->nvgpu_types]);
	free(g->vgpu_types);
	free(g->vgpu_source);
	memset(g, 0, sizeof *g);
}

void
gw_table_free(gw_table *t)
{
	size_t i;

	if (t == NULL)
		return;
	gt_index_free(t);
	for (i = 0; i < t->n; i++)
		gpu_free(&t->gpus[i]);
	free(t->gpus);
	free(t->path);
	memset(t, 0, sizeof *t);
}

/* The section's id and its keys. */
static int
check_keys(const scan *s, size_t si, const char *path, gw_err *e)
{
	const char *sec = s->secs[si].name;
	size_t k, j;
	int ok;

	if (!valid_id(sec)) {
		gw_err_set(e, _("%s:%d: [%s] is not a valid GPU id (expected lower-case letters, digits, '-' and '.')"),
		           path, s->secs[si].line, sec);
		return -1;
	}
	for (k = s->secs[si].key0; k < s->secs[si].key0 + s->secs[si].nkeys;
	     k++) {
		for (ok = 0, j = 0; known_keys[j]; j++)
			if (strcmp(s->keys[k].key, known_keys[j]) == 0)
				ok = 1;
		if (!ok) {
			gw_err_set(e, _("%s:%d: [%s] unknown key '%s' (expected name, vendor_id, device_id, subsys_id, vram_gb, bar1_mib, vgpu_prefix, class, sriov, source, vgpu_types, vgpu_no_series, vgpu_mmio_gb, vgpu_source)"),
			           path, s->keys[k].line, sec, s->keys[k].key);
			return -1;
		}
	}
	return 0;
}

/* One section being read: where errors point. */
typedef struct sec_ctx {
	const scan *s;
	size_t si;
	const char *sec, *path;
	int line;
} sec_ctx;

/* Required text fields. */
static int
load_text(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *v;

	if ((v = gt_ini_get(c->s, c->si, "name")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no name (expected name = the pci.ids model name)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	g->name = gw_xstrdup(v);
	if ((v = gt_ini_get(c->s, c->si, "source")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no source (expected source = where the facts come from)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	g->source = gw_xstrdup(v);
	return 0;
}

/* PCI ids. */
static int
load_ids(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *v;

	if ((v = gt_ini_get(c->s, c->si, "vendor_id")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no vendor_id (expected e.g. vendor_id = 0x10de)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	if (gt_parse_hex16(v, &g->vendor_id) != 0 || g->vendor_id == 0 ||
	    g->vendor_id == 0xffff) {
		gw_err_set(e, _("%s:%d: [%s] vendor_id: '%s' is not a PCI vendor id (expected 0x0001 to 0xfffe)"),
		           c->path, gt_scan_key_line(c->s, c->si, "vendor_id"),
		           c->sec, v);
		return -1;
	}
	if ((v = gt_ini_get(c->s, c->si, "device_id")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no device_id (expected e.g. device_id = 0x26b9)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	if (gt_parse_hex16(v, &g->device_id) != 0) {
		gw_err_set(e, _("%s:%d: [%s] device_id: '%s' is not a PCI device id (expected 0x0000 to 0xffff)"),
		           c->path, gt_scan_key_line(c->s, c->si, "device_id"),
		           c->sec, v);
		return -1;
	}
	if ((v = gt_ini_get(c->s, c->si, "subsys_id")) != NULL &&
	    parse_subsys(v, &g->subsys_vendor, &g->subsys_device) != 0) {
		gw_err_set(e, _("%s:%d: [%s] subsys_id: '%s' is not a PCI subsystem id (expected 0xVVVV:0xDDDD)"),
		           c->path, gt_scan_key_line(c->s, c->si, "subsys_id"),
		           c->sec, v);
		return -1;
	}
	return 0;
}

/* Sizes: "unknown" stays unknown. */
static int
load_sizes(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *v;
	unsigned long long vram;

	if ((v = gt_ini_get(c->s, c->si, "vram_gb")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no vram_gb (expected a whole number of GB or 'unknown')"),
		           c->path, c->line, c->sec);
		return -1;
	}
	if (strcmp(v, "unknown") == 0) {
		g->vram_gb = -1;
	} else if (gw_parse_uint(v, 65536, &vram) == 0 && vram > 0) {
		g->vram_gb = (int)vram;
	} else {
		gw_err_set(e, _("%s:%d: [%s] vram_gb: '%s' is not a whole number of GB (1 to 65536) or 'unknown'"),
		           c->path, gt_scan_key_line(c->s, c->si, "vram_gb"),
		           c->sec, v);
		return -1;
	}
	if ((v = gt_ini_get(c->s, c->si, "bar1_mib")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no bar1_mib (expected MiB, 'a|b', or 'unknown')"),
		           c->path, c->line, c->sec);
		return -1;
	}
	if (parse_bar1(v, g->bar1_mib, &g->nbar1) != 0) {
		gw_err_set(e, _("%s:%d: [%s] bar1_mib: '%s' is not 'unknown' or up to 4 ascending powers of two in MiB such as 256|65536"),
		           c->path, gt_scan_key_line(c->s, c->si, "bar1_mib"),
		           c->sec, v);
		return -1;
	}
	return 0;
}

static int
load_prefix(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *v = gt_ini_get(c->s, c->si, "vgpu_prefix");

	if (v == NULL)
		return 0;
	if (!valid_prefix(v)) {
		gw_err_set(e, _("%s:%d: [%s] vgpu_prefix: '%s' is not a vGPU profile prefix (expected grid_<board> or nvidia_<board>, lower case)"),
		           c->path, gt_scan_key_line(c->s, c->si, "vgpu_prefix"),
		           c->sec, v);
		return -1;
	}
	g->vgpu_prefix = gw_xstrdup(v);
	return 0;
}

/* vgpu_no_series = "q a b": series letters, each once. */
static int
load_no_series(gw_gpu *g, const char *none, const sec_ctx *c, gw_err *e)
{
	size_t n = 0;
	const char *p;

	for (p = none; p && *p; p++) {
		if (*p == ' ')
			continue;
		if (!islower((unsigned char)*p) || (p[1] != ' ' && p[1] != '\0') ||
		    strchr(g->vgpu_no_series, *p) != NULL ||
		    n + 1 >= sizeof g->vgpu_no_series) {
			gw_err_set(e, _("%s:%d: [%s] vgpu_no_series: '%s' is not a list of series letters (expected e.g. \"q a b\")"),
			           c->path,
			           gt_scan_key_line(c->s, c->si, "vgpu_no_series"),
			           c->sec, none);
			return -1;
		}
		g->vgpu_no_series[n++] = *p;
	}
	return 0;
}

/* vgpu_types, vgpu_no_series, vgpu_mmio_gb, vgpu_source: only with a
 * vgpu_prefix. */
static int
load_vgpu(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *types = gt_ini_get(c->s, c->si, "vgpu_types");
	const char *none = gt_ini_get(c->s, c->si, "vgpu_no_series");
	const char *mmio = gt_ini_get(c->s, c->si, "vgpu_mmio_gb");
	const char *src = gt_ini_get(c->s, c->si, "vgpu_source");
	const char *key = types ? "vgpu_types" : none ? "vgpu_no_series" :
	                  mmio ? "vgpu_mmio_gb" : "vgpu_source";
	unsigned long long gb;
	gw_vgpu_type vt;
	char *copy, *tok, *save = NULL;

	if (types == NULL && none == NULL && mmio == NULL && src == NULL)
		return 0;
	if (g->vgpu_prefix == NULL) {
		gw_err_set(e, _("%s:%d: [%s] %s without a vgpu_prefix"),
		           c->path, gt_scan_key_line(c->s, c->si, key), c->sec,
		           key);
		return -1;
	}
	copy = gw_xstrdup(types ? types : "");
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *prof = gw_xasprintf("%s-%s", g->vgpu_prefix, tok);
		char entry[32];
		int bad = gw_vgpu_type_parse(prof, &vt) != 0;

		/* spelt as the lookups compare it: no "0-" slices, no leading
		 * zero, a lower-case series */
		if (!bad) {
			gt_vgpu_type_entry(&vt, entry, sizeof entry);
			bad = strcmp(tok, entry) != 0;
		}
		free(prof);
		if (bad) {
			gw_err_set(e, _("%s:%d: [%s] vgpu_types: '%s' is not a vGPU type ending (expected <GB><series> or <slices>-<GB><series>, e.g. 48c or 1-10c)"),
			           c->path,
			           gt_scan_key_line(c->s, c->si, "vgpu_types"),
			           c->sec, tok);
			free(copy);
			return -1;
		}
		g->vgpu_types = gw_xrealloc(g->vgpu_types,
		                            (g->nvgpu_types + 1) *
		                            sizeof *g->vgpu_types);
		g->vgpu_types[g->nvgpu_types++] = gw_xstrdup(tok);
	}
	free(copy);
	if (load_no_series(g, none, c, e) != 0)
		return -1;
	if (mmio) {
		if (gw_parse_uint(mmio, 65536, &gb) != 0 || gb == 0) {
			gw_err_set(e, _("%s:%d: [%s] vgpu_mmio_gb: '%s' is not a size in GB (expected 1..65536)"),
			           c->path,
			           gt_scan_key_line(c->s, c->si, "vgpu_mmio_gb"),
			           c->sec, mmio);
			return -1;
		}
		g->vgpu_mmio_gb = (int)gb;
	}
	if (src == NULL) {
		gw_err_set(e, _("%s:%d: [%s] %s without a vgpu_source"),
		           c->path, gt_scan_key_line(c->s, c->si, key), c->sec,
		           key);
		return -1;
	}
	g->vgpu_source = gw_xstrdup(src);
	return 0;
}

/* class and sriov: both required. */
static int
load_kind(gw_gpu *g, const sec_ctx *c, gw_err *e)
{
	const char *v;
	int i;

	if ((v = gt_ini_get(c->s, c->si, "class")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no class (expected datacenter, workstation or geforce)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	for (i = 1; i < GW_NCLASSES; i++)
		if (strcmp(v, class_words[i]) == 0)
			g->cls = (gw_gpu_class)i;
	if (g->cls == GW_CLASS_ANY) {
		gw_err_set(e, _("%s:%d: [%s] class: '%s' is not a GPU class (expected datacenter, workstation or geforce)"),
		           c->path, gt_scan_key_line(c->s, c->si, "class"),
		           c->sec, v);
		return -1;
	}
	if ((v = gt_ini_get(c->s, c->si, "sriov")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no sriov (expected yes or no)"),
		           c->path, c->line, c->sec);
		return -1;
	}
	if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0) {
		gw_err_set(e, _("%s:%d: [%s] sriov: '%s' is not yes or no"),
		           c->path, gt_scan_key_line(c->s, c->si, "sriov"),
		           c->sec, v);
		return -1;
	}
	g->sriov = strcmp(v, "yes") == 0;
	if (g->sriov && g->vgpu_prefix == NULL) {
		gw_err_set(e, _("%s:%d: [%s] sriov: 'yes' without a vgpu_prefix (SR-IOV here means that the board's vGPUs run on it)"),
		           c->path, gt_scan_key_line(c->s, c->si, "sriov"),
		           c->sec);
		return -1;
	}
	return 0;
}

static int
load_section(gw_gpu *g, const scan *s, size_t si, const char *path,
             gw_err *e)
{
	sec_ctx c;

	if (check_keys(s, si, path, e) != 0)
		return -1;
	c.s = s;
	c.si = si;
	c.sec = s->secs[si].name;
	c.path = path;
	c.line = s->secs[si].line;
	g->id = gw_xstrdup(c.sec);
	if (load_text(g, &c, e) != 0 || load_ids(g, &c, e) != 0 ||
	    load_sizes(g, &c, e) != 0 || load_prefix(g, &c, e) != 0 ||
	    load_vgpu(g, &c, e) != 0 || load_kind(g, &c, e) != 0)
		return -1;
	return 0;
}

/* What one row must not share with another: the PCI id (unless the
 * subsystem tells them apart) and the vGPU board.  The index finds them
 * (gt_index_build): the first row, in the table's order, that shares one
 * with an earlier row, named with the earliest such row. */
static int
check_unique(const gw_table *t, const gt_dup *dup, const scan *s,
             const size_t *secidx, const char *path, gw_err *e)
{
	const gw_gpu *a, *b;

	if (dup->what == 0)
		return 0;
	a = &t->gpus[dup->row];
	b = &t->gpus[dup->first];
	if (dup->what == GT_DUP_PCI)
		gw_err_set(e, _("%s:%d: [%s] has the same PCI id %04x:%04x as [%s]; add subsys_id = 0xVVVV:0xDDDD to tell them apart"),
		           path, s->secs[secidx[dup->row]].line, a->id,
		           a->vendor_id, a->device_id, b->id);
	else
		gw_err_set(e, _("%s:%d: [%s] vgpu_prefix: '%s' names the same board as [%s] (%s); a profile must map to one GPU"),
		           path, gt_scan_key_line(s, secidx[dup->row], "vgpu_prefix"),
		           a->id, a->vgpu_prefix, b->id, b->vgpu_prefix);
	return -1;
}

int
gw_table_load(gw_table *t, const char *path, gw_err *e)
{
	char *data = NULL;
	size_t len = 0, i, *secidx;
	scan s;
	gt_dup dup;

	memset(t, 0, sizeof *t);
	memset(&s, 0, sizeof s);

	/* 1. Clear messages for what iniparser would only half report. */
	if (gw_read_file(path, TABLE_MAX_BYTES, &data, &len, e) != 0)
		return -1;
	if (memchr(data, '\0', len) != NULL) {
		gw_err_set(e, _("%s: binary data, expected the GPU table (an INI file)"),
		           path);
		free(data);
		return -1;
	}

	/* 2. The sections and keys with their lines, then the syntax,
	 * through iniparser (its errors first, wherever they are), then what
	 * iniparser accepts silently. */
	gt_scan_text(&s, path, data, len);
	if (gt_ini_load(&s, path, data, len, e) != 0)
		goto fail;
	free(data);
	data = NULL;
	if (s.failed) {
		if (e != NULL)
			*e = s.err;
		goto fail;
	}

	/* 3. Each section, then what rows must not share. */
	if (s.nsecs == 0) {
		gw_err_set(e, _("%s: no GPUs in the table (expected [id] sections with name, vendor_id, device_id, vram_gb, bar1_mib, source)"),
		           path);
		goto fail;
	}
	t->gpus = gw_xcalloc(s.nsecs, sizeof *t->gpus);
	secidx = gw_xcalloc(s.nsecs, sizeof *secidx);
	for (i = 0; i < s.nsecs; i++) {
		if (load_section(&t->gpus[t->n], &s, i, path, e) != 0) {
			gpu_free(&t->gpus[t->n]);
			free(secidx);
			goto fail;
		}
		secidx[t->n++] = i;
	}
	gt_index_build(t, &dup);
	if (check_unique(t, &dup, &s, secidx, path, e) != 0) {
		free(secidx);
		goto fail;
	}
	free(secidx);
	t->path = gw_xstrdup(path);
	gt_scan_free(&s);
	return 0;

fail:
	free(data);
	gt_scan_free(&s);
	gw_table_free(t);
	return -1;
}

/* ---- default path ----------------------------------------------------- */

static int
is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *
gw_table_default_path(gw_err *e)
{
	const char *env = gw_env_path("GPUWIZ_TABLE", GW_PATH_FILE);
	char *cand[3];
	gw_buf tried;
	size_t i, nc = 0;
	char *found = NULL;

	/* Named explicitly (and trusted, gw_env_path): use it even when
	 * missing, so that loading it names the file the operator asked
	 * for. */
	if (env)
		return gw_xstrdup(env);

	/* A build-tree binary first (its own table, not an older installed
	 * one: BUILD/data/gpus.ini, linked to the source tree's by make in
	 * an out-of-tree build; only with make's marker beside the program,
	 * gw_build_path), then the installed table.  No path of the build
	 * is compiled in (doc/design.md, section 2.4). */
	if ((cand[nc] = gw_build_path("../data/gpus.ini", GW_PATH_FILE)) != NULL)
		nc++;
	if ((cand[nc] = gw_build_path("data/gpus.ini", GW_PATH_FILE)) != NULL)
		nc++;
#ifdef PKGDATADIR
	cand[nc++] = gw_xstrdup(PKGDATADIR "/gpus.ini");
#endif
	gw_buf_init(&tried);
	for (i = 0; i < nc; i++) {
		if (found == NULL && is_file(cand[i])) {
			found = cand[i];
			continue;
		}
		if (found == NULL)
			gw_buf_printf(&tried, "%s%s", tried.len ? ", " : "", cand[i]);
		free(cand[i]);
	}
	if (found == NULL)
		gw_err_set(e, _("no GPU table found (tried %s); set GPUWIZ_TABLE to the path of gpus.ini"),
		           tried.len ? tried.data : "-");
	gw_buf_free(&tried);
	return found;
}
