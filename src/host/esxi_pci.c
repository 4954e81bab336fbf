/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_pci.c: `esxcli hardware pci list` (see esxi.h for the format). */
#include "esxi_int.h"
#include "idset.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void
dev_free(gw_esxi_pci_dev *d)
{
	esxi_fields_free(d->fields, d->nfields);
	memset(d, 0, sizeof *d);
}

void
gw_esxi_pci_list_free(gw_esxi_pci_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++)
		dev_free(&l->devs[i]);
	free(l->devs);
	l->devs = NULL;
	l->n = 0;
}

const char *
gw_esxi_pci_field(const gw_esxi_pci_dev *d, const char *key)
{
	const gw_esxi_field *f = d && key ? esxi_find_field(d->fields,
	                                                    d->nfields, key)
	                                  : NULL;

	return f ? f->value : NULL;
}

/* The parser's state between lines.  The open block's fields live in
 * slots reused from one block to the next, found by a hash of their key,
 * so reading a block allocates nothing once the slots have grown; a block
 * is copied out (dev_keep) only when the caller keeps it. */
typedef struct pci_slot {
	char *key, *value;
	size_t kcap, vcap;
} pci_slot;

typedef struct pci_parse {
	gw_esxi_pci_list *out;
	size_t cap;              /* of out->devs */
	gw_esxi_pci_keep *keep;  /* NULL: every block */
	const void *kctx;        /* keep's */
	gw_esxi_pci_dev cur;     /* the open block, fields in slots */
	int open;                /* cur holds a block */
	size_t blocks;           /* blocks read */
	size_t fcap;             /* of cur.fields */
	pci_slot *slots;         /* fcap of them */
	unsigned *hash;          /* field index + 1 by key hash; 0: free */
	size_t hcap;             /* a power of two */
	gw_idset seen;           /* packed address -> line of its block */
	const char *name;
	gw_err *e;
} pci_parse;

static size_t
key_hash(const char *k)
{
	size_t h = 5381;

	for (; *k; k++) {
		unsigned char c = (unsigned char)*k;

		h = h * 33 + (c >= 'A' && c <= 'Z' ? c + 32u : c);
	}
	return h;
}

/* The open block's field key (any case) whose key_hash is h, or NULL. */
static const gw_esxi_field *
cur_field_h(const pci_parse *ps, const char *key, size_t h)
{
	size_t m = ps->hcap - 1, i;

	if (ps->hcap == 0)
		return NULL;
	for (i = h & m; ps->hash[i] != 0; i = (i + 1) & m) {
		const gw_esxi_field *f = &ps->cur.fields[ps->hash[i] - 1];

		if (gw_strieq(f->key, key))
			return f;
	}
	return NULL;
}

/* The keys the parser reads from every block, their hashes computed
 * once. */
static const char *const known_keys[] = {
	"Address", "Segment", "Bus", "Slot", "Function", "Vendor ID",
	"Device ID", "SubVendor ID", "SubDevice ID", "Device Class",
	"Passthru Capable",
};
#define N_KNOWN (sizeof known_keys / sizeof known_keys[0])

/* The open block's field key (any case), or NULL. */
static const gw_esxi_field *
cur_field(const pci_parse *ps, const char *key)
{
	static size_t known_hash[N_KNOWN];
	static int hashed;
	size_t i;

	if (!hashed) {
		for (i = 0; i < N_KNOWN; i++)
			known_hash[i] = key_hash(known_keys[i]);
		hashed = 1;
	}
	for (i = 0; i < N_KNOWN; i++)
		if (key == known_keys[i])
			return cur_field_h(ps, key, known_hash[i]);
	return cur_field_h(ps, key, key_hash(key));
}

static void
hash_put(pci_parse *ps, size_t idx, size_t h)
{
	size_t m = ps->hcap - 1, i;

	for (i = h & m; ps->hash[i] != 0; i = (i + 1) & m)
		;
	ps->hash[i] = (unsigned)idx + 1;
}

/* Room in the hash for one more field: at most half full. */
static void
hash_room(pci_parse *ps)
{
	size_t i;

	if ((ps->cur.nfields + 1) * 2 <= ps->hcap)
		return;
	ps->hcap = ps->hcap ? ps->hcap * 2 : 64;
	free(ps->hash);
	ps->hash = gw_xcalloc(ps->hcap, sizeof *ps->hash);
	for (i = 0; i < ps->cur.nfields; i++)
		hash_put(ps, i, key_hash(ps->cur.fields[i].key));
}

