/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_diagnose.c: `gpuwiz diagnose` on the real vmware.log / task error
 * samples in tests/fixtures/vmwarelog/ and on realistic lines for the
 * rules that have no public sample (doc/design.md, sections 15.2-15.4, 15.6, 15.9, 15.10). */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "diagnose.h"
#include "diagnose_int.h"
#include "diagnose_report.h"
#include "cli_int.h"
#include "vmx.h"

static gw_table table;
TU_TABLE_GROUP(table_setup, table_teardown)

/* ---- helpers ------------------------------------------------------------ */

/* tu_read_sample out of line: inlined into a long test, GCC 12+ sees a
 * "dangling pointer" in it that is not there. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static char *
read_sample(const char *rel, size_t *len)
{
	return tu_read_sample(rel, len);
}

static int
diag(const char *text, gw_diag_result *r)
{
	return gw_diagnose_text(text, strlen(text), r);
}

static const gw_diag_finding *
find_id(const gw_diag_result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->findings[i].f.id, id) == 0)
			return &r->findings[i];
	return NULL;
}

/* Exactly one finding, with this id. */
static const gw_diag_finding *
only(const gw_diag_result *r, const char *id)
{
	if (r->n != 1)
		fail_msg("expected 1 finding (%s), got %zu%s%s", id, r->n,
		         r->n ? ", first " : "", r->n ? r->findings[0].f.id : "");
	assert_string_equal(r->findings[0].f.id, id);
	return &r->findings[0];
}

static void
assert_contains(const char *hay, const char *needle)
{
	if (hay == NULL || strstr(hay, needle) == NULL)
		fail_msg("\"%s\" not found in \"%s\"", needle,
		         hay ? hay : "(null)");
}

static void
assert_not_contains(const char *hay, const char *needle)
{
	if (hay && strstr(hay, needle) != NULL)
		fail_msg("\"%s\" unexpectedly found in \"%s\"", needle, hay);
}

/* Every finding has all of its texts, and its line is valid UTF-8 (jansson
 * refuses anything else). */
static void
assert_complete(const gw_diag_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const gw_diag_finding *f = &r->findings[i];
		json_t *j;

		assert_non_null(f->f.id);
		assert_non_null(f->f.message);
		assert_non_null(f->f.fix);
		assert_non_null(f->f.source);
		assert_int_equal(f->f.topic, GW_TOPIC_DIAG);
		assert_non_null(f->line);
		assert_true(f->lineno >= 1);
		assert_true(f->matches >= 1);
		assert_true(strlen(f->line) <= GW_DIAG_LINE_MAX);
		j = json_string(f->line);
		if (j == NULL)
			fail_msg("line of %s is not valid UTF-8: %s", f->f.id,
			         f->line);
		json_decref(j);
	}
}

static gw_diag_result
diag_sample(const char *rel)
{
	gw_diag_result r;
	size_t n;
	char *s = read_sample(rel, &n);

	assert_true(gw_diagnose_text(s, n, &r) >= 0);
	free(s);
	assert_complete(&r);
	return r;
}

/* `gpuwiz diagnose PATH` (cmd_diagnose, --json when json): its exit
 * status; path NULL: an argument that is no name at all. */
static int
diagnose(const char *path, int json, gw_err *e)
{
	char *args[1];
	cli_opts o;

	memset(&o, 0, sizeof o);
	args[0] = (char *)path;
	o.cmd = "diagnose";
	o.args = args;
	o.nargs = 1;
	o.json = json;
	return cmd_diagnose(&o, NULL, e);
}

/* Run diagnose with stdout (and, when in != NULL, stdin from a
 * pipe holding in) redirected; returns the exit status, *out the stdout
 * bytes. */
static int
run_cmd(const char *path, int json, const char *in, char **out, gw_err *e)
{
	char *dir = tu_tmpdir(), *file = gw_xasprintf("%s/stdout", dir);
	int fd, saved_out, saved_in = -1, rc, p[2];
	size_t n;
	gw_err re;

	fflush(stdout);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	saved_out = dup(STDOUT_FILENO);
	assert_true(saved_out >= 0);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	close(fd);
	if (in) {
		assert_true(strlen(in) < 60000);   /* fits in a pipe buffer */
		assert_int_equal(pipe(p), 0);
		assert_int_equal(gw_write_all(p[1], in, strlen(in)), 0);
		close(p[1]);
		saved_in = dup(STDIN_FILENO);
		assert_true(saved_in >= 0);
		assert_true(dup2(p[0], STDIN_FILENO) >= 0);
		close(p[0]);
	}
	rc = diagnose(path, json, e);
	fflush(stdout);
	assert_true(dup2(saved_out, STDOUT_FILENO) >= 0);
	close(saved_out);
	if (in) {
		assert_true(dup2(saved_in, STDIN_FILENO) >= 0);
		close(saved_in);
	}
	if (gw_read_file(file, 1u << 20, out, &n, &re) != 0)
		fail_msg("%s", re.msg);
	unlink(file);
	rmdir(dir);
	free(file);
	free(dir);
	return rc;
}

/* A file in a fresh temp dir with these bytes; *dir to clean up. */
static char *
temp_file(const char *data, size_t n, char **dir)
{
	char *path;
	gw_err e;

	*dir = tu_tmpdir();
	path = gw_xasprintf("%s/input.log", *dir);
	if (gw_write_file_atomic(path, data, n, &e) != 0)
		fail_msg("%s", e.msg);
	return path;
}

static void
rm_temp(char *path, char *dir)
{
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* ---- the real samples --------------------------------------------------- */

/* Dell KB 000199172: the pages line and the DevicePowerOn line joined on
 * one physical line.  4206594 pages x 4096 = 17230209024 bytes
 * = 16.0469 GiB -> 16.05; limit 917504 pages = 3758096384 bytes = 3.50 GiB;
 * smallest power of two above 16.05 is 32. */
static void
sample_dell_pages(void **state)
{
	gw_diag_result r = diag_sample(
	    "vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt");
	const gw_diag_finding *f;

	(void)state;
	/* the generic DevicePowerOn finding is left out: the pages line
	 * already says why the power-on failed */
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->lineno, 1);
	assert_int_equal(f->matches, 1);
	assert_int_equal(f->pages_needed, 4206594);
	assert_int_equal(f->pages_limit, 917504);
	assert_int_equal(f->need_bytes, UINT64_C(17230209024));
	assert_int_equal(f->need_gib_x100, 1605);
	assert_int_equal(f->mmio_gb, 32);
	assert_int_equal(f->alloc_kb, 0);
	assert_int_equal(f->memsize_mb, 0);
	assert_contains(f->f.message, "4206594 pages of 4 KiB = 17230209024 bytes "
	                          "(16.05 GiB)");
	assert_contains(f->f.message, "917504 pages (3.50 GiB)");
	assert_contains(f->f.fix, "pciPassthru.use64bitMMIO = \"TRUE\"");
	assert_contains(f->f.fix, "pciPassthru.64bitMMIOSizeGB = \"32\" or more");
	assert_contains(f->f.fix, "smallest power of two above the 16.05 GiB");
	assert_contains(f->f.fix, "EFI");
	assert_contains(f->f.source, "Dell KB 000199172");
	assert_contains(f->f.source, "Broadcom KB 323402");
	assert_contains(f->line, "PCIPassthru: total number of pages needed "
	                         "(4206594) exceeds limit (917504), failing");
	assert_true(strncmp(f->line, "2022-04-22T03:04:15.771Z| vmx|", 30) == 0);
	gw_diag_result_free(&r);
}

/* Host Client error for an iGPU (typographic quotes as published). */
static void
sample_nuc_register(void **state)
{
	gw_diag_result r = diag_sample(
	    "vmwarelog/vsphere-task-error-devicepoweron-failed-to-register-pcipassthru0-igpu-nuc11.txt");
	const gw_diag_finding *f;

	(void)state;
	f = only(&r, GW_DIAG_REGISTER_FAILED);
	assert_int_equal(f->lineno, 2);
	assert_string_equal(f->line, "Failed to register the device pciPassthru0");
	assert_contains(f->f.message, "pciPassthru0");
	assert_contains(f->f.fix, "/etc/vmware/passthru.map");
	assert_contains(f->f.fix, "vvtd.enable");
	gw_diag_result_free(&r);
}

/* Its first line alone: the generic power-on finding, quotes ‘’ kept in the
 * quoted line. */
static void
sample_nuc_poweron_line(void **state)
{
	gw_diag_result r;
	size_t n;
	char *s = read_sample(
	    "vmwarelog/vsphere-task-error-devicepoweron-failed-to-register-pcipassthru0-igpu-nuc11.txt",
	    &n);
	char *nl = strchr(s, '\n');
	const gw_diag_finding *f;

	(void)state;
	assert_non_null(nl);
	assert_int_equal(gw_diagnose_text(s, (size_t)(nl - s), &r), 1);
	f = only(&r, GW_DIAG_POWERON);
	assert_string_equal(f->line, "Module \xe2\x80\x98" "DevicePowerOn\xe2\x80\x99"
	                             " power on failed");
	assert_contains(f->f.fix, "pciPassthru.use64bitMMIO");
	assert_contains(f->f.fix, "sched.mem.min");
	assert_contains(f->f.fix, "passthru.map");
	assert_contains(f->f.fix, "systemId");
	assert_contains(f->f.fix, "vhv.enable");
	free(s);
	gw_diag_result_free(&r);
}

static void
sample_memory(void **state)
{
	gw_diag_result r = diag_sample(
	    "vmwarelog/vsphere-task-error-invalid-memory-setting-sched-mem-min.txt");
	const gw_diag_finding *f;

	(void)state;
	f = only(&r, GW_DIAG_MEM_RESERVATION);
	assert_int_equal(f->lineno, 1);
	assert_int_equal(f->memsize_mb, 2048);
	assert_int_equal(f->mmio_gb, 0);
	assert_contains(f->f.message, "2048 MB");
	assert_contains(f->f.fix, "sched.mem.min = \"2048\"");
	assert_contains(f->f.fix, "sched.mem.minSize = \"2048\"");
	assert_contains(f->f.fix, "sched.mem.pin = \"TRUE\"");
	assert_string_equal(f->f.source, "Broadcom KB 309986");
	assert_string_equal(f->line, "Failed - Invalid memory setting: memory "
	                             "reservation (sched.mem.min) should be "
	                             "equal to memsize(2048)");
	gw_diag_result_free(&r);
}

