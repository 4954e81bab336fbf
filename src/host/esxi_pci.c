/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_pci.c: `esxcli hardware pci list` (see esxi.h for the format). */
#include "esxi_int.h"
#include "idset.h"

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

static const gw_esxi_field *
dev_field(const gw_esxi_pci_dev *d, const char *key)
{
	return esxi_find_field(d->fields, d->nfields, key);
}

const char *
gw_esxi_pci_field(const gw_esxi_pci_dev *d, const char *key)
{
	const gw_esxi_field *f = d && key ? dev_field(d, key) : NULL;

	return f ? f->value : NULL;
}

/* A required line is missing from the block. */
static int
no_line(const gw_esxi_pci_dev *d, const char *name, const char *key,
        gw_err *e)
{
	esxi_err_line(e, name, d->line,
	              _("the block of device %s has no '%s' line; expected "
	                "the full output of %s"), d->bdf, key, CMD_PCI_LIST);
	return -1;
}

/* A PCI id field, required or not. */
static int
need_id(const gw_esxi_pci_dev *d, const char *name, const char *key,
        int required, unsigned *out, gw_err *e)
{
	const gw_esxi_field *f = dev_field(d, key);

	if (f == NULL)
		return required ? no_line(d, name, key, e) : 0;
	if (esxi_parse_0x(f->value, 4, out) != 0) {
		esxi_err_line(e, name, f->line,
		              _("%s: '%s' is not a PCI id (expected 0x and 1 to 4 "
		                "hex digits, e.g. 0x10de)"), key, f->value);
		return -1;
	}
	return 0;
}

/* Segment/Bus/Slot/Function, when printed, must match the address. */
static int
check_part(const gw_esxi_pci_dev *d, const char *name, const char *key,
           unsigned want, gw_err *e)
{
	const gw_esxi_field *f = dev_field(d, key);
	unsigned v;

	if (f == NULL)
		return 0;
	if (esxi_parse_0x(f->value, 4, &v) != 0) {
		esxi_err_line(e, name, f->line,
		              _("%s: '%s' is not a hexadecimal number (expected "
		                "e.g. 0x3b)"), key, f->value);
		return -1;
	}
	if (v != want) {
		esxi_err_line(e, name, f->line,
		              _("%s: %s does not match the device's address %s"),
		              key, f->value, d->bdf);
		return -1;
	}
	return 0;
}

/* The Address field and the address parts agree with the opening line. */
static int
check_address(const gw_esxi_pci_dev *d, const char *name, gw_err *e)
{
	const gw_esxi_field *f = dev_field(d, "Address");
	unsigned dom, bus, dev, fn;
	char bdf[16];

	if (f == NULL)
		return no_line(d, name, "Address", e);
	if (esxi_parse_addr(f->value, 0, &dom, &bus, &dev, &fn) != 0) {
		esxi_err_line(e, name, f->line,
		              _("Address: '%s' is not a PCI address (expected "
		                "e.g. 0000:3b:00.0)"), f->value);
		return -1;
	}
	esxi_fmt_bdf(bdf, sizeof bdf, dom, bus, dev, fn);
	if (strcmp(bdf, d->bdf) != 0) {
		esxi_err_line(e, name, f->line,
		              _("Address: %s does not match the device's address "
		                "%s"), f->value, d->bdf);
		return -1;
	}
	if (check_part(d, name, "Segment", d->domain, e) != 0 ||
	    check_part(d, name, "Bus", d->bus, e) != 0 ||
	    check_part(d, name, "Slot", d->slot, e) != 0 ||
	    check_part(d, name, "Function", d->function, e) != 0)
		return -1;
	return 0;
}

/* Device Class: 0x0302, or decimal as some older releases print it. */
static int
read_class(gw_esxi_pci_dev *d, const char *name, gw_err *e)
{
	const gw_esxi_field *f = dev_field(d, "Device Class");
	unsigned long long v;

	if (f == NULL)
		return no_line(d, name, "Device Class", e);
	if (esxi_parse_0x(f->value, 4, &d->device_class) == 0)
		return 0;
	if (gw_parse_uint(f->value, 0xffff, &v) != 0) {
		esxi_err_line(e, name, f->line,
		              _("Device Class: '%s' is not a PCI class (expected "
		                "e.g. 0x0302, or a decimal number up to 65535)"),
		              f->value);
		return -1;
	}
	d->device_class = (unsigned)v;
	return 0;
}

/* Check a finished block and fill its typed fields. */
static int
finish_dev(gw_esxi_pci_dev *d, const char *name, gw_err *e)
{
	const gw_esxi_field *f;

	if (check_address(d, name, e) != 0)
		return -1;
	if (need_id(d, name, "Vendor ID", 1, &d->vendor_id, e) != 0 ||
	    need_id(d, name, "Device ID", 1, &d->device_id, e) != 0 ||
	    need_id(d, name, "SubVendor ID", 0, &d->subvendor_id, e) != 0 ||
	    need_id(d, name, "SubDevice ID", 0, &d->subdevice_id, e) != 0)
		return -1;
	if (read_class(d, name, e) != 0)
		return -1;
	d->passthru_capable = -1;
	f = dev_field(d, "Passthru Capable");
	if (f && esxi_parse_bool(f->value, &d->passthru_capable) != 0) {
		esxi_err_line(e, name, f->line,
		              _("%s: '%s' is not true or false"), f->key,
		              f->value);
		return -1;
	}
	d->vendor_name = gw_esxi_pci_field(d, "Vendor Name");
	d->device_name = gw_esxi_pci_field(d, "Device Name");
	d->class_name = gw_esxi_pci_field(d, "Device Class Name");
	d->vmkernel_name = gw_esxi_pci_field(d, "VMkernel Name");
	d->module_name = gw_esxi_pci_field(d, "Module Name");
	d->configured_owner = gw_esxi_pci_field(d, "Configured Owner");
	d->current_owner = gw_esxi_pci_field(d, "Current Owner");
	return 0;
}

