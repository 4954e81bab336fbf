/* cmd_vsphere.c: gpuwiz vsphere --url URL --user USER ... list | apply |
 * passthru: vCenter or a licensed ESXi through the API (vsphere.c,
 * vsapply.c).  One login, one inventory; apply goes through each --vm in
 * turn and reads the inventory again after a change another VM's pick
 * must see.
 */
#include "cli_int.h"
#include "jsonutil.h"
#include "vmx.h"
#include "vsapply.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
vs_progress(void *ctx, const char *what, int pct)
{
	(void)ctx;
	/* on standard output: standard error keeps the one error line */
	if (pct >= 0)
		printf("  %s: %d%%\n", what, pct);
	else
		printf("  %s...\n", what);
	fflush(stdout);
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
		printf(_("Host %s (ESXi %s):\n"), h->name, h->version ? h->version : "?");
		for (k = 0; k < h->npci; k++) {
			const gw_vs_pci *d = &h->pci[k];
			const gw_gpu *g;

			if ((d->class_id >> 8) != 0x03)
				continue;
			g = gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
			                      d->subdevice, NULL);
			printf("  %s  %04x:%04x  %-28s %s\n", d->id, d->vendor,
			       d->device, g ? g->name : d->device_name ? d->device_name : "",
			       d->passthru_enabled == 1 ? (d->passthru_active == 1 ?
			       _("passthrough on") : _("passthrough on after a reboot")) :
			       _("passthrough off"));
		}
	}
	/* TRANSLATORS: heading of the VMs in gpuwiz vsphere list. */
	printf("%s\n", _("VMs:"));
	for (i = 0; i < inv->nvms; i++) {
		const gw_vs_vm *vm = &inv->vms[i];

		printf("  %-24s %-9s vmx-%-3d %-5s %6ld MB", vm->name,
		       cli_power_word(gw_vs_power_esxi(vm->power)), vm->hw_version,
		       vm->firmware ? vm->firmware : "-", vm->memory_mb);
		for (k = 0; k < vm->ndevs; k++)
			printf(" %s", vm->devs[k].vgpu ? vm->devs[k].vgpu :
			       vm->devs[k].id ? vm->devs[k].id : "?");
		putchar('\n');
	}
}

