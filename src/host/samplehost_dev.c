/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_dev.c: one [devN] section of a linux sample (see
 * samplehost.h): the address, the ids, the BARs, the IOMMU group and the
 * driver. */
#include "samplehost_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0000:3b:00.0" (hex, lower or upper case). */
static int
parse_bdf(const char *s, sdev *d)
{
	unsigned v[4] = { 0, 0, 0, 0 };
	static const size_t width[4] = { 4, 2, 2, 1 };
	static const char sep[4] = { ':', ':', '.', '\0' };
	size_t i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < width[i]; k++, s++) {
			int h = gw_hexval((unsigned char)*s);

			if (h < 0)
				return -1;
			v[i] = v[i] << 4 | (unsigned)h;
		}
		if (*s++ != sep[i])
			return -1;
	}
	if (v[2] > 0x1f || v[3] > 7)
		return -1;
	d->dom = v[0];
	d->bus = v[1];
	d->dev = v[2];
	d->fn = v[3];
	snprintf(d->bdf, sizeof d->bdf, "%04x:%02x:%02x.%x", d->dom, d->bus,
	         d->dev, d->fn);
	return 0;
}

/* "64G", "16K", "128": bytes, a power of two. */
static int
parse_size(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	size_t i;

	if (len == 0)
		return -1;
	switch (s[len - 1]) {
	case 'K': case 'k': mul = 1ULL << 10; len--; break;
	case 'M': case 'm': mul = 1ULL << 20; len--; break;
	case 'G': case 'g': mul = 1ULL << 30; len--; break;
	case 'T': case 't': mul = 1ULL << 40; len--; break;
	default: break;
	}
	if (len == 0 || len > 12)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	v *= mul;
	if (v == 0 || (v & (v - 1)) != 0)
		return -1;
	*out = v;
	return 0;
}

static int
bad_bars(const ini_ctx *c, const char *sec, const char *tok, size_t len)
{
	gw_err_set(c->e, _("%s: [%s] bars: \"%.*s\": expected "
	                   "INDEX:KIND:SIZE[@ADDRESS], KIND one of mem32, "
	                   "mem32p, mem64, mem64p, io, SIZE a power of two such "
	                   "as 16M or 64G, ADDRESS aligned to the size"),
	           c->path, sec, (int)len, tok);
	return -1;
}

/* "mem64p:" at p (before end): the BK_ kind, p moved past it; BK_NONE
 * when none. */
static int
bar_kind(const char **p, const char *end)
{
	static const struct { const char *w; int kind; } kinds[] = {
		{ "mem32p", BK_MEM32P }, { "mem32", BK_MEM32 },
		{ "mem64p", BK_MEM64P }, { "mem64", BK_MEM64 }, { "io", BK_IO },
	};

	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t wl = strlen(kinds[k].w);

		if ((size_t)(end - *p) > wl &&
		    strncmp(*p, kinds[k].w, wl) == 0 && (*p)[wl] == ':') {
			*p += wl + 1;
			return kinds[k].kind;
		}
	}
	return BK_NONE;
}

/* "SIZE[@ADDRESS]" from p to end into b (address aligned to the size). */
static int
bar_size_addr(const char *p, const char *end, sbar *b)
{
	const char *at = memchr(p, '@', (size_t)(end - p));
	char buf[40];
	size_t al;

	b->addr = 0;
	b->has_addr = at != NULL;
	if (parse_size(p, (size_t)((at ? at : end) - p), &b->size) != 0)
		return -1;
	if (at == NULL)
		return 0;
	al = (size_t)(end - at - 1);
	if (al == 0 || al >= sizeof buf)
		return -1;
	memcpy(buf, at + 1, al);
	buf[al] = '\0';
	if (smp_parse_hex(buf, UINT64_MAX, &b->addr) != 0 ||
	    (b->addr & (b->size - 1)) != 0)
		return -1;
	return 0;
}

static int
is_mem64(int kind)
{
	return kind == BK_MEM64 || kind == BK_MEM64P;
}

/* Sizes a BAR of kind can have (and a 32-bit one below 4 GiB). */
static int
bar_fits(int kind, const sbar *b)
{
	if (kind == BK_IO)
		return b->size >= 4 && b->size <= 65536;
	if (b->size < 16)
		return 0;
	if (kind == BK_MEM32 || kind == BK_MEM32P)
		return b->size <= (1ULL << 31) && b->addr + b->size <= (1ULL << 32);
	return 1;
}

