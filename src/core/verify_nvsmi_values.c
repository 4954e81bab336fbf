/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_nvsmi_values.c: the values of `nvidia-smi -q` the parser
 * (verify_nvsmi.c) records, decoded: a GPU header's bus id, sizes in MiB,
 * PCI id pairs, the virtualization mode, counts and driver versions
 * (verify_int.h).
 */
#include "verify_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int
gw_verify_starts_ci(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncasecmp(s, prefix, n) == 0;
}

static int
is_hex_run(const char *s, size_t min, size_t max, const char **end)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]) && n <= max)
		n++;
	if (n < min || n > max)
		return 0;
	*end = s + n;
	return 1;
}

/* "GPU 00000000:03:00.0" (4 to 8 hex digits of domain): pointer to the
 * bus id, else NULL. */
const char *
gw_nvsmi_gpu_header_bus(const char *key)
{
	const char *p, *q;

	if (strncmp(key, "GPU ", 4) != 0)
		return NULL;
	p = key + 4;
	if (!is_hex_run(p, 4, 8, &q) || *q != ':')
		return NULL;
	if (!is_hex_run(q + 1, 2, 2, &q) || *q != ':')
		return NULL;
	if (!is_hex_run(q + 1, 2, 2, &q) || *q != '.')
		return NULL;
	if (!is_hex_run(q + 1, 1, 1, &q) || *q != '\0')
		return NULL;
	return p;
}

/* "143771 MiB" -> MiB; "N/A" -> GW_NVSMI_NA; else GW_NVSMI_BAD. */
long long
gw_nvsmi_parse_mib(const char *v)
{
	char digits[24];
	size_t n = 0;
	unsigned long long x;
	const char *p = v;

	if (gw_strieq(v, "N/A"))
		return GW_NVSMI_NA;
	while (isdigit((unsigned char)*p) && n < sizeof digits - 1)
		digits[n++] = *p++;
	digits[n] = '\0';
	if (n == 0)
		return GW_NVSMI_BAD;
	while (*p == ' ')
		p++;
	if (strcmp(p, "MiB") != 0)
		return GW_NVSMI_BAD;
	if (gw_parse_uint(digits, 1ULL << 40, &x) != 0)
		return GW_NVSMI_BAD;
	return (long long)x;
}

/* "0x233510DE" -> hi 0x2335, lo 0x10de.  0 on success. */
int
gw_nvsmi_parse_pci_pair(const char *v, unsigned *hi, unsigned *lo)
{
	const char *end;
	unsigned long x;

	if (v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return -1;
	if (!is_hex_run(v + 2, 1, 8, &end) || *end != '\0')
		return -1;
	x = strtoul(v + 2, NULL, 16);
	if (x == 0)
		return -1;
	*hi = (unsigned)(x >> 16) & 0xffffu;
	*lo = (unsigned)x & 0xffffu;
	return 0;
}

gw_virt_mode
gw_nvsmi_decode_virt(const char *v)
{
	if (v == NULL)
		return GW_VIRT_UNKNOWN;
	if (gw_strieq(v, "None"))
		return GW_VIRT_NONE;
	if (gw_strieq(v, "Pass-Through") || gw_strieq(v, "Passthrough"))
		return GW_VIRT_PASSTHROUGH;
	if (gw_strieq(v, "VGPU"))
		return GW_VIRT_VGPU;
	if (gw_strieq(v, "Host VGPU"))
		return GW_VIRT_HOST_VGPU;
	return GW_VIRT_UNKNOWN;
}

int
gw_version_cmp(const char *a, const char *b, int *cmp)
{
	unsigned long va[8], vb[8];
	int na = 0, nb = 0, i;
	const char *s[2] = { a, b };
	unsigned long *out[2] = { va, vb };
	int *cnt[2] = { &na, &nb };
	int k;

	for (k = 0; k < 2; k++) {
		const char *p = s[k];

		if (p == NULL || !isdigit((unsigned char)*p))
			return -1;
		for (;;) {
			unsigned long x = 0;
			int d = 0;

			while (isdigit((unsigned char)*p)) {
				if (++d > 9)
					return -1;
				x = x * 10 + (unsigned long)(*p - '0');
				p++;
			}
			if (d == 0 || *cnt[k] == 8)
				return -1;
			out[k][(*cnt[k])++] = x;
			if (*p == '\0')
				break;
			if (*p != '.')
				return -1;
			p++;
		}
	}
	*cmp = 0;
	for (i = 0; i < 8 && (i < na || i < nb); i++) {
		unsigned long x = i < na ? va[i] : 0, y = i < nb ? vb[i] : 0;

		if (x != y) {
			*cmp = x < y ? -1 : 1;
			break;
		}
	}
	return 0;
}

/* "4" -> 4 (0..65536); -1 for anything else. */
int
gw_nvsmi_parse_count(const char *v)
{
	unsigned long long n;

	return gw_parse_uint(v, 65536, &n) == 0 ? (int)n : -1;
}

/* The version at the start of a value: "610.57.04 [Deprecated; ...]" ->
 * "610.57.04", "535.129.03" -> itself; NULL when the value does not start
 * with a version followed by the end or a blank. */
static char *
lead_version(const char *v)
{
	char *tok;
	int cmp;

	tok = gw_xstrndup(v, strcspn(v, " \t"));
	if (gw_version_cmp(tok, "0", &cmp) != 0) {
		free(tok);
		return NULL;
	}
	return tok;
}

/* The version to judge: the newer line's (KMD Version, CUDA UMD Version)
 * when it holds one, else the older line's; when neither does, the text of
 * the one present (so the check can quote it); NULL when both are
 * absent. */
char *
gw_nvsmi_pick_version(const char *newer, const char *older)
{
	char *v = NULL;

	if (newer != NULL)
		v = lead_version(newer);
	if (v == NULL && older != NULL)
		v = lead_version(older);
	if (v == NULL && (newer != NULL || older != NULL))
		v = gw_xstrdup(newer != NULL ? newer : older);
	return v;
}

