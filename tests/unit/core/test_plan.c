/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_plan.c: the plan on the real GPU table and real .vmx samples. */

/* GCC 12 misreports -Wdangling-pointer in testutil.h's tu_read_sample()
 * once inlined here: tu_read_fixture() passes &data to gw_read_file(), so
 * GCC assumes data may point at its own (dead) stack slot.  The code is
 * correct; the warning is silenced for this file only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "plan.h"
#include "mmio.h"

#define P40_FRAGMENT \
	"vmx/HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx"
#define WS_HW11   "vmx/ws-hw11-ubuntu-shebang-utf8.vmx"
#define WS_HW16_EFI "vmx/ws-hw16-win10-efi-windows1252-crlf.vmx"
#define WS_HW21   "vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx"
#define WS_HW19   "vmx/ws-win10-utf8-chinese-sharedfolder-crlf.vmx"
#define WS_HW20   "vmx/ws-archlinux-otherlinux5x-crlf.vmx"
#define MALFORMED "vmx/synthetic-malformed-lines.vmx"
#define SYSID     "65106d9a-406e-5fda-b7ab-b8ca3a63b8b4"

static gw_table table;

TU_TABLE_GROUP(setup_table, teardown_table)

/* A real sample (source line stripped) with extra lines appended. */
static gw_vmx *
sample(const char *rel, const char *extra)
{
	gw_buf b;
	char *data;
	size_t n = 0;
	gw_vmx *v = NULL;
	gw_err e;

	data = tu_read_sample(rel, &n);
	gw_buf_init(&b);
	gw_buf_add(&b, data, n);
	free(data);
	if (extra)
		gw_buf_puts(&b, extra);
	if (gw_vmx_parse(&v, b.data, b.len, rel, &e) != 0)
		fail_msg("%s", e.msg);
	gw_buf_free(&b);
	return v;
}

static void
add_gpu(gw_answers *a, const char *spec)
{
	gw_err e;

	if (gw_answers_add_gpu(a, &table, spec, "--gpu", &e) != 0)
		fail_msg("%s", e.msg);
}

static void
build(const gw_answers *a, const gw_vmx *v, gw_plan *p)
{
	gw_err e;

	if (gw_plan_build(a, &table, v, p, &e) != 0)
		fail_msg("plan: %s", e.msg);
}

static const gw_setting *
setting(const gw_plan *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (gw_strieq(p->settings[i].key, key))
			return &p->settings[i];
	return NULL;
}

static const char *
value(const gw_plan *p, const char *key)
{
	const gw_setting *s = setting(p, key);

	return s ? s->value : NULL;
}

static const gw_finding *
finding(const gw_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return &p->findings[i];
	return NULL;
}

static int
has_step(const gw_plan *p, const char *needle)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		if (strstr(p->steps[i], needle))
			return 1;
	return 0;
}

static int
has_key_prefix(const gw_plan *p, const char *prefix)
{
	size_t i, n = strlen(prefix);

	for (i = 0; i < p->nsettings; i++)
		if (strncmp(p->settings[i].key, prefix, n) == 0)
			return 1;
	return 0;
}

/* Every setting carries a reason and a source; every finding a message. */
static void
check_shape(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++) {
		assert_non_null(p->settings[i].reason);
		assert_true(p->settings[i].reason[0] != '\0');
		assert_non_null(p->settings[i].source);
		/* never a firmware flip */
		assert_false(gw_strieq(p->settings[i].key, "firmware"));
	}
	for (i = 0; i < p->nfindings; i++) {
		assert_non_null(p->findings[i].message);
		assert_non_null(p->findings[i].id);
	}
	assert_non_null(p->name);
	assert_null(strchr(p->name, '.'));
}

/* ---- MMIO sizing ----------------------------------------------------- */

static void
test_one_l40s(void **state)
{
	gw_answers a;
	gw_plan p;
	const gw_setting *s;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, NULL, &p);
	check_shape(&p);
	assert_int_equal(p.total_vram_gb, 48);
	assert_int_equal(p.rule_gb, 128);
	/* BAR1 64 GiB + BAR3 32 MiB -> 128 */
	assert_int_equal(p.bar_gb, 128);
	assert_int_equal(p.mmio_gb, 128);
	assert_true(has_step(&p, "Total framebuffer: 1 x l40s 48 GB = 48 GB"));
	assert_true(has_step(&p, "48 is not a power of two: round up to 64, "
	                         "then double: 128 GB"));
	assert_true(has_step(&p, "Broadcom KB 323402"));
	assert_true(has_step(&p, "BAR1 64 GiB + BAR3 32 MiB"));
	assert_true(has_step(&p, "end at 64 GiB + 32 MiB"));
	assert_true(has_step(&p, "rule (128 GB) and the BAR-based need "
	                         "(128 GB): 128 GB"));
	assert_string_equal(value(&p, "pciPassthru.use64bitMMIO"), "TRUE");
	s = setting(&p, "pciPassthru.64bitMMIOSizeGB");
	assert_non_null(s);
	assert_string_equal(s->value, "128");
	assert_string_equal(s->source, "Broadcom KB 323402");
	assert_int_equal(s->kind, GW_SET_MMIO);
	assert_null(s->old_value);
	assert_false(s->keep);
	assert_int_equal(p.n_passthru, 1);
	assert_int_equal(p.n_vgpu, 0);
	assert_string_equal(p.name, "gpu-l40s");
	assert_non_null(finding(&p, "firmware-efi"));
	assert_false(gw_plan_has_errors(&p));
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_two_a100_80(void **state)
{
	gw_answers a;
	gw_plan p;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "a100-80g-pcie=2");
	assert_int_equal(a.gpus[0].count, 2);
	build(&a, NULL, &p);
	assert_int_equal(p.total_vram_gb, 160);
	assert_int_equal(p.rule_gb, 512);
	assert_int_equal(p.bar_gb, 0);          /* BAR1 unknown in the table */
	assert_int_equal(p.mmio_gb, 512);
	assert_true(has_step(&p, "2 x a100-80g-pcie 80 GB = 160 GB"));
	assert_true(has_step(&p, "160 is not a power of two: round up to "
	                         "256, then double: 512 GB"));
	assert_true(has_step(&p, "BAR sizes unknown for a100-80g-pcie"));
	assert_string_equal(value(&p, "pciPassthru.64bitMMIOSizeGB"), "512");
	assert_int_equal(p.n_passthru, 2);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* the same GPU by PCI id */
	gw_answers_init(&a);
	add_gpu(&a, "10de:20b5=2");
	build(&a, NULL, &p);
	assert_int_equal(p.mmio_gb, 512);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_two_h100_bars(void **state)
{
	gw_answers a;
	gw_plan p;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "h100-sxm=2");
	build(&a, NULL, &p);
	/* 160 -> 512; BARs 2 x (128 GiB + 32 MiB) = 256 GiB + 64 MiB -> 512 */
	assert_int_equal(p.rule_gb, 512);
	assert_int_equal(p.bar_gb, 512);
	assert_true(has_step(&p, "end at 256 GiB + 64 MiB"));
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_vgpu_h100xm(void **state)
{
	gw_answers a;
	gw_plan p;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "grid_h100xm-80c");
	assert_non_null(a.gpus[0].profile);
	assert_string_equal(a.gpus[0].profile, "grid_h100xm-80c");
	assert_string_equal(a.gpus[0].gpu->id, "h100-sxm");
	build(&a, NULL, &p);
	check_shape(&p);
	assert_int_equal(p.total_vram_gb, 80);
	assert_int_equal(p.mmio_gb, 256);
	/* vGPUs are sized by the rule; their BARs are virtual */
	assert_int_equal(p.bar_gb, 0);
	assert_true(has_step(&p, "physical GPU's whole framebuffer"));
	assert_int_equal(p.n_vgpu, 1);
	assert_int_equal(p.n_passthru, 0);
	/* no .vmx: no device block */
	assert_false(has_key_prefix(&p, "pciPassthru0."));
	assert_non_null(finding(&p, "uvm-suggest"));
	assert_string_equal(p.name, "gpu-grid_h100xm-80c");
	/* the plan uses ESXi's spelling of the H100 SXM profiles and says so */
	assert_string_equal(p.gpus[0].profile, "nvidia_h100xm-80c");
	assert_non_null(finding(&p, "vgpu-profile-spelling"));
	assert_non_null(strstr(finding(&p, "vgpu-profile-spelling")->message,
	                       "nvidia_h100xm-80c"));
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_vgpu_l40s_follows_physical(void **state)
{
	gw_answers a;
	gw_plan p;

	(void)state;
	gw_answers_init(&a);
	/* a 48 GB profile and a 4 GB profile both follow the 48 GB GPU */
	add_gpu(&a, "grid_l40s-48c");
	build(&a, NULL, &p);
	assert_int_equal(p.total_vram_gb, 48);
	assert_int_equal(p.mmio_gb, 128);
	gw_plan_free(&p);
	gw_answers_free(&a);

	gw_answers_init(&a);
	add_gpu(&a, "NVIDIA_L40S-4C");
	assert_string_equal(a.gpus[0].profile, "nvidia_l40s-4c");
	build(&a, NULL, &p);
	assert_int_equal(p.total_vram_gb, 48);
	assert_int_equal(p.mmio_gb, 128);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_vram_only(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_vram(&a, "24=2", "--vram", &e), 0);
	build(&a, NULL, &p);
	/* the KB's own example: 2 x 24 = 48 -> 64 -> 128 */
	assert_int_equal(p.total_vram_gb, 48);
	assert_int_equal(p.mmio_gb, 128);
	assert_true(has_step(&p, "2 x 24 GB (given by size) = 48 GB"));
	assert_string_equal(p.name, "gpu-24gb");
	gw_plan_free(&p);
	gw_answers_free(&a);

	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_vram(&a, "64", "--vram", &e), 0);
	build(&a, NULL, &p);
	assert_true(has_step(&p, "64 is a power of two: take the next power "
	                         "of two: 128 GB"));
	assert_int_equal(p.mmio_gb, 128);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_p40_fragment_plus_l40s(void **state)
{
	gw_vmx *v = sample(P40_FRAGMENT, NULL);
	gw_answers a;
	gw_plan p;
	const gw_setting *s;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, v, &p);
	check_shape(&p);
	/* existing P40 (0x10de:0x1b38, 24 GB) counted: 24 + 48 = 72 -> 256 */
	assert_int_equal(p.total_vram_gb, 72);
	assert_int_equal(p.rule_gb, 256);
	/* BARs: 64 GiB + 32 GiB + 2 x 32 MiB -> 128 */
	assert_int_equal(p.bar_gb, 128);
	assert_int_equal(p.existing_gb, 128);
	assert_int_equal(p.mmio_gb, 256);
	assert_true(has_step(&p, "1 x p40 24 GB (in the .vmx) + 1 x l40s 48 GB "
	                         "= 72 GB"));
	s = setting(&p, "pciPassthru.64bitMMIOSizeGB");
	assert_string_equal(s->value, "256");
	assert_string_equal(s->old_value, "128");
	assert_false(s->keep);
	assert_non_null(finding(&p, "mmio-raised"));
	s = setting(&p, "pciPassthru.use64bitMMIO");
	assert_true(s->keep);
	/* the fragment has no memsize: reservation unknown, nothing written */
	assert_non_null(finding(&p, "memory-unknown"));
	assert_int_equal(finding(&p, "memory-unknown")->sev, GW_SEV_WARN);
	assert_null(setting(&p, "sched.mem.min"));
	/* no BDF: the L40S is counted but not written */
	assert_non_null(finding(&p, "devices-without-address"));
	assert_false(has_key_prefix(&p, "pciPassthru1."));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static void