/* A healthy P40 power-on (BARs mapped): nothing to report. */
static void
sample_p40_ok(void **state)
{
	gw_diag_result r = diag_sample(
	    "vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt");

	(void)state;
	assert_int_equal(r.n, 0);
	assert_null(r.findings);
	gw_diag_result_free(&r);
}

/* Every sample in the folder gives the expected ids (new files must be
 * added to this table). */
static void
samples_all_known(void **state)
{
	static const struct {
		const char *file, *id;
	} want[] = {
		{ "vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt",
		  GW_DIAG_MMIO_PAGES },
		{ "vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt", NULL },
		{ "vsphere-task-error-devicepoweron-failed-to-register-pcipassthru0-igpu-nuc11.txt",
		  GW_DIAG_REGISTER_FAILED },
		{ "vsphere-task-error-invalid-memory-setting-sched-mem-min.txt",
		  GW_DIAG_MEM_RESERVATION },
		{ "blog-title-could-not-initialize-plugin-libnvidia-vgx-a30-sriov-off.txt",
		  GW_DIAG_VGPU_PLUGIN },
		{ "vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt",
		  GW_DIAG_VGPU_PLUGIN },
		{ "synthetic-vmware-log-vgpu-plugin-vmiop-init-failed-a100.txt",
		  GW_DIAG_VGPU_PLUGIN },
		{ "vsphere-client-zh-devicepoweron-failed-esxi-gpu-guide.txt",
		  GW_DIAG_POWERON },
		{ "vsphere-doc-sriov-vf-failed-to-register-interrupt-out-of-vectors.txt",
		  GW_DIAG_INTR_VECTORS },
	};
	char *dir = tu_fixture_path("vmwarelog");
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t seen = 0, i;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char *rel;
		gw_diag_result r;

		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof want / sizeof want[0]; i++)
			if (strcmp(want[i].file, de->d_name) == 0)
				break;
		if (i == sizeof want / sizeof want[0])
			fail_msg("vmwarelog/%s: not in this test's table",
			         de->d_name);
		rel = gw_xasprintf("vmwarelog/%s", de->d_name);
		r = diag_sample(rel);
		if (want[i].id)
			only(&r, want[i].id);
		else
			assert_int_equal(r.n, 0);
		gw_diag_result_free(&r);
		free(rel);
		seen++;
	}
	closedir(d);
	free(dir);
	assert_int_equal(seen, sizeof want / sizeof want[0]);
}

/* No .vmx sample (any encoding, CRLF, 7,000-character lines, invalid
 * UTF-8) is taken for a failure, and none makes the scan misbehave. */
static void
vmx_samples_are_not_failures(void **state)
{
	char *dir = tu_fixture_path("vmx");
	DIR *d = opendir(dir);
	struct dirent *de;
	int seen = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char *rel;
		char *s;
		size_t n;
		gw_diag_result r;

		if (de->d_name[0] == '.')
			continue;
		rel = gw_xasprintf("vmx/%s", de->d_name);
		s = tu_read_fixture(rel, &n);
		assert_int_equal(gw_diagnose_text(s, n, &r), 0);
		gw_diag_result_free(&r);
		free(s);
		free(rel);
		seen++;
	}
	closedir(d);
	free(dir);
	assert_true(seen >= 10);
}

/* ---- each other rule on a realistic line -------------------------------- */

/* An L4 (BAR1 32 GiB) with a 32 GB window failed and worked with 64. */
static void
rule_firmware_alloc(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("2023-05-10T08:11:02.123Z In(05) vmx - The "
	                      "firmware could not allocate 33554432 KB of PCI "
	                      "MMIO. Increase the size of PCI MMIO and try "
	                      "again.\n", &r), 1);
	f = only(&r, GW_DIAG_MMIO_FIRMWARE);
	assert_int_equal(f->alloc_kb, 33554432);
	assert_int_equal(f->need_bytes, UINT64_C(34359738368));
	assert_int_equal(f->need_gib_x100, 3200);
	assert_int_equal(f->mmio_gb, 64);
	assert_contains(f->f.message, "33554432 KB (32.00 GiB)");
	assert_contains(f->f.fix, "pciPassthru.64bitMMIOSizeGB = \"64\"");
	assert_contains(f->f.fix, "pciPassthru.use64bitMMIO = \"TRUE\"");
	assert_contains(f->f.message, "BIOS firmware");
	gw_diag_result_free(&r);

	/* odd spacing and case, no space before KB */
	assert_int_equal(diag("THE FIRMWARE COULD NOT ALLOCATE  1048577KB OF "
	                      "PCI MMIO", &r), 1);
	f = only(&r, GW_DIAG_MMIO_FIRMWARE);
	assert_int_equal(f->need_gib_x100, 100);    /* 1.000001 GiB */
	assert_int_equal(f->mmio_gb, 2);
	gw_diag_result_free(&r);
}

static void
rule_memory_variants(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	/* vmware.log prefix, a space before the parenthesis */
	assert_int_equal(diag("2024-02-01T10:00:00.000Z In(05) vmx - Msg_Post: "
	                      "Error\r\nInvalid memory setting: memory "
	                      "reservation (sched.mem.min) should be equal to "
	                      "memsize (131072).\r\n", &r), 1);
	f = only(&r, GW_DIAG_MEM_RESERVATION);
	assert_int_equal(f->memsize_mb, 131072);
	assert_int_equal(f->lineno, 2);
	assert_contains(f->f.fix, "sched.mem.minSize = \"131072\"");
	gw_diag_result_free(&r);

	/* memsize( without sched.mem.min on the line is not this failure */
	assert_int_equal(diag("memsize(4096) ok\n", &r), 0);
	gw_diag_result_free(&r);
}

static void
rule_graphics(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("Power On virtual machine vllm-a16: The amount "
	                      "of graphics resource available in the parent "
	                      "resource pool is insufficient for the "
	                      "operation.", &r), 1);
	f = only(&r, GW_DIAG_VGPU_GRAPHICS);
	assert_contains(f->f.message, "Shared Direct");
	assert_contains(f->f.fix, "SharedPassthru");
	assert_contains(f->f.fix, "xorg");
	gw_diag_result_free(&r);
}

/* The Broadcom KB's HPE message: DevicePowerOn and the device on one line. */
static void
rule_not_passthrough(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("Module DevicePowerOn power on failed. Failed "
	                      "to start the virtual machine. Device 6:0.0 is "
	                      "not a passthrough device.", &r), 1);
	f = only(&r, GW_DIAG_NOT_PASSTHROUGH);
	assert_contains(f->f.message, "6:0.0");
	assert_contains(f->f.message, "HPE");
	assert_contains(f->f.fix, "enablePCIEHotplug -v FALSE");
	assert_contains(f->f.source, "HPE");
	gw_diag_result_free(&r);

	/* no device word before it: still recognised */
	assert_int_equal(diag("error: it is not a passthrough device", &r), 1);
	f = only(&r, GW_DIAG_NOT_PASSTHROUGH);
	assert_contains(f->f.message, "the device as");
	gw_diag_result_free(&r);
}

static void
rule_hex_bdf(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	/* the .vmx line in the same paste gives the real conversion */
	assert_int_equal(diag("2024-01-03T10:22:33.444Z In(05) vmx - AH No "
	                      "device hints found\n"
	                      "pciPassthru0.id = \"0000:af:00.0\"\n", &r), 1);
	f = only(&r, GW_DIAG_HEX_BDF);
	assert_int_equal(f->lineno, 1);
	assert_contains(f->f.fix, "%05d:%03d:%02d.%d");
	assert_contains(f->f.fix, "0000:af:00.0 becomes 00000:175:00.0");
	gw_diag_result_free(&r);

	/* a pciPassthruN.id line wins over other addresses in the log */
	assert_int_equal(diag("PCIPassthru: Device 0000:3b:00.0 barIndex 0\n"
	                      "AH No device hints found\n"
	                      "pciPassthru1.id = \"0000:42:1f.7\"\n", &r), 1);
	f = only(&r, GW_DIAG_HEX_BDF);
	assert_contains(f->f.fix, "0000:42:1f.7 becomes 00000:066:31.7");
	gw_diag_result_free(&r);

	/* no address in the input: the documented example */
	assert_int_equal(diag("ah no device hints found", &r), 1);
	f = only(&r, GW_DIAG_HEX_BDF);
	assert_contains(f->f.fix, "0000:42:00.0 becomes 00000:066:00.0");
	gw_diag_result_free(&r);
}

static void
rule_systemid(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("Failed to start the virtual machine.\n"
	                      "Module \xe2\x80\x98" "DevicePowerOn\xe2\x80\x99 "
	                      "power on failed.\n"
	                      "The \xe2\x80\x9csystemId\xe2\x80\x9d does not "
	                      "match the current system.\n", &r), 1);
	f = only(&r, GW_DIAG_SYSTEMID);
	assert_int_equal(f->lineno, 3);
	assert_contains(f->f.fix, "esxcli system uuid get");
	assert_contains(f->f.fix, "deviceId");
	gw_diag_result_free(&r);
}

