/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_checks.c: the rows of gpuwiz check (linux.h), read from /proc
 * and /sys directly, like virt-host-validate (doc/design.md, section 15.7); the
 * interrupt-remap row is in linux_irq.c.
 */
#include "linux_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (gw_linux_list_dir(dir, &names, &nn) != 0) {
		free(dir);
		return -1;
	}
	for (i = 0; i < nn; i++) {
		char *p = gw_xasprintf("%s/%s/class", dir, names[i]);
		long cls = gw_linux_read_hex(p);
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
		v = gw_linux_read_hex(p);
		d->vendor = v < 0 ? 0 : (unsigned)v;
		free(p);
		p = gw_xasprintf("%s/%s/device", dir, names[i]);
		v = gw_linux_read_hex(p);
		d->device = v < 0 ? 0 : (unsigned)v;
		free(p);
		p = gw_xasprintf("%s/%s/driver", dir, names[i]);
		d->driver = gw_linux_link_base(p);
		free(p);
	}
	gw_strs_free(names, nn);
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

/* What the rows find out, in order, and what later rows need of it. */
typedef struct host_facts {
	const char *root;
	gw_linux_rows rows;
	char *cpuinfo, *cmdline;      /* NULL when unreadable */
	int intel, amd;               /* the CPU's (else the firmware's) maker */
	int groups_ok;                /* the kernel has IOMMU groups */
	char **units;                 /* /sys/class/iommu */
	size_t nunits;
} host_facts;

static void
add_row(host_facts *c, const char *id, gw_sev st, char *title,
        char *message, char *fix)
{
	gw_linux_add_row(&c->rows, id, st, title, message, fix);
}

