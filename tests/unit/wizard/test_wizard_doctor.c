/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_doctor.c: the doctor (wizard_doctor.c): the real failures
 * of tests/fixtures/vmwarelog diagnosed, each rule's pre-fill, the .vmx
 * found beside a vmware.log (one, several), nothing recognised, input
 * over GW_DIAG_MAX_INPUT, a fix that is no .vmx change. */
#include "testutil.h"
#include "wizard_doctor.h"
#include "emit.h"   /* GW_FMT_* */

#include <fcntl.h>
#include "wizutil.h"

static gw_table table;

#define DELL_KB "vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt"
#define MEMORY  "vmwarelog/vsphere-task-error-invalid-memory-setting-sched-mem-min.txt"
#define REGISTER "vmwarelog/vsphere-task-error-devicepoweron-failed-to-register-pcipassthru0-igpu-nuc11.txt"
#define SEED1   "doctor/seed-001-nccl-operation-not-supported-vgpu.txt"
#define WS_VMX  "vmx/ws-hw16-win10-efi-windows1252-crlf.vmx"
#define SEED0   "doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt"

static void
put(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A real Workstation .vmx (EFI, 2048 MB) with extra lines: an L40S in
 * passthrough, or vGPUs, as the vSphere Client writes them. */
static char *
vm_with(const char *dir, const char *name, const char *extra)
{
	size_t n;
	char *v = tu_read_sample(WS_VMX, &n);
	char *path = gw_xasprintf("%s/%s", dir, name);
	gw_buf b;

	gw_buf_init(&b);
	gw_buf_add(&b, v, n);
	gw_buf_puts(&b, extra);
	put(path, b.data, b.len);
	gw_buf_free(&b);
	free(v);
	return path;
}

#define L40S_PASSTHRU "pciPassthru0.present = \"TRUE\"\r\n" \
	"pciPassthru0.vendorId = \"0x10de\"\r\npciPassthru0.deviceId = \"0x26b9\"\r\n"
#define L40S_VGPUS "pciPassthru0.present = \"TRUE\"\r\n" \
	"pciPassthru0.vgpu = \"nvidia_l40s-24c\"\r\n" \
	"pciPassthru1.present = \"TRUE\"\r\n" \
	"pciPassthru1.vgpu = \"nvidia_l40s-24c\"\r\n"

static const char *
setting(const gw_wizard *w, const char *key)
{
	const gw_plan *p = gw_wizard_plan(w);
	size_t i;

	for (i = 0; p && i < p->nsettings; i++)
		if (strcmp(p->settings[i].key, key) == 0)
			return p->settings[i].value;
	return NULL;
}

/* One test's wizard, doctor, scratch directory, VM (vm.vmx with extra
 * lines, opened when open_vmx) and fixture text. */
typedef struct doc_case {
	gw_wizard *w;
	gw_wizard_doctor *d;
	char *dir, *vmx, *text;
	size_t n;
	char why[1024];
	gw_err e;
} doc_case;

static void
case_open(doc_case *c, const char *extra, const char *fixture, int open_vmx)
{
	memset(c, 0, sizeof *c);
	c->w = tu_wizard_fresh(&table);
	c->d = gw_wizard_doctor_new();
	c->dir = tu_tmpdir();
	c->vmx = vm_with(c->dir, "vm.vmx", extra);
	c->text = fixture ? tu_read_sample(fixture, &c->n) : gw_xstrdup("");
	if (open_vmx)
		assert_int_equal(gw_wizard_open_vmx(c->w, c->vmx, &c->e), 0);
}

static void
case_close(doc_case *c)
{
	free(c->text);
	free(c->vmx);
	tu_rm_tree(c->dir);
	free(c->dir);
	gw_wizard_doctor_free(c->d);
	gw_wizard_delete(c->w);
}

/* The Dell KB's power-on failure pasted: 4206594 pages = 16.05 GiB, so
 * 32 GB; the VM's L40S rule (48 GB -> 64 -> 128) is larger and stays.
 * No .vmx yet: the walk stops on the VM step; with the .vmx it goes on
 * to the review. */
static void
test_mmio_pasted(void **state)
{
	doc_case c;
	const gw_diag_finding *f;

	(void)state;
	case_open(&c, L40S_PASSTHRU, DELL_KB, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	assert_int_equal(gw_wizard_doctor_count(c.d), 1);
	f = gw_wizard_doctor_finding(c.d, 0);
	assert_string_equal(f->f.id, GW_DIAG_MMIO_PAGES);
	assert_int_equal(f->mmio_gb, 32);
	assert_null(gw_wizard_doctor_source(c.d));
	assert_null(gw_wizard_doctor_vmx(c.d));
	/* the wizard's words: the review, not a flag */
	assert_non_null(strstr(gw_wizard_finding_fix(&f->f), "review"));
	assert_null(strstr(gw_wizard_finding_fix(&f->f), "--gpu"));
	/* no .vmx: the VM step asks */
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 1);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_VM);
	assert_true(gw_wizard_doctor_pending(c.d));
	assert_int_equal(gw_wizard_open_vmx(c.w, c.vmx, &c.e), 0);
	assert_int_equal(gw_wizard_next(c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_doctor_resume(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	assert_false(gw_wizard_doctor_pending(c.d));
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "128");
	assert_string_equal(setting(c.w, "pciPassthru.use64bitMMIO"), "TRUE");
	assert_int_equal(gw_wizard_doctor_resume(c.d, c.w, c.why, sizeof c.why), -1);
	case_close(&c);
}

/* A need above the plan's rule raises the size: 256 GiB of pages ->
 * 512 GB over the L40S's 128. */
static void
test_mmio_raises(void **state)
{
	static const char line[] = "2024-01-01T00:00:00.000Z| vmx| I005: "
	    "PCIPassthru: total number of pages needed (67108864) exceeds "
	    "limit (917504), failing\n";
	doc_case c;

	(void)state;
	case_open(&c, L40S_PASSTHRU, NULL, 1);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, line, sizeof line - 1,
	                                       &c.e), 1);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "512");
	case_close(&c);
}

