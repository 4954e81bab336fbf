/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_ext.c: the VM extension of the BOSH vSphere CPI: its
 * cloud_properties, built once as a jansson value, then written as BOSH
 * YAML (gw_emit_bosh), Ops Manager JSON (gw_emit_opsman) or om's
 * create-vm-extension config (gw_emit_om), so they never disagree. */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* What a VM extension needs from the plan: a GPU, a 64-bit MMIO
 * size, PCI ids for each passthrough GPU, writable vmx_options. */
static int
ext_check(const gw_plan *p, const char *fmt, int *npt, int *nvg,
          int *has_mem, gw_err *e)
{
	size_t i;
	char lb[32];

	if (emit_count_listed(p, fmt, 1, npt, nvg, e) != 0)
		return -1;
	if (*npt + *nvg == 0) {
		gw_err_set(e, _("%s: the plan adds no GPU; a VM extension needs at "
		                "least one passthrough GPU or vGPU to add"), fmt);
		return -1;
	}
	if (p->mmio_gb == 0) {
		gw_err_set(e, _("%s: the plan has no 64-bit MMIO size "
		                "(pciPassthru.64bitMMIOSizeGB)"), fmt);
		return -1;
	}
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (!emit_listed(g, 1) || (g->profile && *g->profile))
			continue;
		if (g->vendor_id == 0 || g->device_id == 0 ||
		    g->vendor_id > 0xffff || g->device_id > 0xffff) {
			gw_err_set(e, _("%s: GPU %s has no known PCI vendor/device id; "
			                "pci_passthroughs needs both (give the GPU by "
			                "model or as vendor:device)"),
			           fmt, emit_gpu_label(g, lb, sizeof lb));
			return -1;
		}
	}
	*has_mem = 0;
	for (i = 0; i < p->nsettings; i++) {
		if (p->settings[i].kind == GW_SET_MEM)
			*has_mem = 1;
		if (kind_in_vmx_options(p->settings[i].kind) &&
		    emit_setting_check(&p->settings[i], fmt, e) != 0)
			return -1;
	}
	return 0;
}

/* {vendor_id, device_id} */
static json_t *
pci_ids(const gw_plan_gpu *g)
{
	json_t *d = json_object();

	if (d == NULL ||
	    emit_json_set(d, "vendor_id", json_integer(g->vendor_id)) != 0 ||
	    emit_json_set(d, "device_id", json_integer(g->device_id)) != 0) {
		json_decref(d);
		return NULL;
	}
	return d;
}

/* One entry per GPU of the VM (emit_listed): pci_passthroughs or
 * vgpus. */
static int
ext_devices(const gw_plan *p, json_t *pts, json_t *vgpus)
{
	size_t i;
	int j;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		int vgpu = g->profile && *g->profile;

		if (!emit_listed(g, 1))
			continue;
		for (j = 0; j < g->count; j++)
			if (vgpu ? emit_json_append(vgpus, json_string(g->profile))
			         : emit_json_append(pts, pci_ids(g)))
				return -1;
	}
	return 0;
}

/* The MMIO window from the plan's final size: BOSH makes a new VM, so a
 * value kept in an old .vmx is still needed here.  Then UVM, P2P, Code
 * 43. */
static int
ext_vmx_options(const gw_plan *p, json_t *opts)
{
	char size[32];
	size_t i;

	snprintf(size, sizeof size, "%llu", (unsigned long long)p->mmio_gb);
	if (emit_json_set(opts, "pciPassthru.use64bitMMIO",
	                  json_string("TRUE")) != 0 ||
	    emit_json_set(opts, "pciPassthru.64bitMMIOSizeGB",
	                  json_string(size)) != 0)
		return -1;
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
		if (!dup && emit_json_set(opts, s->key, json_string(s->value)) != 0)
			return -1;
	}
	return 0;
}

/* The cloud_properties object; takes *pts, *vgpus, *opts (set to NULL
 * once consumed).  NULL when out of memory. */
