/* test_samplehost.c: the sample hosts of data/hosts (src/samplehost.h).
 *
 * Each sample is opened into a scratch folder and run through the real
 * probes: gw_linux_checks() / gw_linux_gpus() on the linux ones' sysroot,
 * and for esxi-l40s the ESXi session helpers (src/runner.h) through a
 * local runner whose PATH starts with the sample's esxcli / vim-cmd
 * stand-ins.  Samples: $GPUWIZ_HOSTS_DIR, else $GW_SRCDIR/data/hosts, else
 * data/hosts.  A second set of tests writes broken host.ini files in a
 * temporary hosts folder and checks the errors.
 */
#include "testutil.h"
#include "samplehost.h"
#include "linux.h"
#include "runner.h"
#include "esxi.h"
#include "vmx.h"
#include "gputable.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static gw_table table;
static char *samples_dir;
/* The sample a test opened: removed by close_after() even when the test
 * fails half-way. */
static gw_sample cur;

static int
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static char *
read_all(const char *path)
{
	char *data = NULL;
	size_t len;
	gw_err e;

	if (gw_read_file(path, 16u << 20, &data, &len, &e) != 0)
		fail_msg("%s", e.msg);
	return data;
}

static char *
scratch_file(const gw_sample *s, const char *rel)
{
	char *p = gw_xasprintf("%s/%s", s->scratch, rel), *data = read_all(p);

	free(p);
	return data;
}

static const gw_linux_check *
row(const gw_linux_check *rows, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].id, id) == 0)
			return &rows[i];
	return NULL;
}

static void
expect_row(const gw_linux_check *rows, size_t n, const char *id,
           gw_linux_status st)
{
	const gw_linux_check *r = row(rows, n, id);

	if (r == NULL)
		fail_msg("no %s row", id);
	if (r->status != st)
		fail_msg("%s: %s, expected %s (%s)", id,
		         gw_linux_status_word(r->status),
		         gw_linux_status_word(st), r->message);
}

static const gw_linux_bar *
bar(const gw_linux_gpu *g, int index)
{
	int i;

	for (i = 0; i < g->nbars; i++)
		if (g->bars[i].index == index)
			return &g->bars[i];
	return NULL;
}

static void
open_ok(const char *name, gw_sample *s)
{
	gw_err e;

	if (gw_sample_open(name, s, &e) != 0)
		fail_msg("%s: %s", name, e.msg);
	assert_string_equal(s->name, name);
	assert_non_null(s->scratch);
	assert_true(strstr(s->scratch, "gpuwiz-sample.") != NULL);
}

static void
close_removes(gw_sample *s)
{
	char *scratch = gw_xstrdup(s->scratch);

	assert_true(exists(scratch));
	gw_sample_close(s, 1);
	assert_false(exists(scratch));
	assert_null(s->scratch);
	free(scratch);
}

/* ---- listing ------------------------------------------------------------ */

