/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_parse.c: the vSphere inventory answers (RetrievePropertiesEx pages,
 * QueryConfigTarget) into gw_vs_inventory (see vsphere.h). */
#include "vsphere_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- inventory parsing -------------------------------------------------- */

struct gw_vs_parse_state {
	char **hp_host, **hp_parent;    /* host -> parent compute resource */
	size_t nhp;
	char **cr, **cr_env;            /* compute resource -> env browser */
	size_t ncr;
};

gw_vs_parse_state *
gw_vs_parse_state_new(void)
{
	return gw_xcalloc(1, sizeof(gw_vs_parse_state));
}

void
gw_vs_parse_state_free(gw_vs_parse_state *ps)
{
	if (ps == NULL)
		return;
	for (size_t i = 0; i < ps->nhp; i++) {
		free(ps->hp_host[i]);
		free(ps->hp_parent[i]);
	}
	for (size_t i = 0; i < ps->ncr; i++) {
		free(ps->cr[i]);
		free(ps->cr_env[i]);
	}
	free(ps->hp_host);
	free(ps->hp_parent);
	free(ps->cr);
	free(ps->cr_env);
	free(ps);
}

static void
pci_free(gw_vs_pci *p)
{
	free(p->id);
	free(p->vendor_name);
	free(p->device_name);
	free(p->system_id);
	free(p->graphics_type);
}

static void
host_free(gw_vs_host *h)
{
	free(h->moref);
	free(h->name);
	free(h->version);
	free(h->build);
	free(h->passthru_moref);
	free(h->envbrowser_moref);
	free(h->graphics_type);
	free(h->vgpu_type);
	for (size_t i = 0; i < h->npci; i++)
		pci_free(&h->pci[i]);
	free(h->pci);
}

static void
dev_free(gw_vs_dev *d)
{
	free(d->label);
	free(d->id);
	free(d->system_id);
	free(d->vgpu);
}

static void
vm_free(gw_vs_vm *v)
{
	free(v->moref);
	free(v->name);
	free(v->host_moref);
	free(v->firmware);
	for (size_t i = 0; i < v->nec; i++) {
		free(v->ec_keys[i]);
		free(v->ec_vals[i]);
	}
	free(v->ec_keys);
	free(v->ec_vals);
	for (size_t i = 0; i < v->ndevs; i++)
		dev_free(&v->devs[i]);
	free(v->devs);
	free(v->vmx_path);
}

void
vs_vm_prune(gw_vs_vm *v)
{
	free(v->firmware);
	v->firmware = NULL;
	for (size_t i = 0; i < v->nec; i++) {
		free(v->ec_keys[i]);
		free(v->ec_vals[i]);
	}
	free(v->ec_keys);
	free(v->ec_vals);
	v->ec_keys = v->ec_vals = NULL;
	v->nec = 0;
	free(v->vmx_path);
	v->vmx_path = NULL;
}

void
gw_vs_inventory_free(gw_vs_inventory *inv)
{
	if (inv == NULL)
		return;
	for (size_t i = 0; i < inv->nhosts; i++)
		host_free(&inv->hosts[i]);
	for (size_t i = 0; i < inv->nvms; i++)
		vm_free(&inv->vms[i]);
	gw_vs_inventory_index_free(inv);
	free(inv->hosts);
	free(inv->vms);
	memset(inv, 0, sizeof *inv);
}

/* runtime.powerState: "poweredOn" -> GW_VS_POWER_ON, ... */
static gw_vs_power
power_parse(const char *s)
{
	if (s == NULL)
		return GW_VS_POWER_UNKNOWN;
	if (strcmp(s, "poweredOn") == 0)
		return GW_VS_POWER_ON;
	if (strcmp(s, "poweredOff") == 0)
		return GW_VS_POWER_OFF;
	if (strcmp(s, "suspended") == 0)
		return GW_VS_POWER_SUSPENDED;
	return GW_VS_POWER_UNKNOWN;
}

