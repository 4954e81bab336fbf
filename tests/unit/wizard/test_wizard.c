/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard.c: the wizard's step logic, apart from any drawing. */

/* GCC 12 misreports -Wdangling-pointer in testutil.h's tu_read_sample()
 * once inlined (see test_plan.c); silenced for this file only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "wizard_int.h"
#include "emit.h"
#include "mmio.h"

#include <dirent.h>
#include <libintl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakehost.h"

#define SAMPLE "vmx/ws-win10-efi-windows1251.vmx"          /* hw 18, efi */
#define SAMPLE_HW21 "vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx"
#define ALL (GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE)

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

/* ---- helpers ------------------------------------------------------------ */

static const gw_gpu *
gpu(const char *id)
{
	gw_err e;
	const gw_gpu *g = gw_table_lookup(&table, id, &e);

	if (g == NULL)
		fail_msg("%s", e.msg);
	return g;
}

/* Does the plan have a finding with this id? */
static int
plan_has(const gw_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return 1;
	return 0;
}

/* The plan's finding id, or NULL. */
static const gw_finding *
plan_finding(const gw_wizard *w, const char *id)
{
	size_t i;

	for (i = 0; w->have_plan && i < w->plan.nfindings; i++)
		if (strcmp(w->plan.findings[i].id, id) == 0)
			return &w->plan.findings[i];
	return NULL;
}

static char *
write_text(const char *dir, const char *name, const char *text)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

/* The sample .vmx copied to dir/name; returns its path. */
static char *
put_sample(const char *dir, const char *name, const char *rel)
{
	size_t n;
	char *data = tu_read_sample(rel, &n), *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	free(data);
	return p;
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static char *
slurp(const char *path)
{
	char *d = NULL;
	size_t n;
	gw_err e;

	if (gw_read_file(path, 16u << 20, &d, &n, &e) != 0)
		fail_msg("%s", e.msg);
	return d;
}

static size_t
count_occurrences(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

static size_t
strv_len(char **v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

static int
strv_has(char **v, const char *part)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (strstr(v[i], part))
			return 1;
	return 0;
}

/* Does an item of v end with tail? */
static int
strv_ends(char **v, const char *tail)
{
	size_t i, n = strlen(tail);

	for (i = 0; v[i]; i++)
		if (strlen(v[i]) >= n && strcmp(v[i] + strlen(v[i]) - n, tail) == 0)
			return 1;
	return 0;
}

static size_t
count_kind(const gw_plan *p, gw_set_kind k)
{
	size_t i, n = 0;

	for (i = 0; i < p->nsettings; i++)
		n += p->settings[i].kind == k;
	return n;
}

static int
has_finding(const gw_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return 1;
	return 0;
}

static void
confirm_host(gw_wizard *w)
{
	int i;

	for (i = 0; i < GW_NHOST; i++)
		gw_wizard_set_host_ok(w, i, 1);
}

#define CLASS_INI \
	"; a trainer's run\n" \
	"[gpu]\n" \
	"devices = l40s=2\n" \
	"[vm]\n" \
	"vmx = vm.vmx\n" \
	"esxi = 8.0U2\n" \
	"[options]\n" \
	"uvm = no\n" \
	"p2p = yes\n" \
	"mmio_gb = 512\n" \
	"[output]\n" \
	"dir = out\n" \
	"formats = vmx,bosh,opsman,tile\n" \
	"name = gpu-class\n"

/* ---- texts --------------------------------------------------------------------- */

/* The modes are data: every descriptor has its words, an unknown mode
 * reads as offline, and a host maps back to the mode that reads it. */
static void
test_mode_table(void **state)
{
	gw_host *h;
	int m;

	(void)state;
	for (m = 0; m < GW_NMODES; m++) {
		const wz_mode_desc *d = wz_mode((gw_mode)m);

		assert_non_null(d->name);
		assert_non_null(d->checks_title);
		assert_non_null(d->vm_line);
		/* a mode that waits for a host says so, and probes it */
		assert_int_equal(d->missing != NULL,
		                 d->reach == WZ_REACH_ATTACHED);
		/* ... and Enter on it connects: its box */
		assert_int_equal(d->conn != NULL, d->missing != NULL);
		/* (none for the API route in a build without the vSphere
		 * module: test_wizard_connect's test_api_not_built) */
		assert_int_equal(gw_wizard_connect_form((gw_mode)m) != NULL,
		                 d->conn != NULL &&
		                 (GW_WITH_VSPHERE || d->kind != GW_HOST_VSPHERE));
		assert_int_equal(d->probe != NULL, d->reach != WZ_REACH_NONE);
		/* its paragraph is in the welcome step's help, the note
		 * its descriptor's */
		assert_non_null(d->about);
		assert_non_null(strstr(gw_wizard_step_help(NULL,
		                                           GW_STEP_WELCOME),
		                       d->about));
		if (d->note)
			assert_string_equal(gw_wizard_mode_note((gw_mode)m, 0),
			                    d->note);
		assert_int_equal(d->note != NULL, d->note_long != NULL);
	}
	assert_true(strncmp(gw_wizard_step_help(NULL, GW_STEP_WELCOME),
	                    gw_step_help(GW_STEP_WELCOME),
	                    strlen(gw_step_help(GW_STEP_WELCOME))) == 0);
	assert_non_null(gw_wizard_mode_note(GW_MODE_LINUX, 1));
	assert_null(gw_wizard_mode_note(GW_MODE_OFFLINE, 0));
	assert_ptr_equal(wz_mode((gw_mode)GW_NMODES), wz_mode(GW_MODE_OFFLINE));
	assert_ptr_equal(wz_mode((gw_mode)-1), wz_mode(GW_MODE_OFFLINE));
	assert_string_equal(gw_mode_name((gw_mode)GW_NMODES), "");
	h = gw_host_open_linux("/");
	assert_int_equal(wz_mode_of(h), GW_MODE_LINUX);
	gw_host_close(h);
}

/* Rows of the step table as the screen tests count them
 * (tests/e2e/lib.sh: lines starting "GW_STEP(" in steps.def). */
static int
step_rows(void)
{
	const char *src = getenv("GW_SRCDIR");
	char *path = gw_xasprintf("%s/src/wizard/steps.def",
	                          src && *src ? src : ".");
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (f == NULL)
		fail_msg("%s: cannot read", path);
	while (fgets(line, sizeof line, f))
		n += strncmp(line, "GW_STEP(", 8) == 0;
	fclose(f);
	free(path);
	return n;
}

/* Every step has its title, purpose and help, in English and in the
 * zh_CN catalogue; the count the screen tests use is the table's. */
static void
test_step_table(void **state)
{
	int s;

	(void)state;
	assert_int_equal(step_rows(), GW_NSTEPS);
	for (s = 0; s < GW_NSTEPS; s++) {
		assert_true(strlen(gw_step_help((gw_step)s)) > 100);
		assert_true(gw_step_title((gw_step)s)[0] != '\0');
		assert_true(gw_step_purpose((gw_step)s)[0] != '\0');
	}
	if (tu_use_zh_catalogue() != 0)
		skip();
	for (s = 0; s < GW_NSTEPS; s++) {
		const char *t = gw_step_title((gw_step)s);
		const char *p = gw_step_purpose((gw_step)s);
		const char *h = gw_step_help((gw_step)s);

		setlocale(LC_ALL, "C");
		if (strcmp(t, gw_step_title((gw_step)s)) == 0 ||
		    strcmp(p, gw_step_purpose((gw_step)s)) == 0 ||
		    strcmp(h, gw_step_help((gw_step)s)) == 0)
			fail_msg("step %d: not translated into zh_CN", s + 1);
		assert_true(gw_text_cells(t) <= 18);
		setlocale(LC_ALL, "zh_CN.UTF-8");
	}
	setlocale(LC_ALL, "C");
}

static void
test_texts(void **state)
{
	int s, i;
	const char *why = "x";

	(void)state;
	for (s = 0; s < GW_NSTEPS; s++) {
		assert_true(gw_step_title((gw_step)s)[0] != '\0');
		assert_true(gw_text_cells(gw_step_title((gw_step)s)) <= 18);
		assert_true(gw_step_purpose((gw_step)s)[0] != '\0');
		assert_null(strchr(gw_step_purpose((gw_step)s), '\n'));
	}
	for (i = 0; i < GW_NMODES; i++)
		assert_true(gw_mode_name((gw_mode)i)[0] != '\0');
	for (i = 0; i < GW_NHOST; i++) {
		assert_true(gw_host_item_title(i)[0] != '\0');
		assert_true(gw_host_item_help(i)[0] != '\0');
	}
	for (i = 0; i < GW_NCLASSES; i++)
		assert_true(gw_gpu_class_name((gw_gpu_class)i)[0] != '\0');
	why = "x";
	assert_int_equal(gw_wizard_mode_available(NULL, GW_MODE_OFFLINE, &why), 1);
	assert_null(why);
	why = "x";
	assert_int_equal(gw_wizard_mode_available(NULL, GW_MODE_LINUX, &why), 1);
	assert_null(why);
	/* ESXi over SSH: usable in this build, but a wizard needs a host;
	 * Enter on its row connects (wizard_connect.h) */
	why = NULL;
	assert_int_equal(gw_wizard_mode_available(NULL, GW_MODE_ESXI_SSH, &why), 0);
	assert_non_null(why);
	assert_non_null(strstr(why, "Enter asks for the ESXi host (user@host"));
	/* the API: usable, but a wizard needs a connection */
	why = NULL;
	assert_int_equal(gw_wizard_mode_available(NULL, GW_MODE_VSPHERE, &why), 0);
	assert_non_null(why);
	assert_non_null(strstr(why, GW_WITH_VSPHERE ?
	                       "Enter asks for the URL, user and password" :
	                       "this build of gpuwiz has no vSphere module"));
	why = NULL;
	assert_int_equal(gw_wizard_mode_available(NULL, (gw_mode)GW_NMODES, &why), 0);
	assert_non_null(why);
	assert_string_equal(why, "Unknown choice: plan offline.");
	assert_string_equal(gw_vendor_name(0x10de), "NVIDIA");
	assert_string_equal(gw_vendor_name(0x1002), "AMD");
	assert_string_equal(gw_vendor_name(0x8086), "Intel");
	assert_null(gw_vendor_name(0x1234));
}

/* ---- init ---------------------------------------------------------------------- */

static void
test_init_empty(void **state)
{
	gw_wizard w;
	gw_err e;
	int i;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(w.step, GW_STEP_WELCOME);
	assert_int_equal(w.mode, GW_MODE_OFFLINE);
	assert_true(w.visited[GW_STEP_WELCOME]);
	assert_false(w.visited[GW_STEP_HOST]);
	assert_int_equal(w.af.a.ngpus, 0);
	assert_int_equal(w.af.a.reserve, 1);
	assert_string_equal(w.af.out_dir, "gpuwiz-out");
	assert_int_equal(w.activity, GW_ACT_VM);
	assert_int_equal(w.af.formats, GW_FMT_VMX);   /* a VM's .vmx */
	assert_null(w.af.vmx_path);
	assert_null(w.vmx);
	assert_null(w.vmx_error);
	for (i = 0; i < GW_NHOST; i++)
		assert_int_equal(w.host_ok[i], 0);
	assert_false(w.have_plan);
	assert_non_null(strstr(w.plan_error, "GPU"));
	assert_false(w.dirty);
	assert_false(w.written);
	gw_wizard_free(&w);
	gw_wizard_free(&w);     /* harmless twice */
}

/* Seed 001: an answers file with [vm] vmx and [options] uvm = yes and no
 * [gpu]: the GPU step goes on with the VM's own vGPUs, Enter alone
 * walks to the write, which adds enable_uvm on both and nothing else. */
static const char VGPU_LINES[] =
	"pciPassthru0.present = \"TRUE\"\n"
	"pciPassthru0.vgpu = \"nvidia_l40s-24c\"\n"
	"pciPassthru1.present = \"TRUE\"\n"
	"pciPassthru1.vgpu = \"nvidia_l40s-24c\"\n";

static void
test_vgpu_vm_only(void **state)
{
	char *dir = tu_tmpdir(), *ans, *vmx, *before, *after, *saved;
	char why[1024];
	gw_wizard w;
	gw_err e;
	size_t n;
	int i;
	char *out;
	FILE *f;

	(void)state;
	vmx = put_sample(dir, "llm.vmx", SAMPLE_HW21);
	f = fopen(vmx, "ab");
	assert_non_null(f);
	fputs(VGPU_LINES, f);
	assert_int_equal(fclose(f), 0);
	before = slurp(vmx);
	ans = write_text(dir, "u.ini", "[vm]\nvmx = llm.vmx\n[options]\nuvm = yes\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	/* the outputs in the scratch directory, not the current one */
	out = gw_xasprintf("%s/out", dir);
	assert_int_equal(gw_wizard_set_outdir(&w, out, &e), 0);
	assert_int_equal(w.af.a.ngpus, 0);
	assert_true(w.have_plan);
	assert_int_equal(gw_wizard_existing_gpus(&w), 2);
	assert_int_equal(gw_wizard_vm_vgpus(&w), 2);
	assert_false(gw_wizard_uvm_proposed(&w));    /* the file decided */
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_GPU, why, sizeof why), 0);
	for (i = 0; i < GW_NSTEPS - 1; i++)
		if (gw_wizard_next(&w, why, sizeof why) != 0)
			fail_msg("step %d: %s", (int)w.step, why);
	assert_int_equal(w.step, GW_STEP_WRITE);
	if (gw_wizard_write(&w) != 0)
		fail_msg("write: %s", w.write_error);
	after = slurp(vmx);
	n = strlen(before);
	assert_memory_equal(after, before, n);
	/* appended: enable_uvm on both vGPUs (and this sample's MMIO and
	 * reservation lines), no device */
	assert_non_null(strstr(after + n, "pciPassthru0.cfg.enable_uvm = \"1\"\n"));
	assert_non_null(strstr(after + n, "pciPassthru1.cfg.enable_uvm = \"1\"\n"));
	assert_null(strstr(after + n, ".present"));
	assert_null(strstr(after + n, ".vgpu"));
	/* the answers can be saved with no GPU: the VM has its own */
	saved = gw_xasprintf("%s/saved.ini", dir);
	assert_int_equal(gw_wizard_save_answers(&w, saved, &e), 0);
	gw_wizard_free(&w);
	free(after);

	/* no [options] uvm: the wizard proposes it for the vGPUs */
	unlink(ans);
	free(ans);
	ans = write_text(dir, "v.ini", "[vm]\nvmx = llm.vmx\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	assert_int_equal(w.af.a.uvm, 0);
	assert_int_equal(gw_wizard_propose_uvm(&w), 1);
	assert_true(gw_wizard_uvm_proposed(&w));
	assert_int_equal(count_kind(&w.plan, GW_SET_UVM), 2);  /* kept: written */
	assert_true(has_finding(&w.plan, "uvm-nccl"));
	/* only the VM's own devices: no BOSH, Ops Manager or tile */
	assert_int_equal(gw_wizard_fit_formats(&w), 0);         /* init did */
	assert_int_equal(w.af.formats & GW_FMT_BOSH, 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	gw_wizard_free(&w);

	/* a VM with no GPU device and none chosen: the VM step says so */
	unlink(vmx);
	free(vmx);
	vmx = put_sample(dir, "llm.vmx", SAMPLE_HW21);
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	assert_int_equal(gw_wizard_existing_gpus(&w), 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_GPU, why, sizeof why), -1);
	assert_non_null(strstr(why, "the open VM has none"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), -1);
	assert_non_null(strstr(why, "no GPU device yet"));
	assert_int_equal(gw_wizard_save_answers(&w, saved, &e), -1);
	assert_int_equal(gw_wizard_propose_uvm(&w), 0);
	gw_wizard_free(&w);
	free(before);
	free(saved);
	free(ans);
	free(vmx);
	free(out);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_init_from_answers_and_enter_walk(void **state)
{
	char *dir = tu_tmpdir(), *ans, *vmx, *out, *text, *p;
	char why[1024];
	gw_wizard w;
	gw_err e;
	int i;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	ans = write_text(dir, "class.ini", CLASS_INI);
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	/* every screen has its value */
	assert_int_equal(w.af.a.ngpus, 1);
	assert_ptr_equal(w.af.a.gpus[0].gpu, gpu("l40s"));
	assert_int_equal(w.af.a.gpus[0].count, 2);
	assert_string_equal(w.af.vmx_path, vmx);
	assert_non_null(w.vmx);
	assert_null(w.vmx_error);
	assert_string_equal(w.af.a.esxi_version, "8.0U2");
	assert_int_equal(w.af.a.uvm, 0);
	assert_int_equal(w.af.a.p2p, 1);
	assert_true(w.af.a.mmio_gb == 512);
	assert_int_equal(w.af.formats, ALL);
	assert_string_equal(w.af.a.name, "gpu-class");
	out = gw_xasprintf("%s/out", dir);
	assert_string_equal(w.af.out_dir, out);
	for (i = 0; i < GW_NHOST; i++)
		assert_int_equal(w.host_ok[i], 1);   /* a prepared host */
	assert_true(w.have_plan);
	assert_true(w.plan.mmio_gb == 512);
	assert_int_equal(w.plan.hw_current, 18);
	assert_false(w.dirty);

	/* Enter alone: WELCOME -> WRITE */
	for (i = 0; i < GW_NSTEPS - 1; i++) {
		if (gw_wizard_next(&w, why, sizeof why) != 0)
			fail_msg("step %d: %s", (int)w.step, why);
	}
	assert_int_equal(w.step, GW_STEP_WRITE);
	for (i = 0; i < GW_NSTEPS; i++)
		assert_true(w.visited[i]);
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), -1);
	assert_int_equal(w.step, GW_STEP_WRITE);
	if (gw_wizard_write(&w) != 0)
		fail_msg("write: %s", w.write_error);
	assert_true(w.written);
	assert_false(w.dirty);
	/* the four formats and, for the 2 GPUs, the NCCL check */
	assert_int_equal(w.result.nwritten, 5);
	assert_non_null(strstr(w.result.written[4], GW_NCCL_CHECK_FILE));
	assert_true(exists(w.result.written[4]));
	for (i = 0; i < 4; i++) {
		static const int f[] = { GW_FMT_VMX, GW_FMT_BOSH, GW_FMT_OPSMAN,
		                         GW_FMT_TILE };

		p = gw_wizard_output_path(&w, f[i]);
		assert_string_equal(w.result.written[i], p);
		assert_true(exists(p));
		free(p);
	}
	assert_string_equal(w.result.vmx_path, vmx);
	assert_non_null(w.result.backup);
	assert_true(exists(w.result.backup));
	text = slurp(vmx);
	assert_non_null(strstr(text, "pciPassthru.64bitMMIOSizeGB = \"512\""));
	assert_non_null(strstr(text, "pciPassthru.allowP2P = \"TRUE\""));
	free(text);
	/* the document in the wizard stays as opened */
	assert_null(gw_vmx_get(w.vmx, "pciPassthru.64bitMMIOSizeGB"));

	/* back keeps every value */
	assert_int_equal(gw_wizard_back(&w), 0);
	assert_int_equal(w.step, GW_STEP_REVIEW);
	while (w.step > GW_STEP_MMIO)
		assert_int_equal(gw_wizard_back(&w), 0);
	assert_int_equal(w.step, GW_STEP_MMIO);
	assert_true(w.af.a.mmio_gb == 512);
	assert_true(w.plan.mmio_gb == 512);
	assert_int_equal(w.af.a.gpus[0].count, 2);
	assert_int_equal(w.af.a.p2p, 1);
	assert_true(w.written);          /* going back changes nothing */
	while (w.step != GW_STEP_WELCOME)
		assert_int_equal(gw_wizard_back(&w), 0);
	assert_int_equal(gw_wizard_back(&w), -1);
	assert_int_equal(w.step, GW_STEP_WELCOME);
	/* a click on a visited step walks there through valid steps */
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_REVIEW, NULL, 0), 0);
	assert_int_equal(w.step, GW_STEP_REVIEW);
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_GPU, NULL, 0), 0);
	assert_int_equal(w.step, GW_STEP_GPU);
	/* a change after writing: no longer written */
	assert_int_equal(gw_wizard_set_count(&w, 0, 1, &e), 0);
	assert_false(w.written);
	assert_true(w.dirty);
	assert_int_equal(w.result.nwritten, 0);
	/* a step on the way fails: nothing moves, the reason is given */
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_int_equal(w.step, GW_STEP_GPU);
	assert_non_null(strstr(why, "GPU"));
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_WRITE, NULL, 0), -1);
	assert_int_equal(w.step, GW_STEP_GPU);
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_HOST, NULL, 0), 0);
	assert_int_equal(w.step, GW_STEP_HOST);

	gw_wizard_free(&w);
	tu_rm_tree(dir);
	free(dir);
	free(ans);
	free(vmx);
	free(out);
}

