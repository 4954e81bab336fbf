/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_vsphere.c: gpuwiz vsphere --url URL --user USER ... list | apply |
 * passthru: vCenter or a licensed ESXi through the API (vsphere.c,
 * vsapply.c).  One login, one inventory; apply plans each --vm in turn
 * and starts its task, and the tasks run together (cmd_vsphere_batch.c,
 * doc/design.md 4.5).
 */
#include "cli_int.h"
#include "textesc.h"
#include "out.h"
#include "jsonutil.h"
#include "vmx.h"
#include "vsapply.h"
#include "vsbatch.h"
#include "write_report.h"
#include "finding_print.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void
vs_progress(void *ctx, const char *what, int pct)
{
	(void)ctx;
	/* on standard output: standard error keeps the one error line */
	if (pct >= 0)
		gw_fprintf_escaped(stdout, "  %s: %d%%\n", what, pct);
	else
		gw_fprintf_escaped(stdout, "  %s...\n", what);
	gw_out_flush();
}

/* ---- list ------------------------------------------------------------- */

static json_t *
vs_host_json(const gw_table *t, const gw_vs_host *h)
{
	json_t *j = json_object(), *arr = json_array();
	size_t i;

	json_object_set_new(j, "moref", gw_json_text(h->moref));
	json_object_set_new(j, "name", gw_json_text(h->name));
	json_object_set_new(j, "version", h->version ? gw_json_text(h->version) : json_null());
	json_object_set_new(j, "build", h->build ? gw_json_text(h->build) : json_null());
	for (i = 0; i < h->npci; i++) {
		const gw_vs_pci *d = &h->pci[i];
		const gw_gpu *g;
		json_t *x;
		char hex[8];

		if ((d->class_id >> 8) != 0x03)
			continue;
		g = gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
		                      d->subdevice, NULL);
		x = json_object();
		json_object_set_new(x, "bdf", gw_json_text(d->id));
		snprintf(hex, sizeof hex, "%04x", d->vendor);
		json_object_set_new(x, "vendor_id", json_string(hex));
		snprintf(hex, sizeof hex, "%04x", d->device);
		json_object_set_new(x, "device_id", json_string(hex));
		json_object_set_new(x, "name", gw_json_text(g ? g->name :
		                    d->device_name ? d->device_name : ""));
		json_object_set_new(x, "vram_gb", g && g->vram_gb >= 0 ?
		                    json_integer(g->vram_gb) : json_null());
		json_object_set_new(x, "passthru_capable", d->passthru_capable < 0 ?
		                    json_null() : json_boolean(d->passthru_capable));
		json_object_set_new(x, "passthru_enabled", d->passthru_enabled < 0 ?
		                    json_null() : json_boolean(d->passthru_enabled));
		json_object_set_new(x, "passthru_active", d->passthru_active < 0 ?
		                    json_null() : json_boolean(d->passthru_active));
		json_object_set_new(x, "system_id", d->system_id ?
		                    gw_json_text(d->system_id) : json_null());
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "gpus", arr);
	return j;
}

static json_t *
vs_vm_json(const gw_vs_vm *vm)
{
	json_t *j = json_object(), *arr = json_array();
	size_t i;

	json_object_set_new(j, "moref", gw_json_text(vm->moref));
	json_object_set_new(j, "name", gw_json_text(vm->name));
	json_object_set_new(j, "power", json_string(cli_power_word(gw_vs_power_esxi(vm->power))));
	json_object_set_new(j, "hw_version", vm->hw_version ?
	                    json_integer(vm->hw_version) : json_null());
	json_object_set_new(j, "firmware", vm->firmware ? gw_json_text(vm->firmware) : json_null());
	json_object_set_new(j, "memory_mb", json_integer(vm->memory_mb));
	json_object_set_new(j, "reservation_locked", vm->reserve_locked < 0 ?
	                    json_null() : json_boolean(vm->reserve_locked));
	for (i = 0; i < vm->ndevs; i++) {
		const gw_vs_dev *d = &vm->devs[i];
		json_t *x = json_object();

		if (d->vgpu) {
			json_object_set_new(x, "vgpu", gw_json_text(d->vgpu));
		} else {
			char hex[8];

			json_object_set_new(x, "bdf", d->id ? gw_json_text(d->id) : json_null());
			snprintf(hex, sizeof hex, "%04x", d->vendor);
			json_object_set_new(x, "vendor_id", json_string(hex));
			snprintf(hex, sizeof hex, "%04x", d->device);
			json_object_set_new(x, "device_id", json_string(hex));
		}
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "passthrough", arr);
	return j;
}

