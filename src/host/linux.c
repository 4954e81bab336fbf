/* linux.c: probes of a Linux host through a root prefix (linux.h).
 *
 * gpuwiz check reads /proc and /sys directly, like virt-host-validate
 * (domain.md section 6).  gpuwiz gpus lists display-class devices through
 * libpci's sysfs back end pointed at SYSROOT/sys/bus/pci; libpci's error
 * handler would exit(), so ours longjmps back and the failure becomes an
 * input error.
 */
#include "linux.h"
#include "jsonutil.h"
#include "mmio.h"

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <pci/pci.h>

#define GW_LINUX_MAX_BYTES (4u << 20)

/* ---- paths and small file helpers ------------------------------------- */

/* The root prefix without trailing '/': "" for the real root. */
static char *
root_prefix(const char *sysroot)
{
	char *r;
	size_t n;

	if (sysroot == NULL || *sysroot == '\0')
		return gw_xstrdup("");
	r = gw_xstrdup(sysroot);
	n = strlen(r);
	while (n > 0 && r[n - 1] == '/')
		r[--n] = '\0';
	return r;
}

static int
check_root(const char *sysroot, gw_err *e)
{
	struct stat st;

	if (sysroot == NULL || *sysroot == '\0')
		return 0;
	if (stat(sysroot, &st) != 0) {
		gw_err_set(e, _("--sysroot %s: %s"), sysroot, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		gw_err_set(e, _("--sysroot %s: not a directory"), sysroot);
		return -1;
	}
	return 0;
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory (without . and ..); -1 when it cannot
 * be opened. */
static int
list_dir(const char *path, char ***out, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;

	*out = NULL;
	*n = 0;
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		*out = gw_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = gw_xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, cmp_str);
	return 0;
}

static void
free_list(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* Basename of a symlink's target, NULL when path is not a link. */
static char *
link_base(const char *path)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	char *s;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	s = strrchr(buf, '/');
	return gw_xstrdup(s ? s + 1 : buf);
}

/* A small hex value file ("0x10de\n"); -1 when unreadable. */
static long
read_hex_file(const char *path)
{
	char *data = NULL, *end;
	size_t len;
	long v;
	gw_err e;

	if (gw_read_file(path, 4096, &data, &len, &e) != 0)
		return -1;
	errno = 0;
	v = strtol(gw_trim(data), &end, 16);
	if (errno != 0 || *end != '\0' || v < 0)
		v = -1;
	free(data);
	return v;
}

static json_t *
hex_id(unsigned v)
{
	char b[8];

	snprintf(b, sizeof b, "%04x", v & 0xffffu);
	return json_string(b);
}

/* ---- a display device, as sysfs shows it ------------------------------ */

typedef struct dev_info {
	char *bdf;
	unsigned vendor, device, subvendor, subdevice;
	char *driver;        /* NULL when none is bound */
} dev_info;

/* Display-class devices under SYSROOT/sys/bus/pci/devices (direct reads,
 * for gpuwiz check).  Returns -1 when the directory cannot be read. */
static int
scan_display_sysfs(const char *root, dev_info **out, size_t *n)
{
	char *dir = gw_xasprintf("%s/sys/bus/pci/devices", root);
	char **names;
	size_t nn, i;

	*out = NULL;
	*n = 0;
	if (list_dir(dir, &names, &nn) != 0) {
		free(dir);
		return -1;
	}
	for (i = 0; i < nn; i++) {
		char *p = gw_xasprintf("%s/%s/class", dir, names[i]);
		long cls = read_hex_file(p);
		dev_info *d;
		long v;

		free(p);
		if (cls < 0 || ((cls >> 16) & 0xff) != 0x03)
			continue;
		*out = gw_xrealloc(*out, (*n + 1) * sizeof **out);
		d = &(*out)[(*n)++];
		memset(d, 0, sizeof *d);
		d->bdf = gw_xstrdup(names[i]);
		p = gw_xasprintf("%s/%s/vendor", dir, names[i]);
		v = read_hex_file(p);
		d->vendor = v < 0 ? 0 : (unsigned)v;
		free(p);
		p = gw_xasprintf("%s/%s/device", dir, names[i]);
		v = read_hex_file(p);
		d->device = v < 0 ? 0 : (unsigned)v;
		free(p);
		p = gw_xasprintf("%s/%s/driver", dir, names[i]);
		d->driver = link_base(p);
		free(p);
	}
	free_list(names, nn);
	free(dir);
	return 0;
}

static void
free_devs(dev_info *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].bdf);
		free(d[i].driver);
	}
	free(d);
}

/* ---- gpuwiz check ----------------------------------------------------- */

typedef struct check_rows {
	gw_linux_check *r;
	size_t n;
} check_rows;

static void
add_row(check_rows *rows, const char *id, gw_linux_status st, char *title,
        char *message, char *fix)
{
	gw_linux_check *r;

	rows->r = gw_xrealloc(rows->r, (rows->n + 1) * sizeof *rows->r);
	r = &rows->r[rows->n++];
	r->id = id;
	r->status = st;
	r->title = title;
	r->message = message;
	r->fix = fix;
}

const char *
gw_linux_status_word(gw_linux_status st)
{
	return st == GW_LINUX_PASS ? "PASS" : st == GW_LINUX_WARN ? "WARN"
	                                                          : "FAIL";
}

