/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_actions.c: the vSphere write calls (see vsphere.h):
 * UpdatePassthruConfig, ReconfigVM_Task and UpgradeVM_Task (their tasks
 * followed in vs_tasks.c). */
#include "vsphere_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- faults of the write calls ------------------------------------------- */

static int
is_license_fault(const gw_vs_fault *f)
{
	if (f->type && strcmp(f->type, "RestrictedVersion") == 0)
		return 1;
	return f->message && strstr(f->message, "prohibits") &&
	       (strstr(f->message, "license") || strstr(f->message, "License"));
}

static int
is_unsupported_fault(const gw_vs_fault *f)
{
	static const char *const types[] = {
		"NotSupported", "MethodNotFound", "NotImplemented",
		"ManagedObjectNotFound", "MethodDisabled", NULL
	};

	for (size_t i = 0; f->type && types[i]; i++)
		if (strcmp(f->type, types[i]) == 0)
			return 1;
	return 0;
}

/* Host name without the port, for the SSH hints. */
static char *
ssh_host(const gw_vs *s)
{
	const char *h = s->host;

	if (*h == '[') {
		const char *end = strchr(h, ']');

		return end ? gw_xstrndup(h + 1, (size_t)(end - h - 1)) : gw_xstrdup(h);
	}
	return gw_xstrndup(h, strcspn(h, ":"));
}

/* ---- enable passthrough -------------------------------------------------- */

/* The PCI id for the SSH hint: normalised (in norm) where it can be. */
static const char *
hint_id(const gw_vs_pci *c, char norm[20])
{
	vs_bdf_norm(c->id, norm);
	return norm[0] ? norm : c->id;
}

/* "Use the SSH route" for device c. */
static void
no_api_route(gw_vs *s, const gw_vs_pci *c, gw_err *e)
{
	char *sh = ssh_host(s);
	char norm[20];

	gw_err_set(e, _("this server cannot enable passthrough through the API; use the SSH route (gpuwiz passthru --ssh root@%s --enable %s)"),
	           sh, hint_id(c, norm));
	free(sh);
}

/* The line for a fault of UpdatePassthruConfig on device c of host h. */
static void
passthru_fault(gw_vs *s, const gw_vs_host *h, const gw_vs_pci *c,
               const gw_vs_fault *f, gw_err *e)
{
	char *sh;
	char norm[20];

	if (is_license_fault(f)) {
		sh = ssh_host(s);
		gw_err_set(e, _("the free ESXi license refuses changes through the API (\"%s\"); use the SSH route (gpuwiz passthru --ssh root@%s --enable %s)"),
		           f->message ? f->message : f->type, sh, hint_id(c, norm));
		free(sh);
	} else if (is_unsupported_fault(f)) {
		no_api_route(s, c, e);
	} else {
		gw_err_set(e, _("enabling passthrough of %s on host %s failed: %s"),
		           c->id, h->name, vs_fault_reason(f));
	}
}

