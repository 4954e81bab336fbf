/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_procs.c: `esxcli vm process list` (the running VMs, see esxi.h for
 * the format) and the power state of getallvms' VMs read from it in one
 * go (doc/design.md, section 15.6). */
#include "esxi_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define VOLUMES   "/vmfs/volumes/"

void
gw_esxi_vm_proc_list_free(gw_esxi_vm_proc_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->procs[i].name);
		free(l->procs[i].display_name);
		free(l->procs[i].config_file);
	}
	free(l->procs);
	memset(l, 0, sizeof *l);
}

/* The fields gpuwiz reads; any other key of a block is ignored. */
enum { F_WORLD, F_DISPLAY, F_CONFIG, F_OTHER_KNOWN, F_NONE };
static const struct { const char *key; int id; } keys[] = {
	{ "World ID", F_WORLD },
	{ "Display Name", F_DISPLAY },
	{ "Config File", F_CONFIG },
	{ "Process ID", F_OTHER_KNOWN },
	{ "VMX Cartel ID", F_OTHER_KNOWN },
	{ "UUID", F_OTHER_KNOWN },
};

/* s (blanks skipped) starts with one of keys[] and ':': its index, value
 * in *val; -1 otherwise. */
static int
known_key(const char *s, const char **val)
{
	size_t i, k;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		k = strlen(keys[i].key);
		if (strncmp(s, keys[i].key, k) == 0 && s[k] == ':' &&
		    (s[k + 1] == '\0' || esxi_is_blank(s[k + 1]))) {
			*val = esxi_skip_blanks(s + k + 1);
			return (int)i;
		}
	}
	return -1;
}

/* The parser's state between lines. */
typedef struct procs_parse {
	gw_esxi_vm_proc_list *out;
	size_t cap;
	unsigned seen;           /* keys[] bits read in the open block */
	const char *name;
	gw_err *e;
} procs_parse;

/* The open block is complete: it has its Config File. */
static int
close_block(procs_parse *ps)
{
	const gw_esxi_vm_proc *p;
	char ex[64];

	if (ps->out->n == 0)
		return 0;
	p = &ps->out->procs[ps->out->n - 1];
	if (p->config_file == NULL) {
		esxi_err_line(ps->e, ps->name, p->line,
		              _("VM '%s' has no Config File line; expected the "
		                "blocks of %s (World ID, ..., Config File: "
		                "/vmfs/volumes/DATASTORE/VM/VM.vmx)"),
		              esxi_excerpt(p->name, ex, sizeof ex), CMD_PROCS);
		return -1;
	}
	return 0;
}

static int
open_block(procs_parse *ps, const char *s, unsigned ln)
{
	gw_esxi_vm_proc_list *out = ps->out;
	gw_esxi_vm_proc *p;

	if (close_block(ps) != 0)
		return -1;
	out->procs = esxi_grow(out->procs, out->n, &ps->cap,
	                       sizeof *out->procs, 16);
	p = &out->procs[out->n++];
	memset(p, 0, sizeof *p);
	p->name = gw_xstrdup(esxi_skip_blanks(s));
	p->line = ln;
	ps->seen = 0;
	return 0;
}

/* One field k (keys[k]) with value v at line ln of the open block. */
static int
add_field(procs_parse *ps, int k, const char *v, unsigned ln)
{
	gw_esxi_vm_proc *p = &ps->out->procs[ps->out->n - 1];
	unsigned long long id;
	char ex[64];

	if (ps->seen & 1u << k) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("a second %s line in the block of VM '%s'"),
		              keys[k].key, esxi_excerpt(p->name, ex, sizeof ex));
		return -1;
	}
	ps->seen |= 1u << k;
	switch (keys[k].id) {
	case F_WORLD:
		if (gw_parse_uint(v, 0xffffffffffffULL, &id) != 0) {
			esxi_err_line(ps->e, ps->name, ln,
			              _("World ID: expected a number, found '%s'"),
			              esxi_excerpt(v, ex, sizeof ex));
			return -1;
		}
		p->world_id = (unsigned long)id;
		break;
	case F_DISPLAY:
		p->display_name = gw_xstrdup(v);
		break;
	case F_CONFIG:
		if (*v == '\0') {
			esxi_err_line(ps->e, ps->name, ln, "%s",
			              _("Config File: empty; expected the path of "
			                "the VM's .vmx"));
			return -1;
		}
		p->config_file = gw_xstrdup(v);
		break;
	}
	return 0;
}

