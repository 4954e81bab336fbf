/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_emit.c: the emitters, checked by parsing their output back with the
 * same libraries (libyaml's document loader, jansson).  Plans are built by
 * hand here so the tests do not depend on plan.c. */
#include "testutil.h"
#include "emit.h"
#include "yamltest.h"

#include <ctype.h>
#include <yaml.h>
#include <jansson.h>

/* ---- hand-built plans ------------------------------------------------ */

static gw_plan *
tp_new(const char *name, uint64_t mmio_gb)
{
	gw_plan *p = gw_xcalloc(1, sizeof *p);

	p->name = gw_xstrdup(name);
	p->mmio_gb = mmio_gb;
	p->rule_gb = mmio_gb;
	return p;
}

static void
tp_gpu(gw_plan *p, const char *label, unsigned vendor, unsigned device,
       int vram, int count, const char *profile, int existing)
{
	gw_plan_gpu *g;

	p->gpus = gw_xrealloc(p->gpus, (p->ngpus + 1) * sizeof *p->gpus);
	g = &p->gpus[p->ngpus++];
	memset(g, 0, sizeof *g);
	g->label = gw_xstrdup(label);
	g->vendor_id = vendor;
	g->device_id = device;
	g->vram_gb = vram;
	g->count = count;
	g->profile = gw_xstrdup(profile);
	g->existing = existing;
	if (!existing) {
		if (profile)
			p->n_vgpu += count;
		else
			p->n_passthru += count;
	}
	if (vram > 0)
		p->total_vram_gb += (uint64_t)vram * (uint64_t)count;
}

static void
tp_set(gw_plan *p, gw_set_kind kind, const char *key, const char *value,
       const char *old, int keep, const char *reason, const char *source)
{
	gw_setting *s;

	p->settings = gw_xrealloc(p->settings,
	                          (p->nsettings + 1) * sizeof *p->settings);
	s = &p->settings[p->nsettings++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->key = gw_xstrdup(key);
	s->value = gw_xstrdup(value);
	s->old_value = gw_xstrdup(old);
	s->keep = keep;
	s->reason = gw_xstrdup(reason);
	s->source = source;
}

/* The hand-built plans own their strings exactly as gw_plan_build's do,
 * so the library's gw_plan_free releases them. */
static void
tp_free(gw_plan *p)
{
	if (p == NULL)
		return;
	gw_plan_free(p);
	free(p);
}

#define R_MMIO "The GPUs' BARs need a 64-bit MMIO window larger than the default."
#define S_MMIO "Broadcom KB 323402"
#define R_MEM  "Passthrough needs all guest memory reserved."
#define S_MEM  "Broadcom KB 309986"
#define R_DEV  "Attach the GPU to the VM."
#define R_UVM  "NCCL needs unified memory on every vGPU."
#define S_UVM  "NVIDIA AI Enterprise docs"
#define R_P2P  "Let the GPUs talk peer to peer."
#define S_P2P  "NVIDIA GPU Operator docs"
#define R_NEST "Nested virtualization must be off with passthrough."
#define S_NEST "Broadcom KB 437651"

static void
tp_mem(gw_plan *p, const char *mb)
{
	tp_set(p, GW_SET_MEM, "sched.mem.min", mb, NULL, 0, R_MEM, S_MEM);
	tp_set(p, GW_SET_MEM, "sched.mem.minSize", mb, NULL, 0, R_MEM, S_MEM);
	tp_set(p, GW_SET_MEM, "sched.mem.pin", "TRUE", NULL, 0, R_MEM, S_MEM);
}

/* 1 x L40S passthrough, 128 GB; the .vmx had a 64 GB window and vhv off. */
static gw_plan *
plan_l40s(void)
{
	gw_plan *p = tp_new("gpu-l40s", 128);

	tp_gpu(p, "l40s", 0x10de, 0x26b9, 48, 1, NULL, 0);
	p->memory_mb = 65536;
	p->existing_gb = 64;
	tp_set(p, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_set(p, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", "128", "64", 0,
	       R_MMIO, S_MMIO);
	tp_mem(p, "65536");
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.present", "TRUE", NULL, 0, R_DEV, NULL);
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.id", "00000:066:00.0", NULL, 0, R_DEV, NULL);
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.deviceId", "0x26b9", NULL, 0, R_DEV, NULL);
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.vendorId", "0x10de", NULL, 0, R_DEV, NULL);
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.systemId",
	       "5f3e1c2a-1234-5678-9abc-0123456789ab", NULL, 0, R_DEV, NULL);
	tp_set(p, GW_SET_NESTED, "vhv.enable", "FALSE", "FALSE", 1, R_NEST, S_NEST);
	return p;
}

/* 2 x A100 80GB PCIe passthrough (20b5), 512 GB, P2P on. */
static gw_plan *
plan_a100x2(void)
{
	gw_plan *p = tp_new("gpu-a100-80g-pcie", 512);

	tp_gpu(p, "a100-80g-pcie", 0x10de, 0x20b5, 80, 2, NULL, 0);
	tp_set(p, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_set(p, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", "512", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_mem(p, "131072");
	tp_set(p, GW_SET_P2P, "pciPassthru.allowP2P", "TRUE", NULL, 0, R_P2P, S_P2P);
	tp_set(p, GW_SET_P2P, "pciPassthru.RelaxACSforP2P", "TRUE", NULL, 0,
	       R_P2P, S_P2P);
	return p;
}

/* vGPU only: 2 x grid_l40s-48c with UVM on pciPassthru0/1, 256 GB. */
static gw_plan *
plan_vgpu(void)
{
	gw_plan *p = tp_new("gpu-grid_l40s-48c", 256);

	tp_gpu(p, "grid_l40s-48c", 0x10de, 0x26b9, 48, 2, "grid_l40s-48c", 0);
	tp_set(p, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_set(p, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", "256", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_mem(p, "65536");
	tp_set(p, GW_SET_UVM, "pciPassthru0.cfg.enable_uvm", "1", NULL, 0,
	       R_UVM, S_UVM);
	tp_set(p, GW_SET_UVM, "pciPassthru1.cfg.enable_uvm", "1", NULL, 0,
	       R_UVM, S_UVM);
	return p;
}

/* Two models: 1 x L40S + 1 x A100 80GB. */
static gw_plan *
plan_mixed(void)
{
	gw_plan *p = tp_new("gpu-mixed", 256);

	tp_gpu(p, "l40s", 0x10de, 0x26b9, 48, 1, NULL, 0);
	tp_gpu(p, "a100-80g-pcie", 0x10de, 0x20b5, 80, 1, NULL, 0);
	tp_set(p, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE", NULL, 0,
	       R_MMIO, S_MMIO);
	tp_set(p, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", "256", NULL, 0,
	       R_MMIO, S_MMIO);
	return p;
}

/* ---- YAML document walk ---------------------------------------------- */

static size_t
ymap_len(yaml_node_t *map)
{
	assert_int_equal(map->type, YAML_MAPPING_NODE);
	return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

/* A string value: double-quoted scalar with this text. */
static void
yassert_str(yaml_document_t *doc, yaml_node_t *map, const char *key,
            const char *want)
{
	yaml_node_t *n = ymap_get(doc, map, key);

	if (n == NULL)
		fail_msg("key '%s' missing", key);
	assert_string_equal(yscalar(n), want);
	assert_int_equal(n->data.scalar.style, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

/* A plain scalar (integer or boolean as YAML reads it). */
static void
yassert_plain(yaml_document_t *doc, yaml_node_t *map, const char *key,
              const char *want)
{
	yaml_node_t *n = ymap_get(doc, map, key);

	if (n == NULL)
		fail_msg("key '%s' missing", key);
	assert_string_equal(yscalar(n), want);
	assert_int_equal(n->data.scalar.style, YAML_PLAIN_SCALAR_STYLE);
}

/* bosh output -> the single extension's cloud_properties node. */
static yaml_node_t *
bosh_cp(yaml_document_t *doc, const char *name)
{
	yaml_node_t *root = yaml_document_get_root_node(doc), *exts, *ext;

	assert_int_equal(ymap_len(root), 1);
	exts = ymap_get(doc, root, "vm_extensions");
	assert_int_equal(yseq_len(exts), 1);
	ext = yseq_at(doc, exts, 0);
	assert_int_equal(ymap_len(ext), 2);
	yassert_str(doc, ext, "name", name);
	return ymap_get(doc, ext, "cloud_properties");
}

static void
bosh_check_pts(yaml_document_t *doc, yaml_node_t *cp, size_t n,
               const char *vendor, const char *device)
{
	yaml_node_t *pts = ymap_get(doc, cp, "pci_passthroughs");
	size_t i;

	assert_int_equal(yseq_len(pts), n);
	for (i = 0; i < n; i++) {
		yaml_node_t *d = yseq_at(doc, pts, i);

		assert_int_equal(ymap_len(d), 2);
		yassert_plain(doc, d, "vendor_id", vendor);
		yassert_plain(doc, d, "device_id", device);
	}
}

/* No device blocks, sched.mem or vhv keys in vmx_options. */
static void
bosh_check_opts_clean(yaml_document_t *doc, yaml_node_t *opts)
{
	yaml_node_pair_t *pr;

	for (pr = opts->data.mapping.pairs.start;
	     pr < opts->data.mapping.pairs.top; pr++) {
		const char *k = yscalar(yaml_document_get_node(doc, pr->key));
		yaml_node_t *v = yaml_document_get_node(doc, pr->value);

		assert_null(strstr(k, "sched.mem"));
		assert_null(strstr(k, "vhv."));
		assert_null(strstr(k, ".present"));
		assert_null(strstr(k, ".vendorId"));
		assert_null(strstr(k, ".id"));
		/* every value a double-quoted string */
		yscalar(v);
		assert_int_equal(v->data.scalar.style,
		                 YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	}
}

/* ---- vmx output checks ------------------------------------------------- */

/* Is the line `key = "value"` (no '"' inside the value)? key copied out. */
static int
vmx_line_kv(const char *line, char *key, size_t keylen)
{
	const char *s = line, *v;
	size_t n;

	while (*s && (isalnum((unsigned char)*s) || strchr("._:-", *s)))
		s++;
	n = (size_t)(s - line);
	if (n == 0 || n >= keylen || strncmp(s, " = \"", 4) != 0)
		return 0;
	v = s + 4;
	s = strchr(v, '"');
	if (s == NULL || s[1] != '\0')
		return 0;
	memcpy(key, line, n);
	key[n] = '\0';
	return 1;
}

/* Every line blank, "# ..." or key = "value"; the keys written are exactly
 * the plan's keep == 0 settings in order; each group is preceded by a
 * comment naming its reason and source. */
static void
check_vmx(const gw_plan *p, const char *text)
{
	char *copy = gw_xstrdup(text), *line, *save = NULL;
	char key[256], prevline[1024] = "";
	size_t want = 0, i;

	assert_true(strlen(text) > 0);
	assert_int_equal(text[strlen(text) - 1], '\n');
	assert_null(strchr(text, '\r'));
	/* strtok_r drops blank lines; they are fine anyway */
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			assert_true(strncmp(line, "# ", 2) == 0);
		} else if (vmx_line_kv(line, key, sizeof key)) {
			while (want < p->nsettings && p->settings[want].keep)
				want++;
			if (want >= p->nsettings)
				fail_msg("extra setting line '%s'", line);
			assert_string_equal(key, p->settings[want].key);
			if (want == 0 ||
			    p->settings[want - 1].kind != p->settings[want].kind ||
			    p->settings[want - 1].keep) {
				/* first of a group: the comment line before it (or
				 * before its "replaces" comment) names the reason */
				assert_int_equal(prevline[0], '#');
			}
			want++;
		} else {
			fail_msg("line is neither a comment nor key = \"value\": '%s'",
			         line);
		}
		snprintf(prevline, sizeof prevline, "%s", line);
	}
	while (want < p->nsettings && p->settings[want].keep)
		want++;
	assert_int_equal(want, p->nsettings);
	/* kept settings are not written; reasons and sources appear */
	for (i = 0; i < p->nsettings; i++) {
		char *kv = gw_xasprintf("\n%s = ", p->settings[i].key);

		if (p->settings[i].keep)
			assert_null(strstr(text, kv));
		else {
			assert_non_null(strstr(text, kv));
			if (strpbrk(p->settings[i].reason, "\r\n") == NULL)
				assert_non_null(strstr(text, p->settings[i].reason));
			if (p->settings[i].source)
				assert_non_null(strstr(text, p->settings[i].source));
		}
		free(kv);
	}
	free(copy);
}

/* ---- tests: vmx ---------------------------------------------------------- */

static void
test_vmx_l40s(void **state)
{
	gw_plan *p = plan_l40s();
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_vmx(p, NULL, &out, &e), 0);
	check_vmx(p, out);
	assert_non_null(strstr(out, "\n# " R_MMIO " (source: " S_MMIO ")\n"
	                           "pciPassthru.use64bitMMIO = \"TRUE\"\n"));
	assert_non_null(strstr(out, "pciPassthru.64bitMMIOSizeGB = \"128\"\n"));
	assert_non_null(strstr(out, "pciPassthru0.id = \"00000:066:00.0\"\n"));
	assert_non_null(strstr(out, "\"64\""));            /* replaced value */
	assert_null(strstr(out, "vhv.enable ="));          /* keep == 1 */
	/* one comment per group, not per setting */
	assert_null(strstr(out, "\"TRUE\"\n# " R_MMIO));
	free(out);

	/* gw_emit dispatches the same */
	assert_int_equal(gw_emit(GW_FMT_VMX, p, &out, &e), 0);
	check_vmx(p, out);
	free(out);
	tp_free(p);
}

static void
test_vmx_others(void **state)
{
	gw_plan *plans[3];
	char *out = NULL;
	gw_err e;
	size_t i;

	(void)state;
	plans[0] = plan_a100x2();
	plans[1] = plan_vgpu();
	plans[2] = plan_mixed();
	for (i = 0; i < 3; i++) {
		assert_int_equal(gw_emit_vmx(plans[i], NULL, &out, &e), 0);
		check_vmx(plans[i], out);
		free(out);
		tp_free(plans[i]);
	}
}

static void
test_vmx_escape_and_empty(void **state)
{
	gw_plan *p = tp_new("x", 64);
	char *out = NULL;
	gw_err e;

	(void)state;
	tp_set(p, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE", "TRUE", 1,
	       R_MMIO, S_MMIO);
	/* nothing to write: still a pasteable comment-only text */
	assert_int_equal(gw_emit_vmx(p, NULL, &out, &e), 0);
	check_vmx(p, out);
	assert_null(strstr(out, "pciPassthru.use64bitMMIO ="));
	free(out);

	/* a value with a quote, a bar and a newline: ESXi's |XX; a reason
	 * with a newline stays one comment line */
	tp_set(p, GW_SET_DEVICE, "pciPassthru0.note", "a\"b|c\nd", NULL, 0,
	       "two\nlines", NULL);
	assert_int_equal(gw_emit_vmx(p, NULL, &out, &e), 0);
	check_vmx(p, out);
	assert_non_null(strstr(out, "\n# two lines\n"));
	assert_non_null(strstr(out, "pciPassthru0.note = \"a|22b|7Cc|0Ad\"\n"));
	free(out);

	/* a bad key is refused */
	tp_set(p, GW_SET_DEVICE, "bad key", "x", NULL, 0, "r", NULL);
	out = NULL;
	assert_int_equal(gw_emit_vmx(p, NULL, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "bad key"));
	tp_free(p);
}

/* ---- tests: bosh --------------------------------------------------------- */

static void
test_bosh_l40s(void **state)
{
	gw_plan *p = plan_l40s();
	yaml_document_t doc;
	yaml_node_t *cp, *opts;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), 0);
	ydoc_load(out, &doc);
	cp = bosh_cp(&doc, "gpu-l40s");
	bosh_check_pts(&doc, cp, 1, "4318", "9913");
	assert_null(ymap_get(&doc, cp, "vgpus"));
	opts = ymap_get(&doc, cp, "vmx_options");
	assert_int_equal(ymap_len(opts), 2);
	yassert_str(&doc, opts, "pciPassthru.use64bitMMIO", "TRUE");
	yassert_str(&doc, opts, "pciPassthru.64bitMMIOSizeGB", "128");
	bosh_check_opts_clean(&doc, opts);
	yassert_plain(&doc, cp, "memory_reservation_locked_to_max", "true");
	yassert_plain(&doc, cp, "upgrade_hw_version", "true");
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

static void
test_bosh_a100x2(void **state)
{
	gw_plan *p = plan_a100x2();
	yaml_document_t doc;
	yaml_node_t *cp, *opts;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit(GW_FMT_BOSH, p, &out, &e), 0);
	ydoc_load(out, &doc);
	cp = bosh_cp(&doc, "gpu-a100-80g-pcie");
	bosh_check_pts(&doc, cp, 2, "4318", "8373");     /* 0x20b5, twice */
	opts = ymap_get(&doc, cp, "vmx_options");
	yassert_str(&doc, opts, "pciPassthru.use64bitMMIO", "TRUE");
	yassert_str(&doc, opts, "pciPassthru.64bitMMIOSizeGB", "512");
	yassert_str(&doc, opts, "pciPassthru.allowP2P", "TRUE");
	yassert_str(&doc, opts, "pciPassthru.RelaxACSforP2P", "TRUE");
	assert_int_equal(ymap_len(opts), 4);
	bosh_check_opts_clean(&doc, opts);
	yassert_plain(&doc, cp, "memory_reservation_locked_to_max", "true");
	yassert_plain(&doc, cp, "upgrade_hw_version", "true");
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

static void
test_bosh_vgpu(void **state)
{
	gw_plan *p = plan_vgpu();
	yaml_document_t doc;
	yaml_node_t *cp, *opts, *vg;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), 0);
	ydoc_load(out, &doc);
	cp = bosh_cp(&doc, "gpu-grid_l40s-48c");
	assert_null(ymap_get(&doc, cp, "pci_passthroughs"));
	vg = ymap_get(&doc, cp, "vgpus");
	assert_int_equal(yseq_len(vg), 2);
	assert_string_equal(yscalar(yseq_at(&doc, vg, 0)), "grid_l40s-48c");
	assert_string_equal(yscalar(yseq_at(&doc, vg, 1)), "grid_l40s-48c");
	opts = ymap_get(&doc, cp, "vmx_options");
	yassert_str(&doc, opts, "pciPassthru.64bitMMIOSizeGB", "256");
	yassert_str(&doc, opts, "pciPassthru0.cfg.enable_uvm", "1");
	yassert_str(&doc, opts, "pciPassthru1.cfg.enable_uvm", "1");
	assert_int_equal(ymap_len(opts), 4);
	bosh_check_opts_clean(&doc, opts);
	yassert_plain(&doc, cp, "memory_reservation_locked_to_max", "true");
	yassert_plain(&doc, cp, "upgrade_hw_version", "true");
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

/* GPUs already attached are listed with the added ones (BOSH creates the
 * whole VM); mixed models are fine for BOSH, not for the tile. */
static void
test_bosh_existing_and_mixed(void **state)
{
	gw_plan *p = plan_mixed();
	yaml_document_t doc;
	yaml_node_t *cp, *pts;
	char *out = NULL;
	gw_err e;

	(void)state;
	tp_gpu(p, "h100", 0x10de, 0x2331, 80, 1, NULL, 1);
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), 0);
	ydoc_load(out, &doc);
	cp = bosh_cp(&doc, "gpu-mixed");
	pts = ymap_get(&doc, cp, "pci_passthroughs");
	assert_int_equal(yseq_len(pts), 3);
	yassert_plain(&doc, yseq_at(&doc, pts, 0), "device_id", "9913");
	yassert_plain(&doc, yseq_at(&doc, pts, 1), "device_id", "8373");
	yassert_plain(&doc, yseq_at(&doc, pts, 2), "device_id", "9009"); /* 0x2331 */
	yaml_document_delete(&doc);
	free(out);
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "two GPU models"));
	/* the .vmx lines still add only the missing ones */
	assert_int_equal(gw_emit_vmx(p, NULL, &out, &e), 0);
	assert_null(strstr(out, "0x2331"));
	free(out);
	tp_free(p);
}

static void
test_bosh_refusals(void **state)
{
	gw_plan *p = tp_new("gpu-old", 128);
	char *out = NULL;
	gw_err e;

	(void)state;
	/* no GPU at all */
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "bosh"));
	assert_non_null(strstr(e.msg, "no GPU"));
	assert_int_equal(gw_emit_opsman(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "opsman"));
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "tile"));
	assert_null(out);
	/* only an existing GPU: the VM BOSH creates has it */
	tp_gpu(p, "l40s", 0x10de, 0x26b9, 48, 1, NULL, 1);
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), 0);
	assert_non_null(strstr(out, "device_id: 9913"));
	free(out);
	out = NULL;
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), 0);
	assert_non_null(strstr(out, "0x26B9"));
	free(out);
	out = NULL;

	/* a passthrough GPU with unknown ids (bare --vram) */
	tp_gpu(p, "48GB", 0, 0, 48, 1, NULL, 0);
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "48GB"));
	assert_non_null(strstr(e.msg, "vendor"));
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "48GB"));
	tp_free(p);

	/* no name */
	p = plan_l40s();
	free(p->name);
	p->name = NULL;
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "name"));
	tp_free(p);

	/* no MMIO size */
	p = plan_l40s();
	p->mmio_gb = 0;
	assert_int_equal(gw_emit_bosh(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "64bitMMIOSizeGB"));
	tp_free(p);

	/* plan NULL */
	assert_int_equal(gw_emit_bosh(NULL, NULL, &out, &e), -1);
	assert_null(out);
}

