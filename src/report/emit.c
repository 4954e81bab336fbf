/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit.c: the output format registry (formats.h) and what the renderers
 * share; each format's renderer is in its own file (emit_vmx.c: the
 * .vmx lines, emit_ext.c: BOSH and Ops Manager (its API body and om's
 * config), emit_tile.c: the AI Services tile, emit_ansible.c: Ansible).
 *
 * YAML goes through libyaml's emitter (events), JSON through jansson; no
 * output is put together by string concatenation except the .vmx lines,
 * which are a line format of their own.  The BOSH and Ops Manager outputs
 * share one description of the extension's cloud_properties, built once as
 * a jansson value and then written either as JSON or, walked, as YAML
 * events, so the two never disagree.
 */
#include "emit_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the registry (formats.def) ----------------------------------------- */

const gw_format_def gw_formats[] = {
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, FOR, DOES, TAKES, EMIT, NEXT) \
	{ GW_FMT_##ID, NAME, FILE, LABEL, HOLDS, FOR, DOES, TAKES, EMIT, NEXT },
#include "formats.def"
#undef GW_FORMAT
};

const gw_format_def *
gw_format_def_of(int fmt)
{
	size_t i;

	for (i = 0; i < GW_NFORMATS; i++)
		if (gw_formats[i].bit == fmt)
			return &gw_formats[i];
	return NULL;
}

const char *
gw_format_list(void)
{
	static char list[256];
	size_t i, n = 0;

	if (list[0] != '\0')
		return list;
	for (i = 0; i < GW_NFORMATS && n < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
		                      i ? ", " : "", gw_formats[i].name);
	return list;
}

int
gw_format_defaults(unsigned audiences)
{
	size_t i;
	int m = 0;

	for (i = 0; i < GW_NFORMATS; i++)
		if (gw_formats[i].audiences & audiences)
			m |= gw_formats[i].bit;
	return m;
}

unsigned
gw_formats_do(int mask)
{
	unsigned all = ~0u;
	size_t i;

	if ((mask & GW_FMT_ALL) == 0)
		return 0;
	for (i = 0; i < GW_NFORMATS; i++)
		if (mask & gw_formats[i].bit)
			all &= gw_formats[i].does;
	return all;
}

int
gw_format_parse(const char *name)
{
	size_t i;

	if (name == NULL)
		return 0;
	for (i = 0; i < GW_NFORMATS; i++)
		if (gw_strieq(name, gw_formats[i].name))
			return gw_formats[i].bit;
	return 0;
}

int
gw_formats_parse(const char *list, const char *field, int *mask, gw_err *e)
{
	const char *p = list ? list : "";
	const char *fld = field && *field ? field : _("format list");
	int m = 0;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *word = gw_xstrndup(p, n);
		int f;

		gw_trim(word);
		if (*word == '\0') {           /* "vmx, ,bosh" or a trailing comma */
			free(word);
		} else if ((f = gw_format_parse(word)) == 0) {
			gw_err_set(e, _("%s: unknown format '%.64s'; expected a "
			                "comma-separated list of: %s"),
			           fld, word, gw_format_list());
			free(word);
			return -1;
		} else {
			m |= f;
			free(word);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (m == 0) {
		gw_err_set(e, _("%s: no format given; expected a comma-separated "
		                "list of: %s"), fld, gw_format_list());
		return -1;
	}
	if (mask)
		*mask = m;
	return 0;
}

const char *
gw_format_name(int fmt)
{
	const gw_format_def *f = gw_format_def_of(fmt);

	return f ? f->name : NULL;
}

const char *
gw_format_filename(int fmt)
{
	const gw_format_def *f = gw_format_def_of(fmt);

	return f ? f->filename : NULL;
}

/* ---- shared checks -------------------------------------------------- */

/* A .vmx / extraConfig key as gpuwiz writes them. */
static int
key_valid(const char *k)
{
	const char *s;

	if (k == NULL || *k == '\0')
		return 0;
	for (s = k; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == ':' || c == '-'))
			return 0;
	}
	return 1;
}

/* Check a setting can be written at all (key and value present). */
int
emit_setting_check(const gw_setting *s, const char *fmt, gw_err *e)
{
	if (!key_valid(s->key)) {
		gw_err_set(e, _("%s: setting key '%.64s' is not a valid .vmx key "
		                "(expected letters, digits, '.', '_', ':' or '-')"),
		           fmt, s->key ? s->key : "");
		return -1;
	}
	if (s->value == NULL) {
		gw_err_set(e, _("%s: setting '%s' has no value"), fmt, s->key);
		return -1;
	}
	return 0;
}