/* Does the kernel command line hold this exact word? */
static int
has_word(const char *cmdline, const char *w)
{
	size_t n = strlen(w);
	const char *p = cmdline;

	while ((p = strstr(p, w)) != NULL) {
		if ((p == cmdline || p[-1] == ' ' || p[-1] == '\t' ||
		     p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t' ||
		     p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

/* Is flag one of the words on a "flags" line of /proc/cpuinfo? */
static int
cpu_has_flag(const char *cpuinfo, const char *flag)
{
	const char *line = cpuinfo;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (strncmp(line, "flags", 5) == 0) {
			char *l = gw_xstrndup(line, n), *c = strchr(l, ':');
			int found = 0;

			if (c) {
				char *p;

				for (p = c; *p; p++)
					if (*p == '\t')
						*p = ' ';
				found = has_word(c + 1, flag);
			}
			free(l);
			if (found)
				return 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* ---- interrupt remapping ---------------------------------------------- */

/* What SYSROOT/proc/interrupts shows of interrupt remapping: the chip
 * column reads IR-IO-APIC or IR-PCI-MSI (IR-PCI-MSI-BDF and
 * IR-PCI-MSIX-BDF on kernels with per-device MSI domains; a vIR- prefix,
 * as proposed for virtual IOMMUs, matches too) for an interrupt that goes
 * through the IOMMU's remapping table.  Returns -1 when the file cannot be read, else 0 and *kinds the
 * kinds seen ("IR-PCI-MSI, IR-IO-APIC"), NULL when none. */
static int
scan_interrupts(const char *path, char **kinds)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int msi = 0, ioapic = 0, bad;

	*kinds = NULL;
	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		if (strstr(line, "IR-PCI-MSI"))
			msi = 1;
		if (strstr(line, "IR-IO-APIC"))
			ioapic = 1;
	}
	bad = ferror(f);
	free(line);
	fclose(f);
	if (bad)
		return -1;
	if (msi || ioapic)
		*kinds = gw_xasprintf("%s%s%s", msi ? "IR-PCI-MSI" : "",
		                      msi && ioapic ? ", " : "",
		                      ioapic ? "IR-IO-APIC" : "");
	return 0;
}

/* Interrupt remapping support of the Intel IOMMU units: bit 3 (IR) of the
 * VT-d extended capability register, which the kernel shows in
 * /sys/class/iommu/dmarN/intel-iommu/ecap ("%llx").  The kernel turns
 * remapping on only when every unit has it.  Returns 1 when each readable
 * ecap has the bit, 0 when one lacks it (*unit names it), -1 when none can
 * be read; *unit is the first unit read otherwise. */
static int
intel_ecap_ir(const char *root, char **units, size_t nunits,
              const char **unit)
{
	size_t i;
	int r = -1;

	*unit = NULL;
	for (i = 0; i < nunits; i++) {
		char *p, *data = NULL, *end, *t;
		unsigned long long v;
		size_t len;
		gw_err e;

		if (strncmp(units[i], "dmar", 4) != 0)
			continue;
		p = gw_xasprintf("%s/sys/class/iommu/%s/intel-iommu/ecap", root,
		                 units[i]);
		if (gw_read_file(p, 4096, &data, &len, &e) != 0) {
			free(p);
			continue;
		}
		free(p);
		t = gw_trim(data);
		errno = 0;
		v = strtoull(t, &end, 16);
		if (errno != 0 || end == t || *end != '\0') {
			free(data);
			continue;
		}
		free(data);
		if (!((v >> 3) & 1)) {
			*unit = units[i];
			return 0;
		}
		if (r < 0)
			*unit = units[i];
		r = 1;
	}
	return r;
}

/* The interrupt-remap row.  virt-host-validate has no such check; the
 * messages quote the kernel's VFIO refusal ("No interrupt remapping
 * support") instead.  PASS when /proc/interrupts shows remapped
 * interrupts; otherwise WARN, not FAIL: VFIO can still run with
 * vfio_iommu_type1 allow_unsafe_interrupts=1, only not safely.  WARN too
 * when /proc/interrupts cannot be read: the row says it could not be
 * checked rather than disappearing. */
static void
check_irq_remap(check_rows *rows, const char *root, const char *cmdline,
                int amd, int iommu_on, char **units, size_t nunits)
{
	char *path = gw_xasprintf("%s/proc/interrupts", root), *kinds;
	const char *unit;
	int seen = scan_interrupts(path, &kinds);
	int hw = intel_ecap_ir(root, units, nunits, &unit);
	const char *title = _("Checking for interrupt remapping");

	if (seen == 0 && kinds) {
		add_row(rows, "interrupt-remap", GW_LINUX_PASS,
		        gw_xstrdup(title),
		        gw_xasprintf(_("interrupt remapping is on: %s has %s "
		                       "interrupts"), path, kinds),
		        NULL);
	} else if (hw == 0) {
		add_row(rows, "interrupt-remap", GW_LINUX_WARN,
		        gw_xstrdup(title),
		        gw_xasprintf(_("%s does not support interrupt remapping: "
		                       "the IR bit (bit 3) of its ecap register "
		                       "is clear"), unit),
		        gw_xstrdup(_("enable \"Interrupt Remapping\" in the "
		                     "BIOS/UEFI setup if it has that option, "
		                     "else use a platform whose VT-d has it (in "
		                     "a VM: a virtual IOMMU with interrupt "
		                     "remapping, such as QEMU's "
		                     "intel-iommu,intremap=on). Without it VFIO "
		                     "refuses the GPU (\"No interrupt remapping "
		                     "support\"); vfio_iommu_type1 "
		                     "allow_unsafe_interrupts=1 gets past that "
		                     "but lets a VM inject interrupts into the "
		                     "host: use it only knowingly")));
	} else if (seen < 0) {
		add_row(rows, "interrupt-remap", GW_LINUX_WARN,
		        gw_xstrdup(title),
		        gw_xasprintf(_("cannot read %s: whether interrupt "
		                       "remapping is on could not be checked"),
		                     path),
		        gw_xstrdup(_("run the check on the host itself, as a "
		                     "user that can read /proc")));
	} else if (!iommu_on) {
		add_row(rows, "interrupt-remap", GW_LINUX_WARN,
		        gw_xstrdup(title),
		        gw_xasprintf(_("no interrupt in %s is remapped (no "
		                       "IR-PCI-MSI or IR-IO-APIC interrupt): "
		                       "interrupt remapping needs the IOMMU, "
		                       "which is off"), path),
		        gw_xstrdup(_("turn the IOMMU on first (see the rows "
		                     "above); interrupt remapping comes with it")));
	} else if (cmdline && (has_word(cmdline, "intremap=off") ||
	                       has_word(cmdline, "nointremap"))) {
		add_row(rows, "interrupt-remap", GW_LINUX_WARN,
		        gw_xstrdup(title),
		        gw_xasprintf(_("no interrupt in %s is remapped: the "
		                       "kernel command line turns interrupt "
		                       "remapping off (intremap=off or "
		                       "nointremap)"), path),
		        gw_xstrdup(_("remove intremap=off and nointremap from "
		                     "the kernel command line, then reboot. "
		                     "Without interrupt remapping VFIO refuses "
		                     "the GPU (\"No interrupt remapping "
		                     "support\"); vfio_iommu_type1 "
		                     "allow_unsafe_interrupts=1 gets past that "
		                     "but lets a VM inject interrupts into the "
		                     "host: use it only knowingly")));
	} else {
		add_row(rows, "interrupt-remap", GW_LINUX_WARN,
		        gw_xstrdup(title),
		        hw == 1
		        ? gw_xasprintf(_("no interrupt in %s is remapped (no "
		                         "IR-PCI-MSI or IR-IO-APIC interrupt), "
		                         "although %s supports interrupt "
		                         "remapping (IR bit of its ecap "
		                         "register)"), path, unit)
		        : amd
		        ? gw_xasprintf(_("no interrupt in %s is remapped (no "
		                         "IR-PCI-MSI or IR-IO-APIC interrupt), "
		                         "although the AMD IOMMU supports "
		                         "interrupt remapping"), path)
		        : gw_xasprintf(_("no interrupt in %s is remapped (no "
		                         "IR-PCI-MSI or IR-IO-APIC interrupt), "
		                         "although the IOMMU is on"), path),
		        gw_xstrdup(_("enable \"Interrupt Remapping\" and x2APIC "
		                     "in the BIOS/UEFI setup (on AMD they come "
		                     "with IOMMU / AMD-Vi) and keep intremap=off "
		                     "and nointremap out of the kernel command "
		                     "line, then reboot. Without interrupt "
		                     "remapping VFIO refuses the GPU (\"No "
		                     "interrupt remapping support\"); "
		                     "vfio_iommu_type1 allow_unsafe_interrupts=1 "
		                     "gets past that but lets a VM inject "
		                     "interrupts into the host: use it only "
		                     "knowingly")));
	}
	free(kinds);
	free(path);
}

void
gw_linux_checks_free(gw_linux_check *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].title);
		free(rows[i].message);
		free(rows[i].fix);
	}
	free(rows);
}

int
gw_linux_checks(const char *sysroot, gw_linux_check **out, size_t *nout,
                gw_err *e)
{
	char *root, *path, *cpuinfo = NULL, *cmdline = NULL;
	size_t len, i, ngroups = 0, nunits = 0;
	char **groups = NULL, **units = NULL;
	check_rows rows = { NULL, 0 };
	int intel = 0, amd = 0, have_dmar, have_ivrs, groups_ok;
	dev_info *devs = NULL;
	size_t ndevs = 0;
	gw_err ignore;

	*out = NULL;
	*nout = 0;
	if (check_root(sysroot, e) != 0)
		return -1;
	root = root_prefix(sysroot);

	/* CPU virtualization. */
	path = gw_xasprintf("%s/proc/cpuinfo", root);
	if (gw_read_file(path, GW_LINUX_MAX_BYTES, &cpuinfo, &len,
	                 &ignore) != 0) {
		add_row(&rows, "cpu-virt", GW_LINUX_FAIL,
		        gw_xstrdup(_("Checking for hardware virtualization")),
		        gw_xasprintf(_("cannot read %s"), path),
		        gw_xstrdup(_("run the check on the host itself, as a "
		                     "user that can read /proc")));
	} else {
		intel = cpu_has_flag(cpuinfo, "vmx");
		amd = !intel && cpu_has_flag(cpuinfo, "svm");
		if (!intel && !amd) {
			intel = strstr(cpuinfo, "GenuineIntel") != NULL;
			amd = strstr(cpuinfo, "AuthenticAMD") != NULL;
			add_row(&rows, "cpu-virt", GW_LINUX_FAIL,
			        gw_xstrdup(_("Checking for hardware "
			                     "virtualization")),
			        gw_xasprintf(_("the CPU flags in %s have neither "
			                       "vmx (Intel VT-x) nor svm (AMD-V)"),
			                     path),
			        gw_xstrdup(_("enable Intel VT-x or AMD-V (SVM) in "
			                     "the BIOS/UEFI setup; on a nested "
			                     "host, expose hardware virtualization "
			                     "to this VM")));
		} else {
			add_row(&rows, "cpu-virt", GW_LINUX_PASS,
			        gw_xstrdup(_("Checking for hardware "
			                     "virtualization")),
			        gw_xasprintf(_("the CPU has %s"),
			                     intel ? "vmx" : "svm"),
			        NULL);
		}
	}
	free(path);

	/* The ACPI table the firmware gives when the IOMMU is on. */
	path = gw_xasprintf("%s/sys/firmware/acpi/tables/DMAR", root);
	have_dmar = exists(path);
	free(path);
	path = gw_xasprintf("%s/sys/firmware/acpi/tables/IVRS", root);
	have_ivrs = exists(path);
	free(path);
	if (!intel && !amd) {
		intel = have_dmar;
		amd = !have_dmar && have_ivrs;
	}
	if (have_dmar || have_ivrs)
		add_row(&rows, "iommu-firmware", GW_LINUX_PASS,
		        gw_xstrdup(_("Checking for device assignment IOMMU "
		                     "support")),
		        gw_xasprintf(_("the firmware has the ACPI %s table "
		                       "(%s)"),
		                     have_dmar ? "DMAR" : "IVRS",
		                     have_dmar ? "Intel VT-d" : "AMD-Vi"),
		        NULL);
	else
		add_row(&rows, "iommu-firmware", GW_LINUX_FAIL,
		        gw_xstrdup(_("Checking for device assignment IOMMU "
		                     "support")),
		        gw_xstrdup(_("IOMMU either disabled in BIOS or not "
		                     "supported by this hardware platform (no "
		                     "ACPI DMAR or IVRS table)")),
		        gw_xstrdup(amd
		            ? _("enable IOMMU / AMD-Vi in the BIOS/UEFI setup")
		            : intel
		            ? _("enable VT-d in the BIOS/UEFI setup")
		            : _("enable VT-d (Intel) or IOMMU / AMD-Vi (AMD) in "
		                "the BIOS/UEFI setup")));

	/* The kernel's IOMMU groups. */
	path = gw_xasprintf("%s/sys/kernel/iommu_groups", root);
	groups_ok = list_dir(path, &groups, &ngroups) == 0 && ngroups > 0;
	free(path);
	if (groups_ok)
		add_row(&rows, "iommu-kernel", GW_LINUX_PASS,
		        gw_xstrdup(_("Checking if IOMMU is enabled by kernel")),
		        gw_xasprintf(_("IOMMU groups in the kernel: %zu"),
		                     ngroups),
		        NULL);
	else if (amd)
		add_row(&rows, "iommu-kernel", GW_LINUX_FAIL,
		        gw_xstrdup(_("Checking if IOMMU is enabled by kernel")),
		        gw_xstrdup(_("IOMMU appears to be disabled in kernel; "
		                     "the AMD IOMMU is on by default, so it is "
		                     "off in the BIOS or on the kernel command "
		                     "line")),
		        gw_xstrdup(_("enable IOMMU / AMD-Vi in the BIOS/UEFI "
		                     "setup and make sure the kernel command "
		                     "line has neither amd_iommu=off nor "
		                     "iommu=off")));
	else
		add_row(&rows, "iommu-kernel", GW_LINUX_FAIL,
		        gw_xstrdup(_("Checking if IOMMU is enabled by kernel")),
		        gw_xstrdup(_("IOMMU appears to be disabled in kernel. "
		                     "Add intel_iommu=on to kernel cmdline "
		                     "arguments")),
		        gw_xstrdup(_("add intel_iommu=on (and iommu=pt) to the "
		                     "kernel command line (GRUB_CMDLINE_LINUX in "
		                     "/etc/default/grub, then update-grub; "
		                     "/etc/kernel/cmdline and proxmox-boot-tool "
		                     "refresh on Proxmox with systemd-boot), "
		                     "then reboot")));
	free_list(groups, ngroups);

	/* The kernel command line. */
	path = gw_xasprintf("%s/proc/cmdline", root);
	if (gw_read_file(path, GW_LINUX_MAX_BYTES, &cmdline, &len,
	                 &ignore) != 0) {
		add_row(&rows, "kernel-cmdline", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xasprintf(_("cannot read %s"), path),
		        gw_xstrdup(_("run the check on the host itself")));
	} else if (has_word(cmdline, "amd_iommu=on")) {
		add_row(&rows, "kernel-cmdline", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("amd_iommu=on is not a valid value: the "
		                     "kernel ignores it (the AMD IOMMU is on by "
		                     "default; amd_iommu= takes off, fullflush, "
		                     "force_isolation, ...)")),
		        gw_xstrdup(_("remove amd_iommu=on from the kernel "
		                     "command line; add iommu=pt if you want "
		                     "passthrough mode for host devices")));
	} else if (has_word(cmdline, "intel_iommu=off") ||
	           has_word(cmdline, "amd_iommu=off") ||
	           has_word(cmdline, "iommu=off")) {
		add_row(&rows, "kernel-cmdline", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("the kernel command line turns the IOMMU "
		                     "off")),
		        gw_xstrdup(_("remove intel_iommu=off, amd_iommu=off and "
		                     "iommu=off from the kernel command line, "
		                     "then reboot")));
	} else if (intel && !groups_ok &&
	           !has_word(cmdline, "intel_iommu=on")) {
		add_row(&rows, "kernel-cmdline", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("intel_iommu=on is not on the kernel "
		                     "command line; kernels before 6.8 leave "
		                     "the Intel IOMMU off without it")),
		        gw_xstrdup(_("add intel_iommu=on to the kernel command "
		                     "line, then reboot")));
	} else {
		add_row(&rows, "kernel-cmdline", GW_LINUX_PASS,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("nothing on the kernel command line keeps "
		                     "the IOMMU off")),
		        NULL);
	}
	free(path);

	/* IOMMU units the kernel registered. */
	path = gw_xasprintf("%s/sys/class/iommu", root);
	if (list_dir(path, &units, &nunits) == 0 && nunits > 0)
		add_row(&rows, "iommu-units", GW_LINUX_PASS,
		        gw_xstrdup(_("Checking for IOMMU units in "
		                     "/sys/class/iommu")),
		        gw_xasprintf(_("IOMMU units: %zu (first: %s)"), nunits,
		                     units[0]),
		        NULL);
	else
		add_row(&rows, "iommu-units", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking for IOMMU units in "
		                     "/sys/class/iommu")),
		        gw_xasprintf(_("%s lists no IOMMU unit"), path),
		        gw_xstrdup(_("enable the IOMMU in the BIOS/UEFI setup "
		                     "and on the kernel command line, then "
		                     "reboot")));
	free(path);

	/* Interrupt remapping, where visible (after the IOMMU rows). */
	check_irq_remap(&rows, root, cmdline, amd, groups_ok || nunits > 0,
	                units, nunits);
	free_list(units, nunits);

	/* The driver of each GPU. */
	if (scan_display_sysfs(root, &devs, &ndevs) != 0 || ndevs == 0) {
		path = gw_xasprintf("%s/sys/bus/pci/devices", root);
		add_row(&rows, "gpu-present", GW_LINUX_WARN,
		        gw_xstrdup(_("Checking for GPUs")),
		        gw_xasprintf(_("no display-class PCI device in %s"),
		                     path),
		        gw_xstrdup(_("check that the GPU is seated and powered "
		                     "and that lspci lists it")));
		free(path);
	}
	for (i = 0; i < ndevs; i++) {
		const dev_info *d = &devs[i];
		char *title;

		if (gw_is_onboard_display(d->vendor))
			continue;
		title = gw_xasprintf(_("Checking the driver of %s "
		                       "(%04x:%04x)"),
		                     d->bdf, d->vendor, d->device);
		if (d->driver && strcmp(d->driver, "vfio-pci") == 0)
			add_row(&rows, "gpu-driver", GW_LINUX_PASS, title,
			        gw_xasprintf(_("%s is bound to vfio-pci, ready "
			                       "for passthrough"), d->bdf),
			        NULL);
		else
			add_row(&rows, "gpu-driver", GW_LINUX_WARN, title,
			        d->driver
			        ? gw_xasprintf(_("%s is bound to %s: the host "
			                         "uses it, a VM cannot get it"),
			                       d->bdf, d->driver)
			        : gw_xasprintf(_("%s has no driver bound"),
			                       d->bdf),
			        gw_xasprintf(_("bind it to vfio-pci: add "
			                       "vfio-pci.ids=%04x:%04x to the "
			                       "kernel command line (or options "
			                       "vfio-pci ids=%04x:%04x in "
			                       "/etc/modprobe.d), blacklist "
			                       "nouveau and nvidia, update the "
			                       "initramfs and reboot"),
			                     d->vendor, d->device, d->vendor,
			                     d->device));
	}
	free_devs(devs, ndevs);
	free(cpuinfo);
	free(cmdline);
	free(root);
	*out = rows.r;
	*nout = rows.n;
	return 0;
}