static void
vs_list_text(const gw_table *t, const gw_vs_inventory *inv)
{
	size_t i, k;

	for (i = 0; i < inv->nhosts; i++) {
		const gw_vs_host *h = &inv->hosts[i];

		/* TRANSLATORS: a host in gpuwiz vsphere list: name, version. */
		gw_fprintf_escaped(stdout, _("Host %s (ESXi %s):\n"), h->name, h->version ? h->version : "?");
		for (k = 0; k < h->npci; k++) {
			const gw_vs_pci *d = &h->pci[k];
			const gw_gpu *g;

			if ((d->class_id >> 8) != 0x03)
				continue;
			g = gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
			                      d->subdevice, NULL);
			gw_fprintf_escaped(stdout, "  %s  %04x:%04x  %-28s %s\n", d->id, d->vendor,
			       d->device, g ? g->name : d->device_name ? d->device_name : "",
			       d->passthru_enabled == 1 ? (d->passthru_active == 1 ?
			       _("passthrough on") : _("passthrough on after a reboot")) :
			       _("passthrough off"));
		}
	}
	/* TRANSLATORS: heading of the VMs in gpuwiz vsphere list. */
	gw_fprintf_escaped(stdout, "%s\n", _("VMs:"));
	for (i = 0; i < inv->nvms; i++) {
		const gw_vs_vm *vm = &inv->vms[i];

		gw_fprintf_escaped(stdout, "  %-24s %-9s vmx-%-3d %-5s %6ld MB", vm->name,
		       cli_power_word(gw_vs_power_esxi(vm->power)), vm->hw_version,
		       vm->firmware ? vm->firmware : "-", vm->memory_mb);
		for (k = 0; k < vm->ndevs; k++)
			gw_fprintf_escaped(stdout, " %s", vm->devs[k].vgpu ? vm->devs[k].vgpu :
			       vm->devs[k].id ? vm->devs[k].id : "?");
		putchar('\n');
	}
}

int
vs_list(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e)
{
	const gw_vs_inventory *inv = gw_host_inventory(h, e);
	gw_vs *s = gw_host_vs(h);
	json_t *j, *ha, *va;
	size_t i;

	if (inv == NULL)
		return EXIT_USAGE;
	if (!o->json) {
		vs_list_text(t, inv);
		return 0;
	}
	j = json_object();
	ha = json_array();
	va = json_array();
	for (i = 0; i < inv->nhosts; i++)
		json_array_append_new(ha, vs_host_json(t, &inv->hosts[i]));
	for (i = 0; i < inv->nvms; i++)
		json_array_append_new(va, vs_vm_json(&inv->vms[i]));
	json_object_set_new(j, "server", json_string(gw_vs_is_vcenter(s) ?
	                    "vcenter" : "esxi"));
	json_object_set_new(j, "hosts", ha);
	json_object_set_new(j, "vms", va);
	json_object_set_new(j, "round_trips", json_integer(gw_vs_round_trips(s)));
	gw_json_print(j);
	json_decref(j);
	return 0;
}

/* ---- passthru --enable BDF [--host NAME] ------------------------------- */

/* The host (--host, else any) that has the device: after
 * gw_host_enable_bdf there is exactly one. */
static const char *
device_host_name(const gw_vs_inventory *inv, const char *host, const char *bdf)
{
	size_t i;

	for (i = 0; inv != NULL && i < inv->nhosts; i++)
		if ((host == NULL || strcmp(inv->hosts[i].name, host) == 0) &&
		    gw_vs_host_pci(&inv->hosts[i], bdf) != NULL)
			return inv->hosts[i].name;
	return "?";
}

