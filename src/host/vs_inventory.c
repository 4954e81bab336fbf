/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_inventory.c: reading the vSphere inventory (ContainerView,
 * RetrievePropertiesEx paging, QueryConfigTarget) and finding in it (see
 * vsphere.h). */
#include "vsphere_int.h"
#include "vsapply.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- inventory: the calls ------------------------------------------------ */

static const char *const host_paths[] = {
	"name", "hardware.pciDevice", "config.pciPassthruInfo", "config.product",
	"configManager.pciPassthruSystem", "parent", NULL
};
/* HostConfigInfo.graphicsConfig is vSphere 6.5's: an older server
 * refuses the whole request for it (InvalidProperty). */
static const char *const host_graphics_paths[] = {
	"config.graphicsConfig", "config.graphicsInfo",
	"config.sharedPassthruGpuTypes", NULL
};
static const char *const vm_paths[] = {
	"name", "config.version", "config.firmware", "config.hardware.memoryMB",
	"config.memoryReservationLockedToMax", "config.extraConfig",
	"config.hardware.device", "runtime.powerState", "runtime.host",
	"config.files.vmPathName", NULL
};

static void
add_prop_spec(xmlNodePtr spec, const char *type, const char *const *paths)
{
	xmlNodePtr ps = vs_add_el(spec, "propSet");

	vs_add_text(ps, "type", type);
	vs_add_text(ps, "all", "false");
	for (; *paths; paths++)
		vs_add_text(ps, "pathSet", *paths);
}

/* More paths for the propSet add_prop_spec added last. */
static void
add_paths(xmlNodePtr spec, const char *const *paths)
{
	xmlNodePtr ps = xmlGetLastChild(spec);

	for (; *paths; paths++)
		vs_add_text(ps, "pathSet", *paths);
}

/* ---- the VMs asked for (gw_vs_set_vm_names) ------------------------------ */

