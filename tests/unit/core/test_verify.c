/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_verify.c: the nvidia-smi -q parser, the guest checks, and
 * `gpuwiz verify --nvidia-smi-q FILE [--json]` (src/verify.h). */

/* GCC 12 misreports -Wdangling-pointer in testutil.h's tu_read_sample()
 * once inlined (see test_plan.c); silenced for this file only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include "testutil.h"
#include "gputable.h"
#include "verify.h"
#include "verify_report.h"
#include "cmd_guest.h"
#include "verify_live.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#define A6000  "nvidia-smi/rtxa6000-24q-vgpu-guest.txt"
#define H200   "nvidia-smi/h200-sxm-passthrough-vm.txt"
#define A16    "nvidia-smi/a16-vgpu-host-sriov.txt"
#define R5090  "nvidia-smi/rtx5090-baremetal.txt"
#define TWO    "nvidia-smi/synthetic-2x-rtxa6000-24q-vgpu-guest.txt"
#define BAR0   "nvidia-smi/synthetic-h200-passthrough-bar1-zero.txt"
#define OLD    "nvidia-smi/synthetic-rtxa6000-24q-vgpu-guest-driver-525.txt"
#define V100D  "nvidia-smi/tkgi-v100d-8c-vgpu-guest-attached-vgpus.txt"
#define R610   "nvidia-smi/synthetic-h200-passthrough-driver-610-kmd-umd.txt"
#define A16Q0  "nvidia-smi/synthetic-a16-host-vgpu-q-active-0.txt"

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

/* ---- helpers ------------------------------------------------------------ */

static void
parse_ok(gw_nvsmi *q, const char *data, size_t len)
{
	gw_err e;

	e.msg[0] = '\0';
	if (gw_nvsmi_parse(q, data, len, "test.txt", &e) != 0)
		fail_msg("parse failed: %s", e.msg);
}

static void
parse_sample(gw_nvsmi *q, const char *rel)
{
	size_t n;
	char *d = tu_read_sample(rel, &n);

	parse_ok(q, d, n);
	free(d);
}

/* Parse text that must be refused; returns the error (static). */
static const char *
parse_err(const char *data, size_t len)
{
	static gw_err e;
	gw_nvsmi q;

	e.msg[0] = '\0';
	assert_int_equal(gw_nvsmi_parse(&q, data, len, "bad.txt", &e), -1);
	assert_null(q.gpus);
	assert_int_equal(q.ngpus, 0);
	assert_null(q.driver_version);
	gw_nvsmi_free(&q);
	assert_true(e.msg[0] != '\0');
	return e.msg;
}

/* s with every `from` replaced by `to` (at least one must be there). */
static char *
subst(const char *s, const char *from, const char *to)
{
	gw_buf b;
	const char *p = s, *hit;
	int n = 0;

	gw_buf_init(&b);
	while ((hit = strstr(p, from)) != NULL) {
		gw_buf_add(&b, p, (size_t)(hit - p));
		gw_buf_puts(&b, to);
		p = hit + strlen(from);
		n++;
	}
	gw_buf_puts(&b, p);
	if (n == 0)
		fail_msg("subst: '%s' not found", from);
	return gw_buf_steal(&b);
}

/* A sample with replacements applied in turn (NULL-terminated pairs). */
static char *
sample_with(const char *rel, ...)
{
	va_list ap;
	char *s = tu_read_sample(rel, NULL);
	const char *from;

	va_start(ap, rel);
	while ((from = va_arg(ap, const char *)) != NULL) {
		const char *to = va_arg(ap, const char *);
		char *t = subst(s, from, to);

		free(s);
		s = t;
	}
	va_end(ap);
	return s;
}

static const gw_finding *
find_check(const gw_verify *v, const char *id, int gpu)
{
	size_t i;

	for (i = 0; i < v->nchecks; i++)
		if (strcmp(v->checks[i].id, id) == 0 && v->checks[i].gpu == gpu)
			return &v->checks[i];
	return NULL;
}

static const gw_finding *
need_check(const gw_verify *v, const char *id, int gpu, gw_sev st)
{
	const gw_finding *c = find_check(v, id, gpu);

	if (c == NULL)
		fail_msg("no check %s for gpu %d", id, gpu);
	if (c->sev != st)
		fail_msg("check %s gpu %d: status %s, expected %s (%s)", id, gpu,
		         gw_sev_check_id(c->sev), gw_sev_check_id(st),
		         c->message);
	assert_non_null(c->title);
	assert_non_null(c->message);
	assert_int_equal(c->topic, GW_TOPIC_GUEST);
	return c;
}

static void
assert_contains(const char *hay, const char *needle)
{
	if (hay == NULL || strstr(hay, needle) == NULL)
		fail_msg("'%s' not in '%s'", needle, hay ? hay : "(null)");
}

/* Run the checks on a parsed text with the table. */
static void
verify_text(const char *text, gw_nvsmi *q, gw_verify *v)
{
	parse_ok(q, text, strlen(text));
	gw_verify_run(q, &table, v);
}

/* Every row is well formed; the counts add up. */
static void
assert_rows_sane(const gw_nvsmi *q, const gw_verify *v)
{
	size_t i, n[4] = { 0, 0, 0, 0 };

	for (i = 0; i < v->nchecks; i++) {
		const gw_finding *c = &v->checks[i];

		assert_non_null(c->id);
		assert_non_null(c->title);
		assert_non_null(c->message);
		assert_true(c->gpu >= -1 && c->gpu < (int)q->ngpus);
		assert_true(c->sev <= GW_SEV_ERROR);
		n[c->sev]++;
		/* a FAIL or a WARN says what to do, except when it can only
		 * report what it could not read */
		if (c->sev == GW_SEV_ERROR)
			assert_non_null(c->fix);
	}
	assert_int_equal(n[GW_SEV_PASS], v->npass);
	assert_int_equal(n[GW_SEV_INFO], v->ninfo);
	assert_int_equal(n[GW_SEV_WARN], v->nwarn);
	assert_int_equal(n[GW_SEV_ERROR], v->nfail);
}

/* Run gw_verify_command with stdout in a file; returns what it printed. */
static char *
run_command(const gw_table *t, const char *path, int json, int *rc, gw_err *e)
{
	char *dir = tu_tmpdir(), *out = gw_xasprintf("%s/stdout", dir), *data;
	size_t n;
	int fd, saved;
	gw_err re;

	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 1), 1);
	close(fd);
	e->msg[0] = '\0';
	*rc = gw_verify_command(t, path, json, e);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	if (gw_read_file(out, 1u << 24, &data, &n, &re) != 0)
		fail_msg("%s", re.msg);
	unlink(out);
	rmdir(dir);
	free(out);
	free(dir);
	return data;
}

