/* emit.c: render a plan as snippets for the .vmx, BOSH, Ops Manager and the
 * AI Services tile.
 *
 * YAML goes through libyaml's emitter (events), JSON through jansson; no
 * output is put together by string concatenation except the .vmx lines,
 * which are a line format of their own.  The BOSH and Ops Manager outputs
 * share one description of the extension's cloud_properties, built once as
 * a jansson value and then written either as JSON or, walked, as YAML
 * events, so the two never disagree.
 */
#include "gw.h"
#include "emit.h"

#include <string.h>
#include <yaml.h>
#include <jansson.h>

/* ---- format names --------------------------------------------------- */

static const struct {
	int fmt;
	const char *name;
	const char *filename;
} formats[] = {
	{ GW_FMT_VMX,    "vmx",    "gpuwiz.vmx.txt" },
	{ GW_FMT_BOSH,   "bosh",   "bosh-vm-extension.yml" },
	{ GW_FMT_OPSMAN, "opsman", "opsman-vm-extension.json" },
	{ GW_FMT_TILE,   "tile",   "tile-vm-type.yml" },
};
#define NFORMATS (sizeof formats / sizeof formats[0])
#define FORMAT_LIST "vmx, bosh, opsman, tile"

int
gw_format_parse(const char *name)
{
	size_t i;

	if (name == NULL)
		return 0;
	for (i = 0; i < NFORMATS; i++)
		if (gw_strieq(name, formats[i].name))
			return formats[i].fmt;
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
			           fld, word, FORMAT_LIST);
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
		                "list of: %s"), fld, FORMAT_LIST);
		return -1;
	}
	if (mask)
		*mask = m;
	return 0;
}

const char *
gw_format_name(int fmt)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (formats[i].fmt == fmt)
			return formats[i].name;
	return NULL;
}

const char *
gw_format_filename(int fmt)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (formats[i].fmt == fmt)
			return formats[i].filename;
	return NULL;
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
static int
setting_check(const gw_setting *s, const char *fmt, gw_err *e)
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
static const char *
gpu_label(const gw_plan_gpu *g, char *buf, size_t len)
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
static int
count_added(const gw_plan *p, const char *fmt, int *npt, int *nvgpu,
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
			                "or more"), fmt, gpu_label(g, lb, sizeof lb),
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

static const char *
setting_reason(const gw_setting *s)
{
	if (s->reason && *s->reason)
		return s->reason;
	if ((unsigned)s->kind < sizeof kind_desc / sizeof kind_desc[0] &&
	    kind_desc[s->kind])
		return _(kind_desc[s->kind]);
	return "";
}

