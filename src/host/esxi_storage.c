/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_storage.c: `esxcli storage core path list` and `esxcli storage core
 * device list` (see esxi.h for the format of their blocks). */
#include "esxi_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define EX_PATH   "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130"
#define EX_DEVICE "naa.600508b1001cf76cb54a0dec4acc6459"

/* Length of the key when s (blanks skipped) is a "Key: Value" line: a
 * letter, then letters, digits, blanks and / ( ) -, then ':' and a blank
 * or the end.  0 otherwise (a storage name such as
 * "mpx.vmhba32:C0:T0:L0" or "fc.5001…:5001…-naa.…" is not a field). */
static size_t
field_key(const char *s)
{
	size_t k;

	if (!isalpha((unsigned char)s[0]))
		return 0;
	for (k = 0; s[k] && s[k] != ':'; k++) {
		unsigned char c = (unsigned char)s[k];

		if (!isalnum(c) && c != ' ' && c != '\t' && c != '/' &&
		    c != '(' && c != ')' && c != '-')
			return 0;
	}
	if (s[k] != ':' || (s[k + 1] != '\0' && !esxi_is_blank(s[k + 1])))
		return 0;
	return k;
}

/* A storage name: lower-case letters or digits, a dot, then no blank. */
static int
storage_name(const char *s)
{
	size_t k = 0;

	while (islower((unsigned char)s[k]) || isdigit((unsigned char)s[k]))
		k++;
	if (k == 0 || s[k] != '.' || s[k + 1] == '\0')
		return 0;
	for (; s[k]; k++)
		if (esxi_is_blank(s[k]))
			return 0;
	return 1;
}

/* Value of a field of a path or device block by key (case-insensitive),
 * NULL when absent. */
static const char *
storage_field(const gw_esxi_field *fields, size_t n, const char *key)
{
	const gw_esxi_field *f = fields && key ? esxi_find_field(fields, n, key)
	                                       : NULL;

	return f ? f->value : NULL;
}

typedef struct sblock {
	unsigned line;
	char *name;
	gw_esxi_field *fields;
	size_t nfields;
} sblock;

static void
sblocks_free(sblock *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(b[i].name);
		esxi_fields_free(b[i].fields, b[i].nfields);
	}
	free(b);
}

/* The splitter's state between lines. */
typedef struct sblocks {
	sblock *v;
	size_t n, cap;
	size_t fcap;             /* of the open block's fields */
	const char *name, *cmd, *example;
	gw_err *e;
} sblocks;

/* Line s (a storage name) opens a block. */
static int
sblock_open(sblocks *sb, const char *s, unsigned ln)
{
	sblock *cur;
	char ex[64];
	size_t j;

	for (j = 0; j < sb->n; j++)
		if (strcmp(sb->v[j].name, s) == 0) {
			esxi_err_line(sb->e, sb->name, ln,
			              _("%s is listed twice (first at line %u)"),
			              esxi_excerpt(s, ex, sizeof ex), sb->v[j].line);
			return -1;
		}
	sb->v = esxi_grow(sb->v, sb->n, &sb->cap, sizeof *sb->v, 16);
	cur = &sb->v[sb->n++];
	memset(cur, 0, sizeof *cur);
	cur->line = ln;
	cur->name = gw_xstrdup(s);
	sb->fcap = 0;
	return 0;
}

/* Line s, a field whose key is k bytes long, of the open block. */
static int
sblock_field(sblocks *sb, const char *s, size_t k, unsigned ln)
{
	sblock *cur = &sb->v[sb->n - 1];
	const gw_esxi_field *dup;
	char *key = gw_trim(gw_xstrndup(s, k)), ex[64];

	dup = esxi_find_field(cur->fields, cur->nfields, key);
	if (dup != NULL) {
		esxi_err_line(sb->e, sb->name, ln,
		              _("'%s' is printed twice in the block of %s (first "
		                "at line %u)"), key,
		              esxi_excerpt(cur->name, ex, sizeof ex), dup->line);
		free(key);
		return -1;
	}
	esxi_field_add(&cur->fields, &cur->nfields, &sb->fcap, key, s + k + 1,
	               ln);
	return 0;
}

