/* esxi_system.c: `esxcli system uuid get` and `esxcli system version get`
 * (see esxi.h for the formats). */
#include "esxi_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- esxcli system uuid get -------------------------------------------- */

static char *
str_lower(char *s)
{
	char *p;

	for (p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

int
gw_esxi_parse_uuid(const char *text, const char *name, char **uuid,
                   gw_err *e)
{
	esxi_lines tl;
	size_t i;
	const char *id = NULL;
	char ex[64];

	*uuid = NULL;
	if (esxi_split_lines(text, name, CMD_UUID, &tl, e) != 0)
		return -1;
	for (i = esxi_skip_preamble(&tl, CMD_UUID); i < tl.n; i++) {
		const char *s = esxi_skip_blanks(tl.v[i]);

		if (*s == '\0')
			continue;
		if (id != NULL) {
			esxi_err_line(e, name, (unsigned)i + 1,
			              _("expected one line with the system id, "
			                "found another line '%s'"),
			              esxi_excerpt(s, ex, sizeof ex));
			goto fail;
		}
		if (!gw_system_id_valid(s)) {
			esxi_err_line(e, name, (unsigned)i + 1,
			              _("'%s' is not a system id (expected "
			                "8-4-4-4-12 hex digits, as %s prints)"),
			              esxi_excerpt(s, ex, sizeof ex), CMD_UUID);
			goto fail;
		}
		id = s;
	}
	if (id == NULL) {
		/* Only '#' or prompt lines. */
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), CMD_UUID);
		goto fail;
	}
	*uuid = str_lower(gw_xstrdup(id));
	esxi_lines_free(&tl);
	return 0;
fail:
	esxi_lines_free(&tl);
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

/* The fields gpuwiz reads, in the order of seen[] below. */
enum { VF_PRODUCT, VF_VERSION, VF_BUILD, VF_UPDATE, VF_PATCH, VF_N };

static const char *const version_keys[VF_N] = {
	"Product", "Version", "Build", "Update", "Patch"
};

/* Store the value *val of field k (taking it over where kept). */
static int
version_value(gw_esxi_version *out, int k, const char *key, char **val,
              unsigned ln, const char *name, gw_err *e)
{
	unsigned maj, min, third;
	unsigned long long u;
	const char *d;

	switch (k) {
	case VF_VERSION:
		if (parse_version_numbers(*val, &maj, &min, &third) != 0) {
			esxi_err_line(e, name, ln,
			              _("Version: '%s' is not a version number "
			                "(expected e.g. 8.0.2)"), *val);
			return -1;
		}
		out->version = *val;
		break;
	case VF_BUILD:
		d = strrchr(*val, '-');
		d = d ? d + 1 : *val;
		if (gw_parse_uint(d, 999999999999ULL, &u) == 0)
			out->build_number = (long)u;
		out->build = *val;
		break;
	case VF_UPDATE:
	case VF_PATCH:
		if (gw_parse_uint(*val, 9999, &u) != 0) {
			esxi_err_line(e, name, ln,
			              _("%s: '%s' is not a whole number"), key,
			              *val);
			return -1;
		}
		*(k == VF_UPDATE ? &out->update : &out->patch) = (int)u;
		return 0;
	default:
		out->product = *val;
		break;
	}
	*val = NULL;
	return 0;
}

/* One non-blank line s (blanks skipped) at line ln. */
static int
version_line(gw_esxi_version *out, unsigned *seen, const char *s,
             unsigned ln, const char *name, gw_err *e)
{
	const char *colon = strchr(s, ':');
	char *key, *val, ex[64];
	int k, rc = 0;

	if (colon == NULL || colon == s) {
		esxi_err_line(e, name, ln,
		              _("expected 'Key: Value' as %s prints it, found "
		                "'%s'"), CMD_VERSION,
		              esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	key = gw_trim(gw_xstrndup(s, (size_t)(colon - s)));
	val = gw_trim(gw_xstrdup(colon + 1));
	for (k = 0; k < VF_N; k++)
		if (gw_strieq(key, version_keys[k]))
			break;
	if (k < VF_N && seen[k]) {
		esxi_err_line(e, name, ln,
		              _("'%s' is printed twice (first at line %u)"), key,
		              seen[k]);
		rc = -1;
	} else if (k < VF_N) {
		seen[k] = ln;
		rc = version_value(out, k, key, &val, ln, name, e);
	}
	free(key);
	free(val);
	return rc;
}

/* "8.0U2", "5.5U3", "8.0": the update from the Update line, else the
 * third number of Version. */
static void
set_release(gw_esxi_version *out)
{
	unsigned maj, min, third, upd;

	(void)parse_version_numbers(out->version, &maj, &min, &third);
	upd = out->update >= 0 ? (unsigned)out->update : third;
	out->release = upd > 0 ? gw_xasprintf("%u.%uU%u", maj, min, upd)
	                       : gw_xasprintf("%u.%u", maj, min);
}

int
gw_esxi_parse_version(const char *text, const char *name,
                      gw_esxi_version *out, gw_err *e)
{
	unsigned seen[VF_N] = { 0, 0, 0, 0, 0 };
	esxi_lines tl;
	size_t i;
	int k;

	memset(out, 0, sizeof *out);
	gw_esxi_version_free(out);
	if (esxi_split_lines(text, name, CMD_VERSION, &tl, e) != 0)
		return -1;
	for (i = esxi_skip_preamble(&tl, CMD_VERSION); i < tl.n; i++) {
		const char *s = esxi_skip_blanks(tl.v[i]);

		if (*s != '\0' &&
		    version_line(out, seen, s, (unsigned)i + 1, name, e) != 0)
			goto fail;
	}
	for (k = VF_PRODUCT; k <= VF_VERSION; k++)
		if (!seen[k]) {
			esxi_err_input(e, name, _("no '%s' line; expected the "
			                          "output of %s"),
			               version_keys[k], CMD_VERSION);
			goto fail;
		}
	set_release(out);
	esxi_lines_free(&tl);
	return 0;
fail:
	esxi_lines_free(&tl);
	gw_esxi_version_free(out);
	return -1;
}