/* CPU virtualization: sets intel/amd from the flags, else the vendor. */
static void
check_cpu(host_facts *c)
{
	char *path = gw_xasprintf("%s/proc/cpuinfo", c->root);
	size_t len;
	gw_err ignore;

	if (gw_read_file(path, GW_LINUX_MAX_BYTES, &c->cpuinfo, &len,
	                 &ignore) != 0) {
		add_row(c, "cpu-virt", GW_SEV_ERROR,
		        gw_xstrdup(_("Checking for hardware virtualization")),
		        gw_xasprintf(_("cannot read %s"), path),
		        gw_xstrdup(_("run the check on the host itself, as a "
		                     "user that can read /proc")));
	} else {
		c->intel = gw_linux_cpu_has_flag(c->cpuinfo, "vmx");
		c->amd = !c->intel && gw_linux_cpu_has_flag(c->cpuinfo, "svm");
		if (!c->intel && !c->amd) {
			c->intel = strstr(c->cpuinfo, "GenuineIntel") != NULL;
			c->amd = strstr(c->cpuinfo, "AuthenticAMD") != NULL;
			add_row(c, "cpu-virt", GW_SEV_ERROR,
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
			add_row(c, "cpu-virt", GW_SEV_PASS,
			        gw_xstrdup(_("Checking for hardware "
			                     "virtualization")),
			        gw_xasprintf(_("the CPU has %s"),
			                     c->intel ? "vmx" : "svm"),
			        NULL);
		}
	}
	free(path);
}

/* The ACPI table the firmware gives when the IOMMU is on. */
static void
check_firmware(host_facts *c)
{
	char *path;
	int have_dmar, have_ivrs;

	path = gw_xasprintf("%s/sys/firmware/acpi/tables/DMAR", c->root);
	have_dmar = gw_linux_exists(path);
	free(path);
	path = gw_xasprintf("%s/sys/firmware/acpi/tables/IVRS", c->root);
	have_ivrs = gw_linux_exists(path);
	free(path);
	if (!c->intel && !c->amd) {
		c->intel = have_dmar;
		c->amd = !have_dmar && have_ivrs;
	}
	if (have_dmar || have_ivrs)
		add_row(c, "iommu-firmware", GW_SEV_PASS,
		        gw_xstrdup(_("Checking for device assignment IOMMU "
		                     "support")),
		        gw_xasprintf(_("the firmware has the ACPI %s table "
		                       "(%s)"),
		                     have_dmar ? "DMAR" : "IVRS",
		                     have_dmar ? "Intel VT-d" : "AMD-Vi"),
		        NULL);
	else
		add_row(c, "iommu-firmware", GW_SEV_ERROR,
		        gw_xstrdup(_("Checking for device assignment IOMMU "
		                     "support")),
		        gw_xstrdup(_("IOMMU either disabled in BIOS or not "
		                     "supported by this hardware platform (no "
		                     "ACPI DMAR or IVRS table)")),
		        gw_xstrdup(c->amd
		            ? _("enable IOMMU / AMD-Vi in the BIOS/UEFI setup")
		            : c->intel
		            ? _("enable VT-d in the BIOS/UEFI setup")
		            : _("enable VT-d (Intel) or IOMMU / AMD-Vi (AMD) in "
		                "the BIOS/UEFI setup")));
}

/* The kernel's IOMMU groups. */
static void
check_groups(host_facts *c)
{
	char *path = gw_xasprintf("%s/sys/kernel/iommu_groups", c->root);
	char **groups = NULL;
	size_t ngroups = 0;

	c->groups_ok = gw_linux_list_dir(path, &groups, &ngroups) == 0 &&
	                ngroups > 0;
	free(path);
	if (c->groups_ok)
		add_row(c, "iommu-kernel", GW_SEV_PASS,
		        gw_xstrdup(_("Checking if IOMMU is enabled by kernel")),
		        gw_xasprintf(_("IOMMU groups in the kernel: %zu"),
		                     ngroups),
		        NULL);
	else if (c->amd)
		add_row(c, "iommu-kernel", GW_SEV_ERROR,
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
		add_row(c, "iommu-kernel", GW_SEV_ERROR,
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
	gw_strs_free(groups, ngroups);
}

/* The kernel command line: what keeps the IOMMU off. */
static void
check_cmdline(host_facts *c)
{
	char *path = gw_xasprintf("%s/proc/cmdline", c->root);
	size_t len;
	gw_err ignore;

	if (gw_read_file(path, GW_LINUX_MAX_BYTES, &c->cmdline, &len,
	                 &ignore) != 0) {
		add_row(c, "kernel-cmdline", GW_SEV_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xasprintf(_("cannot read %s"), path),
		        gw_xstrdup(_("run the check on the host itself")));
	} else if (gw_linux_has_word(c->cmdline, "amd_iommu=on")) {
		add_row(c, "kernel-cmdline", GW_SEV_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("amd_iommu=on is not a valid value: the "
		                     "kernel ignores it (the AMD IOMMU is on by "
		                     "default; amd_iommu= takes off, fullflush, "
		                     "force_isolation, ...)")),
		        gw_xstrdup(_("remove amd_iommu=on from the kernel "
		                     "command line; add iommu=pt if you want "
		                     "passthrough mode for host devices")));
	} else if (gw_linux_has_word(c->cmdline, "intel_iommu=off") ||
	           gw_linux_has_word(c->cmdline, "amd_iommu=off") ||
	           gw_linux_has_word(c->cmdline, "iommu=off")) {
		add_row(c, "kernel-cmdline", GW_SEV_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("the kernel command line turns the IOMMU "
		                     "off")),
		        gw_xstrdup(_("remove intel_iommu=off, amd_iommu=off and "
		                     "iommu=off from the kernel command line, "
		                     "then reboot")));
	} else if (c->intel && !c->groups_ok &&
	           !gw_linux_has_word(c->cmdline, "intel_iommu=on")) {
		add_row(c, "kernel-cmdline", GW_SEV_WARN,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("intel_iommu=on is not on the kernel "
		                     "command line; kernels before 6.8 leave "
		                     "the Intel IOMMU off without it")),
		        gw_xstrdup(_("add intel_iommu=on to the kernel command "
		                     "line, then reboot")));
	} else {
		add_row(c, "kernel-cmdline", GW_SEV_PASS,
		        gw_xstrdup(_("Checking the kernel command line")),
		        gw_xstrdup(_("nothing on the kernel command line keeps "
		                     "the IOMMU off")),
		        NULL);
	}
	free(path);
}