/* Seed 001, abridged vLLM log. */
static void
rule_nccl(void **state)
{
	static const char seed[] =
	    "[2025-06-01 10:00:00] NCCL version 2.27.5+cuda12.9, "
	    "cudaDriverVersion 13000\n"
	    "[2025-06-01 10:00:01] init.cc:426 NCCL WARN Cuda failure "
	    "'operation not supported'\n"
	    "[2025-06-01 10:00:01] ncclCommInitRank failed: unhandled cuda "
	    "error\n"
	    "[2025-06-01 10:00:01] RuntimeError: NCCL error: unhandled cuda "
	    "error\n";
	gw_diag_result r;
	const gw_diag_finding *f;
	char *s;

	(void)state;
	/* nothing in it shows a vGPU: a question, not the vGPU fix (a cloud
	 * or bare-metal VM's NCCL error is not a vGPU one) */
	assert_int_equal(diag(seed, &r), 1);
	f = only(&r, GW_DIAG_NCCL_ASK);
	assert_int_equal(f->lineno, 2);
	assert_contains(f->line, "init.cc:426 NCCL WARN Cuda failure "
	                         "'operation not supported'");
	assert_contains(f->f.message, "Are the GPUs vGPUs?");
	assert_contains(f->f.fix, "Virtualization Mode");
	assert_contains(f->f.fix, "pciPassthruN.cfg.enable_uvm = \"1\"");
	assert_contains(f->f.fix, "NCCL_DEBUG=INFO");
	assert_contains(f->f.fix, "--vmx");
	assert_contains(f->f.source, "NCCL issue 2101");
	gw_diag_result_free(&r);

	/* the same text with nvidia-smi -q's "Virtualization Mode : VGPU":
	 * the vGPU fix */
	s = gw_xasprintf("%s    Virtualization Mode : VGPU\n", seed);
	assert_int_equal(diag(s, &r), 1);
	f = only(&r, GW_DIAG_NCCL_UVM);
	assert_contains(f->f.fix, "pciPassthruN.cfg.enable_uvm = \"1\"");
	assert_contains(f->f.fix, "every vGPU");
	assert_contains(f->f.fix, "vMotion");
	assert_contains(f->f.fix, "Power the VM off");
	gw_diag_result_free(&r);
	free(s);

	/* newer NCCL prints the error number; typographic quotes; a vGPU
	 * profile named in the text */
	assert_int_equal(diag("host:123:456 [0] include/alloc.h:99 NCCL WARN "
	                      "Cuda failure 801 \xe2\x80\x98operation not "
	                      "supported\xe2\x80\x99 (vm: grid_a100-40c)",
	                      &r), 1);
	only(&r, GW_DIAG_NCCL_UVM);
	gw_diag_result_free(&r);

	/* the same CUDA error with no NCCL anywhere is not this failure */
	assert_int_equal(diag("Cuda failure 'operation not supported'\n", &r),
	                 0);
	gw_diag_result_free(&r);
	/* ncclCommInitRank failing without the CUDA line says too little */
	assert_int_equal(diag("ncclCommInitRank failed: unhandled cuda error\n",
	                      &r), 0);
	gw_diag_result_free(&r);
}

static void
rule_free_esxi(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("govc: ServerFaultCode: Current license or ESXi "
	                      "version prohibits execution of the requested "
	                      "operation.", &r), 1);
	f = only(&r, GW_DIAG_FREE_ESXI);
	assert_contains(f->f.fix, "vim-cmd vmsvc/reload");
	assert_contains(f->f.fix, ".vmx");
	gw_diag_result_free(&r);
}

static void
rule_guest_bar(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("[    3.105532] NVRM: BAR1 is 0M @ 0x0 "
	                      "(PCI:0000:0b:00.0)\n"
	                      "[    3.105533] NVRM: The system BIOS may have "
	                      "misconfigured your GPU.\n", &r), 1);
	f = only(&r, GW_DIAG_GUEST_BAR);
	assert_contains(f->f.fix, "pciPassthru.use64bitMMIO");
	assert_contains(f->f.fix, "Above 4G decoding");
	gw_diag_result_free(&r);

	assert_int_equal(diag("NVRM: BAR0 is 0M @ 0x0 (PCI:0000:02:00.0)", &r),
	                 1);
	only(&r, GW_DIAG_GUEST_BAR);
	gw_diag_result_free(&r);

	/* lspci -vvvv of an RTX 3090 (lspci/rtx3090-arm-rk3568-bar-unassigned,
	 * lines 8-9 of the shared sample) */
	assert_int_equal(diag("\tRegion 1: Memory at <unassigned> (64-bit, "
	                      "prefetchable) [virtual]\n"
	                      "\tRegion 3: Memory at <unassigned> (64-bit, "
	                      "prefetchable) [virtual]\n", &r), 1);
	f = only(&r, GW_DIAG_GUEST_BAR);
	assert_int_equal(f->matches, 2);
	assert_int_equal(f->lineno, 1);
	assert_string_equal(f->line, "Region 1: Memory at <unassigned> "
	                             "(64-bit, prefetchable) [virtual]");
	gw_diag_result_free(&r);

	/* an assigned BAR or an unassigned expansion ROM is fine */
	assert_int_equal(diag("\tRegion 1: Memory at 3b800000000 (64-bit, "
	                      "prefetchable) [size=32G]\n"
	                      "\tExpansion ROM at <unassigned> [disabled]\n",
	                      &r), 0);
	gw_diag_result_free(&r);
}

/* ---- combinations, numbers, robustness ---------------------------------- */

static void
two_failures(void **state)
{
	gw_diag_result r;

	(void)state;
	assert_int_equal(diag(
	    "2024-03-01T09:00:00.000Z In(05) vmx - Invalid memory setting: "
	    "memory reservation (sched.mem.min) should be equal to "
	    "memsize(65536)\n"
	    "2024-03-01T09:00:00.100Z In(05) vmx - PCIPassthru: total number "
	    "of pages needed (33558528) exceeds limit (8388608), failing\n"
	    "2024-03-01T09:00:00.200Z In(05) vmx - Module 'DevicePowerOn' "
	    "power on failed.\n", &r), 2);
	assert_complete(&r);
	/* rule order: MMIO first */
	assert_string_equal(r.findings[0].f.id, GW_DIAG_MMIO_PAGES);
	assert_string_equal(r.findings[1].f.id, GW_DIAG_MEM_RESERVATION);
	assert_null(find_id(&r, GW_DIAG_POWERON));
	/* 33558528 pages = 128 GiB + 16 MiB -> 256; limit 32 GiB */
	assert_int_equal(r.findings[0].mmio_gb, 256);
	assert_int_equal(r.findings[0].need_gib_x100, 12802);
	assert_contains(r.findings[0].f.message, "(32.00 GiB)");
	assert_int_equal(r.findings[0].lineno, 2);
	assert_int_equal(r.findings[1].memsize_mb, 65536);
	gw_diag_result_free(&r);

	/* NCCL and the generic power-on message: unrelated, both kept */
	assert_int_equal(diag("Module 'DevicePowerOn' power on failed.\n"
	                      "NCCL WARN Cuda failure 'operation not "
	                      "supported'\n", &r), 2);
	assert_string_equal(r.findings[0].f.id, GW_DIAG_NCCL_ASK);
	assert_string_equal(r.findings[1].f.id, GW_DIAG_POWERON);
	gw_diag_result_free(&r);
}

static void
unrelated_log(void **state)
{
	gw_diag_result r;

	(void)state;
	assert_int_equal(diag(
	    "2024-03-01T09:00:00.000Z In(05) vmx - Log for VMware ESX pid=1234 "
	    "version=8.0.2 build=build-22380479 option=Release\n"
	    "2024-03-01T09:00:00.000Z In(05) vmx - Hostname=esx01\n"
	    "2024-03-01T09:00:01.000Z In(05) vmx - PCIPassthru: successfully "
	    "created the IOMMU mappings\n"
	    "2024-03-01T09:00:02.000Z In(05) vmx - Tools: Tools heartbeat "
	    "timeout.\n"
	    "sched.mem.min = \"16384\"\n"
	    "pciPassthru0.id = \"00000:066:00.0\"\n"
	    "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n",
	    &r), 0);
	assert_int_equal(r.n, 0);
	gw_diag_result_free(&r);
}

static void
case_and_numbers(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	/* upper case; 32 GiB + 4 KiB over a 32 GiB limit -> 64 */
	assert_int_equal(diag("PCIPASSTHRU: TOTAL NUMBER OF PAGES NEEDED "
	                      "(8388609) EXCEEDS LIMIT (8388608), FAILING", &r), 1);
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->mmio_gb, 64);
	assert_int_equal(f->need_bytes, UINT64_C(34359742464));
	/* 32.0000038 GiB shows as 32.00 */
	assert_int_equal(f->need_gib_x100, 3200);
	assert_contains(f->f.message, "(32.00 GiB), more than the VM's limit of "
	                          "8388608 pages (32.00 GiB)");
	gw_diag_result_free(&r);

	/* exactly 16 GiB: the next power of two above, 32 */
	assert_int_equal(diag("total number of pages needed (4194304) exceeds "
	                      "limit (917504)", &r), 1);
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->need_gib_x100, 1600);
	assert_int_equal(f->mmio_gb, 32);
	gw_diag_result_free(&r);

	/* just under 4 GiB: shown below the recommendation of 4 */
	assert_int_equal(diag("total number of pages needed (1048575) exceeds "
	                      "limit (917504)", &r), 1);
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->mmio_gb, 4);
	assert_int_equal(f->need_gib_x100, 399);
	gw_diag_result_free(&r);

	/* absurd numbers: recognised, advice without figures */
	assert_int_equal(diag("total number of pages needed "
	                      "(99999999999999999999999) exceeds limit (917504)",
	                      &r), 1);
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->pages_needed, 0);
	assert_int_equal(f->mmio_gb, 0);
	assert_contains(f->f.fix, "documented rule");
	assert_not_contains(f->f.fix, "%");
	gw_diag_result_free(&r);
	assert_int_equal(diag("Invalid memory setting: memory reservation "
	                      "(sched.mem.min) should be equal to "
	                      "memsize(0)", &r), 1);
	f = only(&r, GW_DIAG_MEM_RESERVATION);
	assert_int_equal(f->memsize_mb, 0);
	assert_contains(f->f.fix, "memsize in MB");
	gw_diag_result_free(&r);
}

