/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_proc.c: a linux sample's /proc files and its ACPI table. */
#include "samplehost_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- linux: the tree -------------------------------------------------- */

/* Flags of a Skylake-SP Xeon and a Zen 3 Ryzen, split where vmx / svm
 * go. */
static const char intel_flags1[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"pse36 clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx "
	"pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good "
	"nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 "
	"monitor ds_cpl";
static const char intel_flags2[] =
	" smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 "
	"x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand "
	"lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cdp_l3 "
	"invpcid_single intel_ppin ssbd mba ibrs ibpb stibp fsgsbase "
	"tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm cqm mpx rdt_a "
	"avx512f avx512dq rdseed adx smap clflushopt clwb intel_pt avx512cd "
	"avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc "
	"cqm_occup_llc cqm_mbm_total cqm_mbm_local dtherm ida arat pln pts "
	"pku ospke md_clear flush_l1d arch_capabilities";
static const char intel_vmx_flags[] =
	"vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb "
	"flexpriority apicv tsc_offset vtpr mtf vapic ept vpid "
	"unrestricted_guest vapic_reg vid ple shadow_vmcs pml";
static const char amd_flags1[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb "
	"rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid extd_apicid "
	"aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 sse4_1 sse4_2 "
	"x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy";
static const char amd_flags2[] =
	" extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs "
	"skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc "
	"mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba ibrs ibpb stibp vmmcall "
	"fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a rdseed adx smap "
	"clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc "
	"cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr "
	"rdpru wbnoinvd arat";
static const char amd_svm_flags[] =
	" npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid "
	"decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif "
	"v_spec_ctrl";
static const char amd_flags3[] =
	" umip pku ospke vaes vpclmulqdq rdpid overflow_recov succor smca fsrm";

/* One /proc/interrupts line: the count on CPU0, 0 on the others. */
static void
irq_line(gw_buf *b, unsigned cpus, int num, unsigned count, const char *chip,
         unsigned long hwirq, const char *type, const char *name)
{
	unsigned i;

	gw_buf_printf(b, "%4d:", num);
	for (i = 0; i < cpus; i++)
		gw_buf_printf(b, " %10u", i == 0 ? count : 0u);
	gw_buf_printf(b, "  %-11s %lu-%-8s %s\n", chip, hwirq, type, name);
}

/* /proc/cpuinfo: one processor block per CPU. */
static void
write_cpuinfo(mk *m, const shost *h)
{
	gw_buf b;
	unsigned i;

	gw_buf_init(&b);
	for (i = 0; i < h->cpus; i++) {
		gw_buf_printf(&b,
		              "processor\t: %u\n"
		              "vendor_id\t: %s\n"
		              "cpu family\t: %u\n"
		              "model\t\t: %u\n"
		              "model name\t: %s\n"
		              "stepping\t: %u\n"
		              "physical id\t: 0\n"
		              "siblings\t: %u\n"
		              "core id\t\t: %u\n"
		              "cpu cores\t: %u\n"
		              "fpu\t\t: yes\n"
		              "flags\t\t: ",
		              i, h->amd ? "AuthenticAMD" : "GenuineIntel",
		              h->family, h->model, h->cpu_model, h->stepping,
		              h->cpus, i, h->cpus);
		if (h->amd)
			gw_buf_printf(&b, "%s%s%s%s%s\n", amd_flags1,
			              h->virt ? " svm" : "", amd_flags2,
			              h->virt ? amd_svm_flags : "", amd_flags3);
		else
			gw_buf_printf(&b, "%s%s%s\n", intel_flags1,
			              h->virt ? " vmx" : "", intel_flags2);
		if (!h->amd && h->virt)
			gw_buf_printf(&b, "vmx flags\t: %s\n", intel_vmx_flags);
		gw_buf_printf(&b, "address sizes\t: %s\n\n",
		              h->amd ? "48 bits physical, 48 bits virtual"
		                     : "46 bits physical, 48 bits virtual");
	}
	smp_mk_text(m, "proc/cpuinfo", b.data);
	gw_buf_free(&b);
}

/* The MSI lines of the IOMMU units and of the devices a host driver
 * uses, numbered from irq. */
static void
msi_lines(gw_buf *b, const shost *h, int irq)
{
	unsigned u;
	size_t j;

	for (u = 0; u < h->units; u++) {
		char name[16];

		if (h->amd) {
			irq_line(b, h->cpus, irq++, 0, "PCI-MSI", 4096UL * (u + 1),
			         "edge", "AMD-Vi");
		} else {
			snprintf(name, sizeof name, "dmar%u", u);
			irq_line(b, h->cpus, irq++, 0, "DMAR-MSI", u, "edge",
			         name);
		}
	}
	for (j = 0; j < h->ndevs; j++) {
		const sdev *d = &h->devs[j];
		unsigned long hwirq = ((unsigned long)d->bus << 19) |
		                      ((unsigned long)d->dev << 14) |
		                      ((unsigned long)d->fn << 11);

		if (!d->driver || d->bridge || strcmp(d->driver, "vfio-pci") == 0)
			continue;
		irq_line(b, h->cpus, irq++, 1000 + 37 * (unsigned)j,
		         h->ir ? "IR-PCI-MSI" : "PCI-MSI", hwirq, "edge",
		         d->driver);
	}
}

/* /proc/interrupts: the legacy lines, the IOMMU units' own MSI, then one
 * MSI line per device a host driver uses. */
static void
write_interrupts(mk *m, const shost *h)
{
	const char *ioapic = h->ir ? "IR-IO-APIC" : "IO-APIC";
	gw_buf b;
	unsigned i;

	gw_buf_init(&b);
	gw_buf_puts(&b, "    ");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, "       CPU%-3u", i);
	gw_buf_puts(&b, "\n");
	irq_line(&b, h->cpus, 0, 44, ioapic, 2, "edge", "timer");
	irq_line(&b, h->cpus, 8, 0, ioapic, 8, "edge", "rtc0");
	irq_line(&b, h->cpus, 9, 0, ioapic, 9, "fasteoi", "acpi");
	msi_lines(&b, h, 24);
	gw_buf_puts(&b, " NMI:");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, " %10u", 0u);
	gw_buf_puts(&b, "   Non-maskable interrupts\n LOC:");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, " %10u", 100000u + 1000u * i);
	gw_buf_puts(&b, "   Local timer interrupts\n ERR:          0\n"
	                " MIS:          0\n");
	smp_mk_text(m, "proc/interrupts", b.data);
	gw_buf_free(&b);
}