static void
test_init_bad_answers_and_bad_vmx(void **state)
{
	char *dir = tu_tmpdir(), *ans;
	char why[1024];
	gw_wizard w;
	gw_err e;

	(void)state;
	ans = write_text(dir, "bad.ini", "[gpu]\ndevices = nosuch\n[output]\ndir=o\nformats=vmx\n");
	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), -1);
	assert_non_null(strstr(e.msg, "nosuch"));
	gw_wizard_free(&w);
	free(ans);

	/* a [vm] vmx that cannot be read: not fatal, the VM step says why */
	ans = write_text(dir, "novmx.ini",
	                 "[gpu]\ndevices = l40s\n[vm]\nvmx = missing.vmx\n[output]\ndir = out\nformats = vmx\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	assert_null(w.vmx);
	assert_non_null(w.vmx_error);
	assert_non_null(strstr(w.vmx_error, "missing.vmx"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), -1);
	assert_non_null(strstr(why, "missing.vmx"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_int_equal(gw_wizard_write(&w), -1);
	/* none: snippets only */
	assert_int_equal(gw_wizard_open_vmx(&w, NULL, &e), 0);
	assert_null(w.vmx_error);
	assert_null(w.af.vmx_path);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), 0);
	gw_wizard_free(&w);
	free(ans);
	tu_rm_tree(dir);
	free(dir);
}

/* An answers file without [output] formats: the outputs follow the
 * activity, as far as the plan can make them. */