void
gw_linux_print_checks(const gw_linux_check *rows, size_t n, int json)
{
	size_t i;

	if (json) {
		json_t *o = json_object(), *arr = json_array();

		for (i = 0; i < n; i++) {
			const gw_linux_check *r = &rows[i];
			json_t *j = json_object();

			json_object_set_new(j, "id", json_string(r->id));
			json_object_set_new(j, "status",
			                    json_string(gw_linux_status_word(r->status)));
			json_object_set_new(j, "title", gw_json_text(r->title));
			json_object_set_new(j, "message", gw_json_text(r->message));
			json_object_set_new(j, "fix", r->fix ? gw_json_text(r->fix)
			                                     : json_null());
			json_array_append_new(arr, j);
		}
		json_object_set_new(o, "checks", arr);
		gw_json_print(o);
		json_decref(o);
	} else {
		for (i = 0; i < n; i++) {
			const gw_linux_check *r = &rows[i];

			printf("%s : %s\n", r->title,
			       gw_linux_status_word(r->status));
			if (r->status != GW_LINUX_PASS) {
				printf("  %s\n", r->message);
				if (r->fix) {
					printf(_("  fix: %s"), r->fix);
					fputc('\n', stdout);
				}
			}
		}
	}
}

int
gw_linux_check_command(const char *sysroot, int json, gw_err *e)
{
	check_rows rows = { NULL, 0 };
	size_t i;
	int failed = 0;

	if (gw_linux_checks(sysroot, &rows.r, &rows.n, e) != 0)
		return 2;
	for (i = 0; i < rows.n; i++)
		if (rows.r[i].status == GW_LINUX_FAIL)
			failed = 1;
	gw_linux_print_checks(rows.r, rows.n, json);
	gw_linux_checks_free(rows.r, rows.n);
	return failed ? 1 : 0;
}

