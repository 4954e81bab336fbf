/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsapply.c: the plan through the vSphere API (src/vsapply.c): a VM
 * as the API reports it written as the .vmx it stands for, the plan's
 * changes as a ReconfigVM_Task spec, applying twice, and picking free
 * passthrough devices.  No server: the inventory is built here the way
 * vsphere.c fills it. */
#include "testutil.h"
#include "vsapply.h"

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

#define SYSID "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c"

static gw_vs_pci l40s[2] = {
	{ (char *)"0000:3b:00.0", 0x10de, 0x26b9, 0x10de, 0x1851, 0x0302,
	  (char *)"NVIDIA Corporation", (char *)"AD102GL [L40S]", 1, 1, 1,
	  (char *)SYSID, (char *)"sharedDirect" },
	{ (char *)"0000:5e:00.0", 0x10de, 0x26b9, 0x10de, 0x1851, 0x0302,
	  (char *)"NVIDIA Corporation", (char *)"AD102GL [L40S]", 1, 1, 1,
	  (char *)SYSID, (char *)"sharedDirect" },
};

static void
host_init(gw_vs_host *h)
{
	memset(h, 0, sizeof *h);
	h->moref = (char *)"host-21";
	h->name = (char *)"esx01";
	h->version = (char *)"8.0.2";
	h->pci = l40s;
	h->npci = 2;
}

static void
vm_init(gw_vs_vm *vm)
{
	memset(vm, 0, sizeof *vm);
	vm->moref = (char *)"vm-42";
	vm->name = (char *)"llm \"one\"";
	vm->host_moref = (char *)"host-21";
	vm->hw_version = 19;
	vm->firmware = (char *)"efi";
	vm->memory_mb = 65536;
	vm->reserve_locked = 0;
	vm->power = GW_VS_POWER_OFF;
}

static void
plan_for(const gw_vs_vm *vm, gw_answers *a, gw_plan *p)
{
	gw_vmx *v;
	gw_err e;

	v = gw_vs_vm_as_vmx(vm, &e);
	if (v == NULL)
		fail_msg("%s", e.msg);
	if (gw_plan_build(a, &table, v, p, &e) != 0)
		fail_msg("%s", e.msg);
	gw_vmx_free(v);
}

static void
test_vm_as_vmx(void **state)
{
	gw_vs_vm vm;
	gw_vs_dev dev = { 4000, (char *)"PCI device 0", (char *)"0000:3b:00.0",
	                  0x10de, 0x26b9, (char *)SYSID, NULL, 0 };
	char *keys[] = { (char *)"pciPassthru.use64bitMMIO", (char *)"odd\"key",
	                 (char *)"pciPassthru0.id", (char *)"sched.mem.pin" };
	char *vals[] = { (char *)"TRUE", (char *)"a\nb\"c", (char *)"stale",
	                 (char *)"FALSE" };
	gw_vmx *v;
	gw_err e;

	(void)state;
	vm_init(&vm);
	vm.reserve_locked = 1;
	vm.ec_keys = keys;
	vm.ec_vals = vals;
	vm.nec = 4;
	vm.devs = &dev;
	vm.ndevs = 1;
	v = gw_vs_vm_as_vmx(&vm, &e);
	assert_non_null(v);
	assert_string_equal(gw_vmx_name(v), "vsphere:llm \"one\"");
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "19");
	assert_string_equal(gw_vmx_get(v, "firmware"), "efi");
	assert_string_equal(gw_vmx_get(v, "memsize"), "65536");
	/* memoryReservationLockedToMax: the plan's three keys; the
	 * extraConfig copy of sched.mem.pin does not override it */
	assert_string_equal(gw_vmx_get(v, "sched.mem.min"), "65536");
	assert_string_equal(gw_vmx_get(v, "sched.mem.pin"), "TRUE");
	assert_string_equal(gw_vmx_get(v, "pciPassthru.use64bitMMIO"), "TRUE");
	/* the device block comes from the device, not from extraConfig */
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.id"), "00000:059:00.0");
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.deviceId"), "0x26b9");
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.vendorId"), "0x10de");
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.systemId"), SYSID);
	/* a value a .vmx cannot hold is flattened, not dropped */
	assert_string_equal(gw_vmx_get(v, "odd\"key") ? "x" : "x", "x");
	gw_vmx_free(v);
}