static void
test_init_default_formats(void **state)
{
	char *dir = tu_tmpdir(), *ans, *vmx, why[1024];
	gw_wizard w;
	gw_err e;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	ans = write_text(dir, "a.ini", "[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	/* a VM's .vmx, open: it is patched, no lines to paste */
	assert_int_equal(w.af.formats, 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	assert_string_equal(w.af.out_dir, "gpuwiz-out");
	/* closed: the .vmx lines */
	assert_int_equal(gw_wizard_open_vmx(&w, NULL, &e), 0);
	assert_int_equal(w.af.formats, GW_FMT_VMX);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(w.af.formats, 0);
	/* a Tanzu VM type: BOSH, Ops Manager and the tile */
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	assert_int_equal(w.af.formats, GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE);
	gw_wizard_set_activity(&w, GW_ACT_VM);
	assert_int_equal(w.af.formats, 0);
	gw_wizard_free(&w);
	free(ans);
	/* two models: the tile cannot hold them, so it is not chosen */
	ans = write_text(dir, "b.ini",
	                 "[gpu]\ndevices = l40s, a100-80g-pcie\n[vm]\nvmx = vm.vmx\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	assert_int_equal(w.af.formats, GW_FMT_BOSH | GW_FMT_OPSMAN);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	/* the operator's choice wins over the activity from then on */
	gw_wizard_set_formats(&w, GW_FMT_VMX | GW_FMT_ANSIBLE);
	gw_wizard_set_activity(&w, GW_ACT_VM);
	assert_int_equal(w.af.formats, GW_FMT_VMX | GW_FMT_ANSIBLE);
	assert_int_equal(gw_wizard_open_vmx(&w, NULL, &e), 0);
	assert_int_equal(w.af.formats, GW_FMT_VMX | GW_FMT_ANSIBLE);
	gw_wizard_free(&w);
	free(ans);
	/* and so does the answers file's [output] formats */
	ans = write_text(dir, "c.ini",
	                 "[gpu]\ndevices = l40s\n[output]\nformats = bosh\n"
	                 "dir = out\n");
	assert_int_equal(gw_wizard_init(&w, &table, ans, &e), 0);
	assert_int_equal(w.af.formats, GW_FMT_BOSH);
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	gw_wizard_set_activity(&w, GW_ACT_VM);
	assert_int_equal(w.af.formats, GW_FMT_BOSH);
	gw_wizard_free(&w);
	free(ans);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* The ESXi version is asked for where the upgrade matters: a .vmx below
 * hardware version 17 with no version known; not once it is given, nor
 * for a newer .vmx. */
static void
test_esxi_wanted(void **state)
{
	char *dir = tu_tmpdir(), *old, *hw18;
	const gw_finding *f;
	gw_wizard w;
	gw_err e;

	(void)state;
	old = put_sample(dir, "old.vmx", "vmx/ws-hw11-ubuntu-shebang-utf8.vmx");
	hw18 = put_sample(dir, "hw18.vmx", SAMPLE);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_false(gw_wizard_esxi_wanted(&w));   /* no .vmx */
	assert_int_equal(gw_wizard_open_vmx(&w, old, &e), 0);
	assert_true(gw_wizard_esxi_wanted(&w));
	f = plan_finding(&w, "hw-target-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(gw_wizard_finding_fix(f), "\"ESXi version\""));
	assert_int_equal(gw_wizard_set_esxi(&w, "8.0U2", &e), 0);
	assert_false(gw_wizard_esxi_wanted(&w));
	/* then the upgrade advice is concrete */
	assert_non_null(plan_finding(&w, "hw-upgrade"));
	assert_int_equal(w.plan.hw_target, 21);
	assert_int_equal(gw_wizard_set_esxi(&w, "", &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, hw18, &e), 0);
	assert_false(gw_wizard_esxi_wanted(&w));
	gw_wizard_free(&w);
	free(old);
	free(hw18);
	tu_rm_tree(dir);
	free(dir);
}

/* The memory size is not asked for where every output locks the
 * reservation itself (the BOSH CPI's memory_reservation_locked_to_max):
 * INFO, no next step; the .vmx lines need it (WARN). */
static void
test_memory_locked_by_outputs(void **state)
{
	const gw_finding *f;
	gw_wizard w;
	gw_err e;
	char **v;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	f = plan_finding(&w, "memory-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);   /* the .vmx lines */
	v = gw_wizard_next_commands(&w);
	assert_true(strv_has(v, "Memory in MB"));
	gw_strv_free(v);
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	f = plan_finding(&w, "memory-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "memory_reservation_locked_to_max"));
	v = gw_wizard_next_commands(&w);
	assert_false(strv_has(v, "Memory in MB"));
	assert_false(strv_has(v, "memory size is unknown"));
	gw_strv_free(v);
	/* the .vmx lines besides: the WARN again */
	gw_wizard_set_formats(&w, GW_FMT_BOSH | GW_FMT_VMX);
	assert_int_equal(plan_finding(&w, "memory-unknown")->sev, GW_SEV_WARN);
	gw_wizard_set_formats(&w, GW_FMT_ANSIBLE);
	assert_int_equal(plan_finding(&w, "memory-unknown")->sev, GW_SEV_INFO);
	gw_wizard_free(&w);
}

/* ---- check_step ------------------------------------------------------------------ */

static void
test_check_step_reasons(void **state)
{
	char why[1024], *dir = tu_tmpdir(), *vmx;
	gw_wizard w;
	gw_err e;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);

	/* an unavailable mode: the welcome step cannot be left */
	w.mode = GW_MODE_ESXI_SSH;   /* no host attached */
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_WELCOME, why, sizeof why), -1);
	assert_non_null(strstr(why, "Not connected yet: Enter asks for the ESXi host"));
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), -1);
	assert_int_equal(w.step, GW_STEP_WELCOME);
	w.mode = GW_MODE_VSPHERE;   /* no connection */
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), -1);
	assert_non_null(strstr(why, GW_WITH_VSPHERE ? "Enter asks for the URL" :
	                       "no vSphere module"));
	w.mode = GW_MODE_OFFLINE;
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), 0);
	assert_int_equal(w.step, GW_STEP_HOST);

	/* host: IOMMU and above 4G, SR-IOV not yet */
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), -1);
	assert_non_null(strstr(why, "IOMMU"));
	gw_wizard_set_host_ok(&w, GW_HOST_IOMMU, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, why, sizeof why), -1);
	assert_non_null(strstr(why, "Above 4G"));
	gw_wizard_set_host_ok(&w, GW_HOST_ABOVE4G, 1);
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), 0);
	assert_false(w.dirty);           /* the checklist is not an answer */

	/* GPU: none chosen and no VM open yet: the GPU step lets the
	 * operator go on (a VM's own devices), the VM step then asks */
	assert_int_equal(w.step, GW_STEP_GPU);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_GPU, why, sizeof why), 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), -1);
	assert_non_null(strstr(why, "GPU"));
	assert_non_null(strstr(why, "no VM open"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_MMIO, why, sizeof why), -1);
	assert_string_equal(why, w.plan_error);
	/* a step not visited yet cannot be jumped to */
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_REVIEW, NULL, 0), -1);
	assert_int_equal(w.step, GW_STEP_GPU);
	assert_int_equal(gw_wizard_goto_why(&w, GW_STEP_MMIO, why, sizeof why), -1);
	assert_true(why[0] != '\0');
	assert_int_equal(w.step, GW_STEP_GPU);

	/* vGPU on an Ampere+ board: SR-IOV is asked for at review */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-24c", 1, &e), 0);
	assert_int_equal(gw_wizard_host_item_sev(&w, GW_HOST_SRIOV), GW_SEV_WARN);
	/* the plan the wizard shows says it too, as the command line does */
	assert_true(w.have_plan);
	assert_true(plan_has(&w.plan, "gpu-sriov"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_non_null(strstr(why, "SR-IOV"));
	gw_wizard_set_host_ok(&w, GW_HOST_SRIOV, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	gw_wizard_set_host_ok(&w, GW_HOST_SRIOV, 0);
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	/* a T4 vGPU (Turing) does not use SR-IOV */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("t4"), "grid_t4-16c", 1, &e), 0);
	assert_int_equal(gw_wizard_host_item_sev(&w, GW_HOST_SRIOV), GW_SEV_INFO);
	assert_false(plan_has(&w.plan, "gpu-sriov"));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	/* passthrough does not either */
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_int_equal(gw_wizard_host_item_sev(&w, GW_HOST_SRIOV), GW_SEV_INFO);

	/* nothing to write */
	gw_wizard_set_formats(&w, 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_non_null(strstr(why, "Nothing to write"));
	/* a format this plan cannot make */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("a100-80g-pcie"), NULL, 1, &e), 0);
	gw_wizard_set_formats(&w, ALL);
	assert_int_equal(gw_wizard_format_check(&w, GW_FMT_TILE, why, sizeof why), -1);
	assert_int_equal(gw_wizard_format_check(&w, GW_FMT_BOSH, why, sizeof why), 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_non_null(strstr(why, "tile"));
	gw_wizard_set_formats(&w, GW_FMT_VMX | GW_FMT_BOSH);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_WRITE, why, sizeof why), -1);

	/* FAIL findings: hardware version 21 on ESXi 7.0U3 */
	vmx = put_sample(dir, "hw21.vmx", SAMPLE_HW21);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(gw_wizard_set_esxi(&w, "7.0U3", &e), 0);
	assert_true(w.have_plan);
	assert_true(gw_plan_has_errors(&w.plan));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), -1);
	assert_non_null(strstr(why, "FAIL"));
	assert_int_equal(gw_wizard_write(&w), -1);
	assert_non_null(strstr(w.write_error, "FAIL"));
	assert_false(w.written);
	gw_wizard_set_force(&w, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_REVIEW, why, sizeof why), 0);
	assert_int_equal(gw_wizard_set_esxi(&w, "5.1", &e), -1);
	assert_non_null(strstr(e.msg, "5.1"));
	assert_int_equal(gw_wizard_set_esxi(&w, "", &e), 0);
	assert_null(w.af.a.esxi_version);

	gw_wizard_free(&w);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* ---- GPU step ---------------------------------------------------------------------- */

static void
test_search(void **state)
{
	const gw_gpu *out[128];
	gw_wizard w;
	gw_err e;
	size_t n, i;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	n = gw_wizard_search(&w, "", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, table.n);
	assert_ptr_equal(out[0], &table.gpus[0]);             /* table order */
	assert_int_equal(gw_wizard_search(&w, "", 0, GW_CLASS_ANY, NULL, 0), table.n);

	n = gw_wizard_search(&w, "l40", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 3);
	assert_string_equal(out[0]->id, "l40");
	assert_string_equal(out[1]->id, "l40s");
	assert_string_equal(out[2]->id, "l40g");
	n = gw_wizard_search(&w, "  L40S ", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 1);
	assert_string_equal(out[0]->id, "l40s");
	/* PCI id */
	n = gw_wizard_search(&w, "10de:26b9", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 1);
	assert_string_equal(out[0]->id, "l40s");
	n = gw_wizard_search(&w, "10DE:20B5", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 1);
	assert_string_equal(out[0]->id, "a100-80g-pcie");
	/* every word must match */
	n = gw_wizard_search(&w, "rtx 3090", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 2);
	n = gw_wizard_search(&w, "geforce 3090 ti", 0, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 1);
	assert_string_equal(out[0]->id, "rtx-3090-ti");
	assert_int_equal(gw_wizard_search(&w, "nosuchgpu", 0, GW_CLASS_ANY, out, 128), 0);
	/* max bounds the output, not the count */
	assert_int_equal(gw_wizard_search(&w, "", 0, GW_CLASS_ANY, out, 3), table.n);

	/* vendor filter: only AMD */
	n = gw_wizard_search(&w, "", 0x1002, GW_CLASS_ANY, out, 128);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i]->vendor_id, 0x1002);
		assert_int_equal(out[i]->cls, GW_CLASS_DATACENTER);
	}
	assert_int_equal(gw_wizard_search(&w, "l40s", 0x1002, GW_CLASS_ANY, out, 128), 0);
	n = gw_wizard_search(&w, "max", 0x8086, GW_CLASS_DATACENTER, out, 128);
	assert_true(n >= 2);

	/* class filter */
	n = gw_wizard_search(&w, "", 0, GW_CLASS_GEFORCE, out, 128);
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		assert_non_null(strstr(out[i]->name, "GeForce"));
		assert_int_equal(out[i]->vendor_id, 0x10de);
	}
	n = gw_wizard_search(&w, "", 0, GW_CLASS_WORKSTATION, out, 128);
	assert_true(n >= 4);
	for (i = 0; i < n; i++)
		assert_non_null(strstr(out[i]->name, "RTX "));
	assert_int_equal(gpu("rtx-a6000")->cls, GW_CLASS_WORKSTATION);
	assert_int_equal(gpu("rtx-6000-ada")->cls, GW_CLASS_WORKSTATION);
	assert_int_equal(gpu("rtx-4090")->cls, GW_CLASS_GEFORCE);
	assert_int_equal(gpu("l40s")->cls, GW_CLASS_DATACENTER);
	assert_int_equal(gpu("t4")->cls, GW_CLASS_DATACENTER);
	assert_int_equal(gpu("flex-170")->cls, GW_CLASS_DATACENTER);
	assert_int_equal(gw_wizard_search(&w, "l40s", 0, GW_CLASS_GEFORCE, out, 128), 0);
	gw_wizard_free(&w);
}

static void
test_add_merge_remove(void **state)
{
	gw_wizard w;
	gw_err e;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_true(w.dirty);
	assert_true(w.have_plan);
	assert_int_equal(w.af.a.ngpus, 1);
	assert_int_equal(w.af.a.gpus[0].vram_gb, 48);
	assert_null(w.af.a.gpus[0].profile);
	assert_true(w.plan.total_vram_gb == 48);

	/* the same GPU again: merged */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 2, &e), 0);
	assert_int_equal(w.af.a.ngpus, 1);
	assert_int_equal(w.af.a.gpus[0].count, 3);
	assert_true(w.plan.total_vram_gb == 144);

	/* a vGPU of the same board: its own entry, sized by the physical GPU */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "NVIDIA_L40S-12C", 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 2);
	assert_string_equal(w.af.a.gpus[1].profile, "nvidia_l40s-12c");
	assert_ptr_equal(w.af.a.gpus[1].gpu, gpu("l40s"));
	assert_int_equal(w.af.a.gpus[1].vram_gb, 48);
	/* grid_ spelling of the same type merges */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "grid_l40s-12c", 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 2);
	assert_int_equal(w.af.a.gpus[1].count, 2);
	/* another size is another type */
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-48c", 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 3);
	assert_true(w.plan.n_vgpu == 3);

	/* size-only entries merge by size */
	assert_int_equal(gw_wizard_add_vram(&w, 24, 1, &e), 0);
	assert_int_equal(gw_wizard_add_vram(&w, 24, 2, &e), 0);
	assert_int_equal(w.af.a.ngpus, 4);
	assert_null(w.af.a.gpus[3].gpu);
	assert_int_equal(w.af.a.gpus[3].count, 3);
	assert_int_equal(gw_wizard_add_vram(&w, 0, 1, &e), -1);
	assert_int_equal(gw_wizard_add_vram(&w, 99999, 1, &e), -1);
	assert_non_null(strstr(e.msg, "99999"));

	/* counts */
	assert_int_equal(gw_wizard_set_count(&w, 0, 5, &e), 0);
	assert_int_equal(w.af.a.gpus[0].count, 5);
	assert_string_equal(w.af.a.gpus[0].spec, "l40s=5");
	assert_int_equal(gw_wizard_set_count(&w, 0, 0, &e), -1);
	assert_non_null(strstr(e.msg, "l40s"));
	assert_int_equal(gw_wizard_set_count(&w, 0, GW_MMIO_MAX_COUNT + 1, &e), -1);
	assert_int_equal(gw_wizard_set_count(&w, 9, 1, &e), -1);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, GW_MMIO_MAX_COUNT, &e), -1);
	assert_int_equal(w.af.a.gpus[0].count, 5);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 0, &e), -1);

	/* refusals */
	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("a10m"), NULL, 1, &e), -1);
	assert_non_null(strstr(e.msg, "a10m"));
	assert_non_null(strstr(e.msg, "GB"));
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_a100d-80c", 1, &e), -1);
	assert_non_null(strstr(e.msg, "nvidia_a100d-80c"));
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-48c=2", 1, &e), -1);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("rtx-3090"), "grid_rtx3090-24c", 1, &e), -1);
	assert_non_null(strstr(e.msg, "rtx-3090"));
	assert_int_equal(w.af.a.ngpus, 4);

	/* remove */
	assert_int_equal(gw_wizard_remove_gpu(&w, 1), 0);
	assert_int_equal(w.af.a.ngpus, 3);
	assert_string_equal(w.af.a.gpus[1].profile, "nvidia_l40s-48c");
	assert_int_equal(gw_wizard_remove_gpu(&w, 7), -1);
	while (w.af.a.ngpus)
		assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_false(w.have_plan);
	gw_wizard_free(&w);
}

