/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_linux.c: gpuwiz check / gpuwiz gpus on fake Linux hosts.
 *
 * Each test builds a host under a tu_tmpdir() from a small description:
 * the real sysfs layout per PCI device (sys/devices/pci0000:00/BDF with
 * config, resource, vendor, device, class, subsystem_*, irq; the
 * sys/bus/pci/devices/BDF link; iommu_group and driver links; the
 * sys/kernel/iommu_groups/N/devices links), /proc/cpuinfo, /proc/cmdline,
 * /proc/interrupts, the Intel units' ecap and the ACPI DMAR/IVRS table
 * (tests/fixtures/README.md, "Fake Linux hosts").
 */
#include "testutil.h"
#include "linux.h"
#include "host.h"
#include "finding_print.h"
#include "gputable.h"
#include "gpus_print.h"

#include <fcntl.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

static gw_table table;

#include "fakehost.h"

static const fdev nvme = { "0000:02:00.0", 0x144d, 0xa808, 0x010802, 0x144d,
	0xa801, { { B_MEM64P, 16384 } }, "3", "nvme" };

/* A host of the tests: Intel, with an igb NIC, an AST BMC (a display,
 * not a GPU maker's) and an L40S. */
static const fhost q_h = { CPU_INTEL, NULL, "intel_iommu=on", 1 };
static const fdev q_nic = { "0000:02:00.0", 0x8086, 0x1533, 0x020000,
	0x8086, 0x0001, { { B_MEM32, 1u << 20 } }, NULL, "igb" };
static const fdev q_bmc = { "0000:03:00.0", 0x1a03, 0x2000, 0x030000,
	0x1a03, 0x2000, { { B_MEM32, 16u << 20 } }, NULL, "ast" };
static const fdev q_gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200,
	0x10de, 0x1851, GPU_BARS_ADA(64 * GiB), "25", "nvidia" };

/* That host under root: the NIC and the BMC, and the GPU with gpu. */
static void
add_q_host(const char *root, int gpu)
{
	add_host(root, &q_h);
	add_dev(root, &q_nic);
	add_dev(root, &q_bmc);
	if (gpu)
		add_dev(root, &q_gpu);
}

/* ---- running a command ------------------------------------------------ */

typedef struct run_out {
	int rc;
	char *out;
	gw_err e;
} run_out;

static int cap_fd = -1, saved_fd = -1;
static char *cap_path;

static void
cap_begin(void)
{
	char *dir = tu_tmpdir();

	cap_path = gw_xasprintf("%s/out", dir);
	free(dir);
	fflush(stdout);
	saved_fd = dup(1);
	cap_fd = open(cap_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(cap_fd >= 0);
	dup2(cap_fd, 1);
}

static char *
cap_end(void)
{
	char *data = NULL, *dir;
	size_t len;
	gw_err e;

	fflush(stdout);
	dup2(saved_fd, 1);
	close(saved_fd);
	close(cap_fd);
	assert_int_equal(gw_read_file(cap_path, 1u << 20, &data, &len, &e), 0);
	unlink(cap_path);
	dir = gw_xstrdup(cap_path);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
	free(dir);
	free(cap_path);
	return data;
}

static run_out
run_check(const char *root, int json)
{
	run_out r;

	/* what gpuwiz check does (cmd_check): the host's probe, its rows
	 * printed, 1 when a row FAILs, 2 when the checks cannot run */
	gw_host *h = gw_host_open_linux(root);
	gw_host_probe p;

	memset(&r, 0, sizeof r);
	assert_non_null(h);
	gw_host_probe_all(h, &table, &p);
	cap_begin();
	if (p.checks_error != NULL) {
		gw_err_set(&r.e, "%s", p.checks_error);
		r.rc = 2;
	} else {
		gw_checks_print(stdout, p.checks, p.nchecks, json);
		r.rc = p.fails > 0 ? 1 : 0;
	}
	r.out = cap_end();
	gw_host_probe_free(&p);
	gw_host_close(h);
	if (getenv("GW_TEST_VERBOSE"))   /* to read the output by hand */
		fprintf(stderr, "rc %d: %s%s\n", r.rc, r.out, r.e.msg);
	return r;
}

static run_out
run_gpus(const char *root, int json)
{
	run_out r;

	gw_host *h = gw_host_open_linux(root);
	gw_gpu_list l;
	gw_buf b;

	/* what gpuwiz gpus does: the host's list, the one printer */
	memset(&r, 0, sizeof r);
	gw_buf_init(&b);
	if (gw_host_gpus(h, &table, &l, &r.e) != 0) {
		r.rc = 2;
	} else {
		gw_gpus_output(&b, &l, json);
	}
	gw_gpu_list_free(&l);
	gw_host_close(h);
	r.out = gw_buf_steal(&b);
	gw_buf_free(&b);
	if (getenv("GW_TEST_VERBOSE"))   /* to read the output by hand */
		fprintf(stderr, "rc %d: %s%s\n", r.rc, r.out, r.e.msg);
	return r;
}

static json_t *
parse(const char *s)
{
	json_error_t je;
	json_t *j = json_loads(s, 0, &je);

	if (j == NULL)
		fail_msg("bad JSON (%s): %s", je.text, s);
	return j;
}

/* Status of the first check row with this id ("" when none). */
static const char *
status_of(json_t *o, const char *id)
{
	json_t *arr = json_object_get(o, "checks"), *c;
	size_t i;

	json_array_foreach(arr, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
			return json_string_value(json_object_get(c, "status"));
	}
	return "";
}

/* Position of the first row with this id, -1 when none. */
static int
index_of(json_t *o, const char *id)
{
	json_t *arr = json_object_get(o, "checks"), *c;
	size_t i;

	json_array_foreach(arr, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
			return (int)i;
	}
	return -1;
}

/* gpuwiz check --json on root, which must exit with rc. */
static json_t *
check_json(const char *root, int rc)
{
	run_out r = run_check(root, 1);
	json_t *o;

	assert_int_equal(r.rc, rc);
	o = parse(r.out);
	free(r.out);
	return o;
}

static const char *
field_of(json_t *o, const char *id, const char *field)
{
	json_t *arr = json_object_get(o, "checks"), *c;
	size_t i;

	json_array_foreach(arr, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
			return json_string_value(json_object_get(c, field));
	}
	return NULL;
}

/* ---- gpuwiz check ----------------------------------------------------- */

static void
check_intel_on(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 "
	            "intel_iommu=on iommu=pt", 2 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	             GPU_BARS_ADA(64 * GiB), "25", "vfio-pci" };
	run_out r;
	json_t *o;
	size_t i;
	json_t *c;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	assert_string_equal(status_of(o, "cpu-virt"), "PASS");
	assert_string_equal(status_of(o, "iommu-firmware"), "PASS");
	assert_string_equal(status_of(o, "iommu-kernel"), "PASS");
	assert_string_equal(status_of(o, "kernel-cmdline"), "PASS");
	assert_string_equal(status_of(o, "iommu-units"), "PASS");
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	assert_string_equal(status_of(o, "gpu-driver"), "PASS");
	/* the rows in their order: interrupt remapping after the IOMMU rows */
	assert_int_equal(index_of(o, "cpu-virt"), 0);
	assert_int_equal(index_of(o, "iommu-firmware"), 1);
	assert_int_equal(index_of(o, "iommu-kernel"), 2);
	assert_int_equal(index_of(o, "kernel-cmdline"), 3);
	assert_int_equal(index_of(o, "iommu-units"), 4);
	assert_int_equal(index_of(o, "interrupt-remap"), 5);
	assert_int_equal(index_of(o, "gpu-driver"), 6);
	assert_int_equal(json_array_size(json_object_get(o, "checks")), 7);
	json_array_foreach(json_object_get(o, "checks"), i, c)
		assert_true(json_is_null(json_object_get(c, "fix")));
	json_decref(o);
	free(r.out);

	r = run_check(root, 0);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Checking for device assignment IOMMU "
	                              "support : PASS\n"));
	assert_non_null(strstr(r.out, "Checking for hardware virtualization : "
	                              "PASS\n"));
	assert_non_null(strstr(r.out, "Checking for interrupt remapping : "
	                              "PASS\n"));
	assert_null(strstr(r.out, "fix:"));
	free(r.out);
	rm_tree(root);
}