/* s, n bytes, into a slot's buffer. */
static char *
slot_set(char **buf, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		*cap = n + 1 > 2 * *cap ? n + 1 : 2 * *cap;
		free(*buf);
		*buf = gw_xmalloc(*cap);
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return *buf;
}

/* [a, b) without the white space at both ends. */
static void
trim_span(const char **a, const char **b)
{
	while (*a < *b && isspace((unsigned char)**a))
		(*a)++;
	while (*b > *a && isspace((unsigned char)(*b)[-1]))
		(*b)--;
}

/* A required line is missing from the block. */
static int
no_line(const pci_parse *ps, const char *key)
{
	esxi_err_line(ps->e, ps->name, ps->cur.line,
	              _("the block of device %s has no '%s' line; expected "
	                "the full output of %s"), ps->cur.bdf, key,
	              CMD_PCI_LIST);
	return -1;
}

/* A PCI id field, required or not. */
static int
need_id(const pci_parse *ps, const char *key, int required, unsigned *out)
{
	const gw_esxi_field *f = cur_field(ps, key);

	if (f == NULL)
		return required ? no_line(ps, key) : 0;
	if (esxi_parse_0x(f->value, 4, out) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("%s: '%s' is not a PCI id (expected 0x and 1 to 4 "
		                "hex digits, e.g. 0x10de)"), key, f->value);
		return -1;
	}
	return 0;
}

/* Segment/Bus/Slot/Function, when printed, must match the address. */
static int
check_part(const pci_parse *ps, const char *key, unsigned want)
{
	const gw_esxi_field *f = cur_field(ps, key);
	unsigned v;

	if (f == NULL)
		return 0;
	if (esxi_parse_0x(f->value, 4, &v) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("%s: '%s' is not a hexadecimal number (expected "
		                "e.g. 0x3b)"), key, f->value);
		return -1;
	}
	if (v != want) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("%s: %s does not match the device's address %s"),
		              key, f->value, ps->cur.bdf);
		return -1;
	}
	return 0;
}

/* The Address field and the address parts agree with the opening line. */
static int
check_address(const pci_parse *ps)
{
	const gw_esxi_pci_dev *d = &ps->cur;
	const gw_esxi_field *f = cur_field(ps, "Address");
	unsigned dom, bus, dev, fn;
	char bdf[16];

	if (f == NULL)
		return no_line(ps, "Address");
	if (esxi_parse_addr(f->value, 0, &dom, &bus, &dev, &fn) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("Address: '%s' is not a PCI address (expected "
		                "e.g. 0000:3b:00.0)"), f->value);
		return -1;
	}
	esxi_fmt_bdf(bdf, sizeof bdf, dom, bus, dev, fn);
	if (strcmp(bdf, d->bdf) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("Address: %s does not match the device's address "
		                "%s"), f->value, d->bdf);
		return -1;
	}
	if (check_part(ps, "Segment", d->domain) != 0 ||
	    check_part(ps, "Bus", d->bus) != 0 ||
	    check_part(ps, "Slot", d->slot) != 0 ||
	    check_part(ps, "Function", d->function) != 0)
		return -1;
	return 0;
}

/* Device Class: 0x0302, or decimal as some older releases print it. */
static int
read_class(pci_parse *ps)
{
	const gw_esxi_field *f = cur_field(ps, "Device Class");
	unsigned long long v;

	if (f == NULL)
		return no_line(ps, "Device Class");
	if (esxi_parse_0x(f->value, 4, &ps->cur.device_class) == 0)
		return 0;
	if (gw_parse_uint(f->value, 0xffff, &v) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("Device Class: '%s' is not a PCI class (expected "
		                "e.g. 0x0302, or a decimal number up to 65535)"),
		              f->value);
		return -1;
	}
	ps->cur.device_class = (unsigned)v;
	return 0;
}

/* The well-known fields' values of d, from its fields. */
static void
dev_names(gw_esxi_pci_dev *d)
{
	d->vendor_name = gw_esxi_pci_field(d, "Vendor Name");
	d->device_name = gw_esxi_pci_field(d, "Device Name");
	d->class_name = gw_esxi_pci_field(d, "Device Class Name");
	d->vmkernel_name = gw_esxi_pci_field(d, "VMkernel Name");
	d->module_name = gw_esxi_pci_field(d, "Module Name");
	d->configured_owner = gw_esxi_pci_field(d, "Configured Owner");
	d->current_owner = gw_esxi_pci_field(d, "Current Owner");
}