/* Several pages lines: the largest need decides, all are counted. */
static void
keep_largest_need(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("total number of pages needed (4206594) exceeds "
	                      "limit (917504), failing\n"
	                      "total number of pages needed (33558528) exceeds "
	                      "limit (917504), failing\n"
	                      "total number of pages needed (4206594) exceeds "
	                      "limit (917504), failing\n", &r), 1);
	f = only(&r, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->matches, 3);
	assert_int_equal(f->lineno, 2);
	assert_int_equal(f->pages_needed, 33558528);
	assert_int_equal(f->mmio_gb, 256);
	gw_diag_result_free(&r);
}

/* LF, CRLF and lone CR all end a line. */
static void
line_endings(void **state)
{
	gw_diag_result r;

	(void)state;
	assert_int_equal(diag("a\rb\r\nc\nThe systemId does not match the "
	                      "current system\r\n", &r), 1);
	assert_int_equal(only(&r, GW_DIAG_SYSTEMID)->lineno, 4);
	assert_string_equal(r.findings[0].line, "The systemId does not match "
	                                        "the current system");
	gw_diag_result_free(&r);
}

/* A 5,000-byte line is cut around the match; bad bytes and control
 * characters never reach the output. */
static void
long_and_dirty_lines(void **state)
{
	gw_buf b;
	gw_diag_result r;
	const gw_diag_finding *f;
	int i;

	(void)state;
	gw_buf_init(&b);
	for (i = 0; i < 250; i++)
		gw_buf_puts(&b, "\xe4\xb8\xad" "0123456789abcdef");
	gw_buf_puts(&b, " Module 'DevicePowerOn' power on failed ");
	for (i = 0; i < 250; i++)
		gw_buf_puts(&b, "0123456789abcdef\xe4\xb8\xad");
	assert_int_equal(gw_diagnose_text(b.data, b.len, &r), 1);
	assert_complete(&r);
	f = only(&r, GW_DIAG_POWERON);
	assert_true(strlen(f->line) <= GW_DIAG_LINE_MAX);
	assert_true(strncmp(f->line, "...", 3) == 0);
	assert_true(strcmp(f->line + strlen(f->line) - 3, "...") == 0);
	assert_contains(f->line, "Module 'DevicePowerOn' power on failed");
	gw_diag_result_free(&r);
	gw_buf_free(&b);

	assert_int_equal(diag("\x1b[31m\xff\xfe The systemId does not match "
	                      "the current system \xc0\xaf\x7f\x01\t!", &r), 1);
	assert_complete(&r);
	assert_string_equal(r.findings[0].line, "?[31m?? The systemId does not "
	                                        "match the current system ???? !");
	gw_diag_result_free(&r);

	/* NUL bytes inside the text are just characters to the pure scan */
	assert_int_equal(gw_diagnose_text("x\0y\nno device hints found", 25,
	                                  &r), 1);
	assert_int_equal(r.findings[0].lineno, 2);
	gw_diag_result_free(&r);
}

static void
bad_arguments(void **state)
{
	gw_diag_result r;

	(void)state;
	assert_int_equal(gw_diagnose_text("x", 1, NULL), -1);
	assert_int_equal(gw_diagnose_text(NULL, 3, &r), -1);
	assert_int_equal(gw_diagnose_text(NULL, 0, &r), 0);
	assert_int_equal(r.n, 0);
	gw_diag_result_free(&r);
	gw_diag_result_free(NULL);
}

/* ---- rendering and the command ------------------------------------------ */

static void
render_text(void **state)
{
	gw_diag_result r;
	gw_buf b;

	(void)state;
	assert_int_equal(diag("Failed - Invalid memory setting: memory "
	                      "reservation (sched.mem.min) should be equal to "
	                      "memsize(2048)\n"
	                      "The systemId does not match the current "
	                      "system\n", &r), 2);
	gw_buf_init(&b);
	gw_diag_render(&r, "vmware.log", 0, &b);
	assert_contains(b.data, "Known failures recognised in vmware.log: 2\n");
	assert_contains(b.data, "[1] memory-reservation (line 1)\n"
	                        "    \"Failed - Invalid memory setting: memory "
	                        "reservation (sched.mem.min) should be equal to "
	                        "memsize(2048)\"\n"
	                        "    Cause: ");
	assert_contains(b.data, "\n    Fix: Power the VM off and reserve all");
	assert_contains(b.data, "\n    Source: Broadcom KB 309986\n");
	assert_contains(b.data, "[2] systemid-mismatch (line 2)\n");
	gw_buf_free(&b);
	gw_diag_result_free(&r);

	assert_int_equal(diag("nothing here\n", &r), 0);
	gw_buf_init(&b);
	gw_diag_render(&r, "x.log", 0, &b);
	assert_contains(b.data, "No known failure recognised in x.log.\n"
	                        "Send to support: ");
	assert_contains(b.data, "vmware.log");
	gw_buf_free(&b);
	gw_diag_result_free(&r);
}

static void
render_json_parsed(void **state)
{
	gw_diag_result r;
	gw_buf b;
	json_t *root, *arr, *f0, *f1;
	json_error_t je;
	size_t n;
	char *s = read_sample(
	    "vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt",
	    &n);

	(void)state;
	gw_buf_init(&b);
	gw_buf_add(&b, s, n);
	gw_buf_puts(&b, "Invalid memory setting: memory reservation "
	                "(sched.mem.min) should be equal to memsize(8192)\n");
	free(s);
	assert_int_equal(gw_diagnose_text(b.data, b.len, &r), 2);
	gw_buf_free(&b);
	gw_buf_init(&b);
	gw_diag_render(&r, "vmware.log", 1, &b);
	root = json_loads(b.data, 0, &je);
	if (root == NULL)
		fail_msg("JSON does not parse: %s: %s", je.text, b.data);
	arr = json_object_get(root, "findings");
	assert_true(json_is_array(arr));
	assert_int_equal(json_array_size(arr), 2);
	assert_null(json_object_get(root, "message"));
	f0 = json_array_get(arr, 0);
	f1 = json_array_get(arr, 1);
	assert_string_equal(json_string_value(json_object_get(f0, "id")),
	                    GW_DIAG_MMIO_PAGES);
	assert_string_equal(json_string_value(json_object_get(f0, "cause")),
	                    r.findings[0].f.message);
	assert_string_equal(json_string_value(json_object_get(f0, "fix")),
	                    r.findings[0].f.fix);
	assert_string_equal(json_string_value(json_object_get(f0, "source")),
	                    r.findings[0].f.source);
	assert_string_equal(json_string_value(json_object_get(f0, "line")),
	                    r.findings[0].line);
	assert_int_equal(json_integer_value(json_object_get(f0, "line_number")), 1);
	assert_int_equal(json_integer_value(json_object_get(f0, "matches")), 1);
	assert_int_equal(json_integer_value(json_object_get(f0, "mmio_size_gb")),
	                 32);
	assert_null(json_object_get(f0, "memsize_mb"));
	assert_string_equal(json_string_value(json_object_get(f1, "id")),
	                    GW_DIAG_MEM_RESERVATION);
	assert_int_equal(json_integer_value(json_object_get(f1, "memsize_mb")),
	                 8192);
	assert_int_equal(json_integer_value(json_object_get(f1, "line_number")), 2);
	json_decref(root);
	gw_buf_free(&b);
	gw_diag_result_free(&r);

	/* none: an empty list and the advice */
	assert_int_equal(diag("all good\n", &r), 0);
	gw_buf_init(&b);
	gw_diag_render(&r, "-", 1, &b);
	root = json_loads(b.data, 0, &je);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "findings")), 0);
	assert_contains(json_string_value(json_object_get(root, "message")),
	                "No known failure recognised");
	json_decref(root);
	gw_buf_free(&b);
	gw_diag_result_free(&r);
}

static void
command_file(void **state)
{
	char *path = tu_fixture_path(
	    "vmwarelog/vsphere-task-error-invalid-memory-setting-sched-mem-min.txt");
	char *out = NULL;
	gw_err e;

	(void)state;
	/* the fixture's own "# source:" line is harmless text */
	assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 0);
	assert_contains(out, "memory-reservation (line 2)");
	assert_contains(out, "Cause: ");
	assert_contains(out, "Fix: ");
	assert_contains(out, "sched.mem.min = \"2048\"");
	assert_contains(out, "Source: Broadcom KB 309986");
	assert_contains(out, "\"Failed - Invalid memory setting");
	free(out);

	assert_int_equal(run_cmd(path, 1, NULL, &out, &e), 0);
	{
		json_error_t je;
		json_t *root = json_loads(out, 0, &je);

		assert_non_null(root);
		assert_int_equal(json_array_size(json_object_get(root,
		                                                 "findings")), 1);
		json_decref(root);
	}
	free(out);
	free(path);
}

static void
command_none(void **state)
{
	char *path = tu_fixture_path(
	    "vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt");
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 1);
	assert_contains(out, "No known failure recognised in ");
	assert_contains(out, "tesla-p40-esxi8.txt.\nSend to support:");
	free(out);
	free(path);
}

static void
command_stdin(void **state)
{
	char *out = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(run_cmd("-", 0, "[t] NCCL WARN Cuda failure "
	                         "'operation not supported'\n", &out, &e), 0);
	assert_contains(out, "nccl-operation-not-supported (line 1)");
	free(out);
	assert_int_equal(run_cmd("-", 0, "hello\n", &out, &e), 1);
	assert_contains(out, "No known failure recognised in standard input.");
	free(out);
	assert_int_equal(run_cmd("-", 1, "", &out, &e), 2);
	assert_string_equal(out, "");
	assert_contains(e.msg, "standard input: is empty");
	free(out);
}