/* hardware.pciDevice: all of the host's devices, in the order given. */
static void
host_pci_devices(xmlNodePtr val, gw_vs_host *h)
{
	size_t n = 0;

	FOR_EL(d, val, NULL)
		n++;
	for (size_t i = 0; i < h->npci; i++)
		pci_free(&h->pci[i]);
	free(h->pci);
	h->pci = gw_xcalloc(n ? n : 1, sizeof *h->pci);
	h->npci = 0;
	FOR_EL(d, val, NULL) {
		gw_vs_pci *c = &h->pci[h->npci++];

		c->id = vs_child_text(d, "id");
		c->class_id = vs_child_u16(d, "classId");
		c->vendor = vs_child_u16(d, "vendorId");
		c->device = vs_child_u16(d, "deviceId");
		c->subvendor = vs_child_u16(d, "subVendorId");
		c->subdevice = vs_child_u16(d, "subDeviceId");
		c->vendor_name = vs_child_text(d, "vendorName");
		c->device_name = vs_child_text(d, "deviceName");
		c->passthru_capable = c->passthru_enabled =
			c->passthru_active = -1;
	}
}

static int
child_flag(xmlNodePtr parent, const char *name)
{
	int v = vs_child_bool(parent, name);

	return v < 0 ? 0 : v;
}

/* config.pciPassthruInfo onto the devices: listed, known; not listed,
 * not capable. */
static void
host_passthru_info(xmlNodePtr pinfo, gw_vs_host *h)
{
	for (size_t i = 0; i < h->npci; i++) {
		gw_vs_pci *c = &h->pci[i];

		c->passthru_capable = c->passthru_enabled = c->passthru_active = 0;
		FOR_EL(pi, pinfo, NULL) {
			char *id = vs_child_text(pi, "id");
			int hit = id && vs_bdf_eq(id, c->id);

			free(id);
			if (hit) {
				c->passthru_capable = child_flag(pi, "passthruCapable");
				c->passthru_enabled = child_flag(pi, "passthruEnabled");
				c->passthru_active = child_flag(pi, "passthruActive");
				break;
			}
		}
	}
}

/* One propSet of a HostSystem; the passthrough info and the parent are
 * kept for after the loop. */
static void
host_prop(gw_vs_host *h, const char *name, xmlNodePtr val, xmlNodePtr *pinfo,
          xmlNodePtr *ginfo, char **parent)
{
	if (vs_host_graphics_prop(h, name, val, ginfo)) {
		return;
	} else if (strcmp(name, "name") == 0) {
		vs_set_str(&h->name, vs_el_text(val));
	} else if (strcmp(name, "hardware.pciDevice") == 0) {
		host_pci_devices(val, h);
	} else if (strcmp(name, "config.pciPassthruInfo") == 0) {
		*pinfo = val;
	} else if (strcmp(name, "config.product") == 0 ||
	           (strcmp(name, "summary.config.product") == 0 && !h->version)) {
		vs_set_str(&h->version, vs_nonempty(vs_child_text(val, "version")));
		vs_set_str(&h->build, vs_nonempty(vs_child_text(val, "build")));
	} else if (strcmp(name, "configManager.pciPassthruSystem") == 0) {
		vs_set_str(&h->passthru_moref, vs_nonempty(vs_el_text(val)));
	} else if (strcmp(name, "parent") == 0) {
		vs_set_str(parent, vs_nonempty(vs_el_text(val)));
	}
}

/* The host's parent compute resource (its environmentBrowser comes with
 * that one). */
static void
remember_parent(gw_vs_parse_state *ps, const char *host, char *parent)
{
	ps->hp_host = gw_xrealloc(ps->hp_host, (ps->nhp + 1) * sizeof *ps->hp_host);
	ps->hp_parent = gw_xrealloc(ps->hp_parent, (ps->nhp + 1) * sizeof *ps->hp_parent);
	ps->hp_host[ps->nhp] = gw_xstrdup(host);
	ps->hp_parent[ps->nhp] = parent;
	ps->nhp++;
}