/* The open block, checked, copied into out->devs. */
static void
dev_keep(pci_parse *ps)
{
	gw_esxi_pci_list *out = ps->out;
	gw_esxi_pci_dev *d;
	size_t i;

	out->devs = esxi_grow(out->devs, out->n, &ps->cap, sizeof *out->devs,
	                      16);
	d = &out->devs[out->n++];
	*d = ps->cur;
	gw_bdf_vmx_id(d->domain, d->bus, d->slot, d->function, d->vmx_id,
	              sizeof d->vmx_id);
	d->fields = gw_xcalloc(d->nfields ? d->nfields : 1, sizeof *d->fields);
	for (i = 0; i < d->nfields; i++) {
		d->fields[i].key = gw_xstrdup(ps->cur.fields[i].key);
		d->fields[i].value = gw_xstrdup(ps->cur.fields[i].value);
		d->fields[i].line = ps->cur.fields[i].line;
	}
	dev_names(d);
}

/* Check the open block, fill its typed fields, keep it if wanted. */
static int
finish_dev(pci_parse *ps)
{
	gw_esxi_pci_dev *d = &ps->cur;
	const gw_esxi_field *f;

	if (!ps->open)
		return 0;
	ps->open = 0;
	if (check_address(ps) != 0)
		return -1;
	if (need_id(ps, "Vendor ID", 1, &d->vendor_id) != 0 ||
	    need_id(ps, "Device ID", 1, &d->device_id) != 0 ||
	    need_id(ps, "SubVendor ID", 0, &d->subvendor_id) != 0 ||
	    need_id(ps, "SubDevice ID", 0, &d->subdevice_id) != 0)
		return -1;
	if (read_class(ps) != 0)
		return -1;
	d->passthru_capable = -1;
	f = cur_field(ps, "Passthru Capable");
	if (f && esxi_parse_bool(f->value, &d->passthru_capable) != 0) {
		esxi_err_line(ps->e, ps->name, f->line,
		              _("%s: '%s' is not true or false"), f->key,
		              f->value);
		return -1;
	}
	if (ps->keep == NULL || ps->keep(d, ps->kctx))
		dev_keep(ps);
	return 0;
}

/* The line s that opens a block at address dom:bus:dev.fn; finishes the
 * block before it. */
static int
open_block(pci_parse *ps, unsigned ln, unsigned dom, unsigned bus,
           unsigned dev, unsigned fn)
{
	gw_esxi_pci_dev *cur = &ps->cur;
	gw_esxi_field *fields = cur->fields;
	const size_t *first;
	uint64_t key = gw_idset_pci_key(dom, bus, dev, fn);

	if (finish_dev(ps) != 0)
		return -1;
	if (ps->hcap > 0)
		memset(ps->hash, 0, ps->hcap * sizeof *ps->hash);
	memset(cur, 0, sizeof *cur);
	cur->fields = fields;
	ps->open = 1;
	ps->blocks++;
	cur->line = ln;
	cur->domain = dom;
	cur->bus = bus;
	cur->slot = dev;
	cur->function = fn;
	esxi_fmt_bdf(cur->bdf, sizeof cur->bdf, dom, bus, dev, fn);
	if ((first = gw_idset_put(&ps->seen, key, ln)) != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("device %s is listed twice (first at line %u)"),
		              cur->bdf, (unsigned)*first);
		ps->open = 0;
		return -1;
	}
	return 0;
}

/* An indented "Key: Value" line s of the open block. */
static int
add_field(pci_parse *ps, const char *s, unsigned ln)
{
	gw_esxi_pci_dev *cur = &ps->cur;
	const char *p = esxi_skip_blanks(s), *colon = strchr(p, ':');
	const char *ka = p, *kb = colon, *va, *vb;
	const gw_esxi_field *dup;
	gw_esxi_field *f;
	pci_slot *sl;
	char ex[64];
	size_t i, h;

	if (colon == NULL || colon == p) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected 'Key: Value' in the block of device %s, "
		                "found '%s'"), cur->bdf,
		              esxi_excerpt(p, ex, sizeof ex));
		return -1;
	}
	if (cur->nfields == ps->fcap) {
		size_t old = ps->fcap;

		ps->fcap = old ? old * 2 : 32;
		cur->fields = gw_xrealloc(cur->fields,
		                          ps->fcap * sizeof *cur->fields);
		ps->slots = gw_xrealloc(ps->slots, ps->fcap * sizeof *ps->slots);
		memset(ps->slots + old, 0, (ps->fcap - old) * sizeof *ps->slots);
		/* the fields point into the slots, which did not move */
	}
	i = cur->nfields;
	sl = &ps->slots[i];
	f = &cur->fields[i];
	trim_span(&ka, &kb);
	f->key = slot_set(&sl->key, &sl->kcap, ka, (size_t)(kb - ka));
	h = key_hash(f->key);
	dup = cur_field_h(ps, f->key, h);
	if (dup != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("'%s' is printed twice in the block of device %s "
		                "(first at line %u)"), f->key, cur->bdf,
		              dup->line);
		return -1;
	}
	va = colon + 1;
	vb = va + strlen(va);
	trim_span(&va, &vb);
	f->value = slot_set(&sl->value, &sl->vcap, va, (size_t)(vb - va));
	f->line = ln;
	hash_room(ps);
	hash_put(ps, cur->nfields++, h);
	return 0;
}