static int
vs_list(cli_opts *o, const gw_table *t, gw_vs *s, gw_vs_inventory *inv,
        gw_err *e)
{
	json_t *j, *ha, *va;
	size_t i;

	(void)e;
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

/* The one host (named by --host, else any) that has the device. */
static const gw_vs_host *
vs_device_host(const cli_opts *o, const gw_vs_inventory *inv, gw_err *e)
{
	const gw_vs_host *hh = NULL;
	size_t i, k, nhave = 0;

	for (i = 0; i < inv->nhosts; i++) {
		if (o->host && strcmp(inv->hosts[i].name, o->host) != 0)
			continue;
		for (k = 0; k < inv->hosts[i].npci; k++)
			if (strcasecmp(inv->hosts[i].pci[k].id, o->enable) == 0) {
				hh = &inv->hosts[i];
				nhave++;
			}
	}
	if (nhave == 1)
		return hh;
	if (nhave == 0)
		gw_err_set(e, _("--enable: no device %s on %s (gpuwiz vsphere ... list shows them)"),
		           o->enable, o->host ? o->host : o->url);
	else
		gw_err_set(e, _("--enable: several hosts of %s have a device %s: name one with --host NAME"),
		           o->url, o->enable);
	return NULL;
}

/* Is the device of host hname active for passthrough now? */
static int
vs_passthru_active(const gw_vs_inventory *inv, const char *hname,
                   const char *bdf)
{
	size_t i, k;
	int active = 0;

	for (i = 0; i < inv->nhosts; i++)
		for (k = 0; k < inv->hosts[i].npci; k++)
			if (strcmp(inv->hosts[i].name, hname) == 0 &&
			    strcasecmp(inv->hosts[i].pci[k].id, bdf) == 0)
				active = inv->hosts[i].pci[k].passthru_active == 1;
	return active;
}

static int
vs_passthru(cli_opts *o, const gw_table *t, gw_vs *s, gw_vs_inventory *inv,
            gw_err *e)
{
	const gw_vs_host *hh;
	char *hname;
	int active;

	(void)t;
	if ((hh = vs_device_host(o, inv, e)) == NULL)
		return EXIT_USAGE;
	hname = gw_xstrdup(hh->name);
	/* then read it back: active now, or after a reboot */
	if (gw_vs_enable_passthru(s, hh, o->enable, e) != 0) {
		free(hname);
		return EXIT_USAGE;
	}
	gw_vs_inventory_free(inv);
	if (gw_vs_inventory_get(s, inv, e) != 0) {
		free(hname);
		return EXIT_USAGE;
	}
	active = vs_passthru_active(inv, hname, o->enable);
	/* TRANSLATORS: %s is the device's address, then the host. */
	printf(_("Passthrough enabled for %s on %s.\n"), o->enable, hname);
	printf("%s\n", active ?
	       _("It is active now: add the device to the VM (gpuwiz vsphere ... apply --vm NAME --bdf ADDRESS ...).") :
	       _("The host needs a reboot (maintenance mode first) before a VM can use the device."));
	free(hname);
	return 0;
}

/* ---- apply --vm NAME... ------------------------------------------------ */

typedef struct vs_job {
	cli_opts *o;
	gw_vs *s;
	gw_vs_inventory *inv;      /* read again after an upgrade */
	const char *name;          /* --vm */
	gw_answers ans;            /* the options', with the host's facts */
	const gw_vs_vm *vm;
	const gw_vs_host *h;       /* the VM's host */
	char **picked;
	size_t npicked;
	gw_vmx *v;                 /* the VM's configuration as a .vmx */
	gw_plan p;
	int have_plan;
	gw_vs_plan_spec spec;
	int upgraded;
	int applied;               /* a passthrough device was attached */
} vs_job;

static const gw_vs_host *
vm_host(const gw_vs_inventory *inv, const gw_vs_vm *vm, gw_err *e)
{
	const gw_vs_host *h;

	h = vm->host_moref ? gw_vs_find_host(inv, vm->host_moref) : NULL;
	if (h == NULL)
		gw_err_set(e, _("%s: its host is not in the inventory"), vm->name);
	return h;
}

/* The VM, powered off, and its host. */
static int
vs_locate(vs_job *j, gw_err *e)
{
	if ((j->vm = gw_vs_find_vm(j->inv, j->name)) == NULL) {
		gw_err_set(e, _("--vm: no VM '%s' on %s (gpuwiz vsphere ... list shows them)"),
		           j->name, j->o->url);
		return -1;
	}
	if (j->vm->power != GW_VS_POWER_OFF) {
		gw_err_set(e, _("%s is %s: gpuwiz does not change a VM that is not powered off; shut the guest down (or power the VM off), then run this again"),
		           j->vm->name, cli_power_word(gw_vs_power_esxi(j->vm->power)));
		return -1;
	}
	return (j->h = vm_host(j->inv, j->vm, e)) == NULL ? -1 : 0;
}

/* The system id of the first device, from the host. */
static int
vs_system_id(vs_job *j, gw_err *e)
{
	const char *sid = NULL;
	size_t i;

	for (i = 0; i < j->h->npci && sid == NULL; i++)
		if (strcasecmp(j->h->pci[i].id, j->ans.bdfs[0]) == 0)
			sid = j->h->pci[i].system_id;
	if (sid == NULL) {
		gw_err_set(e, _("%s: host %s reports no system id for %s: is passthrough enabled and active for it?"),
		           j->vm->name, j->h->name, j->ans.bdfs[0]);
		return -1;
	}
	return gw_answers_set_system_id(&j->ans, sid, "QueryConfigTarget", e);
}

/* The host's facts the options did not give: its ESXi version, the
 * passthrough GPUs' devices and the system id. */
static int
vs_devices(vs_job *j, gw_err *e)
{
	size_t i;

	if (j->ans.esxi_version == NULL && j->h->version &&
	    gw_esxi_to_hw(j->h->version) > 0)
		j->ans.esxi_version = gw_xstrdup(j->h->version);
	/* the passthrough GPUs' devices: named with --bdf, else what the VM
	 * already has counts, and free ones of the VM's host for the rest */
	if (j->ans.nbdfs == 0) {
		int had = gw_vs_answers_less_attached(&j->ans, j->vm);

		if (had > 0)
			/* TRANSLATORS: %d GPUs of the request are attached. */
			printf(_("Already attached to the VM: %d of the GPUs asked for.\n"), had);
		if (gw_vs_pick_devices(j->inv, j->h, j->vm, &j->ans, &j->picked,
		                       &j->npicked, e) != 0)
			return -1;
		for (i = 0; i < j->npicked; i++)
			if (gw_answers_add_bdf(&j->ans, j->picked[i], "--bdf", e) != 0)
				return -1;
	}
	if (j->ans.nbdfs > 0 && j->ans.system_id == NULL)
		return vs_system_id(j, e);
	return 0;
}

/* --upgrade-hw: to the host's newest hardware version (or say so with
 * --dry-run), then read the inventory again. */
static int
vs_upgrade(vs_job *j, gw_err *e)
{
	int target = j->ans.esxi_version ? gw_esxi_to_hw(j->ans.esxi_version) : 0;

	if (!j->o->upgrade || target <= j->vm->hw_version || j->vm->hw_version <= 0)
		return 0;
	if (j->o->dry_run) {
		printf(_("Would upgrade the hardware version to vmx-%d.\n"), target);
		return 0;
	}
	if (gw_vs_upgrade(j->s, j->vm, target, vs_progress, NULL, e) != 0)
		return -1;
	j->upgraded = target;
	gw_vs_inventory_free(j->inv);
	if (gw_vs_inventory_get(j->s, j->inv, e) != 0 ||
	    (j->vm = gw_vs_find_vm(j->inv, j->name)) == NULL)
		return -1;
	/* the old inventory's host is gone with it */
	return (j->h = vm_host(j->inv, j->vm, e)) == NULL ? -1 : 0;
}

static void
vs_show_plan(const vs_job *j)
{
	if (j->upgraded)
		printf(_("Upgraded the hardware version to vmx-%d.\n"), j->upgraded);
	/* TRANSLATORS: the VM in gpuwiz vsphere apply: name, then server. */
	printf(_("VM: %s on %s\n"), j->vm->name, j->h->name);
	cli_print_gpus(&j->p);
	cli_print_changes(&j->p);
	cli_upgrade_hint(&j->p, j->o->upgrade);
}

static void
vs_show_spec(const gw_vs_plan_spec *spec)
{
	size_t i;

	/* TRANSLATORS: heading of what goes into ReconfigVM_Task. */
	printf("%s\n", _("Through the API (ReconfigVM_Task):"));
	for (i = 0; i < spec->nec; i++)
		printf("  extraConfig %s = \"%s\"\n", spec->keys[i], spec->vals[i]);
	if (spec->spec.reserve_locked == 1)
		printf("  memoryReservationLockedToMax = true\n");
	for (i = 0; i < spec->nadds; i++) {
		if (spec->adds[i].vgpu)
			printf("  + VirtualPCIPassthrough vgpu %s\n", spec->adds[i].vgpu);
		else
			printf("  + VirtualPCIPassthrough %s (%04x:%04x, systemId %s)\n",
			       spec->adds[i].id, spec->adds[i].vendor, spec->adds[i].device,
			       spec->adds[i].system_id ? spec->adds[i].system_id : "-");
	}
}

/* ReconfigVM_Task, unless there is nothing to send or --dry-run. */
static int
vs_send(vs_job *j, gw_err *e)
{
	size_t i;

	if (gw_vs_spec_empty(&j->spec)) {
		printf("%s\n", _("Nothing to change: the VM already has these settings."));
		return 0;
	}
	vs_show_spec(&j->spec);
	if (j->o->dry_run) {
		printf("%s\n", _("Dry run: nothing was sent (without --dry-run gpuwiz reconfigures the VM)."));
		return 0;
	}
	if (gw_vs_reconfigure(j->s, j->vm, &j->spec.spec, vs_progress, NULL, e) != 0)
		return -1;
	/* passthrough devices are now taken: the next VM's pick must see it
	 * (vGPUs and keys change nothing another VM reads) */
	for (i = 0; i < j->spec.nadds; i++)
		j->applied |= j->spec.adds[i].id != NULL;
	/* TRANSLATORS: after ReconfigVM_Task succeeded; %s is the VM. */
	printf(_("Reconfigured %s.\n"), j->vm->name);
	return 0;
}

/* The plan for the VM, shown; refused while it has failures unless
 * --force; then sent. */
static int
vs_plan_and_send(vs_job *j, const gw_table *t, gw_err *e)
{
	if ((j->v = gw_vs_vm_as_vmx(j->vm, e)) == NULL ||
	    gw_plan_build(&j->ans, t, j->v, &j->p, e) != 0)
		return EXIT_USAGE;
	j->have_plan = 1;
	if (gw_vs_spec_from_plan(&j->p, &j->spec, e) != 0)
		return EXIT_USAGE;
	vs_show_plan(j);
	if (gw_plan_has_errors(&j->p) && !j->o->force) {
		gw_err_set(e, _("%s: not changed: the plan has failures (FAIL above); fix them or use --force"),
		           j->vm->name);
		fflush(stdout);
		fprintf(stderr, "%s %s: %s\n", cli_progname, j->o->cmd, e->msg);
		e->msg[0] = '\0';
		return EXIT_FINDINGS;
	}
	if (vs_send(j, e) != 0)
		return EXIT_USAGE;
	return gw_plan_has_errors(&j->p) ? EXIT_FINDINGS : 0;
}

/* gpuwiz vsphere ... apply for one VM of inv (read again after an
 * upgrade or a reconfigure).  0, 1 (the plan has failures), or 2 with e. */
static int
vs_apply_vm(cli_opts *o, const gw_table *t, gw_vs *s, gw_vs_inventory *inv,
            const char *name, gw_err *e)
{
	vs_job j;
	int rc = EXIT_USAGE;

	memset(&j, 0, sizeof j);
	j.o = o;
	j.s = s;
	j.inv = inv;
	j.name = name;
	gw_answers_copy(&j.ans, &o->a);
	if (vs_locate(&j, e) == 0 && vs_devices(&j, e) == 0 &&
	    vs_upgrade(&j, e) == 0)
		rc = vs_plan_and_send(&j, t, e);
	gw_vs_free_strv(j.picked, j.npicked);
	gw_vs_plan_spec_free(&j.spec);
	if (j.have_plan)
		gw_plan_free(&j.p);
	gw_vmx_free(j.v);
	gw_answers_free(&j.ans);
	if (j.applied) {
		/* the server's view after a device was attached, for the
		 * next VM's pick */
		gw_err le;

		gw_vs_inventory_free(inv);
		if (gw_vs_inventory_get(s, inv, &le) != 0) {
			gw_err_set(e, "%s", le.msg);
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

/* apply, to each --vm in turn (one session, one inventory) */
static int
vs_apply(cli_opts *o, const gw_table *t, gw_vs *s, gw_vs_inventory *inv,
         gw_err *e)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < o->nvm_list; i++) {
		int r1 = vs_apply_vm(o, t, s, inv, o->vm_list[i], e);

		if (r1 == EXIT_USAGE) {
			/* one line per VM that failed; the others go on */
			cli_die_line(o->cmd, e->msg);
			e->msg[0] = '\0';
		}
		if (r1 > rc)
			rc = r1;
	}
	/* TRANSLATORS: the number of SOAP requests made. */
	printf(_("Round trips: %u\n"), gw_vs_round_trips(s));
	if (rc == EXIT_USAGE)
		e->msg[0] = '\0';   /* already said */
	return rc;
}

/* ---- the command -------------------------------------------------------- */

typedef int (*vs_sub_fn)(cli_opts *o, const gw_table *t, gw_vs *s,
                         gw_vs_inventory *inv, gw_err *e);

enum { VS_LIST, VS_APPLY, VS_PASSTHRU };

static const struct {
	const char *name;
	vs_sub_fn run;
} vs_subs[] = {
	[VS_LIST] = { "list", vs_list },
	[VS_APPLY] = { "apply", vs_apply },
	[VS_PASSTHRU] = { "passthru", vs_passthru },
};

/* The options each subcommand needs or refuses. */
static int
vs_args(cli_opts *o, const gw_table *t, int sub, gw_err *e)
{
	if (sub == VS_PASSTHRU && o->enable == NULL) {
		gw_err_set(e, "%s", _("--enable: missing (expected the device's address, e.g. 0000:3b:00.0; gpuwiz vsphere ... list shows them)"));
		return -1;
	}
	if (cli_vs_check_opts(o, e) != 0)
		return -1;
	if (sub == VS_LIST && (o->nitems || o->vm || o->upgrade || o->dry_run)) {
		gw_err_set(e, "%s", _("list takes no GPU, --vm, --upgrade-hw or --dry-run"));
		return -1;
	}
	if (sub == VS_APPLY && o->vm == NULL) {
		gw_err_set(e, "%s", _("--vm: missing (expected the VM's name; gpuwiz vsphere ... list shows them)"));
		return -1;
	}
	if (sub == VS_APPLY && cli_resolve_items(o, t, e) != 0)
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
	gw_vs *s;
	gw_vs_inventory inv;
	size_t sub;
	int rc = EXIT_USAGE;

	for (sub = 0; o->nargs == 1 && sub < sizeof vs_subs / sizeof vs_subs[0]; sub++)
		if (strcmp(o->args[0], vs_subs[sub].name) == 0)
			break;
	if (o->nargs != 1 || sub == sizeof vs_subs / sizeof vs_subs[0]) {
		gw_err_set(e, "%s", _("expected list, apply or passthru (gpuwiz vsphere --url URL --user USER list)"));
		return EXIT_USAGE;
	}
	if (vs_args(o, t, (int)sub, e) != 0)
		return EXIT_USAGE;
	if ((s = cli_vs_open(o, e)) == NULL)
		return EXIT_USAGE;
	memset(&inv, 0, sizeof inv);
	if (gw_vs_inventory_get(s, &inv, e) == 0)
		rc = vs_subs[sub].run(o, t, s, &inv, e);
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
	return rc;
}