/* One line. */
static int
sblock_line(void *ctx, const char *line, unsigned ln)
{
	sblocks *sb = ctx;
	const char *s = esxi_skip_blanks(line);
	size_t k = field_key(s);
	char ex[64];

	if (*s == '\0')
		return 0;
	if (k == 0 && storage_name(s))
		return sblock_open(sb, s, ln);
	if (k != 0 && sb->n > 0)
		return sblock_field(sb, s, k, ln);
	esxi_err_line(sb->e, sb->name, ln,
	              _("expected a storage name such as %s opening a block, "
	                "found '%s'; is this the output of %s?"), sb->example,
	              esxi_excerpt(s, ex, sizeof ex), sb->cmd);
	return -1;
}

/* Split the blocks of cmd's output (see esxi.h).  example names the kind
 * of line that opens a block, for errors. */
static int
parse_sblocks(const char *text, const char *name, const char *cmd,
              const char *example, sblock **out, size_t *nout, gw_err *e)
{
	sblocks sb = { .name = name, .cmd = cmd, .example = example, .e = e };

	*out = NULL;
	*nout = 0;
	if (esxi_each_line(text, name, cmd, sblock_line, &sb, e) != 0)
		goto fail;
	if (sb.n == 0) {
		esxi_err_input(e, name, _("no block in it; expected the output "
		                          "of %s"), cmd);
		goto fail;
	}
	*out = sb.v;
	*nout = sb.n;
	return 0;
fail:
	sblocks_free(sb.v, sb.n);
	return -1;
}

/* Move block b's name and fields to the output's fields (b is left
 * empty). */
static void
sblock_take(sblock *b, unsigned *line, char **name, gw_esxi_field **fields,
            size_t *nfields)
{
	*line = b->line;
	*name = b->name;
	*fields = b->fields;
	*nfields = b->nfields;
	b->name = NULL;
	b->fields = NULL;
	b->nfields = 0;
}

/* ---- esxcli storage core path list ------------------------------------- */

void
gw_esxi_storage_path_list_free(gw_esxi_storage_path_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->paths[i].name);
		esxi_fields_free(l->paths[i].fields, l->paths[i].nfields);
	}
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

/* The path's adapter: its Adapter field, else Runtime Name up to its
 * first ':'. */
static int
path_adapter(gw_esxi_storage_path *p, const char *name, gw_err *e)
{
	const gw_esxi_field *ad, *rt, *f;
	const char *a;
	size_t len;
	char ex[64];

	ad = esxi_find_field(p->fields, p->nfields, "Adapter");
	rt = esxi_find_field(p->fields, p->nfields, "Runtime Name");
	if (ad == NULL && rt == NULL) {
		esxi_err_line(e, name, p->line,
		              _("the block of path %s has neither an 'Adapter' "
		                "nor a 'Runtime Name' line; expected the full "
		                "output of %s"),
		              esxi_excerpt(p->name, ex, sizeof ex), CMD_PATHS);
		return -1;
	}
	f = ad ? ad : rt;
	a = f->value;
	len = ad ? strlen(a) : strcspn(a, ":");
	if (len == 0 || len >= sizeof p->adapter || strcspn(a, " \t") < len) {
		esxi_err_line(e, name, f->line,
		              _("%s: '%s' does not name a storage adapter "
		                "(expected e.g. vmhba0)"), f->key, f->value);
		return -1;
	}
	memcpy(p->adapter, a, len);
	p->adapter[len] = '\0';
	return 0;
}

/* Fill the typed fields of path p. */
static int
finish_path(gw_esxi_storage_path *p, const char *name, gw_err *e)
{
	char ex[64];

	p->device = storage_field(p->fields, p->nfields, "Device");
	p->runtime_name = storage_field(p->fields, p->nfields,
	                                "Runtime Name");
	p->state = storage_field(p->fields, p->nfields, "State");
	if (p->device == NULL || p->device[0] == '\0' ||
	    strpbrk(p->device, " \t")) {
		esxi_err_line(e, name, p->line,
		              _("the block of path %s has no device name (a "
		                "'Device' line); expected the full output of %s"),
		              esxi_excerpt(p->name, ex, sizeof ex), CMD_PATHS);
		return -1;
	}
	return path_adapter(p, name, e);
}