/* IOMMU units the kernel registered. */
static void
check_units(host_facts *c)
{
	char *path = gw_xasprintf("%s/sys/class/iommu", c->root);

	if (gw_linux_list_dir(path, &c->units, &c->nunits) == 0 &&
	    c->nunits > 0)
		add_row(c, "iommu-units", GW_SEV_PASS,
		        gw_xstrdup(_("Checking for IOMMU units in "
		                     "/sys/class/iommu")),
		        gw_xasprintf(_("IOMMU units: %zu (first: %s)"), c->nunits,
		                     c->units[0]),
		        NULL);
	else
		add_row(c, "iommu-units", GW_SEV_WARN,
		        gw_xstrdup(_("Checking for IOMMU units in "
		                     "/sys/class/iommu")),
		        gw_xasprintf(_("%s lists no IOMMU unit"), path),
		        gw_xstrdup(_("enable the IOMMU in the BIOS/UEFI setup "
		                     "and on the kernel command line, then "
		                     "reboot")));
	free(path);
}

/* One gpu-driver row: vfio-pci is ready, anything else is the host's. */
static void
check_driver(host_facts *c, const dev_info *d)
{
	char *title;

	title = gw_xasprintf(_("Checking the driver of %s "
	                       "(%04x:%04x)"),
	                     d->bdf, d->vendor, d->device);
	if (d->driver && strcmp(d->driver, "vfio-pci") == 0)
		add_row(c, "gpu-driver", GW_SEV_PASS, title,
		        gw_xasprintf(_("%s is bound to vfio-pci, ready "
		                       "for passthrough"), d->bdf),
		        NULL);
	else
		add_row(c, "gpu-driver", GW_SEV_WARN, title,
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

/* The driver of each GPU (not of an onboard/BMC display). */
static void
check_gpus(host_facts *c)
{
	dev_info *devs = NULL;
	size_t ndevs = 0, i;
	char *path;

	if (scan_display_sysfs(c->root, &devs, &ndevs) != 0 || ndevs == 0) {
		path = gw_xasprintf("%s/sys/bus/pci/devices", c->root);
		add_row(c, "gpu-present", GW_SEV_WARN,
		        gw_xstrdup(_("Checking for GPUs")),
		        gw_xasprintf(_("no display-class PCI device in %s"),
		                     path),
		        gw_xstrdup(_("check that the GPU is seated and powered "
		                     "and that lspci lists it")));
		free(path);
	}
	for (i = 0; i < ndevs; i++)
		if (!gw_is_onboard_display(devs[i].vendor))
			check_driver(c, &devs[i]);
	free_devs(devs, ndevs);
}

int
gw_linux_checks(const char *sysroot, gw_finding **out, size_t *nout,
                gw_err *e)
{
	host_facts c;
	char *root;

	*out = NULL;
	*nout = 0;
	root = gw_linux_root(sysroot, e);
	if (root == NULL)
		return -1;
	memset(&c, 0, sizeof c);
	c.root = root;
	check_cpu(&c);
	check_firmware(&c);
	check_groups(&c);
	check_cmdline(&c);
	check_units(&c);
	/* Interrupt remapping, where visible (after the IOMMU rows). */
	gw_linux_check_irq_remap(&c.rows, root, c.cmdline, c.amd,
	                         c.groups_ok || c.nunits > 0, c.units,
	                         c.nunits);
	gw_strs_free(c.units, c.nunits);
	check_gpus(&c);
	free(c.cpuinfo);
	free(c.cmdline);
	free(root);
	*out = c.rows.r;
	*nout = c.rows.n;
	return 0;
}