/* ---- gpuwiz gpus ------------------------------------------------------ */

typedef gw_linux_bar gpu_bar;
typedef gw_linux_gpu gpu_info;

typedef struct gpu_list {
	gpu_info *g;
	size_t n;
} gpu_list;

void
gw_linux_gpus_free(gw_linux_gpu *gs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		gpu_info *g = &gs[i];

		free(g->bdf);
		free(g->name);
		free(g->group);
		free_list(g->mates, g->nmates);
		free_list(g->foreign, g->nforeign);
		free(g->driver);
	}
	free(gs);
}

static void
gpu_list_free(gpu_list *l)
{
	gw_linux_gpus_free(l->g, l->n);
	l->g = NULL;
	l->n = 0;
}

static jmp_buf pci_jmp;
static char pci_msg[512];

static void __attribute__((noreturn)) GW_PRINTF(1, 2)
pci_error_cb(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof pci_msg, msg, ap);
	va_end(ap);
	longjmp(pci_jmp, 1);
}

static void GW_PRINTF(1, 2)
pci_quiet_cb(char *msg, ...)
{
	(void)msg;
}

/* Group-mates of g and which of them are foreign. */
static void
fill_group(const char *root, gpu_info *g)
{
	char *dir = gw_xasprintf("%s/sys/kernel/iommu_groups/%s/devices", root,
	                         g->group);
	char **names;
	size_t n, i;

	if (list_dir(dir, &names, &n) != 0) {
		free(dir);
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned dom, bus, dev, fn;
		char *p;
		long cls;

		if (strcmp(names[i], g->bdf) == 0)
			continue;
		g->mates = gw_xrealloc(g->mates,
		                       (g->nmates + 1) * sizeof *g->mates);
		g->mates[g->nmates++] = gw_xstrdup(names[i]);
		if (sscanf(names[i], "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 &&
		    dom == g->dom && bus == g->bus && dev == g->dev)
			continue;    /* another function of the same card */
		p = gw_xasprintf("%s/%s/class", dir, names[i]);
		cls = read_hex_file(p);
		free(p);
		if (cls >= 0 && ((cls >> 8) & 0xffff) == 0x0604)
			continue;    /* a PCI bridge / root port: vfio allows it */
		g->foreign = gw_xrealloc(g->foreign,
		                         (g->nforeign + 1) * sizeof *g->foreign);
		g->foreign[g->nforeign++] = gw_xstrdup(names[i]);
	}
	free_list(names, n);
	free(dir);
}

static int
cmp_gpu(const void *a, const void *b)
{
	return strcmp(((const gpu_info *)a)->bdf, ((const gpu_info *)b)->bdf);
}

/* The display-class devices through libpci.  -1 with e set when libpci
 * fails. */
static int
scan_gpus(const gw_table *t, const char *root, const char *busdir,
          gpu_list *out, gw_err *e)
{
	struct pci_access *volatile acc = NULL;
	char *volatile pathbuf = gw_xstrdup(busdir);
	struct pci_dev *d;
	size_t i;

	acc = pci_alloc();
	acc->error = pci_error_cb;
	acc->warning = pci_quiet_cb;
	acc->debug = pci_quiet_cb;
	if (setjmp(pci_jmp) != 0) {
		gw_err_set(e, _("%s: cannot read the PCI devices: %s"), busdir,
		           pci_msg);
		gpu_list_free(out);
		pci_cleanup(acc);
		free(pathbuf);
		return -1;
	}
	acc->method = PCI_ACCESS_SYS_BUS_PCI;
	if (pci_set_param(acc, "sysfs.path", pathbuf) != 0)
		pci_error_cb("no sysfs.path parameter");
	pci_init(acc);
	pci_scan_bus(acc);
	for (d = acc->devices; d; d = d->next) {
		gpu_info *g;
		const gw_gpu *row;
		char *p;
		int k;

		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS |
		                 PCI_FILL_BASES | PCI_FILL_SIZES |
		                 PCI_FILL_IO_FLAGS | PCI_FILL_SUBSYS);
		if ((d->device_class >> 8) != 0x03)
			continue;
		out->g = gw_xrealloc(out->g, (out->n + 1) * sizeof *out->g);
		g = &out->g[out->n++];
		memset(g, 0, sizeof *g);
		g->dom = (unsigned)d->domain;
		g->bus = d->bus;
		g->dev = d->dev;
		g->fn = d->func;
		g->bdf = gw_xasprintf("%04x:%02x:%02x.%x", g->dom, g->bus,
		                      g->dev, g->fn);
		g->vendor = d->vendor_id;
		g->device = d->device_id;
		if (d->known_fields & PCI_FILL_SUBSYS) {
			g->subvendor = d->subsys_vendor_id;
			g->subdevice = d->subsys_id;
		}
		row = t ? gw_table_find_pci(t, g->vendor, g->device,
		                            g->subvendor, g->subdevice, NULL)
		        : NULL;
		g->row = row;
		g->onboard = gw_is_onboard_display(g->vendor);
		g->vram_gb = row ? row->vram_gb : -1;
		if (row) {
			g->name = gw_xstrdup(row->name);
		} else {
			char nb[256];
			char *nm = pci_lookup_name(acc, nb, sizeof nb,
			                           PCI_LOOKUP_DEVICE |
			                           PCI_LOOKUP_NO_NUMBERS,
			                           g->vendor, g->device);

			g->name = nm && *nm ? gw_xstrdup(nm) : NULL;
		}
		for (k = 0; k < 6; k++) {
			pciaddr_t fl = d->flags[k], ba = d->base_addr[k];
			gpu_bar *b;

			if (d->size[k] == 0)
				continue;
			b = &g->bars[g->nbars++];
			b->index = k;
			b->size = (uint64_t)d->size[k];
			b->io = (fl & PCI_IORESOURCE_IO) ||
			        (!(fl & PCI_IORESOURCE_MEM) &&
			         (ba & PCI_BASE_ADDRESS_SPACE_IO));
			if (!b->io) {
				b->is64 = (fl & PCI_IORESOURCE_MEM_64) ||
				          (ba & PCI_BASE_ADDRESS_MEM_TYPE_MASK) ==
				              PCI_BASE_ADDRESS_MEM_TYPE_64;
				b->pref = (fl & PCI_IORESOURCE_PREFETCH) ||
				          (ba & PCI_BASE_ADDRESS_MEM_PREFETCH);
			}
		}
		p = gw_xasprintf("%s/devices/%s/iommu_group", busdir, g->bdf);
		g->group = link_base(p);
		free(p);
		p = gw_xasprintf("%s/devices/%s/driver", busdir, g->bdf);
		g->driver = link_base(p);
		free(p);
	}
	pci_cleanup(acc);
	free(pathbuf);
	for (i = 0; i < out->n; i++)
		if (out->g[i].group)
			fill_group(root, &out->g[i]);
	if (out->n > 1)
		qsort(out->g, out->n, sizeof *out->g, cmp_gpu);
	return 0;
}