static void
parse_host_object(xmlNodePtr obj, gw_vs_parse_state *ps, gw_vs_inventory *inv)
{
	gw_vs_host h;
	xmlNodePtr pinfo = NULL, ginfo = NULL;
	char *parent = NULL;

	memset(&h, 0, sizeof h);
	h.nvgpu_types = -1;
	h.moref = vs_child_text(obj, "obj");
	FOR_EL(p, obj, "propSet") {
		char *name = vs_child_text(p, "name");
		xmlNodePtr val = vs_first_el(p, "val");

		if (name && val)
			host_prop(&h, name, val, &pinfo, &ginfo, &parent);
		free(name);
	}
	if (pinfo)
		host_passthru_info(pinfo, &h);
	if (ginfo)
		vs_host_graphics_info(ginfo, &h);
	if (h.name == NULL)
		h.name = gw_xstrdup(h.moref ? h.moref : "");
	if (h.moref == NULL)
		h.moref = gw_xstrdup("");
	if (parent)
		remember_parent(ps, h.moref, parent);
	inv->hosts = gw_xrealloc(inv->hosts, (inv->nhosts + 1) * sizeof *inv->hosts);
	inv->hosts[inv->nhosts++] = h;
}

static void
parse_vm_device(xmlNodePtr d, gw_vs_vm *v)
{
	xmlNodePtr backing = vs_first_el(d, "backing");
	gw_vs_dev dev;
	char *btype;

	if (!vs_xsi_type_is(d, "VirtualPCIPassthrough"))
		return;
	memset(&dev, 0, sizeof dev);
	dev.key = vs_child_long(d, "key", 0);
	dev.label = vs_nonempty(vs_child_text(vs_first_el(d, "deviceInfo"), "label"));
	btype = vs_xsi_type(backing);
	if (btype && strcmp(btype, "VirtualPCIPassthroughVmiopBackingInfo") == 0) {
		dev.vgpu = vs_nonempty(vs_child_text(backing, "vgpu"));
	} else if (btype && strcmp(btype, "VirtualPCIPassthroughDeviceBackingInfo") == 0) {
		char *did = vs_child_text(backing, "deviceId");

		dev.id = vs_nonempty(vs_child_text(backing, "id"));
		dev.vendor = vs_child_u16(backing, "vendorId");
		dev.system_id = vs_nonempty(vs_child_text(backing, "systemId"));
		if (did) {
			char *t = gw_trim(did), *end;
			unsigned long x;

			if (strncasecmp(t, "0x", 2) == 0)
				t += 2;
			x = strtoul(t, &end, 16);
			if (end != t && *end == '\0')
				dev.device = (unsigned)(x & 0xffff);
			free(did);
		}
	} else if (btype && strcmp(btype, "VirtualPCIPassthroughDynamicBackingInfo") == 0) {
		xmlNodePtr a = vs_first_el(backing, "allowedDevice");

		dev.vendor = vs_child_u16(a, "vendorId");
		dev.device = vs_child_u16(a, "deviceId");
		dev.dynamic = 1;
	}
	free(btype);
	v->devs = gw_xrealloc(v->devs, (v->ndevs + 1) * sizeof *v->devs);
	v->devs[v->ndevs++] = dev;
}

/* config.version "vmx-19" -> 19 (0 unknown). */
static int
vm_hw_version(xmlNodePtr val)
{
	char *t = vs_el_text(val);
	unsigned long long hw;
	int v = 0;

	if (t && strncmp(t, "vmx-", 4) == 0 && gw_parse_uint(t + 4, 999, &hw) == 0)
		v = (int)hw;
	free(t);
	return v;
}

/* config.extraConfig, in the order given. */
static void
vm_extra_config(xmlNodePtr val, gw_vs_vm *v)
{
	FOR_EL(o, val, NULL) {
		char *k = vs_child_text(o, "key");

		if (k == NULL)
			continue;
		v->ec_keys = gw_xrealloc(v->ec_keys, (v->nec + 1) * sizeof *v->ec_keys);
		v->ec_vals = gw_xrealloc(v->ec_vals, (v->nec + 1) * sizeof *v->ec_vals);
		v->ec_keys[v->nec] = k;
		v->ec_vals[v->nec] = vs_child_text(o, "value");
		if (v->ec_vals[v->nec] == NULL)
			v->ec_vals[v->nec] = gw_xstrdup("");
		v->nec++;
	}
}

