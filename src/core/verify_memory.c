/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_memory.c: the per-GPU memory rows of gpuwiz verify on a capture
 * (verify.h): "bar1" (is the BAR1 assigned, and as large as the table has
 * seen) and "fb" (the framebuffer against the table's VRAM), with the MMIO
 * advice for a BAR1 that is 0 or far too small.
 */
#include "verify_int.h"

#include <stdio.h>
#include <stdlib.h>

/* A vGPU BAR1 below this is "small" (the 256 MiB of a Q profile); large
 * profiles map 64 GiB and more, which is not small (doc/design.md,
 * section 15.9). */
#define VGPU_SMALL_BAR1_MIB 1024

/* "256, 65536" */
static char *
bar1_list(const gw_gpu *r)
{
	gw_buf b;
	int k;

	gw_buf_init(&b);
	for (k = 0; k < r->nbar1; k++)
		gw_buf_printf(&b, "%s%lu", k ? ", " : "", r->bar1_mib[k]);
	return gw_buf_steal(&b);
}

char *
gw_verify_bar1_fix(const gw_verify *v, gw_virt_mode m)
{
	if (m == GW_VIRT_HOST_VGPU)
		return gw_xstrdup(_("Enable Above 4G Decoding (and Resizable BAR, "
		                    "where the GPU has it) in the server's BIOS."));
	if (m == GW_VIRT_NONE) {
		if (v->mmio_gb > 0)
			return gw_xasprintf(_("On bare metal, enable Above 4G "
			                      "Decoding (and Resizable BAR) in the "
			                      "BIOS.  In a VM that hides the "
			                      "hypervisor, power it off, set "
			                      "pciPassthru.use64bitMMIO = \"TRUE\" and "
			                      "pciPassthru.64bitMMIOSizeGB = \"%llu\", "
			                      "then power it on."),
			                    (unsigned long long)v->mmio_gb);
		return gw_xstrdup(_("On bare metal, enable Above 4G Decoding (and "
		                    "Resizable BAR) in the BIOS.  In a VM that "
		                    "hides the hypervisor, set the 64-bit MMIO "
		                    "window (gpuwiz mmio computes it)."));
	}
	if (v->mmio_gb > 0)
		return gw_xasprintf(_("Power the VM off, set "
		                      "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                      "pciPassthru.64bitMMIOSizeGB = \"%llu\" (the "
		                      "rule for %llu GB of GPU memory in this VM: "
		                      "rounded up to a power of two, then "
		                      "doubled), then power it on."),
		                    (unsigned long long)v->mmio_gb,
		                    (unsigned long long)v->total_vram_gb);
	return gw_xstrdup(_("Power the VM off, set pciPassthru.use64bitMMIO = "
	                    "\"TRUE\" and pciPassthru.64bitMMIOSizeGB to the "
	                    "VM's total GPU memory in GB rounded up to a power "
	                    "of two, then doubled (gpuwiz mmio --gpu SPEC "
	                    "computes it), then power it on."));
}

void
gw_verify_check_bar1(gw_verify *v, const gw_nvsmi_gpu *g, int i,
                     const gw_gpu *r)
{
	long long bar = g->bar1_total_mib;
	int vm = g->virt_mode != GW_VIRT_NONE &&
	         g->virt_mode != GW_VIRT_HOST_VGPU;
	char *title = gw_xasprintf(_("Checking GPU %s: BAR1"), g->bus_id);

	if (bar == GW_NVSMI_ABSENT) {
		add_check(v, "bar1", GW_SEV_WARN, i, title,
		          gw_xstrdup(_("the capture has no BAR1 Memory Usage "
		                       "Total")), NULL);
	} else if (bar == GW_NVSMI_NA) {
		if (g->addressing_mode && gw_strieq(g->addressing_mode, "ATS"))
			add_check(v, "bar1", GW_SEV_PASS, i, title,
			          gw_xstrdup(_("BAR1 total N/A, as nvidia-smi reports "
			                       "it with Addressing Mode ATS (Grace "
			                       "Hopper)")), NULL);
		else
			add_check(v, "bar1", GW_SEV_WARN, i, title,
			          gw_xstrdup(_("BAR1 total N/A: the BAR1 cannot be "
			                       "checked from this capture")),
			          gw_xstrdup(_("Check the GPU's BARs with lspci -vv "
			                       "and dmesg | grep NVRM.")));
	} else if (bar < 0) {
		add_check(v, "bar1", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("cannot read the BAR1 total '%s'"),
		                       g->bar1_total_text), NULL);
	} else if (bar == 0) {
		add_check(v, "bar1", GW_SEV_WARN, i, title,
		          gw_xstrdup(vm ? _("BAR1 total is 0 MiB: the GPU's BAR1 "
		                            "is not assigned, so the VM's 64-bit "
		                            "MMIO window is likely too small")
		                        : _("BAR1 total is 0 MiB: the GPU's BAR1 "
		                            "is not assigned")),
		          gw_verify_bar1_fix(v, g->virt_mode));
	} else if (g->virt_mode == GW_VIRT_VGPU && bar < VGPU_SMALL_BAR1_MIB) {
		add_check(v, "bar1", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB: vGPU profiles map a "
		                         "small BAR1"), bar), NULL);
	} else if (g->virt_mode == GW_VIRT_VGPU) {
		add_check(v, "bar1", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB: the BAR1 the vGPU "
		                         "profile maps (its size comes with the "
		                         "profile)"), bar), NULL);
	} else if (r != NULL && r->nbar1 > 0 &&
	           (unsigned long long)bar < r->bar1_mib[0]) {
		char *seen = bar1_list(r);

		add_check(v, "bar1", GW_SEV_WARN, i, title,
		          vm ? gw_xasprintf(_("BAR1 total %lld MiB is far below the "
		                              "%s MiB seen for table row %s: the VM's 64-bit "
		                              "MMIO window is likely too small"),
		                            bar, seen, r->id)
		             : gw_xasprintf(_("BAR1 total %lld MiB is far below the "
		                              "%s MiB seen for table row %s"),
		                            bar, seen, r->id),
		          gw_verify_bar1_fix(v, g->virt_mode));
		free(seen);
	} else if (r != NULL && r->nbar1 > 0) {
		char *seen = bar1_list(r);

		add_check(v, "bar1", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB (%s MiB seen for table row %s)"),
		                       bar, seen, r->id), NULL);
		free(seen);
	} else {
		add_check(v, "bar1", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB: assigned (the table "
		                         "has no BAR1 size for this GPU to "
		                         "compare)"), bar), NULL);
	}
}