int
gw_linux_gpus(const gw_table *t, const char *sysroot, gw_linux_gpu **out,
              size_t *n, gw_err *e)
{
	char *root, *busdir, *devdir;
	gpu_list l = { NULL, 0 };
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (check_root(sysroot, e) != 0)
		return -1;
	root = root_prefix(sysroot);
	busdir = gw_xasprintf("%s/sys/bus/pci", root);
	devdir = gw_xasprintf("%s/devices", busdir);
	if (!is_dir(devdir)) {
		gw_err_set(e, _("%s: no such directory; expected the sysfs PCI "
		                "devices of a Linux host"), devdir);
		rc = -1;
	} else if (scan_gpus(t, root, busdir, &l, e) != 0) {
		rc = -1;
	} else {
		*out = l.g;
		*n = l.n;
	}
	free(devdir);
	free(busdir);
	free(root);
	return rc;
}

uint64_t
gw_linux_gpu_bar_gb(const gw_linux_gpu *g)
{
	uint64_t bars[6], need, gb;
	size_t nb = 0;
	int k;
	gw_err me;

	for (k = 0; k < g->nbars && k < 6; k++)
		if (g->bars[k].is64)
			bars[nb++] = g->bars[k].size;
	if (nb == 0 || gw_mmio_bars(bars, nb, &need, &me) != 0)
		return 0;
	gb = (need + (1ULL << 30) - 1) >> 30;
	return gb == 0 && need > 0 ? 1 : gb;
}

