/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply_desc.c: a write described before it runs (apply.h). */
#include "apply.h"

#include <stdlib.h>
#include <string.h>

size_t
gw_write_desc_add(gw_write_desc *d, gw_write_kind kind, const char *what,
                  const char *command)
{
	gw_write_step *s;

	d->v = gw_xrealloc(d->v, (d->n + 1) * sizeof *d->v);
	s = &d->v[d->n];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->what = gw_xstrdup(what ? what : "");
	s->command = command ? gw_xstrdup(command) : NULL;
	return d->n++;
}

/* "OP key = \"value\"", put together without a format */
static void
push_line(gw_write_step *s, char op, const char *key, const char *value)
{
	size_t kl = strlen(key), vl = strlen(value);
	char *t = gw_xmalloc(kl + vl + 8), *p = t;

	*p++ = op;
	*p++ = ' ';
	memcpy(p, key, kl);
	p += kl;
	memcpy(p, " = \"", 4);
	p += 4;
	memcpy(p, value, vl);
	p += vl;
	*p++ = '"';
	*p = '\0';
	s->lines = gw_xrealloc(s->lines, (s->nlines + 1) * sizeof *s->lines);
	s->lines[s->nlines++] = t;
}

void
gw_write_desc_vmx_lines(gw_write_desc *d, size_t k, const gw_vmx *before,
                        const gw_vmx *after)
{
	gw_write_step *s = &d->v[k];
	size_t i, j, nb = before ? gw_vmx_count(before) : 0;
	size_t na = after ? gw_vmx_count(after) : 0;

	for (i = 0; i < na; i++) {
		const char *key, *val, *old;

		/* the same entries in the same places (a plan edits in
		 * place and appends): unchanged, without a lookup */
		if (i < nb && (j = gw_vmx_next_changed(before, after, i, 0)) > i) {
			i = j - 1;
			continue;
		}
		key = gw_vmx_key_at(after, i);
		val = gw_vmx_value_at(after, i);
		/* an entry the file had already (a duplicate key keeps its
		 * own value) */
		if (before && gw_vmx_has_pair(before, key, val))
			continue;
		old = before ? gw_vmx_get(before, key) : NULL;
		if (old)
			push_line(s, '-', key, old);
		push_line(s, '+', key, val);
	}
	for (i = 0; i < nb; i++) {
		const char *key;

		/* still there, in their places */
		if ((j = gw_vmx_next_changed(before, after, i, 1)) > i) {
			i = j - 1;
			continue;
		}
		key = gw_vmx_key_at(before, i);
		if (after == NULL || gw_vmx_get(after, key) == NULL)
			push_line(s, '-', key, gw_vmx_value_at(before, i));
	}
}

void
gw_write_desc_free(gw_write_desc *d)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].what);
		free(d->v[i].command);
		for (k = 0; k < d->v[i].nlines; k++)
			free(d->v[i].lines[k]);
		free(d->v[i].lines);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
}
