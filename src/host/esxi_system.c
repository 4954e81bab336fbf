/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* The parser's state. */
typedef struct uuid_parse {
	char *id;                /* the id read (lower case), NULL before */
	const char *name;
	gw_err *e;
} uuid_parse;

/* One line. */
static int
uuid_line(void *ctx, const char *line, unsigned ln)
{
	uuid_parse *ps = ctx;
	const char *s = esxi_skip_blanks(line);
	char ex[64];

	if (*s == '\0')
		return 0;
	if (ps->id != NULL) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected one line with the system id, found "
		                "another line '%s'"),
		              esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	if (!gw_system_id_valid(s)) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("'%s' is not a system id (expected 8-4-4-4-12 hex "
		                "digits, as %s prints)"),
		              esxi_excerpt(s, ex, sizeof ex), CMD_UUID);
		return -1;
	}
	ps->id = str_lower(gw_xstrdup(s));
	return 0;
}

int
gw_esxi_parse_uuid(const char *text, const char *name, char **uuid,
                   gw_err *e)
{
	uuid_parse ps = { .id = NULL, .name = name, .e = e };

	*uuid = NULL;
	if (esxi_each_line(text, name, CMD_UUID, uuid_line, &ps, e) != 0) {
		free(ps.id);
		return -1;
	}
	if (ps.id == NULL) {
		/* Only '#' or prompt lines. */
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), CMD_UUID);
		return -1;
	}
	*uuid = ps.id;
	return 0;
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

/* The parser's state. */
typedef struct version_parse {
	gw_esxi_version *out;
	unsigned seen[VF_N];     /* line of each field, 0 when not seen */
	const char *name;
	gw_err *e;
} version_parse;

/* One line. */
static int
version_line(void *ctx, const char *line, unsigned ln)
{
	version_parse *ps = ctx;
	const char *s = esxi_skip_blanks(line), *colon = strchr(s, ':');
	char *key, *val, ex[64];
	int k, rc = 0;

	if (*s == '\0')
		return 0;
	if (colon == NULL || colon == s) {
		esxi_err_line(ps->e, ps->name, ln,
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
	if (k < VF_N && ps->seen[k]) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("'%s' is printed twice (first at line %u)"), key,
		              ps->seen[k]);
		rc = -1;
	} else if (k < VF_N) {
		ps->seen[k] = ln;
		rc = version_value(ps->out, k, key, &val, ln, ps->name, ps->e);
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
	version_parse ps = { .out = out, .name = name, .e = e };
	int k;

	memset(out, 0, sizeof *out);
	gw_esxi_version_free(out);
	if (esxi_each_line(text, name, CMD_VERSION, version_line, &ps, e) != 0)
		goto fail;
	for (k = VF_PRODUCT; k <= VF_VERSION; k++)
		if (!ps.seen[k]) {
			esxi_err_input(e, name, _("no '%s' line; expected the "
			                          "output of %s"),
			               version_keys[k], CMD_VERSION);
			goto fail;
		}
	set_release(out);
	return 0;
fail:
	gw_esxi_version_free(out);
	return -1;
}