/* ---- tests: opsman ------------------------------------------------------- */

static json_t *
ops_load(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	if (j == NULL)
		fail_msg("JSON does not parse: %s (line %d)\n%s", je.text, je.line,
		         text);
	assert_true(json_is_object(j));
	assert_int_equal(json_object_size(j), 2);
	return j;
}

static void
ops_check_pts(json_t *cp, size_t n, json_int_t vendor, json_int_t device)
{
	json_t *pts = json_object_get(cp, "pci_passthroughs");
	size_t i;

	assert_true(json_is_array(pts));
	assert_int_equal(json_array_size(pts), n);
	for (i = 0; i < n; i++) {
		json_t *d = json_array_get(pts, i);

		assert_true(json_is_integer(json_object_get(d, "vendor_id")));
		assert_true(json_is_integer(json_object_get(d, "device_id")));
		assert_int_equal(json_integer_value(json_object_get(d, "vendor_id")),
		                 vendor);
		assert_int_equal(json_integer_value(json_object_get(d, "device_id")),
		                 device);
	}
}

static void
ops_check_str(json_t *obj, const char *key, const char *want)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		fail_msg("'%s' is not a string", key);
	assert_string_equal(json_string_value(v), want);
}

static void
test_opsman(void **state)
{
	gw_plan *p = plan_l40s();
	json_t *j, *cp, *opts;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_opsman(p, NULL, &out, &e), 0);
	assert_null(strstr(out, "0x"));                  /* decimal ids */
	j = ops_load(out);
	ops_check_str(j, "name", "gpu-l40s");
	assert_null(strchr(json_string_value(json_object_get(j, "name")), '.'));
	cp = json_object_get(j, "cloud_properties");
	assert_true(json_is_object(cp));
	ops_check_pts(cp, 1, 4318, 9913);
	assert_null(json_object_get(cp, "vgpus"));
	opts = json_object_get(cp, "vmx_options");
	assert_int_equal(json_object_size(opts), 2);
	ops_check_str(opts, "pciPassthru.use64bitMMIO", "TRUE");
	ops_check_str(opts, "pciPassthru.64bitMMIOSizeGB", "128");
	assert_true(json_is_true(json_object_get(cp,
	                         "memory_reservation_locked_to_max")));
	assert_true(json_is_true(json_object_get(cp, "upgrade_hw_version")));
	json_decref(j);
	free(out);
	tp_free(p);

	p = plan_a100x2();
	assert_int_equal(gw_emit(GW_FMT_OPSMAN, p, &out, &e), 0);
	j = ops_load(out);
	cp = json_object_get(j, "cloud_properties");
	ops_check_pts(cp, 2, 4318, 8373);
	ops_check_str(json_object_get(cp, "vmx_options"),
	              "pciPassthru.64bitMMIOSizeGB", "512");
	ops_check_str(json_object_get(cp, "vmx_options"),
	              "pciPassthru.allowP2P", "TRUE");
	json_decref(j);
	free(out);
	tp_free(p);

	p = plan_vgpu();
	assert_int_equal(gw_emit_opsman(p, NULL, &out, &e), 0);
	j = ops_load(out);
	cp = json_object_get(j, "cloud_properties");
	assert_null(json_object_get(cp, "pci_passthroughs"));
	assert_int_equal(json_array_size(json_object_get(cp, "vgpus")), 2);
	assert_string_equal(json_string_value(json_array_get(
	                    json_object_get(cp, "vgpus"), 1)), "grid_l40s-48c");
	ops_check_str(json_object_get(cp, "vmx_options"),
	              "pciPassthru1.cfg.enable_uvm", "1");
	json_decref(j);
	free(out);

	/* a period in the name is refused */
	free(p->name);
	p->name = gw_xstrdup("gpu.l40s");
	out = NULL;
	assert_int_equal(gw_emit_opsman(p, NULL, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "gpu.l40s"));
	assert_non_null(strstr(e.msg, "period"));
	/* and so is a name that cannot go into the URL path */
	free(p->name);
	p->name = gw_xstrdup("gpu l40s");
	assert_int_equal(gw_emit_opsman(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "gpu l40s"));
	tp_free(p);
}