test_p40_fragment_larger_kept(void **state)
{
	gw_vmx *v = sample(P40_FRAGMENT, NULL);
	gw_answers a;
	gw_plan p;
	const gw_setting *s;

	(void)state;
	/* no GPU asked: the plan sizes the GPUs already in the .vmx */
	gw_answers_init(&a);
	build(&a, v, &p);
	assert_int_equal(p.total_vram_gb, 24);
	assert_int_equal(p.rule_gb, 64);
	assert_int_equal(p.bar_gb, 64);    /* 32 GiB + 32 MiB -> 64 */
	assert_int_equal(p.mmio_gb, 128);  /* the existing, larger value */
	s = setting(&p, "pciPassthru.64bitMMIOSizeGB");
	assert_true(s->keep);
	assert_string_equal(s->value, "128");
	assert_int_equal(finding(&p, "mmio-kept")->sev, GW_SEV_INFO);
	assert_string_equal(p.name, "gpu-p40");
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static void
test_bdf_new_block(void **state)
{
	gw_vmx *v = sample(P40_FRAGMENT, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;
	const gw_setting *s;

	(void)state;
	/* Move the fragment's P40 to 0000:43:00.0, then attach an L40S at
	 * 0000:42:00.0: it gets the next free index after pciPassthru0. */
	assert_int_equal(gw_vmx_set(v, "pciPassthru0.id", "0:67:0.0", &e), 0);
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, "--system-id", &e),
	                 0);
	build(&a, v, &p);
	check_shape(&p);
	assert_string_equal(value(&p, "pciPassthru1.present"), "TRUE");
	assert_string_equal(value(&p, "pciPassthru1.id"), "00000:066:00.0");
	assert_string_equal(value(&p, "pciPassthru1.deviceId"), "0x26b9");
	assert_string_equal(value(&p, "pciPassthru1.vendorId"), "0x10de");
	assert_string_equal(value(&p, "pciPassthru1.systemId"), SYSID);
	s = setting(&p, "pciPassthru1.id");
	assert_int_equal(s->kind, GW_SET_DEVICE);
	assert_null(s->old_value);
	assert_null(finding(&p, "devices-without-address"));
	assert_int_equal(p.total_vram_gb, 72);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* no .vmx: the block starts at pciPassthru0; short BDF form */
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	assert_int_equal(gw_answers_add_bdf(&a, "3b:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:af:00.0", "--bdf", &e),
	                 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, "--system-id", &e),
	                 0);
	build(&a, NULL, &p);
	assert_string_equal(value(&p, "pciPassthru0.id"), "00000:059:00.0");
	assert_string_equal(value(&p, "pciPassthru1.id"), "00000:175:00.0");
	assert_int_equal(p.n_passthru, 2);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_bdf_already_attached(void **state)
{
	gw_vmx *v = sample(P40_FRAGMENT, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;
	const gw_finding *f;

	(void)state;
	/* The fragment's pciPassthru0 is "0:66:0.0" = host 0000:42:00.0 */
	gw_answers_init(&a);
	add_gpu(&a, "p40");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, "--system-id", &e),
	                 0);
	build(&a, v, &p);
	f = finding(&p, "device-already-attached");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "pciPassthru0"));
	assert_false(has_key_prefix(&p, "pciPassthru1."));
	assert_null(setting(&p, "pciPassthru0.id"));
	/* counted once */
	assert_int_equal(p.total_vram_gb, 24);
	assert_int_equal(p.n_passthru, 0);
	gw_plan_free(&p);

	/* two P40s asked, one of them already there: one counted on top,
	 * and it has no address */
	a.gpus[0].count = 2;
	build(&a, v, &p);
	assert_int_equal(p.total_vram_gb, 48);
	assert_int_equal(p.n_passthru, 1);
	assert_non_null(strstr(finding(&p, "devices-without-address")->message,
	                       "1 passthrough"));
	gw_plan_free(&p);
	a.gpus[0].count = 1;

	/* the same with the id in the long decimal form */
	assert_int_equal(gw_vmx_set(v, "pciPassthru0.id", "00000:066:00.0", &e),
	                 0);
	build(&a, v, &p);
	assert_non_null(finding(&p, "device-already-attached"));
	assert_false(has_key_prefix(&p, "pciPassthru1."));
	assert_int_equal(p.total_vram_gb, 24);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* a stale systemId on the attached block is corrected */
	gw_answers_init(&a);
	add_gpu(&a, "p40");
	assert_int_equal(gw_answers_add_bdf(&a, "42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a,
	                 "00000000-1111-2222-3333-444444444444", "--system-id",
	                 &e), 0);
	build(&a, v, &p);
	assert_string_equal(value(&p, "pciPassthru0.systemId"),
	                    "00000000-1111-2222-3333-444444444444");
	assert_string_equal(setting(&p, "pciPassthru0.systemId")->old_value,
	                    SYSID);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* a different GPU asked at that address: warned, both counted */
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, "--system-id", &e),
	                 0);
	build(&a, v, &p);
	assert_int_equal(finding(&p, "device-mismatch")->sev, GW_SEV_WARN);
	assert_false(has_key_prefix(&p, "pciPassthru1."));
	assert_int_equal(p.total_vram_gb, 72);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* A pciPassthruN.id holding the host address in hexadecimal (lspci's
 * 0000:3b:00.0, as a wrong guide says) is rewritten in ESXi's decimal form
 * with a WARN; the decimal and the short forms are left alone. */
static void
test_hex_id(void **state)
{
	static const char *const kept[] = { "00000:059:00.0", "0:59:0.0" };
	gw_answers a;
	gw_plan p;
	gw_vmx *v;
	const gw_finding *f;
	size_t i;
	char extra[256];

	(void)state;
	gw_answers_init(&a);
	v = sample("vmx/ws-hw16-win10-efi-windows1252-crlf.vmx",
	           "pciPassthru0.present = \"TRUE\"\r\n"
	           "pciPassthru0.id = \"0000:3b:00.0\"\r\n"
	           "pciPassthru0.vendorId = \"0x10de\"\r\n"
	           "pciPassthru0.deviceId = \"0x26b9\"\r\n");
	build(&a, v, &p);
	assert_string_equal(value(&p, "pciPassthru0.id"), "00000:059:00.0");
	assert_string_equal(setting(&p, "pciPassthru0.id")->old_value,
	                    "0000:3b:00.0");
	f = finding(&p, "vmx-id-hex");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "No device hints found"));
	assert_non_null(strstr(f->fix_ui, "00000:059:00.0"));
	/* still one GPU, counted for MMIO */
	assert_int_equal(p.total_vram_gb, 48);
	gw_plan_free(&p);
	gw_vmx_free(v);
	/* the same device given again by its address is the one attached */
	add_gpu(&a, "l40s");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:3b:00.0", "--bdf", NULL), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, NULL), 0);
	v = sample("vmx/ws-hw16-win10-efi-windows1252-crlf.vmx",
	           "pciPassthru0.present = \"TRUE\"\r\n"
	           "pciPassthru0.id = \"0000:3b:00.0\"\r\n"
	           "pciPassthru0.vendorId = \"0x10de\"\r\n"
	           "pciPassthru0.deviceId = \"0x26b9\"\r\n");
	build(&a, v, &p);
	assert_non_null(finding(&p, "device-already-attached"));
	assert_null(setting(&p, "pciPassthru1.present"));
	assert_string_equal(value(&p, "pciPassthru0.id"), "00000:059:00.0");
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_free(&a);
	for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		gw_answers_init(&a);
		snprintf(extra, sizeof extra,
		         "pciPassthru0.present = \"TRUE\"\r\n"
		         "pciPassthru0.id = \"%s\"\r\n"
		         "pciPassthru0.vendorId = \"0x10de\"\r\n"
		         "pciPassthru0.deviceId = \"0x26b9\"\r\n", kept[i]);
		v = sample("vmx/ws-hw16-win10-efi-windows1252-crlf.vmx", extra);
		build(&a, v, &p);
		assert_null(finding(&p, "vmx-id-hex"));
		assert_null(setting(&p, "pciPassthru0.id"));
		gw_plan_free(&p);
		gw_vmx_free(v);
		gw_answers_free(&a);
	}
}