/* The firmware's allocation failure (no public sample: a line as in
 * tests/unit/core/test_diagnose.c): 40960000 KB = 39.06 GiB -> 64 GB,
 * below the L40S rule of 128, which stays; with the page count of
 * 256 GiB in the same text the larger need (512) wins. */
static void
test_mmio_firmware(void **state)
{
	static const char fw[] = "2024-03-05T10:11:12.345Z| vcpu-0| I005: "
	    "The firmware could not allocate 40960000 KB of PCI MMIO.\n";
	static const char both[] = "2024-03-05T10:11:12.345Z| vcpu-0| I005: "
	    "The firmware could not allocate 40960000 KB of PCI MMIO.\n"
	    "2024-03-05T10:11:13.000Z| vmx| I005: PCIPassthru: total number "
	    "of pages needed (67108864) exceeds limit (917504), failing\n";
	doc_case c;

	(void)state;
	case_open(&c, L40S_PASSTHRU, NULL, 1);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, fw, sizeof fw - 1,
	                                       &c.e), 1);
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_MMIO_FIRMWARE);
	assert_int_equal(gw_wizard_doctor_finding(c.d, 0)->mmio_gb, 64);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "128");
	assert_int_equal(gw_wizard_answers(c.w)->a.mmio_gb, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, both, sizeof both - 1,
	                                       &c.e), 2);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "512");
	case_close(&c);
}

/* A vmware.log path: read, and the one .vmx beside it opened: straight
 * to the review. */
static void
test_log_beside_vmx(void **state)
{
	doc_case c;
	char *log, *typed;

	(void)state;
	case_open(&c, L40S_PASSTHRU, DELL_KB, 0);
	log = gw_xasprintf("%s/vmware.log", c.dir);
	put(log, c.text, c.n);
	typed = gw_xasprintf("  %s \n", log);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, typed, strlen(typed),
	                                       &c.e), 1);
	assert_string_equal(gw_wizard_doctor_source(c.d), log);
	assert_int_equal(gw_wizard_doctor_nvmx(c.d), 1);
	assert_string_equal(gw_wizard_doctor_vmx(c.d), c.vmx);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	assert_string_equal(gw_wizard_answers(c.w)->vmx_path, c.vmx);
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "128");
	free(typed);
	free(log);
	case_close(&c);
}

/* Two .vmx beside a rotated log (one spelt .VMX): none chosen, the VM
 * step asks. */