static void
check_amd_on_and_amd_iommu_on(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_AMD, "IVRS", "quiet amd_iommu=on", 1 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x2204, 0x030000, 0x10de, 0x147d,
	             GPU_BARS_ADA(256u << 20), "14", "nvidia" };
	fdev bmc = { "0000:05:00.0", 0x1a03, 0x2000, 0x030000, 0x1a03, 0x2000,
	             { { B_MEM32, 16u << 20 } }, "9", "ast" };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	add_dev(root, &bmc);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 0);   /* warnings only */
	o = parse(r.out);
	assert_string_equal(status_of(o, "cpu-virt"), "PASS");
	assert_string_equal(status_of(o, "iommu-firmware"), "PASS");
	assert_non_null(strstr(field_of(o, "iommu-firmware", "message"),
	                       "IVRS"));
	assert_string_equal(status_of(o, "iommu-kernel"), "PASS");
	assert_string_equal(status_of(o, "kernel-cmdline"), "WARN");
	assert_non_null(strstr(field_of(o, "kernel-cmdline", "message"),
	                       "amd_iommu=on is not a valid value"));
	assert_non_null(strstr(field_of(o, "kernel-cmdline", "fix"),
	                       "remove amd_iommu=on"));
	/* nvidia bound: WARN with the vfio-pci fix; the BMC has no row */
	assert_string_equal(status_of(o, "gpu-driver"), "WARN");
	assert_non_null(strstr(field_of(o, "gpu-driver", "message"),
	                       "bound to nvidia"));
	assert_non_null(strstr(field_of(o, "gpu-driver", "fix"),
	                       "vfio-pci.ids=10de:2204"));
	assert_null(strstr(r.out, "0000:05:00.0"));
	json_decref(o);
	free(r.out);

	r = run_check(root, 0);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Checking the kernel command line : "
	                              "WARN\n  amd_iommu=on is not a valid"));
	assert_non_null(strstr(r.out, "  fix: remove amd_iommu=on"));
	free(r.out);
	rm_tree(root);
}

static void
check_iommu_off_in_bios(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, NULL, "BOOT_IMAGE=/vmlinuz quiet", 0 };
	fdev gpu = { "0000:01:00.0", 0x10de, 0x26b9, 0x030200, 0, 0,
	             GPU_BARS_ADA(64 * GiB), NULL, NULL };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 1);
	o = parse(r.out);
	assert_string_equal(status_of(o, "cpu-virt"), "PASS");
	assert_string_equal(status_of(o, "iommu-firmware"), "FAIL");
	assert_non_null(strstr(field_of(o, "iommu-firmware", "message"),
	                       "IOMMU either disabled in BIOS or not "
	                       "supported"));
	assert_non_null(strstr(field_of(o, "iommu-firmware", "fix"), "VT-d"));
	assert_string_equal(status_of(o, "iommu-kernel"), "FAIL");
	assert_string_equal(status_of(o, "kernel-cmdline"), "WARN");
	assert_string_equal(status_of(o, "iommu-units"), "WARN");
	assert_string_equal(status_of(o, "gpu-driver"), "WARN");
	assert_non_null(strstr(field_of(o, "gpu-driver", "message"),
	                       "no driver bound"));
	json_decref(o);
	free(r.out);
	rm_tree(root);
}