static void
list_four_samples(void **state)
{
	gw_sample_info *l;
	size_t n, i;
	gw_err e;
	static const char *const names[] = { "amd-geforce-usb", "esxi-l40s",
	                                     "intel-2x-l40s",
	                                     "intel-iommu-off-kernel" };
	static const char *const kinds[] = { "linux", "esxi", "linux",
	                                     "linux" };

	(void)state;
	if (gw_sample_list(&l, &n, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_string_equal(l[i].name, names[i]);
		assert_string_equal(l[i].kind, kinds[i]);
		assert_true(strlen(l[i].title) > 10);
	}
	assert_non_null(strstr(l[2].title, "L40S"));
	gw_sample_list_free(l, n);
}

static void
hosts_dir_lookup(void **state)
{
	const char *d;
	char *saved = gw_xstrdup(getenv("GPUWIZ_HOSTS_DIR")), *p;
	gw_sample_info *l;
	size_t n;
	gw_err e;

	(void)state;
	/* Without the variable: found beside the build or in the source
	 * tree (GW_TOP_SRCDIR), holding the samples. */
	unsetenv("GPUWIZ_HOSTS_DIR");
	d = gw_sample_hosts_dir();
	assert_non_null(d);
	p = gw_xasprintf("%s/intel-2x-l40s/host.ini", d);
	assert_true(exists(p));
	free(p);
	/* Named but missing: kept, so that the error names it. */
	setenv("GPUWIZ_HOSTS_DIR", "/nonexistent/gpuwiz-hosts", 1);
	assert_string_equal(gw_sample_hosts_dir(), "/nonexistent/gpuwiz-hosts");
	assert_int_equal(gw_sample_list(&l, &n, &e), -1);
	assert_null(l);
	assert_int_equal(n, 0);
	assert_non_null(strstr(e.msg, "/nonexistent/gpuwiz-hosts"));
	setenv("GPUWIZ_HOSTS_DIR", saved, 1);
	free(saved);
}

static void
unknown_names(void **state)
{
	static const char *const bad[] = { "nope", "", "../esxi-l40s",
	                                   ".hidden", "bin", "esxi-l40s/esxi" };
	gw_sample s;
	size_t i;
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&s, 0x5a, sizeof s);
		assert_int_equal(gw_sample_open(bad[i], &s, &e), -1);
		assert_null(s.scratch);
		assert_null(s.name);
		assert_non_null(strstr(e.msg, "unknown sample host"));
		assert_non_null(strstr(e.msg, "intel-2x-l40s"));
		assert_non_null(strstr(e.msg, "esxi-l40s"));
	}
	assert_int_equal(gw_sample_open(NULL, &s, &e), -1);
	gw_sample_close(NULL, 1);
	gw_sample_close(&s, 1);   /* zeroed: harmless */
}

/* ---- linux samples ------------------------------------------------------ */

static void
intel_2x_l40s(void **state)
{
	gw_linux_check *rows;
	gw_linux_gpu *g;
	size_t n, ng, i;
	gw_err e;
	char *t, *p;
	unsigned char *acpi;
	unsigned sum = 0;

	(void)state;
	open_ok("intel-2x-l40s", &cur);
	assert_string_equal(cur.kind, "linux");
	assert_non_null(cur.sysroot);
	assert_null(cur.bin);
	assert_null(cur.volumes);

	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < n; i++)
		if (rows[i].status == GW_LINUX_FAIL)
			fail_msg("FAIL row %s: %s", rows[i].id, rows[i].message);
	expect_row(rows, n, "cpu-virt", GW_LINUX_PASS);
	assert_non_null(strstr(row(rows, n, "cpu-virt")->message, "vmx"));
	expect_row(rows, n, "iommu-firmware", GW_LINUX_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-firmware")->message,
	                       "DMAR"));
	expect_row(rows, n, "iommu-kernel", GW_LINUX_PASS);
	expect_row(rows, n, "kernel-cmdline", GW_LINUX_PASS);
	expect_row(rows, n, "iommu-units", GW_LINUX_PASS);
	if (row(rows, n, "interrupt-remap"))
		expect_row(rows, n, "interrupt-remap", GW_LINUX_PASS);
	/* Two driver rows (the ASPEED gets none), both vfio-pci. */
	for (i = 0, ng = 0; i < n; i++)
		if (strcmp(rows[i].id, "gpu-driver") == 0) {
			assert_int_equal(rows[i].status, GW_LINUX_PASS);
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
		const gw_linux_bar *b1 = bar(&g[i], 1), *b0 = bar(&g[i], 0),
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
		assert_true(gw_linux_gpu_bar_gb(&g[i]) >= 64);
	}
	assert_string_equal(g[1].bdf, "0000:3b:00.0");
	assert_string_equal(g[2].bdf, "0000:5e:00.0");
	assert_string_not_equal(g[1].group, g[2].group);
	gw_linux_gpus_free(g, ng);

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