static void
command_input_errors(void **state)
{
	char *out = NULL, *dir, *path;
	gw_err e;

	(void)state;
	/* missing */
	e.msg[0] = '\0';
	assert_int_equal(run_cmd("/nonexistent/gw-vmware.log", 0, NULL, &out,
	                         &e), 2);
	assert_string_equal(out, "");
	assert_contains(e.msg, "/nonexistent/gw-vmware.log");
	free(out);

	/* a directory */
	dir = tu_tmpdir();
	assert_int_equal(run_cmd(dir, 1, NULL, &out, &e), 2);
	assert_string_equal(out, "");
	assert_contains(e.msg, dir);
	assert_contains(e.msg, "directory");
	free(out);
	rmdir(dir);
	free(dir);

	/* empty, blank */
	path = temp_file("", 0, &dir);
	assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 2);
	assert_string_equal(out, "");
	assert_contains(e.msg, path);
	assert_contains(e.msg, "is empty");
	free(out);
	rm_temp(path, dir);
	path = temp_file(" \r\n\t\n", 5, &dir);
	assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 2);
	assert_contains(e.msg, "is empty");
	free(out);
	rm_temp(path, dir);

	/* binary (UTF-16 text has NUL bytes too) */
	path = temp_file("M\0o\0d\0u\0l\0e\0", 12, &dir);
	assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 2);
	assert_string_equal(out, "");
	assert_contains(e.msg, path);
	assert_contains(e.msg, "binary");
	free(out);
	rm_temp(path, dir);

	/* unreadable (root reads anything, so only check when it bites) */
	path = temp_file("Module 'DevicePowerOn' power on failed\n", 39, &dir);
	assert_int_equal(chmod(path, 0), 0);
	if (access(path, R_OK) != 0) {
		assert_int_equal(run_cmd(path, 0, NULL, &out, &e), 2);
		assert_string_equal(out, "");
		assert_contains(e.msg, path);
		free(out);
	}
	rm_temp(path, dir);

	/* no name at all */
	assert_int_equal(diagnose("", 0, &e), 2);
	assert_contains(e.msg, "expected a file name");
	assert_int_equal(diagnose(NULL, 0, &e), 2);
}

/* ---- expert checks (doc/design.md, section 15.10) ------------------------ */

/* The 32-bit PCI hole (synthetic lines: no public vmware.log with this
 * message was found; the message id and the words are what operators
 * quote).  The device address is read from the line where it has one. */
static void
rule_pci_hole(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("2025-02-11T08:01:02.345Z In(05) vmx - "
	                      "[msg.pciPassthru.mmioOutsidePCIHole] "
	                      "PCIPassthru: device 0000:3b:00.0 MMIO is "
	                      "outside of the PCI Hole\n", &r), 1);
	f = only(&r, GW_DIAG_PCI_HOLE);
	assert_int_equal(f->lineno, 1);
	assert_contains(f->f.message, "0000:3b:00.0");
	assert_contains(f->f.message, "PCI hole");
	assert_contains(f->f.fix, "pciHole.start = \"2048\"");
	assert_contains(f->f.fix, "Power the VM off");
	assert_contains(f->f.fix, "field reports");
	assert_contains(f->f.fix_ui, "gpuwiz does not write pciHole.start");
	assert_not_contains(f->f.fix_ui, "--");
	assert_contains(f->f.source, "mmioOutsidePCIHole");
	assert_complete(&r);
	gw_diag_result_free(&r);

	/* the words alone, in other case, no device */
	assert_int_equal(diag("Error: The MMIO region is OUTSIDE OF THE PCI "
	                      "HOLE.", &r), 1);
	f = only(&r, GW_DIAG_PCI_HOLE);
	assert_contains(f->f.message, "a passthrough device");
	gw_diag_result_free(&r);

	/* a power-on cause: the generic DevicePowerOn finding is left out */
	assert_int_equal(diag("msg.pciPassthru.mmioOutsidePCIHole\n"
	                      "Module 'DevicePowerOn' power on failed.\n", &r),
	                 1);
	only(&r, GW_DIAG_PCI_HOLE);
	gw_diag_result_free(&r);

	/* not this: the PCI hole named without the failure */
	assert_int_equal(diag("pciHole.start = \"2048\"\n"
	                      "PCI hole: 0xc0000000-0xfec00000\n", &r), 0);
	gw_diag_result_free(&r);
}

/* "No device hints found" with the id already decimal: the other causes,
 * another id, and no hex advice (synthetic vmware.log line). */
static void
rule_id_decimal(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("2024-01-03T10:22:33.444Z In(05) vmx - AH No "
	                      "device hints found\n"
	                      "pciPassthru0.id = \"00000:066:00.0\"\n", &r), 1);
	f = only(&r, GW_DIAG_ID_NOT_FOUND);
	assert_int_equal(f->lineno, 1);
	assert_contains(f->f.message, "00000:066:00.0");
	assert_contains(f->f.message, "not enabled for passthrough");
	assert_contains(f->f.message, "systemId");
	assert_contains(f->f.message, "another slot");
	assert_contains(f->f.fix, "esxcli hardware pci pcipassthru list");
	assert_contains(f->f.fix, "reboot the host");
	assert_not_contains(f->f.fix, "hexadecimal");
	assert_not_contains(f->f.fix, "gpuwiz vmx");
	assert_null(f->f.fix_ui);
	assert_contains(f->f.source, "decimal");
	assert_complete(&r);
	gw_diag_result_free(&r);

	/* a hex id anywhere wins: that is the hex rule */
	assert_int_equal(diag("AH No device hints found\n"
	                      "pciPassthru0.id = \"0000:42:00.0\"\n"
	                      "pciPassthru1.id = \"00000:066:00.0\"\n", &r), 1);
	only(&r, GW_DIAG_HEX_BDF);
	gw_diag_result_free(&r);

	/* a decimal id line wins over a hex address on another line */
	assert_int_equal(diag("PCIPassthru: Device 0000:3b:00.0 barIndex 0\n"
	                      "AH No device hints found\n"
	                      "pciPassthru0.id = \"00000:059:00.0\"\n", &r), 1);
	f = only(&r, GW_DIAG_ID_NOT_FOUND);
	assert_contains(f->f.message, "00000:059:00.0");
	gw_diag_result_free(&r);

	/* a decimal address on a line without an id still counts */
	assert_int_equal(diag("AH No device hints found for 00000:066:00.0\n",
	                      &r), 1);
	only(&r, GW_DIAG_ID_NOT_FOUND);
	gw_diag_result_free(&r);

	/* a longer digit run is no ESXi id */
	assert_int_equal(diag("AH No device hints found\n"
	                      "pciPassthru0.id = \"000000:066:00.0\"\n", &r), 1);
	only(&r, GW_DIAG_HEX_BDF);
	gw_diag_result_free(&r);
}

/* Every cause of the vGPU resource pool message. */
static void
rule_graphics_causes(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(diag("Failed - The amount of graphics resource "
	                      "available in the parent resource pool is "
	                      "insufficient for the operation.", &r), 1);
	f = only(&r, GW_DIAG_VGPU_GRAPHICS);
	assert_contains(f->f.message, "Shared Direct");
	assert_contains(f->f.message, "as many vGPUs as the profile");
	assert_contains(f->f.message, "another vGPU profile");
	assert_contains(f->f.message, "vGPU manager");
	assert_contains(f->f.fix, "esxcli graphics host get");
	assert_contains(f->f.fix, "nvidia-smi vgpu");
	assert_contains(f->f.fix, "esxcli software vib list");
	assert_contains(f->f.source, "NVIDIA Virtual GPU Software User Guide");
	gw_diag_result_free(&r);
}

/* The seed's NCCL failure in all its wordings, over several lines. */
static void
rule_nccl_wordings(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;
	char *s;
	size_t n;

	(void)state;
	/* the seed's own log block (tests/fixtures/doctor) */
	s = read_sample("doctor/seed-001-nccl-operation-not-supported-vgpu.txt",
	                &n);
	assert_int_equal(gw_diagnose_text(s, n, &r), 1);
	f = only(&r, GW_DIAG_NCCL_ASK);
	assert_int_equal(f->lineno, 2);
	assert_not_contains(f->f.source, "seed");
	gw_diag_result_free(&r);
	free(s);

	/* the CUDA line on its own, ncclCommInitRank on another line, the
	 * user's note that the VM has vGPUs */
	assert_int_equal(diag("Cuda failure 'operation not supported'\n"
	                      "ncclCommInitRank failed: unhandled cuda error\n"
	                      "(our VM has two vGPUs)\n",
	                      &r), 1);
	f = only(&r, GW_DIAG_NCCL_UVM);
	assert_int_equal(f->lineno, 1);
	assert_not_contains(f->f.message, "EngineCore");
	gw_diag_result_free(&r);

	/* the NCCL line after the CUDA line, CRLF, vLLM's context */
	assert_int_equal(diag("Virtualization Mode : VGPU\r\n"
	                      "(EngineCore_0 pid=77) Cuda failure 801 "
	                      "'operation not supported'\r\n"
	                      "torch.distributed.DistBackendError: NCCL error "
	                      "in: ProcessGroupNCCL.cpp:1970\r\n"
	                      "RuntimeError: Engine core initialization failed."
	                      "\r\nEngineCore failed to start.\r\n", &r), 1);
	f = only(&r, GW_DIAG_NCCL_UVM);
	assert_contains(f->f.message, "vLLM");
	gw_diag_result_free(&r);

	/* not this: "operation not supported" without the CUDA failure, even
	 * with NCCL in the input */
	assert_int_equal(diag("NCCL INFO Using network Socket\n"
	                      "setsockopt: Operation not supported\n", &r), 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("mount: /mnt: operation not supported.\n"
	                      "EngineCore failed to start\n", &r), 0);
	gw_diag_result_free(&r);
}

/* nvidia-smi -q pasted into diagnose: Restricted is a finding, the grace
 * period (the real A6000-24Q capture) is not. */