int
vs_passthru(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_session s;
	gw_session_write w;
	int rc = EXIT_USAGE;

	(void)t;
	if (gw_host_inventory(h, e) == NULL)
		return EXIT_USAGE;
	memset(&af, 0, sizeof af);
	gw_session_init(&s, h);
	gw_session_queue_enable_bdf(&s, o->enable, o->host);
	if (gw_session_write_prepare(&s, &af, NULL, NULL, &w, e) != 0)
		goto out;
	if (cli_write(o, &s, &w, NULL, &res, e) != 0) {
		gw_session_write_free(&w);
		goto out;
	}
	gw_apply_result_free(&res);
	rc = 0;
	if (o->dry_run) {
		cli_print_dry_run(&w.desc);
	} else {
		/* TRANSLATORS: %s is the device's address, then the host. */
		gw_fprintf_escaped(stdout, _("Passthrough enabled for %s on %s.\n"), o->enable,
		       device_host_name(gw_host_inventory(h, e), o->host, o->enable));
		gw_fprintf_escaped(stdout, "%s\n", s.queue[0].reboot ?
		       _("The host needs a reboot (maintenance mode first) before a VM can use the device.") :
		       _("It is active now: add the device to the VM (gpuwiz vsphere ... apply --vm NAME --bdf ADDRESS ...)."));
	}
	gw_session_write_free(&w);
out:
	gw_session_free(&s);
	return rc;
}

/* ---- apply --vm NAME... ------------------------------------------------ */

typedef struct vs_job {
	cli_opts *o;
	gw_session *s;             /* one for all the --vm */
	const char *name;          /* --vm */
	gw_answers ans;            /* the options', with the host's facts */
	int have_ans;
	gw_vmx *v;                 /* the VM's configuration as a .vmx */
	gw_plan p;
	int have_plan;
	gw_vs_plan_spec spec;
	const gw_table *t;
	int upgrade_to, upgraded;
	json_t *jvm;               /* --json: the VM's object in the summary
	                            * (borrowed), else NULL */
	vs_batch *b;               /* the tasks' ends (vsbatch.h) */
} vs_job;

/* Does the session's list of VMs hold the inventory's VM k where the API
 * back end lists it (Vmid k + 1, the inventory's order)? */
static int
listed(const gw_session *s, const gw_vs_inventory *inv, size_t k)
{
	return k < s->vms.list.n && s->vms.list.n == inv->nvms &&
	       strcmp(s->vms.list.vms[k].name, inv->vms[k].name) == 0;
}

/* The VM by name (or moref) in the server's inventory (its index: one
 * lookup), opened; refused when it is not powered off.  The session's
 * list of VMs is made once for all the --vm, again only after the
 * inventory was read anew (an upgrade) and no longer matches. */
static int
vs_open_vm(vs_job *j, gw_err *e)
{
	const gw_vs_inventory *inv;
	const gw_vs_vm *vm;
	size_t k;

	if ((inv = gw_host_inventory(j->s->host, e)) == NULL)
		return -1;
	if ((vm = gw_vs_find_vm(inv, j->name)) == NULL) {
		gw_err_set(e, _("--vm: no VM '%s' on %s (gpuwiz vsphere ... list shows them)"),
		           j->name, j->o->url);
		return -1;
	}
	k = (size_t)(vm - inv->vms);
	if (!listed(j->s, inv, k) && gw_session_list_vms(j->s, e) != 0)
		return -1;
	/* the API back end lists the inventory's VMs in its order */
	if (gw_session_open_vm(j->s, (long)k, &j->v, NULL, e) != 0)
		return -1;
	if (j->jvm != NULL) {
		json_object_set_new(j->jvm, "vm", gw_json_text(vm->name));
		vs_batch_name(j->b, vm->name, j->jvm);
	}
	if (!gw_session_vm_may_change(j->s, e))
		return -1;
	return 0;
}

