/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_procs.c: `esxcli vm process list` (the running VMs, see esxi.h for
 * the format) and the power state of getallvms' VMs read from it in one
 * go (doc/design.md, section 15.6). */
#include "esxi_int.h"

#include <stdint.h>
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
		if (*s != keys[i].key[0])
			continue;
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

/* A hash of the n bytes at s, eight at a time. */
static uint64_t
str_key(const char *s, size_t n)
{
	const uint64_t m = 0xff51afd7ed558ccdULL;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * m;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * m;
	return h ^ h >> 29;
}

/* Strings by hash: for each bucket the last element added, each element
 * chained to the one added before it in its bucket (keys that differ
 * share buckets: the callers compare the strings).  Eight to twelve bytes
 * an element. */
typedef struct strtab {
	uint32_t *head, *next;
	size_t mask;
} strtab;

/* No element: the end of a chain. */
#define NO_VM ((size_t)UINT32_MAX)

/* Room for n elements, numbered 0 to n - 1. */
static void
strtab_init(strtab *t, size_t n)
{
	size_t cap = 16;

	while (cap < n)
		cap *= 2;
	t->mask = cap - 1;
	t->head = gw_xmalloc(cap * sizeof *t->head);
	memset(t->head, 0xff, cap * sizeof *t->head);
	t->next = gw_xcalloc(n ? n : 1, sizeof *t->next);
}

static void
strtab_free(strtab *t)
{
	free(t->head);
	free(t->next);
}

/* Element i has the string key. */
static void
strtab_add(strtab *t, const char *key, size_t i)
{
	size_t h = (size_t)str_key(key, strlen(key)) & t->mask;

	t->next[i] = t->head[h];
	t->head[h] = (uint32_t)i;
}

/* The first element of the chain that holds those with key (n bytes at
 * key), or NO_VM; strtab_next gives the next one. */
static size_t
strtab_first(const strtab *t, const char *key, size_t n)
{
	return t->head[(size_t)str_key(key, n) & t->mask];
}

static size_t
strtab_next(const strtab *t, size_t i)
{
	return t->next[i];
}

/* A VM listed twice (the same Config File), through a hash set of the
 * files: linear however long the list.  Of the files listed twice, the
 * first in byte order is named, at its second block. */
static int
check_twice(const gw_esxi_vm_proc_list *l, const char *name, gw_err *e)
{
	strtab seen;
	size_t i, dup = NO_VM, first = NO_VM;
	char ex[64];

	if (l->n < 2)
		return 0;
	strtab_init(&seen, l->n);
	for (i = 0; i < l->n; i++) {
		const char *f = l->procs[i].config_file;
		size_t j, before = 0, first_j = NO_VM;

		for (j = strtab_first(&seen, f, strlen(f)); j != NO_VM;
		     j = strtab_next(&seen, j))
			if (strcmp(l->procs[j].config_file, f) == 0) {
				before++;
				if (first_j == NO_VM || j < first_j)
					first_j = j;
			}
		strtab_add(&seen, f, i);
		if (before == 1 && (dup == NO_VM ||
		                    strcmp(f, l->procs[dup].config_file) < 0)) {
			dup = i;
			first = first_j;
		}
	}
	strtab_free(&seen);
	if (dup == NO_VM)
		return 0;
	esxi_err_line(e, name, l->procs[dup].line,
	              _("VM '%s' is listed twice (first at line %u)"),
	              esxi_excerpt(l->procs[dup].name, ex, sizeof ex),
	              l->procs[first].line);
	return -1;
}

