/* jsonutil.c: small jansson helpers shared by the commands' JSON output. */
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>

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

void
gw_json_fprint(FILE *f, json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	if (s) {
		fputs(s, f);
		fputc('\n', f);
		free(s);
	}
}