static char *
lower_dup(const char *t)
{
	char *l = gw_xstrdup(t);

	for (char *p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
gw_vs_set_vm_names(gw_vs *s, const char *const *names, size_t n)
{
	if (s == NULL)
		return;
	gw_strs_free(s->vm_names, s->nvm_names);
	s->vm_names = NULL;
	s->nvm_names = 0;
	if (n == 0)
		return;
	/* lower case and sorted: each VM of a page is looked up, not
	 * compared with every name */
	s->vm_names = gw_xcalloc(n, sizeof *s->vm_names);
	for (size_t i = 0; i < n; i++)
		s->vm_names[i] = lower_dup(names[i]);
	qsort(s->vm_names, n, sizeof *s->vm_names, cmp_str);
	s->nvm_names = n;
}

static int
asked_for(const gw_vs *s, const char *t)
{
	char *l = lower_dup(t);
	int hit = bsearch(&l, s->vm_names, s->nvm_names, sizeof *s->vm_names,
	                  cmp_str) != NULL;

	free(l);
	return hit;
}

/* The VMs of the object just read (from first on) that were not asked
 * for keep only what a device pick needs: pruned as they arrive
 * (vs_page's then, arg the session). */
static void
prune_page(void *arg, gw_vs_inventory *inv, size_t first)
{
	const gw_vs *s = arg;

	for (size_t i = first; s->nvm_names && i < inv->nvms; i++)
		if (!asked_for(s, inv->vms[i].moref) && !asked_for(s, inv->vms[i].name))
			vs_vm_prune(&inv->vms[i]);
}

/* Run a retrieve-like call, its objects parsed as they arrive, and read
 * the token of its returnval. */
static int
inventory_call(gw_vs *s, const char *method, req *r, gw_vs_parse_state *ps,
               gw_vs_inventory *inv, char **token, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	vs_page p = { ps, inv, prune_page, s };

	if (vs_call_units(s, method, r, vs_objects_path, vs_page_object, &p, &doc,
	                  &el, e) != 0)
		return -1;
	vs_parse_retrieve_result(vs_first_el(el, "returnval"), ps, inv, token);
	xmlFreeDoc(doc);
	return 0;
}

static int
query_config_target(gw_vs *s, gw_vs_host *h, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_vs_fault f;
	int rc;

	vs_req_init(&r, "QueryConfigTarget");
	vs_add_moref(r.method, "_this", "EnvironmentBrowser", h->envbrowser_moref);
	vs_add_moref(r.method, "host", "HostSystem", h->moref);
	rc = vs_call_units_fault(s, "QueryConfigTarget", &r,
	                         vs_config_target_path, vs_config_target_unit, h,
	                         &doc, &el, &f, e);
	vs_req_free(&r);
	gw_vs_fault_free(&f);
	if (rc == 1)
		return 0;       /* no systemIds: not fatal */
	if (rc != 0)
		return -1;
	xmlFreeDoc(doc);
	return 0;
}

/* 1. a view of every host, VM and compute resource (malloc'ed moref),
 * NULL with e set. */
static char *
create_view(gw_vs *s, gw_err *e)
{
	req r;

	vs_req_init(&r, "CreateContainerView");
	vs_add_moref(r.method, "_this", "ViewManager", s->view_manager);
	vs_add_moref(r.method, "container", "Folder", s->root_folder);
	vs_add_text(r.method, "type", "HostSystem");
	vs_add_text(r.method, "type", "VirtualMachine");
	vs_add_text(r.method, "type", "ComputeResource");
	vs_add_text(r.method, "recursive", "true");
	return vs_call_moref(s, "CreateContainerView", &r, e);
}

/* 2. the properties of what view holds, page by page. */
static int
retrieve_view(gw_vs *s, const char *view, gw_vs_parse_state *ps,
              gw_vs_inventory *inv, gw_err *e)
{
	static const char *const cr_paths[] = { "environmentBrowser", NULL };
	int graphics = vs_api_at_least(s, 6, 5);
	req r;
	xmlNodePtr spec, opt;
	char *token = NULL;
	int rc;

	spec = vs_req_collector(&r, s, "RetrievePropertiesEx", "specSet");
	add_prop_spec(spec, "HostSystem", host_paths);
	if (graphics)
		add_paths(spec, host_graphics_paths);
	add_prop_spec(spec, "ComputeResource", cr_paths);
	add_prop_spec(spec, "VirtualMachine", vm_paths);
	vs_add_traversal(&r, spec, "ContainerView", view, "traverseView", "view");
	opt = vs_add_el(r.method, "options");
	if (s->nvm_names) {
		/* pages: one answer's document at a time, pruned */
		char n[16];

		snprintf(n, sizeof n, "%d", GW_VS_PAGE_OBJECTS);
		vs_add_text(opt, "maxObjects", n);
	}
	rc = inventory_call(s, "RetrievePropertiesEx", &r, ps, inv, &token, e);
	vs_req_free(&r);
	while (rc == 0 && token) {
		vs_req_init(&r, "ContinueRetrievePropertiesEx");
		vs_add_moref(r.method, "_this", "PropertyCollector", s->property_collector);
		vs_add_text(r.method, "token", token);
		free(token);
		token = NULL;
		rc = inventory_call(s, "ContinueRetrievePropertiesEx", &r, ps, inv,
		                    &token, e);
		vs_req_free(&r);
	}
	free(token);
	/* an empty array is left out of the answer: asked, none */
	for (size_t i = 0; graphics && i < inv->nhosts; i++)
		if (inv->hosts[i].nvgpu_types < 0)
			inv->hosts[i].nvgpu_types = 0;
	return rc;
}

/* 3. the view is not needed any more (errors ignored: the session's end
 * destroys it anyway; but a lost connection fails what was rc 0). */
static int
destroy_view(gw_vs *s, const char *view, int rc, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_err ignore;

	vs_req_init(&r, "DestroyView");
	vs_add_moref(r.method, "_this", "ContainerView", view);
	if (vs_call_simple(s, "DestroyView", &r, &doc, &el,
	                   rc == 0 ? e : &ignore) == 0)
		xmlFreeDoc(doc);
	else if (rc == 0 && s->lost)
		rc = -1;
	vs_req_free(&r);
	return rc;
}

/* 4. systemIds of the hosts with passthrough devices (enabled or
 * unknown). */
static int
query_system_ids(gw_vs *s, gw_vs_inventory *inv, gw_err *e)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < inv->nhosts; i++)
		rc = gw_vs_host_system_ids(s, &inv->hosts[i], e);
	return rc;
}

int
gw_vs_host_system_ids(gw_vs *s, gw_vs_host *h, gw_err *e)
{
	int want = 0;

	if (h == NULL || h->config_target_read)
		return 0;
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	h->config_target_read = 1;
	for (size_t j = 0; j < h->npci; j++)
		if (h->pci[j].passthru_enabled != 0)
			want = 1;
	return want && h->envbrowser_moref ? query_config_target(s, h, e) : 0;
}

