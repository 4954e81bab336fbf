/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jsonutil.h: small jansson helpers shared by the commands' JSON output. */
#ifndef GW_JSONUTIL_H
#define GW_JSONUTIL_H

#include "gw.h"
#include <jansson.h>
#include <stdio.h>

/* A JSON string of s; bytes that are not valid UTF-8 (a hand-edited file)
 * become '?', since jansson refuses them. */
json_t *gw_json_text(const char *s);
/* Print o indented, keys in insertion order, with a final newline; C1
 * and bidirectional controls in strings written \\uNNNN (textesc.h). */
void gw_json_print(json_t *o);
/* The same to f. */
void gw_json_fprint(FILE *f, json_t *o);

#endif