/* One "INDEX:KIND:SIZE[@ADDRESS]" token (len bytes at tok) into d. */
static int
parse_bar(const ini_ctx *c, const char *sec, const char *tok, size_t len,
          sdev *d)
{
	const char *p, *end = tok + len;
	sbar b;
	int idx, kind;

	if (len < 4 || tok[0] < '0' || tok[0] > '5' || tok[1] != ':')
		return bad_bars(c, sec, tok, len);
	idx = tok[0] - '0';
	p = tok + 2;
	if ((kind = bar_kind(&p, end)) == BK_NONE)
		return bad_bars(c, sec, tok, len);
	b = d->bars[idx];
	if (bar_size_addr(p, end, &b) != 0 || !bar_fits(kind, &b))
		return bad_bars(c, sec, tok, len);
	if (d->bars[idx].kind != BK_NONE ||
	    (is_mem64(kind) && (idx == 5 || d->bars[idx + 1].kind != BK_NONE))) {
		gw_err_set(c->e, _("%s: [%s] bars: BAR %d is given twice or "
		                   "overlaps a 64-bit BAR (which also takes "
		                   "the next index; BAR 5 cannot be 64-bit)"),
		           c->path, sec, idx);
		return -1;
	}
	b.kind = kind;
	d->bars[idx] = b;
	if (is_mem64(kind))
		d->bars[idx + 1].kind = BK_UPPER;
	return 0;
}

static int
parse_bars(const ini_ctx *c, const char *sec, const char *s, sdev *d)
{
	while (*s) {
		const char *tok;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		tok = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (parse_bar(c, sec, tok, (size_t)(s - tok), d) != 0)
			return -1;
	}
	for (int i = 2; d->bridge && i < 6; i++)
		if (d->bars[i].kind != BK_NONE) {
			gw_err_set(c->e, _("%s: [%s] bars: a PCI bridge "
			                   "(class 0x0604xx) has BARs 0 and 1 "
			                   "only"),
			           c->path, sec);
			return -1;
		}
	return 0;
}

int
smp_word_ok(const char *s, const char *extra)
{
	if (*s == '\0' || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && strchr(extra, *s) == NULL)
			return 0;
	return 1;
}

int
smp_parse_dev(const ini_ctx *c, const char *sec, const shost *h, sdev *d)
{
	const char *v = NULL;
	uint64_t x;

	memset(d, 0, sizeof *d);
	d->sec = sec;
	if (smp_get_str(c, sec, "bdf", 1, &v) != 0)
		return -1;
	if (parse_bdf(v, d) != 0) {
		gw_err_set(c->e, _("%s: [%s] bdf: expected a PCI address such as "
		                   "0000:3b:00.0, found \"%s\""),
		           c->path, sec, v);
		return -1;
	}
#define HEX(key, max, req, dflt, field) do { \
		if (smp_get_hex(c, sec, key, max, req, dflt, &x) != 0) \
			return -1; \
		d->field = (unsigned)x; } while (0)
	HEX("vendor", 0xffff, 1, 0, vendor);
	HEX("device", 0xffff, 1, 0, device);
	HEX("subvendor", 0xffff, 0, 0, subv);
	HEX("subdevice", 0xffff, 0, 0, subd);
	HEX("class", 0xffffff, 1, 0, cls);
	HEX("revision", 0xff, 0, 0, rev);
	d->bridge = (d->cls >> 8) == 0x0604;
	if ((smp_ini_get(c->d, sec, "secondary") || smp_ini_get(c->d, sec, "subordinate"))
	    && !d->bridge) {
		gw_err_set(c->e, _("%s: [%s] secondary and subordinate are for a "
		                   "PCI bridge (class 0x0604xx) only"),
		           c->path, sec);
		return -1;
	}
	HEX("secondary", 0xff, 0, 0, secondary);
	HEX("subordinate", 0xff, 0, d->secondary, subordinate);
	if (d->subordinate < d->secondary) {
		gw_err_set(c->e, _("%s: [%s] subordinate: bus 0x%02x is below the "
		                   "secondary bus 0x%02x"),
		           c->path, sec, d->subordinate, d->secondary);
		return -1;
	}
#undef HEX
	v = NULL;
	if (smp_get_str(c, sec, "bars", 0, &v) != 0 ||
	    (v && parse_bars(c, sec, v, d) != 0))
		return -1;
	v = NULL;
	if (smp_get_str(c, sec, "group", 0, &v) != 0)
		return -1;
	if (v) {
		unsigned long long g;

		if (gw_parse_uint(v, 99999, &g) != 0) {
			gw_err_set(c->e, _("%s: [%s] group: expected an IOMMU group "
			                   "number, found \"%s\""),
			           c->path, sec, v);
			return -1;
		}
		if (!h->iommu) {
			gw_err_set(c->e, _("%s: [%s] group: the host has iommu = "
			                   "off, so no device is in an IOMMU group"),
			           c->path, sec);
			return -1;
		}
		d->group = v;
	}
	v = NULL;
	if (smp_get_str(c, sec, "driver", 0, &v) != 0)
		return -1;
	if (v && !smp_word_ok(v, "_-")) {
		gw_err_set(c->e, _("%s: [%s] driver: expected a driver name such "
		                   "as vfio-pci, found \"%s\""),
		           c->path, sec, v);
		return -1;
	}
	d->driver = v;
	return 0;
}