/* The session's answers for the VM: the host's ESXi version, the
 * passthrough GPUs' devices (named with --bdf, else what the VM already
 * has counts, and free ones of the VM's host for the rest) and the system
 * id. */
static int
vs_answers(vs_job *j, gw_err *e)
{
	gw_err le;
	int had = 0, rc;

	rc = gw_session_answers(j->s, &j->o->a, &j->ans, &had, e);
	/* the host's GPUs as the plan's host counts (gpu-count-host, as in
	 * the wizard); advice only: unlisted GPUs leave no counts */
	if (rc == 0 && gw_session_host_avail(j->s, &j->ans, &le) != 0)
		gw_answers_clear_avail(&j->ans);
	if (j->jvm != NULL)
		json_object_set_new(j->jvm, "attached", json_integer(had));
	else if (had > 0)
		/* TRANSLATORS: %d GPUs of the request are attached. */
		gw_fprintf_escaped(stdout, _("Already attached to the VM: %d of the GPUs asked for.\n"), had);
	j->have_ans = rc == 0;
	return rc;
}

/* --upgrade-hw: to the host's newest hardware version, a host change of
 * the write (queued: UpgradeVM_Task runs first, and --dry-run lists it);
 * until then the plan is made on the VM as the upgrade leaves it
 * (doc/design.md, 6.4). */
static int
vs_upgrade(vs_job *j, gw_err *e)
{
	int target = j->ans.esxi_version ? gw_esxi_to_hw(j->ans.esxi_version) : 0;
	int cur = gw_session_vm(j->s)->hw_version;
	char v[16];

	if (!j->o->upgrade || target <= cur || cur <= 0)
		return 0;
	gw_session_queue_upgrade(j->s, cur, target);
	j->upgrade_to = target;
	snprintf(v, sizeof v, "%d", target);
	return gw_vmx_set(j->v, "virtualHW.version", v, e);
}

/* The write ran the upgrade (session.h: gw_session_changes_fn): the
 * session read the VM again into j->v; the plan and its spec anew. */
static int
vs_changes_ran(void *ctx, int rc, const gw_plan **p, gw_err *e)
{
	vs_job *j = ctx;

	if (rc != 0)
		return -1;
	j->upgraded = j->upgrade_to;
	gw_vs_plan_spec_free(&j->spec);
	memset(&j->spec, 0, sizeof j->spec);
	gw_plan_free(&j->p);
	j->have_plan = 0;
	if (gw_plan_build(&j->ans, j->t, j->v, &j->p, e) != 0)
		return -1;
	j->have_plan = 1;
	if (gw_vs_spec_from_plan(&j->p, &j->spec, e) != 0)
		return -1;
	*p = &j->p;
	return 0;
}

/* The name of the ESXi host of the VM the session has open, from the
 * inventory (the API back end lists its VMs in the inventory's order:
 * Vmid = position + 1). */
static const char *
vm_host_name(const vs_job *j)
{
	const gw_vm *vm = gw_session_vm(j->s);
	const gw_vs_inventory *inv;
	const gw_vs_host *x = NULL;
	gw_err le;

	inv = gw_host_inventory(j->s->host, &le);
	if (inv != NULL && vm != NULL && vm->vmid >= 1 && vm->vmid <= inv->nvms &&
	    inv->vms[vm->vmid - 1].host_moref != NULL)
		x = gw_vs_find_host(inv, inv->vms[vm->vmid - 1].host_moref);
	return x ? x->name : "?";
}

static void
vs_show_plan(const vs_job *j)
{
	const gw_vm *vm = gw_session_vm(j->s);

	if (j->jvm != NULL) {
		json_object_set_new(j->jvm, "host", gw_json_text(vm_host_name(j)));
		json_object_set_new(j->jvm, "findings",
		                    gw_findings_json(j->p.findings, j->p.nfindings,
		                                     GW_LAYOUT_PLAN, GW_TOPIC_ALL));
		return;
	}
	/* TRANSLATORS: the VM in gpuwiz vsphere apply: name, then server. */
	gw_fprintf_escaped(stdout, _("VM: %s on %s\n"), vm->name, vm_host_name(j));
	gw_plan_print_gpus(stdout, &j->p);
	gw_plan_print_changes(stdout, &j->p);
	cli_upgrade_hint(&j->p, j->o->upgrade);
}