int
gw_vs_inventory_get(gw_vs *s, gw_vs_inventory *inv, gw_err *e)
{
	char *view;
	gw_vs_parse_state *ps;
	int rc;

	memset(inv, 0, sizeof *inv);
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	if ((view = create_view(s, e)) == NULL)
		return -1;
	ps = gw_vs_parse_state_new();
	rc = retrieve_view(s, view, ps, inv, e);
	rc = destroy_view(s, view, rc, e);
	free(view);
	if (rc == 0) {
		gw_vs_parse_inventory_finish(ps, inv);
		/* an apply to some VMs asks only for the hosts it picks on */
		if (s->nvm_names == 0)
			rc = query_system_ids(s, inv, e);
	}
	gw_vs_parse_state_free(ps);
	if (rc != 0)
		gw_vs_inventory_free(inv);
	return rc;
}

int
gw_vs_vm_read_again(gw_vs *s, gw_vs_inventory *inv, const gw_vs_vm *vm,
                    gw_err *e)
{
	gw_vs_inventory one;
	gw_vs_parse_state *ps;
	gw_vs_vm *old, tmp;
	req r;
	xmlNodePtr spec;
	char *t;
	int rc;

	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	if (inv == NULL || vm < inv->vms || vm >= inv->vms + inv->nvms)
		return -1;
	old = &inv->vms[vm - inv->vms];
	spec = vs_req_collector(&r, s, "RetrievePropertiesEx", "specSet");
	add_prop_spec(spec, "VirtualMachine", vm_paths);
	vs_add_moref(vs_add_el(spec, "objectSet"), "obj", "VirtualMachine",
	             old->moref);
	vs_add_el(r.method, "options");
	memset(&one, 0, sizeof one);
	ps = gw_vs_parse_state_new();
	rc = inventory_call(s, "RetrievePropertiesEx", &r, ps, &one, NULL, e);
	vs_req_free(&r);
	gw_vs_parse_state_free(ps);
	if (rc == 0 && (one.nvms != 1 || strcmp(one.vms[0].moref, old->moref) != 0)) {
		gw_err_set(e, _("%s: not found after the upgrade"), old->name);
		rc = -1;
	}
	if (rc == 0) {
		/* the new properties under the old name and moref */
		t = one.vms[0].name;
		one.vms[0].name = old->name;
		old->name = t;
		t = one.vms[0].moref;
		one.vms[0].moref = old->moref;
		old->moref = t;
		tmp = *old;
		*old = one.vms[0];
		one.vms[0] = tmp;
		gw_vs_inventory_note_devs(inv, old, 0);
	}
	gw_vs_inventory_free(&one);
	return rc;
}

/* ---- the index ------------------------------------------------------------ */

