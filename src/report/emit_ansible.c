/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_ansible.c: the plan as an Ansible playbook that runs with Debian 12's
 * own ansible (community.vmware 3.7) and python3-pyvmomi (6.7.1).  That
 * pyVmomi has no VmomiJSONEncoder, which the collection's gather_vm_facts
 * and to_json call (module_utils/vmware.py): vmware_guest, vmware_guest_info
 * and vmware_guest_powerstate fail with it.  No module of the collection
 * adds a PCI device to a VM.  vmware_host_passthrough runs, but that
 * pyVmomi has no HostPciPassthruConfig.applyNow (vSphere API 7.0), so the
 * device it enables is active only after the host's reboot.  The playbook
 * runs gpuwiz instead, with the collection's connection variables: vsphere
 * list for the devices already active, vsphere passthru for the others,
 * vsphere apply for the VM part (the devices and the settings, one
 * ReconfigVM_Task), each task's "changed" from what gpuwiz did.  The document is a jansson value written by libyaml
 * (emit_yaml.c); the comments (each setting's reason and source) are put
 * in by line afterwards, since libyaml has no comment events.
 * doc/design.md 15.8.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M_ASSERT "ansible.builtin.assert"
#define M_CMD    "ansible.builtin.command"

typedef struct abuild {
	const gw_plan *p;
	const gw_emit_opts *o;
	emit_notes notes;
	int fail;              /* out of memory somewhere */
} abuild;

/* ---- small builders --------------------------------------------------- */

static void
put(abuild *ab, json_t *obj, const char *key, json_t *val)
{
	if (obj == NULL || emit_json_set(obj, key, val) != 0)
		ab->fail = 1;
}

static void
push(abuild *ab, json_t *arr, json_t *val)
{
	if (arr == NULL || emit_json_append(arr, val) != 0)
		ab->fail = 1;
}

static void
put_s(abuild *ab, json_t *obj, const char *key, const char *s)
{
	put(ab, obj, key, json_string(s));
}

/* A note whose text is malloc'ed (consumed). */
static void
note(abuild *ab, const char *anchor, char *text)
{
	emit_note_add(&ab->notes, anchor, text);
	free(text);
}

/* The task's name, then its module with args. */
static json_t *
task(abuild *ab, const char *name, const char *module, json_t *args)
{
	json_t *t = json_object();

	put_s(ab, t, "name", name);
	put(ab, t, module, args);
	return t;
}

/* ---- what the plan holds ---------------------------------------------- */

static int
kind_advanced(gw_set_kind k)
{
	return k == GW_SET_MMIO || k == GW_SET_UVM || k == GW_SET_P2P ||
	       k == GW_SET_CODE43;
}

static const gw_setting *
first_of(const gw_plan *p, gw_set_kind k)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == k && !p->settings[i].keep)
			return &p->settings[i];
	return NULL;
}

/* "pciPassthruN.id" in ESXi's decimal form back to the host address
 * (doc/design.md 15.4); 0 when s is not such a setting. */
static int
device_bdf(const gw_setting *s, char *buf, size_t len)
{
	const char *dot;
	unsigned d, b, v, f;
	char tail;

	if (s->kind != GW_SET_DEVICE || s->keep || s->value == NULL ||
	    (dot = strrchr(s->key, '.')) == NULL || strcmp(dot, ".id") != 0)
		return 0;
	if (sscanf(s->value, "%5u:%3u:%2u.%1u%c", &d, &b, &v, &f, &tail) != 4 ||
	    d > 0xffff || b > 0xff || v > 0x1f || f > 7)
		return 0;
	snprintf(buf, len, "%04x:%02x:%02x.%x", d, b, v, f);
	return 1;
}

/* Does the plan write Dynamic DirectPath I/O blocks (allowedDevices)? */
static int
plan_dynamic(const gw_plan *p)
{
	const char *dot;
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == GW_SET_DEVICE && !p->settings[i].keep &&
		    (dot = strrchr(p->settings[i].key, '.')) != NULL &&
		    strcmp(dot, ".allowedDevices") == 0)
			return 1;
	return 0;
}

/* The settings of kind k the plan writes, each as KEY = "VALUE": its
 * reason (source), in one paragraph; NULL when none. */
