/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_vms.c: `vim-cmd vmsvc/getallvms` and `vim-cmd vmsvc/power.getstate`
 * (see esxi.h for the formats). */
#include "esxi_int.h"
#include "idset.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- vim-cmd vmsvc/getallvms ------------------------------------------- */

static void
vm_free(gw_vm *v)
{
	free(v->name);
	if (!(v->packed & GW_VM_PACKED)) {
		free(v->file);
		free(v->datastore);
		free(v->path);
		free(v->guest_os);
		free(v->version);
	}
	if (!(v->packed & GW_VM_PACKED_NOTE))
		free(v->annotation);
	memset(v, 0, sizeof *v);
}

void
gw_vm_list_free(gw_vm_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++)
		vm_free(&l->vms[i]);
	free(l->vms);
	free(l->skipped);
	memset(l, 0, sizeof *l);
}

/* "Skipping invalid VM '12'" (quotes optional) -> 12. */
static int
skipping_line(const char *s, unsigned long *id)
{
	static const char pre[] = "Skipping invalid VM ";
	unsigned long long v;
	char num[24];
	size_t n;

	s = esxi_skip_blanks(s);
	if (strncmp(s, pre, sizeof pre - 1) != 0)
		return 0;
	s += sizeof pre - 1;
	if (*s == '\'')
		s++;
	for (n = 0; isdigit((unsigned char)s[n]) && n < sizeof num - 1; n++)
		num[n] = s[n];
	num[n] = '\0';
	s += n;
	if (*s == '\'')
		s++;
	if (*s != '\0' || gw_parse_uint(num, 0xffffffffULL, &v) != 0)
		return 0;
	*id = (unsigned long)v;
	return 1;
}

/* Leading digits followed by a blank: the Vmid.  *rest after the blanks. */
static int
vmid_prefix(const char *s, unsigned long *id, const char **rest)
{
	unsigned long long v;
	char num[24];
	size_t n;

	s = esxi_skip_blanks(s);
	for (n = 0; isdigit((unsigned char)s[n]); n++)
		if (n == sizeof num - 1)
			return -1;
	if (n == 0 || !esxi_is_blank(s[n]))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (gw_parse_uint(num, 0xffffffffULL, &v) != 0)
		return -1;
	*id = (unsigned long)v;
	*rest = esxi_skip_blanks(s + n);
	return 0;
}

static int
ci_prefix(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (tolower((unsigned char)*s) != *word)
			return 0;
	return 1;
}

/* The fixed points of a row after its ".vmx": the guest id and the
 * hardware version, and what follows them (the annotation). */
typedef struct vm_tail {
	const char *g, *v, *after;
	size_t gn, vn;
} vm_tail;

/* At s (just past ".vmx"): blanks, a guest id, blanks, "vmx-NN", then a
 * blank or the end. */
static int
guest_version_at(const char *s, vm_tail *t)
{
	const char *p = s;
	size_t k;

	if (!esxi_is_blank(*p))
		return -1;
	p = esxi_skip_blanks(p);
	k = strcspn(p, " \t");
	if (k == 0)
		return -1;
	t->g = p;
	t->gn = k;
	p = esxi_skip_blanks(p + k);
	if (!ci_prefix(p, "vmx-") || !isdigit((unsigned char)p[4]))
		return -1;
	for (k = 4; isdigit((unsigned char)p[k]); k++)
		;
	if (p[k] != '\0' && !esxi_is_blank(p[k]))
		return -1;
	t->v = p;
	t->vn = k;
	t->after = p + k;
	return 0;
}

/* Is the '[' at c a candidate for the start of the file: after a blank,
 * its ']' followed by a blank and a path before end?  *r gets the ']'. */
static int
file_candidate(const char *c, const char *end, const char **r)
{
	if (*c != '[' || !esxi_is_blank(c[-1]))
		return 0;
	*r = memchr(c, ']', (size_t)(end - c));
	return *r != NULL && *r != c + 1 && *r + 2 < end && (*r)[1] == ' ' &&
	       !esxi_is_blank((*r)[2]);
}