/* One line. */
static int
pci_line(void *ctx, const char *s, unsigned ln)
{
	pci_parse *ps = ctx;
	unsigned dom, bus, dev, fn;
	char ex[64];

	if (*s == '\0')
		return 0;
	if (!esxi_is_blank(*s) &&
	    esxi_parse_addr(s, 0, &dom, &bus, &dev, &fn) == 0)
		return open_block(ps, ln, dom, bus, dev, fn);
	if (esxi_is_blank(*s) && ps->open)
		return add_field(ps, s, ln);
	esxi_err_line(ps->e, ps->name, ln,
	              _("expected a PCI address such as 0000:3b:00.0 opening a "
	                "device block, found '%s'; is this the output of %s?"),
	              esxi_excerpt(s, ex, sizeof ex), CMD_PCI_LIST);
	return -1;
}

static void
parse_free(pci_parse *ps)
{
	size_t i;

	for (i = 0; i < ps->fcap; i++) {
		free(ps->slots[i].key);
		free(ps->slots[i].value);
	}
	free(ps->slots);
	free(ps->cur.fields);
	free(ps->hash);
	gw_idset_free(&ps->seen);
}

int
esxi_parse_pci_src(const esxi_src *src, const char *name,
                   gw_esxi_pci_keep *keep, const void *kctx,
                   gw_esxi_pci_list *out, gw_err *e)
{
	pci_parse ps = { .out = out, .keep = keep, .kctx = kctx, .name = name,
	                 .e = e };
	int rc = -1;

	memset(out, 0, sizeof *out);
	gw_idset_init(&ps.seen);
	if (esxi_src_each_line(src, name, CMD_PCI_LIST, 0, pci_line, &ps, e)
	    != 0)
		goto done;
	if (finish_dev(&ps) != 0)
		goto done;
	if (ps.blocks == 0) {
		esxi_err_input(e, name, _("no device block in it; expected the "
		                          "output of %s"), CMD_PCI_LIST);
		goto done;
	}
	rc = 0;
done:
	parse_free(&ps);
	if (rc != 0)
		gw_esxi_pci_list_free(out);
	return rc;
}

int
gw_esxi_pci_list_read_from(gw_esxi_produce *produce, void *pctx,
                           const char *name, gw_esxi_pci_keep *keep,
                           const void *kctx, gw_esxi_pci_list *out,
                           gw_err *e)
{
	esxi_src src = { .produce = produce, .pctx = pctx };

	return esxi_parse_pci_src(&src, name, keep, kctx, out, e);
}

int
gw_esxi_pci_keep_addr(const gw_esxi_pci_dev *d, const void *ctx)
{
	const gw_esxi_addr *a = ctx;

	return d->domain == a->dom && d->bus == a->bus && d->slot == a->dev &&
	       d->function == a->fn;
}

const gw_esxi_pci_dev *
gw_esxi_pci_find(const gw_esxi_pci_list *l, const char *bdf)
{
	gw_esxi_addr a;
	size_t i;

	if (l == NULL || bdf == NULL ||
	    esxi_parse_addr(bdf, 1, &a.dom, &a.bus, &a.dev, &a.fn) != 0)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (gw_esxi_pci_keep_addr(&l->devs[i], &a))
			return &l->devs[i];
	return NULL;
}

int
gw_esxi_pci_is_display(const gw_esxi_pci_dev *d)
{
	return d != NULL && (d->device_class >> 8) == 0x03;
}

int
gw_esxi_pci_keep_display(const gw_esxi_pci_dev *d, const void *ctx)
{
	(void)ctx;
	return gw_esxi_pci_is_display(d);
}

int
gw_esxi_pci_passthru_enabled(const gw_esxi_pci_dev *d)
{
	if (d == NULL || d->configured_owner == NULL)
		return -1;
	return gw_strieq(d->configured_owner, "VM Passthru");
}
