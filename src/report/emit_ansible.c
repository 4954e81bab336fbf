/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_ansible.c: the plan as an Ansible playbook for the community.vmware
 * collection as Debian 12 ships it (3.7): vmware_guest_info,
 * vmware_host_passthrough, vmware_guest_vgpu and vmware_guest, with only
 * the options that collection documents (ansible-doc).  The document is a
 * jansson value written by libyaml (emit_yaml.c); the comments (each
 * setting's reason and source, what the collection cannot do) are put in
 * by line afterwards, since libyaml has no comment events.  doc/design.md
 * 15.8.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M_ASSERT "ansible.builtin.assert"
#define M_INFO   "community.vmware.vmware_guest_info"
#define M_PASS   "community.vmware.vmware_host_passthrough"
#define M_VGPU   "community.vmware.vmware_guest_vgpu"
#define M_GUEST  "community.vmware.vmware_guest"
/* the collection's action group (meta/runtime.yml): all four modules */
#define M_GROUP  "group/community.vmware.vmware"

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

/* The task's name, then its module with args, then the loop over the VMs
 * when per_vm. */
static json_t *
task(abuild *ab, const char *name, const char *module, json_t *args,
     int per_vm)
{
	json_t *t = json_object();

	put_s(ab, t, "name", name);
	put(ab, t, module, args);
	if (per_vm)
		put_s(ab, t, "loop", "{{ gpuwiz_vms }}");
	return t;
}

/* datacenter and name, which every per-VM module takes */
static json_t *
vm_args(abuild *ab)
{
	json_t *a = json_object();

	put_s(ab, a, "datacenter", "{{ gpuwiz_datacenter }}");
	put_s(ab, a, "name", "{{ item }}");
	return a;
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
		if (p->settings[i].kind == k)
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

/* A word for a shell command line: as it is when it is safe, else in
 * single quotes ('\'' for a quote). */
static void
sh_word(gw_buf *b, const char *s)
{
	const char *c;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                 "0123456789._-+=:/@%,") == strlen(s)) {
		gw_buf_puts(b, s);
		return;
	}
	gw_buf_puts(b, "'");
	for (c = s; *c; c++)
		if (*c == '\'')
			gw_buf_puts(b, "'\\''");
		else
			gw_buf_add(b, c, 1);
	gw_buf_puts(b, "'");
}

/* The gpuwiz command that attaches what the collection cannot. */
static char *
apply_command(const abuild *ab)
{
	const gw_plan *p = ab->p;
	gw_buf b;
	char bdf[32];
	size_t i;

	gw_buf_init(&b);
	gw_buf_puts(&b, "gpuwiz vsphere --url https://HOST/sdk --user USER apply");
	for (i = 0; ab->o && i < ab->o->nvms; i++) {
		gw_buf_puts(&b, " --vm ");
		sh_word(&b, ab->o->vms[i]);
	}
	if (ab->o == NULL || ab->o->nvms == 0)
		gw_buf_puts(&b, " --vm NAME");
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->existing)
			continue;
		gw_buf_printf(&b, " --%s %s", g->profile ? "vgpu" : "gpu",
		              g->profile ? g->profile
		              : g->gpu ? g->gpu->id : g->label);
		if (g->count > 1)
			gw_buf_printf(&b, "=%d", g->count);
	}
	if (plan_dynamic(p))
		gw_buf_puts(&b, " --dynamic");
	/* --bdf names one VM's devices (vsphere apply refuses it with
	 * several --vm); without it gpuwiz picks free ones for each VM */
	for (i = 0; (ab->o == NULL || ab->o->nvms <= 1) && i < p->nsettings; i++)
		if (device_bdf(&p->settings[i], bdf, sizeof bdf))
			gw_buf_printf(&b, " --bdf %s", bdf);
	return gw_buf_steal(&b);
}

/* ---- the play's head ---------------------------------------------------- */

static json_t *
play_vars(abuild *ab, int need_host)
{
	json_t *v = json_object(), *vms = json_array();
	size_t i;

	for (i = 0; ab->o && i < ab->o->nvms; i++)
		push(ab, vms, json_string(ab->o->vms[i]));
	put(ab, v, "gpuwiz_vms", vms);
	note(ab, "gpuwiz_vms:", gw_xstrdup(_("The VMs to change (gpuwiz snippet --vm NAME, repeated), or on the command line: -e '{\"gpuwiz_vms\": [\"NAME\"]}'.")));
	put_s(ab, v, "gpuwiz_datacenter", "ha-datacenter");
	note(ab, "gpuwiz_datacenter:", gw_xstrdup(_("The VMs' datacenter: ha-datacenter on a standalone ESXi host, else its name in vCenter (-e gpuwiz_datacenter=NAME).")));
	if (need_host && ab->o && ab->o->esxi_host && *ab->o->esxi_host) {
		put_s(ab, v, "gpuwiz_esxi_hostname", ab->o->esxi_host);
		note(ab, "gpuwiz_esxi_hostname:", gw_xstrdup(_("The ESXi host of the passthrough GPUs, as vCenter names it (gpuwiz snippet --host NAME).")));
	}
	return v;
}

