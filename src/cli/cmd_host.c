/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_host.c: the commands that read or change a host: gpus, check, vms,
 * passthru.  The host is the one the options name (hostctx.c).
 */
#include "cli_int.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "lspci.h"
#include "gpus_print.h"
#include "textesc.h"
#include "write_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gpus (CMD_NOARGS): the host's display-class devices (gw_host_gpus:
 * libpci under --sysroot or /, esxcli over --ssh or on the ESXi shell, a
 * sample host, every host of a server through --url), or those of a saved
 * `esxcli hardware pci list` (--esxcli-file) or `lspci -nnvv` capture
 * (--lspci-file), all printed alike. */
int
cmd_gpus(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_gpu_list l;
	gw_host *h = NULL;
	gw_buf b;
	int rc;

	if (cli_host_check(o, e) != 0)
		return EXIT_USAGE;
	if (o->lspci_file != NULL) {
		rc = gw_lspci_gpu_list_read_file(t, o->lspci_file, &l, e);
	} else if (o->esxcli_file != NULL) {
		rc = gw_esxi_gpu_list_read_file(t, o->esxcli_file, &l, e);
	} else {
		if ((o->url ? cli_vs_host_open(o, &h, e)
		            : cli_host_open(o, GW_HOST_NEED_ANY, &h, e)) != 0)
			return EXIT_USAGE;
		rc = gw_host_gpus(h, t, &l, e);
	}
	if (rc != 0) {
		gw_host_close(h);
		return EXIT_USAGE;
	}
	gw_buf_init(&b);
	gw_gpus_output(&b, &l, o->json);
	fputs(b.data, stdout);
	gw_buf_free(&b);
	gw_gpu_list_free(&l);
	gw_host_close(h);
	return 0;
}

/* check (CMD_NOARGS): the host's readiness rows: this Linux host like
 * virt-host-validate, or an ESXi host's passthrough readiness (the
 * wizard's host step rows). */
int
cmd_check(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_host *h;
	gw_host_probe p;
	int rc;

	/* --url: the checks of every host of a vCenter or ESXi server,
	 * through the API */
	if ((o->url ? cli_vs_host_open(o, &h, e)
	            : cli_host_open(o, GW_HOST_NEED_ANY, &h, e)) != 0)
		return EXIT_USAGE;
	gw_host_probe_all(h, t, &p);
	if (p.checks_error != NULL) {
		gw_err_set(e, "%s", p.checks_error);
		rc = EXIT_USAGE;
	} else {
		gw_checks_print(stdout, p.checks, p.nchecks, o->json);
		rc = p.fails > 0 ? EXIT_FINDINGS : 0;
	}
	gw_host_probe_free(&p);
	gw_host_close(h);
	return rc;
}

static void
vms_json(const char *label, const gw_vm_list *l, const gw_power *pw)
{
	json_t *j = json_object(), *arr = json_array();
	size_t i;

	for (i = 0; i < l->n; i++) {
		const gw_vm *vm = &l->vms[i];
		json_t *x = json_object();

		json_object_set_new(x, "vmid", json_integer((json_int_t)vm->vmid));
		json_object_set_new(x, "name", gw_json_text(vm->name));
		json_object_set_new(x, "file", gw_json_text(vm->file));
		json_object_set_new(x, "datastore", gw_json_text(vm->datastore));
		json_object_set_new(x, "path", gw_json_text(vm->path));
		json_object_set_new(x, "guest_os", gw_json_text(vm->guest_os));
		json_object_set_new(x, "hw_version", vm->hw_version > 0 ?
		                    json_integer(vm->hw_version) : json_null());
		json_object_set_new(x, "power", json_string(cli_power_word(pw[i])));
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "host", gw_json_text(label));
	json_object_set_new(j, "vms", arr);
	gw_json_print(j);
	json_decref(j);
}

/* v in decimal ("%lu") in buf (n bytes, at least 21); its start. */
static const char *
ulong_text(char *buf, size_t n, unsigned long v)
{
	char *p = buf + n - 1;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return p;
}

/* The n bytes of s at p, then blanks up to width bytes (printf's
 * "%-WIDTHs"); past them. */
static char *
put_padded(char *p, const char *s, size_t n, size_t width)
{
	memcpy(p, s, n);
	p += n;
	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	return p;
}