static int
cmp_key(const void *a, const void *b)
{
	const gw_vs_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int
cmp_ikey(const void *a, const void *b)
{
	const gw_vs_key *x = a, *y = b;
	int c = strcasecmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The first key equal to k (cmp without the position), or NULL. */
static const gw_vs_key *
key_first(const gw_vs_key *keys, size_t n, const char *k,
          int (*cmp)(const char *, const char *))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(keys[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cmp(keys[lo].key, k) == 0 ? &keys[lo] : NULL;
}

static const char *
or_empty(const char *s)
{
	return s ? s : "";
}

static gw_vs_key *
keys_of(size_t n)
{
	return gw_xcalloc(n ? n : 1, sizeof(gw_vs_key));
}

/* The host slot of gw_vs_attached_key for a VM on host_moref: 1 none, 2 +
 * k inv->hosts[k], 0 a host not in the inventory (counted as any VM's
 * only). */
static unsigned
vm_slot(const gw_vs_inventory *inv, const char *host_moref)
{
	const gw_vs_key *k;

	if (host_moref == NULL)
		return 1;
	k = key_first(inv->host_morefs, inv->nhosts, host_moref, strcmp);
	return k && k->i < 0xfffd ? 2 + (unsigned)k->i : 0;
}

/* Device id of VM i as attached: under any VM (0) and under its host. */
static void
note_attached(gw_vs_inventory *inv, size_t i, const char *id)
{
	unsigned slot = vm_slot(inv, inv->vms[i].host_moref);
	uint64_t key;

	if (gw_vs_attached_key(0, id, &key) != 0)
		return;
	gw_idset_put(&inv->attached, key, i);
	if (slot != 0 && gw_vs_attached_key(slot, id, &key) == 0)
		gw_idset_put(&inv->attached, key, i);
}

void
gw_vs_inventory_index(gw_vs_inventory *inv)
{
	size_t i, k;

	gw_vs_inventory_index_free(inv);
	inv->vm_morefs = keys_of(inv->nvms);
	inv->vm_inames = keys_of(inv->nvms);
	inv->host_morefs = keys_of(inv->nhosts);
	for (i = 0; i < inv->nvms; i++) {
		inv->vm_morefs[i] = (gw_vs_key){ or_empty(inv->vms[i].moref), i };
		inv->vm_inames[i] = (gw_vs_key){ or_empty(inv->vms[i].name), i };
	}
	for (i = 0; i < inv->nhosts; i++)
		inv->host_morefs[i] = (gw_vs_key){ or_empty(inv->hosts[i].moref), i };
	qsort(inv->vm_morefs, inv->nvms, sizeof(gw_vs_key), cmp_key);
	qsort(inv->vm_inames, inv->nvms, sizeof(gw_vs_key), cmp_ikey);
	qsort(inv->host_morefs, inv->nhosts, sizeof(gw_vs_key), cmp_key);
	gw_idset_init(&inv->attached);
	for (i = 0; i < inv->nvms; i++)
		for (k = 0; k < inv->vms[i].ndevs; k++)
			note_attached(inv, i, inv->vms[i].devs[k].id);
	inv->indexed = 1;
}

void
gw_vs_inventory_index_free(gw_vs_inventory *inv)
{
	free(inv->vm_morefs);
	free(inv->vm_inames);
	free(inv->host_morefs);
	inv->vm_morefs = inv->vm_inames = inv->host_morefs = NULL;
	gw_idset_free(&inv->attached);
	inv->indexed = 0;
}

void
gw_vs_inventory_note_devs(gw_vs_inventory *inv, const gw_vs_vm *vm,
                          size_t first)
{
	if (!inv->indexed || vm < inv->vms || vm >= inv->vms + inv->nvms)
		return;
	for (size_t k = first; k < vm->ndevs; k++)
		note_attached(inv, (size_t)(vm - inv->vms), vm->devs[k].id);
}

/* The same lookups without the index: each walks the array. */
static const gw_vs_vm *
find_vm_walk(const gw_vs_inventory *inv, const char *name_or_moref)
{
	const gw_vs_vm *hit = NULL;
	size_t n = 0;

	for (size_t i = 0; i < inv->nvms; i++)
		if (strcmp(inv->vms[i].moref, name_or_moref) == 0)
			return &inv->vms[i];
	for (size_t i = 0; i < inv->nvms; i++)
		if (strcmp(inv->vms[i].name, name_or_moref) == 0)
			return &inv->vms[i];
	for (size_t i = 0; i < inv->nvms; i++)
		if (gw_strieq(inv->vms[i].name, name_or_moref)) {
			hit = &inv->vms[i];
			n++;
		}
	return n == 1 ? hit : NULL;
}

static int
cmp_vm_name(const void *key, const void *el)
{
	return strcmp(key, ((const gw_vs_vm *)el)->name);
}

const gw_vs_vm *
gw_vs_find_vm(const gw_vs_inventory *inv, const char *name_or_moref)
{
	const gw_vs_key *k;
	size_t lo, hi;

	if (inv == NULL || name_or_moref == NULL)
		return NULL;
	if (!inv->indexed)
		return find_vm_walk(inv, name_or_moref);
	if ((k = key_first(inv->vm_morefs, inv->nvms, name_or_moref, strcmp)))
		return &inv->vms[k->i];
	/* the VMs are sorted by name, then moref: the first of the name */
	lo = 0;
	hi = inv->nvms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_vm_name(name_or_moref, &inv->vms[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < inv->nvms && strcmp(inv->vms[lo].name, name_or_moref) == 0)
		return &inv->vms[lo];
	k = key_first(inv->vm_inames, inv->nvms, name_or_moref, strcasecmp);
	if (k == NULL || (k + 1 < inv->vm_inames + inv->nvms &&
	                  strcasecmp(k[1].key, name_or_moref) == 0))
		return NULL;
	return &inv->vms[k->i];
}

const gw_vs_host *
gw_vs_find_host(const gw_vs_inventory *inv, const char *moref)
{
	const gw_vs_key *k;

	if (inv == NULL || moref == NULL)
		return NULL;
	if (inv->indexed &&
	    (k = key_first(inv->host_morefs, inv->nhosts, moref, strcmp)))
		return &inv->hosts[k->i];
	for (size_t i = 0; !inv->indexed && i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i].moref, moref) == 0)
			return &inv->hosts[i];
	for (size_t i = 0; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i].name, moref) == 0)
			return &inv->hosts[i];
	return NULL;
}

const gw_vs_pci *
gw_vs_host_pci(const gw_vs_host *h, const char *pci_id)
{
	for (size_t i = 0; h && pci_id && i < h->npci; i++)
		if (vs_bdf_eq(h->pci[i].id, pci_id))
			return &h->pci[i];
	return NULL;
}