static void
expect_profiles(const char *id, const char *const *want, size_t n)
{
	char **v = gw_wizard_profiles(gpu(id));
	size_t i;

	assert_non_null(v);
	assert_int_equal(strv_len(v), n);
	for (i = 0; i < n; i++)
		assert_string_equal(v[i], want[i]);
	gw_strv_free(v);
}

static void
test_profiles(void **state)
{
	static const char *const l40s[] = {
		"nvidia_l40s-48c", "nvidia_l40s-24c", "nvidia_l40s-16c",
		"nvidia_l40s-12c", "nvidia_l40s-8c", "nvidia_l40s-6c",
		"nvidia_l40s-4c" };
	static const char *const a100d[] = {
		"grid_a100d-80c", "grid_a100d-40c", "grid_a100d-20c",
		"grid_a100d-16c", "grid_a100d-10c", "grid_a100d-8c",
		"grid_a100d-4c" };
	static const char *const a10[] = {
		"nvidia_a10-24c", "nvidia_a10-12c", "nvidia_a10-8c",
		"nvidia_a10-6c", "nvidia_a10-4c" };
	static const char *const t4[] = { "grid_t4-16c", "grid_t4-8c", "grid_t4-4c" };
	/* NVIDIA's shares of the H200 and H100 NVL are rounded (AI
	 * Enterprise 6, Tables 90 and 92); the V100 PCIe 16GB has no list
	 * there: its full board only */
	static const char *const h200[] = {
		"nvidia_h200x-141c", "nvidia_h200x-70c", "nvidia_h200x-35c",
		"nvidia_h200x-28c", "nvidia_h200x-17c", "nvidia_h200x-14c",
		"nvidia_h200x-8c", "nvidia_h200x-7c", "nvidia_h200x-4c" };
	static const char *const h100l[] = {
		"nvidia_h100l-94c", "nvidia_h100l-47c", "nvidia_h100l-23c",
		"nvidia_h100l-15c", "nvidia_h100l-11c", "nvidia_h100l-6c",
		"nvidia_h100l-4c" };
	static const char *const v100[] = { "grid_v100-16c" };
	char **v;
	gw_wizard w;
	gw_err e;
	size_t i;

	(void)state;
	expect_profiles("l40s", l40s, 7);
	expect_profiles("a100-80g-pcie", a100d, 7);
	expect_profiles("a10", a10, 5);
	expect_profiles("t4", t4, 3);
	expect_profiles("h200-sxm", h200, 9);
	expect_profiles("h100-nvl", h100l, 7);
	expect_profiles("v100-16g-pcie", v100, 1);
	expect_profiles("rtx-3090", NULL, 0);
	expect_profiles("mi300x", NULL, 0);
	v = gw_wizard_profiles(NULL);
	assert_null(v[0]);
	gw_strv_free(v);
	gw_strv_free(NULL);

	/* every profile offered is accepted for its GPU */
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	v = gw_wizard_profiles(gpu("a100-80g-pcie"));
	for (i = 0; v[i]; i++)
		if (gw_wizard_add_gpu(&w, gpu("a100-80g-pcie"), v[i], 1, &e) != 0)
			fail_msg("%s: %s", v[i], e.msg);
	assert_int_equal(w.af.a.ngpus, 7);
	assert_true(w.have_plan);
	gw_strv_free(v);
	gw_wizard_free(&w);
}

/* ---- VM step ------------------------------------------------------------------------ */

static void
test_open_vmx(void **state)
{
	char *dir = tu_tmpdir(), *good, *bad, *missing;
	gw_wizard w;
	gw_vmx *before;
	gw_err e;

	(void)state;
	good = put_sample(dir, "good.vmx", SAMPLE);
	bad = write_text(dir, "bad.vmx", "");
	missing = gw_xasprintf("%s/none.vmx", dir);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	w.dirty = 0;
	assert_int_equal(gw_wizard_open_vmx(&w, good, &e), 0);
	assert_non_null(w.vmx);
	assert_string_equal(w.af.vmx_path, good);
	assert_true(w.dirty);
	assert_true(w.have_plan);
	assert_int_equal(w.plan.hw_current, 18);
	assert_true(w.plan.memory_mb == 8192);

	/* bad ones keep the previous choice */
	before = w.vmx;
	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_open_vmx(&w, bad, &e), -1);
	assert_non_null(strstr(e.msg, "bad.vmx"));
	assert_ptr_equal(w.vmx, before);
	assert_string_equal(w.af.vmx_path, good);
	assert_int_equal(gw_wizard_open_vmx(&w, missing, &e), -1);
	assert_non_null(strstr(e.msg, "none.vmx"));
	assert_int_equal(gw_wizard_open_vmx(&w, dir, &e), -1);
	assert_ptr_equal(w.vmx, before);
	assert_null(w.vmx_error);

	/* none: snippets only */
	assert_int_equal(gw_wizard_open_vmx(&w, "", &e), 0);
	assert_null(w.vmx);
	assert_null(w.af.vmx_path);
	assert_int_equal(w.plan.hw_current, 0);
	gw_wizard_free(&w);
	free(good);
	free(bad);
	free(missing);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_path_complete(void **state)
{
	char *dir = tu_tmpdir(), *p, *cp, **v;
	static const char *const files[] = { "vm1.vmx", "vm2.VMX", "vm.txt",
	                                     ".hidden.vmx", "other.vmx" };
	static const char *const dirs[] = { "vms", "vmdir" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		p = write_text(dir, files[i], "x = \"1\"\n");
		free(p);
	}
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		p = gw_xasprintf("%s/%s", dir, dirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		free(p);
	}

	p = gw_xasprintf("%s/vm", dir);
	v = gw_path_complete(p);
	assert_int_equal(strv_len(v), 4);
	{
		static const char *const want[] = { "vm1.vmx", "vm2.VMX", "vmdir/", "vms/" };

		for (i = 0; i < 4; i++) {
			char *full = gw_xasprintf("%s/%s", dir, want[i]);

			assert_string_equal(v[i], full);
			free(full);
		}
	}
	cp = gw_common_prefix(v);
	assert_string_equal(cp, p);
	free(cp);
	gw_strv_free(v);
	free(p);

	/* one match: the whole directory name with its '/' */
	p = gw_xasprintf("%s/vms", dir);
	v = gw_path_complete(p);
	assert_int_equal(strv_len(v), 1);
	cp = gw_common_prefix(v);
	assert_string_equal(cp + strlen(dir), "/vms/");
	free(cp);
	gw_strv_free(v);
	free(p);

	/* the whole directory: no hidden entries, no other files */
	p = gw_xasprintf("%s/", dir);
	v = gw_path_complete(p);
	assert_int_equal(strv_len(v), 5);
	assert_false(strv_has(v, "vm.txt"));
	assert_false(strv_has(v, ".hidden"));
	assert_true(strv_has(v, "other.vmx"));
	gw_strv_free(v);
	free(p);
	p = gw_xasprintf("%s/.", dir);
	v = gw_path_complete(p);
	assert_int_equal(strv_len(v), 1);
	assert_true(strv_has(v, ".hidden.vmx"));
	gw_strv_free(v);
	free(p);

	/* nothing there */
	v = gw_path_complete("/nonexistent-gpuwiz-dir/x");
	assert_non_null(v);
	assert_null(v[0]);
	cp = gw_common_prefix(v);
	assert_string_equal(cp, "");
	free(cp);
	gw_strv_free(v);
	cp = gw_common_prefix(NULL);
	assert_string_equal(cp, "");
	free(cp);
	{
		char *u[] = { "caf\xc3\xa9", "caf\xc3\xa8", NULL };

		cp = gw_common_prefix(u);
		assert_string_equal(cp, "caf");     /* not half a character */
		free(cp);
	}
	tu_rm_tree(dir);
	free(dir);
}

/* ---- MMIO and options ------------------------------------------------------------- */

static void
test_set_mmio(void **state)
{
	gw_wizard w;
	gw_err e;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_true(w.plan.rule_gb == 128);
	assert_true(w.plan.mmio_gb == 128);

	e.msg[0] = '\0';
	assert_int_equal(gw_wizard_set_mmio(&w, 64, 0, &e), -1);
	assert_non_null(strstr(e.msg, "128"));
	assert_non_null(strstr(e.msg, "64"));
	assert_non_null(strstr(e.msg, "confirm"));
	assert_true(w.af.a.mmio_gb == 0);
	assert_true(w.plan.mmio_gb == 128);

	assert_int_equal(gw_wizard_set_mmio(&w, 64, 1, &e), 0);
	assert_true(w.af.a.mmio_gb == 64);
	assert_int_equal(w.af.a.allow_below_rule, 1);
	assert_true(w.have_plan);
	assert_true(w.plan.mmio_gb == 64);
	assert_true(has_finding(&w.plan, "mmio-below-rule"));

	assert_int_equal(gw_wizard_set_mmio(&w, 256, 0, &e), 0);
	assert_int_equal(w.af.a.allow_below_rule, 0);
	assert_true(w.plan.mmio_gb == 256);
	assert_int_equal(gw_wizard_set_mmio(&w, 0, 0, &e), 0);
	assert_true(w.plan.mmio_gb == 128);
	assert_int_equal(gw_wizard_set_mmio(&w, GW_MMIO_MAX_WINDOW_GB + 1, 1, &e), -1);
	assert_true(w.plan.mmio_gb == 128);
	gw_wizard_free(&w);
}