/* One line: an indented line is a field of the open block (any key; only
 * keys[] are read), a line at the margin opens a block (the VM's name),
 * unless a block is open and it starts with one of keys[] (a copy that
 * lost its indentation). */
static int
procs_line(void *ctx, const char *s, unsigned ln)
{
	procs_parse *ps = ctx;
	const char *t = esxi_skip_blanks(s), *val;
	int k = known_key(t, &val);
	char ex[64];

	if (*t == '\0')
		return 0;
	if (t == s && (k < 0 || ps->out->n == 0))
		return open_block(ps, s, ln);
	if (ps->out->n == 0) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a VM's name opening a block of %s, "
		                "found '%s'"), CMD_PROCS,
		              esxi_excerpt(t, ex, sizeof ex));
		return -1;
	}
	return k < 0 ? 0 : add_field(ps, k, val, ln);
}

static int
cmp_proc_file(const void *a, const void *b)
{
	const gw_esxi_vm_proc *const *x = a, *const *y = b;
	int c = strcmp((*x)->config_file, (*y)->config_file);

	return c ? c : ((*x)->line > (*y)->line) - ((*x)->line < (*y)->line);
}

/* A VM listed twice (the same Config File): sorted, so linear after the
 * sort however long the list. */
static int
check_twice(const gw_esxi_vm_proc_list *l, const char *name, gw_err *e)
{
	const gw_esxi_vm_proc **v;
	size_t i;
	int rc = 0;
	char ex[64];

	if (l->n < 2)
		return 0;
	v = gw_xcalloc(l->n, sizeof *v);
	for (i = 0; i < l->n; i++)
		v[i] = &l->procs[i];
	qsort(v, l->n, sizeof *v, cmp_proc_file);
	for (i = 1; i < l->n && rc == 0; i++)
		if (strcmp(v[i]->config_file, v[i - 1]->config_file) == 0) {
			esxi_err_line(e, name, v[i]->line,
			              _("VM '%s' is listed twice (first at line "
			                "%u)"), esxi_excerpt(v[i]->name, ex,
			                                     sizeof ex),
			              v[i - 1]->line);
			rc = -1;
		}
	free(v);
	return rc;
}

/* Only blanks (and line ends): no VM running, which esxcli prints as
 * nothing at all. */
static int
all_blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

int
gw_esxi_parse_vm_processes(const char *text, const char *name,
                           gw_esxi_vm_proc_list *out, gw_err *e)
{
	procs_parse ps = { .out = out, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	if (text == NULL || all_blank(text))
		return 0;
	if (esxi_each_line(text, name, CMD_PROCS, procs_line, &ps, e) != 0 ||
	    close_block(&ps) != 0 || check_twice(out, name, e) != 0) {
		gw_esxi_vm_proc_list_free(out);
		return -1;
	}
	return 0;
}

/* ---- power states of getallvms' VMs ------------------------------------ */

/* A listed VM by its path in the datastore and its datastore. */
typedef struct vref {
	const char *rel, *ds;
	size_t i;
} vref;

/* A running VM's Config File cut after /vmfs/volumes/: its volume (a
 * datastore's name, or its UUID: the usual form) and the path in it. */
typedef struct pref {
	char *vol;
	const char *rel;
} pref;

static int
cmp_vref(const void *a, const void *b)
{
	const vref *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);

	return c ? c : strcmp(x->ds, y->ds);
}

