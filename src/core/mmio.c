/* mmio.c: 64-bit MMIO window sizing (Broadcom KB 323402; doc/design.md, section 15.2).
 *
 * Everything is computed in uint64_t, and every shift or addition is
 * checked against the limits before it is done, so no input can overflow.
 */
#include "mmio.h"

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

static int
cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Pack the BARs largest first, each at its natural alignment (a BAR of
 * size S must start at a multiple of S), then round the end up to a power
 * of two.  Largest-first packing of powers of two leaves no gaps, so the
 * end is the sum; the loop still aligns explicitly so the code says what
 * the hardware requires. */
int
gw_mmio_bars(const uint64_t *bar_bytes, size_t n, uint64_t *out_bytes,
             gw_err *e)
{
	const uint64_t max = GW_MMIO_MAX_WINDOW_GB << 30;
	uint64_t *v, end = 0, r;
	size_t i, m = 0;

	if (n > 0 && bar_bytes == NULL) {
		gw_err_set(e, _("BAR sizes: no list given"));
		return -1;
	}
	v = gw_xcalloc(n ? n : 1, sizeof *v);
	for (i = 0; i < n; i++) {
		if (bar_bytes[i] == 0)
			continue;
		if (!gw_is_pow2(bar_bytes[i])) {
			gw_err_set(e, _("BAR size %llu bytes is not a power of "
			                "two (PCI BAR sizes always are)"),
			           (unsigned long long)bar_bytes[i]);
			free(v);
			return -1;
		}
		if (bar_bytes[i] > max) {
			gw_err_set(e, _("BAR size %llu bytes is not plausible "
			                "(expected at most %llu GiB)"),
			           (unsigned long long)bar_bytes[i],
			           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
			free(v);
			return -1;
		}
		v[m++] = bar_bytes[i];
	}
	qsort(v, m, sizeof *v, cmp_desc);
	for (i = 0; i < m; i++) {
		/* align end up to v[i]; end <= max and v[i] <= max, both far
		 * below 2^63, so these sums cannot wrap */
		end = (end + v[i] - 1) & ~(v[i] - 1);
		end += v[i];
		if (end > max) {
			gw_err_set(e, _("BARs need more than %llu GiB of MMIO "
			                "space in one VM: not plausible"),
			           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
			free(v);
			return -1;
		}
	}
	free(v);
	r = end ? gw_pow2_ceil(end) : 0;
	if (r > max) {
		gw_err_set(e, _("BARs need more than %llu GiB of MMIO space in "
		                "one VM: not plausible"),
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	*out_bytes = r;
	return 0;
}

uint64_t
gw_mmio_bytes_gb(uint64_t bytes)
{
	uint64_t gb = (bytes >> 30) + ((bytes & ((UINT64_C(1) << 30) - 1)) != 0);

	return gb;
}

int
gw_mmio_need_for(uint64_t total_gb, const uint64_t *bar_bytes, size_t nbars,
                 gw_mmio_need *out, gw_err *e)
{
	gw_mmio_need r = { 0, 0, 0, 0 };
	uint64_t need = 0;
	size_t i;

	if (total_gb > 0 && gw_mmio_rule(total_gb, &r.rule_gb, e) != 0)
		return -1;
	if (nbars > 0) {
		if (gw_mmio_bars(bar_bytes, nbars, &need, e) != 0)
			return -1;
		for (i = 0; i < nbars; i++)
			r.bar_end += bar_bytes[i];
		r.bar_gb = gw_mmio_bytes_gb(need);
	}
	r.mmio_gb = r.rule_gb > r.bar_gb ? r.rule_gb : r.bar_gb;
	*out = r;
	return 0;
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
