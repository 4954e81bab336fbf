/* jsonutil.c: small jansson helpers shared by the commands' JSON output. */
#include "jsonutil.h"

#include <stdio.h>
#include <stdlib.h>

json_t *
gw_json_text(const char *s)
{
	json_t *j = json_string(s);
	char *c, *p;

	if (j != NULL)
		return j;
	c = gw_xstrdup(s);
	for (p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
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