/* Where the file starts in the row text mid..end (end just past ".vmx"):
 * the '[' whose path begins with the name before it and a '/', else the
 * first one after two or more blanks, else the last one; NULL when there
 * is none. */
static const char *
file_start(const char *mid, const char *end)
{
	const char *c, *pick = NULL, *first_gap = NULL, *last = NULL;

	for (c = memchr(mid + 1, '[', (size_t)(end - mid - 1)); c != NULL;
	     c = memchr(c + 1, '[', (size_t)(end - c - 1))) {
		const char *r, *nm_end;
		size_t nlen;

		if (!file_candidate(c, end, &r))
			continue;
		nm_end = c;
		while (nm_end > mid && esxi_is_blank(nm_end[-1]))
			nm_end--;
		if (nm_end == mid)
			continue;
		/* Path "NAME/..." for name mid..nm_end? */
		nlen = (size_t)(nm_end - mid);
		if (pick == NULL && (size_t)(end - (r + 2)) > nlen &&
		    memcmp(r + 2, mid, nlen) == 0 && r[2 + nlen] == '/')
			pick = c;
		if (first_gap == NULL && c - nm_end >= 2)
			first_gap = c;
		last = c;
	}
	if (pick == NULL)
		pick = first_gap ? first_gap : last;
	return pick;
}

/* n bytes of s and a NUL at p; the byte after them. */
static char *
pack(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	p[n] = '\0';
	return p + n + 1;
}

/* One VM row; 0 and *vm filled, or -1. */
static int
vm_row(const char *s, gw_vm *vm)
{
	const char *mid, *q, *end, *pick, *r, *nm_end, *note;
	char *p;
	size_t fl, nl;
	unsigned long id;
	unsigned long long hw;
	vm_tail t;

	if (vmid_prefix(s, &id, &mid) != 0)
		return -1;
	for (q = mid; (q = strchr(q, '.')) != NULL; q++)
		if (ci_prefix(q, ".vmx") && guest_version_at(q + 4, &t) == 0)
			break;
	if (q == NULL)
		return -1;
	end = q + 4;
	pick = file_start(mid, end);
	if (pick == NULL)
		return -1;
	memset(vm, 0, sizeof *vm);
	vm->vmid = id;
	nm_end = pick;
	while (mid < nm_end && esxi_is_blank(*mid))
		mid++;
	while (nm_end > mid && esxi_is_blank(nm_end[-1]))
		nm_end--;
	r = memchr(pick, ']', (size_t)(end - pick));
	/* one allocation for the strings of the row, name first (vm_free) */
	fl = (size_t)(end - pick);
	note = esxi_skip_blanks(t.after);
	nl = strlen(note);
	p = gw_xmalloc((size_t)(nm_end - mid) + 1 + fl + 1 +
	               (size_t)(r - pick - 1) + 1 + (size_t)(end - r - 2) + 1 +
	               t.gn + 1 + t.vn + 1 + nl + 1);
	vm->packed = GW_VM_PACKED | GW_VM_PACKED_NOTE;
	vm->name = p;
	p = pack(p, mid, (size_t)(nm_end - mid));
	vm->file = p;
	p = pack(p, pick, fl);
	vm->datastore = p;
	p = pack(p, pick + 1, (size_t)(r - pick - 1));
	vm->path = p;
	p = pack(p, r + 2, (size_t)(end - r - 2));
	vm->guest_os = p;
	p = pack(p, t.g, t.gn);
	vm->version = p;
	p = pack(p, t.v, t.vn);
	vm->annotation = p;
	pack(p, note, nl);
	if (gw_parse_uint(vm->version + 4, 9999, &hw) == 0)
		vm->hw_version = (int)hw;
	return 0;
}

/* A line that starts like a row (a number, blanks) and mentions ".vmx":
 * a broken row, not annotation text. */
static int
looks_like_row(const char *s)
{
	unsigned long id;
	const char *rest;
	const char *p;

	if (vmid_prefix(s, &id, &rest) != 0)
		return 0;
	for (p = rest; (p = strchr(p, '.')) != NULL; p++)
		if (ci_prefix(p, ".vmx"))
			return 1;
	return 0;
}