static char *
write_tmp(const char *data, size_t len, char **dir)
{
	char *path;
	FILE *f;

	*dir = tu_tmpdir();
	path = gw_xasprintf("%s/capture.txt", *dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void
remove_tmp(char *path, char *dir)
{
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* ---- version compare ------------------------------------------------------ */

static void
test_version_cmp(void **state)
{
	static const struct { const char *a, *b; int cmp; } ok[] = {
		{ "535.129.03", "535.129.03", 0 },
		{ "535.129.3", "535.129.03", 0 },
		{ "535.54.03", "535.129.03", -1 },     /* numeric, not text */
		{ "535.183.06", "535.129.03", 1 },
		{ "550.90.12", "535.129.03", 1 },
		{ "525.105.17", "535.129.03", -1 },
		{ "470.129.04", "535.129.03", -1 },
		{ "1000.1", "999.99.99", 1 },
		{ "535.129", "535.129.03", -1 },
		{ "535.129.0", "535.129", 0 },
		{ "12.1", "12.1", 0 },
		{ "12.10", "12.9", 1 },
		{ "12.0", "12.1", -1 },
		{ "12", "12.0", 0 },
		{ "13.0", "12.1", 1 },
		{ "11.8", "12.1", -1 },
	};
	static const char *const bad[] = {
		"", "Not Found", "N/A", "-1.0", "+12.1", "12.", ".12", "12..1",
		"12.1a", "v12.1", " 12.1", "12.1 ", "1.2.3.4.5.6.7.8.9",
		"1234567890.1",
	};
	size_t i;
	int c;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		c = 99;
		assert_int_equal(gw_version_cmp(ok[i].a, ok[i].b, &c), 0);
		if ((c > 0) - (c < 0) != ok[i].cmp)
			fail_msg("%s vs %s: %d", ok[i].a, ok[i].b, c);
		assert_int_equal(gw_version_cmp(ok[i].b, ok[i].a, &c), 0);
		assert_int_equal((c > 0) - (c < 0), -ok[i].cmp);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (gw_version_cmp(bad[i], "12.1", &c) != -1)
			fail_msg("'%s' accepted as a version", bad[i]);
		assert_int_equal(gw_version_cmp("12.1", bad[i], &c), -1);
	}
	assert_int_equal(gw_version_cmp(NULL, "1", &c), -1);
	assert_int_equal(gw_version_cmp("1.2.3.4.5.6.7.8", "1", &c), 0);
	assert_true(c > 0);
}

/* ---- the real samples ------------------------------------------------------ */

static void
test_sample_rtxa6000_vgpu(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_nvsmi_gpu *g;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, A6000);
	assert_string_equal(q.driver_version, "535.183.06");
	assert_string_equal(q.cuda_version, "12.2");
	assert_int_equal(q.attached_gpus, 1);
	assert_int_equal(q.banner, 1);
	assert_null(q.error_text);
	assert_int_equal(q.ngpus, 1);
	g = &q.gpus[0];
	assert_string_equal(g->bus_id, "00000000:00:10.0");
	assert_int_equal(g->line, 10);
	assert_string_equal(g->product_name, "NVIDIA RTXA6000-24Q");
	assert_string_equal(g->virt_mode_text, "VGPU");
	assert_int_equal(g->virt_mode, GW_VIRT_VGPU);
	assert_string_equal(g->host_vgpu_mode, "N/A");
	assert_string_equal(g->addressing_mode, "None");
	assert_int_equal(g->vendor_id, 0x10de);
	assert_int_equal(g->device_id, 0x2230);
	assert_int_equal(g->subsys_vendor, 0x10de);
	assert_int_equal(g->subsys_device, 0x1504);
	assert_int_equal(g->fb_total_mib, 24576);
	assert_string_equal(g->fb_total_text, "24576 MiB");
	assert_int_equal(g->bar1_total_mib, 256);
	assert_string_equal(g->bar1_total_text, "256 MiB");
	/* the section's Product Name, not the licensed product's */
	assert_string_equal(g->licensed_product, "NVIDIA RTX Virtual Workstation");
	assert_string_equal(g->license_status, "Unlicensed (Unrestricted)");

	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	assert_non_null(v.rows[0]);
	assert_string_equal(v.rows[0]->id, "rtx-a6000");
	assert_int_equal(v.host, 0);
	assert_int_equal(v.gpu_count, 1);
	assert_int_equal(v.total_vram_gb, 48);   /* the physical GPU's */
	assert_int_equal(v.mmio_gb, 128);
	assert_null(v.torchrun);
	need_check(&v, "gpus", -1, GW_SEV_PASS);
	c = need_check(&v, "driver", -1, GW_SEV_PASS);
	assert_contains(c->message, "535.183.06");
	c = need_check(&v, "cuda", -1, GW_SEV_PASS);
	assert_contains(c->message, "12.2");
	need_check(&v, "virt-mode", 0, GW_SEV_PASS);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_ERROR);
	assert_contains(c->message, "None");
	assert_contains(c->message, "operation not supported");
	assert_contains(c->fix, "pciPassthruN.cfg.enable_uvm = \"1\"");
	assert_contains(c->fix, "every vGPU");
	assert_contains(c->fix, "power-cycle");
	assert_contains(c->fix, "vMotion");
	c = need_check(&v, "license", 0, GW_SEV_WARN);
	assert_contains(c->message, "Unlicensed (Unrestricted)");
	assert_contains(c->fix, "gridd.conf");
	c = need_check(&v, "bar1", 0, GW_SEV_PASS);
	assert_contains(c->message, "256 MiB");
	c = need_check(&v, "fb", 0, GW_SEV_PASS);
	assert_contains(c->message, "24576 MiB");
	assert_contains(c->message, "48 GB");
	assert_null(find_check(&v, "nccl", -1));
	assert_int_equal(v.nchecks, 8);
	assert_int_equal(v.nfail, 1);
	assert_int_equal(v.nwarn, 1);
	/* rows in the documented order */
	assert_string_equal(v.checks[0].id, "gpus");
	assert_string_equal(v.checks[1].id, "driver");
	assert_string_equal(v.checks[2].id, "cuda");
	assert_string_equal(v.checks[3].id, "virt-mode");
	assert_string_equal(v.checks[4].id, "addressing-mode");
	assert_string_equal(v.checks[5].id, "license");
	assert_string_equal(v.checks[6].id, "bar1");
	assert_string_equal(v.checks[7].id, "fb");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

static void
test_sample_h200_passthrough(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_nvsmi_gpu *g;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, H200);
	assert_string_equal(q.driver_version, "550.90.12");
	assert_string_equal(q.cuda_version, "12.4");
	assert_int_equal(q.attached_gpus, 1);
	assert_int_equal(q.ngpus, 1);
	g = &q.gpus[0];
	assert_string_equal(g->bus_id, "00000000:03:00.0");
	assert_int_equal(g->line, 8);
	assert_string_equal(g->product_name, "NVIDIA H200");
	assert_string_equal(g->virt_mode_text, "Pass-Through");
	assert_int_equal(g->virt_mode, GW_VIRT_PASSTHROUGH);
	assert_string_equal(g->host_vgpu_mode, "N/A");
	assert_string_equal(g->addressing_mode, "None");
	assert_int_equal(g->vendor_id, 0x10de);
	assert_int_equal(g->device_id, 0x2335);
	assert_int_equal(g->subsys_vendor, 0x10de);
	assert_int_equal(g->subsys_device, 0x18be);
	/* FB Total, not Reserved/Used/Free, nor the Conf Compute Total */
	assert_int_equal(g->fb_total_mib, 143771);
	assert_int_equal(g->bar1_total_mib, 262144);
	assert_null(g->licensed_product);
	assert_null(g->license_status);

	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	assert_string_equal(v.rows[0]->id, "h200-sxm");
	assert_int_equal(v.total_vram_gb, 141);
	assert_int_equal(v.mmio_gb, 512);          /* NVIDIA's H200 figure */
	need_check(&v, "gpus", -1, GW_SEV_PASS);
	need_check(&v, "driver", -1, GW_SEV_PASS);
	need_check(&v, "cuda", -1, GW_SEV_PASS);
	c = need_check(&v, "virt-mode", 0, GW_SEV_PASS);
	assert_contains(c->message, "Pass-Through");
	/* None is normal in passthrough: no enable_uvm advice */
	c = need_check(&v, "addressing-mode", 0, GW_SEV_PASS);
	assert_null(c->fix);
	assert_null(find_check(&v, "license", 0));
	c = need_check(&v, "bar1", 0, GW_SEV_PASS);
	assert_contains(c->message, "262144");
	c = need_check(&v, "fb", 0, GW_SEV_PASS);
	assert_contains(c->message, "143771 MiB");
	assert_contains(c->message, "141 GB");
	assert_int_equal(v.nchecks, 7);
	assert_int_equal(v.nfail, 0);
	assert_int_equal(v.nwarn, 0);
	assert_int_equal(v.ninfo, 0);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

static void
test_sample_a16_host(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_nvsmi_gpu *g;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, A16);
	assert_string_equal(q.driver_version, "470.129.04");
	assert_string_equal(q.cuda_version, "Not Found");
	assert_int_equal(q.attached_gpus, 4);    /* nvidia-smi -i 0: one shown */
	assert_int_equal(q.ngpus, 1);
	g = &q.gpus[0];
	assert_string_equal(g->bus_id, "00000000:13:00.0");
	assert_int_equal(g->line, 10);
	assert_string_equal(g->product_name, "NVIDIA A16");
	assert_string_equal(g->virt_mode_text, "Host VGPU");
	assert_int_equal(g->virt_mode, GW_VIRT_HOST_VGPU);
	assert_string_equal(g->host_vgpu_mode, "SR-IOV");
	assert_null(g->addressing_mode);         /* R470 prints no line */
	assert_int_equal(g->vendor_id, 0x10de);
	assert_int_equal(g->device_id, 0x25b6);
	assert_int_equal(g->subsys_vendor, 0x10de);
	assert_int_equal(g->subsys_device, 0x14a9);
	assert_int_equal(g->fb_total_mib, 15105);
	assert_int_equal(g->bar1_total_mib, 16384);

	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	assert_string_equal(v.rows[0]->id, "a16");   /* by the subsystem */
	assert_int_equal(v.host, 1);
	assert_int_equal(v.gpu_count, 4);
	assert_int_equal(v.mmio_gb, 0);
	assert_null(v.torchrun);                  /* not a guest */
	c = need_check(&v, "gpus", -1, GW_SEV_WARN);
	assert_contains(c->message, "1 of the 4");
	assert_contains(c->fix, "without -i");
	c = need_check(&v, "driver", -1, GW_SEV_WARN);
	assert_contains(c->message, "470.129.04");
	assert_contains(c->fix, "vGPU manager");
	assert_null(find_check(&v, "cuda", -1));  /* "Not Found" is normal */
	c = need_check(&v, "virt-mode", 0, GW_SEV_ERROR);
	assert_contains(c->message, "Host VGPU");
	assert_contains(c->message, "not from a guest");
	assert_contains(c->fix, "inside the VM");
	assert_null(find_check(&v, "addressing-mode", 0));
	assert_null(find_check(&v, "nccl", -1));
	need_check(&v, "bar1", 0, GW_SEV_PASS);
	c = need_check(&v, "fb", 0, GW_SEV_PASS);   /* 15105 of 16 GB */
	assert_contains(c->message, "16 GB");
	assert_int_equal(v.nfail, 1);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

static void
test_sample_rtx5090_baremetal(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_nvsmi_gpu *g;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, R5090);
	assert_string_equal(q.driver_version, "570.124.06");
	assert_string_equal(q.cuda_version, "12.8");
	assert_int_equal(q.attached_gpus, 1);
	assert_int_equal(q.ngpus, 1);
	g = &q.gpus[0];
	assert_string_equal(g->bus_id, "00000000:02:00.0");
	assert_string_equal(g->product_name, "NVIDIA GeForce RTX 5090");
	assert_int_equal(g->virt_mode, GW_VIRT_NONE);
	assert_string_equal(g->addressing_mode, "HMM");
	assert_int_equal(g->device_id, 0x2b85);
	assert_int_equal(g->vendor_id, 0x10de);
	assert_int_equal(g->subsys_device, 0xf318);
	assert_int_equal(g->subsys_vendor, 0x1569);
	assert_int_equal(g->fb_total_mib, 32607);
	assert_int_equal(g->bar1_total_mib, 32768);

	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	assert_string_equal(v.rows[0]->id, "rtx-5090");
	c = need_check(&v, "virt-mode", 0, GW_SEV_WARN);
	assert_contains(c->message, "hypervisor.cpuid.v0");
	c = need_check(&v, "addressing-mode", 0, GW_SEV_PASS);
	assert_contains(c->message, "HMM");
	need_check(&v, "driver", -1, GW_SEV_PASS);
	need_check(&v, "cuda", -1, GW_SEV_PASS);
	need_check(&v, "bar1", 0, GW_SEV_PASS);
	need_check(&v, "fb", 0, GW_SEV_PASS);
	assert_int_equal(v.nfail, 0);
	assert_int_equal(v.nwarn, 1);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

/* The whole fixture, "# source:" line and shell prompt included, parses
 * to the same values: unknown lines are ignored. */
/* ---- unified memory, newer driver lines, vGPU counts ----------------------- */

/* Unified memory passes only on HMM and ATS (NVML's addressing modes in
 * which system memory is addressable from the GPU), in any case. */
static void
test_addressing_values(void **state)
{
	static const char *const pass[] = { "HMM", "ATS", "hmm", "Ats" };
	static const char *const warn[] = { "N/A", "Unknown", "HMM (pending)" };
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s, *to;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof pass / sizeof *pass; i++) {
		to = gw_xasprintf("Addressing Mode                       : %s",
		                  pass[i]);
		s = sample_with(A6000, "Addressing Mode                       : None",
		                to, NULL);
		verify_text(s, &q, &v);
		c = need_check(&v, "addressing-mode", 0, GW_SEV_PASS);
		assert_contains(c->message, pass[i]);
		assert_contains(c->message, "unified memory reaches");
		assert_null(c->fix);
		gw_verify_free(&v);
		gw_nvsmi_free(&q);
		free(s);
		free(to);
	}
	for (i = 0; i < sizeof warn / sizeof *warn; i++) {
		to = gw_xasprintf("Addressing Mode                       : %s",
		                  warn[i]);
		s = sample_with(A6000, "Addressing Mode                       : None",
		                to, NULL);
		verify_text(s, &q, &v);
		assert_rows_sane(&q, &v);
		c = need_check(&v, "addressing-mode", 0, GW_SEV_WARN);
		assert_contains(c->message, warn[i]);
		assert_contains(c->message, "only HMM or ATS");
		assert_contains(c->fix, "enable_uvm = \"1\"");
		assert_contains(c->fix, "nvidia-smi -q prints it");
		gw_verify_free(&v);
		gw_nvsmi_free(&q);
		free(s);
		free(to);
	}
	/* no line: WARN with the same things to check */
	s = sample_with(A6000, "    Addressing Mode                       : None\n", "",
	                NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_WARN);
	assert_contains(c->fix, "enable_uvm");
	assert_contains(c->fix, "nvidia-smi -q prints it");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* without a vGPU: None and HMM/ATS pass, N/A is reported */
	s = sample_with(H200, "Addressing Mode                       : None",
	                "Addressing Mode                       : N/A", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_INFO);
	assert_contains(c->message, "N/A");
	assert_int_equal(v.npass + v.ninfo, v.nchecks);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
	s = sample_with(H200, "Addressing Mode                       : None",
	                "Addressing Mode                       : ATS", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "addressing-mode", 0, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* The TKGI docs' V100D-8C guest: "Attached vGPUs : 1", Addressing Mode
 * N/A. */
static void
test_sample_v100d_attached_vgpus(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	parse_sample(&q, V100D);
	assert_string_equal(q.driver_version, "535.216.01");
	assert_string_equal(q.cuda_version, "12.2");
	assert_int_equal(q.attached_gpus, 1);
	assert_int_equal(q.attached_vgpus, 1);
	assert_int_equal(q.ngpus, 1);
	assert_string_equal(q.gpus[0].product_name, "GRID V100D-8C");
	assert_int_equal(q.gpus[0].virt_mode, GW_VIRT_VGPU);
	assert_string_equal(q.gpus[0].addressing_mode, "N/A");
	assert_int_equal(q.gpus[0].active_vgpus, -1);
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "gpus", -1, GW_SEV_PASS);
	assert_contains(c->message, "Attached vGPUs: 1");
	need_check(&v, "driver", -1, GW_SEV_PASS);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_WARN);
	assert_contains(c->message, "Addressing Mode N/A");
	assert_contains(c->fix, "enable_uvm");
	need_check(&v, "license", 0, GW_SEV_PASS);
	assert_null(find_check(&v, "vgpus", 0));     /* a guest */
	assert_int_equal(v.nwarn, 1);
	assert_int_equal(v.nfail, 0);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* a guest that sees fewer vGPU sections than it has */
	s = sample_with(V100D, "Attached vGPUs                             : 1",
	                "Attached vGPUs                             : 2", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.attached_gpus, 2);
	assert_int_equal(v.gpu_count, 2);
	c = need_check(&v, "gpus", -1, GW_SEV_WARN);
	assert_contains(c->message, "1 of the 2 attached vGPUs");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* both lines: "Attached GPUs" counts, and the two must be one
	 * machine's */
	s = sample_with(V100D, "Attached vGPUs                             : 1",
	                "Attached GPUs                             : 1\n"
	                "Attached vGPUs                             : 1", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.attached_vgpus, 0);
	c = need_check(&v, "gpus", -1, GW_SEV_PASS);
	assert_contains(c->message, "GPUs in the capture: 1");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* R610's lines: a note after the version, KMD Version and CUDA UMD
 * Version. */
static void
test_driver_r610_lines(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	parse_sample(&q, R610);
	assert_string_equal(q.driver_version, "610.57.04");
	assert_string_equal(q.cuda_version, "13.3");
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "driver", -1, GW_SEV_PASS);
	assert_contains(c->message, "driver 610.57.04 is 535.129.03 or newer");
	c = need_check(&v, "cuda", -1, GW_SEV_PASS);
	assert_contains(c->message, "up to 13.3");
	assert_int_equal(v.nwarn + v.nfail, 0);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* only the old lines, with their notes: the number before the note */
	s = sample_with(R610, "KMD Version                               : 610.57.04\n", "",
	                "CUDA UMD Version                          : 13.3\n", "",
	                "610.57.04 [", "610.60 [", NULL);
	verify_text(s, &q, &v);
	assert_string_equal(q.driver_version, "610.60");
	assert_string_equal(q.cuda_version, "13.3");
	need_check(&v, "driver", -1, GW_SEV_PASS);
	need_check(&v, "cuda", -1, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* the number is compared, not the text: an old driver with a note */
	s = sample_with(R610, "KMD Version                               : 610.57.04\n", "",
	                "610.57.04 [", "530.30.02 [", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "driver", -1, GW_SEV_ERROR);
	assert_contains(c->message, "driver 530.30.02 is older than 535.129.03");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* KMD Version is the one that counts */
	s = sample_with(R610, "KMD Version                               : 610.57.04",
	                "KMD Version                               : 530.30.02", NULL);
	verify_text(s, &q, &v);
	assert_string_equal(q.driver_version, "530.30.02");
	need_check(&v, "driver", -1, GW_SEV_ERROR);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* a word glued to the number is not a version */
	s = sample_with(H200, ": 550.90.12", ": 550.90.12beta", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "driver", -1, GW_SEV_WARN);
	assert_contains(c->message, "cannot read the Driver Version '550.90.12beta'");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* A vGPU host: the running vGPUs of each GPU from nvidia-smi vgpu -q
 * appended to the -q. */
static void
test_host_active_vgpus(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s, *t;

	(void)state;
	parse_sample(&q, A16Q0);
	assert_int_equal(q.ngpus, 1);
	assert_int_equal(q.gpus[0].active_vgpus, 0);
	assert_int_equal(q.gpus[0].fb_total_mib, 15105);
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "vgpus", 0, GW_SEV_WARN);
	assert_contains(c->message, "Active vGPUs: 0");
	assert_contains(c->fix, "diagnose");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* two running: reported, not judged; a vGPU's own fields are not
	 * the GPU's */
	s = sample_with(A16Q0, "    Active vGPUs                          : 0\n",
	                "    Active vGPUs                          : 2\n"
	                "    vGPU ID                               : 3251634190\n"
	                "        vGPU Name                         : NVIDIA A16-4Q\n"
	                "        FB Memory Usage\n"
	                "            Total                         : 4096 MiB\n",
	                NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].active_vgpus, 2);
	assert_int_equal(q.gpus[0].fb_total_mib, 15105);
	c = need_check(&v, "vgpus", 0, GW_SEV_INFO);
	assert_contains(c->message, "Active vGPUs: 2");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* the -q alone: the count is not in it */
	parse_sample(&q, A16);
	gw_verify_run(&q, &table, &v);
	c = need_check(&v, "vgpus", 0, GW_SEV_INFO);
	assert_contains(c->fix, "nvidia-smi vgpu -q");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* a repeated header whose section is not nvidia-smi vgpu -q's is
	 * still two captures of one GPU */
	s = tu_read_sample(A16, NULL);
	t = gw_xasprintf("%sGPU 00000000:13:00.0\n    Product Name : NVIDIA A16\n", s);
	assert_contains(parse_err(t, strlen(t)), "GPU 00000000:13:00.0 appears twice");
	free(t);
	t = gw_xasprintf("%sGPU 00000000:13:00.0\n", s);
	assert_contains(parse_err(t, strlen(t)), "appears twice");
	free(t);
	free(s);
}

