/* test_linux.c: gpuwiz check / gpuwiz gpus on fake Linux hosts.
 *
 * Each test builds a host under a tu_tmpdir() from a small description:
 * the real sysfs layout per PCI device (sys/devices/pci0000:00/BDF with
 * config, resource, vendor, device, class, subsystem_*, irq; the
 * sys/bus/pci/devices/BDF link; iommu_group and driver links; the
 * sys/kernel/iommu_groups/N/devices links), /proc/cpuinfo, /proc/cmdline
 * and the ACPI DMAR/IVRS table (tests/fixtures/README.md, "Fake Linux
 * hosts").
 */
#include "testutil.h"
#include "linux.h"
#include "gputable.h"

#include <fcntl.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

static gw_table table;

/* ---- building a fake host -------------------------------------------- */

static void
mkdirs(const char *root, const char *rel)
{
	char *p = gw_xasprintf("%s/%s", root, rel), *s;

	for (s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
	free(p);
}

static void
put_file(const char *root, const char *rel, const void *data, size_t len)
{
	char *p = gw_xasprintf("%s/%s", root, rel);
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');
	FILE *f;

	if (sl) {
		*sl = '\0';
		mkdirs(root, dir);
	}
	free(dir);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(p);
}

static void
put_text(const char *root, const char *rel, const char *text)
{
	put_file(root, rel, text, strlen(text));
}

static void
put_link(const char *root, const char *rel, const char *target)
{
	char *p = gw_xasprintf("%s/%s", root, rel);
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');

	if (sl) {
		*sl = '\0';
		mkdirs(root, dir);
	}
	free(dir);
	assert_int_equal(symlink(target, p), 0);
	free(p);
}

enum { B_NONE, B_MEM32, B_MEM64P, B_IO };

typedef struct fbar {
	int kind;
	uint64_t size;
} fbar;

typedef struct fdev {
	const char *bdf;
	unsigned vendor, device, cls, subv, subd;
	fbar bars[6];        /* a 64-bit BAR takes the next slot too */
	const char *group;   /* NULL: no iommu_group link */
	const char *driver;  /* NULL: none bound */
} fdev;

/* One PCI function with a consistent config space and resource file. */
static void
add_dev(const char *root, const fdev *d)
{
	unsigned char cfg[64];
	char *dir = gw_xasprintf("sys/devices/pci0000:00/%s", d->bdf);
	char *rel, *t;
	gw_buf res;
	uint64_t addr_mem = 0xf0000000ULL, addr_64 = 0x38000000000ULL;
	unsigned addr_io = 0xe000;
	int i;

	memset(cfg, 0, sizeof cfg);
	cfg[0] = d->vendor & 0xff;
	cfg[1] = d->vendor >> 8;
	cfg[2] = d->device & 0xff;
	cfg[3] = d->device >> 8;
	cfg[4] = 0x07;
	cfg[9] = d->cls & 0xff;
	cfg[10] = (d->cls >> 8) & 0xff;
	cfg[11] = (d->cls >> 16) & 0xff;
	cfg[14] = 0x80;    /* type 0, multi-function */
	cfg[0x2c] = d->subv & 0xff;
	cfg[0x2d] = d->subv >> 8;
	cfg[0x2e] = d->subd & 0xff;
	cfg[0x2f] = d->subd >> 8;
	gw_buf_init(&res);
	for (i = 0; i < 6; i++) {
		const fbar *b = &d->bars[i];
		uint64_t start = 0, flags = 0, reg = 0;

		switch (b->kind) {
		case B_MEM32:
			start = addr_mem;
			addr_mem += b->size;
			flags = 0x40200;
			reg = start;
			break;
		case B_MEM64P:
			addr_64 = (addr_64 + b->size - 1) & ~(b->size - 1);
			start = addr_64;
			addr_64 += b->size;
			flags = 0x14220c;
			reg = start | 0xc;
			break;
		case B_IO:
			start = addr_io;
			addr_io += 0x100;
			flags = 0x40101;
			reg = start | 1;
			break;
		default:
			break;
		}
		cfg[0x10 + 4 * i] = reg & 0xff;
		cfg[0x11 + 4 * i] = (reg >> 8) & 0xff;
		cfg[0x12 + 4 * i] = (reg >> 16) & 0xff;
		cfg[0x13 + 4 * i] = (reg >> 24) & 0xff;
		if (b->kind == B_MEM64P && i < 5) {
			cfg[0x14 + 4 * i] = (reg >> 32) & 0xff;
			cfg[0x15 + 4 * i] = (reg >> 40) & 0xff;
			cfg[0x16 + 4 * i] = (reg >> 48) & 0xff;
			cfg[0x17 + 4 * i] = (reg >> 56) & 0xff;
		}
		if (b->kind == B_NONE)
			gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
			                  "0x0000000000000000\n");
		else
			gw_buf_printf(&res, "0x%016llx 0x%016llx 0x%016llx\n",
			              (unsigned long long)start,
			              (unsigned long long)(start + b->size - 1),
			              (unsigned long long)flags);
	}
	for (i = 6; i < 13; i++)   /* ROM + IOV resources */
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
		                  "0x0000000000000000\n");

#define PUT(name, ...) do { \
		rel = gw_xasprintf("%s/%s", dir, name); \
		t = gw_xasprintf(__VA_ARGS__); \
		put_text(root, rel, t); \
		free(t); free(rel); } while (0)
	PUT("vendor", "0x%04x\n", d->vendor);
	PUT("device", "0x%04x\n", d->device);
	PUT("class", "0x%06x\n", d->cls);
	PUT("subsystem_vendor", "0x%04x\n", d->subv);
	PUT("subsystem_device", "0x%04x\n", d->subd);
	PUT("irq", "%s", "16\n");
	PUT("resource", "%s", res.data);