static char *
settings_why(const gw_plan *p, gw_set_kind k)
{
	gw_buf b;
	size_t i;
	int n = 0;

	gw_buf_init(&b);
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		char *why;

		if (s->kind != k || s->keep || !kind_advanced(s->kind))
			continue;
		why = emit_setting_why(s);
		gw_buf_printf(&b, "%s%s = \"%s\": %s", n++ ? " " : "", s->key,
		              s->value ? s->value : "", why);
		free(why);
	}
	if (n == 0) {
		gw_buf_free(&b);
		return NULL;
	}
	return gw_buf_steal(&b);
}

/* ---- the play's head ---------------------------------------------------- */

/* need_host: the plan has passthrough GPUs (--host names their host);
 * bdfs: and host addresses, which the passthru task takes it for. */
static json_t *
play_vars(abuild *ab, int need_host, int bdfs)
{
	json_t *v = json_object(), *vms = json_array();
	size_t i;

	for (i = 0; ab->o && i < ab->o->nvms; i++)
		push(ab, vms, json_string(ab->o->vms[i]));
	put(ab, v, "gpuwiz_vms", vms);
	put_s(ab, v, "gpuwiz_vm_args", "{{ ['--vm'] | product(gpuwiz_vms) | flatten }}");
	note(ab, "gpuwiz_vms:", gw_xstrdup(_("The VMs to change (gpuwiz snippet --vm NAME, repeated), or on the command line: -e '{\"gpuwiz_vms\": [\"NAME\"]}'.")));
	if (need_host && ab->o && ab->o->esxi_host && *ab->o->esxi_host) {
		put_s(ab, v, "gpuwiz_esxi_hostname", ab->o->esxi_host);
		note(ab, "gpuwiz_esxi_hostname:", gw_xstrdup(_("The ESXi host of the passthrough GPUs, as vCenter names it (gpuwiz snippet --host NAME).")));
	}
	if (bdfs)
		put_s(ab, v, "gpuwiz_host_args",
		      "{{ ['--host', gpuwiz_esxi_hostname] if gpuwiz_esxi_hostname is defined else [] }}");
	put_s(ab, v, "gpuwiz", "gpuwiz");
	note(ab, "gpuwiz:", gw_xstrdup(_("The gpuwiz program on the machine that runs this playbook, which attaches the GPUs (-e gpuwiz=PATH).")));
	/* the variables the collection reads itself (doc_fragments/vmware.py),
	 * once, for its module and for gpuwiz */
	put_s(ab, v, "gpuwiz_vmware_host", "{{ lookup('env', 'VMWARE_HOST') }}");
	note(ab, "gpuwiz_vmware_host:", gw_xstrdup(_("The connection comes from the variables the collection reads: VMWARE_HOST, VMWARE_PORT, VMWARE_USER, VMWARE_PASSWORD and VMWARE_VALIDATE_CERTS (false for a self-signed certificate); gpuwiz gets the same as its options, and the password as GPUWIZ_PASSWORD in its environment. No password is written in this file.")));
	put_s(ab, v, "gpuwiz_vmware_port",
	      "{{ lookup('env', 'VMWARE_PORT') | default(443, true) | int }}");
	put_s(ab, v, "gpuwiz_vmware_user", "{{ lookup('env', 'VMWARE_USER') }}");
	put_s(ab, v, "gpuwiz_vmware_validate_certs",
	      "{{ lookup('env', 'VMWARE_VALIDATE_CERTS') | default(true, true) | bool }}");
	/* gpuwiz's options for them; each line within yamllint's 120
	 * columns */
	/* an IPv6 address in brackets (RFC 3986, 3.2.2) */
	put_s(ab, v, "gpuwiz_v6",
	      "{{ ':' in gpuwiz_vmware_host and gpuwiz_vmware_host[:1] != '[' }}");
	put_s(ab, v, "gpuwiz_url_host",
	      "{{ '[' ~ gpuwiz_vmware_host ~ ']' if gpuwiz_v6 | bool else gpuwiz_vmware_host }}");
	put_s(ab, v, "gpuwiz_url", "https://{{ gpuwiz_url_host }}:{{ gpuwiz_vmware_port }}/sdk");
	put_s(ab, v, "gpuwiz_tls",
	      "{{ [] if gpuwiz_vmware_validate_certs | bool else ['--insecure'] }}");
	put_s(ab, v, "gpuwiz_dry", "{{ ['--dry-run'] if ansible_check_mode else [] }}");
	note(ab, "gpuwiz_dry:", gw_xstrdup(_("Under ansible-playbook --check, gpuwiz runs with --dry-run: it reads the inventory, says what it would change and changes nothing.")));
	put_s(ab, v, "gpuwiz_connection",
	      "{{ ['--url', gpuwiz_url, '--user', gpuwiz_vmware_user] + gpuwiz_tls }}");
	put_s(ab, v, "gpuwiz_cmd", "{{ [gpuwiz, 'vsphere'] + gpuwiz_connection }}");
	return v;
}