static void
test_bdf_errors(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	/* BDF without system id */
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "--system-id"));
	/* ... and in the wizard's words, its field */
	assert_non_null(strstr(gw_err_text(&e, 1), "\"Host system id\""));
	assert_null(strstr(gw_err_text(&e, 1), "--"));
	assert_ptr_equal(gw_err_text(&e, 0), e.msg);
	/* more BDFs than passthrough GPUs */
	assert_int_equal(gw_answers_add_bdf(&a, "0000:43:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "--bdf: 2 host PCI addresses given but "
	                              "only 1 passthrough GPU is being added"));
	assert_non_null(strstr(gw_err_text(&e, 1), "\"Host PCI addresses\" has "
	                       "2 addresses but only 1 passthrough GPU is chosen"));
	gw_answers_free(&a);

	/* vGPUs do not take a BDF */
	gw_answers_init(&a);
	add_gpu(&a, "grid_l40s-48c");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "only 0 passthrough"));
	gw_answers_free(&a);

	/* a BDF paired with a GPU given only by size */
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_vram(&a, "48", NULL, &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "only by size"));
	gw_answers_free(&a);
}

static const char VGPU0[] =
	"pciPassthru0.present = \"TRUE\"\n"
	"pciPassthru0.vgpu = \"nvidia_l40s-48c\"\n";

static void
test_uvm_existing_and_new_vgpu(void **state)
{
	gw_vmx *v = sample(WS_HW21, VGPU0);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	/* the VM ends with two: the one in the file counts (the typed
	 * spelling matches ESXi's), one is added, written as ESXi names it */
	add_gpu(&a, "grid_l40s-48c=2");
	a.uvm = 1;
	build(&a, v, &p);
	check_shape(&p);
	/* the reservation's reason names the vGPU: no passthrough here */
	assert_non_null(strstr(setting(&p, "sched.mem.min")->reason,
	                       "a VM with a vGPU needs it"));
	assert_null(strstr(setting(&p, "sched.mem.minSize")->reason,
	                   "passthrough"));
	/* both vGPUs counted at the physical 48 GB: 96 -> 256 */
	assert_int_equal(p.total_vram_gb, 96);
	assert_int_equal(p.mmio_gb, 256);
	/* the new vGPU gets a block at the next free index */
	assert_string_equal(value(&p, "pciPassthru1.present"), "TRUE");
	assert_string_equal(value(&p, "pciPassthru1.vgpu"), "nvidia_l40s-48c");
	/* enable_uvm on EVERY vGPU, the existing one included */
	assert_string_equal(value(&p, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(value(&p, "pciPassthru1.cfg.enable_uvm"), "1");
	assert_int_equal(setting(&p, "pciPassthru0.cfg.enable_uvm")->kind,
	                 GW_SET_UVM);
	f = finding(&p, "uvm-vmotion");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "vMotion"));
	/* the fix answers the cost named (no live migration), not how to
	 * set the key */
	assert_non_null(strstr(f->fix, "move it cold"));
	assert_null(strstr(f->fix, "power-cycle"));
	assert_non_null(strstr(f->fix_ui, "move it cold"));
	f = finding(&p, "vgpu-vmx-spelling");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "not documented"));
	assert_null(finding(&p, "uvm-a100-p2p"));
	assert_int_equal(p.n_vgpu, 1);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* vGPU in the file, --uvm not asked: suggested, nothing written */
	gw_answers_init(&a);
	build(&a, v, &p);
	assert_int_equal(finding(&p, "uvm-suggest")->sev, GW_SEV_INFO);
	assert_non_null(strstr(finding(&p, "uvm-suggest")->message, "2.27"));
	assert_false(has_key_prefix(&p, "pciPassthru0.cfg"));
	assert_int_equal(p.mmio_gb, 128);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* The seed-001 VM: vGPUs already in the .vmx, no GPU asked for, --uvm:
 * enable_uvm on every vGPU and nothing else; the reason and costs as
 * findings of topic vGPU with NVIDIA's document as source. */
static const char VGPU01[] =
	"pciPassthru0.present = \"TRUE\"\n"
	"pciPassthru0.vgpu = \"nvidia_l40s-24c\"\n"
	"pciPassthru1.present = \"TRUE\"\n"
	"pciPassthru1.vgpu = \"nvidia_l40s-24c\"\n"
	"memSize = \"65536\"\n"
	"sched.mem.min = \"65536\"\n"
	"sched.mem.minSize = \"65536\"\n"
	"sched.mem.pin = \"TRUE\"\n"
	"pciPassthru.use64bitMMIO = \"TRUE\"\n"
	"pciPassthru.64bitMMIOSizeGB = \"256\"\n";