static void
check_iommu_off_in_kernel(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "BOOT_IMAGE=/vmlinuz quiet", 0 };
	fhost ha = { CPU_AMD, "IVRS", "BOOT_IMAGE=/vmlinuz amd_iommu=off", 0 };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 1);
	o = parse(r.out);
	assert_string_equal(status_of(o, "iommu-firmware"), "PASS");
	assert_string_equal(status_of(o, "iommu-kernel"), "FAIL");
	assert_string_equal(field_of(o, "iommu-kernel", "message"),
	                    "IOMMU appears to be disabled in kernel. Add "
	                    "intel_iommu=on to kernel cmdline arguments");
	assert_non_null(strstr(field_of(o, "iommu-kernel", "fix"),
	                       "intel_iommu=on"));
	assert_string_equal(status_of(o, "kernel-cmdline"), "WARN");
	assert_non_null(strstr(field_of(o, "kernel-cmdline", "message"),
	                       "before 6.8"));
	/* no GPU at all: a WARN row, not a failure by itself */
	assert_string_equal(status_of(o, "gpu-present"), "WARN");
	json_decref(o);
	free(r.out);
	rm_tree(root);

	root = tu_tmpdir();
	add_host(root, &ha);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 1);
	o = parse(r.out);
	assert_string_equal(status_of(o, "iommu-kernel"), "FAIL");
	assert_non_null(strstr(field_of(o, "iommu-kernel", "message"),
	                       "AMD IOMMU is on by default"));
	assert_non_null(strstr(field_of(o, "iommu-kernel", "fix"),
	                       "amd_iommu=off"));
	assert_string_equal(status_of(o, "kernel-cmdline"), "WARN");
	assert_non_null(strstr(field_of(o, "kernel-cmdline", "message"),
	                       "turns the IOMMU off"));
	json_decref(o);
	free(r.out);
	rm_tree(root);
}

static void
check_no_virt(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_NOVIRT, "DMAR", "intel_iommu=on", 1 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0, 0,
	             GPU_BARS_ADA(64 * GiB), "1", "vfio-pci" };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	r = run_check(root, 1);
	assert_int_equal(r.rc, 1);
	o = parse(r.out);
	assert_string_equal(status_of(o, "cpu-virt"), "FAIL");
	assert_string_equal(status_of(o, "iommu-kernel"), "PASS");
	json_decref(o);
	free(r.out);
	rm_tree(root);
}

/* Interrupt remapping on Intel: /proc/interrupts says whether it is on,
 * the units' ecap (bit 3) whether the hardware has it. */
static void
check_irq_remap_intel(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on iommu=pt", 2 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	             GPU_BARS_ADA(64 * GiB), "25", "vfio-pci" };
	const char *m, *f;
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);

	/* remapped IO-APIC and MSI interrupts: PASS, both named */
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	m = field_of(o, "interrupt-remap", "message");
	assert_non_null(strstr(m, "interrupt remapping is on"));
	assert_non_null(strstr(m, "proc/interrupts has IR-PCI-MSI, IR-IO-APIC "
	                          "interrupts"));
	assert_true(json_is_null(json_object_get(json_array_get(
	    json_object_get(o, "checks"), (size_t)index_of(o,
	    "interrupt-remap")), "fix")));
	json_decref(o);

	/* nothing remapped, no ecap to read: WARN (not FAIL) */
	put_interrupts(root, 0, 1);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	m = field_of(o, "interrupt-remap", "message");
	assert_non_null(strstr(m, "no interrupt in "));
	assert_non_null(strstr(m, "although the IOMMU is on"));
	f = field_of(o, "interrupt-remap", "fix");
	assert_non_null(strstr(f, "enable \"Interrupt Remapping\" and x2APIC "
	                          "in the BIOS/UEFI setup"));
	assert_non_null(strstr(f, "\"No interrupt remapping support\""));
	assert_non_null(strstr(f, "allow_unsafe_interrupts=1"));
	assert_non_null(strstr(f, "use it only knowingly"));
	json_decref(o);

	/* the hardware has it (both units' IR bit set) */
	put_ecap(root, 0, 1);
	put_ecap(root, 1, 1);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "although dmar0 supports interrupt remapping "
	                       "(IR bit of its ecap register)"));
	json_decref(o);
	r = run_check(root, 0);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Checking for interrupt remapping : "
	                              "WARN\n  no interrupt in "));
	assert_non_null(strstr(r.out, "  fix: enable \"Interrupt Remapping\""));
	free(r.out);

	/* the kernel command line turns it off */
	put_text(root, "proc/cmdline", "intel_iommu=on intremap=off\n");
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "the kernel command line turns interrupt "
	                       "remapping off"));
	assert_non_null(strstr(field_of(o, "interrupt-remap", "fix"),
	                       "remove intremap=off and nointremap"));
	json_decref(o);
	put_text(root, "proc/cmdline", "quiet nointremap\n");
	o = check_json(root, 0);
	assert_non_null(strstr(field_of(o, "interrupt-remap", "fix"),
	                       "remove intremap=off and nointremap"));
	json_decref(o);
	put_text(root, "proc/cmdline", "intel_iommu=on iommu=pt\n");

	/* one unit without the IR bit: the kernel leaves remapping off */
	put_ecap(root, 1, 0);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "dmar1 does not support interrupt remapping: "
	                       "the IR bit (bit 3) of its ecap register is "
	                       "clear"));
	f = field_of(o, "interrupt-remap", "fix");
	assert_non_null(strstr(f, "intel-iommu,intremap=on"));
	assert_non_null(strstr(f, "allow_unsafe_interrupts=1"));
	json_decref(o);

	/* no /proc/interrupts: WARN, not checked, said so */
	put_ecap(root, 1, 1);
	drop_interrupts(root);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "could not be checked"));
	assert_non_null(strstr(field_of(o, "interrupt-remap", "fix"),
	                       "/proc"));
	json_decref(o);
	/* ... though a unit without the IR bit settles it */
	put_ecap(root, 0, 0);
	o = check_json(root, 0);
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "dmar0 does not support"));
	json_decref(o);
	rm_tree(root);
}