int
gw_esxi_parse_storage_paths(const char *text, const char *name,
                            gw_esxi_storage_path_list *out, gw_err *e)
{
	sblock *b;
	size_t n, i;

	memset(out, 0, sizeof *out);
	if (parse_sblocks(text, name, CMD_PATHS, EX_PATH, &b, &n, e) != 0)
		return -1;
	out->paths = gw_xcalloc(n, sizeof *out->paths);
	for (i = 0; i < n; i++) {
		gw_esxi_storage_path *p = &out->paths[i];

		/* ownership moves to out, block by block */
		sblock_take(&b[i], &p->line, &p->name, &p->fields, &p->nfields);
		out->n = i + 1;
		if (finish_path(p, name, e) != 0)
			goto fail;
	}
	sblocks_free(b, n);
	return 0;
fail:
	sblocks_free(b, n);
	gw_esxi_storage_path_list_free(out);
	return -1;
}

/* ---- esxcli storage core device list ----------------------------------- */

void
gw_esxi_storage_dev_list_free(gw_esxi_storage_dev_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->devs[i].name);
		esxi_fields_free(l->devs[i].fields, l->devs[i].nfields);
	}
	free(l->devs);
	l->devs = NULL;
	l->n = 0;
}

/* An optional true/false field: 1, 0, -1 when absent; -2 (e set) when
 * it is something else. */
static int
opt_bool(const gw_esxi_field *f, size_t n, const char *key, const char *name,
         gw_err *e)
{
	const gw_esxi_field *x = esxi_find_field(f, n, key);
	int v;

	if (x == NULL)
		return -1;
	if (esxi_parse_bool(x->value, &v) != 0) {
		esxi_err_line(e, name, x->line, _("%s: '%s' is not true or false"),
		              x->key, x->value);
		return -2;
	}
	return v;
}

/* Fill the typed fields of device d. */
static int
finish_storage_dev(gw_esxi_storage_dev *d, const char *name, gw_err *e)
{
	char ex[64];

	d->display_name = storage_field(d->fields, d->nfields,
	                                "Display Name");
	if (d->display_name == NULL) {
		esxi_err_line(e, name, d->line,
		              _("the block of device %s has no '%s' line; "
		                "expected the full output of %s"),
		              esxi_excerpt(d->name, ex, sizeof ex), "Display Name",
		              CMD_DEVICES);
		return -1;
	}
	d->is_boot = opt_bool(d->fields, d->nfields, "Is Boot Device", name, e);
	d->is_local = d->is_boot == -2 ? -2
	            : opt_bool(d->fields, d->nfields, "Is Local", name, e);
	return d->is_boot == -2 || d->is_local == -2 ? -1 : 0;
}

int
gw_esxi_parse_storage_devices(const char *text, const char *name,
                              gw_esxi_storage_dev_list *out, gw_err *e)
{
	sblock *b;
	size_t n, i;

	memset(out, 0, sizeof *out);
	if (parse_sblocks(text, name, CMD_DEVICES, EX_DEVICE, &b, &n, e) != 0)
		return -1;
	out->devs = gw_xcalloc(n, sizeof *out->devs);
	for (i = 0; i < n; i++) {
		gw_esxi_storage_dev *d = &out->devs[i];

		sblock_take(&b[i], &d->line, &d->name, &d->fields, &d->nfields);
		out->n = i + 1;
		if (finish_storage_dev(d, name, e) != 0)
			goto fail;
	}
	sblocks_free(b, n);
	return 0;
fail:
	sblocks_free(b, n);
	gw_esxi_storage_dev_list_free(out);
	return -1;
}

const gw_esxi_storage_dev *
gw_esxi_storage_dev_find(const gw_esxi_storage_dev_list *l, const char *name)
{
	size_t i;

	if (l == NULL || name == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->devs[i].name, name) == 0)
			return &l->devs[i];
	return NULL;
}