static void
test_uvm_existing_only(void **state)
{
	gw_vmx *v = sample(WS_HW21, VGPU01), *none = sample(WS_HW21, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;
	gw_err e;
	size_t i, nchange = 0;

	(void)state;
	gw_answers_init(&a);
	a.uvm = 1;
	build(&a, v, &p);
	check_shape(&p);
	assert_int_equal(p.total_vram_gb, 96);      /* the existing vGPUs */
	assert_int_equal(p.mmio_gb, 256);
	assert_int_equal(p.n_vgpu, 0);              /* none added */
	for (i = 0; i < p.nsettings; i++)
		if (!p.settings[i].keep) {
			nchange++;
			assert_int_equal(p.settings[i].kind, GW_SET_UVM);
		}
	assert_int_equal(nchange, 2);
	assert_string_equal(value(&p, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(value(&p, "pciPassthru1.cfg.enable_uvm"), "1");
	assert_null(setting(&p, "pciPassthru2.present"));
	f = finding(&p, "uvm-nccl");
	assert_non_null(f);
	assert_int_equal(f->topic, GW_TOPIC_VGPU);
	assert_string_equal(f->source, "NVIDIA AI Enterprise documentation");
	assert_non_null(strstr(f->message, "ncclCommInitRank"));
	assert_non_null(strstr(f->message, "2 vGPU"));
	f = finding(&p, "uvm-vmotion");
	assert_non_null(f);
	assert_int_equal(f->topic, GW_TOPIC_VGPU);
	assert_null(finding(&p, "uvm-suggest"));
	assert_false(gw_plan_has_errors(&p));
	gw_plan_free(&p);

	/* not asked: suggested, with the reason */
	a.uvm = 0;
	build(&a, v, &p);
	assert_non_null(finding(&p, "uvm-suggest"));
	assert_null(finding(&p, "uvm-nccl"));
	assert_false(has_key_prefix(&p, "pciPassthru0.cfg"));
	gw_plan_free(&p);

	/* neither a GPU asked for nor one in the VM: refused, clearly */
	a.uvm = 1;
	assert_int_equal(gw_plan_build(&a, &table, none, &p, &e), -1);
	assert_non_null(strstr(e.msg, "no GPU to plan for"));
	assert_non_null(strstr(e.msg, "the .vmx has no GPU device"));
	/* and without a .vmx: the sizing message as before */
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "no GPU to plan for"));
	gw_answers_free(&a);
	gw_vmx_free(v);
	gw_vmx_free(none);
}

static void
test_uvm_a100_and_snippets(void **state)
{
	gw_answers a;
	gw_plan p;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "grid_a100d-80c=2");
	assert_string_equal(a.gpus[0].profile, "grid_a100d-80c");
	a.uvm = 1;
	build(&a, NULL, &p);
	assert_string_equal(value(&p, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(value(&p, "pciPassthru1.cfg.enable_uvm"), "1");
	assert_null(setting(&p, "pciPassthru2.cfg.enable_uvm"));
	assert_non_null(finding(&p, "uvm-a100-p2p"));
	assert_non_null(strstr(finding(&p, "uvm-a100-p2p")->message, "NVLink"));
	assert_int_equal(p.mmio_gb, 512);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* --uvm without vGPUs: nothing to set */
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	a.uvm = 1;
	build(&a, NULL, &p);
	assert_non_null(finding(&p, "uvm-no-vgpu"));
	assert_false(has_key_prefix(&p, "pciPassthru0."));
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_firmware(void **state)
{
	gw_vmx *bios = sample(WS_HW11, NULL), *efi = sample(WS_HW16_EFI, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, bios, &p);
	check_shape(&p);
	f = finding(&p, "firmware-bios");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(f->fix);
	assert_non_null(strstr(f->fix, "EFI mode"));
	assert_null(setting(&p, "firmware"));
	gw_plan_free(&p);

	build(&a, efi, &p);
	check_shape(&p);
	assert_null(finding(&p, "firmware-bios"));
	assert_null(finding(&p, "firmware-efi"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(bios);
	gw_vmx_free(efi);
}

static void
test_memory_reservation(void **state)
{
	gw_vmx *v = sample(WS_HW11, NULL);
	gw_answers a;
	gw_plan p;
	const gw_setting *s;

	(void)state;
	/* Workstation writes "memsize" in lower case: 2048 */
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, v, &p);
	assert_int_equal(p.memory_mb, 2048);
	s = setting(&p, "sched.mem.min");
	assert_non_null(s);
	assert_string_equal(s->value, "2048");
	assert_string_equal(s->source, "Broadcom KB 309986");
	assert_int_equal(s->kind, GW_SET_MEM);
	assert_non_null(strstr(s->reason, "passthrough needs it"));
	assert_string_equal(value(&p, "sched.mem.minSize"), "2048");
	assert_string_equal(value(&p, "sched.mem.pin"), "TRUE");
	assert_null(finding(&p, "memory-unknown"));
	gw_plan_free(&p);

	/* a different size given: the file's memsize wins, with a warning */
	a.memory_mb = 4096;
	build(&a, v, &p);
	assert_string_equal(value(&p, "sched.mem.min"), "2048");
	assert_non_null(finding(&p, "memory-mismatch"));
	gw_plan_free(&p);

	/* reservation off: nothing written, warned (the file reserves
	 * nothing) */
	a.memory_mb = 0;
	a.reserve = 0;
	build(&a, v, &p);
	assert_null(setting(&p, "sched.mem.min"));
	assert_null(setting(&p, "sched.mem.pin"));
	assert_non_null(finding(&p, "memory-not-reserved"));
	gw_plan_free(&p);
	/* off and no .vmx: nothing to check, nothing said */
	build(&a, NULL, &p);
	assert_null(setting(&p, "sched.mem.min"));
	assert_null(finding(&p, "memory-not-reserved"));
	assert_null(finding(&p, "memory-unknown"));
	gw_plan_free(&p);

	/* no .vmx: from memory_mb */
	a.reserve = 1;
	a.memory_mb = 65536;
	build(&a, NULL, &p);
	assert_string_equal(value(&p, "sched.mem.minSize"), "65536");
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static void
test_nested_virt(void **state)
{
	gw_vmx *v = sample(WS_HW21, "vhv.enable = \"TRUE\"\n");
	gw_answers a;
	gw_plan p;
	const gw_setting *s;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, v, &p);
	s = setting(&p, "vhv.enable");
	assert_non_null(s);
	assert_string_equal(s->value, "FALSE");
	assert_string_equal(s->old_value, "TRUE");
	assert_string_equal(s->source, "Broadcom KB 437651");
	assert_int_equal(finding(&p, "nested-virt")->sev, GW_SEV_WARN);
	gw_plan_free(&p);
	gw_vmx_free(v);

	/* absent: nothing */
	v = sample(WS_HW21, NULL);
	build(&a, v, &p);
	assert_null(setting(&p, "vhv.enable"));
	assert_null(finding(&p, "nested-virt"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static void
test_hw_version(void **state)
{
	gw_vmx *v11 = sample(WS_HW11, NULL), *v21 = sample(WS_HW21, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	a.esxi_version = gw_xstrdup("8.0U2");
	build(&a, v11, &p);
	assert_int_equal(p.hw_current, 11);
	assert_int_equal(p.hw_target, 21);
	f = finding(&p, "hw-upgrade");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->fix, "vim-cmd vmsvc/upgrade <vmid> vmx-21"));
	assert_non_null(strstr(f->fix, "one-way"));
	/* a copy of the .vmx, never a snapshot (DirectPath: none) */
	assert_non_null(strstr(f->fix, "a copy of its .vmx"));
	assert_null(strstr(f->fix, "snapshot"));
	assert_false(gw_plan_has_errors(&p));
	gw_plan_free(&p);

	/* a VM newer than the host: error, never a downgrade */
	free(a.esxi_version);
	a.esxi_version = gw_xstrdup("7.0 Update 3");
	build(&a, v21, &p);
	assert_int_equal(p.hw_target, 19);
	f = finding(&p, "hw-too-new");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_true(gw_plan_has_errors(&p));
	assert_null(finding(&p, "hw-upgrade"));
	gw_plan_free(&p);

	/* equal: nothing to say */
	free(a.esxi_version);
	a.esxi_version = gw_xstrdup("8.0.2");
	build(&a, v21, &p);
	assert_null(finding(&p, "hw-upgrade"));
	assert_null(finding(&p, "hw-too-new"));
	gw_plan_free(&p);

	/* unknown target below 17: the ESXi version is asked for (WARN),
	 * the table as advice */
	free(a.esxi_version);
	a.esxi_version = NULL;
	build(&a, v11, &p);
	f = finding(&p, "hw-target-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "hardware version 11"));
	assert_non_null(strstr(f->fix, "8.0U2: 21"));
	assert_non_null(strstr(f->fix, "esxcli system version get"));
	assert_null(strstr(f->fix, "snapshot"));
	assert_non_null(strstr(f->fix_ui, "\"ESXi version\""));
	gw_plan_free(&p);
	/* from 17 up the VM has what the plan needs: no upgrade advice */
	build(&a, v21, &p);
	assert_null(finding(&p, "hw-target-unknown"));
	assert_null(finding(&p, "hw-upgrade"));
	gw_plan_free(&p);
	/* no .vmx: the table as advice, with the manual upgrade ... */
	build(&a, NULL, &p);
	f = finding(&p, "hw-target-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->fix, "8.0U2: 21"));
	assert_non_null(strstr(f->fix, "vim-cmd vmsvc/upgrade"));
	gw_plan_free(&p);
	/* ... unless the outputs upgrade the VM themselves (the BOSH CPI's
	 * upgrade_hw_version): then no manual upgrade, as for the memory
	 * reservation they lock */
	a.outputs_do = GW_OUT_LOCKS_MEM | GW_OUT_UPGRADES_HW;
	build(&a, NULL, &p);
	f = finding(&p, "hw-target-unknown");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_null(f->fix);
	assert_null(strstr(f->message, "vim-cmd"));
	assert_non_null(strstr(f->message, "upgrade_hw_version"));
	gw_plan_free(&p);
	a.outputs_do = GW_OUT_LOCKS_MEM;   /* Ansible: locks, no upgrade */
	build(&a, NULL, &p);
	assert_non_null(strstr(finding(&p, "hw-target-unknown")->fix,
	                       "vim-cmd vmsvc/upgrade"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v11);
	gw_vmx_free(v21);
}

static void
test_device_limits(void **state)
{
	gw_vmx *v19 = sample(WS_HW19, NULL), *v20 = sample(WS_HW20, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l4=17");
	build(&a, v19, &p);
	f = finding(&p, "hw-too-many-devices");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->message, "allows 16"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* 40 devices on hw 20: 32 on ESXi 8.0, 64 on 8.0U1 */
	gw_answers_init(&a);
	add_gpu(&a, "l4=40");
	a.esxi_version = gw_xstrdup("8.0");
	build(&a, v20, &p);
	assert_non_null(finding(&p, "hw-too-many-devices"));
	assert_non_null(strstr(finding(&p, "hw-too-many-devices")->fix,
	                       "version 21"));
	gw_plan_free(&p);
	free(a.esxi_version);
	a.esxi_version = gw_xstrdup("8.0U1");
	build(&a, v20, &p);
	assert_null(finding(&p, "hw-too-many-devices"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* more than 128: no plan */
	gw_answers_init(&a);
	add_gpu(&a, "l4=128");
	add_gpu(&a, "t4");
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "129"));
	gw_answers_free(&a);
	gw_vmx_free(v19);
	gw_vmx_free(v20);
}

static void
test_operator_size(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_err e;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	a.mmio_gb = 64;                     /* below the rule's 128 */
	e.msg[0] = '\0';
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "64 GB is below the rule's 128 GB"));
	/* the failed plan is empty and can be freed again */
	gw_plan_free(&p);

	a.allow_below_rule = 1;
	build(&a, NULL, &p);
	assert_int_equal(p.mmio_gb, 64);
	f = finding(&p, "mmio-below-rule");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_string_equal(value(&p, "pciPassthru.64bitMMIOSizeGB"), "64");
	gw_plan_free(&p);

	a.allow_below_rule = 0;
	a.mmio_gb = 512;                    /* above: used */
	build(&a, NULL, &p);
	assert_int_equal(p.mmio_gb, 512);
	assert_int_equal(finding(&p, "mmio-operator")->sev, GW_SEV_INFO);
	assert_string_equal(value(&p, "pciPassthru.64bitMMIOSizeGB"), "512");
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_unknown_vram(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_err e;
	gw_vmx *v;

	(void)state;
	/* A10M: VRAM unknown in the table: never guessed */
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "a10m", "--gpu", &e), -1);
	assert_non_null(strstr(e.msg, "--gpu: "));
	assert_non_null(strstr(e.msg, "unknown"));
	assert_non_null(strstr(e.msg, "--vram GB"));
	assert_int_equal(a.ngpus, 0);
	/* a vGPU profile whose GPU has unknown VRAM: same */
	gw_answers_free(&a);

	/* an A10M already in the .vmx: warned, not counted */
	v = sample(WS_HW21,
	           "pciPassthru0.present = \"TRUE\"\n"
	           "pciPassthru0.id = \"00000:059:00.0\"\n"
	           "pciPassthru0.deviceId = \"0x2238\"\n"
	           "pciPassthru0.vendorId = \"0x10de\"\n"
	           "pciPassthru1.present = \"TRUE\"\n"
	           "pciPassthru1.deviceId = \"0x1528\"\n"
	           "pciPassthru1.vendorId = \"0x8086\"\n");
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, v, &p);
	assert_int_equal(finding(&p, "gpu-vram-unknown")->sev, GW_SEV_WARN);
	assert_non_null(strstr(finding(&p, "gpu-vram-unknown")->message,
	                       "pciPassthru0"));
	assert_int_equal(finding(&p, "gpu-unknown")->sev, GW_SEV_WARN);
	assert_non_null(strstr(finding(&p, "gpu-unknown")->message,
	                       "8086:1528"));
	assert_int_equal(p.total_vram_gb, 48);
	assert_true(has_step(&p, "Not counted (VRAM unknown)"));
	/* the new L40S block would go to pciPassthru2 */
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* only unknown devices: no size can be given */
	gw_answers_init(&a);
	assert_int_equal(gw_plan_build(&a, &table, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "unknown"));
	assert_non_null(strstr(e.msg, "--vram GB"));
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* no GPU at all */
	gw_answers_init(&a);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "no GPU"));
	gw_answers_free(&a);
}

static void
test_malformed_key(void **state)
{
	gw_vmx *v = sample(MALFORMED, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	/* line 4: pciPassthru.64bitMMIOSizeGB = "128   (unterminated) */
	assert_int_equal(gw_plan_build(&a, &table, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, ":4:"));
	assert_non_null(strstr(e.msg, "pciPassthru.64bitMMIOSizeGB"));
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static void
test_apply_and_reread(void **state)
{
	gw_vmx *v = sample(WS_HW11, "vhv.enable = \"TRUE\"\n"), *back = NULL;
	gw_answers a;
	gw_plan p;
	gw_err e;
	char *bytes;
	size_t len;
	size_t nlines;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:43:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	a.p2p = 1;
	build(&a, v, &p);
	nlines = gw_vmx_count(v);
	assert_int_equal(gw_plan_apply_vmx(&p, v, &e), 0);
	assert_true(gw_vmx_count(v) > nlines);
	bytes = gw_vmx_serialize(v, &len);
	assert_int_equal(gw_vmx_parse(&back, bytes, len, "back", &e), 0);
	assert_string_equal(gw_vmx_get(back, "pciPassthru.use64bitMMIO"), "TRUE");
	assert_string_equal(gw_vmx_get(back, "pciPassthru.64bitMMIOSizeGB"),
	                    "256");
	assert_string_equal(gw_vmx_get(back, "pciPassthru0.id"),
	                    "00000:066:00.0");
	assert_string_equal(gw_vmx_get(back, "pciPassthru1.id"),
	                    "00000:067:00.0");
	assert_string_equal(gw_vmx_get(back, "pciPassthru1.deviceId"), "0x26b9");
	assert_string_equal(gw_vmx_get(back, "sched.mem.min"), "2048");
	assert_string_equal(gw_vmx_get(back, "sched.mem.pin"), "TRUE");
	assert_string_equal(gw_vmx_get(back, "vhv.enable"), "FALSE");
	assert_string_equal(gw_vmx_get(back, "pciPassthru.allowP2P"), "TRUE");
	assert_string_equal(gw_vmx_get(back, "pciPassthru.RelaxACSforP2P"),
	                    "TRUE");
	/* untouched: firmware stays absent (BIOS), memsize unchanged */
	assert_null(gw_vmx_get(back, "firmware"));
	assert_string_equal(gw_vmx_get(back, "memsize"), "2048");
	gw_plan_free(&p);

	/* planning the result again changes nothing */
	gw_answers_free(&a);
	gw_answers_init(&a);
	build(&a, back, &p);
	{
		size_t i;

		for (i = 0; i < p.nsettings; i++)
			if (!p.settings[i].keep)
				fail_msg("%s still changes", p.settings[i].key);
	}
	assert_int_equal(p.total_vram_gb, 96);
	gw_plan_free(&p);
	gw_answers_free(&a);
	free(bytes);
	gw_vmx_free(back);
	gw_vmx_free(v);
}

static void
test_p2p_code43_geforce(void **state)
{
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	a.p2p = 1;
	a.code43 = 1;
	build(&a, NULL, &p);
	/* one GPU: no P2P keys */
	assert_null(setting(&p, "pciPassthru.allowP2P"));
	assert_non_null(finding(&p, "p2p-single"));
	assert_string_equal(value(&p, "hypervisor.cpuid.v0"), "FALSE");
	f = finding(&p, "code43");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "R465"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* not asked: nothing */
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	build(&a, NULL, &p);
	assert_null(setting(&p, "pciPassthru.allowP2P"));
	assert_null(setting(&p, "hypervisor.cpuid.v0"));
	gw_plan_free(&p);
	a.p2p = 1;
	build(&a, NULL, &p);
	assert_string_equal(value(&p, "pciPassthru.allowP2P"), "TRUE");
	assert_string_equal(value(&p, "pciPassthru.RelaxACSforP2P"), "TRUE");
	assert_string_equal(setting(&p, "pciPassthru.allowP2P")->source,
	                    "NVIDIA GPU Operator documentation");
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* GeForce with a 256 MiB BAR1 */
	gw_answers_init(&a);
	add_gpu(&a, "rtx-4090");
	build(&a, NULL, &p);
	f = finding(&p, "geforce-bar1-256");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "Resizable BAR"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* RTX 3090: 256 MiB without ReBAR, 32 GiB with it */
	gw_answers_init(&a);
	add_gpu(&a, "rtx-3090");
	build(&a, NULL, &p);
	assert_non_null(strstr(finding(&p, "geforce-bar1-256")->message,
	                       "32768 MiB"));
	/* 24 -> 64; BARs 32 GiB + 32 MiB -> 64 */
	assert_int_equal(p.mmio_gb, 64);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* a datacenter card: no GeForce note */
	gw_answers_init(&a);
	add_gpu(&a, "t4");
	build(&a, NULL, &p);
	assert_null(finding(&p, "geforce-bar1-256"));
	gw_plan_free(&p);
	gw_answers_free(&a);
}

/* ---- answers and helpers --------------------------------------------- */

static void
test_spec_parsing(void **state)
{
	static const struct { const char *spec, *want; } bad[] = {
		{ "", "--gpu: '' names no GPU" },
		{ "   ", "names no GPU" },
		{ "=2", "names no GPU" },
		{ "l40s=0", "--gpu: count '0' in 'l40s=0' is not a whole number "
		            "from 1 to 128" },
		{ "l40s=129", "count '129'" },
		{ "l40s=-1", "count '-1'" },
		{ "l40s=two", "count 'two'" },
		{ "l40s=1=2", "count '1=2'" },
		{ "l40s=", "count ''" },
		{ "no-such-gpu", "--gpu: " },
		{ "grid_l40s-48c;x", "not a vGPU profile name" },
	};
	gw_answers a;
	gw_err e;
	size_t i;

	(void)state;
	gw_answers_init(&a);
	assert_int_equal(a.reserve, 1);
	add_gpu(&a, "l40s=2");
	add_gpu(&a, " 10de:26b9 = 4 ");
	add_gpu(&a, "L40S");
	add_gpu(&a, "grid_l40s-48c=3");
	assert_int_equal(a.ngpus, 4);
	assert_int_equal(a.gpus[0].count, 2);
	assert_int_equal(a.gpus[1].count, 4);
	assert_string_equal(a.gpus[1].gpu->id, "l40s");
	assert_int_equal(a.gpus[2].count, 1);
	assert_int_equal(a.gpus[2].vram_gb, 48);
	assert_null(a.gpus[0].profile);
	assert_string_equal(a.gpus[3].profile, "grid_l40s-48c");
	assert_int_equal(a.gpus[3].count, 3);
	assert_string_equal(a.gpus[0].spec, "l40s=2");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		if (gw_answers_add_gpu(&a, &table, bad[i].spec, "--gpu", &e) == 0)
			fail_msg("'%s' accepted", bad[i].spec);
		if (strstr(e.msg, bad[i].want) == NULL)
			fail_msg("'%s': got '%s'", bad[i].spec, e.msg);
	}
	assert_int_equal(a.ngpus, 4);
	/* the field is named as given */
	assert_int_equal(gw_answers_add_gpu(&a, &table, "nope", "[gpu] devices",
	                                    &e), -1);
	assert_non_null(strstr(e.msg, "[gpu] devices: "));

	/* --vram GB[=COUNT] */
	assert_int_equal(gw_answers_add_vram(&a, "48=2", "--vram", &e), 0);
	assert_int_equal(a.gpus[4].vram_gb, 48);
	assert_int_equal(a.gpus[4].count, 2);
	assert_null(a.gpus[4].gpu);
	assert_int_equal(gw_answers_add_vram(&a, "99999", "--vram", &e), -1);
	assert_string_equal(e.msg, "--vram: 99999 GB is not a plausible size "
	                           "(expected 1..4096)");
	assert_int_equal(gw_answers_add_vram(&a, "48=0", "--vram", &e), -1);
	assert_non_null(strstr(e.msg, "--vram: count '0'"));
	assert_int_equal(gw_answers_add_vram(&a, "1.5", "--vram", &e), -1);
	assert_int_equal(a.ngpus, 5);
	gw_answers_free(&a);
	assert_int_equal(a.ngpus, 0);
	gw_answers_free(&a);    /* twice is harmless */
}

static void
test_bdf(void **state)
{
	static const char *bad[] = {
		"", "0000:42:00", "42:00", "0000:100:00.0", "0000:42:20.0",
		"0000:42:00.8", "10000:42:00.0", "zz:00.0", "0000:42:00.0 ",
		"0000-42-00.0", "0000:42:0x.0", "1:2:3:4.0", ".0",
	};
	unsigned d, b, s, f;
	char id[32];
	size_t i;
	gw_answers a;
	gw_err e;

	(void)state;
	assert_int_equal(gw_bdf_parse("0000:42:00.0", &d, &b, &s, &f), 0);
	assert_int_equal(d, 0);
	assert_int_equal(b, 0x42);
	assert_int_equal(s, 0);
	assert_int_equal(f, 0);
	assert_int_equal(gw_bdf_parse("42:00.0", &d, &b, &s, &f), 0);
	assert_int_equal(b, 0x42);
	assert_int_equal(gw_bdf_parse("FFFF:FF:1F.7", &d, &b, &s, &f), 0);
	assert_int_equal(d, 0xffff);
	assert_int_equal(s, 0x1f);
	assert_int_equal(f, 7);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (gw_bdf_parse(bad[i], &d, &b, &s, &f) == 0)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(gw_bdf_parse(NULL, &d, &b, &s, &f), -1);

	gw_bdf_vmx_id(0, 0x42, 0, 0, id, sizeof id);
	assert_string_equal(id, "00000:066:00.0");
	gw_bdf_vmx_id(0xffff, 0xff, 0x1f, 7, id, sizeof id);
	assert_string_equal(id, "65535:255:31.7");

	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:3B:00.0", "--bdf", &e), 0);
	assert_string_equal(a.bdfs[0], "0000:3b:00.0");
	assert_int_equal(gw_answers_add_bdf(&a, "3b:00.0", "--bdf", &e), -1);
	assert_non_null(strstr(e.msg, "given twice"));
	/* the .vmx decimal form is not a host address */
	assert_int_equal(gw_answers_add_bdf(&a, "00000:066:00.0", "--bdf", &e),
	                 -1);
	assert_non_null(strstr(e.msg, "--bdf: '00000:066:00.0' looks like the "
	                              ".vmx decimal form"));
	assert_int_equal(gw_answers_add_bdf(&a, "42:00", "[vm] bdf", &e), -1);
	assert_non_null(strstr(e.msg, "[vm] bdf: '42:00' is not a PCI address"));
	assert_int_equal(a.nbdfs, 1);

	/* system id */
	assert_true(gw_system_id_valid(SYSID));
	assert_true(gw_system_id_valid("5F2C0000-AAAA-bbbb-CCCC-0123456789ab"));
	assert_false(gw_system_id_valid(""));
	assert_false(gw_system_id_valid(NULL));
	assert_false(gw_system_id_valid("65106d9a-406e-5fda-b7ab-b8ca3a63b8b"));
	assert_false(gw_system_id_valid("65106d9a-406e-5fda-b7ab-b8ca3a63b8b4a"));
	assert_false(gw_system_id_valid("65106d9a406e-5fda-b7ab-b8ca3a63b8b4-"));
	assert_false(gw_system_id_valid("g5106d9a-406e-5fda-b7ab-b8ca3a63b8b4"));
	assert_int_equal(gw_answers_set_system_id(&a, "nope", "--system-id", &e),
	                 -1);
	assert_non_null(strstr(e.msg, "--system-id: 'nope' is not a system id"));
	assert_null(a.system_id);
	assert_int_equal(gw_answers_set_system_id(&a, " " SYSID "\n", NULL, &e),
	                 0);
	assert_string_equal(a.system_id, SYSID);
	gw_answers_free(&a);
}

static void
test_esxi_to_hw(void **state)
{
	static const struct { const char *v; int hw; } ex[] = {
		{ "6.0", 11 }, { "6.0U3", 11 }, { "6.5", 13 }, { "6.5U3", 13 },
		{ "6.7", 14 }, { "6.7U1", 14 }, { "6.7U2", 15 }, { "6.7U3", 15 },
		{ "7.0", 17 }, { "7.0U1", 18 }, { "7.0U2", 19 }, { "7.0U3", 19 },
		{ "7.0.3", 19 }, { "7.0U3c", 19 }, { "8.0", 20 }, { "8.0U1", 20 },
		{ "8.0U2", 21 }, { "8.0U3", 21 }, { "8.0 U2", 21 },
		{ "8.0 Update 2", 21 }, { "8.0 update 1", 20 }, { "8.0.2", 21 },
		{ "8.0.1", 20 }, { "8.0u2b", 21 }, { "8.0.2.0", 21 },
		{ "ESXi 8.0U2", 21 }, { "VMware ESXi 8.0.2 build-22380479", 21 },
		{ "9.0", 22 }, { " 8.0U2 ", 21 },
		/* unknown */
		{ "5.5", 0 }, { "10.0", 0 }, { "8", 0 }, { "", 0 },
		{ "8.0U", 0 }, { "8.0 Update", 0 }, { "eight", 0 },
		{ "8.0U2 extra", 0 }, { "8.0.x", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ex / sizeof ex[0]; i++)
		if (gw_esxi_to_hw(ex[i].v) != ex[i].hw)
			fail_msg("'%s' -> %d, expected %d", ex[i].v,
			         gw_esxi_to_hw(ex[i].v), ex[i].hw);
	assert_int_equal(gw_esxi_to_hw(NULL), 0);

	assert_int_equal(gw_hw_max_passthru(11), 0);
	assert_int_equal(gw_hw_max_passthru(13), 16);
	assert_int_equal(gw_hw_max_passthru(19), 16);
	assert_int_equal(gw_hw_max_passthru(20), 32);
	assert_int_equal(gw_hw_max_passthru(21), 128);
	assert_int_equal(gw_hw_max_passthru(22), 128);
	assert_int_equal(gw_hw_max_passthru(0), 0);
}

static void
test_name(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "rtx-6000-ada");
	build(&a, NULL, &p);
	assert_string_equal(p.name, "gpu-rtx-6000-ada");
	gw_plan_free(&p);

	a.name = gw_xstrdup("vllm.gpu");
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), -1);
	assert_non_null(strstr(e.msg, "name: 'vllm.gpu'"));
	assert_non_null(strstr(e.msg, "no periods"));
	free(a.name);
	a.name = gw_xstrdup("vllm_gpu-1");
	build(&a, NULL, &p);
	assert_string_equal(p.name, "vllm_gpu-1");
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_has_errors(void **state)
{
	gw_plan p;

	(void)state;
	memset(&p, 0, sizeof p);
	assert_false(gw_plan_has_errors(&p));
	assert_false(gw_plan_has_errors(NULL));
	gw_plan_free(&p);
	gw_plan_free(NULL);
}

static int
has_prefix(const char *id, const char *const *pre)
{
	size_t i;

	for (i = 0; pre[i]; i++)
		if (strncmp(id, pre[i], strlen(pre[i])) == 0)
			return 1;
	return 0;
}

/* Every finding has the topic its meaning gives it, and the topics
 * select what the id prefixes of the CLI (mmio: sizing) and of the
 * screens (MMIO step, VM step) selected. */
static void
check_topics(const gw_plan *p)
{
	static const char *const sizing[] = { "mmio-", "gpu-", "vgpu-profile",
	                                      "geforce-", NULL };
	static const char *const mmio[] = { "mmio-", NULL };
	static const char *const vmstep[] = { "hw-", "firmware-", "memory-",
	                                      "nested-", "device-", "devices-",
	                                      "code43", NULL };
	const unsigned sz = GW_TOPIC_BIT(GW_TOPIC_SIZING) |
	                    GW_TOPIC_BIT(GW_TOPIC_GPU);
	const unsigned vm = GW_TOPIC_BIT(GW_TOPIC_VERSION) |
	                    GW_TOPIC_BIT(GW_TOPIC_FIRMWARE) |
	                    GW_TOPIC_BIT(GW_TOPIC_MEMORY) |
	                    GW_TOPIC_BIT(GW_TOPIC_VM) |
	                    GW_TOPIC_BIT(GW_TOPIC_DEVICE);
	size_t i;

	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *f = &p->findings[i];

		assert_true(f->sev != GW_SEV_PASS);
		assert_null(f->title);
		assert_int_equal(f->gpu, -1);
		assert_true((unsigned)f->topic < GW_TOPIC_HOST);
		if (has_prefix(f->id, sizing) != gw_topic_in(f->topic, sz) ||
		    has_prefix(f->id, mmio) !=
		    gw_topic_in(f->topic, GW_TOPIC_BIT(GW_TOPIC_SIZING)) ||
		    has_prefix(f->id, vmstep) != gw_topic_in(f->topic, vm))
			fail_msg("%s: topic %d", f->id, (int)f->topic);
	}
}

static void
test_topics(void **state)
{
	gw_answers a;
	gw_plan p;
	gw_vmx *v;
	gw_err e;

	(void)state;
	/* an old VM with a P40, nested virtualization, BIOS; vGPUs added */
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	add_gpu(&a, "grid_a100-40c=2");
	add_gpu(&a, "grid_h100xm-80c");
	assert_int_equal(gw_answers_add_vram(&a, "24", NULL, &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", NULL, &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	a.uvm = a.p2p = a.code43 = 1;
	a.reserve = 0;
	a.mmio_gb = 4096;
	a.esxi_version = gw_xstrdup("7.0U3");
	v = sample(P40_FRAGMENT, "vhv.enable = \"TRUE\"\n"
	                         "virtualHW.version = \"14\"\n"
	                         "pciPassthru7.present = \"TRUE\"\n"
	                         "pciPassthru7.vgpu = \"grid_zz-1q\"\n"
	                         "pciPassthru8.present = \"TRUE\"\n"
	                         "pciPassthru8.deviceId = \"junk\"\n");
	build(&a, v, &p);
	assert_true(p.nfindings >= 10);
	check_topics(&p);
	gw_plan_free(&p);
	gw_vmx_free(v);

	/* snippets: no .vmx; one GPU with P2P, a GeForce */
	gw_answers_free(&a);
	add_gpu(&a, "l40s");
	a.p2p = 1;
	a.uvm = 1;
	build(&a, NULL, &p);
	check_topics(&p);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

/* SR-IOV: vGPUs of a board whose vGPUs run on SR-IOV virtual functions
 * (the table's sriov) give the INFO "gpu-sriov" naming the board, for the
 * command line as for the wizard; passthrough, pre-Ampere vGPUs and boards
 * without vGPU types do not. */
static void
test_sriov(void **state)
{
	static const struct {
		const char *spec;
		const char *board;       /* NULL: no finding */
	} cases[] = {
		{ "nvidia_l40s-24c", "l40s" },
		{ "grid_a100d-80c", "a100-80g-pcie" },
		{ "nvidia_a16-4c", "a16" },
		{ "nvidia_rtxa6000-24q", "rtx-a6000" },
		{ "nvidia_h100xm-80c=2", "h100-sxm" },
		{ "grid_t4-16c", NULL },           /* Turing */
		{ "grid_v100d-32c", NULL },        /* Volta */
		{ "grid_p40-24q", NULL },          /* Pascal */
		{ "l40s", NULL },                  /* passthrough */
		{ "a10g", NULL },                  /* no vGPU types */
	};
	const gw_finding *f;
	gw_answers a;
	gw_plan p;
	gw_vmx *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		gw_answers_init(&a);
		add_gpu(&a, cases[i].spec);
		build(&a, NULL, &p);
		f = finding(&p, "gpu-sriov");
		if (cases[i].board == NULL) {
			if (f)
				fail_msg("%s: %s", cases[i].spec, f->message);
			assert_null(gw_answers_sriov_vgpu(&a));
		} else {
			if (f == NULL)
				fail_msg("%s: no gpu-sriov", cases[i].spec);
			assert_int_equal(f->sev, GW_SEV_INFO);
			assert_int_equal(f->topic, GW_TOPIC_GPU);
			assert_non_null(strstr(f->message, cases[i].board));
			assert_non_null(strstr(f->message, "SR-IOV"));
			assert_non_null(strstr(f->fix, "BIOS"));
			assert_non_null(strstr(f->fix_ui, "Host check"));
			assert_non_null(strstr(f->source, "NVIDIA vGPU"));
			assert_ptr_equal(gw_answers_sriov_vgpu(&a), &a.gpus[0]);
		}
		gw_plan_free(&p);
		gw_answers_free(&a);
	}

	/* a T4 vGPU first, then an H100 one: the H100 is named, once */
	gw_answers_init(&a);
	add_gpu(&a, "grid_t4-16c");
	add_gpu(&a, "l40s");
	add_gpu(&a, "nvidia_h100xm-80c");
	v = sample(P40_FRAGMENT, NULL);
	build(&a, v, &p);
	f = finding(&p, "gpu-sriov");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "h100-sxm"));
	assert_ptr_equal(gw_answers_sriov_vgpu(&a), &a.gpus[2]);
	for (i = 0; i < p.nfindings; i++)
		if (&p.findings[i] != f)
			assert_string_not_equal(p.findings[i].id, "gpu-sriov");
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_free(&a);
	assert_null(gw_answers_sriov_vgpu(NULL));
}

static void check_fix_ui(const gw_plan *p);

/* The host's counts (a.avail): more passthrough GPUs of a model than the
 * host has is a WARN naming the model and both counts; vGPUs, bare sizes
 * and no known host are not checked. */
static void
test_host_counts(void **state)
{
	gw_answers a, b;
	const gw_finding *f;
	gw_plan p;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	build(&a, NULL, &p);
	assert_null(finding(&p, "gpu-count-host"));     /* no host known */
	gw_plan_free(&p);
	gw_answers_add_avail(&a, 0x10de, 0x26b9, 1);
	gw_answers_add_avail(&a, 0x10de, 0x26b9, 1);
	gw_answers_add_avail(&a, 0x10de, 0x2684, 1);    /* an RTX 4090 */
	assert_int_equal(a.navail, 2);
	assert_int_equal(a.avail[0].count, 2);
	build(&a, NULL, &p);
	assert_null(finding(&p, "gpu-count-host"));     /* 2 of 2 */
	gw_plan_free(&p);
	add_gpu(&a, "l40s");                            /* 2 + 1 asked */
	add_gpu(&a, "grid_l40s-48c=4");                 /* vGPUs: not counted */
	assert_int_equal(gw_answers_add_vram(&a, "24=5", NULL, &e), 0);
	build(&a, NULL, &p);
	check_topics(&p);
	check_fix_ui(&p);
	f = finding(&p, "gpu-count-host");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_int_equal(f->topic, GW_TOPIC_GPU);
	assert_non_null(strstr(f->message, "L40S"));
	assert_non_null(strstr(f->message, " 3 "));
	assert_non_null(strstr(f->message, "has 2"));
	assert_non_null(strstr(f->fix, "l40s=2"));
	assert_non_null(strstr(f->fix_ui, "to 2"));
	/* the only FAIL: L40S passthrough and L40S vGPUs in one VM (TKGI) */
	{
		size_t i, nerr = 0;

		for (i = 0; i < p.nfindings; i++)
			nerr += p.findings[i].sev == GW_SEV_ERROR;
		assert_int_equal(nerr, 1);
		assert_non_null(finding(&p, "vgpu-profile-passthrough"));
	}
	gw_plan_free(&p);
	/* copied with the answers */
	gw_answers_copy(&b, &a);
	assert_int_equal(b.navail, 2);
	assert_int_equal(b.avail[1].device_id, 0x2684);
	gw_answers_free(&b);
	/* a host that has none of it */
	/* a third L40S with passthrough off: enabling it is the fix */
	gw_answers_add_avail(&a, 0x10de, 0x26b9, 0);
	assert_int_equal(a.avail[0].count, 2);
	assert_int_equal(a.avail[0].detected, 3);
	build(&a, NULL, &p);
	check_fix_ui(&p);
	f = finding(&p, "gpu-count-host");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "has 2 with passthrough on (3 detected)"));
	assert_non_null(strstr(f->fix, "Enable passthrough"));
	assert_non_null(strstr(f->fix_ui, "Host check"));
	gw_plan_free(&p);
	gw_answers_clear_avail(&a);
	assert_null(a.avail);
	gw_answers_add_avail(&a, 0x10de, 0x2684, 1);
	build(&a, NULL, &p);
	f = finding(&p, "gpu-count-host");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "has 0"));
	assert_non_null(strstr(f->fix_ui, "detected"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	assert_null(a.avail);
}

/* A fix that names a command-line flag has the wizard's words beside it
 * (fix_ui), which name none; the command line's fix is unchanged. */
static void
check_fix_ui(const gw_plan *p)
{
	static const char *const flags[] = { "--bdf", "--system-id", "--uvm",
	                                     "--vram", "--mmio-gb", "--memory",
	                                     "--esxi", "--no-reserve",
	                                     "--upgrade-hw" };
	size_t i, k;

	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *f = &p->findings[i];
		int named = 0;

		for (k = 0; f->fix && k < sizeof flags / sizeof flags[0]; k++)
			named |= strstr(f->fix, flags[k]) != NULL;
		if (named && f->fix_ui == NULL)
			fail_msg("%s: its fix names a flag and has no fix_ui",
			         f->id);
		for (k = 0; f->fix_ui && k < sizeof flags / sizeof flags[0]; k++)
			if (strstr(f->fix_ui, flags[k]))
				fail_msg("%s: fix_ui names %s", f->id, flags[k]);
	}
}

