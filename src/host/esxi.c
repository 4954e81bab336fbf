/* esxi.c: parsers for esxcli / vim-cmd output and `gpuwiz gpus
 * --esxcli-file FILE` (see esxi.h for the formats and the rules). */
#include "esxi.h"
#include "jsonutil.h"
#include "plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#define CMD_PCI_LIST   "esxcli hardware pci list"
#define CMD_PASSTHRU   "esxcli hardware pci pcipassthru list"
#define CMD_UUID       "esxcli system uuid get"
#define CMD_VERSION    "esxcli system version get"
#define CMD_GETALLVMS  "vim-cmd vmsvc/getallvms"
#define CMD_POWER      "vim-cmd vmsvc/power.getstate"
#define CMD_PATHS      "esxcli storage core path list"
#define CMD_DEVICES    "esxcli storage core device list"
#define CMD_EXTENTS    "esxcli storage vmfs extent list"

/* ---- errors ------------------------------------------------------------ */

static void err_line(gw_err *e, const char *name, unsigned line,
                     const char *fmt, ...) GW_PRINTF(4, 5);
static void err_input(gw_err *e, const char *name, const char *fmt, ...)
	GW_PRINTF(3, 4);

/* "NAME:LINE: text", or "line LINE: text" without a name. */
static void
err_line(gw_err *e, const char *name, unsigned line, const char *fmt, ...)
{
	char body[900];
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	if (name)
		gw_err_set(e, "%s:%u: %s", name, line, body);
	else
		gw_err_set(e, _("line %u: %s"), line, body);
}

/* "NAME: text", or the text alone. */
static void
err_input(gw_err *e, const char *name, const char *fmt, ...)
{
	char body[900];
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	if (name)
		gw_err_set(e, "%s: %s", name, body);
	else
		gw_err_set(e, "%s", body);
}

/* A short excerpt of s for a message: at most 48 bytes, not cutting a
 * UTF-8 character, "..." when cut. */
static const char *
excerpt(const char *s, char *buf, size_t n)
{
	size_t len = strlen(s), k;

	while (*s == ' ' || *s == '\t') {
		s++;
		len--;
	}
	if (len < 48 && len < n) {
		memcpy(buf, s, len + 1);
		return buf;
	}
	k = 45 < n - 4 ? 45 : n - 4;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	memcpy(buf, s, k);
	memcpy(buf + k, "...", 4);
	return buf;
}

/* ---- lines ------------------------------------------------------------- */

typedef struct tlines {
	char **v;        /* v[i] is line i + 1, CR and trailing blanks gone */
	size_t n;
} tlines;

static void
tlines_free(tlines *tl)
{
	size_t i;

	for (i = 0; i < tl->n; i++)
		free(tl->v[i]);
	free(tl->v);
	tl->v = NULL;
	tl->n = 0;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Split text into lines.  Control bytes other than tab (and the CR of a
 * CRLF) are refused as binary data, naming the line.  An input without a
 * non-blank line is refused as empty. */
static int
split_lines(const char *text, const char *name, const char *cmd, tlines *tl,
            gw_err *e)
{
	const char *p = text ? text : "";
	size_t cap = 0;
	int nonblank = 0;

	tl->v = NULL;
	tl->n = 0;
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), i;
		char *line;

		for (i = 0; i < len; i++) {
			unsigned char c = (unsigned char)p[i];

			if ((c < 0x20 && c != '\t' &&
			     !(c == '\r' && i + 1 == len)) || c == 0x7f) {
				err_line(e, name, (unsigned)tl->n + 1,
				         _("binary data (control byte 0x%02x); "
				           "expected the text output of %s"),
				         c, cmd);
				tlines_free(tl);
				return -1;
			}
		}
		while (len > 0 && (p[len - 1] == '\r' || is_blank(p[len - 1])))
			len--;
		line = gw_xstrndup(p, len);
		if (len > 0)
			nonblank = 1;
		if (tl->n == cap) {
			cap = cap ? cap * 2 : 64;
			tl->v = gw_xrealloc(tl->v, cap * sizeof *tl->v);
		}
		tl->v[tl->n++] = line;
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	if (!nonblank) {
		err_input(e, name, _("no output in it; expected the output of %s"),
		          cmd);
		tlines_free(tl);
		return -1;
	}
	return 0;
}

/* Index of the first line of the output proper: blank lines, lines
 * starting with '#' and lines holding the command itself (a shell prompt
 * saved with the output) before it are skipped. */
static size_t
skip_preamble(const tlines *tl, const char *cmd)
{
	size_t i;

	for (i = 0; i < tl->n; i++) {
		const char *s = tl->v[i];

		while (is_blank(*s))
			s++;
		if (*s == '\0' || *s == '#' || strstr(s, cmd) != NULL)
			continue;
		break;
	}
	return i;
}

/* ---- small parsers ----------------------------------------------------- */