/* "64G", "32M", "16K", "128": bytes in the largest exact unit. */
static char *
size_text(uint64_t b)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (b >= 1024 && b % 1024 == 0 && u < 3) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		return gw_xasprintf("%llu", (unsigned long long)b);
	return gw_xasprintf("%llu%c", (unsigned long long)b, units[u]);
}

/* One table line: cells padded to widths (terminal cells). */
static void
print_row(char **c, const int *w, int nc)
{
	int i, k;

	for (i = 0; i < nc; i++) {
		fputs(c[i], stdout);
		if (i + 1 < nc)
			for (k = gw_text_cells(c[i]); k < w[i] + 2; k++)
				fputc(' ', stdout);
	}
	fputc('\n', stdout);
}

int
gw_linux_gpus_command(const gw_table *t, const char *sysroot, int json,
                      gw_err *e)
{
	char *root, *busdir;
	gpu_list l = { NULL, 0 };
	uint64_t *bars = NULL, rule_gb = 0, bar_gb = 0, mmio = 0, total = 0;
	size_t nbars = 0, i, k;
	int mmio_known = 0;
	char **notes = NULL;
	size_t nnotes = 0;

	if (gw_linux_gpus(t, sysroot, &l.g, &l.n, e) != 0)
		return 2;
	root = root_prefix(sysroot);
	busdir = gw_xasprintf("%s/sys/bus/pci", root);

	/* MMIO for all of them in one VM: the rule on the known VRAM and the
	 * BAR need of the 64-bit BARs, the larger wins. */
	for (i = 0; i < l.n; i++) {
		const gpu_info *g = &l.g[i];

		if (g->vram_gb > 0)
			total += (uint64_t)g->vram_gb;
		for (k = 0; k < (size_t)g->nbars; k++)
			if (g->bars[k].is64) {
				bars = gw_xrealloc(bars, (nbars + 1) * sizeof *bars);
				bars[nbars++] = g->bars[k].size;
			}
	}
	if (total > 0 || nbars > 0) {
		gw_err me;
		int ok = 1;

		if (total > 0 && gw_mmio_rule(total, &rule_gb, &me) != 0)
			ok = 0;
		if (ok && nbars > 0) {
			uint64_t need;

			if (gw_mmio_bars(bars, nbars, &need, &me) != 0) {
				ok = 0;
			} else {
				bar_gb = (need + (1ULL << 30) - 1) >> 30;
				if (bar_gb == 0 && need > 0)
					bar_gb = 1;
			}
		}
		if (ok) {
			mmio = rule_gb > bar_gb ? rule_gb : bar_gb;
			mmio_known = 1;
		} else {
			notes = gw_xrealloc(notes, (nnotes + 1) * sizeof *notes);
			notes[nnotes++] = gw_xasprintf(_("no MMIO size: %s"),
			                               me.msg);
		}
	}
	free(bars);

	/* Group-mates that must go along. */
	for (i = 0; i < l.n; i++) {
		const gpu_info *g = &l.g[i];

		for (k = 0; k < g->nforeign; k++) {
			notes = gw_xrealloc(notes, (nnotes + 1) * sizeof *notes);
			notes[nnotes++] = gw_xasprintf(
			    _("WARN: %s shares IOMMU group %s with %s, which is "
			      "not part of the card: pass it through to the same "
			      "VM too, or move the GPU to a slot with its own "
			      "group"), g->bdf, g->group, g->foreign[k]);
		}
		if (g->group == NULL && !g->onboard) {
			notes = gw_xrealloc(notes, (nnotes + 1) * sizeof *notes);
			notes[nnotes++] = gw_xasprintf(
			    _("WARN: %s is in no IOMMU group: the IOMMU is off "
			      "(run gpuwiz check)"), g->bdf);
		}
	}

	if (json) {
		json_t *o = json_object(), *arr = json_array(),
		       *jn = json_array();

		for (i = 0; i < l.n; i++) {
			const gpu_info *g = &l.g[i];
			json_t *j = json_object(), *jb = json_array(),
			       *jm = json_array();

			json_object_set_new(j, "bdf", json_string(g->bdf));
			json_object_set_new(j, "vendor_id", hex_id(g->vendor));
			json_object_set_new(j, "device_id", hex_id(g->device));
			json_object_set_new(j, "subvendor_id",
			                    hex_id(g->subvendor));
			json_object_set_new(j, "subdevice_id",
			                    hex_id(g->subdevice));
			json_object_set_new(j, "name", g->name
			                    ? gw_json_text(g->name) : json_null());
			json_object_set_new(j, "vram_gb", g->vram_gb >= 0
			                    ? json_integer(g->vram_gb)
			                    : json_null());
			for (k = 0; k < (size_t)g->nbars; k++) {
				const gpu_bar *b = &g->bars[k];
				json_t *x = json_object();

				json_object_set_new(x, "index",
				                    json_integer(b->index));
				json_object_set_new(x, "size_bytes",
				    json_integer((json_int_t)b->size));
				json_object_set_new(x, "is_64bit",
				                    json_boolean(b->is64));
				json_object_set_new(x, "prefetchable",
				                    json_boolean(b->pref));
				json_object_set_new(x, "io", json_boolean(b->io));
				json_array_append_new(jb, x);
			}
			json_object_set_new(j, "bars", jb);
			json_object_set_new(j, "iommu_group", g->group
			                    ? gw_json_text(g->group) : json_null());
			for (k = 0; k < g->nmates; k++)
				json_array_append_new(jm, gw_json_text(g->mates[k]));
			json_object_set_new(j, "iommu_group_devices", jm);
			json_object_set_new(j, "driver", g->driver
			                    ? gw_json_text(g->driver) : json_null());
			json_array_append_new(arr, j);
		}
		json_object_set_new(o, "gpus", arr);
		json_object_set_new(o, "mmio_size_gb", mmio_known
		                    ? json_integer((json_int_t)mmio)
		                    : json_null());
		for (i = 0; i < nnotes; i++)
			json_array_append_new(jn, gw_json_text(notes[i]));
		json_object_set_new(o, "notes", jn);
		gw_json_print(o);
		json_decref(o);
	} else if (l.n == 0) {
		printf(_("no display-class device in %s"), busdir);
		fputc('\n', stdout);
	} else {
		enum { NC = 7 };
		char **cells = gw_xcalloc((l.n + 1) * NC, sizeof *cells);
		int w[NC] = { 0 };
		size_t r;
		int c;

		printf(_("Display-class devices in %s:"), busdir);
		fputc('\n', stdout);
		cells[0] = gw_xstrdup(_("Address"));
		cells[1] = gw_xstrdup(_("PCI id"));
		cells[2] = gw_xstrdup(_("Name"));
		cells[3] = gw_xstrdup(_("VRAM"));
		cells[4] = gw_xstrdup(_("64-bit BARs"));
		cells[5] = gw_xstrdup(_("IOMMU group"));
		cells[6] = gw_xstrdup(_("Driver"));
		for (i = 0; i < l.n; i++) {
			const gpu_info *g = &l.g[i];
			char **cl = &cells[(i + 1) * NC];
			gw_buf b;

			cl[0] = gw_xstrdup(g->bdf);
			cl[1] = gw_xasprintf("%04x:%04x", g->vendor, g->device);
			cl[2] = gw_xstrdup(g->name ? g->name : "-");
			cl[3] = g->vram_gb >= 0
			        ? gw_xasprintf(_("%d GB"), g->vram_gb)
			        : gw_xstrdup(_("unknown"));
			gw_buf_init(&b);
			for (k = 0; k < (size_t)g->nbars; k++) {
				char *s;

				if (!g->bars[k].is64)
					continue;
				s = size_text(g->bars[k].size);
				gw_buf_printf(&b, "%s%d:%s", b.len ? " " : "",
				              g->bars[k].index, s);
				free(s);
			}
			cl[4] = b.len ? gw_buf_steal(&b) : gw_xstrdup("-");
			gw_buf_free(&b);
			cl[5] = gw_xstrdup(g->group ? g->group : "-");
			cl[6] = gw_xstrdup(g->driver ? g->driver : "-");
		}
		for (r = 0; r <= l.n; r++)
			for (c = 0; c < NC; c++) {
				int n = gw_text_cells(cells[r * NC + (size_t)c]);

				if (n > w[c])
					w[c] = n;
			}
		for (r = 0; r <= l.n; r++)
			print_row(&cells[r * NC], w, NC);
		for (r = 0; r < (l.n + 1) * NC; r++)
			free(cells[r]);
		free(cells);
		if (mmio_known && total == 0)
			printf(_("64-bit MMIO for all of them in one VM: %llu GB "
			         "(VRAM unknown, sized from the BARs)"),
			       (unsigned long long)mmio);
		else if (mmio_known)
			printf(_("64-bit MMIO for all of them in one VM: %llu GB "
			         "(rule on the VRAM: %llu GB, BAR need: %llu GB)"),
			       (unsigned long long)mmio,
			       (unsigned long long)rule_gb,
			       (unsigned long long)bar_gb);
		else
			fputs(_("64-bit MMIO: unknown (no VRAM or 64-bit BAR "
			        "known)"), stdout);
		fputc('\n', stdout);
		for (i = 0; i < nnotes; i++)
			printf("%s\n", notes[i]);
	}

	free_list(notes, nnotes);
	gpu_list_free(&l);
	free(busdir);
	free(root);
	return 0;
}

/* ---- helpers for verify.c (linux.h) ----------------------------------- */

char *
gw_linux_root(const char *sysroot, gw_err *e)
{
	if (check_root(sysroot, e) != 0)
		return NULL;
	return root_prefix(sysroot);
}

int
gw_linux_list_dir(const char *path, char ***out, size_t *n)
{
	return list_dir(path, out, n);
}

void
gw_linux_free_list(char **l, size_t n)
{
	free_list(l, n);
}

long
gw_linux_read_hex(const char *path)
{
	return read_hex_file(path);
}

char *
gw_linux_link_base(const char *path)
{
	return link_base(path);
}