static void
rule_license_restricted(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;
	char *s;
	size_t n;

	(void)state;
	s = read_sample("nvidia-smi/synthetic-rtxa6000-vgpu-guest-bar1-64g-"
	                "restricted.txt", &n);
	assert_int_equal(gw_diagnose_text(s, n, &r), 1);
	f = only(&r, GW_DIAG_LICENSE_RESTRICTED);
	assert_contains(f->f.message, "grace period has ended");
	assert_contains(f->f.fix, "ClientConfigToken");
	assert_contains(f->f.source, "UNLICENSED_RESTRICTED");
	gw_diag_result_free(&r);
	free(s);

	s = read_sample("nvidia-smi/rtxa6000-24q-vgpu-guest.txt", &n);
	assert_int_equal(gw_diagnose_text(s, n, &r), 0);
	gw_diag_result_free(&r);
	free(s);
}

/* Seed 000's vSphere CPI lines (a BOSH director's log: the tile's VM
 * powered on by Drm.ExecuteVmPowerOnLRO, DevicePowerOn failed, "Deleting
 * vm"): the BOSH rule in place of the generic one, the Tanzu route's fix
 * (the VM type, Apply Changes, no power-on by hand) and the wizard's
 * words (the GPU model, not a vmware.log); near misses are not it. */
static void
rule_bosh_cpi(void **state)
{
	size_t n;
	char *text = read_sample("doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt", &n);
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	assert_int_equal(gw_diagnose_text(text, n, &r), 1);
	f = only(&r, GW_DIAG_BOSH_POWERON);
	assert_int_equal(f->lineno, 1);
	assert_int_equal(f->matches, 2);   /* the task line and the stack */
	assert_contains(f->line, "Drm.ExecuteVmPowerOnLRO");
	assert_contains(f->f.message, "Deleting vm");
	assert_contains(f->f.fix, "Tanzu route");
	assert_contains(f->f.fix, "Infrastructure Config");
	assert_contains(f->f.fix, "Apply Changes");
	assert_contains(f->f.fix, "gpuwiz mmio --gpu SPEC");
	assert_contains(f->f.fix_ui, "GPU model");
	assert_contains(f->f.fix_ui, "Apply Changes");
	assert_null(strstr(f->f.fix_ui, "Paste the lines"));
	assert_null(strstr(f->f.fix, "Look in the VM's vmware.log"));
	assert_contains(f->f.source, "Tanzu AI Services");
	gw_diag_result_free(&r);
	free(text);

	/* the stack line alone (the CPI's package path) is enough */
	assert_int_equal(diag("I, [2026-07-29T09:03:01.322470 #94140]  INFO -- "
	                      "[req_id cpi-1]: Module DevicePowerOn power on "
	                      "failed.  - /var/vcap/data/packages/vsphere_cpi/"
	                      "16cb/lib/cloud/vsphere/task_runner.rb:30", &r), 1);
	only(&r, GW_DIAG_BOSH_POWERON);
	gw_diag_result_free(&r);
	/* a specific cause in the same text comes first, both shown */
	assert_int_equal(diag("PCIPassthru: total number of pages needed "
	                      "(4206594) exceeds limit (917504)\n"
	                      "Error running task 'Drm.ExecuteVmPowerOnLRO'. "
	                      "Failed with message 'Module DevicePowerOn power "
	                      "on failed. '\n", &r), 2);
	assert_string_equal(r.findings[0].f.id, GW_DIAG_MMIO_PAGES);
	assert_string_equal(r.findings[1].f.id, GW_DIAG_BOSH_POWERON);
	gw_diag_result_free(&r);
	/* DevicePowerOn from vSphere, no CPI: the generic finding */
	assert_int_equal(diag("Module 'DevicePowerOn' power on failed.\n", &r), 1);
	only(&r, GW_DIAG_POWERON);
	gw_diag_result_free(&r);
	/* a CPI power-on task that failed for another reason, and BOSH
	 * deleting a VM on its own: not this rule */
	assert_int_equal(diag("Error running task 'Drm.ExecuteVmPowerOnLRO'. "
	                      "Failed with message 'Insufficient resources'\n"
	                      "INFO -- [req_id cpi-1]: Deleting vm: vm-1\n", &r),
	                 0);
	gw_diag_result_free(&r);
}

/* The vGPU plugin that failed to start: the vSphere Client's error in
 * English (a real post title, the path form) and Chinese, the plugin's
 * vmiop_log line; the causes in order with their host checks. */
static void
rule_vgpu_plugin(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;
	const char *sriov, *shared, *vib, *ecc;

	(void)state;
	r = diag_sample("vmwarelog/blog-title-could-not-initialize-plugin-libnvidia-vgx-a30-sriov-off.txt");
	f = only(&r, GW_DIAG_VGPU_PLUGIN);
	assert_contains(f->f.message, "the VM's vGPU");
	/* the causes in the order field reports meet them */
	sriov = strstr(f->f.message, "SR-IOV is off");
	shared = strstr(f->f.message, "\"Shared Direct\"");
	vib = strstr(f->f.message, "vGPU manager (its VIB)");
	ecc = strstr(f->f.message, "ECC memory");
	assert_non_null(sriov);
	assert_true(sriov < shared && shared < vib && vib < ecc);
	/* each with its check on the host */
	assert_contains(f->f.fix, "Host VGPU Mode : SR-IOV");
	assert_contains(f->f.fix, "esxcli graphics host get");
	assert_contains(f->f.fix, "esxcli software vib list | grep -i nvidia");
	assert_contains(f->f.fix, "nvidia-smi -q -d ECC");
	assert_contains(f->f.fix, "nvidia-smi -e 0");
	assert_contains(f->f.source, "NVIDIA AI Enterprise User Guide");
	assert_null(f->f.fix_ui);
	gw_diag_result_free(&r);

	/* Chinese, the profile named */
	r = diag_sample("vmwarelog/vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt");
	f = only(&r, GW_DIAG_VGPU_PLUGIN);
	assert_contains(f->f.message, "the vGPU nvidia_rtxa5000-1b");
	assert_contains(f->line, "libnvidia-vgx.so");
	gw_diag_result_free(&r);

	/* vmware.log: the vmiop line first, the path form, DevicePowerOn
	 * explained (the generic finding left out) */
	r = diag_sample("vmwarelog/synthetic-vmware-log-vgpu-plugin-vmiop-init-failed-a100.txt");
	f = only(&r, GW_DIAG_VGPU_PLUGIN);
	assert_int_equal(f->lineno, 1);
	assert_int_equal(f->matches, 2);
	gw_diag_result_free(&r);
	assert_int_equal(diag("Could not initialize plugin "
	                      "'/usr/lib64/vmware/plugin/libnvidia-vgx.so' for "
	                      "vGPU 'grid_a100-40c'.", &r), 1);
	f = only(&r, GW_DIAG_VGPU_PLUGIN);
	assert_contains(f->f.message, "the vGPU grid_a100-40c");
	gw_diag_result_free(&r);
	/* the KVM vGPU manager's form of the plugin's line */
	assert_int_equal(diag("nvidia-vgpu-mgr[8626]: error: vmiop_log: (0x0): "
	                      "Initialization: init_device_instance failed "
	                      "error 1\n", &r), 1);
	only(&r, GW_DIAG_VGPU_PLUGIN);
	gw_diag_result_free(&r);

	/* not this: another plugin, a vmiop notice */
	assert_int_equal(diag("Could not initialize plugin 'libfoo.so'\n"
	                      "notice: vmiop_env_log: (0x0): pluginconfig: "
	                      "vgpu_type_id=259\n", &r), 0);
	gw_diag_result_free(&r);
}

/* Out of interrupt vectors: the vSphere documentation's own lines. */
static void
rule_interrupt_vectors(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	r = diag_sample("vmwarelog/vsphere-doc-sriov-vf-failed-to-register-interrupt-out-of-vectors.txt");
	f = only(&r, GW_DIAG_INTR_VECTORS);
	assert_int_equal(f->lineno, 1);
	assert_int_equal(f->matches, 2);
	assert_contains(f->f.message, "MSI/MSI-X");
	assert_contains(f->f.fix, "SR-IOV virtual functions");
	assert_contains(f->f.fix, "more CPUs");
	assert_contains(f->f.source, "Broadcom KB 313395");
	gw_diag_result_free(&r);
	/* with DevicePowerOn: the cause, not the generic finding */
	assert_int_equal(diag("Module 'DevicePowerOn' power on failed.\n"
	                      "WARNING: IntrVector: 233: Out of interrupt "
	                      "vectors\n", &r), 1);
	only(&r, GW_DIAG_INTR_VECTORS);
	gw_diag_result_free(&r);
}

/* The Chinese vSphere Client's DevicePowerOn error: the same rule as
 * the English one. */
static void
rule_zh_poweron(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	r = diag_sample("vmwarelog/vsphere-client-zh-devicepoweron-failed-esxi-gpu-guide.txt");
	f = only(&r, GW_DIAG_POWERON);
	assert_contains(f->line, "\xe6\x89\x93\xe5\xbc\x80\xe7\x94\xb5\xe6\xba\x90");
	gw_diag_result_free(&r);
	/* ASCII quotes, no quotes, with a specific cause: left out */
	assert_int_equal(diag("\xe6\xa8\xa1\xe5\x9d\x97\"DevicePowerOn\""
	                      "\xe6\x89\x93\xe5\xbc\x80\xe7\x94\xb5\xe6\xba\x90"
	                      "\xe5\xa4\xb1\xe8\xb4\xa5", &r), 1);
	only(&r, GW_DIAG_POWERON);
	gw_diag_result_free(&r);
	assert_int_equal(diag("\xe6\xa8\xa1\xe5\x9d\x97 DevicePowerOn "
	                      "\xe6\x89\x93\xe5\xbc\x80\xe7\x94\xb5\xe6\xba\x90"
	                      "\xe5\xa4\xb1\xe8\xb4\xa5\n"
	                      "PCIPassthru: total number of pages needed "
	                      "(4206594) exceeds limit (917504), failing\n", &r),
	                 1);
	only(&r, GW_DIAG_MMIO_PAGES);
	gw_diag_result_free(&r);
}

/* The VM's context for NCCL's 'operation not supported': a .vmx with
 * vGPUs makes it the vGPU failure; with a fractional profile enable_uvm
 * alone does not help; with DirectPath GPUs only, not a vGPU matter. */