static void
vs_show_spec(const gw_vs_plan_spec *spec)
{
	size_t i;

	/* TRANSLATORS: heading of what goes into ReconfigVM_Task. */
	gw_fprintf_escaped(stdout, "%s\n", _("Through the API (ReconfigVM_Task):"));
	for (i = 0; i < spec->nec; i++)
		gw_fprintf_escaped(stdout, "  extraConfig %s = \"%s\"\n", spec->keys[i], spec->vals[i]);
	if (spec->spec.reserve_locked == 1)
		gw_fprintf_escaped(stdout, "  memoryReservationLockedToMax = true\n");
	for (i = 0; i < spec->nadds; i++) {
		if (spec->adds[i].vgpu)
			gw_fprintf_escaped(stdout, "  + VirtualPCIPassthrough vgpu %s\n", spec->adds[i].vgpu);
		else if (spec->adds[i].dynamic)
			gw_fprintf_escaped(stdout, "  + VirtualPCIPassthrough dynamic %04x:%04x\n",
			       spec->adds[i].vendor, spec->adds[i].device);
		else
			gw_fprintf_escaped(stdout, "  + VirtualPCIPassthrough %s (%04x:%04x, systemId %s)\n",
			       spec->adds[i].id, spec->adds[i].vendor, spec->adds[i].device,
			       spec->adds[i].system_id ? spec->adds[i].system_id : "-");
	}
}

/* --json: the VM's "result" (refused, unchanged, would_change, started,
 * then reconfigured or failed) and its "error" line or null. */
static void
vs_json_result(const vs_job *j, const char *result, const char *error)
{
	if (j->jvm == NULL)
		return;
	json_object_set_new(j->jvm, "result", json_string(result));
	json_object_set_new(j->jvm, "error", error != NULL && *error ?
	                    gw_json_text(error) : json_null());
}

/* The session's write: refused while the plan has failures unless
 * --force (after the plan it refers to); with --dry-run its description
 * (the upgrade queued, ReconfigVM_Task and the spec's lines), else
 * ReconfigVM_Task started: vs_batch_done tells its end. */
static int
vs_send(vs_job *j, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_session_write w;
	int rc;

	memset(&af, 0, sizeof af);
	af.force = j->o->force;
	if (gw_session_write_prepare(j->s, &af, &j->p, j->v, &w, e) != 0) {
		if (gw_session_may_write(&j->p, j->o->force, NULL))
			return EXIT_USAGE;
		gw_out_flush();
		gw_fprintf_escaped(stderr, "%s %s: %s: %s\n", cli_progname, j->o->cmd,
		                   gw_session_vm(j->s)->name, e->msg);
		vs_json_result(j, "refused", e->msg);
		e->msg[0] = '\0';
		return EXIT_FINDINGS;
	}
	if (gw_vs_spec_empty(&j->spec) && gw_session_pending(j->s) == 0) {
		if (j->jvm != NULL)
			vs_json_result(j, "unchanged", NULL);
		else
			gw_fprintf_escaped(stdout, "%s\n", _("Nothing to change: the VM already has these settings."));
		gw_session_write_free(&w);
		return 0;
	}
	if (j->jvm != NULL)
		json_object_set_new(j->jvm, "write", gw_write_desc_json(&w.desc, NULL));
	else if (!gw_vs_spec_empty(&j->spec))
		vs_show_spec(&j->spec);
	if (j->o->dry_run) {
		if (j->jvm != NULL)
			vs_json_result(j, "would_change", NULL);
		else
			cli_print_dry_run(&w.desc);
		gw_session_write_free(&w);
		return 0;
	}
	/* the task's end sets "reconfigured" or "failed" (vs_batch_done) */
	vs_json_result(j, "started", NULL);
	gw_session_set_on_changes(j->s, vs_changes_ran, j);
	rc = cli_write(j->o, j->s, &w, &j->v, &res, e);
	gw_session_set_on_changes(j->s, NULL, NULL);
	gw_apply_result_free(&res);
	gw_session_write_free(&w);
	if (j->upgraded && j->jvm != NULL)
		json_object_set_new(j->jvm, "upgraded_to", json_integer(j->upgraded));
	else if (j->upgraded)
		gw_fprintf_escaped(stdout, _("Upgraded the hardware version to vmx-%d.\n"), j->upgraded);
	if (rc != 0)
		vs_json_result(j, "failed", e->msg);
	return rc != 0 ? EXIT_USAGE : 0;
}