/* bosh and opsman say the same thing */
static void
test_bosh_opsman_agree(void **state)
{
	gw_plan *p = plan_vgpu();
	yaml_document_t doc;
	yaml_node_t *cp;
	json_t *j, *jcp;
	char *y = NULL, *o = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_bosh(p, NULL, &y, &e), 0);
	assert_int_equal(gw_emit_opsman(p, NULL, &o, &e), 0);
	ydoc_load(y, &doc);
	cp = bosh_cp(&doc, p->name);
	j = ops_load(o);
	jcp = json_object_get(j, "cloud_properties");
	assert_int_equal(ymap_len(cp), json_object_size(jcp));
	assert_int_equal(ymap_len(ymap_get(&doc, cp, "vmx_options")),
	                 json_object_size(json_object_get(jcp, "vmx_options")));
	json_decref(j);
	yaml_document_delete(&doc);
	free(y);
	free(o);
	tp_free(p);
}

/* ---- tests: tile --------------------------------------------------------- */

static void
test_tile_l40s(void **state)
{
	gw_plan *p = plan_l40s();
	yaml_document_t doc;
	yaml_node_t *root;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), 0);
	ydoc_load(out, &doc);
	root = yaml_document_get_root_node(&doc);
	assert_int_equal(ymap_len(root), 5);
	yassert_str(&doc, root, "Processing technology", "PCI Passthrough");
	yassert_str(&doc, root, "PCI Passthrough Vendor ID", "0x10DE");
	yassert_str(&doc, root, "PCI Passthrough Device ID", "0x26B9");
	yassert_str(&doc, root, "use 64bit MMIO", "TRUE");
	yassert_str(&doc, root, "size for 64bit MMIO", "128");
	assert_null(ymap_get(&doc, root, "note"));
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

