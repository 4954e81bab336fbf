/* emit.c: render a plan as snippets for the .vmx, BOSH, Ops Manager (its
 * API body and om's config), the AI Services tile and Ansible.
 *
 * YAML goes through libyaml's emitter (events), JSON through jansson; no
 * output is put together by string concatenation except the .vmx lines,
 * which are a line format of their own.  The BOSH and Ops Manager outputs
 * share one description of the extension's cloud_properties, built once as
 * a jansson value and then written either as JSON or, walked, as YAML
 * events, so the two never disagree.
 */
#include "emit_int.h"

#include <stdio.h>
#include <string.h>

/* ---- the registry (formats.def) ----------------------------------------- */

const gw_format_def gw_formats[] = {
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, ON, EMIT, NEXT) \
	{ GW_FMT_##ID, NAME, FILE, LABEL, HOLDS, ON, EMIT, NEXT },
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
gw_format_defaults(void)
{
	size_t i;
	int m = 0;

	for (i = 0; i < GW_NFORMATS; i++)
		if (gw_formats[i].wizard_default)
			m |= gw_formats[i].bit;
	return m;
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

/* GPUs this plan adds (not already in the .vmx): counts per kind.
 * Fails on a GPU to add with a count below 1. */
int
emit_count_added(const gw_plan *p, const char *fmt, int *npt, int *nvgpu,
                 gw_err *e)
{
	size_t i;
	char lb[32];

	*npt = *nvgpu = 0;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->existing)
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

/* ---- vmx ------------------------------------------------------------ */

/* One comment line: "# text\n" with line breaks and control bytes turned
 * into spaces, so the comment can never spill onto a second line. */
static void
vmx_comment(gw_buf *b, const char *text)
{
	const char *s;

	gw_buf_puts(b, "# ");
	for (s = text; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			gw_buf_add(b, " ", 1);
		else
			gw_buf_add(b, s, 1);
	}
	gw_buf_puts(b, "\n");
}

/* Value escaped the way ESXi writes .vmx values: '"', '|' and control
 * bytes as "|XX" (upper-case hex). */
static void
vmx_value(gw_buf *b, const char *v)
{
	const char *s;

	for (s = v; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '|' || c < 0x20 || c == 0x7f)
			gw_buf_printf(b, "|%02X", c);
		else
			gw_buf_add(b, s, 1);
	}
}

static const char *const kind_desc[] = {
	[GW_SET_MMIO]   = N_("64-bit MMIO window for the GPUs' BARs"),
	[GW_SET_MEM]    = N_("full memory reservation, required with passthrough"),
	[GW_SET_DEVICE] = N_("PCI passthrough device"),
	[GW_SET_UVM]    = N_("unified memory (UVM) for the vGPU"),
	[GW_SET_P2P]    = N_("peer-to-peer between the GPUs"),
	[GW_SET_CODE43] = N_("hide the hypervisor from old GeForce drivers"),
	[GW_SET_NESTED] = N_("nested virtualization must be off with passthrough"),
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

/* Same group: consecutive settings of one kind with one reason and source. */
static int
same_group(const gw_setting *a, const gw_setting *b)
{
	return a->kind == b->kind && emit_str_eq_null(a->reason, b->reason) &&
	       emit_str_eq_null(a->source, b->source);
}

int
gw_emit_vmx(const gw_plan *p, const gw_emit_opts *o, char **out, gw_err *e)
{
	gw_buf b;
	const gw_setting *prev = NULL;
	size_t i, nwritten = 0;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("vmx: no plan to render"));
		return -1;
	}
	for (i = 0; i < p->nsettings; i++)
		if (!p->settings[i].keep &&
		    emit_setting_check(&p->settings[i], "vmx", e) != 0)
			return -1;

	gw_buf_init(&b);
	vmx_comment(&b, _("gpuwiz: settings for the VM's .vmx file. Edit the "
	                  ".vmx only while the VM is powered off, then reload "
	                  "it: vim-cmd vmsvc/reload <vmid>"));
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (s->keep)
			continue;
		if (prev == NULL || !same_group(prev, s)) {
			char *c = emit_setting_why(s);

			gw_buf_puts(&b, "\n");
			vmx_comment(&b, c);
			free(c);
		}
		if (s->old_value) {
			char *c = gw_xasprintf(_("%s: replaces the current value "
			                         "\"%s\""), s->key, s->old_value);
			vmx_comment(&b, c);
			free(c);
		}
		gw_buf_printf(&b, "%s = \"", s->key);
		vmx_value(&b, s->value);
		gw_buf_puts(&b, "\"\n");
		prev = s;
		nwritten++;
	}
	if (nwritten == 0) {
		gw_buf_puts(&b, "\n");
		vmx_comment(&b, _("Nothing to change: every setting the plan needs "
		                  "is already in the .vmx."));
	}
	*out = gw_buf_steal(&b);
	return 0;
}

/* Without a .vmx of the VM's own: the lines pasted, then reloaded. */
void
gw_next_vmx(const gw_next_ctx *c)
{
	if (c->vmx_patched)
		return;
	c->push(c->list, gw_xasprintf(_("With the VM off, add the lines of %s to its .vmx (or in the vSphere Client: Edit Settings > VM Options > Advanced > Configuration Parameters)"),
	                              c->path));
	c->push(c->list, gw_xasprintf(_("After editing the .vmx on the host with the VM off: %s"),
	                              "vim-cmd vmsvc/reload <vmid>"));
	c->push(c->list, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
	                              "vim-cmd vmsvc/power.on <vmid>",
	                              "vim-cmd vmsvc/getallvms"));
}

/* ---- dispatch ------------------------------------------------------- */

int
gw_emit(int fmt, const gw_plan *p, char **out, gw_err *e)
{
	const gw_format_def *f = gw_format_def_of(fmt);

	if (f == NULL) {
		gw_err_set(e, _("unknown output format %d; expected one of: %s"),
		           fmt, gw_format_list());
		return -1;
	}
	return f->emit(p, NULL, out, e);
}
