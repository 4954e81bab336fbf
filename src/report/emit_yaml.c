/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_yaml.c: YAML through libyaml's emitter (events): a jansson value
 * walked into one YAML document, "---" first (yamllint's document-start,
 * as BOSH and om write their files).  Keys plain, strings double-quoted.
 * Then, since libyaml has no comment events, comments put in by line
 * (emit_yaml_comment). */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* ---- YAML through libyaml events ------------------------------------ */

static int
yaml_out(void *data, unsigned char *buf, size_t size)
{
	gw_buf_add(data, (const char *)buf, size);
	return 1;
}

typedef struct ymit {
	yaml_emitter_t em;
	gw_buf buf;
	int failed;
} ymit;

static void
ym_emit(ymit *y, yaml_event_t *ev, int ok)
{
	if (!ok) {                           /* event not initialised */
		y->failed = 1;
		return;
	}
	if (y->failed) {                     /* an earlier event failed */
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&y->em, ev))  /* deletes ev either way */
		y->failed = 1;
}

/* A scalar: plain style for keys and numbers/booleans (libyaml falls back
 * to a quoted style if the text cannot be plain), double quotes for string
 * values so BOSH gets strings ("TRUE", "128", "0x10DE"). */
static void
ym_scalar(ymit *y, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	int ok = yaml_scalar_event_initialize(&ev, NULL, NULL,
	                                      (const yaml_char_t *)s,
	                                      (int)strlen(s), 1, 1, style);

	ym_emit(y, &ev, ok);
}

static void
ym_simple(ymit *y, yaml_event_type_t type)
{
	yaml_event_t ev;
	int ok;

	switch (type) {
	case YAML_STREAM_START_EVENT:
		ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
		break;
	case YAML_STREAM_END_EVENT:
		ok = yaml_stream_end_event_initialize(&ev);
		break;
	case YAML_DOCUMENT_START_EVENT:
		ok = yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
		break;
	case YAML_DOCUMENT_END_EVENT:
		ok = yaml_document_end_event_initialize(&ev, 1);
		break;
	case YAML_SEQUENCE_START_EVENT:
		ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		                                          YAML_BLOCK_SEQUENCE_STYLE);
		break;
	case YAML_SEQUENCE_END_EVENT:
		ok = yaml_sequence_end_event_initialize(&ev);
		break;
	case YAML_MAPPING_START_EVENT:
		ok = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		                                         YAML_BLOCK_MAPPING_STYLE);
		break;
	case YAML_MAPPING_END_EVENT:
		ok = yaml_mapping_end_event_initialize(&ev);
		break;
	default:
		ok = 0;
		break;
	}
	ym_emit(y, &ev, ok);
}

/* Walk a jansson value into YAML events.  Object keys plain, strings
 * double-quoted, integers and booleans plain. */
static void
ym_json(ymit *y, json_t *v)
{
	char num[32];

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *c;

		ym_simple(y, YAML_MAPPING_START_EVENT);
		json_object_foreach(v, k, c) {
			ym_scalar(y, k, YAML_PLAIN_SCALAR_STYLE);
			ym_json(y, c);
		}
		ym_simple(y, YAML_MAPPING_END_EVENT);
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *c;

		ym_simple(y, YAML_SEQUENCE_START_EVENT);
		json_array_foreach(v, i, c)
			ym_json(y, c);
		ym_simple(y, YAML_SEQUENCE_END_EVENT);
		break;
	}
	case JSON_STRING:
		ym_scalar(y, json_string_value(v), YAML_DOUBLE_QUOTED_SCALAR_STYLE);
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
		         json_integer_value(v));
		ym_scalar(y, num, YAML_PLAIN_SCALAR_STYLE);
		break;
	case JSON_TRUE:
		ym_scalar(y, "true", YAML_PLAIN_SCALAR_STYLE);
		break;
	case JSON_FALSE:
		ym_scalar(y, "false", YAML_PLAIN_SCALAR_STYLE);
		break;
	case JSON_NULL:
		ym_scalar(y, "null", YAML_PLAIN_SCALAR_STYLE);
		break;
	default:                     /* reals: never built here */
		y->failed = 1;
		break;
	}
}