/* ---- the tasks ------------------------------------------------------------ */

static void
t_checks(abuild *ab, json_t *tasks)
{
	json_t *a = json_object(), *that = json_array();

	push(ab, that, json_string("gpuwiz_vms | length > 0"));
	put(ab, a, "that", that);
	put_s(ab, a, "fail_msg", _("No VM is named: set gpuwiz_vms (-e '{\"gpuwiz_vms\": [\"NAME\"]}')."));
	push(ab, tasks, task(ab, _("Stop unless VMs are named"), M_ASSERT, a));
}

/* The host addresses of the GPUs the plan adds (a JSON list). */
static json_t *
plan_bdfs(abuild *ab)
{
	json_t *devs = json_array();
	char bdf[32];
	size_t i;

	for (i = 0; i < ab->p->nsettings; i++)
		if (device_bdf(&ab->p->settings[i], bdf, sizeof bdf))
			push(ab, devs, json_string(bdf));
	return devs;
}

/* A task that runs gpuwiz vsphere with the connection's options, then
 * the words of argv_tail (a Jinja list expression, without braces). */
static json_t *
gpuwiz_task(abuild *ab, const char *name, const char *argv_tail)
{
	json_t *a = json_object();
	char *argv = gw_xasprintf("{{ gpuwiz_cmd + %s }}",
	                          argv_tail);

	put_s(ab, a, "argv", argv);
	free(argv);
	return task(ab, name, M_CMD, a);
}

/* Passthrough on for the host addresses of the GPUs the plan adds, those
 * not active yet (gpuwiz vsphere list --json), as esxcli hardware pci
 * pcipassthru set -d ADDR -e true -a does on the host. */
static void
t_passthrough(abuild *ab, json_t *tasks)
{
	json_t *t, *devs = plan_bdfs(ab), *vars;

	if (json_array_size(devs) == 0) {
		json_decref(devs);
		return;
	}
	note(ab, M_CMD ":", gw_xstrdup(_("Which of the host's GPUs have passthrough active already (gpuwiz vsphere list, which changes nothing).")));
	t = gpuwiz_task(ab, _("Read the host's GPUs (gpuwiz vsphere list)"),
	                "['list', '--json']");
	put_s(ab, t, "register", "gpuwiz_list");
	put_s(ab, t, "changed_when", "false");
	/* it only reads: run in check mode too, for the task after it */
	put(ab, t, "check_mode", json_false());
	push(ab, tasks, t);

	t = gpuwiz_task(ab, _("Enable passthrough of the host's GPUs (gpuwiz vsphere passthru)"),
	                "['passthru', '--enable', item] + gpuwiz_host_args + gpuwiz_dry");
	put(ab, t, "check_mode", json_false());
	note(ab, M_CMD ":", gw_xasprintf("%s%s", _("Passthrough on for the GPUs at these host addresses that are not active yet, as esxcli hardware pci pcipassthru set -d ADDR -e true -a does on the host: at once where ESXi can (vSphere API 7.0 applyNow), else after a reboot, which gpuwiz then says (source: VMware esxcli reference). The collection's vmware_host_passthrough cannot apply it at once with Debian 12's python3-pyvmomi."),
	     ab->o && ab->o->esxi_host ? "" : _(" Where vCenter has several hosts, name the GPUs' host: -e gpuwiz_esxi_hostname=NAME (as vCenter names it).")));
	vars = json_object();
	put(ab, vars, "gpuwiz_bdfs", devs);
	put_s(ab, vars, "gpuwiz_hosts",
	      "{{ (gpuwiz_list.stdout | from_json).hosts }}");
	put_s(ab, vars, "gpuwiz_all", "{{ gpuwiz_hosts | map(attribute='name') | list }}");
	put_s(ab, vars, "gpuwiz_names",
	      "{{ [gpuwiz_esxi_hostname] if gpuwiz_esxi_hostname is defined else gpuwiz_all }}");
	put_s(ab, vars, "gpuwiz_devices",
	      "{{ gpuwiz_hosts | selectattr('name', 'in', gpuwiz_names) | map(attribute='gpus') | flatten }}");
	put_s(ab, vars, "gpuwiz_active",
	      "{{ gpuwiz_devices | selectattr('passthru_active') | map(attribute='bdf') | list }}");
	put(ab, t, "vars", vars);
	put_s(ab, t, "loop", "{{ gpuwiz_bdfs }}");
	put_s(ab, t, "when", "item not in gpuwiz_active");
	put_s(ab, t, "failed_when", "gpuwiz_passthru.rc != 0");
	put_s(ab, t, "register", "gpuwiz_passthru");
	push(ab, tasks, t);
}