/* The plan for the VM, shown, then written (vs_send). */
static int
vs_plan_and_send(vs_job *j, const gw_table *t, gw_err *e)
{
	int rc;

	if (gw_plan_build(&j->ans, t, j->v, &j->p, e) != 0)
		return EXIT_USAGE;
	j->have_plan = 1;
	if (gw_vs_spec_from_plan(&j->p, &j->spec, e) != 0)
		return EXIT_USAGE;
	vs_show_plan(j);
	if ((rc = vs_send(j, e)) != 0)
		return rc;
	return gw_plan_has_errors(&j->p) ? EXIT_FINDINGS : 0;
}

/* gpuwiz vsphere ... apply for one VM.  0, 1 (the plan has failures), or
 * 2 with e. */
static int
vs_apply_vm(cli_opts *o, const gw_table *t, gw_session *s, const char *name,
            vs_batch *b, gw_err *e)
{
	json_t *jvms = b->vms;
	vs_job j;
	int rc = EXIT_USAGE;

	memset(&j, 0, sizeof j);
	j.o = o;
	j.s = s;
	j.name = name;
	j.t = t;
	j.b = b;
	if (jvms != NULL) {
		j.jvm = json_object();
		json_object_set_new(j.jvm, "vm", gw_json_text(name));
		json_array_append_new(jvms, j.jvm);
	}
	if (vs_open_vm(&j, e) == 0 && vs_answers(&j, e) == 0 &&
	    vs_upgrade(&j, e) == 0)
		rc = vs_plan_and_send(&j, t, e);
	if (rc == EXIT_USAGE && j.jvm != NULL &&
	    json_object_get(j.jvm, "result") == NULL)
		vs_json_result(&j, "failed", e->msg);
	gw_vs_plan_spec_free(&j.spec);
	if (j.have_plan)
		gw_plan_free(&j.p);
	gw_vmx_free(j.v);
	if (j.have_ans)
		gw_answers_free(&j.ans);
	gw_session_close_vm(s);
	return rc;
}

/* apply --json: {"dry_run", "vms": [{"vm", "host", "attached",
 * "findings", "write" (the write's description: write_report.h),
 * "upgraded_to", "result", "error"}], "round_trips"}; takes vms. */
static void
vs_apply_json(const cli_opts *o, json_t *vms, unsigned round_trips)
{
	json_t *j = json_object();

	json_object_set_new(j, "dry_run", json_boolean(o->dry_run));
	json_object_set_new(j, "vms", vms);
	json_object_set_new(j, "round_trips", json_integer(round_trips));
	gw_json_print(j);
	json_decref(j);
}

/* apply, to each --vm in turn (one session, one inventory of only those
 * VMs, a batch: gw_host_set_batch), every task started (at most
 * --parallel in flight) and then all waited for together */
