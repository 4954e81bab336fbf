/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mmio.c: 64-bit MMIO window sizing (Broadcom KB 323402; doc/design.md, section 15.2).
 *
 * Everything is computed in uint64_t, and every shift or addition is
 * checked against the limits before it is done, so no input can overflow.
 */
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
gw_is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

uint64_t
gw_pow2_ceil(uint64_t v)
{
	uint64_t p = 1;

	if (v <= 1)
		return 1;
	if (v > (UINT64_C(1) << 63))
		return 0;
	while (p < v)
		p <<= 1;
	return p;
}

/* Rule (Broadcom KB 323402): a power of two goes to the next power of two;
 * anything else is rounded up to a power of two and then doubled.  Both
 * cases are "twice the smallest power of two >= total". */
int
gw_mmio_rule(uint64_t total_gb, uint64_t *out_gb, gw_err *e)
{
	uint64_t p;

	if (total_gb < 1 || total_gb > GW_MMIO_MAX_TOTAL_GB) {
		gw_err_set(e, _("total framebuffer %llu GB is out of range "
		                "(expected 1..%llu GB for one VM)"),
		           (unsigned long long)total_gb,
		           (unsigned long long)GW_MMIO_MAX_TOTAL_GB);
		return -1;
	}
	p = gw_pow2_ceil(total_gb);   /* <= 65536: no overflow possible */
	*out_gb = p * 2;
	return 0;
}

/* A BAR and its place in the caller's list (ties keep that order). */
typedef struct placed {
	gw_mmio_bar b;
	size_t at;
} placed;