#undef PUT
	gw_buf_free(&res);
	rel = gw_xasprintf("%s/config", dir);
	put_file(root, rel, cfg, sizeof cfg);
	free(rel);

	rel = gw_xasprintf("sys/bus/pci/devices/%s", d->bdf);
	t = gw_xasprintf("../../../devices/pci0000:00/%s", d->bdf);
	put_link(root, rel, t);
	free(rel);
	free(t);
	if (d->group) {
		rel = gw_xasprintf("%s/iommu_group", dir);
		t = gw_xasprintf("../../../kernel/iommu_groups/%s", d->group);
		put_link(root, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/devices/%s",
		                   d->group, d->bdf);
		t = gw_xasprintf("../../../../devices/pci0000:00/%s", d->bdf);
		put_link(root, rel, t);
		free(rel);
		free(t);
	}
	if (d->driver) {
		rel = gw_xasprintf("sys/bus/pci/drivers/%s", d->driver);
		mkdirs(root, rel);
		free(rel);
		rel = gw_xasprintf("%s/driver", dir);
		t = gw_xasprintf("../../../bus/pci/drivers/%s", d->driver);
		put_link(root, rel, t);
		free(rel);
		free(t);
	}
	free(dir);
}

typedef enum { CPU_INTEL, CPU_AMD, CPU_NOVIRT } cpu_kind;

typedef struct fhost {
	cpu_kind cpu;
	const char *acpi;     /* "DMAR", "IVRS" or NULL */
	const char *cmdline;
	int iommu_units;      /* entries in /sys/class/iommu */
} fhost;

static void
add_host(const char *root, const fhost *h)
{
	const char *vendor = h->cpu == CPU_AMD ? "AuthenticAMD"
	                                       : "GenuineIntel";
	const char *flag = h->cpu == CPU_INTEL ? " vmx"
	                 : h->cpu == CPU_AMD ? " svm" : "";
	char *t, *rel;
	int i;

	t = gw_xasprintf("processor\t: 0\nvendor_id\t: %s\n"
	                 "flags\t\t: fpu vme de pse tsc msr pae%s sse sse2\n\n"
	                 "processor\t: 1\nvendor_id\t: %s\n"
	                 "flags\t\t: fpu vme de pse tsc msr pae%s sse sse2\n",
	                 vendor, flag, vendor, flag);
	put_text(root, "proc/cpuinfo", t);
	free(t);
	t = gw_xasprintf("%s\n", h->cmdline);
	put_text(root, "proc/cmdline", t);
	free(t);
	mkdirs(root, "sys/bus/pci/devices");
	mkdirs(root, "sys/kernel/iommu_groups");
	mkdirs(root, "sys/class/iommu");
	mkdirs(root, "sys/firmware/acpi/tables");
	if (h->acpi) {
		rel = gw_xasprintf("sys/firmware/acpi/tables/%s", h->acpi);
		put_text(root, rel, h->acpi);
		free(rel);
	}
	for (i = 0; i < h->iommu_units; i++) {
		rel = gw_xasprintf("sys/class/iommu/%s%d",
		                   h->cpu == CPU_AMD ? "ivhd" : "dmar", i);
		mkdirs(root, rel);
		free(rel);
	}
}

static void
rm_rec(const char *p)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(p, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(p)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *c;

			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			c = gw_xasprintf("%s/%s", p, de->d_name);
			rm_rec(c);
			free(c);
		}
		closedir(d);
		rmdir(p);
	} else {
		unlink(p);
	}
}

static void
rm_tree(char *root)
{
	rm_rec(root);
	free(root);
}

/* Devices shared by several tests. */
#define GPU_BARS_ADA(bar1) { { B_MEM32, 16u << 20 }, { B_MEM64P, bar1 }, \
	{ B_NONE, 0 }, { B_MEM64P, 32u << 20 }, { B_NONE, 0 }, { B_IO, 128 } }
#define GiB (1ULL << 30)

static const fdev nvme = { "0000:02:00.0", 0x144d, 0xa808, 0x010802, 0x144d,
	0xa801, { { B_MEM64P, 16384 } }, "3", "nvme" };

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

	memset(&r, 0, sizeof r);
	cap_begin();
	r.rc = gw_linux_check_command(root, json, &r.e);
	r.out = cap_end();
	if (getenv("GW_TEST_VERBOSE"))   /* to read the output by hand */
		fprintf(stderr, "rc %d: %s%s\n", r.rc, r.out, r.e.msg);
	return r;
}

static run_out
run_gpus(const char *root, int json)
{
	run_out r;

	memset(&r, 0, sizeof r);
	cap_begin();
	r.rc = gw_linux_gpus_command(&table, root, json, &r.e);
	r.out = cap_end();
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
	assert_string_equal(status_of(o, "gpu-driver"), "PASS");
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

static int
setup(void **state)
{
	gw_err e;

	(void)state;
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
	return 0;
}

int
main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(check_intel_on),
		cmocka_unit_test(check_amd_on_and_amd_iommu_on),
		cmocka_unit_test(check_iommu_off_in_bios),
		cmocka_unit_test(check_iommu_off_in_kernel),
		cmocka_unit_test(check_no_virt),
		cmocka_unit_test(input_errors),
		cmocka_unit_test(gpus_libpci_error),
		cmocka_unit_test(gpus_rtx6000_ada_rebar),
		cmocka_unit_test(gpus_two_l40s),
		cmocka_unit_test(gpus_unknown_gpu_sized_from_bars),
		cmocka_unit_test(gpus_none),
		cmocka_unit_test(gpus_foreign_group_mate),
	};

	return cmocka_run_group_tests(t, setup, teardown);
}
