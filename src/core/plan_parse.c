/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_parse.c: the small parsers of the plan: host PCI addresses, the
 * .vmx's decimal device ids and PCI ids, system ids, ESXi versions and
 * the hardware versions they support (KB 1003746), the passthrough device
 * limits (KB 309986).  Pure: no I/O.
 */
#include "plan_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ----------------------------------------------------- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\v' || c == '\f';
}

/* Copy of s without surrounding blanks. */
char *
pl_trimmed_dup(const char *s)
{
	const char *b = s ? s : "", *end;

	while (is_blank((unsigned char)*b))
		b++;
	end = b + strlen(b);
	while (end > b && is_blank((unsigned char)end[-1]))
		end--;
	return gw_xstrndup(b, (size_t)(end - b));
}

/* Parse 1..maxdigits hex digits at *pp; advances *pp. */
static int
parse_hex_field(const char **pp, int maxdigits, unsigned *out)
{
	const char *p = *pp;
	unsigned v = 0;
	int n = 0, d;

	while ((d = gw_hexval((unsigned char)*p)) >= 0) {
		if (++n > maxdigits)
			return -1;
		v = v * 16 + (unsigned)d;
		p++;
	}
	if (n == 0)
		return -1;
	*out = v;
	*pp = p;
	return 0;
}

/* Parse 1..maxdigits decimal digits at *pp; advances *pp. */
int
pl_parse_dec_field(const char **pp, int maxdigits, unsigned *out)
{
	const char *p = *pp;
	unsigned v = 0;
	int n = 0;

	while (*p >= '0' && *p <= '9') {
		if (++n > maxdigits)
			return -1;
		v = v * 10 + (unsigned)(*p - '0');
		p++;
	}
	if (n == 0)
		return -1;
	*out = v;
	*pp = p;
	return 0;
}

/* "0x10de" (as ESXi writes it) -> 0x10de.  Anything else fails. */
int
pl_parse_pci_id(const char *s, unsigned *out)
{
	const char *p = s;

	if (s == NULL || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return -1;
	p += 2;
	if (parse_hex_field(&p, 4, out) != 0 || *p != '\0')
		return -1;
	return 0;
}

int
pl_parse_pci_id_dec(const char *s, unsigned *out)
{
	const char *p = s;
	unsigned v;

	if (s == NULL || pl_parse_dec_field(&p, 5, &v) != 0 || *p != '\0' ||
	    v > 0xffff)
		return -1;
	*out = v;
	return 0;
}

/* The .vmx id form, decimal: "00000:066:00.0" or the short "0:66:0.0".
 * The domain may be left out ("066:00.0"). */
int
pl_parse_vmx_id(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
                unsigned *fn)
{
	unsigned a, b, c, f;
	const char *p = s;

	if (s == NULL)
		return -1;
	if (pl_parse_dec_field(&p, 5, &a) != 0 || *p++ != ':')
		return -1;
	if (pl_parse_dec_field(&p, 5, &b) != 0)
		return -1;
	if (*p == ':') {
		p++;
		if (pl_parse_dec_field(&p, 3, &c) != 0)
			return -1;
	} else {
		c = b;
		b = a;
		a = 0;
	}
	if (*p++ != '.' || pl_parse_dec_field(&p, 1, &f) != 0 || *p != '\0')
		return -1;
	if (a > 0xffff || b > 0xff || c > 0x1f || f > 7)
		return -1;
	*dom = a;
	*bus = b;
	*dev = c;
	*fn = f;
	return 0;
}

char *
pl_lower_dup(const char *s)
{
	char *r = gw_xstrdup(s), *q;

	for (q = r; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	return r;
}

/* ---- public helpers ---------------------------------------------------- */

int
gw_bdf_parse(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
             unsigned *fn)
{
	const char *p = s, *q;
	unsigned a = 0, b, c, f;
	int colons = 0;

	if (s == NULL)
		return -1;
	for (q = s; *q; q++)
		if (*q == ':')
			colons++;
	if (colons == 2) {
		if (parse_hex_field(&p, 4, &a) != 0 || *p++ != ':')
			return -1;
	} else if (colons != 1) {
		return -1;
	}
	if (parse_hex_field(&p, 2, &b) != 0 || *p++ != ':')
		return -1;
	if (parse_hex_field(&p, 2, &c) != 0 || *p++ != '.')
		return -1;
	if (parse_hex_field(&p, 1, &f) != 0 || *p != '\0')
		return -1;
	if (a > 0xffff || b > 0xff || c > 0x1f || f > 7)
		return -1;
	if (dom)
		*dom = a;
	if (bus)
		*bus = b;
	if (dev)
		*dev = c;
	if (fn)
		*fn = f;
	return 0;
}

void
gw_bdf_vmx_id(unsigned dom, unsigned bus, unsigned dev, unsigned fn,
              char *out, size_t outlen)
{
	if (out == NULL || outlen == 0)
		return;
	snprintf(out, outlen, "%05u:%03u:%02u.%u", dom, bus, dev, fn);
}

int
gw_system_id_valid(const char *s)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };
	size_t g;
	int i;

	if (s == NULL)
		return 0;
	for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		for (i = 0; i < groups[g]; i++, s++)
			if (gw_hexval((unsigned char)*s) < 0)
				return 0;
		if (g + 1 < sizeof groups / sizeof groups[0] && *s++ != '-')
			return 0;
	}
	return *s == '\0';
}