static gw_vs_power
vm_power(xmlNodePtr val)
{
	char *t = vs_el_text(val);
	gw_vs_power p = power_parse(t ? gw_trim(t) : NULL);

	free(t);
	return p;
}

/* One propSet of a VirtualMachine. */
static void
vm_prop(gw_vs_vm *v, const char *name, xmlNodePtr val)
{
	long long mb;

	if (strcmp(name, "name") == 0) {
		vs_set_str(&v->name, vs_el_text(val));
	} else if (strcmp(name, "config.version") == 0) {
		v->hw_version = vm_hw_version(val);
	} else if (strcmp(name, "config.firmware") == 0) {
		vs_set_str(&v->firmware, vs_nonempty(vs_el_text(val)));
	} else if (strcmp(name, "config.hardware.memoryMB") == 0) {
		if (vs_el_long(val, &mb) == 0 && mb > 0)
			v->memory_mb = (long)mb;
	} else if (strcmp(name, "config.memoryReservationLockedToMax") == 0) {
		v->reserve_locked = vs_el_bool(val);
	} else if (strcmp(name, "config.extraConfig") == 0) {
		vm_extra_config(val, v);
	} else if (strcmp(name, "config.hardware.device") == 0) {
		FOR_EL(d, val, NULL)
			parse_vm_device(d, v);
	} else if (strcmp(name, "runtime.powerState") == 0) {
		v->power = vm_power(val);
	} else if (strcmp(name, "runtime.host") == 0) {
		vs_set_str(&v->host_moref, vs_nonempty(vs_el_text(val)));
	} else if (strcmp(name, "config.files.vmPathName") == 0) {
		vs_set_str(&v->vmx_path, vs_nonempty(vs_el_text(val)));
	}
}

static void
parse_vm_object(xmlNodePtr obj, gw_vs_inventory *inv)
{
	gw_vs_vm v;

	memset(&v, 0, sizeof v);
	v.reserve_locked = -1;
	v.moref = vs_child_text(obj, "obj");
	FOR_EL(p, obj, "propSet") {
		char *name = vs_child_text(p, "name");
		xmlNodePtr val = vs_first_el(p, "val");

		if (name && val)
			vm_prop(&v, name, val);
		free(name);
	}
	if (v.moref == NULL)
		v.moref = gw_xstrdup("");
	if (v.name == NULL)
		v.name = gw_xstrdup(v.moref);
	inv->vms = gw_xrealloc(inv->vms, (inv->nvms + 1) * sizeof *inv->vms);
	inv->vms[inv->nvms++] = v;
}

static void
parse_cr_object(xmlNodePtr obj, gw_vs_parse_state *ps)
{
	char *moref = vs_child_text(obj, "obj");

	FOR_EL(p, obj, "propSet") {
		char *name = vs_child_text(p, "name");

		if (name && strcmp(name, "environmentBrowser") == 0 && moref) {
			char *env = vs_nonempty(vs_el_text(vs_first_el(p, "val")));

			if (env) {
				ps->cr = gw_xrealloc(ps->cr, (ps->ncr + 1) * sizeof *ps->cr);
				ps->cr_env = gw_xrealloc(ps->cr_env, (ps->ncr + 1) * sizeof *ps->cr_env);
				ps->cr[ps->ncr] = gw_xstrdup(moref);
				ps->cr_env[ps->ncr] = env;
				ps->ncr++;
			}
		}
		free(name);
	}
	free(moref);
}

const char *const vs_objects_path[] = { "returnval", "objects", NULL };

/* One ObjectContent of a RetrieveResult into inv (a host, a VM) or ps
 * (a compute resource). */