/* A short name for a GPU in messages; buf >= 32 bytes. */
const char *
emit_gpu_label(const gw_plan_gpu *g, char *buf, size_t len)
{
	if (g->label && *g->label)
		return g->label;
	if (g->profile && *g->profile)
		return g->profile;
	snprintf(buf, len, "%04x:%04x", g->vendor_id, g->device_id);
	return buf;
}

int
emit_listed(const gw_plan_gpu *g, int whole)
{
	return whole || !g->existing;
}

int
emit_count_listed(const gw_plan *p, const char *fmt, int whole, int *npt,
                  int *nvgpu, gw_err *e)
{
	size_t i;
	char lb[32];

	*npt = *nvgpu = 0;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (!emit_listed(g, whole))
			continue;
		if (g->count < 1) {
			gw_err_set(e, _("%s: GPU %s has a count of %d; expected 1 "
			                "or more"), fmt, emit_gpu_label(g, lb, sizeof lb),
			           g->count);
			return -1;
		}
		if (g->profile && *g->profile)
			*nvgpu += g->count;
		else
			*npt += g->count;
	}
	return 0;
}

/* The value as a new member; val is consumed either way (NULL: -1). */
int
emit_json_set(json_t *obj, const char *key, json_t *val)
{
	if (val == NULL || json_object_set_new(obj, key, val) != 0) {
		json_decref(val);
		return -1;
	}
	return 0;
}

int
emit_json_append(json_t *arr, json_t *val)
{
	if (val == NULL || json_array_append_new(arr, val) != 0) {
		json_decref(val);
		return -1;
	}
	return 0;
}

/* ---- why a setting is there ------------------------------------------ */

static const char *const kind_desc[] = {
	[GW_SET_MMIO]   = N_("64-bit MMIO window for the GPUs' BARs"),
	[GW_SET_MEM]    = N_("full memory reservation, required with passthrough"),
	[GW_SET_DEVICE] = N_("PCI passthrough device"),
	[GW_SET_UVM]    = N_("unified memory (UVM) for the vGPU"),
	[GW_SET_P2P]    = N_("peer-to-peer between the GPUs"),
	[GW_SET_CODE43] = N_("hide the hypervisor from old GeForce drivers"),
	[GW_SET_NESTED] = N_("nested virtualization must be off with passthrough"),
	[GW_SET_HOTADD] = N_("memory and CPU hot-add must be off with passthrough"),
};

/* The setting's reason (its own, else its kind's; static or the
 * setting's), and "reason (source: S)" malloc'ed. */
static const char *
emit_setting_reason(const gw_setting *s)
{
	if (s->reason && *s->reason)
		return s->reason;
	if ((unsigned)s->kind < sizeof kind_desc / sizeof kind_desc[0] &&
	    kind_desc[s->kind])
		return _(kind_desc[s->kind]);
	return "";
}

char *
emit_setting_why(const gw_setting *s)
{
	if (s->source && *s->source)
		return gw_xasprintf(_("%s (source: %s)"), emit_setting_reason(s),
		                    s->source);
	return gw_xstrdup(emit_setting_reason(s));
}

int
emit_str_eq_null(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* ---- dispatch ------------------------------------------------------- */

unsigned long gw_emit_renders;

int
gw_emit(int fmt, const gw_plan *p, char **out, gw_err *e)
{
	const gw_format_def *f = gw_format_def_of(fmt);

	gw_emit_renders++;
	if (f == NULL) {
		gw_err_set(e, _("unknown output format %d; expected one of: %s"),
		           fmt, gw_format_list());
		return -1;
	}
	return f->emit(p, NULL, out, e);
}

void
gw_next_push(const gw_next_ctx *c, char *words, ...)
{
	gw_buf b;
	va_list ap;
	const char *cmd;

	gw_buf_init(&b);
	gw_buf_puts(&b, words);
	free(words);
	va_start(ap, words);
	while ((cmd = va_arg(ap, const char *)) != NULL)
		gw_buf_printf(&b, "\n%s", cmd);
	va_end(ap);
	c->push(c->list, gw_buf_steal(&b));
}