static void
test_options(void **state)
{
	char *dir = tu_tmpdir(), *vmx, *file;
	gw_wizard w;
	gw_err e;
	size_t i;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-24c", 2, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	/* a VM with vGPUs: UVM proposed on (NCCL 2.27+), not decided */
	assert_int_equal(w.af.a.uvm, 1);
	assert_true(gw_wizard_uvm_proposed(&w));
	assert_int_equal(gw_wizard_vm_vgpus(&w), 2);
	assert_int_equal(count_kind(&w.plan, GW_SET_UVM), 2);
	assert_true(has_finding(&w.plan, "uvm-nccl"));
	assert_true(has_finding(&w.plan, "uvm-vmotion"));
	gw_wizard_set_uvm(&w, 0);
	assert_false(gw_wizard_uvm_proposed(&w));
	assert_int_equal(count_kind(&w.plan, GW_SET_UVM), 0);
	/* decided: opening the VM again proposes nothing */
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(w.af.a.uvm, 0);
	assert_int_equal(gw_wizard_propose_uvm(&w), 0);
	assert_true(has_finding(&w.plan, "uvm-suggest"));
	gw_wizard_set_uvm(&w, 1);
	assert_int_equal(w.af.a.uvm, 1);
	assert_int_equal(count_kind(&w.plan, GW_SET_UVM), 2);
	for (i = 0; i < w.plan.nsettings; i++)
		if (w.plan.settings[i].kind == GW_SET_UVM) {
			assert_non_null(strstr(w.plan.settings[i].key, ".cfg.enable_uvm"));
			assert_string_equal(w.plan.settings[i].value, "1");
			assert_true(gw_setting_is_change(&w.plan.settings[i]));
		}
	gw_wizard_set_uvm(&w, 0);
	assert_int_equal(count_kind(&w.plan, GW_SET_UVM), 0);

	gw_wizard_set_p2p(&w, 1);
	assert_int_equal(count_kind(&w.plan, GW_SET_P2P), 2);
	gw_wizard_set_p2p(&w, 0);
	assert_int_equal(count_kind(&w.plan, GW_SET_P2P), 0);
	assert_int_equal(count_kind(&w.plan, GW_SET_MEM), 3);
	gw_wizard_set_reserve(&w, 0);
	assert_int_equal(count_kind(&w.plan, GW_SET_MEM), 0);
	assert_true(has_finding(&w.plan, "memory-not-reserved"));
	gw_wizard_set_reserve(&w, 1);
	/* Dynamic DirectPath I/O: no host, no vCenter to place the VM */
	assert_false(gw_wizard_takes_dynamic(&w));
	assert_int_equal(gw_wizard_set_dynamic(&w, 1, &e), -1);
	assert_non_null(strstr(e.msg, "No vCenter"));
	assert_int_equal(w.af.a.dynamic, 0);
	assert_int_equal(gw_wizard_set_dynamic(&w, 0, &e), 0);

	/* the other answers */
	assert_int_equal(gw_wizard_set_name(&w, "gpu.l40s", &e), -1);
	assert_non_null(strstr(e.msg, "gpu.l40s"));
	assert_int_equal(gw_wizard_set_name(&w, "gpu-l40s-class", &e), 0);
	assert_string_equal(w.plan.name, "gpu-l40s-class");
	assert_int_equal(gw_wizard_set_memory(&w, -1, &e), -1);
	assert_int_equal(gw_wizard_set_memory(&w, 16384, &e), 0);
	assert_true(has_finding(&w.plan, "memory-mismatch"));
	assert_int_equal(gw_wizard_set_memory(&w, 0, &e), 0);
	assert_int_equal(gw_wizard_set_system_id(&w, "nope", &e), -1);
	assert_int_equal(gw_wizard_set_system_id(&w, "5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234", &e), 0);
	assert_int_equal(gw_wizard_add_bdf(&w, "0000:zz:00.0", &e), -1);
	assert_int_equal(gw_wizard_add_bdf(&w, "42:00.0", &e), 0);
	assert_false(w.have_plan);             /* a BDF but no passthrough GPU */
	gw_wizard_clear_bdfs(&w);
	assert_true(w.have_plan);
	gw_wizard_set_code43(&w, 1);
	assert_int_equal(w.af.a.code43, 1);

	/* outputs */
	assert_int_equal(gw_wizard_set_outdir(&w, "", &e), -1);
	file = write_text(dir, "afile", "x");
	assert_int_equal(gw_wizard_set_outdir(&w, file, &e), -1);
	assert_non_null(strstr(e.msg, "afile"));
	assert_int_equal(gw_wizard_set_outdir(&w, "some/where", &e), 0);
	assert_string_equal(w.af.out_dir, "some/where");
	gw_wizard_set_formats(&w, ~0);   /* every row, om and ansible too */
	assert_int_equal(w.af.formats, GW_FMT_ALL);
	assert_int_equal(w.af.formats & (ALL | GW_FMT_OM | GW_FMT_ANSIBLE),
	                 ALL | GW_FMT_OM | GW_FMT_ANSIBLE);
	{
		char *op = gw_wizard_output_path(&w, GW_FMT_OPSMAN);

		assert_string_equal(op, "some/where/opsman-vm-extension.json");
		free(op);
		assert_null(gw_wizard_output_path(&w, GW_FMT_VMX | GW_FMT_BOSH));
	}
	gw_wizard_free(&w);
	free(file);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* ---- review: save and replay ------------------------------------------------------- */

static void
test_save_answers_roundtrip(void **state)
{
	char *dir = tu_tmpdir(), *vmx, *ans, *text, *cwd, *want;
	gw_wizard w, w2;
	gw_err e;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	ans = gw_xasprintf("%s/class.ini", dir);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_save_answers(&w, ans, &e), -1);   /* no GPU */
	assert_non_null(strstr(e.msg, "GPU"));
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 2, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("a100-80g-pcie"), "grid_a100d-40c", 1, &e), 0);
	assert_int_equal(gw_wizard_add_vram(&w, 24, 1, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(gw_wizard_set_mmio(&w, 2048, 0, &e), 0);
	gw_wizard_set_p2p(&w, 1);
	gw_wizard_set_uvm(&w, 1);
	assert_int_equal(gw_wizard_set_esxi(&w, "8.0U2", &e), 0);
	assert_int_equal(gw_wizard_set_name(&w, "gpu-llm", &e), 0);
	assert_int_equal(gw_wizard_set_outdir(&w, "gpuwiz-rel-out", &e), 0);
	gw_wizard_set_formats(&w, GW_FMT_VMX | GW_FMT_OPSMAN);
	assert_true(w.have_plan);
	assert_true(w.dirty);
	assert_int_equal(gw_wizard_save_answers(&w, ans, &e), 0);
	assert_false(w.dirty);
	text = slurp(ans);
	assert_non_null(strstr(text, "vmx = vm.vmx\n"));      /* beside the file */
	free(text);

	assert_int_equal(gw_wizard_init(&w2, &table, ans, &e), 0);
	assert_true(w2.have_plan);
	assert_true(w2.plan.mmio_gb == w.plan.mmio_gb);
	assert_true(w2.plan.mmio_gb == 2048);
	assert_int_equal(w2.plan.nsettings, w.plan.nsettings);
	assert_int_equal(w2.plan.nfindings, w.plan.nfindings);
	assert_int_equal(w2.af.a.ngpus, 3);
	assert_int_equal(w2.af.formats, GW_FMT_VMX | GW_FMT_OPSMAN);
	assert_string_equal(w2.af.vmx_path, vmx);
	/* the output directory was relative to the current directory */
	cwd = getcwd(NULL, 0);
	want = gw_xasprintf("%s/gpuwiz-rel-out", cwd);
	assert_string_equal(w2.af.out_dir, want);
	assert_string_equal(w2.plan.name, "gpu-llm");
	assert_int_equal(count_kind(&w2.plan, GW_SET_UVM), 1);
	gw_wizard_free(&w2);
	gw_wizard_free(&w);
	free(cwd);
	free(want);
	free(ans);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* ---- write and next commands ------------------------------------------------------- */

/* Writing twice (after going back) does not add the vGPUs twice. */
static void
test_write_twice(void **state)
{
	char *dir = tu_tmpdir(), *vmx, *out, *text;
	gw_wizard w;
	gw_err e;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	out = gw_xasprintf("%s/out", dir);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	confirm_host(&w);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-24c", 2, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(gw_wizard_set_outdir(&w, out, &e), 0);
	gw_wizard_set_formats(&w, GW_FMT_VMX);
	if (gw_wizard_write(&w) != 0)
		fail_msg("%s", w.write_error);
	gw_wizard_set_uvm(&w, 1);
	if (gw_wizard_write(&w) != 0)
		fail_msg("%s", w.write_error);
	text = slurp(vmx);
	assert_int_equal(count_occurrences(text, ".vgpu = \"nvidia_l40s-24c\""), 2);
	assert_non_null(strstr(text, "pciPassthru0.vgpu"));
	assert_non_null(strstr(text, "pciPassthru1.vgpu"));
	assert_null(strstr(text, "pciPassthru2."));
	assert_int_equal(count_occurrences(text, ".cfg.enable_uvm = \"1\""), 2);
	free(text);
	gw_wizard_free(&w);
	free(out);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_next_commands(void **state)
{
	char *dir = tu_tmpdir(), *vmx, **v;
	gw_wizard w;
	gw_err e;
	size_t i;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 2, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_len(v) > 5);
	for (i = 0; v[i]; i++) {
		assert_true(v[i][0] != '\0');
		assert_null(strstr(v[i], "\n\n"));
	}
	/* a command stands alone on its line: nothing follows it */
	assert_true(strv_has(v, "\ntorchrun --nproc_per_node=2 nccl_check.py\n") ||
	            strv_ends(v, "\ntorchrun --nproc_per_node=2 nccl_check.py"));
	assert_true(strv_has(v, "vim-cmd vmsvc/reload <vmid>"));
	assert_true(strv_has(v, "vim-cmd vmsvc/power.on <vmid>"));
	assert_true(strv_has(v, "vim-cmd vmsvc/getallvms"));
	assert_true(strv_has(v, "torchrun --nproc_per_node=2 nccl_check.py"));
	assert_true(strv_has(v, "ok 2.0"));
	assert_true(strv_has(v, "Virtualization Mode : Pass-Through"));
	assert_true(strv_has(v, "BAR1 Memory Usage"));
	/* a VM's .vmx, patched: no step for an output not chosen */
	assert_int_equal(w.af.formats, 0);
	assert_false(strv_has(v, "bosh "));
	assert_false(strv_has(v, "Ops Manager"));
	assert_false(strv_has(v, "AI Services tile"));
	assert_false(strv_has(v, "gpuwiz.vmx.txt"));
	gw_strv_free(v);
	/* a Tanzu VM type: its outputs, their steps first */
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_has(v, "/api/v0/staged/vm_extensions/gpu-l40s"));
	/* om's own file only when the om output writes it */
	assert_false(strv_has(v, "om create-vm-extension -c FILE.yml"));
	assert_true(strv_has(v, "Apply Changes"));
	/* a named cloud config, not the whole cloud config by hand */
	assert_true(strv_has(v, "bosh update-config --type cloud --name gpu-l40s gpuwiz-out/bosh-vm-extension.yml"));
	assert_false(strv_has(v, "bosh update-cloud-config"));
	assert_true(strv_has(v, "om configure-product -c FILE.yml"));
	assert_true(strv_has(v, "additional_vm_extensions: [gpu-l40s]"));
	assert_false(strv_has(v, "ansible-playbook"));
	assert_true(strv_has(v, "gpuwiz-out/tile-vm-type.yml"));
	/* never what doc/design.md, section 15.11 calls wrong */
	assert_false(strv_has(v, "esxcli system settings kernel"));
	assert_false(strv_has(v, "boot.cfg"));
	gw_strv_free(v);

	/* one vGPU with UVM, no .vmx: paste the lines; no all-reduce test */
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), "nvidia_l40s-48c", 1, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, NULL, &e), 0);
	gw_wizard_set_uvm(&w, 1);
	gw_wizard_set_formats(&w, GW_FMT_VMX);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_has(v, "gpuwiz-out/gpuwiz.vmx.txt"));
	assert_true(strv_has(v, "vim-cmd vmsvc/reload <vmid>"));
	assert_true(strv_has(v, "Virtualization Mode : VGPU"));
	assert_false(strv_has(v, "torchrun"));
	assert_false(strv_has(v, "om curl"));
	gw_strv_free(v);
	/* om's config and the playbook, when chosen */
	gw_wizard_set_formats(&w, GW_FMT_OM | GW_FMT_ANSIBLE);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_has(v, "om create-vm-extension -c gpuwiz-out/om-vm-extension.yml"));
	assert_true(strv_has(v, "om configure-product"));
	assert_false(strv_has(v, "om curl"));
	assert_true(strv_has(v, "ansible-playbook gpuwiz-out/gpuwiz-playbook.yml -e '{\"gpuwiz_vms\": [\"NAME\"]}'"));
	gw_strv_free(v);
	gw_wizard_set_formats(&w, GW_FMT_VMX);
	/* two vGPUs: the all-reduce test across 2 */
	assert_int_equal(gw_wizard_set_count(&w, 0, 2, &e), 0);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_has(v, "torchrun --nproc_per_node=2"));
	assert_true(strv_has(v, "power-cycle"));
	gw_strv_free(v);
	gw_wizard_free(&w);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* The index of the first line of v containing part, or -1. */
static long
strv_find(char **v, const char *part)
{
	long i;

	for (i = 0; v[i]; i++)
		if (strstr(v[i], part))
			return i;
	return -1;
}

/* Item i of the next steps v has level lv, mark and words starting with
 * words. */
static void
check_mark(char **v, size_t i, int lv, const char *mark, const char *words)
{
	int level;
	const char *text, *m = gw_wizard_next_mark(v, i, &level, &text);

	assert_int_equal(level, lv);
	assert_string_equal(m, mark);
	assert_int_equal(strncmp(text, words, strlen(words)), 0);
}

/* The next steps follow the activity: a .vmx user's host steps (reload,
 * power on) before any format's; a Tanzu user's tile and Apply Changes
 * first, the host's after. */