int
gw_vs_enable_passthru(gw_vs *s, const gw_vs_host *h, const char *pci_id,
                      gw_err *e)
{
	const gw_vs_pci *c;
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, cfg;
	gw_vs_fault f;
	int rc;

	if (s == NULL || h == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	c = gw_vs_host_pci(h, pci_id);
	if (c == NULL) {
		gw_err_set(e, _("host %s has no PCI device %s"), h->name,
		           pci_id ? pci_id : "");
		return -1;
	}
	if (c->passthru_enabled == 1)
		return 0;
	if (c->passthru_capable == 0) {
		gw_err_set(e, _("%s on host %s is not passthrough capable: the IOMMU (VT-d / AMD-Vi) is probably off in the BIOS, or the device cannot be passed through"),
		           c->id, h->name);
		return -1;
	}
	if (h->passthru_moref == NULL) {
		no_api_route(s, c, e);
		return -1;
	}
	vs_req_init(&r, "UpdatePassthruConfig");
	vs_add_moref(r.method, "_this", "HostPciPassthruSystem", h->passthru_moref);
	cfg = vs_add_el(r.method, "config");
	vs_set_xsi_type(&r, cfg, "HostPciPassthruConfig");
	vs_add_text(cfg, "id", c->id);
	vs_add_text(cfg, "passthruEnabled", "true");
	/* applyNow (API 7.0 and later; older servers refuse the element):
	 * active at once where the host can, else after a reboot, like
	 * `esxcli hardware pci pcipassthru set -a`. */
	if (atoi(s->api_version) >= 7)
		vs_add_text(cfg, "applyNow", "true");
	rc = vs_call(s, "UpdatePassthruConfig", &r, 0, &doc, &el, &f, e);
	vs_req_free(&r);
	if (rc == 0)
		xmlFreeDoc(doc);
	if (rc == 1) {
		passthru_fault(s, h, c, &f, e);
		gw_vs_fault_free(&f);
		rc = -1;
	}
	return rc;
}

/* TaskInfo (the "info" val) into ti; info may be NULL. */
static void
task_info_from_el(xmlNodePtr info, gw_vs_task_info *ti)
{
	char *st;
	xmlNodePtr err;

	memset(ti, 0, sizeof *ti);
	ti->state = -1;
	ti->progress = -1;
	if (info == NULL)
		return;
	st = vs_child_text(info, "state");
	err = vs_first_el(info, "error");
	if (st) {
		gw_trim(st);
		ti->state = vs_task_state(st);
		free(st);
	}
	ti->progress = vs_child_long(info, "progress", -1);
	if (err) {
		ti->fault_type = vs_xsi_type(vs_first_el(err, "fault"));
		ti->fault_message = vs_nonempty(vs_child_text(err, "localizedMessage"));
	}
}

/* The "info" val of a RetrievePropertiesEx answer element, or NULL. */
static xmlNodePtr
task_info_el(xmlNodePtr el)
{
	xmlNodePtr info = NULL;

	FOR_EL(p, vs_first_el(vs_first_el(el, "returnval"), "objects"), "propSet") {
		char *n = vs_child_text(p, "name");

		if (n && strcmp(n, "info") == 0)
			info = vs_first_el(p, "val");
		free(n);
	}
	return info;
}

int
vs_task_info_get(gw_vs *s, const char *task, gw_vs_task_info *ti, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, spec, ps, os;
	int rc;

	task_info_from_el(NULL, ti);
	spec = vs_req_collector(&r, s, "RetrievePropertiesEx", "specSet");
	ps = vs_add_el(spec, "propSet");
	vs_add_text(ps, "type", "Task");
	vs_add_text(ps, "pathSet", "info");
	os = vs_add_el(spec, "objectSet");
	vs_add_moref(os, "obj", "Task", task);
	vs_add_el(r.method, "options");
	rc = vs_call_simple(s, "RetrievePropertiesEx", &r, &doc, &el, e);
	vs_req_free(&r);
	if (rc != 0)
		return -1;
	task_info_from_el(task_info_el(el), ti);
	xmlFreeDoc(doc);
	return 0;
}

void
vs_task_fault(gw_vs *s, const char *vm, const char *what,
              const gw_vs_fault *f, gw_err *e)
{
	if (is_license_fault(f)) {
		char *sh = ssh_host(s);

		gw_err_set(e, _("%s failed: the free ESXi license refuses changes through the API (\"%s\"); use the SSH route (gpuwiz vmx --vm %s --ssh root@%s ... --write)"),
		           what, f->message ? f->message : f->type, vm, sh);
		free(sh);
	} else {
		gw_err_set(e, _("%s failed: %s"), what,
		           vs_fault_reason(f));
	}
}

/* Follow a task alone to its end (the same filter as a batch's). */
static int
wait_task(gw_vs *s, vs_task *t, gw_err *e)
{
	int rc = vs_tasks_wait_until(s, t, 0, e);

	if (rc == 0 && t->state == 3) {
		gw_vs_fault f = { t->fault_type, t->fault_message };

		vs_task_fault(s, t->vm, t->what, &f, e);
		rc = -1;
	} else if (rc == 0 && t->cb) {
		t->cb(t->ctx, t->what, 100);
	}
	vs_task_forget(s, t);
	return rc;
}

/* Send a prepared *_Task body and follow the task; batch: only start it
 * (a slot free first), gw_vs_tasks_wait follows it. */
static int
run_task(gw_vs *s, const char *method, req *r, const gw_vs_vm *vm,
         const char *what, int batch, gw_vs_progress_fn cb, void *ctx,
         gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_vs_fault f;
	char *task;
	vs_task *t;
	int rc;

	if (cb)
		cb(ctx, what, batch ? -1 : 0);
	/* in flight already: wait until half have ended, so that a window
	 * costs one read of the tasks' state (and where they still run,
	 * waits on the one filter), not a round trip per task */
	if (batch && s->inflight >= s->parallel &&
	    vs_tasks_make_room(s, s->parallel / 2, e) != 0)
		return -1;
	rc = vs_call(s, method, r, 0, &doc, &el, &f, e);
	if (rc == 1) {
		vs_task_fault(s, vm->name, what, &f, e);
		gw_vs_fault_free(&f);
		return -1;
	}
	if (rc != 0) {
		if (s->lost)
			gw_err_set(e, _("the connection to %s was lost during %s: the change may or may not have been made; check the VM in the vSphere Client before trying again"),
			           s->host, method);
		return -1;
	}
	task = vs_moref_result(el, s->host, method, e);
	xmlFreeDoc(doc);
	if (task == NULL)
		return -1;
	t = vs_task_add(s, task, vm->name, what, !batch);
	if (batch)
		return 0;
	t->cb = cb;
	t->ctx = ctx;
	return wait_task(s, t, e);
}

static int
check_off(const gw_vs_vm *vm, gw_err *e)
{
	if (vm->power == GW_VS_POWER_OFF)
		return 0;
	if (vm->power == GW_VS_POWER_ON)
		gw_err_set(e, _("VM %s is powered on: shut down its guest OS (or power it off), then run this again; nothing was changed"),
		           vm->name);
	else if (vm->power == GW_VS_POWER_SUSPENDED)
		gw_err_set(e, _("VM %s is suspended: power it on and shut it down cleanly, then run this again; nothing was changed"),
		           vm->name);
	else
		gw_err_set(e, _("the power state of VM %s is unknown; it must be powered off; nothing was changed"),
		           vm->name);
	return -1;
}

int
gw_vs_reconfigure(gw_vs *s, const gw_vs_vm *vm, const gw_vs_spec *spec,
                  gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	char *what;
	int n, rc;
	req r;

	n = vs_build_reconfigure(vm, spec, NULL, e);
	if (n < 0)
		return -1;
	if (n == 0) {
		if (cb) {
			what = gw_xasprintf(_("VM %s already has these settings"), vm->name);
			cb(ctx, what, 100);
			free(what);
		}
		return 0;
	}
	if (check_off(vm, e) != 0)
		return -1;
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	if (vs_build_reconfigure(vm, spec, &r, e) <= 0)
		return -1;
	what = gw_xasprintf(_("reconfiguring VM %s"), vm->name);
	rc = run_task(s, "ReconfigVM_Task", &r, vm, what, s->parallel > 0, cb,
	              ctx, e);
	vs_req_free(&r);
	free(what);
	return rc;
}

int
gw_vs_upgrade(gw_vs *s, const gw_vs_vm *vm, int target_hw,
              gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	char ver[16], *what;
	req r;
	int rc;

	if (vm == NULL) {
		gw_err_set(e, _("no VM or no changes given"));
		return -1;
	}
	if (target_hw < 4 || target_hw > 22) {
		gw_err_set(e, _("hardware version %d is not one vSphere knows (4 to 22)"), target_hw);
		return -1;
	}
	if (vm->hw_version > 0 && target_hw == vm->hw_version) {
		gw_err_set(e, _("VM %s is already vmx-%d"), vm->name, target_hw);
		return -1;
	}
	if (vm->hw_version > 0 && target_hw < vm->hw_version) {
		gw_err_set(e, _("VM %s is vmx-%d: a hardware version is never lowered (asked: vmx-%d)"),
		           vm->name, vm->hw_version, target_hw);
		return -1;
	}
	if (vm->hw_version <= 0) {
		gw_err_set(e, _("the hardware version of VM %s is unknown; not upgrading"), vm->name);
		return -1;
	}
	if (check_off(vm, e) != 0)
		return -1;
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	snprintf(ver, sizeof ver, "vmx-%d", target_hw);
	vs_req_init(&r, "UpgradeVM_Task");
	vs_add_moref(r.method, "_this", "VirtualMachine", vm->moref);
	vs_add_text(r.method, "version", ver);
	what = gw_xasprintf(_("upgrading VM %s to vmx-%d"), vm->name, target_hw);
	rc = run_task(s, "UpgradeVM_Task", &r, vm, what, 0, cb, ctx, e);
	vs_req_free(&r);
	free(what);
	return rc;
}

/* ---- task info (fixtures) -------------------------------------------------- */

int
gw_vs_parse_task_info(const char *text, size_t len, gw_vs_task_info *ti,
                      gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el, info;

	task_info_from_el(NULL, ti);
	if (vs_parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	info = task_info_el(el);
	if (info == NULL) {
		gw_err_set(e, _("no task info in the answer"));
		xmlFreeDoc(doc);
		return -1;
	}
	task_info_from_el(info, ti);
	xmlFreeDoc(doc);
	return 0;
}

void
gw_vs_task_info_free(gw_vs_task_info *ti)
{
	if (ti == NULL)
		return;
	free(ti->fault_type);
	free(ti->fault_message);
	ti->fault_type = ti->fault_message = NULL;
}
