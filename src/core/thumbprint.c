/* SPDX-License-Identifier: GPL-3.0-or-later */
/* thumbprint.c: certificate thumbprints as the user gives them
 * (--thumbprint, [host] thumbprint) and as gpuwiz prints them. */
#include "gw.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
/* ---- certificate thumbprints (--thumbprint, [host] thumbprint) -------- */

/* "AA:BB:...:FF" of n bytes into out. */
void
gw_thumbprint_format(const unsigned char *bytes, size_t n, char out[GW_THUMB_LEN])
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + i * 3, 4, i + 1 < n ? "%02X:" : "%02X", bytes[i]);
}

/* Past blanks and a "sha256 Fingerprint=" or "SHA256:" prefix. */
static const char *
thumb_skip_prefix(const char *in)
{
	const char *eq;

	while (isspace((unsigned char)*in))
		in++;
	eq = strrchr(in, '=');
	if (eq)
		in = eq + 1;
	else if (strncasecmp(in, "sha256:", 7) == 0)
		in = in + 7;
	while (isspace((unsigned char)*in))
		in++;
	return in;
}

/* What follows a byte: a colon and another byte, another byte, or the
 * end; colons between every byte or none (*colons: -1 not known yet). */
static int
thumb_sep(const char **pp, int *colons)
{
	const char *p = *pp;

	if (*p == ':') {
		if (*colons == 0)
			return -1;
		*colons = 1;
		p++;
		if (*p == '\0' || isspace((unsigned char)*p))
			return -1;
	} else if (*p && !isspace((unsigned char)*p)) {
		if (*colons == 1)
			return -1;
		*colons = 0;
	}
	*pp = p;
	return 0;
}

/* The hex bytes of p (then only blanks) into bytes: 0, or -1 when p is
 * not that. */
static int
thumb_bytes(const char *p, unsigned char bytes[64], size_t *nb)
{
	int colons = -1;

	*nb = 0;
	while (*p && !isspace((unsigned char)*p)) {
		int hi = gw_hexval((unsigned char)p[0]), lo;

		lo = hi < 0 ? -1 : gw_hexval((unsigned char)p[1]);
		if (hi < 0 || lo < 0 || *nb == 64)
			return -1;
		bytes[(*nb)++] = (unsigned char)(hi << 4 | lo);
		p += 2;
		if (thumb_sep(&p, &colons) != 0)
			return -1;
	}
	while (isspace((unsigned char)*p))
		p++;
	return *p ? -1 : 0;
}

int
gw_thumbprint_normalize(const char *in, char out[GW_THUMB_LEN], gw_err *e)
{
	unsigned char bytes[64];
	size_t nb;

	out[0] = '\0';
	if (thumb_bytes(thumb_skip_prefix(in ? in : ""), bytes, &nb) != 0) {
		gw_err_set(e, _("--thumbprint: expected a SHA-256 fingerprint in hex, like \"AA:BB:...\" (95 characters) or 64 hex digits"));
		return -1;
	}
	if (nb == 20) {
		gw_err_set(e, _("--thumbprint: this is a SHA-1 thumbprint (20 bytes); give the SHA-256 one (32 bytes), as `openssl x509 -noout -fingerprint -sha256` prints it"));
		return -1;
	}
	if (nb != 32) {
		gw_err_set(e, P_("--thumbprint: expected a SHA-256 fingerprint, 32 bytes in hex (\"AA:BB:...\"), got %zu byte",
		                 "--thumbprint: expected a SHA-256 fingerprint, 32 bytes in hex (\"AA:BB:...\"), got %zu bytes",
		                 nb), nb);
		return -1;
	}
	gw_thumbprint_format(bytes, nb, out);
	return 0;
}