static int
cmp_pref(const void *a, const void *b)
{
	const pref *x = a, *y = b;

	return strcmp(x->rel, y->rel);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "/vmfs/volumes/VOL/REL" -> p; 0, or -1 when it is not of that form. */
static int
split_config(const char *f, pref *p)
{
	const char *v, *slash;

	if (strncmp(f, VOLUMES, sizeof VOLUMES - 1) != 0)
		return -1;
	v = f + sizeof VOLUMES - 1;
	slash = strchr(v, '/');
	if (slash == NULL || slash == v || slash[1] == '\0')
		return -1;
	p->vol = gw_xstrndup(v, (size_t)(slash - v));
	p->rel = slash + 1;
	return 0;
}

/* What the matching works on: both sides sorted by path. */
typedef struct pmatch {
	vref *v;
	size_t nv;
	pref *p;
	size_t np;
	const char **ds;          /* the datastores of the listing, sorted */
	gw_power *power;
	int stray;                /* a running VM matched to none listed */
} pmatch;

static int
known_datastore(const pmatch *m, const char *vol)
{
	return bsearch(&vol, m->ds, m->nv, sizeof *m->ds, cmp_str) != NULL;
}

/* The VMs v[a, b) and the running VMs p[c, d) share one path. */
static void
match_group(pmatch *m, size_t a, size_t b, size_t c, size_t d)
{
	size_t k, j;
	int unsure = 0;

	for (k = c; k < d; k++) {
		const pref *p = &m->p[k];

		if (!known_datastore(m, p->vol)) {
			/* a UUID (or another name of the volume): the path
			 * tells the VM only when one VM has it */
			if (b - a == 1)
				m->power[m->v[a].i] = GW_POWER_ON;
			else
				unsure = 1;
			continue;
		}
		for (j = a; j < b && strcmp(m->v[j].ds, p->vol) != 0; j++)
			;
		if (j < b)
			m->power[m->v[j].i] = GW_POWER_ON;
		else
			m->stray = 1;
	}
	for (j = a; unsure && j < b; j++)
		if (m->power[m->v[j].i] != GW_POWER_ON)
			m->power[m->v[j].i] = GW_POWER_UNKNOWN;
}

/* Merge the two sorted lists path by path. */
static void
match_all(pmatch *m)
{
	size_t a = 0, c = 0;

	while (c < m->np) {
		size_t b, d;
		int cmp = a < m->nv ? strcmp(m->v[a].rel, m->p[c].rel) : 1;

		if (cmp < 0) {
			a++;
			continue;
		}
		for (d = c + 1; d < m->np &&
		     strcmp(m->p[d].rel, m->p[c].rel) == 0; d++)
			;
		if (cmp > 0) {
			m->stray = 1;       /* no listed VM has this path */
			c = d;
			continue;
		}
		for (b = a + 1; b < m->nv && strcmp(m->v[b].rel, m->v[a].rel) == 0;
		     b++)
			;
		match_group(m, a, b, c, d);
		a = b;
		c = d;
	}
}

void
gw_esxi_vms_power(const gw_vm_list *vms,
                  const gw_esxi_vm_proc_list *procs, gw_power *power)
{
	pmatch m = { .power = power };
	size_t i;

	m.v = gw_xcalloc(vms->n ? vms->n : 1, sizeof *m.v);
	m.ds = gw_xcalloc(vms->n ? vms->n : 1, sizeof *m.ds);
	for (i = 0; i < vms->n; i++) {
		power[i] = GW_POWER_OFF;
		m.v[i].rel = vms->vms[i].path ? vms->vms[i].path : "";
		m.v[i].ds = vms->vms[i].datastore ? vms->vms[i].datastore : "";
		m.v[i].i = i;
		m.ds[i] = m.v[i].ds;
	}
	m.nv = vms->n;
	m.p = gw_xcalloc(procs->n ? procs->n : 1, sizeof *m.p);
	for (i = 0; i < procs->n; i++)
		if (split_config(procs->procs[i].config_file, &m.p[m.np]) == 0)
			m.np++;
		else
			m.stray = 1;
	qsort(m.v, m.nv, sizeof *m.v, cmp_vref);
	qsort(m.ds, m.nv, sizeof *m.ds, cmp_str);
	qsort(m.p, m.np, sizeof *m.p, cmp_pref);
	match_all(&m);
	/* a running VM not told apart: none of the others is known off */
	for (i = 0; m.stray && i < vms->n; i++)
		if (power[i] == GW_POWER_OFF)
			power[i] = GW_POWER_UNKNOWN;
	for (i = 0; i < m.np; i++)
		free(m.p[i].vol);
	free(m.p);
	free(m.ds);
	free(m.v);
}