static void
vs_parse_object(xmlNodePtr obj, gw_vs_parse_state *ps, gw_vs_inventory *inv)
{
	char *type = vs_attr(vs_first_el(obj, "obj"), "type");

	if (type == NULL)
		return;
	if (strcmp(type, "HostSystem") == 0)
		parse_host_object(obj, ps, inv);
	else if (strcmp(type, "VirtualMachine") == 0)
		parse_vm_object(obj, inv);
	else
		parse_cr_object(obj, ps);
	free(type);
}

/* Objects of a RetrieveResult (returnval) into inv. */
void
vs_parse_retrieve_result(xmlNodePtr rv, gw_vs_parse_state *ps,
                         gw_vs_inventory *inv, char **token)
{
	if (token) {
		*token = vs_nonempty(vs_child_text(rv, "token"));
	}
	FOR_EL(obj, rv, "objects")
		vs_parse_object(obj, ps, inv);
}

void
vs_page_object(xmlNodePtr obj, void *ctx)
{
	vs_page *p = ctx;
	size_t first = p->inv->nvms;

	vs_parse_object(obj, p->ps, p->inv);
	if (p->then)
		p->then(p->arg, p->inv, first);
}

int
gw_vs_parse_inventory_page(gw_vs_parse_state *ps, const char *text,
                           size_t len, gw_vs_inventory *inv, char **token,
                           gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	vs_page p = { ps, inv, NULL, NULL };

	if (token)
		*token = NULL;
	if (vs_parse_answer_units(text, len, "RetrievePropertiesEx",
	                          vs_objects_path, vs_page_object, &p, &doc, &el,
	                          e) != 0)
		return -1;
	/* An empty result has no returnval at all. */
	vs_parse_retrieve_result(vs_first_el(el, "returnval"), ps, inv, token);
	xmlFreeDoc(doc);
	return 0;
}

static int
cmp_host(const void *a, const void *b)
{
	const gw_vs_host *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->moref, y->moref);
}

static int
cmp_vm(const void *a, const void *b)
{
	const gw_vs_vm *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->moref, y->moref);
}

void
gw_vs_parse_inventory_finish(gw_vs_parse_state *ps, gw_vs_inventory *inv)
{
	for (size_t i = 0; i < inv->nhosts; i++) {
		gw_vs_host *h = &inv->hosts[i];

		for (size_t j = 0; j < ps->nhp && !h->envbrowser_moref; j++) {
			if (strcmp(ps->hp_host[j], h->moref) != 0)
				continue;
			for (size_t k = 0; k < ps->ncr; k++)
				if (strcmp(ps->cr[k], ps->hp_parent[j]) == 0) {
					h->envbrowser_moref = gw_xstrdup(ps->cr_env[k]);
					break;
				}
		}
	}
	if (inv->nhosts > 1)
		qsort(inv->hosts, inv->nhosts, sizeof *inv->hosts, cmp_host);
	if (inv->nvms > 1)
		qsort(inv->vms, inv->nvms, sizeof *inv->vms, cmp_vm);
	gw_vs_inventory_index(inv);
}

/* Every part of a ConfigTarget is a unit: the answer, of any size (every
 * datastore, network and passthrough device of a host), holds one part at
 * a time. */
const char *const vs_config_target_path[] = { "returnval", "*", NULL };

void
vs_config_target_unit(xmlNodePtr unit, void *ctx)
{
	gw_vs_host *h = ctx;
	char *id, *sys;

	if (!xmlStrEqual(unit->name, X("pciPassthrough")))
		return;
	id = vs_child_text(vs_first_el(unit, "pciDevice"), "id");
	sys = vs_nonempty(vs_child_text(unit, "systemId"));
	for (size_t i = 0; id && sys && i < h->npci; i++)
		if (vs_bdf_eq(h->pci[i].id, id)) {
			vs_set_str(&h->pci[i].system_id, gw_xstrdup(sys));
			break;
		}
	free(id);
	free(sys);
}

int
gw_vs_parse_config_target(const char *text, size_t len, gw_vs_host *h,
                          gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	if (vs_parse_answer_units(text, len, "QueryConfigTarget",
	                          vs_config_target_path, vs_config_target_unit, h,
	                          &doc, &el, e) != 0)
		return -1;
	xmlFreeDoc(doc);
	return 0;
}