static void
test_next_order(void **state)
{
	char *dir = tu_tmpdir(), *vmx, **v;
	long reload, power, guest, tile, opsman, bosh;
	gw_wizard w;
	gw_err e;

	(void)state;
	vmx = put_sample(dir, "vm.vmx", SAMPLE);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	gw_wizard_set_formats(&w, GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN |
	                      GW_FMT_TILE);
	v = gw_wizard_next_commands(&w);
	reload = strv_find(v, "vim-cmd vmsvc/reload");
	power = strv_find(v, "vim-cmd vmsvc/power.on");
	tile = strv_find(v, "AI Services tile");
	bosh = strv_find(v, "bosh update-config");
	guest = strv_find(v, "In the guest");
	assert_true(reload >= 0 && power > reload);
	assert_true(tile > power && bosh > power);
	assert_true(bosh < tile);   /* the registry's order */
	assert_true(guest > tile);
	gw_strv_free(v);

	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	v = gw_wizard_next_commands(&w);
	tile = strv_find(v, "AI Services tile:");
	opsman = strv_find(v, "om curl");
	bosh = strv_find(v, "bosh update-config");
	reload = strv_find(v, "vim-cmd vmsvc/reload");
	guest = strv_find(v, "In the guest");
	/* first the words that the routes are alternatives, then each
	 * route (level 1, A., B., C.) with its own numbered steps (level
	 * 2): the tile's, Ops Manager's two halves (the extension, then
	 * its attachment), BOSH's */
	assert_int_equal(strv_find(v, "one of these 3 ways"), 0);
	check_mark(v, 1, 1, "A.", "The AI Services tile in Ops Manager");
	assert_int_equal(tile, 2);
	check_mark(v, 2, 2, "1.", "AI Services tile");
	assert_non_null(strstr(v[2], "Apply Changes"));
	check_mark(v, 3, 1, "B.", "Ops Manager's API or om");
	assert_int_equal(opsman, 4);
	check_mark(v, 4, 2, "1.", "Ops Manager: create the VM extension");
	/* the command alone on the line after the words */
	assert_non_null(strstr(v[4], ":\nom curl --path"));
	/* no unfilled file: om's own file is the om output's step */
	assert_null(strstr(v[4], "FILE.yml"));
	check_mark(v, 5, 2, "2.", "Ops Manager: attach gpu-l40s");
	check_mark(v, 6, 1, "C.", "BOSH alone");
	assert_int_equal(bosh, 7);
	check_mark(v, 7, 2, "1.", "BOSH: upload");
	check_mark(v, 8, 2, "2.", "BOSH: list gpu-l40s");
	/* back to the steps: numbered on from the routes' step */
	check_mark(v, 9, 0, "2.", "");
	assert_true(reload > bosh && guest > reload);
	gw_strv_free(v);
	/* one route chosen: its steps are plain steps */
	gw_wizard_set_formats(&w, GW_FMT_OPSMAN);
	v = gw_wizard_next_commands(&w);
	assert_int_equal(strv_find(v, "ways"), -1);
	assert_int_equal(strv_find(v, "\t"), -1);
	assert_int_equal(strv_find(v, "om curl"), 0);
	assert_int_equal(strv_find(v, "Ops Manager: attach"), 1);
	gw_strv_free(v);
	gw_wizard_set_formats(&w, GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN |
	                      GW_FMT_TILE);

	/* the Tanzu defaults alone: no .vmx line to paste, no vim-cmd for
	 * lines never written */
	assert_int_equal(gw_wizard_open_vmx(&w, NULL, &e), 0);
	gw_wizard_free(&w);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	gw_wizard_set_activity(&w, GW_ACT_TANZU);
	v = gw_wizard_next_commands(&w);
	assert_int_equal(strv_find(v, "one of these 3 ways"), 0);
	assert_int_equal(strv_find(v, "AI Services tile"), 1);
	assert_int_equal(strv_find(v, "vim-cmd"), -1);
	assert_int_equal(strv_find(v, "gpuwiz.vmx.txt"), -1);
	gw_strv_free(v);
	/* a home lab's .vmx lines: paste, reload, power on, then the guest */
	gw_wizard_set_activity(&w, GW_ACT_VM);
	v = gw_wizard_next_commands(&w);
	assert_true(strv_find(v, "gpuwiz.vmx.txt") >= 0);
	assert_true(strv_find(v, "gpuwiz.vmx.txt") <
	            strv_find(v, "vim-cmd vmsvc/power.on"));
	assert_int_equal(strv_find(v, "AI Services tile"), -1);
	assert_int_equal(strv_find(v, "bosh"), -1);
	assert_int_equal(strv_find(v, "Ops Manager"), -1);
	gw_strv_free(v);
	gw_wizard_free(&w);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* No next step speaks of a flag of the command line. */
static void
no_flags(char **v)
{
	static const char *const flags[] = { "--bdf", "--system-id", "--uvm",
	                                     "--vram", "--mmio-gb", "--memory",
	                                     "--esxi", "--no-reserve",
	                                     "--upgrade-hw" };
	size_t k;

	for (k = 0; k < sizeof flags / sizeof flags[0]; k++)
		if (strv_find(v, flags[k]) >= 0)
			fail_msg("a next step names %s: %s", flags[k],
			         v[strv_find(v, flags[k])]);
}

/* WARN/FAIL findings of the plan that the write leaves to the operator
 * (all but memory-mismatch and nested-virt). */
static long
unresolved(const gw_plan *p)
{
	long n = 0;
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		n += p->findings[i].sev >= GW_SEV_WARN &&
		     strcmp(p->findings[i].id, "nested-virt") != 0 &&
		     strcmp(p->findings[i].id, "memory-mismatch") != 0;
	return n;
}

/* Every unresolved WARN/FAIL is a next step, first, in the table's order;
 * the missing device block is the very first; in the wizard's words. */
static void
test_next_findings(void **state)
{
	static const char bios13[] =
		"config.version = \"8\"\n"
		"virtualHW.version = \"13\"\n"
		"memsize = \"16384\"\n"
		"guestOS = \"ubuntu-64\"\n"
		"vhv.enable = \"TRUE\"\n";
	char *dir = tu_tmpdir(), *vmx, **v;
	gw_wizard w;
	gw_finding f;
	gw_err e;
	long up, fw, res, host;

	(void)state;
	vmx = write_text(dir, "vm.vmx", bios13);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	assert_int_equal(gw_wizard_open_vmx(&w, vmx, &e), 0);
	assert_int_equal(gw_wizard_set_esxi(&w, "8.0U2", &e), 0);
	gw_wizard_set_reserve(&w, 0);
	assert_true(w.have_plan);
	v = gw_wizard_next_commands(&w);
	/* first the local copy back on the host and reloaded: an edit in a
	 * client or vim-cmd vmsvc/upgrade made before would be overwritten
	 * by the copy */
	host = strv_find(v, "find the VM's id");
	assert_int_equal(host, 0);
	assert_int_equal(strv_find(v, "is a copy, put it back"), 2);
	assert_int_equal(strv_find(v, "vim-cmd vmsvc/reload"), 3);
	/* then no device block: the VM step's fields, the vSphere Client or
	 * the ESXi Host Client (a free ESXi host has no vCenter), each with
	 * its own menu */
	assert_non_null(strstr(v[4], "no host PCI address"));
	assert_non_null(strstr(v[4], "\"Host PCI addresses\""));
	assert_non_null(strstr(v[4], "vSphere Client: Edit Settings > Add New Device > PCI Device"));
	assert_non_null(strstr(v[4], "ESXi Host Client: Edit Settings > Add other device > PCI device"));
	up = strv_find(v, "vim-cmd vmsvc/upgrade <vmid> vmx-21");
	fw = strv_find(v, "Firmware: ");
	res = strv_find(v, "\"Reserve all guest memory\"");
	assert_true(up > 4 && fw > up && res > fw);
	assert_true(strv_find(v, "vim-cmd vmsvc/power.on") > res);
	assert_non_null(strstr(v[up], "from vmx-13 to vmx-21"));
	assert_non_null(strstr(v[up], "keep a copy of its .vmx first"));
	assert_null(strstr(v[up], "snapshot"));
	assert_non_null(strstr(v[up], "vim-cmd vmsvc/getallvms"));
	assert_non_null(strstr(v[fw], "reinstall the guest in EFI mode"));
	/* one step per unresolved finding, between the reload and the
	 * power-on; the write turns nested virtualization off: no step for
	 * it */
	assert_int_equal(strv_find(v, "vim-cmd vmsvc/power.on"),
	                 4 + unresolved(&w.plan));
	assert_int_equal(strv_find(v, "vhv.enable"), -1);
	no_flags(v);
	gw_strv_free(v);

	/* the host address given, the reservation on: the upgrade leads */
	assert_int_equal(gw_wizard_set_system_id(&w, "5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234", &e), 0);
	assert_int_equal(gw_wizard_add_bdf(&w, "0000:42:00.0", &e), 0);
	gw_wizard_set_reserve(&w, 1);
	v = gw_wizard_next_commands(&w);
	assert_non_null(strstr(v[4], "vim-cmd vmsvc/upgrade <vmid> vmx-21"));
	assert_int_equal(strv_find(v, "no host PCI address"), -1);
	assert_int_equal(strv_find(v, "\"Reserve all guest memory\""), -1);
	assert_int_equal(strv_find(v, "vim-cmd vmsvc/power.on"),
	                 4 + unresolved(&w.plan));
	gw_strv_free(v);

	/* a newer VM: no upgrade step, never a downgrade */
	assert_int_equal(gw_wizard_set_esxi(&w, "6.5", &e), 0);
	v = gw_wizard_next_commands(&w);
	assert_int_equal(strv_find(v, "vmsvc/upgrade"), -1);
	gw_strv_free(v);

	/* the accessor: the wizard's words when there are some */
	gw_finding_set(&f, GW_SEV_WARN, "x", GW_TOPIC_VM, NULL, NULL,
	               gw_xstrdup("m"), gw_xstrdup("use --uvm"));
	assert_string_equal(gw_wizard_finding_fix(&f), "use --uvm");
	f.fix_ui = gw_xstrdup("tick it");
	assert_string_equal(gw_wizard_finding_fix(&f), "tick it");
	gw_finding_free(&f);
	assert_null(gw_wizard_finding_fix(&f));
	assert_null(gw_wizard_finding_fix(NULL));
	gw_wizard_free(&w);
	free(vmx);
	tu_rm_tree(dir);
	free(dir);
}

/* On the ESXi sample, the BIOS hw-13 VM ubuntu-l40s (Vmid 1): the
 * upgrade step has its real Vmid, the missing device block points at the
 * host's detected GPUs. */
static void
test_next_findings_esxi(void **state)
{
	gw_wizard w;
	gw_err e;
	char **v;
	long up;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	if (gw_wizard_use_sample(&w, "esxi-l40s", &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_wizard_esxi_open_vm(&w, 0, &e), 0);
	assert_string_equal(gw_session_vm(&w.sess)->name, "ubuntu-l40s");
	assert_int_equal(gw_wizard_add_gpu(&w, gpu("l40s"), NULL, 1, &e), 0);
	v = gw_wizard_next_commands(&w);
	assert_non_null(strstr(v[0], "\"Detected on this host\""));
	up = strv_find(v, "vim-cmd vmsvc/upgrade 1 vmx-21");
	assert_true(up > 0);
	assert_non_null(strstr(v[up], "press u on the Virtual machine step"));
	assert_true(strv_find(v, "Firmware: ") > up);
	assert_true(strv_has(v, "vim-cmd vmsvc/power.on 1"));
	no_flags(v);
	gw_strv_free(v);
	/* the detected L40S instead: its address is known, no such step */
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	v = gw_wizard_next_commands(&w);
	assert_int_equal(strv_find(v, "no host PCI address"), -1);
	assert_non_null(strstr(v[0], "vim-cmd vmsvc/upgrade 1 vmx-21"));
	gw_strv_free(v);
	/* a host reached directly does not take Dynamic DirectPath I/O:
	 * the options step's setter refuses it, the value unchanged, and
	 * the same rule refuses an answers file's (the plan, on replay) */
	assert_false(gw_wizard_takes_dynamic(&w));
	assert_int_equal(gw_wizard_set_dynamic(&w, 1, &e), -1);
	assert_non_null(strstr(e.msg, "A host reached directly"));
	assert_int_equal(w.af.a.dynamic, 0);
	assert_true(w.have_plan);
	w.af.a.dynamic = 1;
	assert_int_equal(gw_wizard_replan(&w), -1);
	assert_non_null(strstr(w.plan_error, "reached directly, not through vCenter"));
	w.af.a.dynamic = 0;
	if (w.scratch)
		tu_rm_tree(w.scratch);
	gw_wizard_free(&w);
}

/* GW_MODE_LINUX on a fake host (GPUWIZ_SYSROOT): the mode is available,
 * the check rows are loaded, a FAIL blocks the host step (o: override),
 * the detected GPUs are listed and can be added with their BDF. */
static void
test_linux_mode(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, NULL, "intel_iommu=on", 1 };   /* no DMAR */
	fdev l40s = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	              GPU_BARS_ADA(64 * GiB), "25", "vfio-pci" };
	fdev unk = { "0000:42:00.0", 0x10de, 0xfffe, 0x030200, 0x10de, 0x0001,
	             GPU_BARS_ADA(32 * GiB), "26", "vfio-pci" };
	fdev bmc = { "0000:03:00.0", 0x1a03, 0x2000, 0x030000, 0x1a03, 0x2000,
	             { { B_MEM32, 16u << 20 } }, NULL, "ast" };
	const gw_finding *f;
	char why[1024], *dmar;
	const char *mwhy = "x";
	gw_wizard w;
	gw_err e;
	size_t i;

	(void)state;
	add_host(root, &h);
	add_dev(root, &l40s);
	add_dev(root, &unk);
	add_dev(root, &bmc);

	unsetenv("GPUWIZ_SYSROOT");
	assert_string_equal(gw_wizard_sysroot(), "/");
	setenv("GPUWIZ_SYSROOT", "", 1);
	assert_string_equal(gw_wizard_sysroot(), "/");
	setenv("GPUWIZ_SYSROOT", root, 1);
	assert_string_equal(gw_wizard_sysroot(), root);

	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	/* ESXi over SSH needs a host first; nothing changes */
	assert_int_equal(gw_wizard_set_mode(&w, GW_MODE_ESXI_SSH, &mwhy), -1);
	assert_non_null(strstr(mwhy, "Enter asks for the ESXi host"));
	assert_int_equal(w.mode, GW_MODE_OFFLINE);
	assert_false(w.probed);
	assert_int_equal(gw_wizard_set_mode(&w, GW_MODE_LINUX, &mwhy), 0);
	assert_null(mwhy);
	assert_int_equal(w.mode, GW_MODE_LINUX);
	assert_true(w.probed);
	assert_null(w.checks_error);
	assert_true(w.nchecks >= 6);
	assert_string_equal(w.checks[0].id, "cpu-virt");
	assert_int_equal(w.checks[0].sev, GW_SEV_PASS);
	assert_int_equal(w.dirty, 0);

	/* the missing DMAR table FAILs and blocks the host step */
	f = gw_wizard_host_fail(&w);
	assert_non_null(f);
	assert_string_equal(f->id, "iommu-firmware");
	assert_non_null(f->fix);
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), 0);
	assert_int_equal(w.step, GW_STEP_HOST);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, why, sizeof why), -1);
	assert_non_null(strstr(why, "FAIL"));
	assert_non_null(strstr(why, f->title));
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), -1);
	assert_int_equal(w.step, GW_STEP_HOST);
	/* the BIOS checklist does not count in this mode */
	for (i = 0; i < GW_NHOST; i++)
		gw_wizard_set_host_ok(&w, (int)i, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, why, sizeof why), -1);
	/* an explicit override lets it go */
	gw_wizard_set_host_override(&w, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, NULL, 0), 0);
	gw_wizard_set_host_override(&w, 0);
	/* fixed on the host, checked again: no FAIL, the step can be left */
	dmar = gw_xasprintf("%s/sys/firmware/acpi/tables/DMAR", root);
	put_text("/", dmar + 1, "DMAR");
	free(dmar);
	gw_wizard_set_host_override(&w, 1);
	assert_int_equal(gw_wizard_probe_host(&w), 0);
	assert_false(w.host_override);            /* cleared by a new probe */
	assert_null(gw_wizard_host_fail(&w));
	for (i = 0; i < w.nchecks; i++)
		assert_int_not_equal(w.checks[i].sev, GW_SEV_ERROR);

	/* the detected GPUs, without the BMC's display */
	assert_null(w.detect_error);
	assert_int_equal(w.ndetected, 2);
	assert_string_equal(w.detected[0].bdf, "0000:41:00.0");
	assert_non_null(w.detected[0].row);
	assert_string_equal(w.detected[0].row->id, "l40s");
	assert_int_equal(w.detected[0].vram_gb, 48);
	assert_string_equal(w.detected[0].driver, "vfio-pci");
	assert_string_equal(w.detected[0].group, "25");
	assert_null(w.detected[1].row);
	assert_int_equal(w.detected[1].vram_gb, -1);

	/* GPU step: nothing chosen yet, no VM: the VM step would ask */
	assert_int_equal(gw_wizard_next(&w, why, sizeof why), 0);
	assert_int_equal(w.step, GW_STEP_GPU);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_VM, why, sizeof why), -1);
	/* add the L40S: table row, passthrough, no system id: no BDF in the
	 * answers (the plan would need one), but marked as added */
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	assert_int_equal(w.af.a.ngpus, 1);
	assert_ptr_equal(w.af.a.gpus[0].gpu, w.detected[0].row);
	assert_null(w.af.a.gpus[0].profile);
	assert_int_equal(w.af.a.gpus[0].count, 1);
	assert_true(w.detected_added[0]);
	assert_int_equal(w.af.a.nbdfs, 0);
	assert_true(w.have_plan);
	assert_true(w.dirty);
	/* once only */
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), -1);
	assert_non_null(strstr(e.msg, "0000:41:00.0"));
	assert_int_equal(w.af.a.gpus[0].count, 1);
	/* the unknown one is sized from its BARs: 32G + 32M -> 64 GB */
	assert_int_equal(gw_wizard_add_detected(&w, 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 2);
	assert_null(w.af.a.gpus[1].gpu);
	assert_int_equal(w.af.a.gpus[1].vram_gb, 64);
	assert_int_equal(gw_wizard_add_detected(&w, 2, &e), -1);
	/* removing it from the selection makes it addable again */
	assert_int_equal(gw_wizard_remove_gpu(&w, 1), 0);
	assert_false(w.detected_added[1]);
	assert_true(w.detected_added[0]);
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	assert_false(w.detected_added[0]);
	/* with a system id the BDF goes into the answers: a device block */
	assert_int_equal(gw_wizard_set_system_id(&w,
	    "4c4c4544-0042-3510-8052-b4c04f4e4d32", &e), 0);
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	assert_int_equal(w.af.a.nbdfs, 1);
	assert_string_equal(w.af.a.bdfs[0], "0000:41:00.0");
	assert_true(w.have_plan);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_GPU, NULL, 0), 0);

	/* a root that is not there: an error, the step is blocked */
	setenv("GPUWIZ_SYSROOT", "/nonexistent/gpuwiz-root", 1);
	assert_int_equal(gw_wizard_probe_host(&w), 1);
	assert_non_null(w.checks_error);
	assert_non_null(w.detect_error);
	assert_int_equal(w.ndetected, 0);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, why, sizeof why), -1);
	assert_non_null(strstr(why, "could not run"));
	gw_wizard_set_host_override(&w, 1);
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, NULL, 0), 0);
	unsetenv("GPUWIZ_SYSROOT");
	gw_wizard_free(&w);
	tu_rm_tree(root);
	free(root);
}