static gw_diag_ctx
ctx_of(const char *rel)
{
	gw_diag_ctx ctx;
	gw_vmx *v = NULL;
	gw_err e;
	char *path = tu_fixture_path(rel);

	if (gw_vmx_load_checked(&v, path, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_diag_ctx_from_vmx(&ctx, v, &table), 0);
	gw_vmx_free(v);
	free(path);
	return ctx;
}

static void
nccl_vm_context(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;
	gw_diag_ctx ctx;
	char *s;
	size_t n;

	(void)state;
	s = read_sample("doctor/seed-001-nccl-operation-not-supported-vgpu.txt",
	                &n);

	ctx = ctx_of("doctor/synthetic-vm-2x-vgpu-nvidia-l40s-48c.vmx");
	assert_int_equal(ctx.vgpus, 2);
	assert_string_equal(ctx.profile, "nvidia_l40s-48c");
	assert_int_equal(ctx.profile_whole, 1);
	assert_int_equal(gw_diagnose_text_ctx(s, n, &ctx, &r), 1);
	f = only(&r, GW_DIAG_NCCL_UVM);
	assert_contains(f->f.message, "EngineCore failed to start");
	assert_contains(f->f.fix, "pciPassthruN.cfg.enable_uvm = \"1\"");
	gw_diag_result_free(&r);

	ctx = ctx_of("doctor/synthetic-vm-2x-vgpu-nvidia-l40s-24c.vmx");
	assert_int_equal(ctx.profile_whole, 0);
	assert_string_equal(ctx.whole, "nvidia_l40s-48c");
	assert_int_equal(gw_diagnose_text_ctx(s, n, &ctx, &r), 1);
	f = only(&r, GW_DIAG_NCCL_UVM);
	assert_contains(f->f.message, "nvidia_l40s-24c has only a part");
	assert_contains(f->f.message, "enable_uvm alone does not help");
	assert_contains(f->f.fix, "(nvidia_l40s-48c) or a MIG-backed one");
	assert_contains(f->f.fix_ui, "nvidia_l40s-48c");
	gw_diag_result_free(&r);

	ctx = ctx_of("doctor/synthetic-vm-l40s-directpath-no-vgpu.vmx");
	assert_true(ctx.vm_known);
	assert_int_equal(ctx.vgpus, 0);
	assert_int_equal(gw_diagnose_text_ctx(s, n, &ctx, &r), 1);
	f = only(&r, GW_DIAG_NCCL_ASK);
	assert_contains(f->f.message, "has no vGPU");
	assert_not_contains(f->f.fix, "enable_uvm");
	assert_contains(f->f.fix, "NCCL_DEBUG=INFO");
	gw_diag_result_free(&r);

	/* a .vmx without any GPU: no vGPU either */
	ctx = ctx_of("vmx/ws-freebsd-crlf.vmx");
	assert_true(ctx.vm_known);
	assert_int_equal(ctx.vgpus, 0);
	free(s);
}

/* The profile test the context uses (plan_vgpu_checks.c). */
static void
profile_whole(void **state)
{
	(void)state;
	assert_int_equal(gw_vgpu_profile_whole("nvidia_l40s-48c", 48), 1);
	assert_int_equal(gw_vgpu_profile_whole("nvidia_l40s-24c", 48), 0);
	assert_int_equal(gw_vgpu_profile_whole("grid_a100-3-20c", 40), 1);
	assert_int_equal(gw_vgpu_profile_whole("nvidia_l40s-24c", -1), -1);
	assert_int_equal(gw_vgpu_profile_whole("nvidia_l40s", 48), -1);
	assert_int_equal(gw_vgpu_profile_whole(NULL, 48), -1);
}

/* ---- wrong advice in pasted text (diagnose_guide.c) -------------------- */

/* Seed 002's lines (a Chinese ESXi guide): every wrong command named,
 * each on its own line, with the right one. */
static void
guide_seed_002(void **state)
{
	static const struct { const char *id; unsigned long line, matches;
	                      const char *quoted, *msg, *fix; } want[] = {
		{ GW_DIAG_WRONG_MMIO_KERNEL, 11, 2,
		  "kernel set -s pciPassthru64bitMMIOSizeMB -v 2048",
		  "no setting pciPassthru64bitMMIOSizeMB",
		  "pciPassthru.64bitMMIOSizeGB sized by the documented rule" },
		{ GW_DIAG_WRONG_IOMMU_OPTION, 3, 2,
		  "esxcli system settings kernel list | grep iommu",
		  "no setting iommu_enabled",
		  "esxcli hardware pci pcipassthru list" },
		{ GW_DIAG_WRONG_LINUX_IOMMU, 4, 1,
		  "/bootbank/boot.cfg",
		  "Linux kernel parameters",
		  "VT-d (Intel) or AMD-Vi" },
		{ GW_DIAG_WRONG_PASSTHRU_ASPM, 15, 1,
		  "pcipassthru set -d [device_id] -e false",
		  "does not turn ASPM",
		  "-e true -a" },
		{ GW_DIAG_WRONG_MMIO_SIZE, 20, 1,
		  "pciPassthru.64bitMMIOSizeGB = \"2\"",
		  "too small for the 12 GB GPU",
		  "pciPassthru.64bitMMIOSizeGB = \"32\"" },
		{ GW_DIAG_WRONG_MMIO_MODEL, 6, 1,
		  "1.2GB",
		  "does not depend on the model",
		  "gpuwiz mmio --gpu MODEL" },
	};
	gw_diag_result r;
	char *s;
	size_t n, i;

	(void)state;
	s = read_sample("guides/seed-002-esxi-gpu-guide-zh-wrong-commands.txt",
	                &n);
	assert_int_equal(gw_diagnose_text(s, n, &r),
	                 (int)(sizeof want / sizeof want[0]));
	for (i = 0; i < r.n; i++) {
		const gw_diag_finding *f = &r.findings[i];

		assert_string_equal(f->f.id, want[i].id);
		assert_int_equal(f->lineno, want[i].line);
		assert_int_equal(f->matches, want[i].matches);
		assert_contains(f->line, want[i].quoted);
		assert_contains(f->f.message, want[i].msg);
		assert_contains(f->f.fix, want[i].fix);
		assert_non_null(f->f.source);
		assert_true(f->f.source[0] != '\0');
	}
	assert_int_equal(find_id(&r, GW_DIAG_WRONG_MMIO_SIZE)->mmio_gb, 32);
	/* the right commands, never the wrong ones, in the fixes */
	for (i = 0; i < r.n; i++) {
		assert_not_contains(r.findings[i].f.fix, "iommu_enabled");
		assert_null(strstr(r.findings[i].f.fix, "-e false"));
	}
	gw_diag_result_free(&r);
	free(s);
}

/* intel_iommu=on is right on a Linux host: flagged only where the line
 * or the text is ESXi's. */
static void
guide_linux_iommu_context(void **state)
{
	gw_diag_result r;
	char *s;
	size_t n;

	(void)state;
	s = read_sample("guides/synthetic-linux-etc-default-grub-intel-iommu-"
	                "on.txt", &n);
	assert_int_equal(gw_diagnose_text(s, n, &r), 0);
	gw_diag_result_free(&r);
	free(s);
	assert_int_equal(diag("intel_iommu=on iommu=pt\n", &r), 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("Add amd_iommu=on to the kernel command line\n"
	                      "esxcli hardware pci pcipassthru list\n", &r), 0);
	gw_diag_result_free(&r);
	/* a grub line beside esxcli lines is still Linux's */
	assert_int_equal(diag("esxcli hardware pci pcipassthru list\n"
	                      "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet "
	                      "intel_iommu=on\"\n", &r), 0);
	gw_diag_result_free(&r);
	/* ESXi's boot.cfg */
	assert_int_equal(diag("bootstate=0\ntitle=Loading VMware ESXi\n"
	                      "kernel=b.b00\nkernelopt=autoPartition=FALSE "
	                      "intel_iommu=on\n", &r), 1);
	assert_int_equal(only(&r, GW_DIAG_WRONG_LINUX_IOMMU)->lineno, 4);
	gw_diag_result_free(&r);
	/* a line without context in a text that has it */
	assert_int_equal(diag("vi /bootbank/boot.cfg\n"
	                      "append iommu=pt\n", &r), 1);
	assert_int_equal(only(&r, GW_DIAG_WRONG_LINUX_IOMMU)->lineno, 2);
	gw_diag_result_free(&r);
	/* iommu_enabled alone is no ESXi option either way */
	assert_int_equal(diag("iommu_enabled = true\n", &r), 0);
	gw_diag_result_free(&r);
}

static void
guide_passthru_off(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	/* no ASPM in the text: what the command does, not "wrong" */
	assert_int_equal(diag("esxcli hardware pci pcipassthru set -d "
	                      "0000:3b:00.0 --enable=false\n", &r), 1);
	f = only(&r, GW_DIAG_PASSTHRU_OFF);
	assert_contains(f->f.message, "cannot power on");
	assert_not_contains(f->f.message, "ASPM");
	gw_diag_result_free(&r);
	assert_int_equal(diag("esxcli hardware pci pcipassthru set -d "
	                      "0000:3b:00.0 -e true -a\n", &r), 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("# disable ASPM\nesxcli hardware pci "
	                      "pcipassthru set -d 0000:3b:00.0 -e false\n",
	                      &r), 1);
	only(&r, GW_DIAG_WRONG_PASSTHRU_ASPM);
	gw_diag_result_free(&r);
}

static void
guide_mmio_size(void **state)
{
	gw_diag_result r;
	const gw_diag_finding *f;

	(void)state;
	/* no GPU named: below 16 is too small for any GPU of 8 GB or more */
	assert_int_equal(diag("pciPassthru.64bitMMIOSizeGB = \"2\"\n", &r), 1);
	f = only(&r, GW_DIAG_WRONG_MMIO_SIZE);
	assert_contains(f->f.message, "8 GB: 16, 12 GB: 32");
	assert_int_equal(f->mmio_gb, 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("pciPassthru.64bitMMIOSizeGB = \"16\"\n", &r), 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("pciPassthru.64bitMMIOSizeGB = \"128\"\n", &r),
	                 0);
	gw_diag_result_free(&r);
	/* a GPU named: its rule */
	assert_int_equal(diag("My RTX 4090 24 GB\npciPassthru.64bitMMIOSizeGB "
	                      "= \"32\"\n", &r), 1);
	f = only(&r, GW_DIAG_WRONG_MMIO_SIZE);
	assert_int_equal(f->mmio_gb, 64);
	assert_contains(f->f.fix, "pciPassthru.64bitMMIOSizeGB = \"64\"");
	gw_diag_result_free(&r);
	assert_int_equal(diag("My RTX 4090 24 GB\npciPassthru.64bitMMIOSizeGB "
	                      "= \"64\"\n", &r), 0);
	gw_diag_result_free(&r);
}

static void
guide_mmio_model(void **state)
{
	gw_diag_result r;

	(void)state;
	assert_int_equal(diag("Llama-3-8B-GPTQ needs 1.2 GB of contiguous "
	                      "MMIO\n", &r), 1);
	only(&r, GW_DIAG_WRONG_MMIO_MODEL);
	gw_diag_result_free(&r);
	/* near misses: MMIO without a model, a model without MMIO */
	assert_int_equal(diag("An L40S with 48 GB needs a 128 GB MMIO "
	                      "window\n", &r), 0);
	gw_diag_result_free(&r);
	assert_int_equal(diag("Llama-3-8B-GPTQ takes 4 GB of VRAM\n", &r), 0);
	gw_diag_result_free(&r);
}

/* ---- gw_diag_words: many words found in one pass ------------------------ */

/* The bits of the words of ws found in s[0..n) one at a time, at every
 * offset. */
static uint64_t
words_naive(const gw_diag_words *ws, const char *s, size_t n)
{
	uint64_t bits = ws->always;
	size_t k, i;

	for (k = 0; k < ws->n; k++)
		for (i = 0; i + ws->word[k].m <= n; i++)
			if (memcmp(s + i, ws->word[k].w, ws->word[k].m) == 0)
				bits |= ws->word[k].bit;
	return bits;
}

static void
words_found(void **state)
{
	static const char *const w[] = {
		"pcipassthru", "pcipassthru64bitmmiosizemb", "pci", "ab", "b",
		"nccl", "esx.conf", NULL
	};
	gw_diag_words *ws = malloc(sizeof *ws);
	size_t k;

	(void)state;
	assert_non_null(ws);
	gw_diag_words_init(ws);
	for (k = 0; w[k]; k++)
		assert_int_equal(gw_diag_words_add(ws, w[k], strlen(w[k]),
		                                   (uint64_t)1 << k), 0);
#define IN(t) gw_diag_words_in(ws, t, strlen(t))
	assert_true(IN("") == 0);
	assert_true(IN("x") == 0);
	/* words sharing a pair, one inside the other */
	assert_true(IN("pcipassthru0.id") == (1 | 4));
	assert_true(IN("set pcipassthru64bitmmiosizemb") == (1 | 2 | 4 | 16));
	/* at the start, at the very end, a byte short of the end */
	assert_true(IN("pci") == 4);
	assert_true(IN("xpc") == 0);
	assert_true(IN("zzab") == (8 | 16));
	assert_true(IN("zza") == 0);
	/* a word of one byte, alone and last */
	assert_true(IN("b") == 16);
	assert_true(IN("cb") == 16);
	/* byte for byte: the set sees folded text, upper case is not it */
	assert_true(IN("NCCL ESX.CONF") == 0);
	assert_true(IN("nccl esx.conf") == (32 | 64));
	/* a longer word is not found in a shorter text */
	assert_true(IN("pcipassthru64bit") == (1 | 4 | 16));
#undef IN
	/* the empty word is in every text */
	assert_int_equal(gw_diag_words_add(ws, "", 0, (uint64_t)1 << 40), 0);
	assert_true(gw_diag_words_in(ws, "", 0) == (uint64_t)1 << 40);
	free(ws);
}

static void
words_full(void **state)
{
	gw_diag_words *ws = malloc(sizeof *ws);
	char w[GW_DIAG_MAXWORDS + 1][4];
	size_t k;

	(void)state;
	assert_non_null(ws);
	gw_diag_words_init(ws);
	for (k = 0; k <= GW_DIAG_MAXWORDS; k++) {
		snprintf(w[k], sizeof w[k], "w%02zu", k);
		assert_int_equal(gw_diag_words_add(ws, w[k], 3, 1),
		                 k < GW_DIAG_MAXWORDS ? 0 : -1);
	}
	/* the last word taken is found, the one refused is not */
	assert_true(gw_diag_words_in(ws, w[GW_DIAG_MAXWORDS - 1], 3) == 1);
	assert_true(gw_diag_words_in(ws, w[GW_DIAG_MAXWORDS], 3) == 0);
	free(ws);
}

/* Random words and texts over a small alphabet (many shared pairs and
 * overlaps): the same bits as a search for each word. */
static void
words_as_search(void **state)
{
	gw_diag_words *ws = malloc(sizeof *ws);
	char words[48][8], text[200];
	unsigned seed = 25;
	int round;

	(void)state;
	assert_non_null(ws);
	for (round = 0; round < 200; round++) {
		size_t nw = 1 + (size_t)(rand_r(&seed) % 48), k, i, n;

		gw_diag_words_init(ws);
		for (k = 0; k < nw; k++) {
			size_t m = 1 + (size_t)(rand_r(&seed) % 7);

			for (i = 0; i < m; i++)
				words[k][i] = "abc"[rand_r(&seed) % 3];
			assert_int_equal(gw_diag_words_add(ws, words[k], m,
			                                   (uint64_t)1 << k), 0);
		}
		n = (size_t)(rand_r(&seed) % sizeof text);
		for (i = 0; i < n; i++)
			text[i] = "abcd"[rand_r(&seed) % 4];
		assert_true(gw_diag_words_in(ws, text, n) ==
		            words_naive(ws, text, n));
	}
	free(ws);
}

/* The facts of the whole text a rule needs, known only at its end: a
 * line before them and a line after give the same finding. */
static void
scan_text_facts_after(void **state)
{
	gw_diag_result r;

	(void)state;
	/* "NCCL" only on a line after the failure */
	assert_int_equal(diag("init.cc:426 WARN Cuda failure 'operation not "
	                      "supported'\nNCCL version 2.27.5\n", &r), 1);
	assert_int_equal(only(&r, GW_DIAG_NCCL_ASK)->lineno, 1);
	gw_diag_result_free(&r);
	assert_int_equal(diag("init.cc:426 WARN Cuda failure 'operation not "
	                      "supported'\n", &r), 0);
	gw_diag_result_free(&r);
	/* ESXi named only after a line without context */
	assert_int_equal(diag("append iommu=pt\nvi /bootbank/boot.cfg\n", &r),
	                 1);
	assert_int_equal(only(&r, GW_DIAG_WRONG_LINUX_IOMMU)->lineno, 1);
	gw_diag_result_free(&r);
	assert_int_equal(diag("append iommu=pt\n", &r), 0);
	gw_diag_result_free(&r);
	/* a pattern's second word missing from the line: no match */
	assert_int_equal(diag("esxcli hardware pci pcipassthru set -d "
	                      "0000:3b:00.0\n", &r), 0);
	gw_diag_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sample_dell_pages),
		cmocka_unit_test(sample_nuc_register),
		cmocka_unit_test(sample_nuc_poweron_line),
		cmocka_unit_test(sample_memory),
		cmocka_unit_test(sample_p40_ok),
		cmocka_unit_test(samples_all_known),
		cmocka_unit_test(vmx_samples_are_not_failures),
		cmocka_unit_test(rule_firmware_alloc),
		cmocka_unit_test(rule_memory_variants),
		cmocka_unit_test(rule_graphics),
		cmocka_unit_test(rule_not_passthrough),
		cmocka_unit_test(rule_hex_bdf),
		cmocka_unit_test(rule_systemid),
		cmocka_unit_test(rule_nccl),
		cmocka_unit_test(rule_free_esxi),
		cmocka_unit_test(rule_guest_bar),
		cmocka_unit_test(two_failures),
		cmocka_unit_test(unrelated_log),
		cmocka_unit_test(case_and_numbers),
		cmocka_unit_test(keep_largest_need),
		cmocka_unit_test(line_endings),
		cmocka_unit_test(long_and_dirty_lines),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(render_text),
		cmocka_unit_test(render_json_parsed),
		cmocka_unit_test(command_file),
		cmocka_unit_test(command_none),
		cmocka_unit_test(command_stdin),
		cmocka_unit_test(command_input_errors),
		cmocka_unit_test(rule_pci_hole),
		cmocka_unit_test(rule_id_decimal),
		cmocka_unit_test(rule_graphics_causes),
		cmocka_unit_test(rule_nccl_wordings),
		cmocka_unit_test(rule_license_restricted),
		cmocka_unit_test(rule_bosh_cpi),
		cmocka_unit_test(rule_vgpu_plugin),
		cmocka_unit_test(rule_interrupt_vectors),
		cmocka_unit_test(rule_zh_poweron),
		cmocka_unit_test(nccl_vm_context),
		cmocka_unit_test(profile_whole),
		cmocka_unit_test(guide_seed_002),
		cmocka_unit_test(guide_linux_iommu_context),
		cmocka_unit_test(guide_passthru_off),
		cmocka_unit_test(guide_mmio_size),
		cmocka_unit_test(guide_mmio_model),
		cmocka_unit_test(words_found),
		cmocka_unit_test(words_full),
		cmocka_unit_test(words_as_search),
		cmocka_unit_test(scan_text_facts_after),
	};

	return cmocka_run_group_tests(tests, table_setup, table_teardown);
}
