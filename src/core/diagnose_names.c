/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_names.c: the names some rules quote in their texts
 * (diagnose_int.h): vGPU profile names and device addresses, found in a
 * line.
 */
#include "diagnose_int.h"

#include <stdio.h>
#include <string.h>

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- vGPU profile names ------------------------------------------------- */

static int
is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A profile at text[i] (after a non-name byte): "grid_" or "nvidia_",
 * a board of letters, digits and '-', and a last '-' followed by a digit;
 * its length, or 0. */
static size_t
profile_at(const char *text, size_t len, size_t i)
{
	static const char *const pre[] = { "grid_", "nvidia_" };
	size_t k, end, p;
	int size_digit = 0;

	if (i > 0 && (is_alnum(text[i - 1]) || text[i - 1] == '_'))
		return 0;
	for (k = 0; k < 2; k++) {
		size_t m = strlen(pre[k]);

		if (i + m < len && gw_diag_ci_contains(text + i, m, pre[k]))
			break;
	}
	if (k == 2)
		return 0;
	end = i + strlen(pre[k]);
	while (end < len && (is_alnum(text[end]) || text[end] == '-'))
		end++;
	/* the last '-' must be followed by a digit: the size */
	for (p = end; p > i; p--)
		if (text[p - 1] == '-') {
			size_digit = p < end && is_digit(text[p]);
			break;
		}
	return size_digit && end - i < 64 ? end - i : 0;
}

int
gw_diag_find_profile(const char *text, size_t len, char *buf, size_t n)
{
	size_t i, m, k;

	for (i = 0; i < len; i++) {
		if (text[i] != 'g' && text[i] != 'G' && text[i] != 'n' &&
		    text[i] != 'N')
			continue;
		if ((m = profile_at(text, len, i)) == 0 || m >= n)
			continue;
		for (k = 0; k < m; k++) {
			char c = text[i + k];

			buf[k] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a')
			                                : c;
		}
		buf[m] = '\0';
		return 1;
	}
	return 0;
}

/* ---- device addresses --------------------------------------------------- */

/* The device named in "Device 6:0.0 is not a passthrough device": the word
 * before " is not", if the word before it is "device". */
char *
gw_diag_not_passthru_device(const gw_diag_hit *h)
{
	const char *line = h->line;
	size_t end, st;

	end = gw_diag_orig_offset(line, h->line_len, h->match_off);
	while (end > 0 && line[end - 1] == ' ')
		end--;
	st = end;
	while (st > 0 && line[st - 1] != ' ' && line[st - 1] != '\t')
		st--;
	if (st == end || end - st > 32)
		return NULL;
	{
		size_t d = st, k;

		while (d > 0 && (line[d - 1] == ' ' || line[d - 1] == '\t'))
			d--;
		if (d < 6 || !gw_diag_ci_contains(line + d - 6, 6, "device"))
			return NULL;
		for (k = st; k < end; k++) {
			unsigned char c = (unsigned char)line[k];

			if (c < 0x21 || c > 0x7e)
				return NULL;
		}
	}
	return gw_xstrndup(line + st, end - st);
}

/* A host address DDDD:BB:SS.F (hex) at s[i], not inside a longer token.
 * Fills dom/bus/slot/fn; 1 when found. */
static int
bdf_at(const char *s, size_t n, size_t i, unsigned *dom, unsigned *bus,
       unsigned *slot, unsigned *fn)
{
	static const char shape[] = "hhhh:hh:hh.f";
	unsigned v[4] = { 0, 0, 0, 0 };
	size_t k;
	int part = 0;

	if (i + 12 > n)
		return 0;
	if (i > 0 && (gw_hexval(s[i - 1]) >= 0 || s[i - 1] == ':' ||
	              s[i - 1] == '.'))
		return 0;
	if (i + 12 < n && (gw_hexval(s[i + 12]) >= 0 || s[i + 12] == ':' ||
	                   s[i + 12] == '.'))
		return 0;
	for (k = 0; k < 12; k++) {
		char c = s[i + k];

		if (shape[k] == ':' || shape[k] == '.') {
			if (c != shape[k])
				return 0;
			part++;
			continue;
		}
		if (shape[k] == 'f') {
			if (c < '0' || c > '7')
				return 0;
			v[3] = (unsigned)(c - '0');
			continue;
		}
		if (gw_hexval(c) < 0)
			return 0;
		v[part] = v[part] * 16 + (unsigned)gw_hexval(c);
	}
	if (v[2] > 0x1f)
		return 0;
	*dom = v[0];
	*bus = v[1];
	*slot = v[2];
	*fn = v[3];
	return 1;
}

/* The first hex host address in s[0..n): "0000:42:00.0" into hex and
 * "00000:066:00.0" into dec; 1 when there is one.  An address has its
 * first ':' four bytes in: only those places are tried. */
static int
bdf_in(const char *s, size_t n, char *hex, size_t hn, char *dec, size_t dn)
{
	size_t k = 4;
	const char *c;

	for (; k < n && (c = memchr(s + k, ':', n - k)) != NULL; k++) {
		size_t i;
		unsigned d, b, sl, f;

		k = (size_t)(c - s);
		i = k - 4;
		if (bdf_at(s, n, i, &d, &b, &sl, &f)) {
			snprintf(hex, hn, "%.12s", s + i);
			snprintf(dec, dn, "%05u:%03u:%02u.%u", d, b, sl, f);
			return 1;
		}
	}
	return 0;
}

int
gw_diag_id_line(const char *s, size_t n)
{
	return gw_diag_ci_contains(s, n, "pcipassthru") &&
	       gw_diag_ci_contains(s, n, ".id");
}

/* ESXi's decimal form DDDDD:BBB:SS.F at s[i], not inside a longer token. */
static int
dec_bdf_at(const char *s, size_t n, size_t i)
{
	static const char shape[] = "ddddd:ddd:dd.d";
	size_t k, m = sizeof shape - 1;

	if (i + m > n)
		return 0;
	if (i > 0 && (gw_hexval(s[i - 1]) >= 0 || s[i - 1] == ':'))
		return 0;
	if (i + m < n && (gw_hexval(s[i + m]) >= 0 || s[i + m] == ':' ||
	                  s[i + m] == '.'))
		return 0;
	for (k = 0; k < m; k++) {
		char c = s[i + k];

		if (shape[k] == 'd' ? !is_digit(c) : c != shape[k])
			return 0;
	}
	return 1;
}

/* The first decimal address in s[0..n) into dec (its first ':' five
 * bytes in); 1 when found. */
static int
dec_in(const char *s, size_t n, char *dec, size_t dn)
{
	size_t k = 5;
	const char *c;

	for (; k < n && (c = memchr(s + k, ':', n - k)) != NULL; k++) {
		k = (size_t)(c - s);
		if (dec_bdf_at(s, n, k - 5)) {
			snprintf(dec, dn, "%.14s", s + k - 5);
			return 1;
		}
	}
	return 0;
}

int
gw_diag_line_id_bdf(const char *s, size_t n, char *hex, size_t hn, char *dec,
                    size_t dn)
{
	if (bdf_in(s, n, hex, hn, dec, dn))
		return 1;
	return dec_in(s, n, dec, dn) ? 2 : 0;
}

int
gw_diag_line_hex_bdf(const gw_diag_hit *h, char *hex, size_t hn)
{
	char dec[24];

	return bdf_in(h->line, h->line_len, hex, hn, dec, sizeof dec);
}