static int
skip_word(const char **pp, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i < n; i++)
		if (tolower((unsigned char)(*pp)[i]) != word[i])
			return 0;
	*pp += n;
	return 1;
}

static void
skip_blanks(const char **pp)
{
	while (is_blank((unsigned char)**pp))
		(*pp)++;
}

/* "8.0", "8.0U2", "8.0u2b", "8.0 U2", "8.0 Update 2", "8.0.2", "7.0.3",
 * "ESXi 8.0U2", "VMware ESXi 8.0.2 build-22380479" -> major, minor, update.
 * Returns 0 on success. */
static int
parse_esxi(const char *s, unsigned *maj, unsigned *min, unsigned *upd)
{
	const char *p = s;
	unsigned a, b, u = 0, extra;

	if (s == NULL)
		return -1;
	skip_blanks(&p);
	if (skip_word(&p, "vmware"))
		skip_blanks(&p);
	if (skip_word(&p, "esxi"))
		skip_blanks(&p);
	if (pl_parse_dec_field(&p, 2, &a) != 0 || *p++ != '.' ||
	    pl_parse_dec_field(&p, 2, &b) != 0)
		return -1;
	if (*p == '.') {
		p++;
		if (pl_parse_dec_field(&p, 2, &u) != 0)
			return -1;
		if (*p == '.') {          /* "8.0.2.0" */
			p++;
			if (pl_parse_dec_field(&p, 3, &extra) != 0)
				return -1;
		}
	} else {
		const char *save = p;

		skip_blanks(&p);
		if (skip_word(&p, "update") || skip_word(&p, "u")) {
			skip_blanks(&p);
			if (pl_parse_dec_field(&p, 2, &u) != 0)
				return -1;
			/* patch letter: "7.0U3c", "8.0u2b" */
			while (isalpha((unsigned char)*p) &&
			       !isalpha((unsigned char)p[1]))
				p++;
		} else {
			p = save;
		}
	}
	skip_blanks(&p);
	if (*p != '\0') {
		/* allow a trailing build number, nothing else */
		if (*p == ',')
			p++;
		skip_blanks(&p);
		if (!skip_word(&p, "build"))
			return -1;
	}
	*maj = a;
	*min = b;
	*upd = u;
	return 0;
}

/* Broadcom KB 1003746 via govmomi; 9.0 field (doc/design.md, section 15.5).  Updates beyond
 * the table map to the newest version known for that release: the host
 * supports at least that one. */
int
gw_esxi_to_hw(const char *esxi_version)
{
	unsigned maj, min, upd;

	if (parse_esxi(esxi_version, &maj, &min, &upd) != 0)
		return 0;
	if (maj == 6 && min == 0)
		return 11;
	if (maj == 6 && min == 5)
		return 13;
	if (maj == 6 && min == 7)
		return upd >= 2 ? 15 : 14;
	if (maj == 7 && min == 0)
		return upd >= 2 ? 19 : upd == 1 ? 18 : 17;
	if (maj == 8 && min == 0)
		return upd >= 2 ? 21 : 20;
	if (maj == 9 && min == 0)
		return 22;
	return 0;
}

/* KB 309986: 16 devices (hw 13-19), 32 (hw 20 on 8.0), 128 (hw 21, 8.0U2).
 * 8.0U1 allows 64 with hw 20: that depends on the host release, not on the
 * hardware version, so it is not visible here (the plan applies it when
 * the ESXi version is known). */
int
gw_hw_max_passthru(int hw)
{
	if (hw >= 21)
		return 128;
	if (hw == 20)
		return 32;
	if (hw >= 13)
		return 16;
	return 0;
}

int
pl_esxi_is_80u1(const char *esxi)
{
	unsigned maj, min, upd;

	return parse_esxi(esxi, &maj, &min, &upd) == 0 && maj == 8 &&
	       min == 0 && upd == 1;
}