static void
check_irq_remap_amd(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_AMD, "IVRS", "iommu=pt", 1 };
	fhost off = { CPU_AMD, "IVRS", "amd_iommu=off", 0 };
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &nvme);    /* an IOMMU group */
	/* a newer kernel: IR-PCI-MSIX-0000:02:00.0 */
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "IR-PCI-MSI, IR-IO-APIC"));
	json_decref(o);

	put_interrupts(root, 0, 0);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "although the AMD IOMMU supports interrupt "
	                       "remapping"));
	assert_non_null(strstr(field_of(o, "interrupt-remap", "fix"),
	                       "IOMMU / AMD-Vi"));
	json_decref(o);

	drop_interrupts(root);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "could not be checked"));
	json_decref(o);
	rm_tree(root);

	/* the IOMMU off: remapping cannot be on either */
	root = tu_tmpdir();
	add_host(root, &off);
	o = check_json(root, 1);
	assert_string_equal(status_of(o, "iommu-kernel"), "FAIL");
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "needs the IOMMU, which is off"));
	assert_non_null(strstr(field_of(o, "interrupt-remap", "fix"),
	                       "turn the IOMMU on first"));
	json_decref(o);
	rm_tree(root);
}

/* Which /proc/interrupts lines count as remapped. */
static void
check_irq_remap_lines(void **state)
{
	static const char head[] = "           CPU0       CPU1\n";
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fhost off = { CPU_INTEL, "DMAR", "intel_iommu=off", 0 };
	char *t;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &nvme);    /* an IOMMU group */
	/* only the IO-APIC remapped */
	t = gw_xasprintf("%s  0:  44  0  IR-IO-APIC  2-edge  timer\n"
	                 " 24:  9  0  PCI-MSI 65536-edge  eth0\n", head);
	put_text(root, "proc/interrupts", t);
	free(t);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "has IR-IO-APIC interrupts"));
	json_decref(o);
	/* per-device MSI-X domains, and the vIR- proposed for virtual IOMMUs */
	t = gw_xasprintf("%s 24:  9  0  IR-PCI-MSIX-0000:41:00.0  0-edge  x\n",
	                 head);
	put_text(root, "proc/interrupts", t);
	free(t);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "has IR-PCI-MSI interrupts"));
	json_decref(o);
	t = gw_xasprintf("%s 24:  9  0  vIR-PCI-MSI-0000:00:03.0  0-edge  x\n",
	                 head);
	put_text(root, "proc/interrupts", t);
	free(t);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	json_decref(o);
	/* plain chips, and an empty file: nothing remapped */
	t = gw_xasprintf("%s  0:  44  0  IO-APIC  2-edge  timer\n"
	                 " 24:  9  0  PCI-MSI-0000:00:1f.6  0-edge  eno1\n"
	                 " 25:  0  0  DMAR-MSI  0-edge  dmar0\n", head);
	put_text(root, "proc/interrupts", t);
	free(t);
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	json_decref(o);
	put_text(root, "proc/interrupts", "");
	o = check_json(root, 0);
	assert_string_equal(status_of(o, "interrupt-remap"), "WARN");
	assert_non_null(strstr(field_of(o, "interrupt-remap", "message"),
	                       "no interrupt in "));
	json_decref(o);
	rm_tree(root);

	/* remapping on while DMA remapping is off (intel_iommu=off, x2APIC
	 * with interrupt remapping): what /proc/interrupts shows counts */
	root = tu_tmpdir();
	add_host(root, &off);
	put_interrupts(root, 1, 1);
	o = check_json(root, 1);
	assert_string_equal(status_of(o, "iommu-kernel"), "FAIL");
	assert_string_equal(status_of(o, "interrupt-remap"), "PASS");
	json_decref(o);
	rm_tree(root);
}

static void
input_errors(void **state)
{
	char *root = tu_tmpdir();
	char *missing = gw_xasprintf("%s/nope", root);
	char *file = gw_xasprintf("%s/file", root);
	run_out r;

	(void)state;
	put_text(root, "file", "x");
	r = run_check(missing, 0);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.e.msg, missing));
	assert_null(strchr(r.e.msg, '\n'));
	free(r.out);
	r = run_check(file, 1);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.e.msg, "not a directory"));
	free(r.out);
	r = run_gpus(missing, 1);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	free(r.out);
	r = run_gpus(file, 0);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	free(r.out);
	/* a directory that is no Linux host */
	r = run_gpus(root, 0);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.e.msg, "sys/bus/pci/devices"));
	free(r.out);
	free(missing);
	free(file);
	rm_tree(root);
}

/* libpci's own error (a broken resource file) comes back as an input
 * error instead of exit(). */
static void
gpus_libpci_error(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0, 0,
	             GPU_BARS_ADA(64 * GiB), "1", "vfio-pci" };
	char *p;
	run_out r;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	p = gw_xasprintf("%s/sys/devices/pci0000:00/0000:41:00.0/resource",
	                 root);
	unlink(p);
	free(p);
	put_text(root, "sys/devices/pci0000:00/0000:41:00.0/resource",
	         "garbage\n");
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.e.msg, "cannot read the PCI devices"));
	free(r.out);
	rm_tree(root);
}