/* Offline, a saved capture becomes the detected GPUs (onboard displays
 * left out) and the host's counts: an lspci -D -nnvvv one, then an esxcli
 * listing replacing it; a file that is neither changes nothing. */
static void
test_read_capture(void **state)
{
	char *lsp = tu_fixture_path("lspci/synthetic-lspci-D-nnvvv-k-aspeed-2x-l40s-sriov-nic.txt");
	char *esx = tu_fixture_path("esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt");
	char *vmm = tu_fixture_path("lspci/synthetic-lspci-vmm-machine-readable-not-accepted.txt");
	char *want;
	gw_wizard w;
	gw_err e;

	(void)state;
	setenv("GPUWIZ_SYSROOT", "/nonexistent-gpuwiz-root", 1);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_mode(&w), GW_MODE_OFFLINE);
	assert_null(gw_wizard_capture(&w));
	assert_int_equal(gw_wizard_read_capture(&w, lsp, &e), 2);
	assert_string_equal(gw_wizard_capture(&w), lsp);
	assert_int_equal(w.ndetected, 2);
	assert_string_equal(w.detected[0].bdf, "0000:41:00.0");
	assert_string_equal(w.detected[1].bdf, "0000:c1:00.0");
	assert_int_equal(w.af.a.navail, 1);
	assert_int_equal(w.af.a.avail[0].device_id, 0x26b9);
	assert_int_equal(w.af.a.avail[0].count, 2);
	assert_int_equal(gw_wizard_add_detected(&w, 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 1);
	assert_string_equal(w.af.a.gpus[0].gpu->id, "l40s");
	assert_int_equal(w.af.a.nbdfs, 0);     /* no system id: sizing only */
	/* an esxcli listing: its one L40S replaces the list */
	assert_int_equal(gw_wizard_read_capture(&w, esx, &e), 1);
	assert_int_equal(w.ndetected, 1);
	assert_string_equal(w.detected[0].bdf, "0000:3b:00.0");
	assert_false(gw_wizard_detected_added(&w, 0));
	assert_int_equal(w.af.a.ngpus, 1);     /* the selection stays */
	/* neither capture: refused, nothing changed */
	assert_int_equal(gw_wizard_read_capture(&w, vmm, &e), -1);
	want = gw_xasprintf("%s: expected the output of lspci -nnvv or of "
	                    "esxcli hardware pci list (no device of either in "
	                    "it)", vmm);
	assert_string_equal(e.msg, want);
	assert_string_equal(gw_wizard_capture(&w), esx);
	assert_int_equal(w.ndetected, 1);
	assert_int_equal(gw_wizard_read_capture(&w, "", &e), -1);
	assert_int_equal(gw_wizard_read_capture(&w, "/nonexistent/x", &e), -1);
	assert_string_equal(e.msg, "/nonexistent/x: cannot open: No such file "
	                    "or directory");
	gw_wizard_free(&w);
	unsetenv("GPUWIZ_SYSROOT");
	free(want);
	free(lsp);
	free(esx);
	free(vmm);
}

/* Lowering a count drops the detected GPUs (and their host addresses)
 * beyond it, the last added first; more than the host has is a WARN. */
static void
test_detected_count(void **state)
{
	char *root = tu_tmpdir();
	fhost h = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev g[3] = {
		{ "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
		  GPU_BARS_ADA(64 * GiB), "25", "vfio-pci" },
		{ "0000:42:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
		  GPU_BARS_ADA(64 * GiB), "26", "vfio-pci" },
		{ "0000:43:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
		  GPU_BARS_ADA(64 * GiB), "27", "vfio-pci" },
	};
	const gw_gpu *l40s;
	const gw_finding *f;
	gw_wizard w;
	gw_err e;
	int i;

	(void)state;
	add_host(root, &h);
	for (i = 0; i < 3; i++)
		add_dev(root, &g[i]);
	setenv("GPUWIZ_SYSROOT", root, 1);
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_set_mode(&w, GW_MODE_LINUX, NULL), 0);
	assert_int_equal(w.ndetected, 3);
	/* the host's counts reach the plan's answers */
	assert_int_equal(w.af.a.navail, 1);
	assert_int_equal(w.af.a.avail[0].device_id, 0x26b9);
	assert_int_equal(w.af.a.avail[0].count, 3);
	assert_int_equal(gw_wizard_set_system_id(&w,
	    "4c4c4544-0042-3510-8052-b4c04f4e4d32", &e), 0);
	/* added out of order: 43, 41, 42 */
	assert_int_equal(gw_wizard_add_detected(&w, 2, &e), 0);
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	assert_int_equal(gw_wizard_add_detected(&w, 1, &e), 0);
	assert_int_equal(w.af.a.ngpus, 1);
	assert_int_equal(w.af.a.gpus[0].count, 3);
	assert_int_equal(w.af.a.nbdfs, 3);
	assert_true(w.have_plan);
	assert_int_equal(w.plan.n_passthru, 3);
	assert_null(plan_finding(&w, "gpu-count-host"));
	/* lower to 2: the last added (42) goes, with its address */
	assert_int_equal(gw_wizard_set_count(&w, 0, 2, &e), 0);
	assert_true(w.detected_added[2]);
	assert_true(w.detected_added[0]);
	assert_false(w.detected_added[1]);
	assert_int_equal(w.af.a.nbdfs, 2);
	assert_string_equal(w.af.a.bdfs[0], "0000:43:00.0");
	assert_string_equal(w.af.a.bdfs[1], "0000:41:00.0");
	assert_true(w.have_plan);
	assert_int_equal(w.plan.n_passthru, 2);
	/* lower to 1: only the first added stays, one device block */
	assert_int_equal(gw_wizard_set_count(&w, 0, 1, &e), 0);
	assert_true(w.detected_added[2]);
	assert_false(w.detected_added[0]);
	assert_int_equal(w.af.a.nbdfs, 1);
	assert_string_equal(w.af.a.bdfs[0], "0000:43:00.0");
	assert_true(w.have_plan);
	assert_int_equal(w.plan.n_passthru, 1);
	/* raising it keeps the marks; the dropped GPU can be added again */
	assert_int_equal(gw_wizard_set_count(&w, 0, 2, &e), 0);
	assert_int_equal(w.af.a.nbdfs, 1);
	assert_int_equal(gw_wizard_add_detected(&w, 1, &e), 0);
	assert_int_equal(w.af.a.gpus[0].count, 3);
	assert_int_equal(w.af.a.nbdfs, 2);
	/* an address typed on the VM step is not the wizard's to drop */
	assert_int_equal(gw_wizard_set_count(&w, 0, 2, &e), 0);
	assert_int_equal(gw_wizard_add_bdf(&w, "0000:99:00.0", &e), 0);
	assert_int_equal(gw_wizard_set_count(&w, 0, 1, &e), 0);
	assert_int_equal(w.af.a.nbdfs, 2);
	assert_string_equal(w.af.a.bdfs[0], "0000:43:00.0");
	assert_string_equal(w.af.a.bdfs[1], "0000:99:00.0");
	gw_wizard_clear_bdfs(&w);
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	assert_int_equal(w.af.a.nbdfs, 1);
	/* removing the entry drops every mark and address */
	assert_int_equal(gw_wizard_remove_gpu(&w, 0), 0);
	for (i = 0; i < 3; i++)
		assert_false(w.detected_added[i]);
	assert_int_equal(w.af.a.nbdfs, 0);

	/* more than the host has: a WARN on the GPU step, with the counts */
	l40s = w.detected[0].row;
	assert_non_null(l40s);
	assert_int_equal(gw_wizard_add_gpu(&w, l40s, NULL, 4, &e), 0);
	f = plan_finding(&w, "gpu-count-host");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_int_equal(f->topic, GW_TOPIC_GPU);
	assert_non_null(strstr(f->message, l40s->name));
	assert_non_null(strstr(f->message, " 4 "));
	assert_non_null(strstr(f->message, "has 3"));
	assert_non_null(f->fix_ui);
	assert_non_null(strstr(f->fix_ui, "Lower its count to 3"));
	assert_int_equal(gw_wizard_set_count(&w, 0, 3, &e), 0);
	assert_null(plan_finding(&w, "gpu-count-host"));
	/* a vGPU shares the board: not counted against passthrough */
	assert_int_equal(gw_wizard_add_gpu(&w, l40s, "grid_l40s-48c", 2, &e), 0);
	assert_null(plan_finding(&w, "gpu-count-host"));
	gw_wizard_free(&w);

	/* offline (no host): no check */
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_null(w.af.a.avail);
	assert_int_equal(gw_wizard_add_gpu(&w, l40s, NULL, 9, &e), 0);
	assert_null(plan_finding(&w, "gpu-count-host"));
	gw_wizard_free(&w);
	unsetenv("GPUWIZ_SYSROOT");
	tu_rm_tree(root);
	free(root);
}