/* The parser's state between lines. */
typedef struct pci_parse {
	gw_esxi_pci_list *out;
	size_t cap;              /* of out->devs */
	size_t fcap;             /* of cur->fields */
	gw_esxi_pci_dev *cur;    /* the open block, NULL before the first */
	gw_idset seen;           /* packed address -> index in out->devs */
	const char *name;
	gw_err *e;
} pci_parse;

/* The line s that opens a block at address dom:bus:dev.fn; finishes the
 * block before it. */
static int
open_block(pci_parse *ps, unsigned ln, unsigned dom, unsigned bus,
           unsigned dev, unsigned fn)
{
	gw_esxi_pci_list *out = ps->out;
	gw_esxi_pci_dev *cur;
	const size_t *first;
	uint64_t key = gw_idset_pci_key(dom, bus, dev, fn);

	if (ps->cur && finish_dev(ps->cur, ps->name, ps->e) != 0)
		return -1;
	out->devs = esxi_grow(out->devs, out->n, &ps->cap, sizeof *out->devs,
	                      16);
	cur = ps->cur = &out->devs[out->n++];
	memset(cur, 0, sizeof *cur);
	ps->fcap = 0;
	cur->line = ln;
	cur->domain = dom;
	cur->bus = bus;
	cur->slot = dev;
	cur->function = fn;
	esxi_fmt_bdf(cur->bdf, sizeof cur->bdf, dom, bus, dev, fn);
	gw_bdf_vmx_id(dom, bus, dev, fn, cur->vmx_id, sizeof cur->vmx_id);
	if ((first = gw_idset_put(&ps->seen, key, out->n - 1)) != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("device %s is listed twice (first at line %u)"),
		              cur->bdf, out->devs[*first].line);
		return -1;
	}
	return 0;
}

/* An indented "Key: Value" line s of the open block. */
static int
add_field(pci_parse *ps, const char *s, unsigned ln)
{
	gw_esxi_pci_dev *cur = ps->cur;
	const char *p = esxi_skip_blanks(s), *colon = strchr(p, ':');
	const gw_esxi_field *dup;
	char *key, ex[64];

	if (colon == NULL || colon == p) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected 'Key: Value' in the block of device %s, "
		                "found '%s'"), cur->bdf,
		              esxi_excerpt(p, ex, sizeof ex));
		return -1;
	}
	key = gw_trim(gw_xstrndup(p, (size_t)(colon - p)));
	dup = dev_field(cur, key);
	if (dup != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("'%s' is printed twice in the block of device %s "
		                "(first at line %u)"), key, cur->bdf, dup->line);
		free(key);
		return -1;
	}
	esxi_field_add(&cur->fields, &cur->nfields, &ps->fcap, key, colon + 1,
	               ln);
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
	if (esxi_is_blank(*s) && ps->cur != NULL)
		return add_field(ps, s, ln);
	esxi_err_line(ps->e, ps->name, ln,
	              _("expected a PCI address such as 0000:3b:00.0 opening a "
	                "device block, found '%s'; is this the output of %s?"),
	              esxi_excerpt(s, ex, sizeof ex), CMD_PCI_LIST);
	return -1;
}

int
gw_esxi_parse_pci_list(const char *text, const char *name,
                       gw_esxi_pci_list *out, gw_err *e)
{
	pci_parse ps = { .out = out, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	gw_idset_init(&ps.seen);
	if (esxi_each_line(text, name, CMD_PCI_LIST, pci_line, &ps, e) != 0)
		goto fail;
	if (ps.cur && finish_dev(ps.cur, name, e) != 0)
		goto fail;
	if (out->n == 0) {
		esxi_err_input(e, name, _("no device block in it; expected the "
		                          "output of %s"), CMD_PCI_LIST);
		goto fail;
	}
	gw_idset_free(&ps.seen);
	return 0;
fail:
	gw_idset_free(&ps.seen);
	gw_esxi_pci_list_free(out);
	return -1;
}

const gw_esxi_pci_dev *
gw_esxi_pci_find(const gw_esxi_pci_list *l, const char *bdf)
{
	unsigned dom, bus, dev, fn;
	size_t i;

	if (l == NULL || bdf == NULL ||
	    esxi_parse_addr(bdf, 1, &dom, &bus, &dev, &fn) != 0)
		return NULL;
	for (i = 0; i < l->n; i++) {
		const gw_esxi_pci_dev *d = &l->devs[i];

		if (d->domain == dom && d->bus == bus && d->slot == dev &&
		    d->function == fn)
			return d;
	}
	return NULL;
}

int
gw_esxi_pci_is_display(const gw_esxi_pci_dev *d)
{
	return d != NULL && (d->device_class >> 8) == 0x03;
}

int
gw_esxi_pci_passthru_enabled(const gw_esxi_pci_dev *d)
{
	if (d == NULL || d->configured_owner == NULL)
		return -1;
	return gw_strieq(d->configured_owner, "VM Passthru");
}