static int
procs_src(const esxi_src *src, const char *name, gw_esxi_vm_proc_list *out,
          gw_err *e)
{
	procs_parse ps = { .out = out, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	if (esxi_src_each_line(src, name, CMD_PROCS, 0, procs_line, &ps, e)
	    != 0 || close_block(&ps) != 0 || check_twice(out, name, e) != 0) {
		gw_esxi_vm_proc_list_free(out);
		return -1;
	}
	return 0;
}

int
gw_esxi_parse_vm_processes(const char *text, const char *name,
                           gw_esxi_vm_proc_list *out, gw_err *e)
{
	/* no VM running: esxcli prints nothing at all */
	esxi_src src = { .text = text, .empty_ok = 1 };

	return procs_src(&src, name, out, e);
}

int
gw_esxi_parse_vm_processes_from(gw_esxi_produce *produce, void *pctx,
                                const char *name,
                                gw_esxi_vm_proc_list *out, gw_err *e)
{
	esxi_src src = { .produce = produce, .pctx = pctx, .empty_ok = 1 };

	return procs_src(&src, name, out, e);
}

/* ---- power states of getallvms' VMs ------------------------------------ */

/* The listed VMs by their path in the datastore and by datastore, so
 * that each running VM is matched in constant time. */
typedef struct vindex {
	const gw_vm_list *vms;
	strtab by_rel, by_ds;
} vindex;

static const char *
vm_rel(const gw_vm *v)
{
	return v->path ? v->path : "";
}

static const char *
vm_ds(const gw_vm *v)
{
	return v->datastore ? v->datastore : "";
}

/* Is the n bytes at vol the name of a listed VM's datastore? */
static int
known_datastore(const vindex *x, const char *vol, size_t n)
{
	size_t j;

	for (j = strtab_first(&x->by_ds, vol, n); j != NO_VM;
	     j = strtab_next(&x->by_ds, j))
		if (strncmp(vm_ds(&x->vms->vms[j]), vol, n) == 0 &&
		    vm_ds(&x->vms->vms[j])[n] == '\0')
			return 1;
	return 0;
}

/* One running VM's Config File, "/vmfs/volumes/VOL/REL" (VOL a
 * datastore's name or its UUID, the usual form), against the listed VMs
 * with path REL: ON when one of them is on datastore VOL, or VOL is
 * another name of a volume and only one VM has that path; when several
 * have it, *unsure gets the first of them.  0, or -1 (a stray) when no
 * listed VM has that path or the Config File is not of that form. */
static int
match_proc(const vindex *x, const char *f, gw_power *power, size_t *unsure)
{
	const char *v, *slash, *rel;
	size_t vn, j, on = NO_VM, first = NO_VM, count = 0;
	int known;

	if (strncmp(f, VOLUMES, sizeof VOLUMES - 1) != 0)
		return -1;
	v = f + sizeof VOLUMES - 1;
	slash = strchr(v, '/');
	if (slash == NULL || slash == v || slash[1] == '\0')
		return -1;
	vn = (size_t)(slash - v);
	rel = slash + 1;
	known = known_datastore(x, v, vn);
	for (j = strtab_first(&x->by_rel, rel, strlen(rel)); j != NO_VM;
	     j = strtab_next(&x->by_rel, j)) {
		const gw_vm *vm = &x->vms->vms[j];

		if (strcmp(vm_rel(vm), rel) != 0)
			continue;
		count++;
		if (first == NO_VM || j < first)
			first = j;
		if (known && strncmp(vm_ds(vm), v, vn) == 0 &&
		    vm_ds(vm)[vn] == '\0' && (on == NO_VM || j < on))
			on = j;
	}
	if (count == 0)
		return -1;
	if (!known && count == 1)
		power[first] = GW_POWER_ON;
	else if (!known)
		*unsure = first;
	else if (on != NO_VM)
		power[on] = GW_POWER_ON;
	else
		return -1;
	return 0;
}

void
gw_esxi_vms_power(const gw_vm_list *vms,
                  const gw_esxi_vm_proc_list *procs, gw_power *power)
{
	vindex x = { .vms = vms };
	size_t i, j, *unsure, nunsure = 0;
	int stray = 0;

	strtab_init(&x.by_rel, vms->n);
	strtab_init(&x.by_ds, vms->n);
	unsure = gw_xcalloc(procs->n ? procs->n : 1, sizeof *unsure);
	for (i = 0; i < vms->n; i++) {
		power[i] = GW_POWER_OFF;
		strtab_add(&x.by_rel, vm_rel(&vms->vms[i]), i);
		/* known_datastore asks whether a name is there: the VMs of a
		 * listing mostly share a few, in runs */
		if (i == 0 || strcmp(vm_ds(&vms->vms[i]),
		                     vm_ds(&vms->vms[i - 1])) != 0)
			strtab_add(&x.by_ds, vm_ds(&vms->vms[i]), i);
	}
	for (i = 0; i < procs->n; i++) {
		size_t u = NO_VM;

		if (match_proc(&x, procs->procs[i].config_file, power, &u) != 0)
			stray = 1;
		else if (u != NO_VM)
			unsure[nunsure++] = u;
	}
	/* VMs sharing a path that a running VM on a volume of another name
	 * has: those not known ON are not known off */
	for (i = 0; i < nunsure; i++) {
		const char *rel = vm_rel(&vms->vms[unsure[i]]);

		for (j = strtab_first(&x.by_rel, rel, strlen(rel)); j != NO_VM;
		     j = strtab_next(&x.by_rel, j))
			if (power[j] != GW_POWER_ON &&
			    strcmp(vm_rel(&vms->vms[j]), rel) == 0)
				power[j] = GW_POWER_UNKNOWN;
	}
	/* a running VM not told apart: none of the others is known off */
	for (i = 0; stray && i < vms->n; i++)
		if (power[i] == GW_POWER_OFF)
			power[i] = GW_POWER_UNKNOWN;
	free(unsure);
	strtab_free(&x.by_rel);
	strtab_free(&x.by_ds);
}