void
smp_write_proc(mk *m, const shost *h)
{
	write_cpuinfo(m, h);
	smp_mk_printf(m, "proc/cmdline", "%s\n", h->cmdline);
	if (h->proc_version)
		smp_mk_printf(m, "proc/version", "%s\n", h->proc_version);
	else
		smp_mk_printf(m, "proc/version", "Linux version %s (gpuwiz sample) "
		              "#1 SMP PREEMPT_DYNAMIC\n", h->kernel);
	smp_mk_printf(m, "proc/sys/kernel/osrelease", "%s\n", h->kernel);
	write_interrupts(m, h);
}

/* A 48-byte ACPI table with a valid checksum: DMAR (host address width
 * 46, INTR_REMAP flag) or IVRS (IVinfo: 48-bit PA, 64-bit VA). */
void
smp_write_acpi(mk *m, const shost *h)
{
	unsigned char t[48];
	unsigned sum = 0;
	size_t i;
	char *rel;

	if (h->acpi == NULL)
		return;
	memset(t, 0, sizeof t);
	memcpy(t, h->acpi, 4);
	t[4] = sizeof t;
	t[8] = strcmp(h->acpi, "DMAR") == 0 ? 1 : 2;
	memcpy(t + 10, "GWSAMP", 6);
	memcpy(t + 16, "GPUWIZ  ", 8);
	t[24] = 1;
	memcpy(t + 28, "GWIZ", 4);
	t[32] = 1;
	if (strcmp(h->acpi, "DMAR") == 0) {
		t[36] = 46 - 1;
		t[37] = h->ir ? 1 : 0;
	} else {
		uint32_t ivinfo = 0x203040;

		t[36] = ivinfo & 0xff;
		t[37] = (ivinfo >> 8) & 0xff;
		t[38] = (ivinfo >> 16) & 0xff;
	}
	for (i = 0; i < sizeof t; i++)
		sum += t[i];
	t[9] = (unsigned char)(0x100 - (sum & 0xff));
	rel = gw_xasprintf("sys/firmware/acpi/tables/%s", h->acpi);
	smp_mk_file(m, rel, t, sizeof t, 0400);
	free(rel);
}
