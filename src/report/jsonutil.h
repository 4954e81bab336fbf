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

/* x as json_dumps prints it (indented by two, keys in order) at depth
 * levels of nesting (depth <= 8): each line after the first indented by
 * two blanks a level; no newline after it. */
void gw_json_put(FILE *out, json_t *x, int depth);
/* An object printed to out as json_dumps prints it, at depth levels of
 * nesting, a member at a time: { out, depth, 1, 0 } to begin; the array
 * member open has n elements so far. */
typedef struct gw_json_out {
	FILE *out;
	int depth;
	int first;               /* no member yet */
	size_t n;
} gw_json_out;
/* Member k's key (the first opens the object); its value follows. */
void gw_json_out_key(gw_json_out *o, const char *k);
/* The members of the object x, in order. */
void gw_json_out_members(gw_json_out *o, json_t *x);
/* Array member k: its elements follow (gw_json_out_element), then
 * gw_json_out_close_array. */
void gw_json_out_open_array(gw_json_out *o, const char *k);
void gw_json_out_element(gw_json_out *o, json_t *x);
void gw_json_out_close_array(gw_json_out *o);
/* The object's closing brace. */
void gw_json_out_close(gw_json_out *o);

#endif