/* An option of gpuwiz with its value (NULL: none), with a note above it
 * (taken; NULL: none). */
static void
arg(abuild *ab, json_t *list, const char *opt, const char *val, char *why)
{
	char *anchor;

	if (why != NULL) {
		anchor = gw_xasprintf("\"%s\"", opt);
		note(ab, anchor, why);
		free(anchor);
	}
	push(ab, list, json_string(opt));
	if (val != NULL)
		push(ab, list, json_string(val));
}

/* The GPUs the plan adds, as gpuwiz vsphere apply's options; the first
 * carries the MMIO settings' reasons. */
static void
gpu_args(abuild *ab, json_t *list)
{
	const gw_plan *p = ab->p;
	char *why = settings_why(p, GW_SET_MMIO);
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		const char *opt = g->profile ? "--vgpu" : g->gpu || g->vram_gb <= 0
		                  ? "--gpu" : "--vram";
		char *val;

		if (g->existing)
			continue;
		if (g->profile)
			val = gw_xstrdup(g->profile);
		else if (g->gpu)
			val = gw_xstrdup(g->gpu->id);
		else if (g->vram_gb > 0)
			val = gw_xasprintf("%d", g->vram_gb);
		else
			val = gw_xstrdup(g->label);
		if (g->count > 1) {
			char *v2 = gw_xasprintf("%s=%d", val, g->count);

			free(val);
			val = v2;
		}
		arg(ab, list, opt, val, why);
		why = NULL;
		free(val);
	}
	free(why);
}

/* gpuwiz vsphere apply's options for the plan (after --vm): the GPUs,
 * their host addresses, the settings' switches, the hardware version. */
static json_t *
plan_args(abuild *ab)
{
	const gw_plan *p = ab->p;
	const gw_answers *a = ab->o ? ab->o->answers : NULL;
	json_t *list = json_array();
	char bdf[32], num[32];
	size_t i;

	gpu_args(ab, list);
	/* --bdf names one VM's devices (vsphere apply refuses it with
	 * several --vm); without it gpuwiz picks free ones for each VM */
	for (i = 0; (ab->o == NULL || ab->o->nvms <= 1) && i < p->nsettings; i++)
		if (device_bdf(&p->settings[i], bdf, sizeof bdf))
			arg(ab, list, "--bdf", bdf, NULL);
	if (plan_dynamic(p))
		arg(ab, list, "--dynamic", NULL, gw_xstrdup(_("Dynamic DirectPath I/O: the GPUs by their PCI ids, which vCenter places on a host that has them free (vCenter 7 and later, hardware version 17).")));
	if (first_of(p, GW_SET_UVM))
		arg(ab, list, "--uvm", NULL, settings_why(p, GW_SET_UVM));
	if (first_of(p, GW_SET_P2P))
		arg(ab, list, "--p2p", NULL, settings_why(p, GW_SET_P2P));
	if (first_of(p, GW_SET_CODE43))
		arg(ab, list, "--code43", NULL, settings_why(p, GW_SET_CODE43));
	if (a != NULL && !a->reserve)
		arg(ab, list, "--no-reserve", NULL, NULL);
	if (a != NULL && a->mmio_gb > 0) {
		snprintf(num, sizeof num, "%llu", (unsigned long long)a->mmio_gb);
		arg(ab, list, "--mmio-gb", num, NULL);
		if (a->allow_below_rule)
			arg(ab, list, "--allow-below-rule", NULL, NULL);
	}
	if (a != NULL && a->esxi_version && p->hw_target > 0)
		arg(ab, list, "--esxi", a->esxi_version,
		    gw_xasprintf(_("Hardware version %d, the newest ESXi %s supports (source: Broadcom KB 1003746): --upgrade-hw raises the VM to it, powered off only, and one-way. A VM with a newer version is refused: nothing is changed."),
		                 p->hw_target, a->esxi_version));
	if (p->hw_target > 0)
		arg(ab, list, "--upgrade-hw", NULL, NULL);
	return list;
}