static void
test_fix_ui(void **state)
{
	gw_vmx *v = sample(P40_FRAGMENT, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	/* an L40S without a host address: no device block, a WARN (it was
	 * INFO), whose fix names --bdf and the wizard's fields */
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, v, &p);
	f = finding(&p, "devices-without-address");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_int_equal(f->topic, GW_TOPIC_DEVICE);
	assert_non_null(strstr(f->fix, "--bdf"));
	assert_non_null(strstr(f->fix_ui, "\"Host PCI addresses\""));
	assert_non_null(strstr(f->fix_ui, "\"Host system id\""));
	assert_non_null(strstr(f->fix_ui, "vSphere Client: Edit Settings > Add New Device > PCI Device"));
	assert_non_null(strstr(f->fix_ui, "ESXi Host Client: Edit Settings > Add other device > PCI device"));
	/* the fragment has no memsize */
	assert_non_null(strstr(finding(&p, "memory-unknown")->fix_ui,
	                       "\"Memory in MB\""));
	check_fix_ui(&p);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* vGPUs without --uvm; an unknown device; no reservation; a size
	 * below the rule */
	v = sample(WS_HW19, "pciPassthru1.present = \"TRUE\"\n"
	                    "pciPassthru1.vendorId = \"0x1234\"\n"
	                    "pciPassthru1.deviceId = \"0x5678\"\n");
	gw_answers_init(&a);
	add_gpu(&a, "grid_l40s-48c=2");
	a.reserve = 0;
	a.mmio_gb = 64;
	a.allow_below_rule = 1;
	build(&a, v, &p);
	f = finding(&p, "uvm-suggest");
	assert_non_null(strstr(f->fix, "--uvm"));
	assert_non_null(strstr(f->fix_ui,
	                       "\"Unified memory (UVM) on every vGPU\""));
	assert_non_null(strstr(finding(&p, "gpu-unknown")->fix_ui,
	                       "\"Your size in GB\""));
	assert_non_null(strstr(finding(&p, "memory-not-reserved")->fix_ui,
	                       "\"Reserve all guest memory\""));
	assert_non_null(strstr(finding(&p, "mmio-below-rule")->fix_ui,
	                       "press r on the MMIO size step"));
	check_fix_ui(&p);
	gw_plan_free(&p);
	/* with UVM: vMotion and the A100's NVLink */
	gw_answers_free(&a);
	gw_answers_init(&a);
	add_gpu(&a, "grid_a100-40c=2");
	a.uvm = 1;
	build(&a, v, &p);
	assert_non_null(finding(&p, "uvm-vmotion"));
	f = finding(&p, "uvm-a100-p2p");
	assert_null(f->fix);                 /* the command line: no fix */
	assert_non_null(strstr(f->fix_ui, "NVLink P2P"));
	check_fix_ui(&p);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* ---- VM limits and conflicts (doc/design.md, section 15.3) ---- */

/* memsize 2048 (the Workstation fixture) against one 48 GB L40S; a
 * memsize at the framebuffer, or no size known, does not trigger it. */
static void
test_guest_memory(void **state)
{
	gw_vmx *small = sample(WS_HW11, NULL);
	gw_vmx *big = sample(WS_HW11, "memsize = \"49152\"\n");
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, small, &p);
	check_topics(&p);
	f = finding(&p, "memory-below-vram");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_int_equal(f->topic, GW_TOPIC_MEMORY);
	assert_non_null(strstr(f->message, "2048 MB"));
	assert_non_null(strstr(f->message, "48 GB"));
	assert_non_null(strstr(f->message, "No NVIDIA document"));
	assert_non_null(strstr(f->fix, "49152 MB"));
	gw_plan_free(&p);
	build(&a, big, &p);
	assert_null(finding(&p, "memory-below-vram"));
	gw_plan_free(&p);
	/* snippets: the answers' memory, else nothing to compare */
	build(&a, NULL, &p);
	assert_null(finding(&p, "memory-below-vram"));
	gw_plan_free(&p);
	a.memory_mb = 16384;
	build(&a, NULL, &p);
	assert_non_null(finding(&p, "memory-below-vram"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(small);
	gw_vmx_free(big);
}

/* Both hot-add keys TRUE in the hw 11 fixture, only mem.hotadd in the
 * hw 16 one: each TRUE key is written "FALSE"; FALSE, or vGPUs only, do
 * not trigger it. */
static void
test_hotadd(void **state)
{
	gw_vmx *both = sample(WS_HW11, NULL), *mem = sample(WS_HW16_EFI, NULL);
	gw_vmx *off = sample(WS_HW16_EFI, "mem.hotadd = \"FALSE\"\n");
	gw_vmx *vgpu = sample(WS_HW21, VGPU01);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s");
	build(&a, both, &p);
	f = finding(&p, "device-hotadd");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "mem.hotadd, vcpu.hotadd"));
	assert_null(f->fix);
	/* gpuwiz writes both off, with the reason and the source */
	assert_non_null(setting(&p, "mem.hotadd"));
	assert_string_equal(setting(&p, "mem.hotadd")->value, "FALSE");
	assert_string_equal(setting(&p, "mem.hotadd")->old_value, "TRUE");
	assert_int_equal(setting(&p, "mem.hotadd")->kind, GW_SET_HOTADD);
	assert_non_null(setting(&p, "mem.hotadd")->reason);
	assert_non_null(strstr(setting(&p, "mem.hotadd")->source, "KB 309986"));
	assert_string_equal(setting(&p, "vcpu.hotadd")->value, "FALSE");
	/* CPU hot-add has its own reason (virtual NUMA) and source */
	assert_non_null(strstr(setting(&p, "vcpu.hotadd")->reason, "virtual NUMA"));
	assert_null(strstr(setting(&p, "vcpu.hotadd")->reason, "memory added"));
	assert_non_null(strstr(setting(&p, "vcpu.hotadd")->source, "KB 2040375"));
	assert_null(strstr(setting(&p, "mem.hotadd")->reason, "NUMA"));
	gw_plan_free(&p);
	build(&a, mem, &p);
	f = finding(&p, "device-hotadd");
	assert_non_null(f);
	assert_null(strstr(f->message, "vcpu"));
	assert_non_null(setting(&p, "mem.hotadd"));
	assert_null(setting(&p, "vcpu.hotadd"));
	gw_plan_free(&p);
	build(&a, off, &p);
	assert_null(finding(&p, "device-hotadd"));
	assert_null(setting(&p, "mem.hotadd"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	gw_answers_init(&a);
	a.uvm = 1;
	build(&a, vgpu, &p);
	assert_null(finding(&p, "device-hotadd"));
	assert_null(finding(&p, "device-directpath-limits"));
	/* two 24c profiles: 48 GB of framebuffer (not the physical 96),
	 * within memSize 65536 */
	assert_null(finding(&p, "memory-below-vram"));
	gw_plan_free(&p);
	gw_vmx_free(vgpu);
	vgpu = sample(WS_HW21, "pciPassthru0.present = \"TRUE\"\n"
	              "pciPassthru0.vgpu = \"nvidia_l40s-24c\"\n"
	              "pciPassthru1.present = \"TRUE\"\n"
	              "pciPassthru1.vgpu = \"nvidia_l40s-24c\"\n");
	build(&a, vgpu, &p);
	assert_non_null(finding(&p, "memory-below-vram"));
	assert_non_null(strstr(finding(&p, "memory-below-vram")->message,
	                       "4096 MB of memory, less than the 48 GB"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(both);
	gw_vmx_free(mem);
	gw_vmx_free(off);
	gw_vmx_free(vgpu);
}

static size_t
count_findings(const gw_plan *p, const char *id)
{
	size_t i, n = 0;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			n++;
	return n;
}

/* Once per plan, however many DirectPath GPUs. */
static void
test_directpath_limits(void **state)
{
	gw_vmx *v = sample(WS_HW21, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l40s=2");
	add_gpu(&a, "l4");
	build(&a, v, &p);
	assert_int_equal(count_findings(&p, "device-directpath-limits"), 1);
	f = finding(&p, "device-directpath-limits");
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "snapshots"));
	assert_non_null(strstr(f->message, "vMotion"));
	assert_non_null(strstr(f->message, "fault tolerance"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* RTX 4090 (BAR1 256 MiB, ReBAR off) needs no EFI; an RTX 5090 (32 GiB)
 * does; the firmware line is never written. */
static void
test_firmware_small_bars(void **state)
{
	gw_vmx *bios = sample(WS_HW11, NULL);
	gw_vmx *named = sample(WS_HW11, "firmware = \"bios\"\n");
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "rtx-4090");
	build(&a, bios, &p);
	check_topics(&p);
	assert_null(finding(&p, "firmware-bios"));
	f = finding(&p, "firmware-bios-small-bars");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "256 MiB"));
	assert_null(setting(&p, "firmware"));
	gw_plan_free(&p);
	build(&a, named, &p);
	f = finding(&p, "firmware-bios-small-bars");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "bios firmware"));
	assert_null(setting(&p, "firmware"));
	gw_plan_free(&p);
	build(&a, NULL, &p);
	assert_null(finding(&p, "firmware-efi"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	/* a GeForce of unknown BAR1: what it depends on (Resizable BAR),
	 * not a bare EFI warning; 12 GB: at most 16 GiB, BIOS is fine */
	gw_answers_init(&a);
	add_gpu(&a, "rtx-3060");
	build(&a, bios, &p);
	assert_null(finding(&p, "firmware-bios"));
	f = finding(&p, "firmware-bios-rebar");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "Resizable BAR"));
	assert_non_null(strstr(f->message, "at most 16 GiB"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_answers_init(&a);
	add_gpu(&a, "rtx-4090");
	add_gpu(&a, "rtx-5090");
	build(&a, bios, &p);
	assert_non_null(finding(&p, "firmware-bios"));
	assert_null(finding(&p, "firmware-bios-small-bars"));
	assert_null(setting(&p, "firmware"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(bios);
	gw_vmx_free(named);
}

/* 17 devices on hw 19: the upgrade command on 8.0U3, a newer host on
 * 7.0U3; 16 is within the limit. */
static void
test_device_limit_upgrade(void **state)
{
	gw_vmx *v19 = sample(WS_HW19, NULL);
	gw_answers a;
	gw_plan p;
	const gw_finding *f;

	(void)state;
	gw_answers_init(&a);
	add_gpu(&a, "l4=17");
	a.esxi_version = gw_xstrdup("8.0U3");
	build(&a, v19, &p);
	f = finding(&p, "hw-too-many-devices");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->message, "allows 16"));
	assert_non_null(strstr(f->fix, "vim-cmd vmsvc/upgrade <vmid> vmx-21"));
	assert_non_null(f->fix_ui);
	assert_non_null(strstr(f->fix_ui, "Press u"));
	gw_plan_free(&p);
	free(a.esxi_version);
	a.esxi_version = gw_xstrdup("7.0U3");
	build(&a, v19, &p);
	f = finding(&p, "hw-too-many-devices");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "8.0 for 32"));
	assert_null(f->fix_ui);
	gw_plan_free(&p);
	gw_answers_free(&a);

	gw_answers_init(&a);
	add_gpu(&a, "l4=16");
	build(&a, v19, &p);
	assert_null(finding(&p, "hw-too-many-devices"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v19);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_l40s),
		cmocka_unit_test(test_two_a100_80),
		cmocka_unit_test(test_two_h100_bars),
		cmocka_unit_test(test_vgpu_h100xm),
		cmocka_unit_test(test_vgpu_l40s_follows_physical),
		cmocka_unit_test(test_vram_only),
		cmocka_unit_test(test_p40_fragment_plus_l40s),
		cmocka_unit_test(test_p40_fragment_larger_kept),
		cmocka_unit_test(test_bdf_new_block),
		cmocka_unit_test(test_bdf_already_attached),
		cmocka_unit_test(test_bdf_errors),
		cmocka_unit_test(test_hex_id),
		cmocka_unit_test(test_uvm_existing_and_new_vgpu),
		cmocka_unit_test(test_uvm_a100_and_snippets),
		cmocka_unit_test(test_uvm_existing_only),
		cmocka_unit_test(test_firmware),
		cmocka_unit_test(test_memory_reservation),
		cmocka_unit_test(test_nested_virt),
		cmocka_unit_test(test_hw_version),
		cmocka_unit_test(test_device_limits),
		cmocka_unit_test(test_operator_size),
		cmocka_unit_test(test_unknown_vram),
		cmocka_unit_test(test_malformed_key),
		cmocka_unit_test(test_apply_and_reread),
		cmocka_unit_test(test_p2p_code43_geforce),
		cmocka_unit_test(test_spec_parsing),
		cmocka_unit_test(test_bdf),
		cmocka_unit_test(test_esxi_to_hw),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_has_errors),
		cmocka_unit_test(test_topics),
		cmocka_unit_test(test_sriov),
		cmocka_unit_test(test_fix_ui),
		cmocka_unit_test(test_host_counts),
		cmocka_unit_test(test_guest_memory),
		cmocka_unit_test(test_hotadd),
		cmocka_unit_test(test_directpath_limits),
		cmocka_unit_test(test_firmware_small_bars),
		cmocka_unit_test(test_device_limit_upgrade),
	};

	return cmocka_run_group_tests(tests, setup_table, teardown_table);
}
