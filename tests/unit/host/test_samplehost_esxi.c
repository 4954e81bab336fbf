/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_samplehost_esxi.c: the ESXi sample through the ESXi session
 * helpers and its saved outputs (see test_samplehost.c). */
#include "samplehost_test.h"

/* ---- the ESXi sample ---------------------------------------------------- */

static const gw_esxi_pci_dev *
pci_dev(const gw_esxi_pci_list *l, const char *bdf)
{
	const gw_esxi_pci_dev *d = gw_esxi_pci_find(l, bdf);

	if (d == NULL)
		fail_msg("%s not listed", bdf);
	return d;
}

void
esxi_l40s(void **state)
{
	gw_runner *r;
	gw_esxi_pci_list pl;
	gw_vm_list vl;
	gw_power p;
	gw_err e;
	const gw_esxi_pci_dev *d;
	const gw_vm *vm;
	char *sample_vmx, *before, *after, *log, *t, *path, *out, *uuid;
	char *sample_list, *list_before;
	int reboot = -1, st;
	gw_vmx *v;
	gw_esxi_version ver;
	const char *uuid_argv[] = { "esxcli", "system", "uuid", "get", NULL };
	const char *ver_argv[] = { "esxcli", "system", "version", "get", NULL };
	const char *bad_argv[] = { "esxcli", "network", "nic", "list", NULL };
	const char *getstate99[] = { "vim-cmd", "vmsvc/power.getstate", "99",
	                             NULL };
	const char *poweroff2[] = { "vim-cmd", "vmsvc/power.off", "2", NULL };

	(void)state;
	open_ok("esxi-l40s", &cur);
	assert_string_equal(cur.kind, "esxi");
	assert_null(cur.sysroot);
	assert_non_null(cur.bin);
	assert_non_null(cur.volumes);
	t = gw_xasprintf("%s/esxcli", cur.bin);
	assert_int_equal(access(t, X_OK), 0);
	free(t);

	sample_vmx = gw_xasprintf("%s/esxi-l40s/volumes/datastore1/"
	                          "ubuntu-l40s/ubuntu-l40s.vmx", samples_dir);
	before = read_all(sample_vmx);
	sample_list = gw_xasprintf("%s/esxi-l40s/esxi/"
	                           "esxcli-hardware-pci-list.txt", samples_dir);
	list_before = read_all(sample_list);

	r = gw_runner_open_local();
	gw_runner_set_path_prefix(r, cur.bin);
	gw_runner_set_volumes_root(r, cur.volumes);

	/* The PCI devices. */
	if (gw_esxi_session_list_pci(r, NULL, NULL, &pl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(pl.n, 5);
	d = pci_dev(&pl, "0000:3b:00.0");
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 1);
	assert_string_equal(d->current_owner, "VM Passthru");
	d = pci_dev(&pl, "0000:5e:00.0");
	assert_int_equal(d->device_id, 0x26b9);
	assert_int_equal(d->passthru_capable, 1);
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 0);
	assert_string_equal(d->configured_owner, "VMkernel");
	assert_true(gw_esxi_pci_is_display(pci_dev(&pl, "0000:03:00.0")));
	/* The storage controller holds datastore1 and the boot device. */
	d = pci_dev(&pl, "0000:04:00.0");
	assert_string_equal(d->vmkernel_name, "vmhba0");
	assert_int_equal(gw_esxi_session_passthru_guard(r, d, &e), -1);
	assert_non_null(strstr(e.msg, "vmhba0"));
	assert_non_null(strstr(e.msg, "datastore1"));
	assert_int_equal(gw_esxi_session_passthru_guard(
	                     r, pci_dev(&pl, "0000:02:00.1"), &e), 0);
	gw_esxi_pci_list_free(&pl);

	/* Passthrough on for the second L40S: the listing changes, the call
	 * is logged, no reboot is needed (-a). */
	if (gw_esxi_session_enable_passthru(r, "0000:5e:00.0", &reboot, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(reboot, 0);
	if (gw_esxi_session_list_pci(r, NULL, NULL, &pl, &e) != 0)
		fail_msg("%s", e.msg);
	d = pci_dev(&pl, "0000:5e:00.0");
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 1);
	assert_string_equal(d->current_owner, "VM Passthru");
	assert_string_equal(d->module_name, "pciPassthru");
	gw_esxi_pci_list_free(&pl);
	t = scratch_file(&cur, "esxi/esxcli-hardware-pci-pcipassthru-list.txt");
	assert_non_null(strstr(t, "0000:5e:00.0     true\n"));
	assert_non_null(strstr(t, "0000:04:00.0    false\n"));
	free(t);
	log = scratch_file(&cur, "commands.log");
	assert_non_null(strstr(log, "esxcli hardware pci list\n"));
	assert_non_null(strstr(log, "esxcli hardware pci pcipassthru set -d "
	                            "0000:5e:00.0 -e true -a\n"));
	free(log);
	/* The storage controller is refused before anything is set. */
	assert_int_equal(gw_esxi_session_enable_passthru(r, "0000:04:00.0",
	                                                 &reboot, &e), -1);
	log = scratch_file(&cur, "commands.log");
	assert_null(strstr(log, "set -d 0000:04:00.0"));
	free(log);
	after = read_all(sample_list);
	assert_string_equal(after, list_before);
	free(after);

	/* The VMs and their power states. */
	if (gw_esxi_session_list_vms(r, &vl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(vl.n, 3);
	vm = vm_of(&vl, 1);
	assert_non_null(vm);
	assert_string_equal(vm->name, "ubuntu-l40s");
	assert_string_equal(vm->datastore, "datastore1");
	assert_int_equal(vm->hw_version, 13);
	assert_int_equal(vm_of(&vl, 2)->hw_version, 19);
	assert_int_equal(vm_of(&vl, 3)->hw_version, 21);
	assert_int_equal(gw_esxi_session_power_state(r, 1, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(r, 2, &p, &e), 0);
	assert_int_equal(p, GW_POWER_ON);
	assert_int_equal(gw_esxi_session_power_state(r, 3, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(r, 99, &p, &e), -1);

	/* The configured VM has the L40S at 0000:3b:00.0 and this host's
	 * system id. */
	vm = vm_of(&vl, 3);
	if (gw_esxi_session_vmx_path(r, vm, &path, &e) != 0 ||
	    gw_esxi_session_read_vmx(r, path, &v, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.id"), "00000:059:00.0");
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.deviceId"), "0x26b9");
	assert_string_equal(gw_vmx_get(v, "pciPassthru.64bitMMIOSizeGB"),
	                    "128");
	gw_vmx_free(v);
	free(path);
	if (gw_runner_run_ok(r, uuid_argv, &out, &e) != 0 ||
	    gw_esxi_parse_uuid(out, "uuid", &uuid, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(uuid, "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c");
	free(uuid);
	free(out);
	if (gw_runner_run_ok(r, ver_argv, &out, &e) != 0 ||
	    gw_esxi_parse_version(out, "version", &ver, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(ver.release, "8.0U2");
	gw_esxi_version_free(&ver);
	free(out);

	/* Upgrade VM 1 from vmx-13: the scratch .vmx and the listing change,
	 * the sample's file does not. */
	if (gw_esxi_session_upgrade(r, 1, 13, 21, &e) != 0)
		fail_msg("%s", e.msg);
	vm = vm_of(&vl, 1);
	if (gw_esxi_session_vmx_path(r, vm, &path, &e) != 0 ||
	    gw_esxi_session_read_vmx(r, path, &v, &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(strstr(path, cur.volumes));
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "21");
	assert_string_equal(gw_vmx_get(v, "displayName"), "ubuntu-l40s");
	gw_vmx_free(v);
	free(path);
	gw_vm_list_free(&vl);
	if (gw_esxi_session_list_vms(r, &vl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(vm_of(&vl, 1)->hw_version, 21);
	assert_int_equal(vm_of(&vl, 2)->hw_version, 19);
	gw_vm_list_free(&vl);
	after = read_all(sample_vmx);
	assert_string_equal(after, before);
	free(after);
	log = scratch_file(&cur, "commands.log");
	assert_non_null(strstr(log, "vim-cmd vmsvc/upgrade 1 vmx-21\n"));
	free(log);
	/* Powered on: refused by gpuwiz; and by the stand-in itself. */
	assert_int_equal(gw_esxi_session_upgrade(r, 2, 19, 21, &e), -1);
	{
		const char *up2[] = { "vim-cmd", "vmsvc/upgrade", "2", "vmx-21",
		                      NULL };

		assert_int_equal(gw_runner_run_ok(r, up2, NULL, &e), -1);
		assert_non_null(strstr(e.msg, "Powered on"));
	}
	/* power.off changes the state file; reload is a no-op. */
	assert_int_equal(gw_runner_run_ok(r, poweroff2, NULL, &e), 0);
	assert_int_equal(gw_esxi_session_power_state(r, 2, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);
	assert_int_equal(gw_esxi_session_reload(r, 1, &e), 0);
	assert_int_equal(gw_esxi_session_reload(r, 42, &e), -1);

	/* Commands the sample has no output for fail as esxcli does. */
	assert_int_equal(gw_runner_run(r, bad_argv, NULL, &out, &st, &e), 0);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "Unknown command or namespace"));
	free(out);
	assert_int_equal(gw_runner_run(r, getstate99, NULL, &out, &st, &e), 0);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "Unable to find a VM"));
	free(out);

	gw_runner_close(r);
	free(before);
	free(sample_vmx);
	free(list_before);
	free(sample_list);
	close_removes(&cur);
}

/* The saved storage outputs are what the parsers read. */
void
esxi_storage_outputs_parse(void **state)
{
	gw_esxi_storage_path_list pl;
	gw_esxi_storage_dev_list dl;
	gw_esxi_vmfs_extent_list xl;
	char *p, *t;
	gw_err e;

	(void)state;
#define LOAD(file) (p = gw_xasprintf("%s/esxi-l40s/esxi/%s", samples_dir, \
	                             file), t = read_all(p), free(p), t)
	t = LOAD("esxcli-storage-core-path-list.txt");
	if (gw_esxi_parse_storage_paths(t, "paths", &pl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(pl.n, 1);
	assert_string_equal(pl.paths[0].adapter, "vmhba0");
	assert_string_equal(pl.paths[0].device, "naa.5000c500d1e2f3a7");
	gw_esxi_storage_path_list_free(&pl);
	free(t);
	t = LOAD("esxcli-storage-core-device-list.txt");
	if (gw_esxi_parse_storage_devices(t, "devices", &dl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(dl.n, 1);
	assert_int_equal(dl.devs[0].is_boot, 1);
	assert_int_equal(dl.devs[0].is_local, 1);
	gw_esxi_storage_dev_list_free(&dl);
	free(t);
	t = LOAD("esxcli-storage-vmfs-extent-list.txt");
	if (gw_esxi_parse_vmfs_extents(t, "extents", &xl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(xl.n, 1);
	assert_string_equal(xl.extents[0].volume_name, "datastore1");
	assert_string_equal(xl.extents[0].device_name, "naa.5000c500d1e2f3a7");
	assert_int_equal(xl.extents[0].partition, 3);
	gw_esxi_vmfs_extent_list_free(&xl);
	free(t);
#undef LOAD
}