int
vs_apply(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e)
{
	gw_session s;
	gw_vs *vs = gw_host_vs(h);
	vs_batch b;
	size_t i;
	int rc = 0, wrc;
	json_t *jvms = o->json ? json_array() : NULL;

	vs_batch_init(&b, o->cmd, !o->json && gw_verbosity() == GW_NORMAL &&
	              isatty(STDERR_FILENO), jvms);
	gw_vs_set_vm_names(vs, o->vm_list, o->nvm_list);
	gw_vs_set_parallel(vs, o->parallel ? o->parallel : VS_PARALLEL,
	                   vs_batch_done, &b);
	gw_session_init(&s, h);
	/* the inventory is read once: the host's GPUs probed once too */
	s.keep_gpus = 1;
	gw_host_set_batch(h, 1);
	for (i = 0; i < o->nvm_list; i++) {
		int r1 = vs_apply_vm(o, t, &s, o->vm_list[i], &b, e);

		if (r1 == EXIT_USAGE) {
			/* one line per VM that failed; the others go on */
			gw_out_flush();
			cli_die_line(o->cmd, e->msg);
			e->msg[0] = '\0';
		}
		if (r1 > rc)
			rc = r1;
	}
	wrc = vs_batch_wait(&b, vs, e);
	vs_batch_free(&b);
	gw_session_free(&s);
	if (wrc > 0)
		rc = EXIT_USAGE;
	/* several VMs: one failed while the others were changed (doc/design.md
	 * 4.5); one VM: its failure is the command's; the server lost: what
	 * the tasks did is not known */
	if (rc == EXIT_USAGE && o->nvm_list > 1)
		rc = EXIT_FINDINGS;
	if (wrc < 0) {
		cli_die_line(o->cmd, e->msg);
		rc = EXIT_USAGE;
	}
	if (jvms != NULL)
		vs_apply_json(o, jvms, gw_vs_round_trips(vs));
	else
		/* TRANSLATORS: the number of SOAP requests made. */
		gw_fprintf_escaped(stdout, _("Round trips: %u\n"), gw_vs_round_trips(vs));
	if (rc == EXIT_USAGE)
		e->msg[0] = '\0';   /* already said */
	return rc;
}

/* ---- the command -------------------------------------------------------- */

/* The options each subcommand needs or refuses (the command table
 * refused those it does not take). */
static int
vs_args(cli_opts *o, const gw_table *t, const cli_sub *sub, gw_err *e)
{
	if (sub->exec == vs_passthru && o->enable == NULL) {
		gw_err_set(e, "%s", _("--enable: missing (expected the device's address, e.g. 0000:3b:00.0; gpuwiz vsphere ... list shows them)"));
		return -1;
	}
	if (cli_vs_check_opts(o, e) != 0)
		return -1;
	if (sub->exec == vs_apply && o->vm == NULL) {
		gw_err_set(e, "%s", _("--vm: missing (expected the VM's name; gpuwiz vsphere ... list shows them)"));
		return -1;
	}
	/* no GPU named: the devices already in each VM (--uvm on its vGPUs,
	 * the MMIO window sized for them), as gpuwiz vmx does */
	if (sub->exec == vs_apply && o->nitems > 0 && cli_resolve_items(o, t, e) != 0)
		return -1;
	if (o->nvm_list > 1 && o->a.nbdfs > 0) {
		gw_err_set(e, "%s", _("--bdf names one VM's devices: give one --vm with it (without --bdf gpuwiz picks free devices for each VM)"));
		return -1;
	}
	return 0;
}

int
cmd_vsphere(cli_opts *o, const gw_table *t, gw_err *e)
{
	const cli_sub *sub = NULL;
	gw_host *h;
	int rc;

	if (gw_vs_available(e) != 0)
		return EXIT_USAGE;
	if (o->nargs == 1)
		sub = cli_sub_find(cli_cmd_find(o->cmd), o->args[0]);
	if (sub == NULL) {
		gw_err_set(e, "%s", _("expected list, apply or passthru (gpuwiz vsphere --url URL --user USER list)"));
		return EXIT_USAGE;
	}
	if (vs_args(o, t, sub, e) != 0 || cli_vs_host_open(o, &h, e) != 0)
		return EXIT_USAGE;
	if (!o->json)   /* stdout holds the JSON alone */
		gw_host_set_progress(h, vs_progress, NULL);
	rc = sub->exec(o, t, h, e);
	gw_host_close(h);
	return rc;
}