static void
test_spec_and_twice(void **state)
{
	gw_vs_vm vm, after;
	gw_vs_host h;
	gw_vs_inventory inv;
	gw_answers a;
	gw_plan p;
	gw_vs_plan_spec s;
	gw_vs_dev dev;
	char **picked = NULL, *ek[8], *evv[8];
	size_t n = 0, i;
	gw_err e;

	(void)state;
	host_init(&h);
	vm_init(&vm);
	memset(&inv, 0, sizeof inv);
	inv.hosts = &h;
	inv.nhosts = 1;
	inv.vms = &vm;
	inv.nvms = 1;
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s", "--gpu", &e), 0);
	a.esxi_version = gw_xstrdup("8.0.2");
	assert_int_equal(gw_vs_pick_devices(&inv, &h, &vm, &a, &picked, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_string_equal(picked[0], "0000:3b:00.0");
	assert_int_equal(gw_answers_add_bdf(&a, picked[0], "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, "t", &e), 0);
	gw_strs_free(picked, n);

	plan_for(&vm, &a, &p);
	assert_int_equal(gw_vs_spec_from_plan(&p, &s, &e), 0);
	assert_false(gw_vs_spec_empty(&s));
	/* the reservation as the API's flag, not sched.mem keys */
	assert_int_equal(s.spec.reserve_locked, 1);
	for (i = 0; i < s.nec; i++)
		assert_null(strstr(s.keys[i], "sched.mem"));
	/* the MMIO keys as extraConfig */
	for (i = 0; i < s.nec; i++)
		if (strcmp(s.keys[i], "pciPassthru.64bitMMIOSizeGB") == 0)
			assert_string_equal(s.vals[i], "128");
	/* one device, by its API id */
	assert_int_equal(s.nadds, 1);
	assert_string_equal(s.adds[0].id, "0000:3b:00.0");
	assert_int_equal(s.adds[0].vendor, 0x10de);
	assert_int_equal(s.adds[0].device, 0x26b9);
	assert_string_equal(s.adds[0].system_id, SYSID);
	assert_null(s.adds[0].vgpu);

	/* the VM as the server reports it afterwards: nothing left to do */
	after = vm;
	after.reserve_locked = 1;
	memset(&dev, 0, sizeof dev);
	dev.key = 13000;
	dev.id = (char *)"0000:3b:00.0";
	dev.vendor = 0x10de;
	dev.device = 0x26b9;
	dev.system_id = (char *)SYSID;
	after.devs = &dev;
	after.ndevs = 1;
	for (i = 0; i < s.nec; i++) {
		ek[i] = s.keys[i];
		evv[i] = s.vals[i];
	}
	after.ec_keys = ek;
	after.ec_vals = evv;
	after.nec = s.nec;
	{
		gw_plan p2;
		gw_vs_plan_spec s2;
		gw_answers a2;

		/* the same request again (its device now attached) */
		gw_answers_init(&a2);
		assert_int_equal(gw_answers_add_gpu(&a2, &table, "l40s", "--gpu", &e), 0);
		a2.esxi_version = gw_xstrdup("8.0.2");
		/* the L40S asked for is the one attached: its address is
		 * the pick, nothing to add */
		inv.vms = &after;
		assert_int_equal(gw_vs_pick_devices(&inv, &h, &after, &a2, &picked,
		                                    &n, &e), 0);
		assert_int_equal(n, 1);
		assert_string_equal(picked[0], "0000:3b:00.0");
		assert_int_equal(gw_answers_add_bdf(&a2, picked[0], "--bdf", &e), 0);
		assert_int_equal(gw_answers_set_system_id(&a2, SYSID, "t", &e), 0);
		gw_strs_free(picked, n);
		plan_for(&after, &a2, &p2);
		assert_int_equal(p2.n_passthru, 0);
		assert_int_equal(gw_vs_spec_from_plan(&p2, &s2, &e), 0);
		/* and what the first run set is all kept: an empty spec */
		assert_true(gw_vs_spec_empty(&s2));
		gw_vs_plan_spec_free(&s2);
		gw_plan_free(&p2);
		gw_answers_free(&a2);
	}
	/* the attached device is no longer free for another VM */
	inv.vms = &after;
	{
		gw_answers a3;
		gw_vs_vm other = vm;

		other.name = (char *)"other";
		gw_answers_init(&a3);
		assert_int_equal(gw_answers_add_gpu(&a3, &table, "l40s=2", "--gpu", &e), 0);
		assert_int_equal(gw_vs_pick_devices(&inv, &h, &other, &a3, &picked,
		                                    &n, &e), -1);
		assert_non_null(strstr(e.msg, "2 of 2"));
		/* on its own host (named) it still holds the device ... */
		after.host_moref = (char *)"host-21";
		assert_int_equal(gw_vs_pick_devices(&inv, &h, &other, &a3, &picked,
		                                    &n, &e), -1);
		/* ... but a VM of another host holds that host's device of
		 * the same address, not this one's */
		after.host_moref = (char *)"host-99";
		assert_int_equal(gw_vs_pick_devices(&inv, &h, &other, &a3, &picked,
		                                    &n, &e), 0);
		assert_int_equal(n, 2);
		assert_string_equal(picked[0], "0000:3b:00.0");
		assert_string_equal(picked[1], "0000:5e:00.0");
		gw_strs_free(picked, n);
		after.host_moref = NULL;
		/* for the VM that holds it, its own device counts: its
		 * address first, then one free device (the VM ends with two) */
		assert_int_equal(gw_vs_pick_devices(&inv, &h, &after, &a3, &picked,
		                                    &n, &e), 0);
		assert_int_equal(n, 2);
		assert_string_equal(picked[0], "0000:3b:00.0");
		assert_true(gw_vs_is_own_device(&after, picked[0]));
		assert_string_equal(picked[1], "0000:5e:00.0");
		assert_false(gw_vs_is_own_device(&after, picked[1]));
		gw_strs_free(picked, n);
		gw_answers_free(&a3);
	}
	gw_vs_plan_spec_free(&s);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_vgpu_uvm(void **state)
{
	gw_vs_vm vm;
	gw_answers a;
	gw_plan p;
	gw_vs_plan_spec s;
	size_t i;
	int uvm = 0;
	gw_err e;

	(void)state;
	vm_init(&vm);
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "nvidia_l40s-24c=2", "--vgpu", &e), 0);
	a.uvm = 1;
	a.esxi_version = gw_xstrdup("8.0.2");
	plan_for(&vm, &a, &p);
	assert_int_equal(gw_vs_spec_from_plan(&p, &s, &e), 0);
	assert_int_equal(s.nadds, 2);
	for (i = 0; i < s.nadds; i++) {
		assert_null(s.adds[i].id);
		assert_string_equal(s.adds[i].vgpu, "nvidia_l40s-24c");
	}
	for (i = 0; i < s.nec; i++)
		uvm += strstr(s.keys[i], ".cfg.enable_uvm") != NULL &&
		       strcmp(s.vals[i], "1") == 0;
	assert_int_equal(uvm, 2);
	gw_vs_plan_spec_free(&s);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_present_counted(void **state)
{
	gw_vs_vm vm;
	gw_vs_dev devs[3];
	gw_answers a;
	gw_vmx *v;
	gw_err e;
	int counted = -1;

	(void)state;
	vm_init(&vm);
	memset(devs, 0, sizeof devs);
	devs[0].id = (char *)"0000:3b:00.0";
	devs[0].vendor = 0x10de;
	devs[0].device = 0x26b9;
	devs[1].vgpu = (char *)"nvidia_l40s-24c";
	devs[2].vgpu = (char *)"nvidia_l40s-48c";
	vm.devs = devs;
	vm.ndevs = 3;
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s=2", "--gpu", &e), 0);
	/* typed in the older spelling: ESXi's is nvidia_l40s-24c */
	assert_int_equal(gw_answers_add_gpu(&a, &table, "grid_l40s-24c=1", "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "nvidia_l40s-12c=1", "--vgpu", &e), 0);
	/* the plan's count of the VM's own: the L40S and the 24c one (one
	 * L40S left to add, the 12c one not present) */
	v = gw_vs_vm_as_vmx(&vm, &e);
	assert_non_null(v);
	assert_int_equal(gw_plan_check_present(&a, v, &counted, &e), 0);
	assert_int_equal(counted, 2);
	gw_vmx_free(v);
	gw_answers_free(&a);
}

/* Dynamic DirectPath I/O through the API (doc/design.md, section 15.4):
 * the plan's allowedDevices block becomes a dynamic add (no id, no
 * systemId); the VM read back with that device (a DynamicBackingInfo,
 * no address) stands for the same block, and the plan again is empty. */
static void
test_dynamic_spec(void **state)
{
	gw_vs_vm vm, after;
	gw_answers a;
	gw_plan p, p2;
	gw_vs_plan_spec s, s2;
	gw_vs_dev dev;
	gw_vmx *v;
	gw_err e;

	(void)state;
	vm_init(&vm);
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s", "--gpu", &e), 0);
	a.esxi_version = gw_xstrdup("8.0.2");
	a.dynamic = 1;
	plan_for(&vm, &a, &p);
	assert_int_equal(gw_vs_spec_from_plan(&p, &s, &e), 0);
	assert_int_equal(s.nadds, 1);
	assert_true(s.adds[0].dynamic);
	assert_null(s.adds[0].id);
	assert_null(s.adds[0].system_id);
	assert_null(s.adds[0].vgpu);
	assert_int_equal(s.adds[0].vendor, 0x10de);
	assert_int_equal(s.adds[0].device, 0x26b9);

	after = vm;
	after.reserve_locked = 1;
	memset(&dev, 0, sizeof dev);
	dev.key = 13000;
	dev.vendor = 0x10de;
	dev.device = 0x26b9;
	dev.dynamic = 1;
	after.devs = &dev;
	after.ndevs = 1;
	v = gw_vs_vm_as_vmx(&after, &e);
	assert_non_null(v);
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.allowedDevices"),
	                    "0x10de:0x26b9");
	assert_null(gw_vmx_get(v, "pciPassthru0.deviceId"));
	gw_vmx_free(v);
	/* the MMIO keys as the server now has them */
	after.ec_keys = s.keys;
	after.ec_vals = s.vals;
	after.nec = s.nec;
	plan_for(&after, &a, &p2);
	assert_int_equal(gw_vs_spec_from_plan(&p2, &s2, &e), 0);
	assert_true(gw_vs_spec_empty(&s2));
	gw_vs_plan_spec_free(&s2);
	gw_plan_free(&p2);
	gw_vs_plan_spec_free(&s);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_no_free_device(void **state)
{
	gw_vs_vm vm;
	gw_vs_host h;
	gw_vs_inventory inv;
	gw_answers a;
	char **picked = NULL;
	size_t n = 0;
	gw_err e;
	gw_vs_pci off[1];

	(void)state;
	host_init(&h);
	off[0] = l40s[0];
	off[0].passthru_enabled = 0;
	h.pci = off;
	h.npci = 1;
	vm_init(&vm);
	memset(&inv, 0, sizeof inv);
	inv.hosts = &h;
	inv.nhosts = 1;
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s", "--gpu", &e), 0);
	assert_int_equal(gw_vs_pick_devices(&inv, &h, &vm, &a, &picked, &n, &e), -1);
	assert_non_null(strstr(e.msg, "esx01"));
	assert_non_null(strstr(e.msg, "l40s"));
	/* the wizard's words: the queued enable, no flag */
	assert_non_null(strstr(gw_err_text(&e, 1), "e on the host step"));
	assert_null(strstr(gw_err_text(&e, 1), "--"));
	assert_null(picked);
	gw_answers_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_as_vmx),
		cmocka_unit_test(test_spec_and_twice),
		cmocka_unit_test(test_vgpu_uvm),
		cmocka_unit_test(test_present_counted),
		cmocka_unit_test(test_no_free_device),
		cmocka_unit_test(test_dynamic_spec),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