static void
test_sample_with_source_line(void **state)
{
	static const char *const rels[] = { A6000, H200, A16, R5090 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rels / sizeof rels[0]; i++) {
		gw_nvsmi a, b;
		size_t n;
		char *d = tu_read_fixture(rels[i], &n);

		parse_ok(&a, d, n);
		parse_sample(&b, rels[i]);
		assert_int_equal(a.ngpus, b.ngpus);
		assert_string_equal(a.driver_version, b.driver_version);
		assert_int_equal(a.gpus[0].fb_total_mib, b.gpus[0].fb_total_mib);
		assert_int_equal(a.gpus[0].line, b.gpus[0].line + 1);
		gw_nvsmi_free(&a);
		gw_nvsmi_free(&b);
		free(d);
	}
}

/* ---- the synthetic fixtures ---------------------------------------------- */

static void
test_two_vgpus(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, TWO);
	assert_int_equal(q.attached_gpus, 2);
	assert_int_equal(q.ngpus, 2);
	assert_string_equal(q.gpus[0].bus_id, "00000000:00:10.0");
	assert_string_equal(q.gpus[1].bus_id, "00000000:00:11.0");
	assert_int_equal(q.gpus[1].fb_total_mib, 24576);
	assert_string_equal(q.gpus[1].addressing_mode, "None");

	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	assert_int_equal(v.gpu_count, 2);
	assert_int_equal(v.total_vram_gb, 96);
	assert_int_equal(v.mmio_gb, 256);   /* 96 -> 128 -> 256 */
	need_check(&v, "addressing-mode", 0, GW_SEV_ERROR);
	need_check(&v, "addressing-mode", 1, GW_SEV_ERROR);
	assert_string_equal(v.torchrun,
	                    "torchrun --nproc_per_node=2 nccl_check.py");
	c = need_check(&v, "nccl", -1, GW_SEV_INFO);
	assert_contains(c->message, "ok 2.0");
	assert_contains(c->fix, "torchrun --nproc_per_node=2 nccl_check.py");
	assert_string_equal(v.checks[v.nchecks - 1].id, "nccl");
	assert_int_equal(v.nfail, 2);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