static int
str_eq_null(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Same group: consecutive settings of one kind with one reason and source. */
static int
same_group(const gw_setting *a, const gw_setting *b)
{
	return a->kind == b->kind && str_eq_null(a->reason, b->reason) &&
	       str_eq_null(a->source, b->source);
}

int
gw_emit_vmx(const gw_plan *p, char **out, gw_err *e)
{
	gw_buf b;
	const gw_setting *prev = NULL;
	size_t i, nwritten = 0;

	if (p == NULL || out == NULL) {
		gw_err_set(e, _("vmx: no plan to render"));
		return -1;
	}
	for (i = 0; i < p->nsettings; i++)
		if (!p->settings[i].keep &&
		    setting_check(&p->settings[i], "vmx", e) != 0)
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
			char *c;

			gw_buf_puts(&b, "\n");
			if (s->source && *s->source)
				c = gw_xasprintf(_("%s (source: %s)"),
				                 setting_reason(s), s->source);
			else
				c = gw_xstrdup(setting_reason(s));
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

/* ---- the VM extension (shared by bosh and opsman) ------------------- */

/* Which settings go to vmx_options: the VM-wide extraConfig keys.  Device
 * blocks are BOSH's pci_passthroughs/vgpus, sched.mem.* is
 * memory_reservation_locked_to_max, and vhv.enable has its own CPI property
 * (nested_hardware_virtualization), so those stay out. */
static int
kind_in_vmx_options(gw_set_kind k)
{
	return k == GW_SET_UVM || k == GW_SET_P2P || k == GW_SET_CODE43;
}

static int
json_set_new(json_t *obj, const char *key, json_t *val)
{
	if (val == NULL || json_object_set_new(obj, key, val) != 0) {
		json_decref(val);
		return -1;
	}
	return 0;
}

static int
json_append(json_t *arr, json_t *val)
{
	if (val == NULL || json_array_append_new(arr, val) != 0) {
		json_decref(val);
		return -1;
	}
	return 0;
}

/* The extension name as BOSH / Ops Manager take it. */
static int
ext_name_check(const gw_plan *p, const char *fmt, int strict, gw_err *e)
{
	const char *s;

	if (p->name == NULL || *p->name == '\0') {
		gw_err_set(e, _("%s: the plan has no VM extension name"), fmt);
		return -1;
	}
	for (s = p->name; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '.') {
			gw_err_set(e, _("%s: VM extension name '%.64s' contains a "
			                "period; Ops Manager refuses such names"),
			           fmt, p->name);
			return -1;
		}
		if (c < 0x20 || c == 0x7f || (strict &&
		    !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_'))) {
			gw_err_set(e, _("%s: VM extension name '%.64s' has a "
			                "character other than letters, digits, '-' "
			                "or '_'"), fmt, p->name);
			return -1;
		}
	}
	return 0;
}

/* Build cloud_properties for a BOSH vSphere CPI VM extension:
 *   pci_passthroughs: [{vendor_id, device_id}, ...]  once per physical GPU
 *   vgpus: [profile, ...]                           once per vGPU
 *   vmx_options: {key: "value"}                      MMIO, UVM, P2P, code 43
 *   memory_reservation_locked_to_max: true
 *   upgrade_hw_version: true
 * Only GPUs this plan adds are listed: GPUs already attached in an existing
 * .vmx are not the extension's business (BOSH creates new VMs). */
static json_t *
cloud_properties(const gw_plan *p, const char *fmt, gw_err *e)
{
	json_t *cp = NULL, *pts = NULL, *vgpus = NULL, *opts = NULL;
	int npt, nvg, has_mem = 0, j;
	size_t i;
	char lb[32], size[32];

	if (count_added(p, fmt, &npt, &nvg, e) != 0)
		return NULL;
	if (npt + nvg == 0) {
		gw_err_set(e, _("%s: the plan adds no GPU; a VM extension needs at "
		                "least one passthrough GPU or vGPU to add"), fmt);
		return NULL;
	}
	if (p->mmio_gb == 0) {
		gw_err_set(e, _("%s: the plan has no 64-bit MMIO size "
		                "(pciPassthru.64bitMMIOSizeGB)"), fmt);
		return NULL;
	}
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->existing || (g->profile && *g->profile))
			continue;
		if (g->vendor_id == 0 || g->device_id == 0 ||
		    g->vendor_id > 0xffff || g->device_id > 0xffff) {
			gw_err_set(e, _("%s: GPU %s has no known PCI vendor/device id; "
			                "pci_passthroughs needs both (give the GPU by "
			                "model or as vendor:device)"),
			           fmt, gpu_label(g, lb, sizeof lb));
			return NULL;
		}
	}
	for (i = 0; i < p->nsettings; i++) {
		if (p->settings[i].kind == GW_SET_MEM)
			has_mem = 1;
		if (kind_in_vmx_options(p->settings[i].kind) &&
		    setting_check(&p->settings[i], fmt, e) != 0)
			return NULL;
	}

	cp = json_object();
	pts = json_array();
	vgpus = json_array();
	opts = json_object();
	if (cp == NULL || pts == NULL || vgpus == NULL || opts == NULL)
		goto oom;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->existing)
			continue;
		for (j = 0; j < g->count; j++) {
			if (g->profile && *g->profile) {
				if (json_append(vgpus, json_string(g->profile)) != 0)
					goto oom;
			} else {
				json_t *d = json_object();

				if (d == NULL)
					goto oom;
				if (json_set_new(d, "vendor_id",
				                 json_integer(g->vendor_id)) != 0 ||
				    json_set_new(d, "device_id",
				                 json_integer(g->device_id)) != 0) {
					json_decref(d);
					goto oom;
				}
				if (json_append(pts, d) != 0)
					goto oom;
			}
		}
	}

	/* The MMIO window from the plan's final size: BOSH makes a new VM, so a
	 * value kept in an old .vmx is still needed here. */
	snprintf(size, sizeof size, "%llu", (unsigned long long)p->mmio_gb);
	if (json_set_new(opts, "pciPassthru.use64bitMMIO",
	                 json_string("TRUE")) != 0 ||
	    json_set_new(opts, "pciPassthru.64bitMMIOSizeGB",
	                 json_string(size)) != 0)
		goto oom;
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		int dup = 0;
		const char *k;
		json_t *v;

		if (!kind_in_vmx_options(s->kind))
			continue;
		/* keys compare case-insensitively in a .vmx: first one wins */
		json_object_foreach(opts, k, v)
			if (gw_strieq(k, s->key))
				dup = 1;
		if (!dup && json_set_new(opts, s->key, json_string(s->value)) != 0)
			goto oom;
	}

	if (npt > 0) {
		if (json_set_new(cp, "pci_passthroughs", pts) != 0) {
			pts = NULL;
			goto oom;
		}
	} else {
		json_decref(pts);
	}
	pts = NULL;
	if (nvg > 0) {
		if (json_set_new(cp, "vgpus", vgpus) != 0) {
			vgpus = NULL;
			goto oom;
		}
	} else {
		json_decref(vgpus);
	}
	vgpus = NULL;
	if (json_set_new(cp, "vmx_options", opts) != 0) {
		opts = NULL;
		goto oom;
	}
	opts = NULL;
	/* Both forced on by the CPI with passthrough or vGPUs (domain.md 7);
	 * written out so the extension says what the VM gets. */
	if (has_mem || npt + nvg > 0)
		if (json_set_new(cp, "memory_reservation_locked_to_max",
		                 json_true()) != 0)
			goto oom;
	if (npt + nvg > 0)
		if (json_set_new(cp, "upgrade_hw_version", json_true()) != 0)
			goto oom;
	return cp;
