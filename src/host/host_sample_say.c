/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_sample_say.c: what a command on a sample host says names the
 * sample host's own paths, never its scratch copy (doc/design.md, section 4.3).
 *
 * A command (gpuwiz check, vmx --vm ... --sample-host NAME) removes the
 * scratch copy when it ends, so a path into it would point at nothing: a
 * Linux sample's SCRATCH/root/sys/... is said as /sys/... (as on that
 * host), an ESXi sample's SCRATCH/volumes/... as /vmfs/volumes/..., and
 * anything else under SCRATCH as "NAME (sample)".  The wizard keeps the
 * copy and shows it (keep_scratch): it is left as it is.  The back end's
 * methods are wrapped, so that every probe row, error and written path
 * goes through one rewrite. */
#include "host_sample_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prefix -> what is said instead, longest first */
struct say_map {
	const char *from[3];
	const char *to[3];
	char *label;
};

static void
say_map_init(struct say_map *m, const gw_sample *s)
{
	size_t i = 0;

	memset(m, 0, sizeof *m);
	if (s->sysroot) {
		m->from[i] = s->sysroot;
		m->to[i++] = "";
	}
	if (s->volumes) {
		m->from[i] = s->volumes;
		m->to[i++] = "/vmfs/volumes";
	}
	m->label = gw_sample_label(s);
	m->from[i] = s->scratch;
	m->to[i] = m->label;
}

/* s with every prefix of m replaced (malloc'ed). */
static char *
say_text(const struct say_map *m, const char *s)
{
	gw_buf b;
	size_t i;

	gw_buf_init(&b);
	while (*s) {
		for (i = 0; i < 3 && m->from[i]; i++) {
			size_t n = strlen(m->from[i]);

			if (n > 0 && strncmp(s, m->from[i], n) == 0)
				break;
		}
		if (i < 3 && m->from[i]) {
			const char *to = m->to[i];

			/* the root itself is "/" */
			gw_buf_puts(&b, *to == '\0' && s[strlen(m->from[i])] != '/' ?
			            "/" : to);
			s += strlen(m->from[i]);
			continue;
		}
		gw_buf_add(&b, s, 1);
		s++;
	}
	gw_buf_puts(&b, "");
	return gw_buf_steal(&b);
}

static void
say_str(const struct say_map *m, char **s)
{
	char *t;

	if (*s == NULL)
		return;
	t = say_text(m, *s);
	free(*s);
	*s = t;
}

static void
say_err(const struct say_map *m, gw_err *e)
{
	char *t;

	if (e == NULL)
		return;
	t = say_text(m, e->msg);
	snprintf(e->msg, sizeof e->msg, "%s", t);
	free(t);
	t = say_text(m, e->ui);
	snprintf(e->ui, sizeof e->ui, "%s", t);
	free(t);
}

/* The back end under the wrapper. */
static const gw_host_methods *
base(const gw_host *h)
{
	return h->runner ? &gw_host_esxi_methods : &gw_host_linux_methods;
}

static int
say_probe(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	struct say_map m;
	size_t i;
	int rc = base(h)->probe(h, t, p);

	say_map_init(&m, &h->smp);
	for (i = 0; i < p->nchecks; i++) {
		say_str(&m, &p->checks[i].title);
		say_str(&m, &p->checks[i].message);
		say_str(&m, &p->checks[i].fix);
		say_str(&m, &p->checks[i].fix_ui);
	}
	say_str(&m, &p->checks_error);
	say_str(&m, &p->gpus_error);
	say_str(&m, &p->vms_error);
	free(m.label);
	return rc;
}

/* The .vmx named as on the host in what the plan says of it: the same
 * bytes parsed again under that name (parse and serialize round-trip). */
static void
say_vmx_name(gw_vmx **v, const char *name)
{
	gw_vmx *nv;
	gw_err e;
	size_t len;
	char *text = gw_vmx_serialize(*v, &len);

	if (gw_vmx_parse(&nv, text, len, name, &e) == 0) {
		gw_vmx_free(*v);
		*v = nv;
	}
	free(text);
}

static int
say_read_vmx(gw_host *h, const gw_vm *vm, gw_vmx **out, char **where,
             char **release, gw_err *e)
{
	struct say_map m;
	int rc = base(h)->read_vmx(h, vm, out, where, release, e);

	/* said as on the host; say_write_vmx turns it back */
	say_map_init(&m, &h->smp);
	if (rc != 0)
		say_err(&m, e);
	say_str(&m, where);
	if (rc == 0 && *out != NULL)
		say_vmx_name(out, *where);
	free(m.label);
	return rc;
}

/* The scratch copy's path of a .vmx said as /vmfs/volumes/... (malloc'ed),
 * or NULL when where is not one. */
static char *
real_path(const gw_host *h, const char *where)
{
	if (h->smp.volumes && strncmp(where, "/vmfs/volumes/", 14) == 0)
		return gw_xasprintf("%s/%s", h->smp.volumes, where + 14);
	return NULL;
}

static int
say_write_vmx(gw_host *h, const gw_vm *vm, const char *where,
              const gw_plan *p, const gw_vmx *before, const gw_vmx *after,
              const char *taken, int force, gw_host_write *res, gw_err *e)
{
	struct say_map m;
	char *real = real_path(h, where);
	char *real_taken = taken ? real_path(h, taken) : NULL;
	int rc;

	rc = base(h)->write_vmx(h, vm, real ? real : where, p, before, after,
	                        real_taken ? real_taken : taken, force, res, e);
	free(real);
	free(real_taken);
	say_map_init(&m, &h->smp);
	if (rc != 0)
		say_err(&m, e);
	say_str(&m, &res->where);
	say_str(&m, &res->backup);
	free(m.label);
	return rc;
}

static int
say_backup_vmx(gw_host *h, const char *where, char **backup, gw_err *e)
{
	struct say_map m;
	char *real = real_path(h, where);
	int rc;

	rc = base(h)->backup_vmx(h, real ? real : where, backup, e);
	free(real);
	say_map_init(&m, &h->smp);
	if (rc != 0)
		say_err(&m, e);
	say_str(&m, backup);
	free(m.label);
	return rc;
}

/* A VM's key is its .vmx path: said as read_vmx says it, so that the two
 * still match (the session finds its VM again by it). */
static int
say_vm_key(gw_host *h, const gw_vm *vm, char **key, gw_err *e)
{
	struct say_map m;
	int rc = base(h)->vm_key(h, vm, key, e);

	say_map_init(&m, &h->smp);
	if (rc != 0)
		say_err(&m, e);
	else
		say_str(&m, key);
	free(m.label);
	return rc;
}

static gw_host_methods say_linux, say_esxi;

void
gw_host_sample_say(gw_host *h)
{
	gw_host_methods *m = h->runner ? &say_esxi : &say_linux;

	*m = *base(h);
	m->probe = say_probe;
	if (m->read_vmx)
		m->read_vmx = say_read_vmx;
	if (m->write_vmx)
		m->write_vmx = say_write_vmx;
	if (m->backup_vmx)
		m->backup_vmx = say_backup_vmx;
	if (m->vm_key)
		m->vm_key = say_vm_key;
	h->m = m;
}