static void
test_log_two_vmx(void **state)
{
	doc_case c;
	char *b, *log;

	(void)state;
	case_open(&c, L40S_PASSTHRU, DELL_KB, 0);
	b = vm_with(c.dir, "b.VMX", L40S_PASSTHRU);
	log = gw_xasprintf("%s/vmware-1.log", c.dir);
	put(log, c.text, c.n);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, log, strlen(log), &c.e), 1);
	assert_int_equal(gw_wizard_doctor_nvmx(c.d), 2);
	assert_null(gw_wizard_doctor_vmx(c.d));
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 1);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_VM);
	assert_true(c.why[0] != '\0');
	free(log);
	free(b);
	case_close(&c);
}

/* The reservation error: all memory reserved in the review. */
static void
test_reserve(void **state)
{
	doc_case c;

	(void)state;
	case_open(&c, L40S_PASSTHRU, MEMORY, 1);
	gw_wizard_set_reserve(c.w, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_MEM_RESERVATION);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	/* nothing else pre-filled: the MMIO size stays the plan's rule */
	assert_int_equal(gw_wizard_answers(c.w)->a.mmio_gb, 0);
	assert_true(gw_wizard_answers(c.w)->a.reserve);
	assert_string_equal(setting(c.w, "sched.mem.min"), "2048");
	assert_string_equal(setting(c.w, "sched.mem.pin"), "TRUE");
	case_close(&c);
}

/* Seed 001's NCCL crash on a VM with two vGPUs: UVM on each. */
static void
test_uvm(void **state)
{
	doc_case c;

	(void)state;
	case_open(&c, L40S_VGPUS, SEED1, 1);
	gw_wizard_set_uvm(c.w, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_NCCL_UVM);
	/* the open VM's vGPUs are nvidia_l40s-24c, half an L40S: unified
	 * memory needs the whole framebuffer */
	assert_non_null(strstr(gw_wizard_doctor_finding(c.d, 0)->f.message,
	                       "enable_uvm alone does not help"));
	assert_non_null(strstr(gw_wizard_doctor_finding(c.d, 0)->f.fix_ui,
	                       "nvidia_l40s-48c"));
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	/* nothing else pre-filled: the MMIO size stays the plan's rule */
	assert_int_equal(gw_wizard_answers(c.w)->a.mmio_gb, 0);
	assert_string_equal(setting(c.w, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(setting(c.w, "pciPassthru1.cfg.enable_uvm"), "1");
	assert_false(gw_wizard_uvm_proposed(c.w));
	case_close(&c);
}

/* Seed 001 pasted before any .vmx: nothing shows a vGPU, so the finding
 * is a question; the walk asks for the .vmx, and its vGPUs get UVM. */
static void
test_nccl_ask_then_vgpu_vm(void **state)
{
	doc_case c;
	const gw_diag_finding *f;

	(void)state;
	case_open(&c, L40S_VGPUS, SEED1, 0);
	gw_wizard_set_uvm(c.w, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	f = gw_wizard_doctor_finding(c.d, 0);
	assert_string_equal(f->f.id, GW_DIAG_NCCL_ASK);
	assert_non_null(strstr(gw_wizard_finding_fix(&f->f), "Enter asks for the VM's .vmx"));
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 1);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_VM);
	assert_int_equal(gw_wizard_open_vmx(c.w, c.vmx, &c.e), 0);
	assert_int_equal(gw_wizard_next(c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_doctor_resume(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	assert_string_equal(setting(c.w, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(setting(c.w, "pciPassthru1.cfg.enable_uvm"), "1");
	case_close(&c);
}

/* Seed 001 on a VM whose GPU is DirectPath I/O: not a vGPU matter, no
 * unified memory written. */
static void
test_nccl_passthrough_vm(void **state)
{
	doc_case c;
	const gw_diag_finding *f;

	(void)state;
	case_open(&c, L40S_PASSTHRU, SEED1, 1);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	f = gw_wizard_doctor_finding(c.d, 0);
	assert_string_equal(f->f.id, GW_DIAG_NCCL_ASK);
	assert_non_null(strstr(f->f.message, "has no vGPU"));
	assert_null(strstr(gw_wizard_finding_fix(&f->f), "enable_uvm"));
	(void)gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why);
	assert_false(gw_wizard_answers(c.w)->a.uvm);
	assert_null(setting(c.w, "pciPassthru0.cfg.enable_uvm"));
	case_close(&c);
}

/* Seed 001 saved as a vmware.log beside the VM's .vmx: the doctor reads
 * the VM's vGPUs from that .vmx before it names the cause. */
static void
test_nccl_vmx_beside_log(void **state)
{
	doc_case c;
	char *log;

	(void)state;
	case_open(&c, L40S_VGPUS, SEED1, 0);
	log = gw_xasprintf("%s/vmware.log", c.dir);
	put(log, c.text, c.n);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, log, strlen(log), &c.e), 1);
	assert_non_null(gw_wizard_doctor_vmx(c.d));
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_NCCL_UVM);
	free(log);
	case_close(&c);
}

/* "No device hints found" on a VM whose id holds the hex address: the
 * plan rewrites it in decimal, the doctor goes to the review with it. */
static void
test_hex_id(void **state)
{
	static const char log[] = "2024-01-03T10:22:33.444Z In(05) vmx - AH No device hints found\n";
	doc_case c;

	(void)state;
	case_open(&c, L40S_PASSTHRU "pciPassthru0.id = \"0000:3b:00.0\"\r\n",
	          NULL, 1);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, log, sizeof log - 1,
	                                       &c.e), 1);
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_HEX_BDF);
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	/* nothing else pre-filled: the MMIO size stays the plan's rule */
	assert_int_equal(gw_wizard_answers(c.w)->a.mmio_gb, 0);
	assert_string_equal(setting(c.w, "pciPassthru0.id"), "00000:059:00.0");
	case_close(&c);
}