static void
test_tile_a100x2(void **state)
{
	gw_plan *p = plan_a100x2();
	yaml_document_t doc;
	yaml_node_t *root;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit(GW_FMT_TILE, p, &out, &e), 0);
	ydoc_load(out, &doc);
	root = yaml_document_get_root_node(&doc);
	yassert_str(&doc, root, "PCI Passthrough Vendor ID", "0x10DE");
	yassert_str(&doc, root, "PCI Passthrough Device ID", "0x20B5");
	yassert_str(&doc, root, "size for 64bit MMIO", "512");
	assert_non_null(strstr(yscalar(ymap_get(&doc, root, "note")), "2 GPUs"));
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

static void
test_tile_vgpu(void **state)
{
	gw_plan *p = plan_vgpu();
	yaml_document_t doc;
	yaml_node_t *root;
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), 0);
	ydoc_load(out, &doc);
	root = yaml_document_get_root_node(&doc);
	assert_null(ymap_get(&doc, root, "Processing technology"));
	assert_null(ymap_get(&doc, root, "PCI Passthrough Vendor ID"));
	yassert_str(&doc, root, "use 64bit MMIO", "TRUE");
	yassert_str(&doc, root, "size for 64bit MMIO", "256");
	assert_non_null(strstr(yscalar(ymap_get(&doc, root, "note")),
	                       "grid_l40s-48c"));
	assert_non_null(strstr(yscalar(ymap_get(&doc, root, "note")),
	                       "not documented"));
	/* the profile is listed once, not once per vGPU */
	assert_null(strstr(strstr(yscalar(ymap_get(&doc, root, "note")),
	                          "grid_l40s-48c") + 1, "grid_l40s-48c"));
	yaml_document_delete(&doc);
	free(out);
	tp_free(p);
}