static json_t *
ext_assemble(int npt, int nvg, int has_mem, json_t **pts, json_t **vgpus,
             json_t **opts)
{
	json_t *cp = json_object();
	int fail = cp == NULL;

	if (!fail && npt > 0) {
		fail = emit_json_set(cp, "pci_passthroughs", *pts) != 0;
		*pts = NULL;
	}
	if (!fail && nvg > 0) {
		fail = emit_json_set(cp, "vgpus", *vgpus) != 0;
		*vgpus = NULL;
	}
	if (!fail) {
		fail = emit_json_set(cp, "vmx_options", *opts) != 0;
		*opts = NULL;
	}
	/* Both forced on by the CPI with passthrough or vGPUs (BOSH vSphere
	 * CPI documentation; doc/design.md, section 15.8);
	 * written out so the extension says what the VM gets. */
	if (!fail && (has_mem || npt + nvg > 0))
		fail = emit_json_set(cp, "memory_reservation_locked_to_max",
		                     json_true()) != 0;
	if (!fail && npt + nvg > 0)
		fail = emit_json_set(cp, "upgrade_hw_version", json_true()) != 0;
	if (fail) {
		json_decref(cp);
		return NULL;
	}
	return cp;
}

/* Build cloud_properties for a BOSH vSphere CPI VM extension:
 *   pci_passthroughs: [{vendor_id, device_id}, ...]  once per physical GPU
 *   vgpus: [profile, ...]                           once per vGPU
 *   vmx_options: {key: "value"}                      MMIO, UVM, P2P, code 43
 *   memory_reservation_locked_to_max: true
 *   upgrade_hw_version: true
 * BOSH creates a new VM with what the extension lists, so it lists every
 * GPU the VM ends with: those already in the .vmx the plan was made on
 * and those the plan adds (emit_listed), and the MMIO size is the plan's
 * for all of them. */
static json_t *
cloud_properties(const gw_plan *p, const char *fmt, gw_err *e)
{
	json_t *cp = NULL, *pts, *vgpus, *opts;
	int npt, nvg, has_mem;

	if (ext_check(p, fmt, &npt, &nvg, &has_mem, e) != 0)
		return NULL;
	pts = json_array();
	vgpus = json_array();
	opts = json_object();
	if (pts && vgpus && opts && ext_devices(p, pts, vgpus) == 0 &&
	    ext_vmx_options(p, opts) == 0)
		cp = ext_assemble(npt, nvg, has_mem, &pts, &vgpus, &opts);
	json_decref(pts);
	json_decref(vgpus);
	json_decref(opts);
	if (cp == NULL)
		gw_err_set(e, _("%s: out of memory"), fmt);
	return cp;
}

/* ---- the extension, as each tool takes it ---------------------------- */

/* {name, cloud_properties}, the name checked (strict: as Ops Manager
 * takes it); NULL with e set. */
static json_t *
extension(const gw_plan *p, const char *fmt, int strict, gw_err *e)
{
	json_t *ext, *cp;

	if (ext_name_check(p, fmt, strict, e) != 0)
		return NULL;
	if ((cp = cloud_properties(p, fmt, e)) == NULL)
		return NULL;
	if ((ext = json_object()) == NULL)
		json_decref(cp);
	if (ext == NULL || emit_json_set(ext, "name", json_string(p->name)) != 0 ||
	    emit_json_set(ext, "cloud_properties", cp) != 0) {
		json_decref(ext);
		gw_err_set(e, _("%s: out of memory"), fmt);
		return NULL;
	}
	return ext;
}

/* {key: v}, v consumed either way; NULL with e set. */
static json_t *
wrap(const char *key, json_t *v, const char *fmt, gw_err *e)
{
	json_t *root = json_object();

	if (root == NULL)
		json_decref(v);
	if (root == NULL || emit_json_set(root, key, v) != 0) {
		json_decref(root);
		gw_err_set(e, _("%s: out of memory"), fmt);
		return NULL;
	}
	return root;
}

/* root rendered as YAML, then released */
static int
yaml_out(json_t *root, const char *fmt, char **out, gw_err *e)
{
	int rc;

	if (root == NULL)
		return -1;
	rc = emit_yaml_render(root, fmt, out, e);
	json_decref(root);
	return rc;
}

/* ---- bosh ----------------------------------------------------------- */