/* A fix on the host (the device reset): shown, nothing pre-filled. */
static void
test_not_vmx_fix(void **state)
{
	gw_wizard *w = tu_wizard_fresh(&table);
	gw_wizard_doctor *d = gw_wizard_doctor_new();
	char why[1024];
	size_t n;
	char *text = tu_read_sample(REGISTER, &n);
	gw_err e;

	(void)state;
	assert_true(gw_wizard_doctor_text(d, w, text, n, &e) >= 1);
	assert_int_equal(gw_wizard_doctor_apply(d, w, why, sizeof why), -1);
	assert_int_equal(gw_wizard_step(w), GW_STEP_WELCOME);
	assert_false(gw_wizard_is(w, GW_WIZ_DIRTY));
	assert_non_null(gw_wizard_doctor_next(d, w));
	free(text);
	gw_wizard_doctor_free(d);
	gw_wizard_delete(w);
}

/* Nothing recognised (text, a .vmx named as the file): 0, nothing
 * changes, the next action is the normal steps. */
static void
test_nothing(void **state)
{
	static const char text[] = "hello\nthe VM does not start\n";
	gw_wizard *w = tu_wizard_fresh(&table);
	gw_wizard_doctor *d = gw_wizard_doctor_new();
	char *path = tu_fixture_path(WS_VMX);
	char why[1024];
	gw_err e;

	(void)state;
	assert_int_equal(gw_wizard_doctor_text(d, w, text, sizeof text - 1, &e), 0);
	assert_null(gw_wizard_doctor_source(d));
	assert_int_equal(gw_wizard_doctor_apply(d, w, why, sizeof why), -1);
	assert_int_equal(gw_wizard_step(w), GW_STEP_WELCOME);
	assert_non_null(strstr(gw_wizard_doctor_next(d, w), "normal steps"));
	assert_int_equal(gw_wizard_doctor_text(d, w, path, strlen(path), &e), 0);
	assert_string_equal(gw_wizard_doctor_source(d), path);
	assert_int_equal(gw_wizard_doctor_text(d, w, "", 0, &e), 0);
	assert_int_equal(gw_wizard_doctor_text(d, w, NULL, 5, &e), 0);
	free(path);
	gw_wizard_doctor_free(d);
	gw_wizard_delete(w);
}

/* Over GW_DIAG_MAX_INPUT: pasted text and a named file are refused with
 * a sentence; a missing file named is just text. */
static void
test_huge(void **state)
{
	gw_wizard_doctor *d = gw_wizard_doctor_new();
	size_t big = (size_t)GW_DIAG_MAX_INPUT + 1;
	char *text = gw_xmalloc(big), *dir = tu_tmpdir();
	char *log = gw_xasprintf("%s/vmware.log", dir);
	int fd;
	gw_err e;

	(void)state;
	memset(text, 'x', big);
	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_doctor_text(d, NULL, text, big, &e), -1);
	assert_true(e.msg[0] != '\0');
	free(text);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)big), 0);
	close(fd);
	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_doctor_text(d, NULL, log, strlen(log), &e), -1);
	assert_true(e.msg[0] != '\0');
	assert_int_equal(gw_wizard_doctor_count(d), 0);
	unlink(log);
	assert_int_equal(gw_wizard_doctor_text(d, NULL, log, strlen(log), &e), 0);
	assert_null(gw_wizard_doctor_source(d));
	free(log);
	tu_rm_tree(dir);
	free(dir);
	gw_wizard_doctor_free(d);
}