oom:
	json_decref(cp);
	json_decref(pts);
	json_decref(vgpus);
	json_decref(opts);
	gw_err_set(e, _("%s: out of memory"), fmt);
	return NULL;
}

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
static int
yaml_render(json_t *root, const char *fmt, char **out, gw_err *e)
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

/* ---- bosh ----------------------------------------------------------- */

int
gw_emit_bosh(const gw_plan *p, char **out, gw_err *e)
{
	json_t *root = NULL, *exts, *ext, *cp;
	int rc;

	if (p == NULL || out == NULL) {
		gw_err_set(e, _("bosh: no plan to render"));
		return -1;
	}
	if (ext_name_check(p, "bosh", 0, e) != 0)
		return -1;
	if ((cp = cloud_properties(p, "bosh", e)) == NULL)
		return -1;
	ext = json_object();
	if (ext == NULL || json_set_new(ext, "name", json_string(p->name)) != 0 ||
	    json_set_new(ext, "cloud_properties", cp) != 0) {
		json_decref(ext);
		gw_err_set(e, _("%s: out of memory"), "bosh");
		return -1;
	}
	exts = json_array();
	if (json_append(exts, ext) != 0 || (root = json_object()) == NULL ||
	    json_set_new(root, "vm_extensions", exts) != 0) {
		json_decref(root);
		gw_err_set(e, _("%s: out of memory"), "bosh");
		return -1;
	}
	rc = yaml_render(root, "bosh", out, e);
	json_decref(root);
	return rc;
}

/* ---- opsman --------------------------------------------------------- */

static int
json_out(const char *buf, size_t size, void *data)
{
	gw_buf_add(data, buf, size);
	return 0;
}