int
gw_emit_bosh(const gw_plan *p, const gw_emit_opts *o, char **out,
             gw_err *e)
{
	json_t *exts, *ext;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("bosh: no plan to render"));
		return -1;
	}
	if ((ext = extension(p, "bosh", 0, e)) == NULL)
		return -1;
	if ((exts = json_array()) == NULL || emit_json_append(exts, ext) != 0) {
		if (exts == NULL)
			json_decref(ext);
		json_decref(exts);
		gw_err_set(e, _("%s: out of memory"), "bosh");
		return -1;
	}
	return yaml_out(wrap("vm_extensions", exts, "bosh", e), "bosh", out, e);
}

/* ---- opsman --------------------------------------------------------- */

static int
json_out(const char *buf, size_t size, void *data)
{
	gw_buf_add(data, buf, size);
	return 0;
}

int
gw_emit_opsman(const gw_plan *p, const gw_emit_opts *o, char **out,
               gw_err *e)
{
	json_t *root;
	gw_buf b;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("opsman: no plan to render"));
		return -1;
	}
	if ((root = extension(p, "opsman", 1, e)) == NULL)
		return -1;
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

/* ---- om ------------------------------------------------------------- */

/* `om create-vm-extension -c FILE`: vm-extension-config: {name,
 * cloud_properties} (pivotal-cf/om, docs/create-vm-extension/README.md);
 * the name as strict as the API's (no periods). */
int
gw_emit_om(const gw_plan *p, const gw_emit_opts *o, char **out,
           gw_err *e)
{
	json_t *ext;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("om: no plan to render"));
		return -1;
	}
	if ((ext = extension(p, "om", 1, e)) == NULL)
		return -1;
	return yaml_out(wrap("vm-extension-config", ext, "om", e), "om", out, e);
}

/* ---- next steps ------------------------------------------------------- */

/* BOSH: the extension as a named cloud config, which the director merges
 * with the others (bosh.io, "Configs"; bosh-cli issue 542:
 * update-cloud-config has no --name, update-config --type cloud does). */
void
gw_next_bosh(const gw_next_ctx *c)
{
	char *cmd = gw_xasprintf("bosh update-config --type cloud --name %s %s",
	                         c->name, c->path);

	gw_next_push(c, gw_xstrdup(_("BOSH: upload the VM extension as a named cloud config, which BOSH merges with the others:")),
	             cmd, NULL);
	/* TRANSLATORS: %s the extension's name. */
	c->push(c->list, gw_xasprintf(_("BOSH: list %s in the instance group's vm_extensions and redeploy"),
	                              c->name));
	free(cmd);
}

/* Ops Manager: the extension attached to a job (configure-product's
 * resource-config; pivotal-cf/om docs), once after the extension's
 * own step. */
static void
next_attach(const gw_next_ctx *c)
{
	char *cmd = gw_xasprintf("resource-config: {JOB: {additional_vm_extensions: [%s]}}",
	                         c->name);

	/* TRANSLATORS: %1$s the extension's name, %2$s YAML; the commands
	 * follow on their own lines: staged-config, configure-product,
	 * apply-changes. */
	gw_next_push(c, gw_xasprintf(_("Ops Manager: attach %1$s to a job with a file of product-name: PRODUCT and %2$s, the job's other extensions kept in the list (the first command shows them); then configure the product and Apply Changes:"),
	                             c->name, cmd),
	             "om staged-config -p PRODUCT",
	             "om configure-product -c FILE.yml", "om apply-changes",
	             NULL);
	free(cmd);
}

/* The API body through om curl; with om's own config chosen as well,
 * its step attaches the extension. */
void
gw_next_opsman(const gw_next_ctx *c)
{
	char *cmd = gw_xasprintf("om curl --path /api/v0/staged/vm_extensions/%s --request PUT --data \"$(cat %s)\"",
	                         c->name, c->path);

	/* om's own file is the om output's (gw_next_om): no placeholder */
	gw_next_push(c, gw_xstrdup(_("Ops Manager: create the VM extension through the API:")),
	             cmd, NULL);
	free(cmd);
	if (!(c->formats & GW_FMT_OM))
		next_attach(c);
}

/* om's config file (create-vm-extension), then the attachment. */
void
gw_next_om(const gw_next_ctx *c)
{
	char *cmd = gw_xasprintf("om create-vm-extension -c %s", c->path);

	gw_next_push(c, gw_xstrdup(_("Ops Manager: create or update the VM extension:")),
	             cmd, NULL);
	free(cmd);
	next_attach(c);
}
