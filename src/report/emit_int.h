/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_int.h: what the emitters (emit.c: the registry, shared checks;
 * emit_vmx.c: the .vmx lines; emit_ext.c: BOSH and Ops Manager;
 * emit_tile.c: the AI Services tile; emit_yaml.c: YAML; emit_ansible*.c:
 * the playbook) share.  Not for use outside src/report/emit*.c. */
#ifndef GW_EMIT_INT_H
#define GW_EMIT_INT_H

#include "gw.h"
#include "emit.h"

#include <jansson.h>

/* Check a setting can be written at all (key and value present). */
int emit_setting_check(const gw_setting *s, const char *fmt, gw_err *e);
char *emit_setting_why(const gw_setting *s);
/* A short name for a GPU in messages; buf >= 32 bytes. */
const char *emit_gpu_label(const gw_plan_gpu *g, char *buf, size_t len);
/* Does a format list g?  whole: the format describes the whole VM it
 * makes (BOSH, Ops Manager, the tile: the CPI creates a new VM with the
 * devices listed), so every GPU the VM ends with, those already in the
 * .vmx included; else only the GPUs the plan adds (the .vmx lines, the
 * playbook: they change a VM that holds the others). */
int emit_listed(const gw_plan_gpu *g, int whole);
/* The GPUs a format lists (emit_listed): counts per kind.  Fails on a
 * GPU with a count below 1. */
int emit_count_listed(const gw_plan *p, const char *fmt, int whole,
                      int *npt, int *nvgpu, gw_err *e);
/* Both NULL, or equal strings. */
int emit_str_eq_null(const char *a, const char *b);
/* Set / append a new value; val is consumed either way; -1 when val is
 * NULL or jansson fails (out of memory). */
int emit_json_set(json_t *obj, const char *key, json_t *val);
int emit_json_append(json_t *arr, json_t *val);
/* The whole YAML stream for one document whose root is the jansson
 * value, starting with "---"; *out malloc'ed, ending in a line break. */
int emit_yaml_render(json_t *root, const char *fmt, char **out, gw_err *e);

/* A comment for emit_yaml_comment: text (any length, one paragraph) put
 * as "# " lines above the first line after the previous note's whose
 * content (after its indent and a "- ") starts with anchor; NULL
 * anchor: right below the "---" line.  Lines are wrapped at 78
 * cells (a CJK character two), the comment indented as its line. */
typedef struct emit_note {
	char *anchor;
	char *text;
} emit_note;

typedef struct emit_notes {
	emit_note *v;
	size_t n;
} emit_notes;

/* Both strings are copied (anchor may be NULL); text NULL or "": none. */
void emit_note_add(emit_notes *ns, const char *anchor, const char *text);
void emit_notes_free(emit_notes *ns);
/* libyaml cannot write comments: the rendered text with the notes put in
 * (a post-pass on lines; the YAML's meaning is unchanged).  A note whose
 * anchor is not found is an error (-1, *out untouched). */
int emit_yaml_comment(const char *yaml, const emit_notes *ns,
                      const char *fmt, char **out, gw_err *e);

#endif