/* The whole stream for one document whose root is the jansson value. */
int
emit_yaml_render(json_t *root, const char *fmt, char **out, gw_err *e)
{
	ymit y;

	memset(&y, 0, sizeof y);
	if (!yaml_emitter_initialize(&y.em)) {
		gw_err_set(e, _("%s: cannot start the YAML emitter"), fmt);
		return -1;
	}
	gw_buf_init(&y.buf);
	yaml_emitter_set_output(&y.em, yaml_out, &y.buf);
	yaml_emitter_set_unicode(&y.em, 1);
	yaml_emitter_set_indent(&y.em, 2);
	yaml_emitter_set_width(&y.em, -1);
	yaml_emitter_set_break(&y.em, YAML_LN_BREAK);

	ym_simple(&y, YAML_STREAM_START_EVENT);
	ym_simple(&y, YAML_DOCUMENT_START_EVENT);
	ym_json(&y, root);
	ym_simple(&y, YAML_DOCUMENT_END_EVENT);
	ym_simple(&y, YAML_STREAM_END_EVENT);
	if (!y.failed && !yaml_emitter_flush(&y.em))
		y.failed = 1;
	if (y.failed) {
		gw_err_set(e, _("%s: the YAML emitter failed: %s"), fmt,
		           y.em.problem ? y.em.problem : _("invalid event"));
		yaml_emitter_delete(&y.em);
		gw_buf_free(&y.buf);
		return -1;
	}
	yaml_emitter_delete(&y.em);
	/* libyaml ends a stream whose last node is a quoted scalar without a
	 * line break: a text file ends with one */
	if (y.buf.len > 0 && y.buf.data[y.buf.len - 1] != '\n')
		gw_buf_puts(&y.buf, "\n");
	*out = gw_buf_steal(&y.buf);
	return 0;
}

/* ---- comments, put in by line --------------------------------------- */

void
emit_note_add(emit_notes *ns, const char *anchor, const char *text)
{
	if (text == NULL || *text == '\0')
		return;
	ns->v = gw_xrealloc(ns->v, (ns->n + 1) * sizeof *ns->v);
	ns->v[ns->n].anchor = gw_xstrdup(anchor);
	ns->v[ns->n].text = gw_xstrdup(text);
	ns->n++;
}

void
emit_notes_free(emit_notes *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		free(ns->v[i].anchor);
		free(ns->v[i].text);
	}
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

#define NOTE_WIDTH 78   /* cells; yamllint counts characters, never more */

/* The note as "# " lines at indent; control bytes become spaces. */
static void
note_put(gw_buf *b, const char *text, size_t indent)
{
	char *t = gw_xstrdup(text), *s;
	size_t room = NOTE_WIDTH > indent + 22 ? NOTE_WIDTH - indent - 2 : 20;

	for (s = t; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
	s = t;
	while (*s == ' ')
		s++;
	while (*s) {
		size_t skip, n = gw_text_line(s, room, &skip);

		gw_buf_printf(b, "%*s# %.*s\n", (int)indent, "", (int)n, s);
		s += n + skip;
		while (*s == ' ')
			s++;
	}
	free(t);
}

/* Does the line (up to its end) hold anchor after its indent and a "- "? */
static int
note_matches(const char *line, size_t len, const char *anchor, size_t *indent)
{
	size_t i = 0, n = strlen(anchor);

	while (i < len && line[i] == ' ')
		i++;
	*indent = i;
	while (i + 1 < len && line[i] == '-' && line[i + 1] == ' ')
		i += 2;
	return len - i >= n && strncmp(line + i, anchor, n) == 0;
}

int
emit_yaml_comment(const char *yaml, const emit_notes *ns, const char *fmt,
                  char **out, gw_err *e)
{
	gw_buf b;
	const char *line = yaml;
	size_t k = 0, indent;

	gw_buf_init(&b);
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		int doc_start = len == 3 && strncmp(line, "---", 3) == 0;

		/* one note a line: the next one is for a later line */
		if (k < ns->n && ns->v[k].anchor &&
		    note_matches(line, len, ns->v[k].anchor, &indent))
			note_put(&b, ns->v[k++].text, indent);
		gw_buf_add(&b, line, nl ? len + 1 : len);
		for (; doc_start && k < ns->n && ns->v[k].anchor == NULL; k++)
			note_put(&b, ns->v[k].text, 0);
		line += nl ? len + 1 : len;
	}
	if (k < ns->n) {
		gw_err_set(e, _("%s: no line for the comment at '%.64s'"), fmt,
		           ns->v[k].anchor ? ns->v[k].anchor : "---");
		gw_buf_free(&b);
		return -1;
	}
	*out = gw_buf_steal(&b);
	return 0;
}
