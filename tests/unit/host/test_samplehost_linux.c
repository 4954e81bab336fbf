/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_samplehost_linux.c: the linux samples through the real probes
 * (see test_samplehost.c). */
#include "samplehost_test.h"

/* ---- linux samples ------------------------------------------------------ */

void
intel_2x_l40s(void **state)
{
	gw_finding *rows;
	gw_gpu_dev *g;
	size_t n, ng, i;
	gw_err e;
	char *t, *p;
	unsigned char *acpi;
	unsigned sum = 0;

	(void)state;
	open_ok("intel-2x-l40s", &cur);
	/* a GPU here (the welcome screen's question, the sysfs walk) */
	assert_int_equal(gw_linux_has_gpu(cur.sysroot, 0, &e), 1);
	assert_string_equal(cur.kind, "linux");
	assert_non_null(cur.sysroot);
	assert_null(cur.bin);
	assert_null(cur.volumes);

	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < n; i++)
		if (rows[i].sev == GW_SEV_ERROR)
			fail_msg("FAIL row %s: %s", rows[i].id, rows[i].message);
	expect_row(rows, n, "cpu-virt", GW_SEV_PASS);
	assert_non_null(strstr(row(rows, n, "cpu-virt")->message, "vmx"));
	expect_row(rows, n, "iommu-firmware", GW_SEV_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-firmware")->message,
	                       "DMAR"));
	expect_row(rows, n, "iommu-kernel", GW_SEV_PASS);
	expect_row(rows, n, "kernel-cmdline", GW_SEV_PASS);
	expect_row(rows, n, "iommu-units", GW_SEV_PASS);
	if (row(rows, n, "interrupt-remap"))
		expect_row(rows, n, "interrupt-remap", GW_SEV_PASS);
	/* Two driver rows (the ASPEED gets none), both vfio-pci. */
	for (i = 0, ng = 0; i < n; i++)
		if (strcmp(rows[i].id, "gpu-driver") == 0) {
			assert_int_equal(rows[i].sev, GW_SEV_PASS);
			ng++;
		}
	assert_int_equal(ng, 2);
	gw_linux_checks_free(rows, n);

	if (gw_linux_gpus(&table, cur.sysroot, &g, &ng, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(ng, 3);
	assert_string_equal(g[0].bdf, "0000:03:00.0");
	assert_int_equal(g[0].vendor, 0x1a03);
	assert_true(g[0].onboard);
	assert_string_equal(g[0].driver, "ast");
	for (i = 1; i < 3; i++) {
		const gw_gpu_bar *b1 = bar(&g[i], 1), *b0 = bar(&g[i], 0),
		                   *b3 = bar(&g[i], 3);

		assert_false(g[i].onboard);
		assert_int_equal(g[i].vendor, 0x10de);
		assert_int_equal(g[i].device, 0x26b9);
		assert_int_equal(g[i].subvendor, 0x10de);
		assert_int_equal(g[i].subdevice, 0x1851);
		assert_non_null(g[i].row);
		assert_int_equal(g[i].vram_gb, 48);
		assert_string_equal(g[i].driver, "vfio-pci");
		assert_non_null(b0);
		assert_true(b0->size == 16u << 20 && !b0->is64 && !b0->io);
		assert_non_null(b1);
		assert_true(b1->size == 64ULL << 30 && b1->is64 && b1->pref);
		assert_non_null(b3);
		assert_true(b3->size == 32u << 20 && b3->is64 && b3->pref);
		assert_int_equal(g[i].nbars, 3);
		assert_non_null(g[i].group);
		assert_int_equal(g[i].nmates, 0);
		assert_int_equal(g[i].nforeign, 0);
		assert_true(gw_gpu_dev_bar_gb(&g[i]) >= 64);
	}
	assert_string_equal(g[1].bdf, "0000:3b:00.0");
	assert_string_equal(g[2].bdf, "0000:5e:00.0");
	assert_string_not_equal(g[1].group, g[2].group);
	gw_gpu_devs_free(g, ng);

	/* What else the tree shows. */
	t = scratch_file(&cur, "root/proc/interrupts");
	assert_non_null(strstr(t, "IR-PCI-MSI"));
	assert_non_null(strstr(t, "DMAR-MSI"));
	assert_null(strstr(t, " PCI-MSI"));
	free(t);
	t = scratch_file(&cur, "root/sys/class/iommu/dmar0/intel-iommu/ecap");
	assert_string_equal(t, "f020df\n");
	free(t);
	t = scratch_file(&cur, "root/proc/sys/kernel/osrelease");
	assert_string_equal(t, "6.1.0-18-amd64\n");
	free(t);
	t = scratch_file(&cur, "root/proc/cmdline");
	assert_non_null(strstr(t, "intel_iommu=on"));
	free(t);
	acpi = (unsigned char *)scratch_file(&cur,
	                                     "root/sys/firmware/acpi/tables/DMAR");
	assert_memory_equal(acpi, "DMAR", 4);
	assert_int_equal(acpi[4], 48);
	for (i = 0; i < 48; i++)
		sum += acpi[i];
	assert_int_equal(sum & 0xff, 0);
	assert_int_equal(acpi[37] & 1, 1);      /* INTR_REMAP */
	free(acpi);
	t = scratch_file(&cur, "root/sys/kernel/iommu_groups/58/type");
	assert_string_equal(t, "identity\n");   /* iommu=pt */
	free(t);
	p = gw_xasprintf("%s/root/sys/bus/pci/drivers/vfio-pci/0000:3b:00.0",
	                 cur.scratch);
	assert_true(exists(p));
	free(p);
	close_removes(&cur);
}

void
amd_geforce_usb(void **state)
{
	gw_finding *rows;
	gw_gpu_dev *g;
	size_t n, ng, i;
	gw_err e;
	const gw_finding *r;
	const gw_gpu_bar *b;
	int audio = 0, usb = 0;
	char *t;

	(void)state;
	open_ok("amd-geforce-usb", &cur);
	/* a GPU here (the welcome screen's question, the sysfs walk) */
	assert_int_equal(gw_linux_has_gpu(cur.sysroot, 0, &e), 1);
	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < n; i++)
		if (rows[i].sev == GW_SEV_ERROR)
			fail_msg("FAIL row %s: %s", rows[i].id, rows[i].message);
	expect_row(rows, n, "cpu-virt", GW_SEV_PASS);
	assert_non_null(strstr(row(rows, n, "cpu-virt")->message, "svm"));
	expect_row(rows, n, "iommu-firmware", GW_SEV_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-firmware")->message,
	                       "IVRS"));
	expect_row(rows, n, "iommu-kernel", GW_SEV_PASS);
	expect_row(rows, n, "kernel-cmdline", GW_SEV_PASS);
	expect_row(rows, n, "iommu-units", GW_SEV_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-units")->message, "ivhd0"));
	if (row(rows, n, "interrupt-remap"))
		expect_row(rows, n, "interrupt-remap", GW_SEV_PASS);
	r = row(rows, n, "gpu-driver");
	assert_non_null(r);
	assert_int_equal(r->sev, GW_SEV_WARN);
	assert_non_null(strstr(r->message, "nvidia"));
	assert_non_null(strstr(r->fix, "10de:2805"));
	gw_linux_checks_free(rows, n);

	if (gw_linux_gpus(&table, cur.sysroot, &g, &ng, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(ng, 1);
	assert_string_equal(g[0].bdf, "0000:04:00.0");
	assert_int_equal(g[0].device, 0x2805);
	assert_int_equal(g[0].subvendor, 0x1043);
	assert_int_equal(g[0].subdevice, 0x891b);
	assert_string_equal(g[0].driver, "nvidia");
	assert_string_equal(g[0].group, "15");
	b = bar(&g[0], 1);
	assert_non_null(b);
	assert_true(b->size == 16ULL << 30 && b->is64 && b->pref);
	b = bar(&g[0], 5);
	assert_non_null(b);
	assert_true(b->io && b->size == 128);
	/* The audio function and four bridges are mates but not foreign;
	 * the USB controller is. */
	for (i = 0; i < g[0].nmates; i++) {
		if (strcmp(g[0].mates[i], "0000:04:00.1") == 0)
			audio = 1;
		if (strcmp(g[0].mates[i], "0000:05:00.0") == 0)
			usb = 1;
	}
	assert_true(audio && usb);
	assert_int_equal(g[0].nmates, 6);
	assert_int_equal(g[0].nforeign, 1);
	assert_string_equal(g[0].foreign[0], "0000:05:00.0");
	gw_gpu_devs_free(g, ng);

	t = scratch_file(&cur, "root/proc/cpuinfo");
	assert_non_null(strstr(t, "AuthenticAMD"));
	assert_non_null(strstr(t, " svm "));
	free(t);
	t = scratch_file(&cur, "root/proc/cmdline");
	assert_null(strstr(t, "amd_iommu"));
	free(t);
	close_removes(&cur);
}

void
intel_iommu_off_kernel(void **state)
{
	gw_finding *rows;
	gw_gpu_dev *g;
	size_t n, ng;
	gw_err e;
	const gw_finding *r;
	const gw_gpu_bar *b;
	char *t, *p;

	(void)state;
	open_ok("intel-iommu-off-kernel", &cur);
	/* a GPU here (the welcome screen's question, the sysfs walk) */
	assert_int_equal(gw_linux_has_gpu(cur.sysroot, 0, &e), 1);
	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	expect_row(rows, n, "cpu-virt", GW_SEV_PASS);
	expect_row(rows, n, "iommu-firmware", GW_SEV_PASS);
	expect_row(rows, n, "iommu-kernel", GW_SEV_ERROR);
	r = row(rows, n, "iommu-kernel");
	assert_non_null(r->fix);
	assert_non_null(strstr(r->fix, "intel_iommu=on"));
	expect_row(rows, n, "kernel-cmdline", GW_SEV_WARN);
	assert_non_null(strstr(row(rows, n, "kernel-cmdline")->fix,
	                       "intel_iommu=on"));
	expect_row(rows, n, "iommu-units", GW_SEV_WARN);
	gw_linux_checks_free(rows, n);

	if (gw_linux_gpus(&table, cur.sysroot, &g, &ng, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(ng, 1);
	assert_string_equal(g[0].bdf, "0000:c1:00.0");
	assert_int_equal(g[0].device, 0x26b1);
	assert_null(g[0].group);
	assert_int_equal(g[0].nforeign, 0);
	assert_string_equal(g[0].driver, "nvidia");
	assert_int_equal(g[0].nbars, 4);
	b = bar(&g[0], 1);
	assert_true(b && b->size == 64ULL << 30 && b->is64 && b->pref);
	b = bar(&g[0], 3);
	assert_true(b && b->size == 32u << 20);
	b = bar(&g[0], 5);
	assert_true(b && b->io && b->size == 128);
	gw_gpu_devs_free(g, ng);

	/* The capture's addresses, as the kernel's resource file prints
	 * them. */
	t = scratch_file(&cur, "root/sys/devices/pci0000:00/0000:c1:00.0/"
	                     "resource");
	assert_non_null(strstr(t, "0x0000013000000000 0x0000013fffffffff"
	                          " 0x000000000014220c\n"));
	assert_non_null(strstr(t, "0x00000000b4000000 0x00000000b4ffffff"
	                          " 0x0000000000040200\n"));
	free(t);
	t = scratch_file(&cur, "root/proc/sys/kernel/osrelease");
	assert_string_equal(t, "6.5.13-5-pve\n");
	free(t);
	t = scratch_file(&cur, "root/proc/version");
	assert_non_null(strstr(t, "Linux version 6.5.13-5-pve "));
	free(t);
	t = scratch_file(&cur, "root/proc/interrupts");
	assert_non_null(strstr(t, "IR-PCI-MSI"));
	assert_null(strstr(t, "DMAR-MSI"));
	free(t);
	p = gw_xasprintf("%s/root/sys/kernel/iommu_groups", cur.scratch);
	assert_true(exists(p));
	free(p);
	p = gw_xasprintf("%s/root/sys/class/iommu/dmar0", cur.scratch);
	assert_false(exists(p));
	free(p);
	close_removes(&cur);
}

/* close without removing keeps the tree. */
void
close_keeps_scratch(void **state)
{
	gw_sample s;
	char *scratch, *cmd;

	(void)state;
	open_ok("intel-2x-l40s", &s);
	scratch = gw_xstrdup(s.scratch);
	gw_sample_close(&s, 0);
	assert_true(exists(scratch));
	assert_null(s.sysroot);
	/* Two opens never share a folder. */
	open_ok("intel-2x-l40s", &s);
	assert_string_not_equal(s.scratch, scratch);
	close_removes(&s);
	cmd = gw_xasprintf("rm -rf '%s'", scratch);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_false(exists(scratch));
	free(scratch);
}