/* The connection: the variables the collection reads itself
 * (doc_fragments/vmware.py), through module_defaults so a play-level -e
 * can still override them; never a password in the file. */
static json_t *
play_defaults(abuild *ab)
{
	json_t *md = json_object(), *c = json_object();

	put_s(ab, c, "hostname", "{{ lookup('env', 'VMWARE_HOST') }}");
	put_s(ab, c, "username", "{{ lookup('env', 'VMWARE_USER') }}");
	put_s(ab, c, "password", "{{ lookup('env', 'VMWARE_PASSWORD') }}");
	put_s(ab, c, "validate_certs",
	      "{{ lookup('env', 'VMWARE_VALIDATE_CERTS') | default(true, true) | bool }}");
	put_s(ab, c, "port",
	      "{{ lookup('env', 'VMWARE_PORT') | default(443, true) | int }}");
	put(ab, md, M_GROUP, c);
	note(ab, "module_defaults:", gw_xstrdup(_("The connection comes from the variables the collection reads: VMWARE_HOST, VMWARE_USER, VMWARE_PASSWORD, VMWARE_VALIDATE_CERTS (false for a self-signed certificate) and VMWARE_PORT. No password is written in this file.")));
	return md;
}

/* ---- the tasks ------------------------------------------------------------ */

static void
t_checks(abuild *ab, json_t *tasks)
{
	json_t *a = json_object(), *that = json_array();

	push(ab, that, json_string("gpuwiz_vms | length > 0"));
	put(ab, a, "that", that);
	put_s(ab, a, "fail_msg", _("No VM is named: set gpuwiz_vms (-e '{\"gpuwiz_vms\": [\"NAME\"]}')."));
	push(ab, tasks, task(ab, _("Stop unless VMs are named"), M_ASSERT, a, 0));
	note(ab, M_INFO ":", gw_xstrdup(_("Every VM must exist: vmware_guest with state present would create a missing one.")));
	push(ab, tasks, task(ab, _("Find the VMs"), M_INFO, vm_args(ab), 1));
}

/* Passthrough on for the host addresses of the GPUs the plan adds. */
static void
t_passthrough(abuild *ab, json_t *tasks)
{
	json_t *a, *devs = json_array();
	char bdf[32];
	size_t i, n = 0;

	for (i = 0; i < ab->p->nsettings; i++) {
		json_t *d;

		if (!device_bdf(&ab->p->settings[i], bdf, sizeof bdf))
			continue;
		d = json_object();
		put_s(ab, d, "device", bdf);
		push(ab, devs, d);
		n++;
	}
	if (n == 0) {
		json_decref(devs);
		return;
	}
	a = json_object();
	put_s(ab, a, "esxi_hostname", "{{ gpuwiz_esxi_hostname }}");
	put(ab, a, "devices", devs);
	put_s(ab, a, "state", "present");
	note(ab, M_PASS ":", gw_xasprintf("%s%s", _("Passthrough on for the GPUs at these host addresses, as esxcli hardware pci pcipassthru set -d ADDR -e true -a does on the host: at once where ESXi can, else after a reboot (source: VMware esxcli reference)."),
	     ab->o && ab->o->esxi_host ? "" : _(" Name the host: -e gpuwiz_esxi_hostname=NAME (as vCenter names it).")));
	push(ab, tasks, task(ab, _("Enable passthrough of the host's GPUs"),
	                     M_PASS, a, 0));
}

/* One task per vGPU profile the plan adds: the module adds one vGPU of a
 * profile to a VM and is idempotent only so. */
static void
t_vgpus(abuild *ab, json_t *tasks)
{
	const gw_plan *p = ab->p;
	size_t i, k;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		json_t *a;
		char *name, *cmd, *why;
		int n = 0, seen = 0;

		if (g->existing || g->profile == NULL)
			continue;
		for (k = 0; k < p->ngpus; k++)
			if (!p->gpus[k].existing &&
			    emit_str_eq_null(p->gpus[k].profile, g->profile)) {
				seen |= k < i;
				n += p->gpus[k].count;
			}
		if (seen)
			continue;
		a = vm_args(ab);
		put_s(ab, a, "vgpu", g->profile);
		put_s(ab, a, "state", "present");
		why = gw_xasprintf(_("vGPU profile %s, as ESXi names it (source: vSphere API, VirtualPCIPassthroughVmiopBackingInfo.vgpu); the VM must be powered off."),
		                   g->profile);
		if (n > 1) {
			cmd = apply_command(ab);
			/* TRANSLATORS: %1$s the text before, %2$d a count, %3$s a command */
			note(ab, M_VGPU ":", gw_xasprintf(_("%1$s The module adds only one vGPU of a profile to a VM: for all %2$d, run %3$s on the VMs first (this task then finds them)."),
			                                  why, n, cmd));
			free(cmd);
		} else {
			note(ab, M_VGPU ":", gw_xstrdup(why));
		}
		free(why);
		name = gw_xasprintf(_("Add vGPU %s"), g->profile);
		push(ab, tasks, task(ab, name, M_VGPU, a, 1));
		free(name);
	}
}