/* ---- gpuwiz gpus ------------------------------------------------------ */

static json_t *
bar_at(json_t *gpu, size_t i)
{
	return json_array_get(json_object_get(gpu, "bars"), i);
}

static void
assert_bar(json_t *b, int index, uint64_t size, int is64, int pref)
{
	assert_non_null(b);
	assert_int_equal(json_integer_value(json_object_get(b, "index")), index);
	assert_int_equal((uint64_t)json_integer_value(
	                     json_object_get(b, "size_bytes")), size);
	assert_int_equal(json_is_true(json_object_get(b, "is_64bit")), is64);
	assert_int_equal(json_is_true(json_object_get(b, "prefetchable")),
	                 pref);
}

static void
gpus_rtx6000_ada_rebar(void **state)
{
	uint64_t bar1[2] = { 64 * GiB, 256u << 20 };
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		char *root = tu_tmpdir();
		fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
		fdev gpu = { "0000:41:00.0", 0x10de, 0x26b1, 0x030000, 0x10de,
		             0x16a1, GPU_BARS_ADA(bar1[k]), "25", "vfio-pci" };
		fdev audio = { "0000:41:00.1", 0x10de, 0x22ba, 0x040300, 0x10de,
		               0x16a1, { { B_MEM32, 16384 } }, "25", "vfio-pci" };
		run_out r;
		json_t *o, *g, *devs;

		add_host(root, &h);
		add_dev(root, &gpu);
		add_dev(root, &audio);
		r = run_gpus(root, 1);
		assert_int_equal(r.rc, 0);
		o = parse(r.out);
		assert_int_equal(json_array_size(json_object_get(o, "gpus")), 1);
		g = json_array_get(json_object_get(o, "gpus"), 0);
		assert_string_equal(json_string_value(json_object_get(g, "bdf")),
		                    "0000:41:00.0");
		assert_string_equal(json_string_value(
		    json_object_get(g, "vendor_id")), "10de");
		assert_string_equal(json_string_value(
		    json_object_get(g, "device_id")), "26b1");
		assert_string_equal(json_string_value(json_object_get(g, "name")),
		                    "AD102GL [RTX 6000 Ada Generation]");
		assert_int_equal(json_integer_value(
		    json_object_get(g, "vram_gb")), 48);
		assert_int_equal(json_array_size(json_object_get(g, "bars")), 4);
		assert_bar(bar_at(g, 0), 0, 16u << 20, 0, 0);
		assert_bar(bar_at(g, 1), 1, bar1[k], 1, 1);
		assert_bar(bar_at(g, 2), 3, 32u << 20, 1, 1);
		assert_bar(bar_at(g, 3), 5, 128, 0, 0);
		assert_true(json_is_true(json_object_get(bar_at(g, 3), "io")));
		assert_string_equal(json_string_value(
		    json_object_get(g, "iommu_group")), "25");
		devs = json_object_get(g, "iommu_group_devices");
		assert_int_equal(json_array_size(devs), 1);
		assert_string_equal(json_string_value(json_array_get(devs, 0)),
		                    "0000:41:00.1");
		assert_string_equal(json_string_value(
		    json_object_get(g, "driver")), "vfio-pci");
		/* rule on 48 GB: 128; BARs 64G+32M -> 128 or 256M+32M -> 1 */
		assert_int_equal(json_integer_value(
		    json_object_get(o, "mmio_size_gb")), 128);
		assert_int_equal(json_array_size(json_object_get(o, "notes")), 0);
		json_decref(o);
		free(r.out);

		r = run_gpus(root, 0);
		assert_int_equal(r.rc, 0);
		assert_non_null(strstr(r.out, "0000:41:00.0"));
		assert_non_null(strstr(r.out, k == 0 ? "1:64G 3:32M"
		                                     : "1:256M 3:32M"));
		assert_non_null(strstr(r.out, "in one VM: 128 GB"));
		free(r.out);
		rm_tree(root);
	}
}

static void
gpus_two_l40s(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_AMD, "IVRS", "iommu=pt", 1 };
	fdev a = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	           GPU_BARS_ADA(64 * GiB), "30", "vfio-pci" };
	fdev b = { "0000:c1:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	           GPU_BARS_ADA(64 * GiB), "60", "vfio-pci" };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &a);
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	/* one L40S: 64 GiB BAR1 + 32 MiB BAR3 -> 128 */
	assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")),
	                 128);
	json_decref(o);
	free(r.out);

	add_dev(root, &b);
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	assert_int_equal(json_array_size(json_object_get(o, "gpus")), 2);
	/* two: rule on 96 GB = 256, BARs 2 x (64G + 32M) -> 256 */
	assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")),
	                 256);
	json_decref(o);
	free(r.out);
	rm_tree(root);
}

static void
gpus_unknown_gpu_sized_from_bars(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0xfffe, 0x030200, 0x10de, 0x0001,
	             GPU_BARS_ADA(32 * GiB), "7", "vfio-pci" };
	run_out r;
	json_t *o, *g;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	g = json_array_get(json_object_get(o, "gpus"), 0);
	assert_true(json_is_null(json_object_get(g, "vram_gb")));
	assert_true(json_is_null(json_object_get(g, "name")));
	/* 32G + 32M -> 64 */
	assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")),
	                 64);
	json_decref(o);
	free(r.out);
	r = run_gpus(root, 0);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "unknown"));
	assert_non_null(strstr(r.out, "in one VM: 64 GB (VRAM unknown, sized "
	                              "from the BARs)"));
	free(r.out);
	rm_tree(root);
}