static int
getallvms_header(const char *s)
{
	s = esxi_skip_blanks(s);
	return strncmp(s, "Vmid", 4) == 0 && esxi_is_blank(s[4]) &&
	       strstr(s, "Name") && strstr(s, "File") && strstr(s, "Version");
}

/* The parser's state between lines. */
typedef struct vms_parse {
	gw_vm_list *out;
	size_t cap, scap;
	size_t blanks;           /* blank lines since the last line read */
	int header;              /* the header was read */
	gw_idset seen;           /* Vmid -> index in out->vms */
	gw_buf note;             /* the last VM's annotation, while it grows */
	int open;                /* note holds it (and not yet the VM) */
	const char *name;
	gw_err *e;
} vms_parse;

/* The last VM gets its annotation back from note. */
static void
close_note(vms_parse *ps)
{
	gw_vm *last;

	if (!ps->open)
		return;
	last = &ps->out->vms[ps->out->n - 1];
	if (!(last->packed & GW_VM_PACKED_NOTE))
		free(last->annotation);
	last->annotation = gw_buf_steal(&ps->note);
	last->packed &= ~GW_VM_PACKED_NOTE;
	ps->open = 0;
}

static void
add_skipped(vms_parse *ps, unsigned long id)
{
	gw_vm_list *out = ps->out;

	out->skipped = esxi_grow(out->skipped, out->nskipped, &ps->scap,
	                         sizeof *out->skipped, 8);
	out->skipped[out->nskipped++] = id;
}

/* Append vm (taken over) read at line ln. */
static int
add_vm(vms_parse *ps, gw_vm *vm, unsigned ln)
{
	gw_vm_list *out = ps->out;
	const size_t *first;

	close_note(ps);
	if ((first = gw_idset_put(&ps->seen, vm->vmid, out->n)) != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("VM %lu is listed twice (first at line %u)"),
		              vm->vmid, out->vms[*first].line);
		vm_free(vm);
		return -1;
	}
	vm->line = ln;
	out->vms = esxi_grow(out->vms, out->n, &ps->cap, sizeof *out->vms, 16);
	out->vms[out->n++] = *vm;
	return 0;
}

/* The annotation of the last VM goes on with line s (and the blank lines
 * before it): in ps->note, so a long one is not copied again per line. */
static void
add_annotation(vms_parse *ps, const char *s)
{
	gw_vm *last = &ps->out->vms[ps->out->n - 1];

	if (!ps->open) {
		gw_buf_init(&ps->note);
		gw_buf_puts(&ps->note, last->annotation);
		ps->open = 1;
	}
	for (; ps->blanks > 0; ps->blanks--)
		gw_buf_puts(&ps->note, "\n");
	gw_buf_puts(&ps->note, "\n");
	gw_buf_puts(&ps->note, s);
}

/* One non-blank line after the header. */
static int
vms_row_line(vms_parse *ps, const char *s, unsigned ln)
{
	gw_vm vm;
	char ex[64];

	if (vm_row(s, &vm) == 0)
		return add_vm(ps, &vm, ln);
	if (ps->out->n == 0 || looks_like_row(s)) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a VM line (Vmid, Name, [datastore] "
		                "path.vmx, Guest OS, vmx-NN, Annotation), found "
		                "'%s'"), esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	add_annotation(ps, s);
	return 0;
}

/* One line. */
static int
vms_line(void *ctx, const char *s, unsigned ln)
{
	vms_parse *ps = ctx;
	unsigned long skip_id;
	char ex[64];
	int rc = 0;

	if (*s == '\0') {
		ps->blanks++;
		return 0;
	}
	if (skipping_line(s, &skip_id))
		add_skipped(ps, skip_id);
	else if (ps->header)
		rc = vms_row_line(ps, s, ln);
	else if (getallvms_header(s))
		ps->header = 1;
	else {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected the header 'Vmid Name File Guest OS "
		                "Version Annotation' of %s, found '%s'"),
		              CMD_GETALLVMS, esxi_excerpt(s, ex, sizeof ex));
		rc = -1;
	}
	ps->blanks = 0;
	return rc;
}