static json_t *
advanced_settings(abuild *ab)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < ab->p->nsettings; i++) {
		const gw_setting *s = &ab->p->settings[i];
		json_t *kv;
		char *anchor;

		if (!kind_advanced(s->kind))
			continue;
		kv = json_object();
		put_s(ab, kv, "key", s->key);
		put_s(ab, kv, "value", s->value);
		push(ab, list, kv);
		anchor = gw_xasprintf("key: \"%s\"", s->key);
		note(ab, anchor, emit_setting_why(s));
		free(anchor);
	}
	return list;
}

/* hardware: the reservation, nested virtualization off, the version. */
static json_t *
hardware(abuild *ab, int ngpu)
{
	const gw_setting *mem = first_of(ab->p, GW_SET_MEM);
	const gw_setting *nest = first_of(ab->p, GW_SET_NESTED);
	json_t *h = json_object();
	char v[16];

	if (mem || ngpu > 0) {
		put(ab, h, "memory_reservation_lock", json_true());
		note(ab, "memory_reservation_lock:", mem ? emit_setting_why(mem)
		     : gw_xstrdup(_("Reserve all guest memory (memoryReservationLockedToMax): passthrough and vGPUs need it (source: Broadcom KB 309986).")));
	}
	if (nest) {
		put(ab, h, "nested_virt", json_false());
		note(ab, "nested_virt:", emit_setting_why(nest));
	}
	if (ab->p->hw_target > 0) {
		snprintf(v, sizeof v, "%d", ab->p->hw_target);
		put_s(ab, h, "version", v);
		note(ab, "version:", gw_xasprintf(_("Hardware version %d, the newest the host's ESXi release supports (source: Broadcom KB 1003746). Only with the VM powered off, and one-way: keep a copy of the VM's .vmx first (a VM with a DirectPath device cannot have snapshots). vmware_guest never downgrades: on a VM with a newer version this task fails and changes nothing."),
		                                  ab->p->hw_target));
	}
	return h;
}

static void
t_guest(abuild *ab, json_t *tasks, int npt, int ngpu)
{
	json_t *a = vm_args(ab), *h;
	char *cmd, *why = gw_xstrdup(_("The plan's settings for the VM; it must be powered off."));

	if (npt > 0) {
		cmd = apply_command(ab);
		if (plan_dynamic(ab->p))
			/* TRANSLATORS: %1$s the text before, %2$s a gpuwiz
			 * command */
			note(ab, M_GUEST ":", gw_xasprintf(_("%1$s The collection has no module that adds a PCI device to a VM, fixed or Dynamic DirectPath I/O (community.vmware: none takes VirtualPCIPassthroughDynamicBackingInfo): attach the GPUs by their PCI ids through vCenter with %2$s (it writes these settings too), or by hand with the VM off: vSphere Client, Edit Settings > Add New Device > PCI Device, the GPU under Dynamic DirectPath IO."),
			                                   why, cmd));
		else
			/* TRANSLATORS: %1$s the text before, %2$s a gpuwiz
			 * command */
			note(ab, M_GUEST ":", gw_xasprintf(_("%1$s The collection has no module that adds a DirectPath PCI device to a VM: attach the passthrough GPUs with %2$s (it writes these settings too)."),
			                                   why, cmd));
		free(cmd);
	} else {
		note(ab, M_GUEST ":", gw_xstrdup(why));
	}
	free(why);
	put_s(ab, a, "state", "present");
	put(ab, a, "advanced_settings", advanced_settings(ab));
	h = hardware(ab, ngpu);
	if (json_object_size(h) > 0)
		put(ab, a, "hardware", h);
	else
		json_decref(h);
	push(ab, tasks, task(ab, _("Set the VM's GPU settings"), M_GUEST, a, 1));
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
ans_play(abuild *ab, int npt, int nvg)
{
	json_t *play = json_object(), *tasks = json_array();
	char *name = gw_xasprintf(_("gpuwiz: GPUs for the VMs (plan %s)"),
	                          ab->p->name ? ab->p->name : "-");

	note(ab, NULL, gw_xasprintf(_("gpuwiz: an Ansible playbook for plan %s (community.vmware collection 3.7). Power the VMs off first, then: ansible-playbook FILE"),
	                            ab->p->name ? ab->p->name : "-"));
	put_s(ab, play, "name", name);
	free(name);
	put_s(ab, play, "hosts", "localhost");
	put_s(ab, play, "connection", "local");
	put(ab, play, "gather_facts", json_false());
	put(ab, play, "vars", play_vars(ab, npt > 0));
	put(ab, play, "module_defaults", play_defaults(ab));
	t_checks(ab, tasks);
	t_passthrough(ab, tasks);
	t_vgpus(ab, tasks);
	t_guest(ab, tasks, npt, npt + nvg);
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
	push(&ab, root, ans_play(&ab, npt, nvg));
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