static void
gpus_none(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	run_out r;
	json_t *o;

	(void)state;
	add_host(root, &h);
	add_dev(root, &nvme);
	r = run_gpus(root, 0);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "no display-class device in "));
	free(r.out);
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	assert_int_equal(json_array_size(json_object_get(o, "gpus")), 0);
	assert_true(json_is_null(json_object_get(o, "mmio_size_gb")));
	json_decref(o);
	free(r.out);
	rm_tree(root);
}

static void
gpus_foreign_group_mate(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev gpu = { "0000:01:00.0", 0x10de, 0x2803, 0x030000, 0x1462, 0x5174,
	             GPU_BARS_ADA(16 * GiB), "3", "nouveau" };
	fdev port = { "0000:00:01.0", 0x8086, 0x1901, 0x060400, 0, 0,
	              { { B_NONE, 0 } }, "3", "pcieport" };
	run_out r;
	json_t *o, *g, *devs, *notes;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	add_dev(root, &nvme);    /* group 3 too */
	add_dev(root, &port);
	r = run_gpus(root, 1);
	assert_int_equal(r.rc, 0);
	o = parse(r.out);
	g = json_array_get(json_object_get(o, "gpus"), 0);
	assert_string_equal(json_string_value(json_object_get(g, "driver")),
	                    "nouveau");
	devs = json_object_get(g, "iommu_group_devices");
	assert_int_equal(json_array_size(devs), 2);
	assert_string_equal(json_string_value(json_array_get(devs, 0)),
	                    "0000:00:01.0");
	assert_string_equal(json_string_value(json_array_get(devs, 1)),
	                    "0000:02:00.0");
	/* the NVMe must go along; the root port does not count */
	notes = json_object_get(o, "notes");
	assert_int_equal(json_array_size(notes), 1);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)),
	                       "WARN: 0000:01:00.0 shares IOMMU group 3 with "
	                       "0000:02:00.0"));
	/* RTX 4060 Ti: 16 GB -> 32; BARs 16G + 32M -> 32 */
	assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")),
	                 32);
	json_decref(o);
	free(r.out);
	r = run_gpus(root, 0);
	assert_non_null(strstr(r.out, "WARN: 0000:01:00.0 shares"));
	free(r.out);
	rm_tree(root);
}

/* The structured results the commands print (and the wizard shows). */
static void
structured_rows_and_gpus(void **state)
{
	char *root = tu_tmpdir();
	fdev unk = { "0000:42:00.0", 0x10de, 0xfffe, 0x030200, 0x10de, 0x0001,
	             GPU_BARS_ADA(32 * GiB), "26", "vfio-pci" };
	gw_finding *rows;
	gw_gpu_dev *g;
	size_t n, i;
	int fails = 0;
	gw_err e;

	(void)state;
	add_host(root, &q_h);
	add_dev(root, &q_gpu);
	add_dev(root, &unk);
	add_dev(root, &q_bmc);
	assert_int_equal(gw_linux_checks(root, &rows, &n, &e), 0);
	assert_true(n >= 6);
	assert_string_equal(rows[0].id, "cpu-virt");
	assert_int_equal(rows[0].sev, GW_SEV_PASS);
	assert_null(rows[0].fix);
	for (i = 0; i < n; i++) {
		assert_non_null(rows[i].title);
		assert_non_null(rows[i].message);
		assert_int_equal(rows[i].topic, GW_TOPIC_HOST);
		if (strcmp(rows[i].id, "iommu-firmware") == 0) {
			assert_int_equal(rows[i].sev, GW_SEV_ERROR);
			assert_non_null(rows[i].fix);
		}
		fails += rows[i].sev == GW_SEV_ERROR;
	}
	assert_int_equal(fails, 1);
	assert_string_equal(gw_sev_word(GW_SEV_WARN), "WARN");
	gw_linux_checks_free(rows, n);

	assert_int_equal(gw_linux_gpus(&table, root, &g, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_string_equal(g[0].bdf, "0000:03:00.0");
	assert_true(g[0].onboard);
	assert_string_equal(g[1].bdf, "0000:41:00.0");
	assert_false(g[1].onboard);
	assert_non_null(g[1].row);
	assert_int_equal(g[1].vram_gb, 48);
	assert_string_equal(g[1].group, "25");
	assert_string_equal(g[1].driver, "nvidia");
	assert_null(g[2].row);
	assert_int_equal(g[2].vram_gb, -1);
	/* 32G + 32M of 64-bit BARs -> 64 GB, as gpuwiz gpus says */
	assert_int_equal(gw_gpu_dev_bar_gb(&g[2]), 64);
	gw_gpu_devs_free(g, n);

	/* errors */
	assert_int_equal(gw_linux_checks("/nonexistent/x", &rows, &n, &e), -1);
	assert_null(rows);
	assert_int_equal(gw_linux_gpus(&table, "/nonexistent/x", &g, &n, &e),
	                 -1);
	assert_null(g);
	rm_tree(root);
}

/* Whether the host has a GPU (the welcome screen's question): an onboard
 * display alone is none, a display-class NVIDIA device is one; no PCI
 * folder or no root is an error. */
static void
has_gpu_from_class(void **state)
{
	char *root = tu_tmpdir();
	gw_err e;

	(void)state;
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), -1);
	assert_non_null(strstr(e.msg, "sys/bus/pci/devices"));
	add_q_host(root, 0);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 0);
	add_dev(root, &q_gpu);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	assert_int_equal(gw_linux_has_gpu("/nonexistent/x", 0, &e), -1);
	rm_tree(root);
}

/* A /proc/bus/pci/devices line as drivers/pci/proc.c writes it: bus and
 * devfn, vendor and device, irq, seven addresses and seven sizes (all 0
 * here), the driver. */
