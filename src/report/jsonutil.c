/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jsonutil.c: small jansson helpers shared by the commands' JSON output. */
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string jansson refuses (not UTF-8: a capture's or a host's odd bytes)
 * goes in escaped the way the text printers show it (doc/design.md 5.3):
 * the bad bytes become \xNN and valid UTF-8 around them, Chinese
 * included, stays as it is. */
json_t *
gw_json_text(const char *s)
{
	json_t *j = json_string(s);
	char *c;

	if (j != NULL)
		return j;
	c = gw_str_escaped(s);
	j = json_string(c);
	free(c);
	return j;
}

void
gw_json_print(json_t *o)
{
	gw_json_fprint(stdout, o);
}

/* The code point of the 2- or 3-byte UTF-8 character at s, or 0: the C1
 * and bidirectional controls are all of those lengths. */
static unsigned long
cp_at(const unsigned char *s)
{
	if (s[0] >= 0xC2 && s[0] <= 0xDF && (s[1] & 0xC0) == 0x80)
		return (unsigned long)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
	if ((s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 &&
	    (s[2] & 0xC0) == 0x80)
		return (unsigned long)(s[0] & 0x0F) << 12 |
		       (unsigned long)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
	return 0;
}

/* jansson writes C0 controls as \u00NN but C1 and bidirectional controls
 * raw: those are written \uNNNN too (they are only ever inside strings
 * there), so that the JSON shown on a terminal is not reordered by them;
 * the values are the same. */
void
gw_json_fprint(FILE *f, json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	const unsigned char *p, *run;

	if (s == NULL)
		return;
	for (p = run = (const unsigned char *)s; *p; p++) {
		unsigned long cp = *p >= 0x80 ? cp_at(p) : 0;

		if (cp != 0 && ((cp >= 0x80 && cp <= 0x9F) ||
		                gw_bidi_control(cp))) {
			fwrite(run, 1, (size_t)(p - run), f);
			fprintf(f, "\\u%04lx", cp);
			p += cp < 0x800 ? 1 : 2;
			run = p + 1;
		}
	}
	fwrite(run, 1, (size_t)(p - run), f);
	fputc('\n', f);
	free(s);
}

/* ---- an object printed a member at a time ------------------------------- */

void
gw_json_put(FILE *out, json_t *x, int depth)
{
	static const char sp[] = "                ";
	char *s = json_dumps(x, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	                        JSON_ENCODE_ANY);
	size_t blanks = 2 * (size_t)depth;
	const char *a, *nl;

	if (blanks > sizeof sp - 1)
		blanks = sizeof sp - 1;
	for (a = s ? s : "null"; (nl = strchr(a, '\n')) != NULL; a = nl + 1) {
		fwrite(a, 1, (size_t)(nl - a) + 1, out);
		fwrite(sp, 1, blanks, out);
	}
	fputs(a, out);
	free(s);
}

void
gw_json_out_key(gw_json_out *o, const char *k)
{
	json_t *key = json_string(k);

	fprintf(o->out, "%s%*s", o->first ? "{\n" : ",\n", 2 * o->depth + 2,
	        "");
	o->first = 0;
	gw_json_put(o->out, key, 0);
	fputs(": ", o->out);
	json_decref(key);
}

void
gw_json_out_members(gw_json_out *o, json_t *x)
{
	const char *k;
	json_t *m;

	json_object_foreach(x, k, m) {
		gw_json_out_key(o, k);
		gw_json_put(o->out, m, o->depth + 1);
	}
}

void
gw_json_out_open_array(gw_json_out *o, const char *k)
{
	gw_json_out_key(o, k);
	fputs("[", o->out);
	o->n = 0;
}

void
gw_json_out_element(gw_json_out *o, json_t *x)
{
	fprintf(o->out, "%s%*s", o->n ? ",\n" : "\n", 2 * o->depth + 4, "");
	gw_json_put(o->out, x, o->depth + 2);
	o->n++;
}

void
gw_json_out_close_array(gw_json_out *o)
{
	if (o->n)
		fprintf(o->out, "\n%*s]", 2 * o->depth + 2, "");
	else
		fputs("]", o->out);
}

void
gw_json_out_close(gw_json_out *o)
{
	fprintf(o->out, "\n%*s}", 2 * o->depth, "");
}