static void
test_bar1_zero_passthrough(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, BAR0);
	assert_int_equal(q.gpus[0].bar1_total_mib, 0);
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->message, "0 MiB");
	assert_contains(c->message, "MMIO window is likely too small");
	assert_contains(c->fix, "pciPassthru.use64bitMMIO = \"TRUE\"");
	assert_contains(c->fix, "pciPassthru.64bitMMIOSizeGB = \"512\"");
	assert_contains(c->fix, "141 GB");
	assert_int_equal(v.nfail, 0);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

static void
test_old_driver(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, OLD);
	assert_string_equal(q.driver_version, "525.105.17");
	assert_string_equal(q.cuda_version, "12.0");
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "driver", -1, GW_SEV_ERROR);
	assert_contains(c->message, "525.105.17");
	assert_contains(c->message, "535.129.03");
	assert_contains(c->fix, "535.129.03 or newer");
	c = need_check(&v, "cuda", -1, GW_SEV_ERROR);
	assert_contains(c->message, "12.0");
	assert_contains(c->message, "12.1");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* 535.54.03 is older than 535.129.03 (numeric compare); CUDA 12.2 */
	{
		char *s = sample_with(A6000, "535.183.06", "535.54.03", NULL);

		verify_text(s, &q, &v);
		need_check(&v, "driver", -1, GW_SEV_ERROR);
		need_check(&v, "cuda", -1, GW_SEV_PASS);
		gw_verify_free(&v);
		gw_nvsmi_free(&q);
		free(s);
	}
	/* exactly the minimum passes */
	{
		char *s = sample_with(A6000, "535.183.06", "535.129.03",
		                      ": 12.2\n", ": 12.1\n", NULL);

		verify_text(s, &q, &v);
		need_check(&v, "driver", -1, GW_SEV_PASS);
		need_check(&v, "cuda", -1, GW_SEV_PASS);
		gw_verify_free(&v);
		gw_nvsmi_free(&q);
		free(s);
	}
}

/* ---- synthetic variations in the tests ----------------------------------- */

