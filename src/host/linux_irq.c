/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_irq.c: the interrupt-remap row of gpuwiz check (linux_int.h):
 * what /proc/interrupts shows and what the Intel IOMMU units support.
 */
#include "linux_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int rc;

	*kinds = NULL;
	if (f == NULL)
		return -1;
	rc = gw_linux_scan_interrupts(f, kinds);
	fclose(f);
	return rc;
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
		char *p, *data = NULL;
		size_t len;
		int ir;
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
		ir = gw_linux_ecap_ir(data);
		free(data);
		if (ir < 0)
			continue;
		if (ir == 0) {
			*unit = units[i];
			return 0;
		}
		if (r < 0)
			*unit = units[i];
		r = 1;
	}
	return r;
}

/* The row, with its id and title; takes ownership of message and fix. */
static void
irq_row(gw_linux_rows *rows, gw_sev st, char *message, char *fix)
{
	gw_linux_add_row(rows, "interrupt-remap", st,
	                 gw_xstrdup(_("Checking for interrupt remapping")),
	                 message, fix);
}

/* The interrupt-remap row.  virt-host-validate has no such check; the
 * messages quote the kernel's VFIO refusal ("No interrupt remapping
 * support") instead.  PASS when /proc/interrupts shows remapped
 * interrupts; otherwise WARN, not FAIL: VFIO can still run with
 * vfio_iommu_type1 allow_unsafe_interrupts=1, only not safely.  WARN too
 * when /proc/interrupts cannot be read: the row says it could not be
 * checked rather than disappearing. */
void
gw_linux_check_irq_remap(gw_linux_rows *rows, const char *root,
                         const char *cmdline, int amd, int iommu_on,
                         char **units, size_t nunits)
{
	char *path = gw_xasprintf("%s/proc/interrupts", root), *kinds;
	const char *unit;
	int seen = scan_interrupts(path, &kinds);
	int hw = intel_ecap_ir(root, units, nunits, &unit);

	if (seen == 0 && kinds) {
		irq_row(rows, GW_SEV_PASS,
		        gw_xasprintf(_("interrupt remapping is on: %s has %s "
		                       "interrupts"), path, kinds),
		        NULL);
	} else if (hw == 0) {
		irq_row(rows, GW_SEV_WARN,
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
		irq_row(rows, GW_SEV_WARN,
		        gw_xasprintf(_("cannot read %s: whether interrupt "
		                       "remapping is on could not be checked"),
		                     path),
		        gw_xstrdup(_("run the check on the host itself, as a "
		                     "user that can read /proc")));
	} else if (!iommu_on) {
		irq_row(rows, GW_SEV_WARN,
		        gw_xasprintf(_("no interrupt in %s is remapped (no "
		                       "IR-PCI-MSI or IR-IO-APIC interrupt): "
		                       "interrupt remapping needs the IOMMU, "
		                       "which is off"), path),
		        gw_xstrdup(_("turn the IOMMU on first (see the rows "
		                     "above); interrupt remapping comes with it")));
	} else if (cmdline && (gw_linux_has_word(cmdline, "intremap=off") ||
	                       gw_linux_has_word(cmdline, "nointremap"))) {
		irq_row(rows, GW_SEV_WARN,
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
		irq_row(rows, GW_SEV_WARN,
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