static void
vms_text(const char *label, const gw_vm_list *l, const gw_power *pw)
{
	const char *names[GW_POWER_SUSPENDED + 1];
	size_t nlen[GW_POWER_SUSPENDED + 1];
	char id[24], *row = NULL, *p;
	size_t i, cap = 0;
	int k;

	/* TRANSLATORS: heading of gpuwiz vms; %s is the host. */
	gw_fprintf_escaped(stdout, _("VMs on %s:\n"), label);
	for (k = 0; k <= GW_POWER_SUSPENDED; k++) {
		names[k] = gw_power_name((gw_power)k);
		nlen[k] = strlen(names[k]);
	}
	for (i = 0; i < l->n; i++) {
		const gw_vm *vm = &l->vms[i];
		gw_power st = pw[i] <= GW_POWER_SUSPENDED ? pw[i]
		                                          : GW_POWER_UNKNOWN;
		const char *num = ulong_text(id, sizeof id, vm->vmid);
		const char *ver = vm->version ? vm->version : "-";
		size_t in = strlen(num), vn = strlen(ver);
		size_t mn = strlen(vm->name), fn = strlen(vm->file);
		size_t need = 2 + 6 + in + 1 + 12 + nlen[st] + 1 + 7 + vn + 1 +
		              mn + 2 + fn + 2;

		if (need > cap) {
			cap = need * 2;
			row = gw_xrealloc(row, cap);
		}
		/* "  %-6lu %-12s %-7s %s  %s\n", the whole row escaped: the
		 * VM's name and file as vim-cmd printed them */
		p = put_padded(row, "  ", 2, 0);
		p = put_padded(p, num, in, 6);
		p = put_padded(p, " ", 1, 0);
		p = put_padded(p, names[st], nlen[st], 12);
		p = put_padded(p, " ", 1, 0);
		p = put_padded(p, ver, vn, 7);
		p = put_padded(p, " ", 1, 0);
		p = put_padded(p, vm->name, mn, 0);
		p = put_padded(p, "  ", 2, 0);
		p = put_padded(p, vm->file, fn, 0);
		p = put_padded(p, "\n", 1, 0);
		*p = '\0';
		gw_fputs_escaped(row, stdout);
	}
	free(row);
	if (l->n == 0)
		printf("  %s\n", _("(none)"));
}

/* The power state of each listed VM: from the listing where it knows
 * them (the API), else asked of the host one by one. */
static int
vms_power(gw_host *h, gw_host_vms *v, gw_err *e)
{
	size_t i;

	if (v->power != NULL)
		return 0;
	v->power = gw_xcalloc(v->list.n ? v->list.n : 1, sizeof *v->power);
	for (i = 0; i < v->list.n; i++)
		if (gw_host_power(h, &v->list.vms[i], &v->power[i], e) != 0)
			return -1;
	return 0;
}

/* vms (CMD_NOARGS): the ESXi host's VMs with their power state and
 * hardware version. */
int
cmd_vms(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_host_vms v;
	gw_host *h;
	int rc = 0;

	(void)t;
	memset(&v, 0, sizeof v);
	if (cli_host_open(o, GW_HOST_NEED_ESXI, &h, e) != 0)
		return EXIT_USAGE;
	if (gw_host_list_vms(h, &v, e) != 0 || vms_power(h, &v, e) != 0)
		rc = EXIT_USAGE;
	else if (o->json)
		vms_json(gw_host_label(h), &v.list, v.power);
	else
		vms_text(gw_host_label(h), &v.list, v.power);
	gw_host_vms_free(&v);
	gw_host_close(h);
	return rc;
}

static void
passthru_dry_json(const cli_opts *o, const gw_session_write *w)
{
	json_t *j = json_object(), *d = gw_write_desc_json(&w->desc, NULL);

	json_object_set_new(j, "device", gw_json_text(o->enable));
	json_object_set_new(j, "enabled", json_false());
	json_object_set_new(j, "dry_run", json_true());
	json_object_set(j, "host_changes", json_object_get(d, "host_changes"));
	json_decref(d);
	gw_json_print(j);
	json_decref(j);
}

static void
passthru_said(const cli_opts *o, gw_host *h, int reboot)
{
	if (o->json) {
		json_t *j = json_object();

		json_object_set_new(j, "device", gw_json_text(o->enable));
		json_object_set_new(j, "enabled", json_true());
		json_object_set_new(j, "reboot_needed", json_boolean(reboot));
		gw_json_print(j);
		json_decref(j);
		return;
	}
	/* TRANSLATORS: %s is the device's address, then the host. */
	gw_fprintf_escaped(stdout, _("Passthrough enabled for %s on %s.\n"),
	                   o->enable, gw_host_label(h));
	if (reboot)
		printf("%s\n", _("The host needs a reboot (maintenance mode first) before a VM can use the device."));
	else
		printf("%s\n", _("It is active now: add the device to the VM (gpuwiz vmx --vm NAME --bdf ADDRESS ...)."));
}

/* passthru --enable BDF (CMD_NOARGS): enable passthrough of a device on
 * the ESXi host (refused for a controller holding a datastore or the boot
 * device), as a write of the session: with --dry-run the command it would
 * run is printed (with --json: {"device", "enabled": false, "dry_run":
 * true, "host_changes"}), nothing runs. */
int
cmd_passthru(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_session s;
	gw_session_write w;
	gw_host *h;
	int rc = EXIT_USAGE;

	(void)t;
	if (o->enable == NULL) {
		gw_err_set(e, "%s", _("--enable: missing (expected the device's address, e.g. 0000:3b:00.0; gpuwiz gpus lists them)"));
		return EXIT_USAGE;
	}
	if (cli_host_open(o, GW_HOST_NEED_ESXI, &h, e) != 0)
		return EXIT_USAGE;
	memset(&af, 0, sizeof af);
	gw_session_init(&s, h);
	gw_session_queue_enable_bdf(&s, o->enable, NULL);
	if (gw_session_write_prepare(&s, &af, NULL, NULL, &w, e) != 0)
		goto out;
	if (cli_write(o, &s, &w, NULL, &res, e) == 0) {
		gw_apply_result_free(&res);
		rc = 0;
		if (o->dry_run && o->json)
			passthru_dry_json(o, &w);
		else if (o->dry_run)
			cli_print_dry_run(&w.desc);
		else
			passthru_said(o, h, s.queue[0].reboot);
	}
	gw_session_write_free(&w);
out:
	gw_session_free(&s);
	gw_host_close(h);
	return rc;
}