static void
proc_line(gw_buf *b, unsigned bus, unsigned dev, unsigned fn, unsigned vd,
          const char *drv)
{
	int k;

	gw_buf_printf(b, "%02x%02x\t%08x\t0", bus, dev << 3 | fn, vd);
	for (k = 0; k < 14; k++)
		gw_buf_printf(b, "\t%16x", 0);
	gw_buf_printf(b, "\t%s\n", drv);
}

static void
put_proc(const char *root, const gw_buf *b)
{
	put_text(root, "proc/bus/pci/devices", b->data ? b->data : "");
}

/* The same question from /proc/bus/pci/devices: the GPU makers' functions
 * only (the GPU in sys but not in that file is not seen), their class
 * files deciding; the sysfs walk where that file cannot answer (missing,
 * empty, not the kernel's lines, a GPU maker's bus and devfn listed twice
 * or not in domain 0000), with the same rule: an Intel display is no GPU
 * either way, an AMD one is. */
static void
has_gpu_from_proc(void **state)
{
	char *root = tu_tmpdir(), *root2 = tu_tmpdir(), *p;
	fdev hda = { "0000:41:00.1", 0x10de, 0x22ba, 0x040300, 0x10de, 0x1851,
	             { { B_MEM32, 16u << 10 } }, "25", "snd_hda_intel" };
	fdev igd = { "0000:00:02.0", 0x8086, 0x56c0, 0x030000, 0x8086, 0x4905,
	             { { B_MEM32, 16u << 20 } }, NULL, "i915" };
	fdev amd = { "0000:05:00.0", 0x1002, 0x74a1, 0x038000, 0x1002, 0x74a1,
	             { { B_MEM32, 16u << 20 } }, NULL, "amdgpu" };
	/* not the kernel's lines, or none: the walk (the GPU in sys); nor
	 * with a stray byte where the kernel puts a digit; blanks for its
	 * tabs and its lines cut short are its fields still: the NIC alone,
	 * no GPU */
	static const struct {
		const char *text;
		int has;
	} texts[] = {
		{ "0241 bogus\n", 1 }, { "", 1 }, { "10000\t10de26b9\t0\n", 1 },
		{ "0200\t8086153g\t0\n", 1 }, { "020x\t80861533\t0\n", 1 },
		{ "0200 80861533 0\n", 0 },
		{ "0200\t80861533\n0300\t1a032000", 0 },
	};
	size_t i;
	gw_buf b;
	gw_err e;

	(void)state;
	add_q_host(root, 1);
	add_dev(root, &hda);

	/* the file lists the NIC and the BMC: no GPU, whatever sys holds */
	gw_buf_init(&b);
	proc_line(&b, 0x02, 0, 0, 0x80861533, "igb");
	proc_line(&b, 0x03, 0, 0, 0x1a032000, "ast");
	put_proc(root, &b);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 0);
	/* NVIDIA's audio function alone: its class is not a display */
	proc_line(&b, 0x41, 0, 1, 0x10de22ba, "snd_hda_intel");
	put_proc(root, &b);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 0);
	/* and its GPU */
	proc_line(&b, 0x41, 0, 0, 0x10de26b9, "nvidia");
	put_proc(root, &b);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	gw_buf_free(&b);

	/* the audio function listed twice (two domains): the walk finds the
	 * GPU at 41:00.0 */
	gw_buf_init(&b);
	proc_line(&b, 0x41, 0, 1, 0x10de22ba, "snd_hda_intel");
	proc_line(&b, 0x41, 0, 1, 0x10de22ba, "snd_hda_intel");
	put_proc(root, &b);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	gw_buf_free(&b);
	/* an NVIDIA function with no 0000: folder (another domain): the walk */
	gw_buf_init(&b);
	proc_line(&b, 0x81, 0, 1, 0x10de22ba, "");
	put_proc(root, &b);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	gw_buf_free(&b);
	for (i = 0; i < sizeof texts / sizeof *texts; i++) {
		put_text(root, "proc/bus/pci/devices", texts[i].text);
		assert_int_equal(gw_linux_has_gpu(root, 0, &e), texts[i].has);
	}

	/* an Intel display is no GPU maker's, from the file and the walk; an
	 * AMD one is */
	add_host(root2, &q_h);
	add_dev(root2, &q_nic);
	add_dev(root2, &igd);
	gw_buf_init(&b);
	proc_line(&b, 0x00, 2, 0, 0x808656c0, "i915");
	proc_line(&b, 0x02, 0, 0, 0x80861533, "igb");
	put_proc(root2, &b);
	assert_int_equal(gw_linux_has_gpu(root2, 0, &e), 0);
	p = gw_xasprintf("%s/proc/bus/pci/devices", root2);
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_int_equal(gw_linux_has_gpu(root2, 0, &e), 0);
	add_dev(root2, &amd);
	assert_int_equal(gw_linux_has_gpu(root2, 0, &e), 1);
	proc_line(&b, 0x05, 0, 0, 0x100274a1, "amdgpu");
	put_proc(root2, &b);
	assert_int_equal(gw_linux_has_gpu(root2, 0, &e), 1);
	gw_buf_free(&b);
	rm_tree(root2);
	rm_tree(root);
}

/* ROOT/proc/bus/pci/devices of n functions, each at bus:00.0 with its
 * vendor and device (vd). */
static void
put_proc_fns(const char *root, const unsigned (*fns)[2], size_t n)
{
	gw_buf b;
	size_t i;

	gw_buf_init(&b);
	for (i = 0; i < n; i++)
		proc_line(&b, fns[i][0], 0, 0, fns[i][1], "");
	put_proc(root, &b);
	gw_buf_free(&b);
}

/* At most max functions looked at: the lines of /proc/bus/pci/devices
 * up to max, and when more follow only a function that sysfs shows under
 * 0000: as a GPU maker's display answers yes (which domain a line is in
 * the file does not say), else -2; the walk the same, max devices. */