int
gw_emit_opsman(const gw_plan *p, char **out, gw_err *e)
{
	json_t *root, *cp;
	gw_buf b;

	if (p == NULL || out == NULL) {
		gw_err_set(e, _("opsman: no plan to render"));
		return -1;
	}
	if (ext_name_check(p, "opsman", 1, e) != 0)
		return -1;
	if ((cp = cloud_properties(p, "opsman", e)) == NULL)
		return -1;
	root = json_object();
	if (root == NULL || json_set_new(root, "name", json_string(p->name)) != 0 ||
	    json_set_new(root, "cloud_properties", cp) != 0) {
		json_decref(root);
		gw_err_set(e, _("%s: out of memory"), "opsman");
		return -1;
	}
	gw_buf_init(&b);
	if (json_dump_callback(root, json_out, &b,
	                       JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		json_decref(root);
		gw_buf_free(&b);
		gw_err_set(e, _("%s: cannot write the JSON body"), "opsman");
		return -1;
	}
	json_decref(root);
	gw_buf_puts(&b, "\n");
	*out = gw_buf_steal(&b);
	return 0;
}

/* ---- tile ----------------------------------------------------------- */

/* Labels of the AI Services tile's custom VM type form (domain.md 7). */
#define TILE_TECH    "Processing technology"
#define TILE_VENDOR  "PCI Passthrough Vendor ID"
#define TILE_DEVICE  "PCI Passthrough Device ID"
#define TILE_MMIO    "use 64bit MMIO"
#define TILE_MMIO_GB "size for 64bit MMIO"

int
gw_emit_tile(const gw_plan *p, char **out, gw_err *e)
{
	const gw_plan_gpu *pt = NULL;
	json_t *root;
	gw_buf profiles;
	int npt, nvg, rc, fail = 0;
	size_t i;
	char lb[32], lb2[32], hex[16], size[32];

	if (p == NULL || out == NULL) {
		gw_err_set(e, _("tile: no plan to render"));
		return -1;
	}
	if (count_added(p, "tile", &npt, &nvg, e) != 0)
		return -1;
	if (npt + nvg == 0) {
		gw_err_set(e, _("%s: the plan adds no GPU; a custom VM type needs "
		                "a GPU to pass through"), "tile");
		return -1;
	}
	if (npt > 0 && nvg > 0) {
		gw_err_set(e, _("tile: the plan mixes passthrough GPUs and vGPUs; a "
		                "custom VM type has one processing technology"));
		return -1;
	}
	if (p->mmio_gb == 0) {
		gw_err_set(e, _("%s: the plan has no 64-bit MMIO size "
		                "(pciPassthru.64bitMMIOSizeGB)"), "tile");
		return -1;
	}
	gw_buf_init(&profiles);
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->existing)
			continue;
		if (g->profile && *g->profile) {
			size_t k;
			int seen = 0;

			for (k = 0; k < i; k++)
				if (!p->gpus[k].existing &&
				    str_eq_null(p->gpus[k].profile, g->profile))
					seen = 1;
			if (!seen)
				gw_buf_printf(&profiles, "%s%s",
				              profiles.len ? ", " : "", g->profile);
			continue;
		}
		if (g->vendor_id == 0 || g->device_id == 0 ||
		    g->vendor_id > 0xffff || g->device_id > 0xffff) {
			gw_err_set(e, _("tile: GPU %s has no known PCI vendor/device "
			                "id; the tile's PCI Passthrough fields need "
			                "both"), gpu_label(g, lb, sizeof lb));
			gw_buf_free(&profiles);
			return -1;
		}
		if (pt && (pt->vendor_id != g->vendor_id ||
		           pt->device_id != g->device_id)) {
			gw_err_set(e, _("tile: the plan has two GPU models (%s and %s); "
			                "a custom VM type takes one PCI vendor/device "
			                "id"), gpu_label(pt, lb, sizeof lb),
			           gpu_label(g, lb2, sizeof lb2));
			gw_buf_free(&profiles);
			return -1;
		}
		pt = g;
	}

	snprintf(size, sizeof size, "%llu", (unsigned long long)p->mmio_gb);
	root = json_object();
	if (root == NULL)
		fail = 1;
	if (!fail && pt) {
		fail |= json_set_new(root, TILE_TECH,
		                     json_string("PCI Passthrough")) != 0;
		snprintf(hex, sizeof hex, "0x%04X", pt->vendor_id);
		fail |= json_set_new(root, TILE_VENDOR, json_string(hex)) != 0;
		snprintf(hex, sizeof hex, "0x%04X", pt->device_id);
		fail |= json_set_new(root, TILE_DEVICE, json_string(hex)) != 0;
	}
	if (!fail) {
		fail |= json_set_new(root, TILE_MMIO, json_string("TRUE")) != 0;
		fail |= json_set_new(root, TILE_MMIO_GB, json_string(size)) != 0;
	}
	if (!fail && pt == NULL) {
		char *n = gw_xasprintf(_("The tile documents only \"PCI "
		                         "Passthrough\" as processing technology; a "
		                         "vGPU choice is not documented. Pick the "
		                         "tile's vGPU option if it has one, with "
		                         "profile %s; the 64-bit MMIO fields apply "
		                         "to vGPU VMs as well."), profiles.data);

		fail |= json_set_new(root, "note", json_string(n)) != 0;
		free(n);
	} else if (!fail && npt > 1) {
		char *n = gw_xasprintf(_("The MMIO size is for %d GPUs; the tile "
		                         "documents one vendor/device id and not how "
		                         "many GPUs a VM type gets: check the form."),
		                       npt);

		fail |= json_set_new(root, "note", json_string(n)) != 0;
		free(n);
	}
	gw_buf_free(&profiles);
	if (fail) {
		json_decref(root);
		gw_err_set(e, _("%s: out of memory"), "tile");
		return -1;
	}
	rc = yaml_render(root, "tile", out, e);
	json_decref(root);
	return rc;
}

/* ---- dispatch ------------------------------------------------------- */

int
gw_emit(int fmt, const gw_plan *p, char **out, gw_err *e)
{
	switch (fmt) {
	case GW_FMT_VMX:
		return gw_emit_vmx(p, out, e);
	case GW_FMT_BOSH:
		return gw_emit_bosh(p, out, e);
	case GW_FMT_OPSMAN:
		return gw_emit_opsman(p, out, e);
	case GW_FMT_TILE:
		return gw_emit_tile(p, out, e);
	default:
		gw_err_set(e, _("unknown output format %d; expected one of: %s"),
		           fmt, FORMAT_LIST);
		return -1;
	}
}