static void
test_tile_refusals(void **state)
{
	gw_plan *p = plan_mixed();
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "tile"));
	assert_non_null(strstr(e.msg, "l40s"));
	assert_non_null(strstr(e.msg, "a100-80g-pcie"));
	tp_free(p);

	/* passthrough and vGPU together */
	p = plan_l40s();
	tp_gpu(p, "grid_l40s-48c", 0x10de, 0x26b9, 48, 1, "grid_l40s-48c", 0);
	assert_int_equal(gw_emit_tile(p, NULL, &out, &e), -1);
	assert_non_null(strstr(e.msg, "vGPU"));
	assert_null(out);
	tp_free(p);
}

/* ---- tests: format names ------------------------------------------------- */

static void
test_formats(void **state)
{
	int mask = -7;
	gw_err e;

	(void)state;
	assert_int_equal(gw_format_parse("vmx"), GW_FMT_VMX);
	assert_int_equal(gw_format_parse("bosh"), GW_FMT_BOSH);
	assert_int_equal(gw_format_parse("opsman"), GW_FMT_OPSMAN);
	assert_int_equal(gw_format_parse("tile"), GW_FMT_TILE);
	assert_int_equal(gw_format_parse("TILE"), GW_FMT_TILE);
	assert_int_equal(gw_format_parse("yaml"), 0);
	assert_int_equal(gw_format_parse(""), 0);
	assert_int_equal(gw_format_parse(NULL), 0);

	assert_int_equal(gw_formats_parse("vmx,bosh,opsman,tile", "--format",
	                                  &mask, &e), 0);
	assert_int_equal(mask, GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN |
	                 GW_FMT_TILE);
	assert_int_equal(gw_formats_parse(" bosh , vmx ,bosh", "--format",
	                                  &mask, &e), 0);
	assert_int_equal(mask, GW_FMT_VMX | GW_FMT_BOSH);
	assert_int_equal(gw_formats_parse("tile,", "--format", &mask, &e), 0);
	assert_int_equal(mask, GW_FMT_TILE);

	mask = -7;
	assert_int_equal(gw_formats_parse("vmx, yaml", "--format", &mask, &e), -1);
	assert_int_equal(mask, -7);
	assert_non_null(strstr(e.msg, "--format"));
	assert_non_null(strstr(e.msg, "'yaml'"));
	assert_non_null(strstr(e.msg, "vmx, bosh, opsman, tile"));
	assert_int_equal(gw_formats_parse("", "[output] formats", &mask, &e), -1);
	assert_non_null(strstr(e.msg, "[output] formats"));
	assert_non_null(strstr(e.msg, "vmx, bosh, opsman, tile"));
	assert_int_equal(gw_formats_parse(" , ", "--format", &mask, &e), -1);
	assert_int_equal(gw_formats_parse(NULL, "--format", &mask, &e), -1);
	assert_int_equal(mask, -7);

	assert_string_equal(gw_format_name(GW_FMT_VMX), "vmx");
	assert_string_equal(gw_format_name(GW_FMT_BOSH), "bosh");
	assert_string_equal(gw_format_name(GW_FMT_OPSMAN), "opsman");
	assert_string_equal(gw_format_name(GW_FMT_TILE), "tile");
	assert_null(gw_format_name(0));
	assert_null(gw_format_name(GW_FMT_VMX | GW_FMT_BOSH));
	assert_string_equal(gw_format_filename(GW_FMT_VMX), "gpuwiz.vmx.txt");
	assert_string_equal(gw_format_filename(GW_FMT_BOSH),
	                    "bosh-vm-extension.yml");
	assert_string_equal(gw_format_filename(GW_FMT_OPSMAN),
	                    "opsman-vm-extension.json");
	assert_string_equal(gw_format_filename(GW_FMT_TILE), "tile-vm-type.yml");
	assert_null(gw_format_filename(64));
}

static void
test_emit_unknown_format(void **state)
{
	gw_plan *p = plan_l40s();
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_emit(0, p, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "vmx, bosh, opsman, tile"));
	assert_int_equal(gw_emit(GW_FMT_VMX | GW_FMT_BOSH, p, &out, &e), -1);
	tp_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmx_l40s),
		cmocka_unit_test(test_vmx_others),
		cmocka_unit_test(test_vmx_escape_and_empty),
		cmocka_unit_test(test_bosh_l40s),
		cmocka_unit_test(test_bosh_a100x2),
		cmocka_unit_test(test_bosh_vgpu),
		cmocka_unit_test(test_bosh_existing_and_mixed),
		cmocka_unit_test(test_bosh_refusals),
		cmocka_unit_test(test_opsman),
		cmocka_unit_test(test_bosh_opsman_agree),
		cmocka_unit_test(test_tile_l40s),
		cmocka_unit_test(test_tile_a100x2),
		cmocka_unit_test(test_tile_vgpu),
		cmocka_unit_test(test_tile_refusals),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_emit_unknown_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