static int
getallvms_src(const esxi_src *src, const char *name, gw_vm_list *out,
              gw_err *e)
{
	vms_parse ps = { .out = out, .name = name, .e = e };
	int rc;

	memset(out, 0, sizeof *out);
	gw_idset_init(&ps.seen);
	/* a VM's name (and so its folder and annotation) may hold any
	 * control: kept, and escaped where it is shown */
	rc = esxi_src_each_line(src, name, CMD_GETALLVMS, 1, vms_line, &ps, e);
	close_note(&ps);
	gw_idset_free(&ps.seen);
	if (rc != 0)
		goto fail;
	if (!ps.header) {
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), CMD_GETALLVMS);
		goto fail;
	}
	/* kept until the caller is done: no room to spare */
	if (out->n > 0)
		out->vms = gw_xrealloc(out->vms, out->n * sizeof *out->vms);
	return 0;
fail:
	gw_vm_list_free(out);
	return -1;
}

int
gw_esxi_parse_getallvms(const char *text, const char *name,
                        gw_vm_list *out, gw_err *e)
{
	esxi_src src = { .text = text };

	return getallvms_src(&src, name, out, e);
}

int
gw_esxi_parse_getallvms_from(gw_esxi_produce *produce, void *pctx,
                             const char *name, gw_vm_list *out, gw_err *e)
{
	esxi_src src = { .produce = produce, .pctx = pctx };

	return getallvms_src(&src, name, out, e);
}

/* ---- vim-cmd vmsvc/power.getstate -------------------------------------- */

const char *
gw_power_id(gw_power p)
{
	switch (p) {
	case GW_POWER_ON:
		return "on";
	case GW_POWER_OFF:
		return "off";
	case GW_POWER_SUSPENDED:
		return "suspended";
	default:
		return "unknown";
	}
}

/* A state line as vim-cmd prints it, else GW_POWER_UNKNOWN. */
static gw_power
power_word(const char *s)
{
	if (gw_strieq(s, "Powered on"))
		return GW_POWER_ON;
	if (gw_strieq(s, "Powered off"))
		return GW_POWER_OFF;
	if (gw_strieq(s, "Suspended"))
		return GW_POWER_SUSPENDED;
	return GW_POWER_UNKNOWN;
}

/* The parser's state. */
typedef struct power_parse {
	gw_power st;        /* the state line read, UNKNOWN before */
	unsigned at;             /* its line */
	const char *name;
	gw_err *e;
} power_parse;

/* One line. */
static int
power_line(void *ctx, const char *line, unsigned ln)
{
	power_parse *ps = ctx;
	const char *s = esxi_skip_blanks(line);
	gw_power now;
	char ex[64];

	if (*s == '\0' || gw_strieq(s, "Retrieved runtime info"))
		return 0;
	now = power_word(s);
	if (now == GW_POWER_UNKNOWN) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a power state (Powered on, Powered off "
		                "or Suspended) as %s prints it, found '%s'"),
		              CMD_POWER, esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	if (ps->st != GW_POWER_UNKNOWN) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("a second power state '%s' (the first is on line "
		                "%u)"), s, ps->at);
		return -1;
	}
	ps->st = now;
	ps->at = ln;
	return 0;
}

int
gw_esxi_parse_power_state(const char *text, const char *name,
                          gw_power *out, gw_err *e)
{
	power_parse ps = { .st = GW_POWER_UNKNOWN, .name = name, .e = e };

	*out = GW_POWER_UNKNOWN;
	if (esxi_each_line(text, name, CMD_POWER, power_line, &ps, e) != 0)
		return -1;
	if (ps.st == GW_POWER_UNKNOWN) {
		esxi_err_input(e, name, _("no power state in it; expected the "
		                          "output of %s"), CMD_POWER);
		return -1;
	}
	*out = ps.st;
	return 0;
}