static void
amd_geforce_usb(void **state)
{
	gw_linux_check *rows;
	gw_linux_gpu *g;
	size_t n, ng, i;
	gw_err e;
	const gw_linux_check *r;
	const gw_linux_bar *b;
	int audio = 0, usb = 0;
	char *t;

	(void)state;
	open_ok("amd-geforce-usb", &cur);
	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < n; i++)
		if (rows[i].status == GW_LINUX_FAIL)
			fail_msg("FAIL row %s: %s", rows[i].id, rows[i].message);
	expect_row(rows, n, "cpu-virt", GW_LINUX_PASS);
	assert_non_null(strstr(row(rows, n, "cpu-virt")->message, "svm"));
	expect_row(rows, n, "iommu-firmware", GW_LINUX_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-firmware")->message,
	                       "IVRS"));
	expect_row(rows, n, "iommu-kernel", GW_LINUX_PASS);
	expect_row(rows, n, "kernel-cmdline", GW_LINUX_PASS);
	expect_row(rows, n, "iommu-units", GW_LINUX_PASS);
	assert_non_null(strstr(row(rows, n, "iommu-units")->message, "ivhd0"));
	if (row(rows, n, "interrupt-remap"))
		expect_row(rows, n, "interrupt-remap", GW_LINUX_PASS);
	r = row(rows, n, "gpu-driver");
	assert_non_null(r);
	assert_int_equal(r->status, GW_LINUX_WARN);
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
	gw_linux_gpus_free(g, ng);

	t = scratch_file(&cur, "root/proc/cpuinfo");
	assert_non_null(strstr(t, "AuthenticAMD"));
	assert_non_null(strstr(t, " svm "));
	free(t);
	t = scratch_file(&cur, "root/proc/cmdline");
	assert_null(strstr(t, "amd_iommu"));
	free(t);
	close_removes(&cur);
}