static void
test_driver_cuda_unreadable(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	char *s;

	(void)state;
	s = sample_with(H200, "Driver Version                            : 550.90.12\n", "",
	                "CUDA Version                              : 12.4", "CUDA Version : N/A",
	                NULL);
	verify_text(s, &q, &v);
	assert_null(q.driver_version);
	assert_string_equal(q.cuda_version, "N/A");
	need_check(&v, "driver", -1, GW_SEV_WARN);
	need_check(&v, "cuda", -1, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* a guest whose driver has no CUDA */
	s = sample_with(H200, ": 12.4", ": Not Found", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "cuda", -1, GW_SEV_ERROR);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

static void
test_vgpu_addressing(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	/* after enable_uvm: HMM */
	s = sample_with(A6000, "Addressing Mode                       : None",
	                "Addressing Mode                       : HMM",
	                "Unlicensed (Unrestricted)", "Licensed (Expiry: 2026-3-31 6:56:42 GMT)",
	                NULL);
	verify_text(s, &q, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_PASS);
	assert_contains(c->message, "HMM");
	need_check(&v, "license", 0, GW_SEV_PASS);
	assert_int_equal(v.nfail, 0);
	assert_int_equal(v.nwarn, 0);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* no Addressing Mode line on a vGPU: WARN with the advice */
	s = sample_with(A6000, "    Addressing Mode                       : None\n", "",
	                NULL);
	verify_text(s, &q, &v);
	assert_null(q.gpus[0].addressing_mode);
	c = need_check(&v, "addressing-mode", 0, GW_SEV_WARN);
	assert_contains(c->fix, "enable_uvm");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* no Virtualization Mode line: unknown; None is not judged */
	s = sample_with(H200, "        Virtualization Mode               : Pass-Through\n", "",
	                NULL);
	verify_text(s, &q, &v);
	assert_null(q.gpus[0].virt_mode_text);
	assert_int_equal(q.gpus[0].virt_mode, GW_VIRT_UNKNOWN);
	need_check(&v, "virt-mode", 0, GW_SEV_WARN);
	need_check(&v, "addressing-mode", 0, GW_SEV_INFO);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* an unknown mode is kept as text */
	s = sample_with(H200, ": Pass-Through", ": Something New", NULL);
	verify_text(s, &q, &v);
	assert_string_equal(q.gpus[0].virt_mode_text, "Something New");
	c = need_check(&v, "virt-mode", 0, GW_SEV_WARN);
	assert_contains(c->message, "Something New");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

static void
test_bar1_variants(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	/* far below the H200's 262144 in passthrough */
	s = sample_with(H200, ": 262144 MiB", ": 256 MiB", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->message, "256 MiB");
	assert_contains(c->message, "262144");
	assert_contains(c->fix, "64bitMMIOSizeGB = \"512\"");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* larger than seen: fine */
	s = sample_with(H200, ": 262144 MiB", ": 524288 MiB", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "bar1", 0, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* N/A: ATS (Grace Hopper) passes, anything else warns */
	s = sample_with(H200, ": 262144 MiB", ": N/A",
	                "Addressing Mode                       : None",
	                "Addressing Mode                       : ATS", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].bar1_total_mib, GW_NVSMI_NA);
	assert_string_equal(q.gpus[0].bar1_total_text, "N/A");
	need_check(&v, "bar1", 0, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
	s = sample_with(H200, ": 262144 MiB", ": N/A", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "bar1", 0, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* unreadable */
	s = sample_with(H200, ": 262144 MiB", ": lots", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].bar1_total_mib, GW_NVSMI_BAD);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->message, "lots");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* absent */
	s = sample_with(H200, "    BAR1 Memory Usage\n        Total                             : 262144 MiB\n",
	                "    BAR1 Memory Usage\n", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].bar1_total_mib, GW_NVSMI_ABSENT);
	assert_null(q.gpus[0].bar1_total_text);
	need_check(&v, "bar1", 0, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* 0 on bare metal: the BIOS, not a VM setting first */
	s = sample_with(R5090, ": 32768 MiB", ": 0 MiB", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->fix, "Above 4G Decoding");
	assert_contains(c->fix, "64bitMMIOSizeGB = \"64\"");   /* 32 -> 64 */
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* 0 on the vGPU host: the BIOS */
	s = sample_with(A16, ": 16384 MiB", ": 0 MiB", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->fix, "Above 4G Decoding");
	assert_true(strstr(c->fix, "64bitMMIOSizeGB") == NULL);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* 0 on a vGPU: the window, sized by the physical GPU (48 -> 128) */
	s = sample_with(A6000, ": 256 MiB", ": 0 MiB", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->fix, "64bitMMIOSizeGB = \"128\"");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

static void
test_fb_variants(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	s = sample_with(H200, ": 143771 MiB", ": 70000 MiB", NULL);
	verify_text(s, &q, &v);
	c = need_check(&v, "fb", 0, GW_SEV_WARN);
	assert_contains(c->message, "70000");
	assert_non_null(c->fix);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	s = sample_with(H200, ": 143771 MiB", ": 200000 MiB", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "fb", 0, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	s = sample_with(H200, ": 143771 MiB", ": 0 MiB", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "fb", 0, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	s = sample_with(H200, ": 143771 MiB", ": N/A", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].fb_total_mib, GW_NVSMI_NA);
	need_check(&v, "fb", 0, GW_SEV_WARN);
	assert_int_equal(v.mmio_gb, 512);     /* from the table, not the FB */
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* a vGPU larger than its physical GPU */
	s = sample_with(A6000, ": 24576 MiB", ": 65536 MiB", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "fb", 0, GW_SEV_WARN);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* A GPU the table does not know: nothing compared; MMIO from its FB. */
static void
test_unknown_gpu(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	char *s;

	(void)state;
	s = sample_with(BAR0, "0x233510DE", "0xFFF010DE", NULL);
	verify_text(s, &q, &v);
	assert_int_equal(q.gpus[0].device_id, 0xfff0);
	assert_null(v.rows[0]);
	need_check(&v, "fb", 0, GW_SEV_INFO);
	assert_int_equal(v.total_vram_gb, 141);   /* 143771 MiB rounded up */
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->fix, "64bitMMIOSizeGB = \"512\"");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* no table at all */
	s = tu_read_sample(H200, NULL);
	parse_ok(&q, s, strlen(s));
	gw_verify_run(&q, NULL, &v);
	assert_rows_sane(&q, &v);
	assert_null(v.rows[0]);
	need_check(&v, "fb", 0, GW_SEV_INFO);
	need_check(&v, "bar1", 0, GW_SEV_PASS);
	assert_int_equal(v.mmio_gb, 512);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* a vGPU of an unknown GPU: no size for the rule, generic advice */
	s = sample_with(A6000, "0x223010DE", "0xFFF010DE", ": 256 MiB", ": 0 MiB",
	                NULL);
	verify_text(s, &q, &v);
	assert_int_equal(v.mmio_gb, 0);
	c = need_check(&v, "bar1", 0, GW_SEV_WARN);
	assert_contains(c->fix, "gpuwiz mmio");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* 25b6 is the A2 and the A16: a vGPU guest's subsystem is the vGPU's, so
 * the profile in the product name decides. */
static void
test_vgpu_shared_pci_id(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	char *s;

	(void)state;
	s = sample_with(A6000, "0x223010DE", "0x25B610DE",
	                "NVIDIA RTXA6000-24Q", "NVIDIA A16-4Q",
	                ": 24576 MiB", ": 4096 MiB", NULL);
	verify_text(s, &q, &v);
	assert_non_null(v.rows[0]);
	assert_string_equal(v.rows[0]->id, "a16");
	need_check(&v, "fb", 0, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);

	/* a profile of another board with that PCI id is not taken */
	s = sample_with(A6000, "0x223010DE", "0x25B610DE", NULL);
	verify_text(s, &q, &v);
	assert_null(v.rows[0]);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

static void
test_host_two_gpus_no_torchrun(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	char *one = tu_read_sample(A16, NULL), *two, *sec;
	const char *at = strstr(one, "GPU 00000000:13:00.0\n");

	(void)state;
	assert_non_null(at);
	sec = subst(at, "00000000:13:00.0", "00000000:14:00.0");
	two = gw_xasprintf("%s%s", one, sec);
	verify_text(two, &q, &v);
	assert_int_equal(q.ngpus, 2);
	assert_int_equal(v.host, 1);
	assert_null(v.torchrun);
	assert_null(find_check(&v, "nccl", -1));
	need_check(&v, "virt-mode", 1, GW_SEV_ERROR);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(one);
	free(sec);
	free(two);
}

/* nvidia-smi -q -i 1 of a 2-GPU guest: WARN, torchrun for both GPUs, and
 * no MMIO value from half the GPUs. */
static void
test_partial_capture(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	char *s;

	(void)state;
	s = sample_with(H200, "Attached GPUs                             : 1",
	                "Attached GPUs                             : 2", NULL);
	verify_text(s, &q, &v);
	need_check(&v, "gpus", -1, GW_SEV_WARN);
	assert_int_equal(v.gpu_count, 2);
	assert_int_equal(v.mmio_gb, 0);
	assert_string_equal(v.torchrun, "torchrun --nproc_per_node=2 nccl_check.py");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	free(s);
}

/* ---- parser robustness ------------------------------------------------------ */

static void
test_parse_crlf_bom_indent(void **state)
{
	gw_nvsmi a, b, c;
	char *lf = tu_read_sample(H200, NULL), *crlf, *bom, *two;

	(void)state;
	crlf = subst(lf, "\n", "\r\n");
	bom = gw_xasprintf("\xef\xbb\xbf%s", lf);
	two = subst(lf, "    ", "  ");      /* 2-space indentation */
	parse_ok(&a, crlf, strlen(crlf));
	parse_ok(&b, bom, strlen(bom));
	parse_ok(&c, two, strlen(two));
	assert_string_equal(a.driver_version, "550.90.12");
	assert_string_equal(a.cuda_version, "12.4");
	assert_string_equal(a.gpus[0].bus_id, "00000000:03:00.0");
	assert_string_equal(a.gpus[0].virt_mode_text, "Pass-Through");
	assert_int_equal(a.gpus[0].fb_total_mib, 143771);
	assert_int_equal(a.gpus[0].bar1_total_mib, 262144);
	assert_string_equal(b.driver_version, "550.90.12");
	assert_int_equal(b.banner, 1);
	assert_int_equal(b.gpus[0].bar1_total_mib, 262144);
	assert_string_equal(c.gpus[0].virt_mode_text, "Pass-Through");
	assert_int_equal(c.gpus[0].device_id, 0x2335);
	gw_nvsmi_free(&c);
	/* pasted with an indent below a prompt line */
	{
		char *ind = subst(lf, "\n", "\n    ");
		char *all = gw_xasprintf("user@vm:~$ nvidia-smi -q\n    %s", ind);

		parse_ok(&c, all, strlen(all));
		assert_int_equal(c.banner, 1);
		assert_string_equal(c.driver_version, "550.90.12");
		assert_int_equal(c.ngpus, 1);
		assert_string_equal(c.gpus[0].virt_mode_text, "Pass-Through");
		assert_int_equal(c.gpus[0].bar1_total_mib, 262144);
		free(ind);
		free(all);
	}
	assert_int_equal(c.gpus[0].fb_total_mib, 143771);
	assert_int_equal(c.gpus[0].bar1_total_mib, 262144);
	gw_nvsmi_free(&a);
	gw_nvsmi_free(&b);
	gw_nvsmi_free(&c);
	free(lf);
	free(crlf);
	free(bom);
	free(two);
}

static void
test_parse_structure(void **state)
{
	gw_nvsmi q;
	const char *text;

	(void)state;
	/* Total only counts in its own section; Product Name of the license
	 * section does not replace the GPU's; a repeated field keeps the
	 * first; an older 4-digit domain; no banner but a GPU section; the
	 * last line without a newline. */
	text = "Driver Version : 550.54.15\n"
	       "GPU 0000:41:00.0\n"
	       "    vGPU Software Licensed Product\n"
	       "        Product Name : NVIDIA Virtual Compute Server\n"
	       "        License Status : Licensed (Expiry: 2025-1-1 0:0:0 GMT)\n"
	       "    Product Name : GRID A100-4C\n"
	       "    Product Name : later\n"
	       "    Conf Compute Protected Memory Usage\n"
	       "        Total : 0 MiB\n"
	       "    FB Memory Usage\n"
	       "        Total : 4096 MiB\n"
	       "        Total : 1 MiB\n"
	       "    Total : 7 MiB\n"
	       "    PCI\n"
	       "        GPU Link Info\n"
	       "            Device Id : 0x11111111\n"
	       "        Device Id : 0x20F110DE\n"
	       "    GPU Virtualization Mode\n"
	       "        Virtualization Mode : VGPU\n"
	       "    BAR1 Memory Usage\n"
	       "        Total : 256 MiB";
	parse_ok(&q, text, strlen(text));
	assert_int_equal(q.banner, 0);
	assert_int_equal(q.attached_gpus, -1);
	assert_null(q.cuda_version);
	assert_int_equal(q.ngpus, 1);
	assert_string_equal(q.gpus[0].bus_id, "0000:41:00.0");
	assert_int_equal(q.gpus[0].line, 2);
	assert_string_equal(q.gpus[0].product_name, "GRID A100-4C");
	assert_string_equal(q.gpus[0].licensed_product,
	                    "NVIDIA Virtual Compute Server");
	assert_int_equal(q.gpus[0].fb_total_mib, 4096);
	assert_int_equal(q.gpus[0].device_id, 0x20f1);
	assert_int_equal(q.gpus[0].vendor_id, 0x10de);
	assert_int_equal(q.gpus[0].subsys_device, 0);
	assert_int_equal(q.gpus[0].bar1_total_mib, 256);
	assert_int_equal(q.gpus[0].virt_mode, GW_VIRT_VGPU);
	{
		gw_verify v;

		gw_verify_run(&q, &table, &v);
		/* GRID A100-4C: 20f1 is the A100 PCIe 40GB */
		assert_non_null(v.rows[0]);
		assert_int_equal(v.rows[0]->device_id, 0x20f1);
		need_check(&v, "license", 0, GW_SEV_PASS);
		need_check(&v, "cuda", -1, GW_SEV_WARN);
		gw_verify_free(&v);
	}
	gw_nvsmi_free(&q);

	/* a long run of blanks is not slow, and is trimmed */
	{
		size_t n = 4u << 20;
		char *big = gw_xmalloc(n + 64);

		strcpy(big, "Driver Version :");
		memset(big + 16, ' ', n);
		strcpy(big + 16 + n, "550.90.12\nGPU 00000000:01:00.0\n");
		parse_ok(&q, big, strlen(big));
		assert_string_equal(q.driver_version, "550.90.12");
		gw_nvsmi_free(&q);
		free(big);
	}

	/* malformed ids are unknown, not fatal */
	text = "GPU 00000000:01:00.0\n"
	       "    PCI\n"
	       "        Device Id : 10DE\n"
	       "        Sub System Id : N/A\n";
	parse_ok(&q, text, strlen(text));
	assert_int_equal(q.gpus[0].device_id, 0);
	assert_int_equal(q.gpus[0].vendor_id, 0);
	assert_int_equal(q.gpus[0].subsys_device, 0);
	gw_nvsmi_free(&q);
}

/* nvidia-smi -q -i 0; nvidia-smi -q -i 1 in one file is one capture. */
static void
test_parse_concatenated(void **state)
{
	gw_nvsmi q;
	char *one = tu_read_sample(H200, NULL), *att, *second, *both;

	(void)state;
	att = subst(one, "Attached GPUs                             : 1",
	            "Attached GPUs                             : 2");
	second = subst(att, "00000000:03:00.0", "00000000:04:00.0");
	both = gw_xasprintf("%s%s", att, second);
	parse_ok(&q, both, strlen(both));
	assert_int_equal(q.ngpus, 2);
	assert_int_equal(q.attached_gpus, 2);
	assert_string_equal(q.gpus[1].bus_id, "00000000:04:00.0");
	assert_int_equal(q.gpus[1].fb_total_mib, 143771);
	gw_nvsmi_free(&q);
	free(one);
	free(att);
	free(second);
	free(both);
}

static void
test_parse_refused(void **state)
{
	char *one = tu_read_sample(H200, NULL), *s, *t;
	const char *msg;
	static const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0";
	static const char ctl[] = "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f"
	                          "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19";
	static const char u16[] = "\xff\xfe=\0=\0=\0N\0V\0S\0M\0I\0";

	(void)state;
	msg = parse_err("", 0);
	assert_contains(msg, "bad.txt");
	assert_contains(msg, "empty");
	msg = parse_err(" \n\r\n\t\n", 6);
	assert_contains(msg, "empty");
	msg = parse_err(bin, sizeof bin - 1);
	assert_contains(msg, "binary data");
	assert_contains(msg, "offset 7");
	msg = parse_err(ctl, sizeof ctl - 1);
	assert_contains(msg, "binary data");
	msg = parse_err(u16, sizeof u16 - 1);
	assert_contains(msg, "UTF-16");
	msg = parse_err("hello world\nthis is: not it\n", 28);
	assert_contains(msg, "not the output of nvidia-smi -q");
	msg = parse_err("<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n", 40);
	assert_contains(msg, "nvidia-smi -q -x");
	s = "+-----------------------------------------------------------------------------+\n"
	    "| NVIDIA-SMI 535.183.06   Driver Version: 535.183.06   CUDA Version: 12.2     |\n"
	    "|-------------------------------+----------------------+----------------------+\n";
	msg = parse_err(s, strlen(s));
	assert_contains(msg, "summary table");

	/* two machines in one file */
	s = subst(one, "550.90.12", "535.183.06");
	t = gw_xasprintf("%s%s", one, s);
	msg = parse_err(t, strlen(t));
	assert_contains(msg, "bad.txt:");
	assert_contains(msg, "Driver Version '535.183.06' differs from "
	                     "'550.90.12' on line 4");
	free(s);
	free(t);
	/* too many GPU sections */
	{
		gw_buf b;
		int k;

		gw_buf_init(&b);
		for (k = 0; k <= GW_NVSMI_MAX_GPUS; k++)
			gw_buf_printf(&b, "GPU 00000000:%02x:%02x.%x\n", k >> 8,
			              (k >> 3) & 0x1f, k & 7);
		msg = parse_err(b.data, b.len);
		assert_contains(msg, "bad.txt:1025: more than 1024 GPU sections");
		gw_buf_free(&b);
	}
	/* the same GPU twice */
	t = gw_xasprintf("%s%s", one, one);
	msg = parse_err(t, strlen(t));
	assert_contains(msg, "GPU 00000000:03:00.0 appears twice (first on "
	                     "line 8)");
	free(t);
	free(one);
}

/* nvidia-smi's own failures are valid captures of "no GPU". */
static void
test_parse_smi_errors(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;
	const char *t;

	(void)state;
	t = "NVIDIA-SMI has failed because it couldn't communicate with the "
	    "NVIDIA driver. Make sure that the latest NVIDIA driver is "
	    "installed and running.\n\n";
	verify_text(t, &q, &v);
	assert_int_equal(q.ngpus, 0);
	assert_non_null(q.error_text);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "gpus", -1, GW_SEV_ERROR);
	assert_contains(c->message, "couldn't communicate");
	assert_contains(c->fix, "MMIO window");
	assert_null(v.torchrun);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	t = "No devices were found\n";
	verify_text(t, &q, &v);
	c = need_check(&v, "gpus", -1, GW_SEV_ERROR);
	assert_contains(c->message, "No devices were found");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* the banner and no GPU section */
	t = "==============NVSMI LOG==============\n\n"
	    "Driver Version : 550.90.12\nCUDA Version : 12.4\n\n"
	    "Attached GPUs : 0\n";
	verify_text(t, &q, &v);
	assert_int_equal(q.attached_gpus, 0);
	c = need_check(&v, "gpus", -1, GW_SEV_ERROR);
	assert_contains(c->message, "no GPU section");
	need_check(&v, "driver", -1, GW_SEV_PASS);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* one GPU unreadable, another captured */
	t = "Unable to determine the device handle for GPU 0000:05:00.0: "
	    "Unknown Error\n"
	    "GPU 00000000:03:00.0\n    Product Name : NVIDIA H200\n";
	verify_text(t, &q, &v);
	assert_int_equal(q.ngpus, 1);
	c = need_check(&v, "gpus", -1, GW_SEV_WARN);
	assert_contains(c->message, "Unable to determine");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

/* ---- the command ------------------------------------------------------------ */

static void
test_command_text(void **state)
{
	char *path = tu_fixture_path(A6000), *out;
	gw_err e;
	int rc;

	(void)state;
	out = run_command(&table, path, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_FAILED);
	assert_contains(out, path);
	assert_contains(out, "Driver Version: 535.183.06   CUDA Version: 12.2   "
	                     "Attached GPUs: 1");
	assert_contains(out, "GPU 00000000:00:10.0: NVIDIA RTXA6000-24Q (PCI "
	                     "10de:2230, table row rtx-a6000)");
	assert_contains(out, "Virtualization Mode: VGPU   Addressing Mode: None");
	assert_contains(out, "FB Memory Usage Total: 24576 MiB   BAR1 Memory "
	                     "Usage Total: 256 MiB");
	assert_contains(out, "Checking the driver version");
	assert_contains(out, "Checking GPU 00000000:00:10.0: Addressing Mode");
	assert_contains(out, " : FAIL\n");
	assert_contains(out, " : PASS\n");
	assert_contains(out, "        fix: Power the VM off, set "
	                     "pciPassthruN.cfg.enable_uvm = \"1\"");
	assert_contains(out, "Result: 6 PASS, 0 INFO, 1 WARN, 1 FAIL\n");
	/* the status column lines up */
	{
		const char *a = strstr(out, "Checking the driver version");
		const char *b = strstr(out, "Checking GPU 00000000:00:10.0: "
		                            "Addressing Mode");

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(strstr(a, " : ") - a, 56);
		assert_int_equal(strstr(b, " : ") - b, 56);
	}
	free(out);
	free(path);

	path = tu_fixture_path(H200);
	out = run_command(&table, path, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	assert_contains(out, "Result: 7 PASS, 0 INFO, 0 WARN, 0 FAIL\n");
	assert_true(strstr(out, ": FAIL") == NULL);
	free(out);
	free(path);

	path = tu_fixture_path(TWO);
	out = run_command(&table, path, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_FAILED);
	assert_contains(out, "torchrun --nproc_per_node=2 nccl_check.py");
	assert_contains(out, " : INFO\n");
	free(out);
	free(path);

	/* WARN only: exit 0 */
	path = tu_fixture_path(BAR0);
	out = run_command(&table, path, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	assert_contains(out, " : WARN\n");
	free(out);
	free(path);

	/* no table: still works */
	path = tu_fixture_path(R5090);
	out = run_command(NULL, path, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	assert_contains(out, "not in the table");
	free(out);
	free(path);
}

static void
test_command_json(void **state)
{
	static const char *const rels[] = { A6000, H200, A16, R5090, TWO, BAR0,
	                                    OLD };
	static const int rcs[] = { 1, 0, 1, 0, 1, 0, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rels / sizeof rels[0]; i++) {
		char *path = tu_fixture_path(rels[i]), *out;
		json_t *o, *gpus, *checks, *g, *c;
		json_error_t je;
		gw_err e;
		int rc;
		size_t k, nfail = 0;

		out = run_command(&table, path, 1, &rc, &e);
		assert_int_equal(rc, rcs[i]);
		o = json_loads(out, 0, &je);
		if (o == NULL)
			fail_msg("%s: JSON: %s", rels[i], je.text);
		assert_string_equal(json_string_value(json_object_get(o, "file")),
		                    path);
		gpus = json_object_get(o, "gpus");
		checks = json_object_get(o, "checks");
		assert_true(json_is_array(gpus));
		assert_true(json_is_array(checks));
		assert_true(json_array_size(gpus) >= 1);
		json_array_foreach(checks, k, c) {
			const char *st = json_string_value(json_object_get(c, "status"));

			assert_non_null(json_string_value(json_object_get(c, "id")));
			assert_non_null(json_string_value(json_object_get(c, "message")));
			assert_non_null(json_object_get(c, "fix"));
			assert_non_null(json_object_get(c, "gpu"));
			assert_true(strcmp(st, "pass") == 0 || strcmp(st, "info") == 0 ||
			            strcmp(st, "warn") == 0 || strcmp(st, "fail") == 0);
			nfail += strcmp(st, "fail") == 0;
		}
		assert_int_equal(json_integer_value(json_object_get(
		        json_object_get(o, "summary"), "fail")), nfail);
		assert_int_equal(nfail > 0, rcs[i]);
		g = json_array_get(gpus, 0);
		if (strcmp(rels[i], A6000) == 0) {
			assert_string_equal(json_string_value(json_object_get(o, "driver_version")),
			                    "535.183.06");
			assert_string_equal(json_string_value(json_object_get(o, "cuda_version")),
			                    "12.2");
			assert_int_equal(json_integer_value(json_object_get(o, "attached_gpus")), 1);
			assert_true(json_is_false(json_object_get(o, "host")));
			assert_string_equal(json_string_value(json_object_get(g, "bus_id")),
			                    "00000000:00:10.0");
			assert_string_equal(json_string_value(json_object_get(g, "product_name")),
			                    "NVIDIA RTXA6000-24Q");
			assert_string_equal(json_string_value(json_object_get(g, "pci_id")),
			                    "10de:2230");
			assert_string_equal(json_string_value(json_object_get(g, "subsys_id")),
			                    "10de:1504");
			assert_string_equal(json_string_value(json_object_get(g, "table_id")),
			                    "rtx-a6000");
			assert_string_equal(json_string_value(json_object_get(g, "virtualization_mode")),
			                    "VGPU");
			assert_string_equal(json_string_value(json_object_get(g, "addressing_mode")),
			                    "None");
			assert_int_equal(json_integer_value(json_object_get(g, "fb_total_mib")), 24576);
			assert_int_equal(json_integer_value(json_object_get(g, "bar1_total_mib")), 256);
			assert_string_equal(json_string_value(json_object_get(g, "license_status")),
			                    "Unlicensed (Unrestricted)");
			assert_true(json_is_null(json_object_get(o, "torchrun")));
			assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")), 128);
			c = json_array_get(checks, 4);
			assert_string_equal(json_string_value(json_object_get(c, "id")),
			                    "addressing-mode");
			assert_string_equal(json_string_value(json_object_get(c, "status")),
			                    "fail");
			assert_string_equal(json_string_value(json_object_get(c, "gpu")),
			                    "00000000:00:10.0");
			assert_contains(json_string_value(json_object_get(c, "fix")),
			                "enable_uvm = \"1\"");
			c = json_array_get(checks, 0);
			assert_true(json_is_null(json_object_get(c, "gpu")));
			assert_true(json_is_null(json_object_get(c, "fix")));
		} else if (strcmp(rels[i], H200) == 0) {
			assert_string_equal(json_string_value(json_object_get(g, "virtualization_mode")),
			                    "Pass-Through");
			assert_int_equal(json_integer_value(json_object_get(g, "fb_total_mib")), 143771);
			assert_int_equal(json_integer_value(json_object_get(g, "bar1_total_mib")), 262144);
			assert_true(json_is_null(json_object_get(g, "license_status")));
			assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")), 512);
		} else if (strcmp(rels[i], A16) == 0) {
			assert_true(json_is_true(json_object_get(o, "host")));
			assert_true(json_is_null(json_object_get(g, "addressing_mode")));
			assert_string_equal(json_string_value(json_object_get(g, "host_vgpu_mode")),
			                    "SR-IOV");
			assert_string_equal(json_string_value(json_object_get(o, "cuda_version")),
			                    "Not Found");
			assert_int_equal(json_integer_value(json_object_get(o, "attached_gpus")), 4);
			assert_true(json_is_null(json_object_get(o, "mmio_size_gb")));
		} else if (strcmp(rels[i], TWO) == 0) {
			assert_int_equal(json_array_size(gpus), 2);
			assert_string_equal(json_string_value(json_object_get(o, "torchrun")),
			                    "torchrun --nproc_per_node=2 nccl_check.py");
		}
		json_decref(o);
		free(out);
		free(path);
	}
}

static void
test_command_input_errors(void **state)
{
	char *dir, *path, *out;
	gw_err e;
	int rc;
	static const char nul[] = "GPU\0\0\0";

	(void)state;
	/* missing */
	out = run_command(&table, "/nonexistent/nvsmi.txt", 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_INPUT);
	assert_string_equal(out, "");
	assert_contains(e.msg, "/nonexistent/nvsmi.txt");
	free(out);
	/* a directory */
	dir = tu_tmpdir();
	out = run_command(&table, dir, 1, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_INPUT);
	assert_string_equal(out, "");
	assert_contains(e.msg, "directory");
	free(out);
	rmdir(dir);
	free(dir);
	/* no path */
	out = run_command(&table, "", 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_INPUT);
	assert_string_equal(out, "");
	assert_contains(e.msg, "--nvidia-smi-q");
	free(out);
	/* empty, binary, garbage: e names the file */
	{
		static const struct { const char *d; size_t n; const char *want; } in[] = {
			{ "", 0, "empty" },
			{ nul, sizeof nul - 1, "binary" },
			{ "garbage\n", 8, "not the output of nvidia-smi -q" },
		};
		size_t i;

		for (i = 0; i < sizeof in / sizeof in[0]; i++) {
			path = write_tmp(in[i].d, in[i].n, &dir);
			out = run_command(&table, path, (int)(i & 1), &rc, &e);
			assert_int_equal(rc, GW_VERIFY_INPUT);
			assert_string_equal(out, "");
			assert_contains(e.msg, path);
			assert_contains(e.msg, in[i].want);
			free(out);
			remove_tmp(path, dir);
		}
	}
	/* an unreadable file (skipped as root, who can read anything) */
	if (geteuid() != 0) {
		path = write_tmp("x", 1, &dir);
		assert_int_equal(chmod(path, 0), 0);
		out = run_command(&table, path, 0, &rc, &e);
		assert_int_equal(rc, GW_VERIFY_INPUT);
		assert_string_equal(out, "");
		free(out);
		remove_tmp(path, dir);
	}
}

/* Labels and ids. */
static void
test_status_names(void **state)
{
	(void)state;
	assert_string_equal(gw_sev_check_id(GW_SEV_PASS), "pass");
	assert_string_equal(gw_sev_check_id(GW_SEV_INFO), "info");
	assert_string_equal(gw_sev_check_id(GW_SEV_WARN), "warn");
	assert_string_equal(gw_sev_check_id(GW_SEV_ERROR), "fail");
	assert_string_equal(gw_sev_label(GW_SEV_PASS), "PASS");
	assert_string_equal(gw_sev_label(GW_SEV_ERROR), "FAIL");
	gw_nvsmi_free(NULL);
	gw_verify_free(NULL);
}

/* ---- the live guest (a fake sysroot) ------------------------------------ */

static void
lv_put(const char *root, const char *rel, const void *data, size_t len)
{
	char *p = gw_xasprintf("%s/%s", root, rel), *s;
	FILE *f;

	for (s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(p);
}

/* An NVIDIA (or other) display function: BAR0 32-bit, BAR1 64-bit
 * prefetchable of bar1 bytes (0: unassigned, config still shows it). */
static void
lv_dev(const char *root, const char *bdf, unsigned vendor, unsigned device,
       unsigned long long bar1)
{
	unsigned char cfg[64];
	char *rel, *t;
	gw_buf res;
	int i;

	memset(cfg, 0, sizeof cfg);
	cfg[0x10] = 0x00; cfg[0x13] = 0xf0;     /* BAR0 0xf0000000 */
	cfg[0x14] = 0x0c;                       /* BAR1 64-bit pref */
	if (bar1)
		cfg[0x1b] = 0x38;
	gw_buf_init(&res);
	gw_buf_puts(&res, "0x00000000f0000000 0x00000000f0ffffff 0x0000000000040200\n");
	if (bar1)
		gw_buf_printf(&res, "0x%016llx 0x%016llx 0x000000000014220c\n",
		              0x38000000000ULL, 0x38000000000ULL + bar1 - 1);
	else
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	for (i = 2; i < 13; i++)
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
#define PUT(name, ...) do { \
		rel = gw_xasprintf("sys/bus/pci/devices/%s/%s", bdf, name); \
		t = gw_xasprintf(__VA_ARGS__); \
		lv_put(root, rel, t, strlen(t)); \
		free(t); free(rel); } while (0)
	PUT("vendor", "0x%04x\n", vendor);
	PUT("device", "0x%04x\n", device);
	PUT("class", "0x%06x\n", 0x030200u);
	PUT("subsystem_vendor", "0x%04x\n", vendor);
	PUT("subsystem_device", "0x%04x\n", 0u);
	PUT("resource", "%s", res.data);
#undef PUT
	rel = gw_xasprintf("sys/bus/pci/devices/%s/config", bdf);
	lv_put(root, rel, cfg, sizeof cfg);
	free(rel);
	gw_buf_free(&res);
}

static void
lv_version(const char *root, const char *ver)
{
	char *t = gw_xasprintf("NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
	                       "%s  Fri May 31 09:35:42 UTC 2024\nGCC version:  "
	                       "gcc version 12.2.0 (Debian 12.2.0-14)\n", ver);

	lv_put(root, "proc/driver/nvidia/version", t, strlen(t));
	free(t);
}

static void
lv_rmtree(const char *root)
{
	char *cmd = gw_xasprintf("rm -rf '%s'", root);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static char *
run_live(const char *root, const char *nvsmi, const char *bundle, int json,
         int *rc, gw_err *e)
{
	char *dir = tu_tmpdir(), *out = gw_xasprintf("%s/stdout", dir), *data;
	size_t n;
	int fd, saved;
	gw_err re;

	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 1), 1);
	close(fd);
	e->msg[0] = '\0';
	*rc = gw_verify_live_command(&table, root, nvsmi, bundle, json, e);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	if (gw_read_file(out, 1u << 24, &data, &n, &re) != 0)
		fail_msg("%s", re.msg);
	unlink(out);
	rmdir(dir);
	free(out);
	free(dir);
	return data;
}

static const char *
lv_status(json_t *o, const char *id, int nth)
{
	json_t *cs = json_object_get(o, "checks");
	size_t i;

	for (i = 0; i < json_array_size(cs); i++) {
		json_t *c = json_array_get(cs, i);

		if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0 &&
		    nth-- == 0)
			return json_string_value(json_object_get(c, "status"));
	}
	return NULL;
}

static void
test_live_bars_and_driver(void **state)
{
	char *root = tu_tmpdir(), *out;
	json_t *o;
	json_error_t je;
	gw_err e;
	int rc;

	(void)state;
	/* an H200 (141 GB) with BAR1 256 GiB, new driver: all PASS */
	lv_dev(root, "0000:03:00.0", 0x10de, 0x2335, 256ULL << 30);
	lv_dev(root, "0000:00:0f.0", 0x15ad, 0x0405, 16ULL << 20);  /* SVGA */
	lv_version(root, "550.90.07");
	out = run_live(root, NULL, NULL, 1, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	o = json_loads(out, 0, &je);
	assert_non_null(o);
	assert_int_equal(json_array_size(json_object_get(o, "gpus")), 1);
	assert_string_equal(lv_status(o, "gpus", 0), "pass");
	assert_string_equal(lv_status(o, "driver", 0), "pass");
	assert_string_equal(lv_status(o, "bar1", 0), "pass");
	assert_string_equal(json_string_value(json_object_get(o, "driver_version")),
	                    "550.90.07");
	assert_true(json_is_null(json_object_get(o, "nvidia_smi_q")));
	json_decref(o);
	free(out);
	out = run_live(root, NULL, NULL, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	assert_non_null(strstr(out, "BAR1 assigned: 262144 MiB"));
	free(out);

	/* a second H200 with BAR1 unassigned, old driver: FAIL; 2 x 141 GB -> 1024 */
	lv_dev(root, "0000:04:00.0", 0x10de, 0x2335, 0);
	lv_version(root, "535.54.03");
	out = run_live(root, NULL, NULL, 1, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_FAILED);
	o = json_loads(out, 0, &je);
	assert_non_null(o);
	assert_string_equal(lv_status(o, "driver", 0), "fail");
	assert_string_equal(lv_status(o, "bar1", 0), "pass");
	assert_string_equal(lv_status(o, "bar1", 1), "fail");
	assert_int_equal(json_integer_value(json_object_get(o, "mmio_size_gb")), 1024);
	json_decref(o);
	free(out);
	out = run_live(root, NULL, NULL, 0, &rc, &e);
	assert_non_null(strstr(out, "BAR1 unassigned: the VM's 64-bit MMIO window is too small"));
	assert_non_null(strstr(out, "pciPassthru.use64bitMMIO = \"TRUE\""));
	assert_non_null(strstr(out, "pciPassthru.64bitMMIOSizeGB = \"1024\""));
	assert_non_null(strstr(out, "older than 535.129.03"));
	free(out);

	/* with a capture as well: both sets of rows */
	{
		char *cap = tu_fixture_path(H200);

		out = run_live(root, cap, NULL, 1, &rc, &e);
		assert_int_equal(rc, GW_VERIFY_FAILED);
		o = json_loads(out, 0, &je);
		assert_non_null(o);
		assert_true(json_is_object(json_object_get(o, "nvidia_smi_q")));
		assert_true(json_array_size(json_object_get(
			json_object_get(o, "nvidia_smi_q"), "checks")) > 3);
		json_decref(o);
		free(out);
		free(cap);
	}
	lv_rmtree(root);
	free(root);

	/* an unknown NVIDIA GPU with BAR1 0: gpuwiz mmio --vram; no driver */
	root = tu_tmpdir();
	lv_dev(root, "0000:05:00.0", 0x10de, 0xfffe, 0);
	out = run_live(root, NULL, NULL, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_FAILED);
	assert_non_null(strstr(out, "gpuwiz mmio --vram GB"));
	assert_non_null(strstr(out, "/proc/driver/nvidia/version"));
	free(out);
	lv_rmtree(root);
	free(root);

	/* no NVIDIA device at all: FAIL with the fix */
	root = tu_tmpdir();
	lv_dev(root, "0000:00:0f.0", 0x15ad, 0x0405, 16ULL << 20);
	out = run_live(root, NULL, NULL, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_FAILED);
	assert_non_null(strstr(out, "no NVIDIA display device"));
	assert_non_null(strstr(out, "lspci"));
	free(out);
	lv_rmtree(root);
	free(root);

	/* a missing sysroot: input error, nothing printed */
	out = run_live("/nonexistent-root", NULL, NULL, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_INPUT);
	assert_string_equal(out, "");
	assert_non_null(strstr(e.msg, "/nonexistent-root"));
	free(out);
}

/* The NVRM line as the kernel module may write it: blanks other than
 * spaces and tabs (a CR of a copied file, a form feed) before or without
 * a version.  Each read ends (an alarm fails the test when one hangs). */
static void
test_live_version_blanks(void **state)
{
	static const struct {
		const char *text, *version;
	} cases[] = {
		{ "NVRM version: NVIDIA UNIX x86_64 Kernel Module\r\nGCC version: 12.2.0\r\n", NULL },
		{ "NVRM version: NVIDIA UNIX x86_64 Kernel Module\f 550.90.07  Fri\n", "550.90.07" },
		{ "NVRM version:\r 535.54.03\v\n", "535.54.03" },
		{ "NVRM version: \r\n550.90.07\n", NULL },
	};
	char *root = tu_tmpdir();
	gw_live_sys l;
	gw_err e;

	(void)state;
	alarm(20);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lv_put(root, "proc/driver/nvidia/version", cases[i].text,
		       strlen(cases[i].text));
		assert_int_equal(gw_live_scan(&l, NULL, root, &e), 0);
		if (cases[i].version)
			assert_string_equal(l.driver_version, cases[i].version);
		else
			assert_null(l.driver_version);
		gw_live_free(&l);
	}
	alarm(0);
	lv_rmtree(root);
	free(root);
}

static void
test_live_bundle(void **state)
{
	char *root = tu_tmpdir(), *dir = tu_tmpdir(), *out, *bundle, *cmd;
	char *cap = tu_fixture_path(H200);
	char line[512];
	gw_buf members;
	FILE *p;
	gw_err e;
	int rc;
	static const char *const want[] = {
		"gpuwiz-support/README.txt", "gpuwiz-support/verify.txt",
		"gpuwiz-support/verify.json", "gpuwiz-support/nvidia-smi-q.txt",
		"gpuwiz-support/proc-driver-nvidia-version.txt",
		"gpuwiz-support/proc-cmdline.txt", "gpuwiz-support/lspci.txt",
	};
	size_t i;

	(void)state;
	lv_dev(root, "0000:03:00.0", 0x10de, 0x2335, 256ULL << 30);
	lv_version(root, "550.90.07");
	lv_put(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz ro\n", 23);
	lv_put(root, "etc/nvidia/ClientConfigToken/client_configuration_token.tok",
	       "SECRET", 6);
	bundle = gw_xasprintf("%s/support.tar.gz", dir);
	out = run_live(root, cap, bundle, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_OK);
	assert_non_null(strstr(out, "Result:"));
	free(out);
	cmd = gw_xasprintf("tar -tzf '%s'", bundle);
	p = popen(cmd, "r");
	assert_non_null(p);
	gw_buf_init(&members);
	gw_buf_puts(&members, "");
	while (fgets(line, sizeof line, p) != NULL) {
		assert_null(strstr(line, "ClientConfigToken"));
		assert_null(strstr(line, ".tok"));
		gw_buf_puts(&members, line);
	}
	assert_int_equal(pclose(p), 0);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		if (strstr(members.data, want[i]) == NULL)
			fail_msg("missing %s in:\n%s", want[i], members.data);
	gw_buf_free(&members);
	free(cmd);
	/* the README says what it never holds */
	cmd = gw_xasprintf("tar -xzOf '%s' gpuwiz-support/README.txt", bundle);
	p = popen(cmd, "r");
	assert_non_null(p);
	{
		char buf[8192];
		size_t n = fread(buf, 1, sizeof buf - 1, p);

		buf[n] = '\0';
		assert_non_null(strstr(buf, "ClientConfigToken"));
		assert_non_null(strstr(buf, "no ssh keys"));
	}
	assert_int_equal(pclose(p), 0);
	free(cmd);

	/* no overwrite: one error, nothing printed, file untouched */
	out = run_live(root, NULL, bundle, 0, &rc, &e);
	assert_int_equal(rc, GW_VERIFY_INPUT);
	assert_string_equal(out, "");
	assert_non_null(strstr(e.msg, "exists"));
	assert_null(strchr(e.msg, '\n'));
	free(out);
	/* nothing left behind but the bundle */
	cmd = gw_xasprintf("[ $(ls -A '%s' | wc -l) -eq 1 ]", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	unlink(bundle);
	rmdir(dir);
	free(dir);
	free(bundle);
	free(cap);
	lv_rmtree(root);
	free(root);
}

/* ---- expert checks (doc/design.md, section 15.9) ------------------------- */

#define BIG_RESTRICTED \
	"nvidia-smi/synthetic-rtxa6000-vgpu-guest-bar1-64g-restricted.txt"
#define CUDA_OLD \
	"nvidia-smi/synthetic-rtxa6000-24q-vgpu-guest-driver-535-cuda-12.0.txt"

/* Unlicensed (Unrestricted) is the grace period (the real A6000-24Q
 * capture); Unlicensed (Restricted) means it has ended (NVML's license
 * states; doc/design.md, section 15.9). */
static void
test_license_states(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, A6000);
	gw_verify_run(&q, &table, &v);
	c = need_check(&v, "license", 0, GW_SEV_WARN);
	assert_contains(c->message, "still in the licence grace period");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	parse_sample(&q, BIG_RESTRICTED);
	assert_string_equal(q.gpus[0].license_status, "Unlicensed (Restricted)");
	gw_verify_run(&q, &table, &v);
	assert_rows_sane(&q, &v);
	c = need_check(&v, "license", 0, GW_SEV_ERROR);
	assert_contains(c->message, "grace period has ended");
	assert_contains(c->fix, "ClientConfigToken");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	/* another unlicensed state keeps the general warning */
	{
		char *s = sample_with(A6000, "Unlicensed (Unrestricted)",
		                      "Unlicensed", NULL);

		verify_text(s, &q, &v);
		c = need_check(&v, "license", 0, GW_SEV_WARN);
		assert_contains(c->message, "once its grace period ends");
		gw_verify_free(&v);
		gw_nvsmi_free(&q);
		free(s);
	}
}

/* A vGPU BAR1 of 64 GiB is not "small"; the real 256 MiB one is. */
static void
test_vgpu_bar1_large(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, BIG_RESTRICTED);
	assert_int_equal(q.gpus[0].bar1_total_mib, 65536);
	gw_verify_run(&q, &table, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_PASS);
	assert_contains(c->message, "65536 MiB");
	if (strstr(c->message, "small") != NULL)
		fail_msg("a 64 GiB vGPU BAR1 called small: %s", c->message);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	parse_sample(&q, A6000);
	gw_verify_run(&q, &table, &v);
	c = need_check(&v, "bar1", 0, GW_SEV_PASS);
	assert_contains(c->message, "small BAR1");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

/* Driver 535 or newer with an old CUDA: the CUDA side, not the driver
 * (NVIDIA CUDA Compatibility guide); an old driver keeps the driver fix. */
static void
test_cuda_with_new_driver(void **state)
{
	gw_nvsmi q;
	gw_verify v;
	const gw_finding *c;

	(void)state;
	parse_sample(&q, CUDA_OLD);
	assert_string_equal(q.driver_version, "535.183.06");
	assert_string_equal(q.cuda_version, "12.0");
	gw_verify_run(&q, &table, &v);
	need_check(&v, "driver", -1, GW_SEV_PASS);
	c = need_check(&v, "cuda", -1, GW_SEV_ERROR);
	assert_contains(c->fix, "do not reinstall it");
	assert_contains(c->fix, "cuda-compat");
	if (strstr(c->fix, "Install NVIDIA driver") != NULL)
		fail_msg("driver reinstall advised: %s", c->fix);
	gw_verify_free(&v);
	gw_nvsmi_free(&q);

	parse_sample(&q, OLD);
	gw_verify_run(&q, &table, &v);
	c = need_check(&v, "cuda", -1, GW_SEV_ERROR);
	assert_contains(c->fix, "Install NVIDIA driver 535.129.03");
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_cmp),
		cmocka_unit_test(test_sample_rtxa6000_vgpu),
		cmocka_unit_test(test_sample_h200_passthrough),
		cmocka_unit_test(test_sample_a16_host),
		cmocka_unit_test(test_sample_rtx5090_baremetal),
		cmocka_unit_test(test_sample_with_source_line),
		cmocka_unit_test(test_two_vgpus),
		cmocka_unit_test(test_bar1_zero_passthrough),
		cmocka_unit_test(test_old_driver),
		cmocka_unit_test(test_driver_cuda_unreadable),
		cmocka_unit_test(test_vgpu_addressing),
		cmocka_unit_test(test_addressing_values),
		cmocka_unit_test(test_sample_v100d_attached_vgpus),
		cmocka_unit_test(test_driver_r610_lines),
		cmocka_unit_test(test_host_active_vgpus),
		cmocka_unit_test(test_bar1_variants),
		cmocka_unit_test(test_fb_variants),
		cmocka_unit_test(test_unknown_gpu),
		cmocka_unit_test(test_vgpu_shared_pci_id),
		cmocka_unit_test(test_host_two_gpus_no_torchrun),
		cmocka_unit_test(test_partial_capture),
		cmocka_unit_test(test_parse_crlf_bom_indent),
		cmocka_unit_test(test_parse_structure),
		cmocka_unit_test(test_parse_concatenated),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_parse_smi_errors),
		cmocka_unit_test(test_command_text),
		cmocka_unit_test(test_command_json),
		cmocka_unit_test(test_command_input_errors),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_live_bars_and_driver),
		cmocka_unit_test(test_live_version_blanks),
		cmocka_unit_test(test_live_bundle),
		cmocka_unit_test(test_license_states),
		cmocka_unit_test(test_vgpu_bar1_large),
		cmocka_unit_test(test_cuda_with_new_driver),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