void
gw_verify_check_fb(gw_verify *v, const gw_nvsmi_gpu *g, int i,
                   const gw_gpu *r)
{
	long long fb = g->fb_total_mib;
	char *title = gw_xasprintf(_("Checking GPU %s: framebuffer"), g->bus_id);
	long long table_mib = r != NULL && r->vram_gb > 0 ?
	                      (long long)r->vram_gb * 1024 : 0;

	if (fb == GW_NVSMI_ABSENT) {
		add_check(v, "fb", GW_SEV_WARN, i, title,
		          gw_xstrdup(_("the capture has no FB Memory Usage Total")),
		          NULL);
	} else if (fb < 0) {
		add_check(v, "fb", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("cannot read the FB total '%s'"),
		                       g->fb_total_text), NULL);
	} else if (fb == 0) {
		add_check(v, "fb", GW_SEV_WARN, i, title,
		          gw_xstrdup(_("FB total is 0 MiB")),
		          gw_xstrdup(_("Check the GPU's messages: dmesg | grep "
		                       "NVRM.")));
	} else if (table_mib == 0) {
		add_check(v, "fb", GW_SEV_INFO, i, title,
		          gw_xasprintf(_("FB total %lld MiB (not compared: the GPU "
		                         "or its VRAM is not in the table)"), fb),
		          NULL);
	} else if (g->virt_mode == GW_VIRT_VGPU) {
		if (fb <= table_mib)
			add_check(v, "fb", GW_SEV_PASS, i, title,
			          gw_xasprintf(_("FB total %lld MiB: the vGPU "
			                         "profile's share of the %d GB physical "
			                         "GPU (table row %s)"),
			                       fb, r->vram_gb, r->id), NULL);
		else
			add_check(v, "fb", GW_SEV_WARN, i, title,
			          gw_xasprintf(_("FB total %lld MiB is more than the "
			                         "%d GB of table row %s"),
			                       fb, r->vram_gb, r->id), NULL);
	} else if (fb * 100 < table_mib * 85) {
		add_check(v, "fb", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("FB total %lld MiB is well below the %d GB "
		                         "of table row %s: another model with the same PCI "
		                         "id, or memory the driver cannot use"),
		                       fb, r->vram_gb, r->id),
		          gw_xstrdup(_("Compare the Product Name with the GPU you "
		                       "expect, and check dmesg | grep NVRM.")));
	} else if (fb * 100 > table_mib * 105) {
		add_check(v, "fb", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("FB total %lld MiB is more than the %d GB "
		                         "of table row %s"),
		                       fb, r->vram_gb, r->id), NULL);
	} else {
		add_check(v, "fb", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("FB total %lld MiB matches the %d GB of table row %s"),
		                       fb, r->vram_gb, r->id), NULL);
	}
}