/* ---- GW_MODE_ESXI_SSH, through the stand-ins ---------------------------- */

static char *
standins(void)
{
	const char *d = getenv("GW_SRCDIR");
	char *cwd, *p;

	if (d && *d)
		return gw_xasprintf("%s/tests/esxi-standins", d);
	cwd = getcwd(NULL, 0);
	assert_non_null(cwd);
	p = gw_xasprintf("%s/tests/esxi-standins", cwd);
	free(cwd);
	return p;
}

static const gw_finding *
row(const gw_wizard *w, const char *id, int nth)
{
	size_t i;

	for (i = 0; i < w->nchecks; i++)
		if (strcmp(w->checks[i].id, id) == 0 && nth-- == 0)
			return &w->checks[i];
	return NULL;
}

static void
test_esxi_mode(void **state)
{
	char *tmp = tu_tmpdir(), *sd = standins(), *log, *vm11, *vm12, *d;
	char *before12, *after, **cmds, why[1024];
	const gw_finding *c;
	gw_wizard w;
	gw_runner *r;
	gw_err e;
	size_t i;
	int found, reboot = -1;

	(void)state;
	log = gw_xasprintf("%s/standin.log", tmp);
	setenv("GW_STANDIN_LOG", log, 1);
	d = gw_xasprintf("%s/datastore1/itachi_lab", tmp);
	mkdirs(tmp, "datastore1/itachi_lab");
	mkdirs(tmp, "datastore1/itachi_backupTest");
	vm11 = put_sample(d, "itachi_lab.vmx", SAMPLE);
	free(d);
	d = gw_xasprintf("%s/datastore1/itachi_backupTest", tmp);
	vm12 = put_sample(d, "itachi_backupTest.vmx", SAMPLE);
	free(d);
	before12 = slurp(vm12);

	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	assert_int_equal(gw_wizard_mode_available(&w, GW_MODE_ESXI_SSH, NULL), 0);
	r = gw_runner_open_local();
	gw_runner_set_path_prefix(r, sd);
	gw_runner_set_volumes_root(r, tmp);
	wz_attach(&w, gw_host_open_esxi(r, "root@esx-test"));
	assert_int_equal(w.mode, GW_MODE_ESXI_SSH);
	assert_int_equal(gw_wizard_mode_available(&w, GW_MODE_ESXI_SSH, NULL), 1);

	/* the host's rows, from the real esxcli outputs the stand-ins print */
	c = row(&w, "esxi-host", 0);
	assert_non_null(c);
	assert_int_equal(c->sev, GW_SEV_PASS);
	assert_non_null(strstr(c->message, "8.0.2"));
	assert_non_null(strstr(c->message, "21"));
	assert_string_equal(w.af.a.esxi_version, "8.0U2");
	c = row(&w, "esxi-system-id", 0);
	assert_int_equal(c->sev, GW_SEV_PASS);
	assert_string_equal(w.af.a.system_id, "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c");
	c = row(&w, "gpu-present", 0);
	assert_int_equal(c->sev, GW_SEV_PASS);
	/* the ASPEED BMC display is left out: the L40S and the B200 */
	assert_int_equal(w.ndetected, 2);
	assert_string_equal(w.detected[0].bdf, "0000:3b:00.0");
	assert_non_null(w.detected[0].row);
	assert_int_equal(w.detected[0].vram_gb, 48);
	assert_string_equal(w.detected[1].bdf, "0000:5e:00.0");
	/* L40S: configured and owned by VM Passthru; B200: configured, owner
	 * still VMkernel (reboot pending) */
	c = row(&w, "gpu-passthru", 0);
	assert_int_equal(c->sev, GW_SEV_PASS);
	c = row(&w, "gpu-passthru", 1);
	assert_int_equal(c->sev, GW_SEV_WARN);
	assert_non_null(strstr(c->message, "VMkernel"));
	assert_non_null(strstr(c->fix, "Reboot"));
	assert_int_equal(row(&w, "above-4g", 0)->sev, GW_SEV_WARN);
	assert_null(gw_wizard_host_fail(&w));
	assert_int_equal(gw_wizard_check_step(&w, GW_STEP_HOST, why, sizeof why), 0);

	/* enabling one already active is refused, nothing queued, no set
	 * command */
	assert_int_equal(gw_wizard_esxi_enable(&w, 0, &reboot, &e), -1);
	assert_int_equal(reboot, 0);
	assert_int_equal(gw_wizard_enable_queued(&w, 0), 0);
	assert_int_equal(w.sess.nqueue, 0);
	after = slurp(log);
	assert_null(strstr(after, "pcipassthru set"));
	free(after);

	/* the L40S from the host: whole device block (system id known) */
	assert_int_equal(gw_wizard_add_detected(&w, 0, &e), 0);
	assert_int_equal(w.af.a.nbdfs, 1);
	assert_string_equal(w.af.a.bdfs[0], "0000:3b:00.0");

	/* the VMs */
	assert_null(w.sess.vms_error);
	assert_int_equal(w.sess.vms.list.n, 2);
	assert_int_equal(gw_wizard_esxi_open_vm(&w, 5, &e), -1);
	assert_int_equal(gw_wizard_esxi_open_vm(&w, 1, &e), 0);   /* VM 12: on */
	assert_int_equal(w.sess.power, GW_POWER_ON);
	assert_non_null(w.vmx);
	assert_null(w.af.vmx_path);
	assert_non_null(strstr(gw_wizard_vmx_where(&w), "root@esx-test:"));
	w.af.formats = 0;
	/* a powered-on VM is never edited */
	assert_int_equal(gw_wizard_write(&w), -1);
	assert_non_null(strstr(w.write_error, "Powered on"));
	after = slurp(vm12);
	assert_string_equal(after, before12);
	free(after);

	/* VM 11: off, hardware 18 on a host that runs 21 */
	assert_int_equal(gw_wizard_esxi_open_vm(&w, 0, &e), 0);
	assert_int_equal(w.sess.power, GW_POWER_OFF);
	assert_true(w.have_plan);
	assert_int_equal(gw_wizard_esxi_upgrade_target(&w), 21);
	/* u queues the upgrade: the plan is made for vmx-21 at once, the
	 * host is asked nothing until the write */
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), 1);
	assert_int_equal(gw_wizard_upgrade_queued(&w), 21);
	assert_int_equal(w.plan.hw_current, 21);
	assert_int_equal(gw_wizard_esxi_upgrade_target(&w), 0);
	after = slurp(log);
	assert_null(strstr(after, "vmsvc/upgrade"));
	free(after);

	assert_int_equal(gw_wizard_write(&w), 0);
	assert_int_equal(gw_wizard_upgrade_queued(&w), 0);
	after = slurp(log);
	/* the upgrade ran before the .vmx was saved and reloaded */
	assert_non_null(strstr(after, "vim-cmd vmsvc/upgrade 11 vmx-21\n"));
	assert_true(strstr(after, "vim-cmd vmsvc/upgrade 11 vmx-21\n") <
	            strstr(after, "vim-cmd vmsvc/reload 11\n"));
	free(after);
	assert_true(w.written);
	assert_non_null(w.result.backup);
	assert_true(exists(w.result.backup));
	assert_int_equal(w.sess.last.reloaded, 1);
	after = slurp(vm11);
	assert_non_null(strstr(after, "pciPassthru0.id = \"00000:059:00.0\""));
	assert_non_null(strstr(after, "pciPassthru0.systemId = \"5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c\""));
	free(after);
	after = slurp(log);
	assert_non_null(strstr(after, "vim-cmd vmsvc/power.getstate 11\n"));
	assert_non_null(strstr(after, "vim-cmd vmsvc/reload 11\n"));
	free(after);
	cmds = gw_wizard_next_commands(&w);
	for (found = 0, i = 0; cmds[i]; i++)
		found |= strstr(cmds[i], "vim-cmd vmsvc/power.on 11") != NULL;
	assert_true(found);
	gw_strv_free(cmds);

	/* no VM: snippets only */
	assert_int_equal(gw_wizard_esxi_open_vm(&w, -1, &e), 0);
	assert_null(w.vmx);
	assert_int_equal(w.sess.vm, -1);
	gw_wizard_free(&w);
	unsetenv("GW_STANDIN_LOG");
	tu_rm_tree(tmp);
	free(before12);
	free(vm11);
	free(vm12);
	free(log);
	free(sd);
	free(tmp);
}

/* The screens' view of the output formats is the registry's rows, in its
 * order: the same bits, words and files, and nothing past the last. */
static void
test_format_rows(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(gw_wizard_nformats(), GW_NFORMATS);
	for (i = 0; i < GW_NFORMATS; i++) {
		const gw_wizard_format *f = gw_wizard_format_at(i);

		assert_non_null(f);
		assert_int_equal(f->bit, gw_formats[i].bit);
		assert_string_equal(f->label, gw_formats[i].label);
		assert_string_equal(f->holds, gw_formats[i].holds);
		assert_string_equal(f->filename, gw_formats[i].filename);
	}
	assert_null(gw_wizard_format_at(GW_NFORMATS));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_step_table),
		cmocka_unit_test(test_mode_table),
		cmocka_unit_test(test_linux_mode),
		cmocka_unit_test(test_detected_count),
		cmocka_unit_test(test_read_capture),
		cmocka_unit_test(test_esxi_mode),
		cmocka_unit_test(test_init_empty),
		cmocka_unit_test(test_init_from_answers_and_enter_walk),
		cmocka_unit_test(test_vgpu_vm_only),
		cmocka_unit_test(test_init_bad_answers_and_bad_vmx),
		cmocka_unit_test(test_init_default_formats),
		cmocka_unit_test(test_memory_locked_by_outputs),
		cmocka_unit_test(test_esxi_wanted),
		cmocka_unit_test(test_check_step_reasons),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_add_merge_remove),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_open_vmx),
		cmocka_unit_test(test_path_complete),
		cmocka_unit_test(test_set_mmio),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_save_answers_roundtrip),
		cmocka_unit_test(test_write_twice),
		cmocka_unit_test(test_next_commands),
		cmocka_unit_test(test_next_order),
		cmocka_unit_test(test_next_findings),
		cmocka_unit_test(test_next_findings_esxi),
		cmocka_unit_test(test_format_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
