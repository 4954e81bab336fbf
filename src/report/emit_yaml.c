/* emit_yaml.c: YAML through libyaml's emitter (events): a jansson value
 * walked into one YAML document.  Keys plain, strings double-quoted. */
#include "emit_int.h"

#include <stdio.h>
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
		ok = yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
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