static int
cmp_place(const void *a, const void *b)
{
	const placed *x = a, *y = b;

	if (x->b.size != y->b.size)
		return x->b.size < y->b.size ? 1 : -1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int
bar_size_ok(uint64_t size, uint64_t max, gw_err *e)
{
	if (!gw_is_pow2(size)) {
		gw_err_set(e, _("BAR size %llu bytes is not a power of "
		                "two (PCI BAR sizes always are)"),
		           (unsigned long long)size);
		return -1;
	}
	if (size > max) {
		gw_err_set(e, _("BAR size %llu bytes is not plausible "
		                "(expected at most %llu GiB)"),
		           (unsigned long long)size,
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	return 0;
}

/* Largest first, each at its natural alignment (a BAR of size S starts
 * at a multiple of S).  Largest-first packing of powers of two leaves no
 * gaps, so the end is the sum; the loop still aligns explicitly so the
 * code says what the hardware requires. */
static int
mmio_layout(gw_mmio_bar *bars, size_t n, uint64_t *out_end, gw_err *e)
{
	const uint64_t max = GW_MMIO_MAX_WINDOW_GB << 30;
	placed *v;
	uint64_t end = 0;
	size_t i;

	if (n > 0 && bars == NULL) {
		gw_err_set(e, _("BAR sizes: no list given"));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (bars[i].size != 0 && bar_size_ok(bars[i].size, max, e) != 0)
			return -1;
	v = gw_xcalloc(n ? n : 1, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].b = bars[i];
		v[i].b.offset = 0;
		v[i].at = i;
	}
	qsort(v, n, sizeof *v, cmp_place);
	for (i = 0; i < n && v[i].b.size != 0; i++) {
		uint64_t s = v[i].b.size;

		/* end <= max and s <= max, both far below 2^63: no wrap */
		end = (end + s - 1) & ~(s - 1);
		v[i].b.offset = end;
		end += s;
		if (end > max) {
			gw_err_set(e, _("BARs need more than %llu GiB of MMIO "
			                "space in one VM: not plausible"),
			           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
			free(v);
			return -1;
		}
	}
	for (i = 0; i < n; i++)
		bars[i] = v[i].b;
	free(v);
	*out_end = end;
	return 0;
}

/* The packed end rounded up to a power of two. */
static int
bars_need(uint64_t end, uint64_t *out_bytes, gw_err *e)
{
	const uint64_t max = GW_MMIO_MAX_WINDOW_GB << 30;
	uint64_t r = end ? gw_pow2_ceil(end) : 0;

	if (r > max) {
		gw_err_set(e, _("BARs need more than %llu GiB of MMIO space in "
		                "one VM: not plausible"),
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	*out_bytes = r;
	return 0;
}

static gw_mmio_bar *
bars_of(const uint64_t *bar_bytes, size_t n)
{
	gw_mmio_bar *b = gw_xcalloc(n ? n : 1, sizeof *b);
	size_t i;

	for (i = 0; i < n; i++) {
		b[i].size = bar_bytes[i];
		b[i].tag = i;
	}
	return b;
}

/* Pack the BARs (mmio_layout), then round the end up to a power of
 * two. */
int
gw_mmio_bars(const uint64_t *bar_bytes, size_t n, uint64_t *out_bytes,
             gw_err *e)
{
	gw_mmio_bar *b;
	uint64_t end = 0;
	int rc;

	if (n > 0 && bar_bytes == NULL) {
		gw_err_set(e, _("BAR sizes: no list given"));
		return -1;
	}
	b = bars_of(bar_bytes, n);
	rc = mmio_layout(b, n, &end, e);
	free(b);
	if (rc != 0)
		return -1;
	return bars_need(end, out_bytes, e);
}

uint64_t
gw_mmio_bytes_gb(uint64_t bytes)
{
	uint64_t gb = (bytes >> 30) + ((bytes & ((UINT64_C(1) << 30) - 1)) != 0);

	return gb;
}

int
gw_mmio_need_layout(uint64_t total_gb, gw_mmio_bar *bars, size_t nbars,
                    gw_mmio_need *out, gw_err *e)
{
	gw_mmio_need r = { 0, 0, 0, 0 };
	uint64_t need = 0;

	if (total_gb > 0 && gw_mmio_rule(total_gb, &r.rule_gb, e) != 0)
		return -1;
	if (nbars > 0) {
		if (mmio_layout(bars, nbars, &r.bar_end, e) != 0 ||
		    bars_need(r.bar_end, &need, e) != 0)
			return -1;
		r.bar_gb = gw_mmio_bytes_gb(need);
	}
	r.mmio_gb = r.rule_gb > r.bar_gb ? r.rule_gb : r.bar_gb;
	*out = r;
	return 0;
}

int
gw_mmio_need_for(uint64_t total_gb, const uint64_t *bar_bytes, size_t nbars,
                 gw_mmio_need *out, gw_err *e)
{
	gw_mmio_bar *b;
	int rc;

	if (nbars > 0 && bar_bytes == NULL) {
		gw_err_set(e, _("BAR sizes: no list given"));
		return -1;
	}
	b = bars_of(bar_bytes, nbars);
	rc = gw_mmio_need_layout(total_gb, b, nbars, out, e);
	free(b);
	return rc;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

/* [*b, *e) without the blanks around; shown gets the value for errors
 * (cut at 60 bytes with "..."). */
static void
trim_span(const char *s, const char **b, const char **e, char *shown,
          size_t shownlen)
{
	const char *p = s, *end;
	size_t len;

	while (is_space(*p))
		p++;
	end = p + strlen(p);
	while (end > p && is_space(end[-1]))
		end--;
	len = (size_t)(end - p);
	if (len >= shownlen)
		len = shownlen - 4;
	memcpy(shown, p, len);
	shown[len] = '\0';
	if ((size_t)(end - p) > len)
		strcat(shown, "...");
	*b = p;
	*e = end;
}

/* Decimal digits, then blanks and an optional "G"/"GB".  *big is set when
 * the number does not fit.  Returns 0 when [p, end) is all of that. */
static int
scan_gb(const char *p, const char *end, uint64_t *out, int *big)
{
	const char *q;
	uint64_t v = 0;

	*big = 0;
	for (q = p; q < end && *q >= '0' && *q <= '9'; q++) {
		if (*big)
			continue;
		if (v > (UINT64_MAX - 9) / 10)
			*big = 1;
		else
			v = v * 10 + (uint64_t)(*q - '0');
	}
	if (q == p)
		return -1;
	while (q < end && is_space(*q))
		q++;
	if (q < end && (*q == 'G' || *q == 'g')) {
		q++;
		if (q < end && (*q == 'B' || *q == 'b'))
			q++;
	}
	if (q != end)
		return -1;
	*out = v;
	return 0;
}

/* Accepted: optional surrounding blanks, decimal digits, then optionally a
 * unit "G" or "GB" (any case, blanks allowed before it).  "48", "48GB",
 * "48 gb", "48G" all give 48.  Everything else (signs, fractions, hex,
 * other units) is refused: guessing a size is worse than asking. */
int
gw_parse_gb(const char *s, const char *field, uint64_t max, uint64_t *out,
            gw_err *e)
{
	const char *p, *end;
	uint64_t v = 0;
	int big = 0;
	char shown[64];

	if (field == NULL || *field == '\0')
		field = _("size");
	trim_span(s ? s : "", &p, &end, shown, sizeof shown);
	if (p == end) {
		gw_err_set(e, _("%s: empty value (expected a size in GB, "
		                "1..%llu)"), field, (unsigned long long)max);
		return -1;
	}
	if (scan_gb(p, end, &v, &big) != 0) {
		gw_err_set(e, _("%s: '%s' is not a whole number of GB (expected "
		                "1..%llu, e.g. 48)"), field, shown,
		           (unsigned long long)max);
		return -1;
	}
	if (big || v < 1 || v > max) {
		gw_err_set(e, _("%s: %s GB is not a plausible size (expected "
		                "1..%llu)"), field, shown,
		           (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

/* The unit of a BAR size: 20 for M/MB/MiB, 30 for G/GB/GiB, -1 else. */
static int
bar_unit_shift(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	int shift;

	if (n < 1 || n > 3)
		return -1;
	if (*p == 'M' || *p == 'm')
		shift = 20;
	else if (*p == 'G' || *p == 'g')
		shift = 30;
	else
		return -1;
	if (n == 1)
		return shift;
	if (n == 2)
		return (p[1] == 'B' || p[1] == 'b') ? shift : -1;
	return (p[1] == 'i' || p[1] == 'I') && (p[2] == 'B' || p[2] == 'b')
	       ? shift : -1;
}

int
gw_parse_bar_size(const char *s, const char *field, uint64_t *bytes,
                  gw_err *e)
{
	const uint64_t max_gib = GW_MMIO_MAX_WINDOW_GB;
	const char *p, *end, *q;
	uint64_t v = 0;
	int shift, big = 0;
	char shown[64];

	if (field == NULL || *field == '\0')
		field = _("BAR size");
	trim_span(s ? s : "", &p, &end, shown, sizeof shown);
	if (p == end) {
		gw_err_set(e, _("%s: empty value (expected a size with its unit, e.g. 256M or 16G)"),
		           field);
		return -1;
	}
	for (q = p; q < end && *q >= '0' && *q <= '9'; q++) {
		if (v > (UINT64_MAX - 9) / 10)
			big = 1;
		else if (!big)
			v = v * 10 + (uint64_t)(*q - '0');
	}
	while (q < end && is_space(*q))
		q++;
	shift = q > p && *p >= '0' && *p <= '9' ? bar_unit_shift(q, end) : -1;
	if (shift < 0) {
		gw_err_set(e, _("%s: '%s' is not a size with its unit (expected e.g. 256M or 16G)"),
		           field, shown);
		return -1;
	}
	/* 1 MiB .. max_gib GiB, checked before the shift */
	if (big || v == 0 || (shift == 20 && v > (max_gib << 10)) ||
	    (shift == 30 && v > max_gib) || !gw_is_pow2(v)) {
		gw_err_set(e, _("%s: %s is not a BAR size (expected a power of two from 1M to %lluG, e.g. 256M or 16G)"),
		           field, shown, (unsigned long long)max_gib);
		return -1;
	}
	*bytes = v << shift;
	return 0;
}

void
gw_fmt_bar_size(uint64_t bytes, char *out, size_t outlen)
{
	if (bytes && (bytes & ((UINT64_C(1) << 30) - 1)) == 0)
		snprintf(out, outlen, "%lluG", (unsigned long long)(bytes >> 30));
	else
		snprintf(out, outlen, "%lluM", (unsigned long long)(bytes >> 20));
}