static void
has_gpu_bounded(void **state)
{
	/* the GPU third; the NIC and the BMC alone; the GPU first; an NVIDIA
	 * line at 03:00.0, where sysfs has the BMC's display */
	static const unsigned third[][2] = {
		{ 0x02, 0x80861533 }, { 0x03, 0x1a032000 }, { 0x41, 0x10de26b9 } };
	static const unsigned first[][2] = {
		{ 0x41, 0x10de26b9 }, { 0x02, 0x80861533 } };
	static const unsigned bmc_nv[][2] = {
		{ 0x03, 0x10de26b9 }, { 0x02, 0x80861533 } };
	char *root = tu_tmpdir(), *p;
	gw_err e;

	(void)state;
	add_q_host(root, 1);

	/* two lines cannot tell, three can, all can */
	put_proc_fns(root, third, 3);
	assert_int_equal(gw_linux_has_gpu(root, 2, &e), -2);
	assert_int_equal(gw_linux_has_gpu(root, 3, &e), 1);
	assert_int_equal(gw_linux_has_gpu(root, 4, &e), 1);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	/* two lines and no more: the answer is no */
	put_proc_fns(root, third, 2);
	assert_int_equal(gw_linux_has_gpu(root, 2, &e), 0);
	assert_int_equal(gw_linux_has_gpu(root, 1, &e), -2);
	/* the first line answers */
	put_proc_fns(root, first, 2);
	assert_int_equal(gw_linux_has_gpu(root, 1, &e), 1);
	/* the whole file says that function is NVIDIA's (listed once), its
	 * first line alone cannot (the BMC is not a GPU maker's) */
	put_proc_fns(root, bmc_nv, 2);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 1);
	assert_int_equal(gw_linux_has_gpu(root, 1, &e), -2);

	/* the walk: three devices, one the GPU; without it, two */
	p = gw_xasprintf("%s/proc/bus/pci/devices", root);
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_int_equal(gw_linux_has_gpu(root, 3, &e), 1);
	rm_tree(root);
	root = tu_tmpdir();
	add_q_host(root, 0);
	assert_int_equal(gw_linux_has_gpu(root, 1, &e), -2);
	assert_int_equal(gw_linux_has_gpu(root, 2, &e), 0);
	assert_int_equal(gw_linux_has_gpu(root, 0, &e), 0);
	rm_tree(root);
}

/* What gpuwiz gpus shows, as data: the MMIO size computed once (the rule
 * on the known VRAM against the BAR need) and the notes, nothing printed. */
static void
gpus_report_data(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev gpu = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	             GPU_BARS_ADA(64 * GiB), "25", "nvidia" };
	fdev unk = { "0000:42:00.0", 0x10de, 0xfffe, 0x030200, 0x10de, 0x0001,
	             GPU_BARS_ADA(32 * GiB), NULL, "vfio-pci" };
	gw_gpu_list r;
	gw_host *lh;
	gw_err e;
	char *busdir, *out;

	(void)state;
	add_host(root, &h);
	add_dev(root, &gpu);
	add_dev(root, &unk);
	lh = gw_host_open_linux(root);
	cap_begin();
	assert_int_equal(gw_host_gpus(lh, &table, &r, &e), 0);
	out = cap_end();
	assert_string_equal(out, "");
	free(out);
	busdir = gw_xasprintf("%s/sys/bus/pci", root);
	assert_string_equal(r.source, busdir);
	free(busdir);
	assert_int_equal(r.n, 2);
	/* 48 GB of known VRAM -> rule 128; 64G+32M + 32G+32M of BARs -> 128 */
	assert_int_equal(r.total_vram_gb, 48);
	assert_true(r.mmio_known);
	assert_int_equal(r.mmio.rule_gb, 128);
	assert_int_equal(r.mmio.bar_gb, 128);
	assert_int_equal(r.mmio.mmio_gb, 128);
	/* the GPU without a group is named in a note */
	assert_int_equal(r.nnotes, 1);
	assert_non_null(strstr(r.notes[0], "0000:42:00.0"));
	gw_gpu_list_free(&r);
	assert_null(r.gpus);
	gw_host_close(lh);

	lh = gw_host_open_linux("/nonexistent/x");
	assert_int_equal(gw_host_gpus(lh, &table, &r, &e), -1);
	assert_null(r.gpus);
	assert_int_equal(r.n, 0);
	gw_host_close(lh);
	rm_tree(root);
}

TU_TABLE_GROUP(setup, teardown)

int
main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(check_intel_on),
		cmocka_unit_test(check_amd_on_and_amd_iommu_on),
		cmocka_unit_test(check_iommu_off_in_bios),
		cmocka_unit_test(check_iommu_off_in_kernel),
		cmocka_unit_test(check_no_virt),
		cmocka_unit_test(check_irq_remap_intel),
		cmocka_unit_test(check_irq_remap_amd),
		cmocka_unit_test(check_irq_remap_lines),
		cmocka_unit_test(input_errors),
		cmocka_unit_test(gpus_libpci_error),
		cmocka_unit_test(gpus_rtx6000_ada_rebar),
		cmocka_unit_test(gpus_two_l40s),
		cmocka_unit_test(gpus_unknown_gpu_sized_from_bars),
		cmocka_unit_test(gpus_none),
		cmocka_unit_test(gpus_foreign_group_mate),
		cmocka_unit_test(structured_rows_and_gpus),
		cmocka_unit_test(has_gpu_from_class),
		cmocka_unit_test(has_gpu_from_proc),
		cmocka_unit_test(has_gpu_bounded),
		cmocka_unit_test(gpus_report_data),
	};

	return cmocka_run_group_tests(t, setup, teardown);
}