/* The VM part: gpuwiz vsphere apply, its devices and settings in one
 * ReconfigVM_Task per VM; "changed" when a VM was reconfigured or
 * upgraded (its --json: cmd_vsphere.c), failed on a non-zero exit status.
 * The command line is put together from task variables, each line within
 * yamllint's 120 columns. */
static void
t_apply(abuild *ab, json_t *tasks)
{
	json_t *t = json_object(), *a = json_object(), *vars = json_object(), *devs;
	const gw_setting *mem = first_of(ab->p, GW_SET_MEM);
	char *why;

	put_s(ab, t, "name", _("Attach the GPUs and write the VMs' settings (gpuwiz vsphere apply)"));
	why = mem ? emit_setting_why(mem) : gw_xstrdup(_("Reserve all guest memory: passthrough and vGPUs need it (source: Broadcom KB 309986)."));
	/* TRANSLATORS: %s the memory reservation's reason, a sentence. */
	note(ab, M_CMD ":", gw_xasprintf(_("The collection has no module that adds a PCI device (DirectPath I/O or a vGPU) to a VM, and vmware_guest, which writes advanced settings, fails with Debian 12's python3-pyvmomi (no VmomiJSONEncoder): gpuwiz vsphere apply attaches the GPUs and writes the plan's settings through the vSphere API, one ReconfigVM_Task per VM, powered off only. %s A VM that has them already is left as it is (changed: false); a plan with failures changes nothing and fails the task."),
	                                 why));
	free(why);
	put_s(ab, a, "argv", "{{ gpuwiz_cmd + ['apply'] + gpuwiz_vm_args + gpuwiz_plan + gpuwiz_dry + ['--json'] }}");
	put(ab, t, M_CMD, a);
	put(ab, t, "check_mode", json_false());
	put(ab, vars, "gpuwiz_plan", plan_args(ab));
	note(ab, "gpuwiz_result:", gw_xstrdup(_("What gpuwiz did to each VM (its --json): changed when one was reconfigured or upgraded, or under --check would be.")));
	put_s(ab, vars, "gpuwiz_result",
	      "{{ (gpuwiz_apply.stdout | default('{}', true) | from_json).vms | default([]) }}");
	put_s(ab, vars, "gpuwiz_reconfigured",
	      "{{ gpuwiz_result | selectattr('result', 'in', ['reconfigured', 'would_change']) | list }}");
	put_s(ab, vars, "gpuwiz_upgraded",
	      "{{ gpuwiz_result | selectattr('upgraded_to', 'defined') | list }}");
	put(ab, t, "vars", vars);
	devs = plan_bdfs(ab);
	if (json_array_size(devs) > 0) {
		/* gpuwiz needs the host's id of a device whose passthrough is
		 * active: under --check, one the task before would enable is
		 * not, so the attach cannot be previewed */
		note(ab, "when:", gw_xstrdup(_("Under --check, skipped when passthrough would first be enabled: the device's id on the host exists only once it is active.")));
		put_s(ab, t, "when", "not (ansible_check_mode and gpuwiz_passthru is changed)");
	}
	json_decref(devs);
	put_s(ab, t, "register", "gpuwiz_apply");
	put_s(ab, t, "changed_when", "gpuwiz_reconfigured | length > 0 or gpuwiz_upgraded | length > 0");
	put_s(ab, t, "failed_when", "gpuwiz_apply.rc != 0");
	push(ab, tasks, t);
}

/* ---- the playbook ----------------------------------------------------------- */