static void
intel_iommu_off_kernel(void **state)
{
	gw_linux_check *rows;
	gw_linux_gpu *g;
	size_t n, ng;
	gw_err e;
	const gw_linux_check *r;
	const gw_linux_bar *b;
	char *t, *p;

	(void)state;
	open_ok("intel-iommu-off-kernel", &cur);
	if (gw_linux_checks(cur.sysroot, &rows, &n, &e) != 0)
		fail_msg("%s", e.msg);
	expect_row(rows, n, "cpu-virt", GW_LINUX_PASS);
	expect_row(rows, n, "iommu-firmware", GW_LINUX_PASS);
	expect_row(rows, n, "iommu-kernel", GW_LINUX_FAIL);
	r = row(rows, n, "iommu-kernel");
	assert_non_null(r->fix);
	assert_non_null(strstr(r->fix, "intel_iommu=on"));
	expect_row(rows, n, "kernel-cmdline", GW_LINUX_WARN);
	assert_non_null(strstr(row(rows, n, "kernel-cmdline")->fix,
	                       "intel_iommu=on"));
	expect_row(rows, n, "iommu-units", GW_LINUX_WARN);
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
	gw_linux_gpus_free(g, ng);

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
static void
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

/* ---- the ESXi sample ---------------------------------------------------- */

static const gw_esxi_pci_dev *
pci_dev(const gw_esxi_pci_list *l, const char *bdf)
{
	const gw_esxi_pci_dev *d = gw_esxi_pci_find(l, bdf);

	if (d == NULL)
		fail_msg("%s not listed", bdf);
	return d;
}

static void
esxi_l40s(void **state)
{
	gw_runner *r;
	gw_esxi_pci_list pl;
	gw_esxi_vm_list vl;
	gw_esxi_power p;
	gw_err e;
	const gw_esxi_pci_dev *d;
	const gw_esxi_vm *vm;
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
	if (gw_esxi_session_list_pci(r, &pl, &e) != 0)
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
	if (gw_esxi_session_list_pci(r, &pl, &e) != 0)
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
	vm = gw_esxi_vm_find(&vl, 1);
	assert_non_null(vm);
	assert_string_equal(vm->name, "ubuntu-l40s");
	assert_string_equal(vm->datastore, "datastore1");
	assert_int_equal(vm->hw_version, 13);
	assert_int_equal(gw_esxi_vm_find(&vl, 2)->hw_version, 19);
	assert_int_equal(gw_esxi_vm_find(&vl, 3)->hw_version, 21);
	assert_int_equal(gw_esxi_session_power_state(r, 1, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(r, 2, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_ON);
	assert_int_equal(gw_esxi_session_power_state(r, 3, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(r, 99, &p, &e), -1);

	/* The configured VM has the L40S at 0000:3b:00.0 and this host's
	 * system id. */
	vm = gw_esxi_vm_find(&vl, 3);
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
	vm = gw_esxi_vm_find(&vl, 1);
	if (gw_esxi_session_vmx_path(r, vm, &path, &e) != 0 ||
	    gw_esxi_session_read_vmx(r, path, &v, &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(strstr(path, cur.volumes));
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "21");
	assert_string_equal(gw_vmx_get(v, "displayName"), "ubuntu-l40s");
	gw_vmx_free(v);
	free(path);
	gw_esxi_vm_list_free(&vl);
	if (gw_esxi_session_list_vms(r, &vl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_esxi_vm_find(&vl, 1)->hw_version, 21);
	assert_int_equal(gw_esxi_vm_find(&vl, 2)->hw_version, 19);
	gw_esxi_vm_list_free(&vl);
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
	assert_int_equal(p, GW_ESXI_POWER_OFF);
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
static void
esxi_storage_outputs_parse(void **state)
{
	gw_esxi_storage_path_list pl;
	gw_esxi_storage_dev_list dl;
	gw_esxi_vmfs_extent_list xl;
	gw_esxi_passthru_list ptl;
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
	t = LOAD("esxcli-hardware-pci-pcipassthru-list.txt");
	if (gw_esxi_parse_pcipassthru_list(t, "pt", &ptl, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(ptl.n, 5);
	assert_int_equal(gw_esxi_passthru_enabled(&ptl, "0000:3b:00.0"), 1);
	assert_int_equal(gw_esxi_passthru_enabled(&ptl, "0000:5e:00.0"), 0);
	gw_esxi_passthru_list_free(&ptl);
	free(t);
#undef LOAD
}

/* ---- broken samples ------------------------------------------------------ */

typedef struct bad_case {
	const char *ini;
	const char *expect;      /* a piece of the error */
} bad_case;

static const char good_host[] =
	"[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1.0\n"
	"cmdline = \"ro quiet\"\nacpi = DMAR\niommu = on\n";

static void
broken_samples(void **state)
{
	static const bad_case cases[] = {
		{ "[host]\nkind = linux\n", "title is missing" },
		{ "[host]\ntitle = t\nkind = bsd\n",
		  "expected one of linux, esxi, found \"bsd\"" },
		{ "[host]\ntitle = t\nkind = esxi\n",
		  "needs an esxi/ folder" },
		{ "[host]\ntitle = t\nkind = esxi\n[dev1]\nbdf = 0000:00:00.0\n",
		  "unknown section [dev1]" },
		{ "EXTRA[host]\ncolour = red\n", "unknown key 'colour'" },
		{ "EXTRA[gpu]\nx = 1\n", "unknown section [gpu]" },
		{ "EXTRA[dev1]\nbdf = 3b:00.0\nvendor = 0x10de\n",
		  "expected a PCI address" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 10de0\n",
		  "[dev1] vendor: expected a hex number" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\n", "[dev1] class is missing" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"1:mem64p:48G\"\n", "\"1:mem64p:48G\"" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"0:mem64p:64G 1:mem32:16M\"\n", "BAR 1 is given twice" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"5:mem64:16K\"\n", "BAR 5" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"0:mem32:16M@0x123\"\n", "aligned to the size" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\ndriver = \"vfio pci\"\n",
		  "expected a driver name" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "[dev2]\nbdf = 0000:3B:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n",
		  "bdf 0000:3b:00.0 is also in [dev1]" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = DMAR\niommu = off\n"
		  "[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\ngroup = 3\n",
		  "iommu = off" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = DMAR\niommu = on\necap = f020d7\n",
		  "bit 3 (interrupt remapping)" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = arm\n",
		  "expected one of intel, amd" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = amd\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = IVRS\niommu = on\ncpus = 0\n",
		  "cpus: expected a whole number from 1 to 64" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = amd\nkernel = 6.1\n"
		  "acpi = IVRS\niommu = on\n", "cmdline is missing" },
		{ "[host\ntitle = t\n", "syntax error" },
	};
	char *saved = gw_xstrdup(getenv("GPUWIZ_HOSTS_DIR"));
	char *saved_tmp = gw_xstrdup(getenv("TMPDIR"));
	char *hosts = tu_tmpdir(), *tmp = tu_tmpdir(), *dir, *ini, *cmd;
	size_t i;
	gw_sample s;
	gw_err e;
	FILE *f;
	DIR *dp;
	struct dirent *de;
	int entries = 0;

	(void)state;
	setenv("GPUWIZ_HOSTS_DIR", hosts, 1);
	setenv("TMPDIR", tmp, 1);
	dir = gw_xasprintf("%s/broken", hosts);
	assert_int_equal(mkdir(dir, 0755), 0);
	ini = gw_xasprintf("%s/host.ini", dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *text = cases[i].ini;

		f = fopen(ini, "w");
		assert_non_null(f);
		if (strncmp(text, "EXTRA", 5) == 0) {
			fputs(good_host, f);
			text += 5;
		}
		fputs(text, f);
		fclose(f);
		memset(&s, 0, sizeof s);
		if (gw_sample_open("broken", &s, &e) == 0)
			fail_msg("case %zu opened", i);
		if (strstr(e.msg, cases[i].expect) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, e.msg,
			         cases[i].expect);
		assert_null(s.scratch);
	}
	/* The good one opens (no devices); nothing was left in TMPDIR by
	 * the failures. */
	f = fopen(ini, "w");
	assert_non_null(f);
	fputs(good_host, f);
	fclose(f);
	dp = opendir(tmp);
	assert_non_null(dp);
	while ((de = readdir(dp)) != NULL)
		if (de->d_name[0] != '.')
			entries++;
	closedir(dp);
	assert_int_equal(entries, 0);
	if (gw_sample_open("broken", &s, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(strncmp(s.scratch, tmp, strlen(tmp)) == 0);
	close_removes(&s);

	setenv("GPUWIZ_HOSTS_DIR", saved, 1);
	if (saved_tmp)
		setenv("TMPDIR", saved_tmp, 1);
	else
		unsetenv("TMPDIR");
	cmd = gw_xasprintf("rm -rf '%s' '%s'", hosts, tmp);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(ini);
	free(dir);
	free(hosts);
	free(tmp);
	free(saved);
	free(saved_tmp);
}

/* ---- setup -------------------------------------------------------------- */

static int
close_after(void **state)
{
	(void)state;
	gw_sample_close(&cur, 1);
	return 0;
}

static int
setup(void **state)
{
	const char *d = getenv("GPUWIZ_HOSTS_DIR"), *src = getenv("GW_SRCDIR");
	gw_err e;

	(void)state;
	if (d && *d)
		samples_dir = gw_xstrdup(d);
	else if (src && *src)
		samples_dir = gw_xasprintf("%s/data/hosts", src);
	else
		samples_dir = gw_xstrdup("data/hosts");
	setenv("GPUWIZ_HOSTS_DIR", samples_dir, 1);
	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	gw_table_free(&table);
	free(samples_dir);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(list_four_samples),
		cmocka_unit_test(hosts_dir_lookup),
		cmocka_unit_test(unknown_names),
		cmocka_unit_test_teardown(intel_2x_l40s, close_after),
		cmocka_unit_test_teardown(amd_geforce_usb, close_after),
		cmocka_unit_test_teardown(intel_iommu_off_kernel, close_after),
		cmocka_unit_test(close_keeps_scratch),
		cmocka_unit_test_teardown(esxi_l40s, close_after),
		cmocka_unit_test(esxi_storage_outputs_parse),
		cmocka_unit_test(broken_samples),
	};

	return cmocka_run_group_tests(t, setup, teardown);
}