/* Seed 000's vSphere CPI lines (a BOSH director's log): the Tanzu
 * route.  No .vmx is asked for (BOSH deleted the VM): the walk stops on
 * the GPU step; with an L40S chosen it goes on to the review with the
 * activity Tanzu, the outputs tile, BOSH and Ops Manager, the MMIO rule
 * for the L40S (48 GB -> 64 -> 128), and the next steps end with the
 * tile's Apply Changes, with no power-on. */
static void
test_bosh_cpi(void **state)
{
	doc_case c;
	const gw_gpu *l40s;
	char **next;
	size_t i;
	int apply = 0, poweron = 0;

	(void)state;
	case_open(&c, "", SEED0, 0);
	assert_int_equal(gw_wizard_doctor_text(c.d, c.w, c.text, c.n, &c.e), 1);
	assert_string_equal(gw_wizard_doctor_finding(c.d, 0)->f.id,
	                    GW_DIAG_BOSH_POWERON);
	assert_true(gw_wizard_doctor_tanzu(c.d));
	assert_non_null(strstr(gw_wizard_doctor_next(c.d, c.w), "GPU model"));
	assert_non_null(strstr(gw_wizard_doctor_next(c.d, c.w), "Apply Changes"));
	assert_null(strstr(gw_wizard_doctor_next(c.d, c.w), ".vmx"));
	assert_null(strstr(gw_wizard_doctor_next(c.d, c.w), "power"));
	assert_int_equal(gw_wizard_doctor_apply(c.d, c.w, c.why, sizeof c.why), 1);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_GPU);
	assert_true(gw_wizard_doctor_pending(c.d));
	assert_non_null(strstr(c.why, "GPU model"));
	assert_int_equal(gw_wizard_activity(c.w), GW_ACT_TANZU);
	assert_int_equal(gw_wizard_answers(c.w)->formats,
	                 GW_FMT_TILE | GW_FMT_BOSH | GW_FMT_OPSMAN);
	/* the operator picks the GPU and passes the step */
	l40s = gw_table_lookup(&table, "l40s", &c.e);
	assert_non_null(l40s);
	assert_int_equal(gw_wizard_add_gpu(c.w, l40s, NULL, 1, &c.e), 0);
	assert_int_equal(gw_wizard_next(c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_doctor_resume(c.d, c.w, c.why, sizeof c.why), 0);
	assert_int_equal(gw_wizard_step(c.w), GW_STEP_REVIEW);
	assert_null(gw_wizard_vmx(c.w));
	assert_int_equal(gw_wizard_activity(c.w), GW_ACT_TANZU);
	assert_int_equal(gw_wizard_answers(c.w)->formats,
	                 GW_FMT_TILE | GW_FMT_BOSH | GW_FMT_OPSMAN);
	assert_string_equal(setting(c.w, "pciPassthru.64bitMMIOSizeGB"), "128");
	assert_non_null(strstr(gw_wizard_doctor_next(c.d, c.w), "Enter opens the review"));
	next = gw_wizard_next_commands(c.w);
	for (i = 0; next[i]; i++) {
		apply |= strstr(next[i], "Apply Changes") != NULL;
		poweron |= strstr(next[i], "power.on") != NULL ||
		           strstr(next[i], "power the VM on") != NULL;
	}
	assert_true(apply);
	assert_false(poweron);
	gw_strv_free(next);
	case_close(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmio_pasted),
		cmocka_unit_test(test_mmio_raises),
		cmocka_unit_test(test_mmio_firmware),
		cmocka_unit_test(test_log_beside_vmx),
		cmocka_unit_test(test_log_two_vmx),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_uvm),
		cmocka_unit_test(test_nccl_ask_then_vgpu_vm),
		cmocka_unit_test(test_nccl_passthrough_vm),
		cmocka_unit_test(test_nccl_vmx_beside_log),
		cmocka_unit_test(test_hex_id),
		cmocka_unit_test(test_not_vmx_fix),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_bosh_cpi),
	};
	gw_err e;
	int rc;

	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	gw_table_free(&table);
	return rc;
}