static int
ans_check(const gw_plan *p, const gw_emit_opts *o, int *npt, int *nvg,
          gw_err *e)
{
	size_t i;
	const char *s;

	if (emit_count_listed(p, "ansible", 0, npt, nvg, e) != 0)
		return -1;
	for (i = 0; o && i < o->nvms; i++) {
		for (s = o->vms[i]; s && *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				break;
		if (o->vms[i] == NULL || *o->vms[i] == '\0' || *s) {
			gw_err_set(e, _("ansible: --vm: '%.64s' is not a VM name (expected a name without control characters)"),
			           o->vms[i] ? o->vms[i] : "");
			return -1;
		}
	}
	for (i = 0; i < p->nsettings; i++)
		if (kind_advanced(p->settings[i].kind) &&
		    emit_setting_check(&p->settings[i], "ansible", e) != 0)
			return -1;
	return 0;
}

static json_t *
ans_play(abuild *ab, int npt)
{
	json_t *play = json_object(), *tasks = json_array(), *env;
	char bdf[32];
	size_t i;
	int bdfs = 0;
	char *name = gw_xasprintf(_("gpuwiz: GPUs for the VMs (plan %s)"),
	                          ab->p->name ? ab->p->name : "-");

	note(ab, NULL, gw_xasprintf(_("gpuwiz: an Ansible playbook for plan %s, for the ansible and python3-pyvmomi of Debian 12 (community.vmware collection 3.7) and gpuwiz on the machine that runs it. Power the VMs off first, then: ansible-playbook FILE"),
	                            ab->p->name ? ab->p->name : "-"));
	put_s(ab, play, "name", name);
	free(name);
	put_s(ab, play, "hosts", "localhost");
	put_s(ab, play, "connection", "local");
	put(ab, play, "gather_facts", json_false());
	for (i = 0; i < ab->p->nsettings && !bdfs; i++)
		bdfs = device_bdf(&ab->p->settings[i], bdf, sizeof bdf);
	put(ab, play, "vars", play_vars(ab, npt > 0, bdfs));
	env = json_object();
	put_s(ab, env, "GPUWIZ_PASSWORD", "{{ lookup('env', 'VMWARE_PASSWORD') }}");
	put(ab, play, "environment", env);
	t_checks(ab, tasks);
	t_passthrough(ab, tasks);
	t_apply(ab, tasks);
	put(ab, play, "tasks", tasks);
	return play;
}

int
gw_emit_ansible(const gw_plan *p, const gw_emit_opts *o, char **out,
                gw_err *e)
{
	abuild ab;
	json_t *root;
	char *yaml = NULL;
	int npt, nvg, rc = -1;

	if (p == NULL || out == NULL) {
		gw_err_set(e, _("ansible: no plan to render"));
		return -1;
	}
	if (ans_check(p, o, &npt, &nvg, e) != 0)
		return -1;
	memset(&ab, 0, sizeof ab);
	ab.p = p;
	ab.o = o;
	root = json_array();
	push(&ab, root, ans_play(&ab, npt));
	if (ab.fail)
		gw_err_set(e, _("%s: out of memory"), "ansible");
	else if (emit_yaml_render(root, "ansible", &yaml, e) == 0)
		rc = emit_yaml_comment(yaml, &ab.notes, "ansible", out, e);
	free(yaml);
	json_decref(root);
	emit_notes_free(&ab.notes);
	return rc;
}

/* The playbook with the VM's name in JSON for -e (c->vm).  When gpuwiz
 * changes the VM's own .vmx (and its host) itself, the playbook is the
 * way to the same settings elsewhere: said so, for other VMs by name. */
void
gw_next_ansible(const gw_next_ctx *c)
{
	char *cmd = gw_xasprintf("ansible-playbook %s -e '{\"gpuwiz_vms\": [\"%s\"]}'",
	                         c->path, c->vmx_patched ? "NAME" : c->vm);

	if (c->vmx_patched)
		/* TRANSLATORS: %1$s the environment variables, %2$s a
		 * command; gpuwiz has changed (or changes) the VM open. */
		c->push(c->list, gw_xasprintf(_("Only for the same settings on other VMs (gpuwiz changes this VM and its host itself): Ansible (community.vmware), with %1$s set and those VMs powered off: %2$s"),
		                              "VMWARE_HOST, VMWARE_USER, VMWARE_PASSWORD",
		                              cmd));
	else
		/* TRANSLATORS: %1$s the environment variables, %2$s a
		 * command. */
		c->push(c->list, gw_xasprintf(_("Ansible (community.vmware): with %1$s set and the VMs powered off: %2$s"),
		                              "VMWARE_HOST, VMWARE_USER, VMWARE_PASSWORD",
		                              cmd));
	free(cmd);
}