/* "0x" and 1..maxdig hex digits, nothing else. */
static int
parse_0x(const char *s, int maxdig, unsigned *out)
{
	unsigned v = 0;
	int n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++, n++) {
		int d = gw_hexval((unsigned char)*s);

		if (d < 0 || n >= maxdig)
			return -1;
		v = v * 16 + (unsigned)d;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

static int
parse_bool(const char *s, int *out)
{
	if (gw_strieq(s, "true")) {
		*out = 1;
		return 0;
	}
	if (gw_strieq(s, "false")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* n decimal digits exactly. */
static int
dec_digits(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* An address as esxcli prints it: "0000:3b:00.0" (hex), or the old
 * decimal form "000:128:00.0".  Other forms gw_bdf_parse takes ("3b:00.0")
 * are accepted when loose is set (for lookups). */
static int
parse_addr(const char *s, int loose, unsigned *dom, unsigned *bus,
           unsigned *dev, unsigned *fn)
{
	size_t len = strlen(s);

	if (len == 12 && s[3] == ':' && s[7] == ':' && s[10] == '.') {
		unsigned a, b, c, f;

		if (dec_digits(s, 3, &a) != 0 || dec_digits(s + 4, 3, &b) != 0 ||
		    dec_digits(s + 8, 2, &c) != 0 ||
		    dec_digits(s + 11, 1, &f) != 0 ||
		    b > 255 || c > 31 || f > 7)
			return -1;
		*dom = a;
		*bus = b;
		*dev = c;
		*fn = f;
		return 0;
	}
	if (!loose && !(len == 12 && s[4] == ':' && s[7] == ':' &&
	                s[10] == '.'))
		return -1;
	return gw_bdf_parse(s, dom, bus, dev, fn);
}

static void
fmt_bdf(char *out, size_t n, unsigned dom, unsigned bus, unsigned dev,
        unsigned fn)
{
	snprintf(out, n, "%04x:%02x:%02x.%x", dom & 0xffffu, bus & 0xffu,
	         dev & 0x1fu, fn & 7u);
}

static char *
str_lower(char *s)
{
	char *p;

	for (p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

/* ---- esxcli hardware pci list ------------------------------------------ */

static void
dev_free(gw_esxi_pci_dev *d)
{
	size_t i;

	for (i = 0; i < d->nfields; i++) {
		free(d->fields[i].key);
		free(d->fields[i].value);
	}
	free(d->fields);
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
	size_t i;

	for (i = 0; i < d->nfields; i++)
		if (gw_strieq(d->fields[i].key, key))
			return &d->fields[i];
	return NULL;
}

const char *
gw_esxi_pci_field(const gw_esxi_pci_dev *d, const char *key)
{
	const gw_esxi_field *f = d && key ? dev_field(d, key) : NULL;

	return f ? f->value : NULL;
}

/* A required PCI id field. */
static int
need_id(const gw_esxi_pci_dev *d, const char *name, const char *key,
        int required, unsigned *out, gw_err *e)
{
	const gw_esxi_field *f = dev_field(d, key);

	if (f == NULL) {
		if (!required)
			return 0;
		err_line(e, name, d->line,
		         _("the block of device %s has no '%s' line; expected "
		           "the full output of %s"), d->bdf, key, CMD_PCI_LIST);
		return -1;
	}
	if (parse_0x(f->value, 4, out) != 0) {
		err_line(e, name, f->line,
		         _("%s: '%s' is not a PCI id (expected 0x and 1 to 4 hex "
		           "digits, e.g. 0x10de)"), key, f->value);
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
	if (parse_0x(f->value, 4, &v) != 0) {
		err_line(e, name, f->line,
		         _("%s: '%s' is not a hexadecimal number (expected e.g. "
		           "0x3b)"), key, f->value);
		return -1;
	}
	if (v != want) {
		err_line(e, name, f->line,
		         _("%s: %s does not match the device's address %s"),
		         key, f->value, d->bdf);
		return -1;
	}
	return 0;
}

/* Check a finished block and fill its typed fields. */
static int
finish_dev(gw_esxi_pci_dev *d, const char *name, gw_err *e)
{
	const gw_esxi_field *f;
	unsigned dom, bus, dev, fn;
	char bdf[16];

	f = dev_field(d, "Address");
	if (f == NULL) {
		err_line(e, name, d->line,
		         _("the block of device %s has no '%s' line; expected "
		           "the full output of %s"), d->bdf, "Address",
		         CMD_PCI_LIST);
		return -1;
	}
	if (parse_addr(f->value, 0, &dom, &bus, &dev, &fn) != 0) {
		err_line(e, name, f->line,
		         _("Address: '%s' is not a PCI address (expected e.g. "
		           "0000:3b:00.0)"), f->value);
		return -1;
	}
	fmt_bdf(bdf, sizeof bdf, dom, bus, dev, fn);
	if (strcmp(bdf, d->bdf) != 0) {
		err_line(e, name, f->line,
		         _("Address: %s does not match the device's address %s"),
		         f->value, d->bdf);
		return -1;
	}
	if (check_part(d, name, "Segment", d->domain, e) != 0 ||
	    check_part(d, name, "Bus", d->bus, e) != 0 ||
	    check_part(d, name, "Slot", d->slot, e) != 0 ||
	    check_part(d, name, "Function", d->function, e) != 0)
		return -1;
	if (need_id(d, name, "Vendor ID", 1, &d->vendor_id, e) != 0 ||
	    need_id(d, name, "Device ID", 1, &d->device_id, e) != 0 ||
	    need_id(d, name, "SubVendor ID", 0, &d->subvendor_id, e) != 0 ||
	    need_id(d, name, "SubDevice ID", 0, &d->subdevice_id, e) != 0)
		return -1;
	f = dev_field(d, "Device Class");
	if (f == NULL) {
		err_line(e, name, d->line,
		         _("the block of device %s has no '%s' line; expected "
		           "the full output of %s"), d->bdf, "Device Class",
		         CMD_PCI_LIST);
		return -1;
	} else {
		unsigned long long v;

		if (parse_0x(f->value, 4, &d->device_class) != 0) {
			if (gw_parse_uint(f->value, 0xffff, &v) != 0) {
				err_line(e, name, f->line,
				         _("Device Class: '%s' is not a PCI class "
				           "(expected e.g. 0x0302, or a decimal "
				           "number up to 65535)"), f->value);
				return -1;
			}
			d->device_class = (unsigned)v;
		}
	}
	d->passthru_capable = -1;
	f = dev_field(d, "Passthru Capable");
	if (f && parse_bool(f->value, &d->passthru_capable) != 0) {
		err_line(e, name, f->line,
		         _("%s: '%s' is not true or false"), f->key, f->value);
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

int
gw_esxi_parse_pci_list(const char *text, const char *name,
                       gw_esxi_pci_list *out, gw_err *e)
{
	tlines tl;
	size_t i, cap = 0, fcap = 0;
	gw_esxi_pci_dev *cur = NULL;
	char ex[64];

	memset(out, 0, sizeof *out);
	if (split_lines(text, name, CMD_PCI_LIST, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, CMD_PCI_LIST); i < tl.n; i++) {
		const char *s = tl.v[i];
		unsigned ln = (unsigned)i + 1;

		if (*s == '\0')
			continue;
		if (!is_blank(*s)) {
			unsigned dom, bus, dev, fn;
			size_t k;

			if (parse_addr(s, 0, &dom, &bus, &dev, &fn) != 0)
				goto not_block;
			if (cur && finish_dev(cur, name, e) != 0)
				goto fail;
			if (out->n == cap) {
				cap = cap ? cap * 2 : 16;
				out->devs = gw_xrealloc(out->devs,
				                        cap * sizeof *out->devs);
			}
			cur = &out->devs[out->n++];
			memset(cur, 0, sizeof *cur);
			fcap = 0;
			cur->line = ln;
			cur->domain = dom;
			cur->bus = bus;
			cur->slot = dev;
			cur->function = fn;
			fmt_bdf(cur->bdf, sizeof cur->bdf, dom, bus, dev, fn);
			gw_bdf_vmx_id(dom, bus, dev, fn, cur->vmx_id,
			              sizeof cur->vmx_id);
			for (k = 0; k + 1 < out->n; k++)
				if (strcmp(out->devs[k].bdf, cur->bdf) == 0) {
					err_line(e, name, ln,
					         _("device %s is listed twice "
					           "(first at line %u)"), cur->bdf,
					         out->devs[k].line);
					goto fail;
				}
		} else {
			const char *p = s, *colon;
			const gw_esxi_field *dup;
			gw_esxi_field *f;
			char *key;

			if (cur == NULL)
				goto not_block;
			while (is_blank(*p))
				p++;
			colon = strchr(p, ':');
			if (colon == NULL || colon == p) {
				err_line(e, name, ln,
				         _("expected 'Key: Value' in the block of "
				           "device %s, found '%s'"), cur->bdf,
				         excerpt(p, ex, sizeof ex));
				goto fail;
			}
			key = gw_xstrndup(p, (size_t)(colon - p));
			gw_trim(key);
			dup = dev_field(cur, key);
			if (dup != NULL) {
				err_line(e, name, ln,
				         _("'%s' is printed twice in the block of "
				           "device %s (first at line %u)"), key,
				         cur->bdf, dup->line);
				free(key);
				goto fail;
			}
			if (cur->nfields == fcap) {
				fcap = fcap ? fcap * 2 : 40;
				cur->fields = gw_xrealloc(cur->fields,
				                          fcap * sizeof *cur->fields);
			}
			f = &cur->fields[cur->nfields++];
			f->key = key;
			f->value = gw_xstrdup(colon + 1);
			gw_trim(f->value);
			f->line = ln;
		}
		continue;
not_block:
		err_line(e, name, ln,
		         _("expected a PCI address such as 0000:3b:00.0 opening a "
		           "device block, found '%s'; is this the output of %s?"),
		         excerpt(s, ex, sizeof ex), CMD_PCI_LIST);
		goto fail;
	}
	if (cur && finish_dev(cur, name, e) != 0)
		goto fail;
	if (out->n == 0) {
		err_input(e, name, _("no device block in it; expected the output "
		                     "of %s"), CMD_PCI_LIST);
		goto fail;
	}
	tlines_free(&tl);
	return 0;
fail:
	tlines_free(&tl);
	gw_esxi_pci_list_free(out);
	return -1;
}

const gw_esxi_pci_dev *
gw_esxi_pci_find(const gw_esxi_pci_list *l, const char *bdf)
{
	unsigned dom, bus, dev, fn;
	size_t i;

	if (l == NULL || bdf == NULL ||
	    parse_addr(bdf, 1, &dom, &bus, &dev, &fn) != 0)
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

/* ---- esxcli hardware pci pcipassthru list ------------------------------ */

void
gw_esxi_passthru_list_free(gw_esxi_passthru_list *l)
{
	if (l == NULL)
		return;
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

typedef struct column {
	size_t start, end;   /* [start, end): end is the next column's start */
} column;

/* The columns of a table from its line of dashes ("------------  -------"):
 * each run of dashes starts a column that ends where the next one starts
 * (the last is open).  -1 when there are more than max. */
static int
dash_columns(const char *dash, column *cols, size_t max, size_t *ncols)
{
	size_t k, n = 0;

	for (k = 0; dash[k]; ) {
		if (dash[k] != '-') {
			k++;
			continue;
		}
		if (n == max)
			return -1;
		cols[n].start = k;
		while (dash[k] == '-')
			k++;
		if (n > 0)
			cols[n - 1].end = cols[n].start;
		cols[n].end = (size_t)-1;
		n++;
	}
	*ncols = n;
	return 0;
}

/* Text of line s in column c, trimmed, into buf. */
static const char *
cell(const char *s, const column *c, char *buf, size_t n)
{
	size_t len = strlen(s), a = c->start, b = c->end, k;

	if (a > len)
		a = len;
	if (b > len)
		b = len;
	while (a < b && is_blank(s[a]))
		a++;
	while (b > a && is_blank(s[b - 1]))
		b--;
	k = b - a < n - 1 ? b - a : n - 1;
	memcpy(buf, s + a, k);
	buf[k] = '\0';
	return buf;
}

/* One row: address and flag, from the columns, else (a row whose cells do
 * not sit under the dashes) from its blank-separated words, one a column. */
static int
passthru_row(const char *s, const column *cols, size_t ncols, size_t ci,
             size_t ce, char *bdf, size_t bdfn, int *enabled)
{
	char a[64], b[64];
	unsigned dom, bus, dev, fn;

	cell(s, &cols[ci], a, sizeof a);
	cell(s, &cols[ce], b, sizeof b);
	if (parse_addr(a, 0, &dom, &bus, &dev, &fn) != 0 ||
	    parse_bool(b, enabled) != 0) {
		const char *p = s;
		size_t k = 0;

		a[0] = b[0] = '\0';
		while (*p) {
			size_t w;

			while (is_blank(*p))
				p++;
			if (*p == '\0')
				break;
			for (w = 0; p[w] && !is_blank(p[w]); w++)
				;
			if ((k == ci || k == ce) && w < sizeof a) {
				char *dst = k == ci ? a : b;

				memcpy(dst, p, w);
				dst[w] = '\0';
			}
			k++;
			p += w;
		}
		/* Every column, or the first ones up to the two needed
		 * (empty cells at the end). */
		if (k > ncols || k <= (ci > ce ? ci : ce) ||
		    parse_addr(a, 0, &dom, &bus, &dev, &fn) != 0 ||
		    parse_bool(b, enabled) != 0)
			return -1;
	}
	fmt_bdf(bdf, bdfn, dom, bus, dev, fn);
	return 0;
}

int
gw_esxi_parse_pcipassthru_list(const char *text, const char *name,
                               gw_esxi_passthru_list *out, gw_err *e)
{
	tlines tl;
	column cols[16];
	size_t ncols = 0, i, k, ci = (size_t)-1, ce = (size_t)-1, cap = 0;
	const char *dash;
	char ex[64], nm[64];

	memset(out, 0, sizeof *out);
	if (split_lines(text, name, CMD_PASSTHRU, &tl, e) != 0)
		return -1;
	i = skip_preamble(&tl, CMD_PASSTHRU);
	if (i >= tl.n) {
		err_input(e, name, _("no output in it; expected the output of %s"),
		          CMD_PASSTHRU);
		goto fail;
	}
	if (i + 1 >= tl.n || tl.v[i + 1][0] == '\0') {
		/* A header alone, or no dashed line under it. */
		if (i < tl.n && strstr(tl.v[i], "Device ID") &&
		    strstr(tl.v[i], "Enabled")) {
			err_line(e, name, (unsigned)i + 2,
			         _("expected a line of dashes under the column "
			           "names, found '%s'"),
			         i + 1 < tl.n ? tl.v[i + 1] : "");
			goto fail;
		}
		goto bad_header;
	}
	dash = tl.v[i + 1];
	for (k = 0; dash[k]; k++)
		if (dash[k] != '-' && !is_blank(dash[k]))
			break;
	if (dash[k] != '\0' || strchr(dash, '-') == NULL) {
		if (!(strstr(tl.v[i], "Device ID") && strstr(tl.v[i], "Enabled")))
			goto bad_header;
		err_line(e, name, (unsigned)i + 2,
		         _("expected a line of dashes under the column names, "
		           "found '%s'"), excerpt(dash, ex, sizeof ex));
		goto fail;
	}
	if (dash_columns(dash, cols, sizeof cols / sizeof cols[0], &ncols) != 0)
		goto bad_header;
	for (k = 0; k < ncols; k++) {
		cell(tl.v[i], &cols[k], nm, sizeof nm);
		if (gw_strieq(nm, "Device ID"))
			ci = k;
		else if (gw_strieq(nm, "Enabled"))
			ce = k;
	}
	if (ci == (size_t)-1 || ce == (size_t)-1) {
		/* A table whose blanks were squeezed (copied from a web
		 * page): "Device ID Enabled" / "------------ -------". */
		char *h = gw_xstrdup(tl.v[i]), *r, *w;

		for (r = w = h; *r; r++)
			if (!is_blank(*r) || (w > h && !is_blank(w[-1])))
				*w++ = is_blank(*r) ? ' ' : *r;
		*w = '\0';
		ci = ce = (size_t)-1;
		if (ncols == 2 && gw_strieq(gw_trim(h), "Device ID Enabled")) {
			ci = 0;
			ce = 1;
		}
		free(h);
		if (ci == (size_t)-1)
			goto bad_header;
	}
	for (i += 2; i < tl.n; i++) {
		gw_esxi_passthru *it;
		size_t j;

		if (tl.v[i][0] == '\0')
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 32;
			out->items = gw_xrealloc(out->items, cap * sizeof *out->items);
		}
		it = &out->items[out->n];
		memset(it, 0, sizeof *it);
		it->line = (unsigned)i + 1;
		if (passthru_row(tl.v[i], cols, ncols, ci, ce, it->bdf,
		                 sizeof it->bdf, &it->enabled) != 0) {
			err_line(e, name, (unsigned)i + 1,
			         _("expected a device address and true or false "
			           "under Device ID and Enabled, found '%s'"),
			         excerpt(tl.v[i], ex, sizeof ex));
			goto fail;
		}
		for (j = 0; j < out->n; j++)
			if (strcmp(out->items[j].bdf, it->bdf) == 0) {
				err_line(e, name, it->line,
				         _("device %s is listed twice (first at "
				           "line %u)"), it->bdf, out->items[j].line);
				goto fail;
			}
		out->n++;
	}
	tlines_free(&tl);
	return 0;
bad_header:
	err_line(e, name, (unsigned)i + 1,
	         _("expected the column names 'Device ID' and 'Enabled' of %s, "
	           "found '%s'"), CMD_PASSTHRU, excerpt(tl.v[i], ex, sizeof ex));
fail:
	tlines_free(&tl);
	gw_esxi_passthru_list_free(out);
	return -1;
}

int
gw_esxi_passthru_enabled(const gw_esxi_passthru_list *l, const char *bdf)
{
	unsigned dom, bus, dev, fn;
	char norm[16];
	size_t i;

	if (l == NULL || bdf == NULL ||
	    parse_addr(bdf, 1, &dom, &bus, &dev, &fn) != 0)
		return -1;
	fmt_bdf(norm, sizeof norm, dom, bus, dev, fn);
	for (i = 0; i < l->n; i++)
		if (strcmp(l->items[i].bdf, norm) == 0)
			return l->items[i].enabled;
	return -1;
}

/* ---- esxcli system uuid get -------------------------------------------- */

int
gw_esxi_parse_uuid(const char *text, const char *name, char **uuid,
                   gw_err *e)
{
	tlines tl;
	size_t i;
	const char *id = NULL;
	char ex[64];

	*uuid = NULL;
	if (split_lines(text, name, CMD_UUID, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, CMD_UUID); i < tl.n; i++) {
		const char *s = tl.v[i];

		while (is_blank(*s))
			s++;
		if (*s == '\0')
			continue;
		if (id != NULL) {
			err_line(e, name, (unsigned)i + 1,
			         _("expected one line with the system id, found "
			           "another line '%s'"), excerpt(s, ex, sizeof ex));
			goto fail;
		}
		if (!gw_system_id_valid(s)) {
			err_line(e, name, (unsigned)i + 1,
			         _("'%s' is not a system id (expected 8-4-4-4-12 "
			           "hex digits, as %s prints)"),
			         excerpt(s, ex, sizeof ex), CMD_UUID);
			goto fail;
		}
		id = s;
	}
	if (id == NULL) {
		/* Only '#' or prompt lines. */
		err_input(e, name, _("no output in it; expected the output of %s"),
		          CMD_UUID);
		goto fail;
	}
	*uuid = str_lower(gw_xstrdup(id));
	tlines_free(&tl);
	return 0;
fail:
	tlines_free(&tl);
	return -1;
}

/* ---- esxcli system version get ----------------------------------------- */

void
gw_esxi_version_free(gw_esxi_version *v)
{
	if (v == NULL)
		return;
	free(v->product);
	free(v->version);
	free(v->build);
	free(v->release);
	memset(v, 0, sizeof *v);
	v->build_number = -1;
	v->update = v->patch = -1;
}

/* "8.0.2" -> 8, 0, 2 (third 0 when absent).  Two to four numbers. */
static int
parse_version_numbers(const char *s, unsigned *maj, unsigned *min,
                      unsigned *third)
{
	unsigned part[4] = { 0, 0, 0, 0 };
	int n = 0;

	for (;;) {
		unsigned v = 0;
		int digits = 0;

		while (isdigit((unsigned char)*s) && digits < 4) {
			v = v * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (digits == 0 || n == 4)
			return -1;
		part[n++] = v;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return -1;
	}
	if (n < 2)
		return -1;
	*maj = part[0];
	*min = part[1];
	*third = part[2];
	return 0;
}

int
gw_esxi_parse_version(const char *text, const char *name,
                      gw_esxi_version *out, gw_err *e)
{
	static const char *const known[] = {
		"Product", "Version", "Build", "Update", "Patch"
	};
	unsigned seen[5] = { 0, 0, 0, 0, 0 };
	unsigned maj, min, third;
	tlines tl;
	size_t i, k;
	char ex[64];

	memset(out, 0, sizeof *out);
	gw_esxi_version_free(out);
	if (split_lines(text, name, CMD_VERSION, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, CMD_VERSION); i < tl.n; i++) {
		const char *s = tl.v[i], *colon;
		unsigned ln = (unsigned)i + 1;
		char *key, *val;

		while (is_blank(*s))
			s++;
		if (*s == '\0')
			continue;
		colon = strchr(s, ':');
		if (colon == NULL || colon == s) {
			err_line(e, name, ln,
			         _("expected 'Key: Value' as %s prints it, found "
			           "'%s'"), CMD_VERSION, excerpt(s, ex, sizeof ex));
			goto fail;
		}
		key = gw_trim(gw_xstrndup(s, (size_t)(colon - s)));
		val = gw_trim(gw_xstrdup(colon + 1));
		for (k = 0; k < 5; k++)
			if (gw_strieq(key, known[k]))
				break;
		if (k < 5 && seen[k]) {
			err_line(e, name, ln,
			         _("'%s' is printed twice (first at line %u)"), key,
			         seen[k]);
			free(key);
			free(val);
			goto fail;
		}
		if (k < 5)
			seen[k] = ln;
		if (k == 0) {
			out->product = val;
			val = NULL;
		} else if (k == 1) {
			if (parse_version_numbers(val, &maj, &min, &third) != 0) {
				err_line(e, name, ln,
				         _("Version: '%s' is not a version number "
				           "(expected e.g. 8.0.2)"), val);
				free(key);
				free(val);
				goto fail;
			}
			out->version = val;
			val = NULL;
		} else if (k == 2) {
			const char *d = strrchr(val, '-');
			unsigned long long b;

			d = d ? d + 1 : val;
			if (gw_parse_uint(d, 999999999999ULL, &b) == 0)
				out->build_number = (long)b;
			out->build = val;
			val = NULL;
		} else if (k == 3 || k == 4) {
			unsigned long long u;

			if (gw_parse_uint(val, 9999, &u) != 0) {
				err_line(e, name, ln,
				         _("%s: '%s' is not a whole number"), key,
				         val);
				free(key);
				free(val);
				goto fail;
			}
			if (k == 3)
				out->update = (int)u;
			else
				out->patch = (int)u;
		}
		free(key);
		free(val);
	}
	for (k = 0; k < 2; k++)
		if (!seen[k]) {
			err_input(e, name, _("no '%s' line; expected the output of %s"),
			          known[k], CMD_VERSION);
			goto fail;
		}
	(void)parse_version_numbers(out->version, &maj, &min, &third);
	{
		unsigned upd = out->update >= 0 ? (unsigned)out->update : third;

		out->release = upd > 0 ? gw_xasprintf("%u.%uU%u", maj, min, upd)
		                       : gw_xasprintf("%u.%u", maj, min);
	}
	tlines_free(&tl);
	return 0;
fail:
	tlines_free(&tl);
	gw_esxi_version_free(out);
	return -1;
}

/* ---- vim-cmd vmsvc/getallvms ------------------------------------------- */

static void
vm_free(gw_esxi_vm *v)
{
	free(v->name);
	free(v->file);
	free(v->datastore);
	free(v->path);
	free(v->guest_os);
	free(v->version);
	free(v->annotation);
	memset(v, 0, sizeof *v);
}

void
gw_esxi_vm_list_free(gw_esxi_vm_list *l)
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

const gw_esxi_vm *
gw_esxi_vm_find(const gw_esxi_vm_list *l, unsigned long vmid)
{
	size_t i;

	if (l == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (l->vms[i].vmid == vmid)
			return &l->vms[i];
	return NULL;
}

/* "Skipping invalid VM '12'" (quotes optional) -> 12. */
static int
skipping_line(const char *s, unsigned long *id)
{
	static const char pre[] = "Skipping invalid VM ";
	unsigned long long v;
	char num[24];
	size_t n;

	while (is_blank(*s))
		s++;
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

	while (is_blank(*s))
		s++;
	for (n = 0; isdigit((unsigned char)s[n]); n++)
		if (n == sizeof num - 1)
			return -1;
	if (n == 0 || !is_blank(s[n]))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (gw_parse_uint(num, 0xffffffffULL, &v) != 0)
		return -1;
	*id = (unsigned long)v;
	s += n;
	while (is_blank(*s))
		s++;
	*rest = s;
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

/* At s (just past ".vmx"): blanks, a guest id, blanks, "vmx-NN", then a
 * blank or the end.  Fills the guest and version spans and *after. */
static int
guest_version_at(const char *s, const char **g, size_t *gn, const char **v,
                 size_t *vn, const char **after)
{
	const char *p = s;
	size_t k;

	if (!is_blank(*p))
		return -1;
	while (is_blank(*p))
		p++;
	for (k = 0; p[k] && !is_blank(p[k]); k++)
		;
	if (k == 0)
		return -1;
	*g = p;
	*gn = k;
	p += k;
	while (is_blank(*p))
		p++;
	if (!ci_prefix(p, "vmx-") || !isdigit((unsigned char)p[4]))
		return -1;
	for (k = 4; isdigit((unsigned char)p[k]); k++)
		;
	if (p[k] != '\0' && !is_blank(p[k]))
		return -1;
	*v = p;
	*vn = k;
	*after = p + k;
	return 0;
}

static char *
trimmed_span(const char *a, const char *b)
{
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	return gw_xstrndup(a, (size_t)(b - a));
}

/* One VM row; 0 and *vm filled, or -1. */
static int
vm_row(const char *s, gw_esxi_vm *vm)
{
	const char *mid, *q, *g = NULL, *v = NULL, *after = NULL, *end;
	const char *pick = NULL, *first_gap = NULL, *last = NULL;
	size_t gn = 0, vn = 0;
	unsigned long id;
	unsigned long long hw;

	if (vmid_prefix(s, &id, &mid) != 0)
		return -1;
	for (q = mid; (q = strchr(q, '.')) != NULL; q++)
		if (ci_prefix(q, ".vmx") &&
		    guest_version_at(q + 4, &g, &gn, &v, &vn, &after) == 0)
			break;
	if (q == NULL)
		return -1;
	end = q + 4;
	/* Candidates for the start of the file: '[' after a blank, its ']'
	 * followed by a blank and a path. */
	{
		const char *c;

		for (c = mid + 1; c < end; c++) {
			const char *r, *nm_end;

			if (*c != '[' || !is_blank(c[-1]))
				continue;
			r = memchr(c, ']', (size_t)(end - c));
			if (r == NULL || r == c + 1 || r + 2 >= end ||
			    r[1] != ' ' || is_blank(r[2]))
				continue;
			nm_end = c;
			while (nm_end > mid && is_blank(nm_end[-1]))
				nm_end--;
			if (nm_end == mid)
				continue;
			/* Path "NAME/..." for name mid..nm_end? */
			if ((size_t)(end - (r + 2)) > (size_t)(nm_end - mid) &&
			    memcmp(r + 2, mid, (size_t)(nm_end - mid)) == 0 &&
			    r[2 + (nm_end - mid)] == '/' && pick == NULL)
				pick = c;
			if (first_gap == NULL && c - nm_end >= 2)
				first_gap = c;
			last = c;
		}
	}
	if (pick == NULL)
		pick = first_gap ? first_gap : last;
	if (pick == NULL)
		return -1;
	memset(vm, 0, sizeof *vm);
	vm->vmid = id;
	vm->name = trimmed_span(mid, pick);
	vm->file = gw_xstrndup(pick, (size_t)(end - pick));
	{
		const char *r = strchr(vm->file, ']');

		vm->datastore = gw_xstrndup(vm->file + 1, (size_t)(r - vm->file - 1));
		vm->path = gw_xstrdup(r + 2);
	}
	vm->guest_os = gw_xstrndup(g, gn);
	vm->version = gw_xstrndup(v, vn);
	if (gw_parse_uint(vm->version + 4, 9999, &hw) == 0)
		vm->hw_version = (int)hw;
	while (is_blank(*after))
		after++;
	vm->annotation = gw_xstrdup(after);
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
	while (is_blank(*s))
		s++;
	return strncmp(s, "Vmid", 4) == 0 && is_blank(s[4]) &&
	       strstr(s, "Name") && strstr(s, "File") && strstr(s, "Version");
}

int
gw_esxi_parse_getallvms(const char *text, const char *name,
                        gw_esxi_vm_list *out, gw_err *e)
{
	tlines tl;
	size_t i, cap = 0, scap = 0, blanks = 0;
	int header = 0;
	char ex[64];

	memset(out, 0, sizeof *out);
	if (split_lines(text, name, CMD_GETALLVMS, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, CMD_GETALLVMS); i < tl.n; i++) {
		const char *s = tl.v[i];
		unsigned ln = (unsigned)i + 1;
		unsigned long skip_id;
		gw_esxi_vm vm;

		if (*s == '\0') {
			blanks++;
			continue;
		}
		if (skipping_line(s, &skip_id)) {
			if (out->nskipped == scap) {
				scap = scap ? scap * 2 : 8;
				out->skipped = gw_xrealloc(out->skipped,
				                           scap * sizeof *out->skipped);
			}
			out->skipped[out->nskipped++] = skip_id;
			blanks = 0;
			continue;
		}
		if (!header) {
			if (!getallvms_header(s)) {
				err_line(e, name, ln,
				         _("expected the header 'Vmid Name File "
				           "Guest OS Version Annotation' of %s, "
				           "found '%s'"), CMD_GETALLVMS,
				         excerpt(s, ex, sizeof ex));
				goto fail;
			}
			header = 1;
			blanks = 0;
			continue;
		}
		if (vm_row(s, &vm) == 0) {
			const gw_esxi_vm *dup = gw_esxi_vm_find(out, vm.vmid);

			if (dup != NULL) {
				err_line(e, name, ln,
				         _("VM %lu is listed twice (first at line "
				           "%u)"), vm.vmid, dup->line);
				vm_free(&vm);
				goto fail;
			}
			vm.line = ln;
			if (out->n == cap) {
				cap = cap ? cap * 2 : 16;
				out->vms = gw_xrealloc(out->vms, cap * sizeof *out->vms);
			}
			out->vms[out->n++] = vm;
		} else if (out->n == 0 || looks_like_row(s)) {
			err_line(e, name, ln,
			         _("expected a VM line (Vmid, Name, [datastore] "
			           "path.vmx, Guest OS, vmx-NN, Annotation), found "
			           "'%s'"), excerpt(s, ex, sizeof ex));
			goto fail;
		} else {
			/* The annotation of the VM above goes on. */
			gw_esxi_vm *last = &out->vms[out->n - 1];
			gw_buf b;

			gw_buf_init(&b);
			gw_buf_puts(&b, last->annotation);
			for (; blanks > 0; blanks--)
				gw_buf_puts(&b, "\n");
			gw_buf_puts(&b, "\n");
			gw_buf_puts(&b, s);
			free(last->annotation);
			last->annotation = gw_buf_steal(&b);
		}
		blanks = 0;
	}
	if (!header) {
		err_input(e, name, _("no output in it; expected the output of %s"),
		          CMD_GETALLVMS);
		goto fail;
	}
	tlines_free(&tl);
	return 0;
fail:
	tlines_free(&tl);
	gw_esxi_vm_list_free(out);
	return -1;
}

/* ---- vim-cmd vmsvc/power.getstate -------------------------------------- */

const char *
gw_esxi_power_id(gw_esxi_power p)
{
	switch (p) {
	case GW_ESXI_POWER_ON:
		return "on";
	case GW_ESXI_POWER_OFF:
		return "off";
	case GW_ESXI_POWER_SUSPENDED:
		return "suspended";
	default:
		return "unknown";
	}
}

int
gw_esxi_parse_power_state(const char *text, const char *name,
                          gw_esxi_power *out, gw_err *e)
{
	tlines tl;
	size_t i;
	unsigned at = 0;
	gw_esxi_power st = GW_ESXI_POWER_UNKNOWN;
	char ex[64];

	*out = GW_ESXI_POWER_UNKNOWN;
	if (split_lines(text, name, CMD_POWER, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, CMD_POWER); i < tl.n; i++) {
		const char *s = tl.v[i];
		gw_esxi_power now;

		while (is_blank(*s))
			s++;
		if (*s == '\0' || gw_strieq(s, "Retrieved runtime info"))
			continue;
		if (gw_strieq(s, "Powered on"))
			now = GW_ESXI_POWER_ON;
		else if (gw_strieq(s, "Powered off"))
			now = GW_ESXI_POWER_OFF;
		else if (gw_strieq(s, "Suspended"))
			now = GW_ESXI_POWER_SUSPENDED;
		else {
			err_line(e, name, (unsigned)i + 1,
			         _("expected a power state (Powered on, Powered "
			           "off or Suspended) as %s prints it, found "
			           "'%s'"), CMD_POWER, excerpt(s, ex, sizeof ex));
			goto fail;
		}
		if (st != GW_ESXI_POWER_UNKNOWN) {
			err_line(e, name, (unsigned)i + 1,
			         _("a second power state '%s' (the first is on "
			           "line %u)"), s, at);
			goto fail;
		}
		st = now;
		at = (unsigned)i + 1;
	}
	if (st == GW_ESXI_POWER_UNKNOWN) {
		err_input(e, name, _("no power state in it; expected the output "
		                     "of %s"), CMD_POWER);
		goto fail;
	}
	*out = st;
	tlines_free(&tl);
	return 0;
fail:
	tlines_free(&tl);
	return -1;
}

/* ---- esxcli storage core path list / core device list ------------------ */

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
	if (s[k] != ':' || (s[k + 1] != '\0' && !is_blank(s[k + 1])))
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
		if (is_blank(s[k]))
			return 0;
	return 1;
}

typedef struct sblock {
	unsigned line;
	char *name;
	gw_esxi_field *fields;
	size_t nfields;
} sblock;

static void
fields_free(gw_esxi_field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

static const gw_esxi_field *
find_field(const gw_esxi_field *f, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (gw_strieq(f[i].key, key))
			return &f[i];
	return NULL;
}

const char *
gw_esxi_storage_field(const gw_esxi_field *fields, size_t n, const char *key)
{
	const gw_esxi_field *f = fields && key ? find_field(fields, n, key)
	                                       : NULL;

	return f ? f->value : NULL;
}

static void
sblocks_free(sblock *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(b[i].name);
		fields_free(b[i].fields, b[i].nfields);
	}
	free(b);
}

/* Split the blocks of cmd's output (see esxi.h).  example names the kind
 * of line that opens a block, for errors. */
static int
parse_sblocks(const char *text, const char *name, const char *cmd,
              const char *example, sblock **out, size_t *nout, gw_err *e)
{
	tlines tl;
	size_t i, cap = 0, fcap = 0, n = 0;
	sblock *v = NULL, *cur = NULL;
	char ex[64];

	*out = NULL;
	*nout = 0;
	if (split_lines(text, name, cmd, &tl, e) != 0)
		return -1;
	for (i = skip_preamble(&tl, cmd); i < tl.n; i++) {
		const char *s = tl.v[i];
		unsigned ln = (unsigned)i + 1;
		size_t k;

		while (is_blank(*s))
			s++;
		if (*s == '\0')
			continue;
		k = field_key(s);
		if (k == 0) {
			size_t j;

			if (!storage_name(s))
				goto not_block;
			for (j = 0; j < n; j++)
				if (strcmp(v[j].name, s) == 0) {
					err_line(e, name, ln,
					         _("%s is listed twice (first at line "
					           "%u)"), excerpt(s, ex, sizeof ex),
					         v[j].line);
					goto fail;
				}
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				v = gw_xrealloc(v, cap * sizeof *v);
			}
			cur = &v[n++];
			memset(cur, 0, sizeof *cur);
			cur->line = ln;
			cur->name = gw_xstrdup(s);
			fcap = 0;
		} else {
			const gw_esxi_field *dup;
			gw_esxi_field *f;
			char *key;

			if (cur == NULL)
				goto not_block;
			key = gw_trim(gw_xstrndup(s, k));
			dup = find_field(cur->fields, cur->nfields, key);
			if (dup != NULL) {
				err_line(e, name, ln,
				         _("'%s' is printed twice in the block of %s "
				           "(first at line %u)"), key,
				         excerpt(cur->name, ex, sizeof ex), dup->line);
				free(key);
				goto fail;
			}
			if (cur->nfields == fcap) {
				fcap = fcap ? fcap * 2 : 32;
				cur->fields = gw_xrealloc(cur->fields,
				                          fcap * sizeof *cur->fields);
			}
			f = &cur->fields[cur->nfields++];
			f->key = key;
			f->value = gw_trim(gw_xstrdup(s + k + 1));
			f->line = ln;
		}
		continue;
not_block:
		err_line(e, name, ln,
		         _("expected a storage name such as %s opening a block, "
		           "found '%s'; is this the output of %s?"), example,
		         excerpt(s, ex, sizeof ex), cmd);
		goto fail;
	}
	if (n == 0) {
		err_input(e, name, _("no block in it; expected the output of %s"),
		          cmd);
		goto fail;
	}
	tlines_free(&tl);
	*out = v;
	*nout = n;
	return 0;
fail:
	tlines_free(&tl);
	sblocks_free(v, n);
	return -1;
}

#define EX_PATH   "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130"
#define EX_DEVICE "naa.600508b1001cf76cb54a0dec4acc6459"

void
gw_esxi_storage_path_list_free(gw_esxi_storage_path_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->paths[i].name);
		fields_free(l->paths[i].fields, l->paths[i].nfields);
	}
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

int
gw_esxi_parse_storage_paths(const char *text, const char *name,
                            gw_esxi_storage_path_list *out, gw_err *e)
{
	sblock *b;
	size_t n, i;
	char ex[64];

	memset(out, 0, sizeof *out);
	if (parse_sblocks(text, name, CMD_PATHS, EX_PATH, &b, &n, e) != 0)
		return -1;
	out->paths = gw_xcalloc(n, sizeof *out->paths);
	for (i = 0; i < n; i++) {
		gw_esxi_storage_path *p = &out->paths[i];
		const gw_esxi_field *ad, *rt;
		const char *a;
		size_t len;

		/* ownership moves to out, block by block */
		p->line = b[i].line;
		p->name = b[i].name;
		p->fields = b[i].fields;
		p->nfields = b[i].nfields;
		b[i].name = NULL;
		b[i].fields = NULL;
		b[i].nfields = 0;
		out->n = i + 1;
		p->device = gw_esxi_storage_field(p->fields, p->nfields, "Device");
		p->runtime_name = gw_esxi_storage_field(p->fields, p->nfields,
		                                        "Runtime Name");
		p->state = gw_esxi_storage_field(p->fields, p->nfields, "State");
		if (p->device == NULL || p->device[0] == '\0' ||
		    strpbrk(p->device, " \t")) {
			err_line(e, name, p->line,
			         _("the block of path %s has no device name (a "
			           "'Device' line); expected the full output of %s"),
			         excerpt(p->name, ex, sizeof ex), CMD_PATHS);
			goto fail;
		}
		ad = find_field(p->fields, p->nfields, "Adapter");
		rt = find_field(p->fields, p->nfields, "Runtime Name");
		if (ad != NULL) {
			a = ad->value;
			len = strlen(a);
		} else if (rt != NULL) {
			a = rt->value;
			len = strcspn(a, ":");
		} else {
			err_line(e, name, p->line,
			         _("the block of path %s has neither an 'Adapter' "
			           "nor a 'Runtime Name' line; expected the full "
			           "output of %s"), excerpt(p->name, ex, sizeof ex),
			         CMD_PATHS);
			goto fail;
		}
		if (len == 0 || len >= sizeof p->adapter ||
		    strcspn(a, " \t") < len) {
			const gw_esxi_field *f = ad ? ad : rt;

			err_line(e, name, f->line,
			         _("%s: '%s' does not name a storage adapter "
			           "(expected e.g. vmhba0)"), f->key, f->value);
			goto fail;
		}
		memcpy(p->adapter, a, len);
		p->adapter[len] = '\0';
	}
	sblocks_free(b, n);
	return 0;
fail:
	sblocks_free(b, n);
	gw_esxi_storage_path_list_free(out);
	return -1;
}

void
gw_esxi_storage_dev_list_free(gw_esxi_storage_dev_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->devs[i].name);
		fields_free(l->devs[i].fields, l->devs[i].nfields);
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
	const gw_esxi_field *x = find_field(f, n, key);
	int v;

	if (x == NULL)
		return -1;
	if (parse_bool(x->value, &v) != 0) {
		err_line(e, name, x->line, _("%s: '%s' is not true or false"),
		         x->key, x->value);
		return -2;
	}
	return v;
}

int
gw_esxi_parse_storage_devices(const char *text, const char *name,
                              gw_esxi_storage_dev_list *out, gw_err *e)
{
	sblock *b;
	size_t n, i;
	char ex[64];

	memset(out, 0, sizeof *out);
	if (parse_sblocks(text, name, CMD_DEVICES, EX_DEVICE, &b, &n, e) != 0)
		return -1;
	out->devs = gw_xcalloc(n, sizeof *out->devs);
	for (i = 0; i < n; i++) {
		gw_esxi_storage_dev *d = &out->devs[i];

		d->line = b[i].line;
		d->name = b[i].name;
		d->fields = b[i].fields;
		d->nfields = b[i].nfields;
		b[i].name = NULL;
		b[i].fields = NULL;
		b[i].nfields = 0;
		out->n = i + 1;
		d->display_name = gw_esxi_storage_field(d->fields, d->nfields,
		                                        "Display Name");
		if (d->display_name == NULL) {
			err_line(e, name, d->line,
			         _("the block of device %s has no '%s' line; "
			           "expected the full output of %s"),
			         excerpt(d->name, ex, sizeof ex), "Display Name",
			         CMD_DEVICES);
			goto fail;
		}
		d->is_boot = opt_bool(d->fields, d->nfields, "Is Boot Device",
		                      name, e);
		d->is_local = d->is_boot == -2 ? -2
		            : opt_bool(d->fields, d->nfields, "Is Local", name, e);
		if (d->is_boot == -2 || d->is_local == -2)
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

/* ---- esxcli storage vmfs extent list ----------------------------------- */

void
gw_esxi_vmfs_extent_list_free(gw_esxi_vmfs_extent_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->extents[i].volume_name);
		free(l->extents[i].vmfs_uuid);
		free(l->extents[i].device_name);
	}
	free(l->extents);
	l->extents = NULL;
	l->n = 0;
}

/* A small decimal number ("0", "3"), or -1. */
static int
small_dec(const char *s)
{
	unsigned long long v;

	if (gw_parse_uint(s, 1000000, &v) != 0)
		return -1;
	return (int)v;
}

enum { XC_VOLUME, XC_UUID, XC_EXTENT, XC_DEVICE, XC_PARTITION, XC_N };

/* Fill x from the row's cells under the columns; -1 when they do not
 * make a row. */
static int
extent_cells(const char *s, const column *cols, const size_t *at,
             gw_esxi_vmfs_extent *x)
{
	char c[XC_N][512];
	int k;

	for (k = 0; k < XC_N; k++) {
		c[k][0] = '\0';
		if (at[k] != (size_t)-1)
			cell(s, &cols[at[k]], c[k], sizeof c[k]);
	}
	if (c[XC_DEVICE][0] == '\0' || strpbrk(c[XC_DEVICE], " \t") ||
	    (at[XC_UUID] != (size_t)-1 && strpbrk(c[XC_UUID], " \t")) ||
	    (at[XC_EXTENT] != (size_t)-1 && small_dec(c[XC_EXTENT]) < 0) ||
	    (at[XC_PARTITION] != (size_t)-1 && small_dec(c[XC_PARTITION]) < 0))
		return -1;
	memset(x, 0, sizeof *x);
	x->volume_name = gw_xstrdup(c[XC_VOLUME]);
	x->vmfs_uuid = at[XC_UUID] != (size_t)-1 ? gw_xstrdup(c[XC_UUID])
	                                         : NULL;
	x->extent_number = at[XC_EXTENT] != (size_t)-1
	                 ? small_dec(c[XC_EXTENT]) : -1;
	x->device_name = gw_xstrdup(c[XC_DEVICE]);
	x->partition = at[XC_PARTITION] != (size_t)-1
	             ? small_dec(c[XC_PARTITION]) : -1;
	return 0;
}

/* A row whose blanks were squeezed: the last four words are UUID, extent,
 * device and partition; the volume name is what comes before. */
static int
extent_words(const char *s, gw_esxi_vmfs_extent *x)
{
	const char *w[4], *end[4], *p = s + strlen(s);
	char buf[4][512];
	int k;

	for (k = 3; k >= 0; k--) {
		while (p > s && is_blank(p[-1]))
			p--;
		end[k] = p;
		while (p > s && !is_blank(p[-1]))
			p--;
		w[k] = p;
		if (w[k] == end[k] || (size_t)(end[k] - w[k]) >= sizeof buf[k])
			return -1;
		memcpy(buf[k], w[k], (size_t)(end[k] - w[k]));
		buf[k][end[k] - w[k]] = '\0';
	}
	/* buf: uuid, extent, device, partition */
	if (small_dec(buf[1]) < 0 || small_dec(buf[3]) < 0)
		return -1;
	memset(x, 0, sizeof *x);
	x->volume_name = trimmed_span(s, w[0]);
	x->vmfs_uuid = gw_xstrdup(buf[0]);
	x->extent_number = small_dec(buf[1]);
	x->device_name = gw_xstrdup(buf[2]);
	x->partition = small_dec(buf[3]);
	return 0;
}

int
gw_esxi_parse_vmfs_extents(const char *text, const char *name,
                           gw_esxi_vmfs_extent_list *out, gw_err *e)
{
	static const char *const names[XC_N] = {
		"Volume Name", "VMFS UUID", "Extent Number", "Device Name",
		"Partition"
	};
	tlines tl;
	column cols[16];
	size_t at[XC_N], ncols = 0, i, k, cap = 0;
	int squeezable;
	const char *dash;
	char ex[64], nm[64];

	memset(out, 0, sizeof *out);
	if (split_lines(text, name, CMD_EXTENTS, &tl, e) != 0)
		return -1;
	i = skip_preamble(&tl, CMD_EXTENTS);
	if (i >= tl.n) {
		err_input(e, name, _("no output in it; expected the output of %s"),
		          CMD_EXTENTS);
		goto fail;
	}
	if (!(strstr(tl.v[i], "Volume Name") && strstr(tl.v[i], "Device Name")))
		goto bad_header;
	dash = i + 1 < tl.n ? tl.v[i + 1] : "";
	for (k = 0; dash[k]; k++)
		if (dash[k] != '-' && !is_blank(dash[k]))
			break;
	if (dash[k] != '\0' || strchr(dash, '-') == NULL) {
		err_line(e, name, (unsigned)i + 2,
		         _("expected a line of dashes under the column names, "
		           "found '%s'"), excerpt(dash, ex, sizeof ex));
		goto fail;
	}
	if (dash_columns(dash, cols, sizeof cols / sizeof cols[0], &ncols) != 0)
		goto bad_header;
	for (k = 0; k < XC_N; k++)
		at[k] = (size_t)-1;
	for (k = 0; k < ncols; k++) {
		size_t j;

		cell(tl.v[i], &cols[k], nm, sizeof nm);
		for (j = 0; j < XC_N; j++)
			if (gw_strieq(nm, names[j]))
				at[j] = k;
	}
	if (at[XC_VOLUME] == (size_t)-1 || at[XC_DEVICE] == (size_t)-1)
		goto bad_header;
	squeezable = ncols == XC_N;
	for (k = 0; k < XC_N; k++)
		if (at[k] != k)
			squeezable = 0;
	for (i += 2; i < tl.n; i++) {
		gw_esxi_vmfs_extent x;

		if (tl.v[i][0] == '\0')
			continue;
		if (extent_cells(tl.v[i], cols, at, &x) != 0 &&
		    (!squeezable || extent_words(tl.v[i], &x) != 0)) {
			err_line(e, name, (unsigned)i + 1,
			         _("expected a volume name, a device name and "
			           "numbers under the columns of %s, found '%s'"),
			         CMD_EXTENTS, excerpt(tl.v[i], ex, sizeof ex));
			goto fail;
		}
		x.line = (unsigned)i + 1;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			out->extents = gw_xrealloc(out->extents,
			                           cap * sizeof *out->extents);
		}
		out->extents[out->n++] = x;
	}
	tlines_free(&tl);
	return 0;
bad_header:
	err_line(e, name, (unsigned)i + 1,
	         _("expected the column names 'Volume Name' and 'Device Name' "
	           "of %s, found '%s'"), CMD_EXTENTS,
	         excerpt(tl.v[i], ex, sizeof ex));
fail:
	tlines_free(&tl);
	gw_esxi_vmfs_extent_list_free(out);
	return -1;
}

/* ---- gpuwiz gpus --esxcli-file ----------------------------------------- */

typedef struct gpu_row {
	const gw_esxi_pci_dev *d;
	const gw_gpu *g;          /* table row, NULL when unknown */
	int ambiguous;            /* several table rows, none picked */
	int counted;              /* counted in the MMIO size */
	int vram_gb;              /* -1 unknown */
	const char *name;
} gpu_row;

static int
current_is_passthru(const gw_esxi_pci_dev *d)
{
	return d->current_owner == NULL ||
	       gw_strieq(d->current_owner, "VM Passthru");
}

static const char *
passthru_text(const gw_esxi_pci_dev *d)
{
	int en = gw_esxi_pci_passthru_enabled(d);

	if (en == 1)
		return current_is_passthru(d) ? _("enabled")
		                              : _("enabled, reboot needed");
	if (d->passthru_capable == 0)
		return _("not capable");
	if (en == 0 && d->passthru_capable == 1)
		return _("capable, not enabled");
	return _("unknown");
}

static void
add_note(char ***notes, size_t *n, char *s)
{
	*notes = gw_xrealloc(*notes, (*n + 1) * sizeof **notes);
	(*notes)[(*n)++] = s;
}

/* Print rows of cells aligned by terminal cells, two blanks apart. */
static void
print_table(char **cells, size_t nrows, size_t ncols)
{
	int w[8] = { 0 };
	size_t r, c;

	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++) {
			int k = gw_text_cells(cells[r * ncols + c]);

			if (k > w[c])
				w[c] = k;
		}
	for (r = 0; r < nrows; r++) {
		fputs("  ", stdout);
		for (c = 0; c < ncols; c++) {
			const char *s = cells[r * ncols + c];

			fputs(s, stdout);
			if (c + 1 < ncols)
				printf("%*s", w[c] - gw_text_cells(s) + 2, "");
		}
		fputc('\n', stdout);
	}
}

static json_t *
hex_id(unsigned v)
{
	char b[8];

	snprintf(b, sizeof b, "0x%04x", v & 0xffffu);
	return json_string(b);
}

static json_t *
tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* The report of gw_esxi_gpus_command for the output text, named path in
 * messages and JSON. */
static int
gpus_report(const gw_table *t, const char *data, const char *path, int json,
            gw_err *e)
{
	gw_esxi_pci_list l;
	gpu_row *rows = NULL;
	size_t nrows = 0, ncounted = 0, nnotes = 0, i;
	char **notes = NULL;
	int mmio_known = 0, unknown = 0;
	uint64_t mmio = 0;

	if (gw_esxi_parse_pci_list(data, path, &l, e) != 0)
		return 2;

	/* The display-class devices and what the table knows of them. */
	for (i = 0; i < l.n; i++) {
		const gw_esxi_pci_dev *d = &l.devs[i];
		gpu_row *r;

		if (!gw_esxi_pci_is_display(d))
			continue;
		rows = gw_xrealloc(rows, (nrows + 1) * sizeof *rows);
		r = &rows[nrows++];
		memset(r, 0, sizeof *r);
		r->d = d;
		r->g = t ? gw_table_find_pci(t, d->vendor_id, d->device_id,
		                             d->subvendor_id, d->subdevice_id,
		                             &r->ambiguous)
		         : NULL;
		r->vram_gb = r->g ? r->g->vram_gb : -1;
		r->counted = !gw_is_onboard_display(d->vendor_id);
		r->name = r->g ? r->g->name
		        : d->device_name && *d->device_name ? d->device_name
		        : "";
		if (r->counted) {
			ncounted++;
			if (r->vram_gb < 0)
				unknown++;
		}
	}

	/* Notes, in device order. */
	for (i = 0; i < nrows; i++) {
		const gpu_row *r = &rows[i];
		const gw_esxi_pci_dev *d = r->d;
		char id[16];

		snprintf(id, sizeof id, "%04x:%04x", d->vendor_id, d->device_id);
		if (!r->counted) {
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s (%s) is an on-board management or virtual "
			      "display, not counted in the MMIO size"),
			    d->bdf, id));
			continue;
		}
		if (r->vram_gb < 0 && r->ambiguous)
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s (%s): several GPUs in the table share this PCI "
			      "id and its subsystem %04x:%04x does not pick one, "
			      "so its VRAM is unknown; size the VM with gpuwiz "
			      "mmio --vram GB"),
			    d->bdf, id, d->subvendor_id, d->subdevice_id));
		else if (r->vram_gb < 0 && r->g)
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s (%s, %s): its VRAM is unknown in the GPU table; "
			      "size the VM with gpuwiz mmio --vram GB"),
			    d->bdf, id, r->g->name));
		else if (r->vram_gb < 0)
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s (%s) is not in the GPU table, so its VRAM is "
			      "unknown; size the VM with gpuwiz mmio --vram GB"),
			    d->bdf, id));
		if (d->passthru_capable == 0)
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s: ESXi says it cannot be passed through "
			      "(Passthru Capable: false); check that VT-d / "
			      "AMD-Vi (IOMMU) is enabled in the host's BIOS"),
			    d->bdf));
		else if (gw_esxi_pci_passthru_enabled(d) == 0)
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s: passthrough is not enabled; enable it with: "
			      "esxcli hardware pci pcipassthru set -d %s -e true "
			      "-a"), d->bdf, d->bdf));
		else if (gw_esxi_pci_passthru_enabled(d) == 1 &&
		         !current_is_passthru(d))
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("%s: passthrough is configured but the device is "
			      "still owned by %s; reboot the host to apply it"),
			    d->bdf, d->current_owner));
	}

	/* The MMIO size for all counted GPUs in one VM. */
	if (ncounted > 0 && unknown == 0) {
		gw_answers a;
		gw_plan p;
		gw_err pe;

		gw_answers_init(&a);
		a.reserve = 0;   /* sizing only */
		a.gpus = gw_xcalloc(ncounted, sizeof *a.gpus);
		for (i = 0; i < nrows; i++) {
			gw_gpu_want *w;

			if (!rows[i].counted)
				continue;
			w = &a.gpus[a.ngpus++];
			w->gpu = rows[i].g;
			w->vram_gb = rows[i].vram_gb;
			w->count = 1;
			w->spec = gw_xstrdup(rows[i].d->bdf);
		}
		if (gw_plan_build(&a, t, NULL, &p, &pe) == 0) {
			mmio = p.mmio_gb;
			mmio_known = 1;
		} else {
			add_note(&notes, &nnotes, gw_xasprintf(
			    _("no MMIO size: %s"), pe.msg));
		}
		gw_plan_free(&p);
		gw_answers_free(&a);
	}

	if (json) {
		json_t *o = json_object(), *arr = json_array(), *jn = json_array();
		char *s;

		json_object_set_new(o, "file", gw_json_text(path));
		for (i = 0; i < nrows; i++) {
			const gpu_row *r = &rows[i];
			const gw_esxi_pci_dev *d = r->d;
			json_t *j = json_object();

			json_object_set_new(j, "bdf", json_string(d->bdf));
			json_object_set_new(j, "vmx_id", json_string(d->vmx_id));
			json_object_set_new(j, "vendor_id", hex_id(d->vendor_id));
			json_object_set_new(j, "device_id", hex_id(d->device_id));
			json_object_set_new(j, "subvendor_id",
			    gw_esxi_pci_field(d, "SubVendor ID")
			        ? hex_id(d->subvendor_id) : json_null());
			json_object_set_new(j, "subdevice_id",
			    gw_esxi_pci_field(d, "SubDevice ID")
			        ? hex_id(d->subdevice_id) : json_null());
			json_object_set_new(j, "name", gw_json_text(r->name));
			json_object_set_new(j, "table_id",
			                    r->g ? json_string(r->g->id) : json_null());
			json_object_set_new(j, "vram_gb", r->vram_gb >= 0
			                    ? json_integer(r->vram_gb) : json_null());
			json_object_set_new(j, "passthru_capable",
			                    tri(d->passthru_capable));
			json_object_set_new(j, "passthru_enabled",
			                    tri(gw_esxi_pci_passthru_enabled(d)));
			json_object_set_new(j, "configured_owner",
			                    d->configured_owner
			                        ? gw_json_text(d->configured_owner)
			                        : json_null());
			json_object_set_new(j, "current_owner",
			                    d->current_owner
			                        ? gw_json_text(d->current_owner)
			                        : json_null());
			json_object_set_new(j, "counted_in_mmio",
			                    json_boolean(r->counted));
			json_array_append_new(arr, j);
		}
		json_object_set_new(o, "gpus", arr);
		json_object_set_new(o, "mmio_size_gb", mmio_known
		                    ? json_integer((json_int_t)mmio) : json_null());
		for (i = 0; i < nnotes; i++)
			json_array_append_new(jn, gw_json_text(notes[i]));
		json_object_set_new(o, "notes", jn);
		s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (s) {
			puts(s);
			free(s);
		}
		json_decref(o);
	} else if (nrows == 0) {
		printf(_("no display-class device in %s"), path);
		fputc('\n', stdout);
	} else {
		enum { NC = 6 };
		char **cells = gw_xcalloc((nrows + 1) * NC, sizeof *cells);

		printf(_("Display-class devices in %s:"), path);
		fputc('\n', stdout);
		cells[0] = gw_xstrdup(_("Address"));
		cells[1] = gw_xstrdup(_("VMX id"));
		cells[2] = gw_xstrdup(_("PCI id"));
		cells[3] = gw_xstrdup(_("Name"));
		cells[4] = gw_xstrdup(_("VRAM"));
		cells[5] = gw_xstrdup(_("Passthrough"));
		for (i = 0; i < nrows; i++) {
			const gpu_row *r = &rows[i];
			char **c = &cells[(i + 1) * NC];

			c[0] = gw_xstrdup(r->d->bdf);
			c[1] = gw_xstrdup(r->d->vmx_id);
			c[2] = gw_xasprintf("%04x:%04x", r->d->vendor_id,
			                    r->d->device_id);
			c[3] = gw_xstrdup(*r->name ? r->name : "-");
			c[4] = r->vram_gb >= 0 ? gw_xasprintf(_("%d GB"), r->vram_gb)
			                       : gw_xstrdup(_("unknown"));
			c[5] = gw_xstrdup(passthru_text(r->d));
		}
		print_table(cells, nrows + 1, NC);
		for (i = 0; i < (nrows + 1) * NC; i++)
			free(cells[i]);
		free(cells);
		if (mmio_known)
			printf(_("64-bit MMIO size for these GPUs in one VM: %llu GB"),
			       (unsigned long long)mmio);
		else
			fputs(_("64-bit MMIO size: not computed (see the notes)"),
			      stdout);
		fputc('\n', stdout);
		if (nnotes > 0) {
			printf("%s\n", _("Notes:"));
			for (i = 0; i < nnotes; i++)
				printf("  - %s\n", notes[i]);
		}
	}
	fflush(stdout);
	for (i = 0; i < nnotes; i++)
		free(notes[i]);
	free(notes);
	free(rows);
	gw_esxi_pci_list_free(&l);
	return 0;
}

int
gw_esxi_gpus_command(const gw_table *t, const char *path, int json,
                     gw_err *e)
{
	char *data = NULL;
	size_t len = 0;
	int rc;

	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("--esxcli-file: no file given"));
		return 2;
	}
	if (gw_read_file(path, GW_ESXI_MAX_BYTES, &data, &len, e) != 0)
		return 2;
	if (memchr(data, '\0', len) != NULL) {
		gw_err_set(e, _("%s: binary data (NUL byte); expected the text "
		                "output of %s"), path, CMD_PCI_LIST);
		free(data);
		return 2;
	}
	rc = gpus_report(t, data, path, json, e);
	free(data);
	return rc;
}

int
gw_esxi_gpus_text_command(const gw_table *t, const char *text,
                          const char *name, int json, gw_err *e)
{
	if (text == NULL)
		text = "";
	if (name == NULL)
		name = CMD_PCI_LIST;
	if (strlen(text) > GW_ESXI_MAX_BYTES) {
		gw_err_set(e, _("%s: more than %u bytes; expected the output of "
		                "%s"), name, GW_ESXI_MAX_BYTES, CMD_PCI_LIST);
		return 2;
	}
	return gpus_report(t, text, name, json, e);
}
