/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_text.c: the wizard's fixed texts and classifications
 * (wizard.h), and the small helpers the other wizard files share.
 *
 * Facts used here (doc/design.md, section 15):
 *  - BIOS checklist: VT-d/AMD-Vi and above-4G decoding are BIOS settings;
 *    "Passthru Capable: false" when the IOMMU is off (section 15.6).
 *  - SR-IOV: which GPUs' vGPUs run on SR-IOV virtual functions is the
 *    GPU table's sriov column (data/gpus.ini, section 15.3).
 */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- string lists ------------------------------------------------------ */

void
wz_strv_push(wz_strv *s, char *item)
{
	s->v = gw_xrealloc(s->v, (s->n + 2) * sizeof *s->v);
	s->v[s->n++] = item;
	s->v[s->n] = NULL;
}

/* The NULL-terminated list (an empty one when nothing was pushed). */
char **
wz_strv_finish(wz_strv *s)
{
	if (s->v == NULL)
		return gw_xcalloc(1, sizeof *s->v);
	return s->v;
}

void
gw_strv_free(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

void
wz_put_why(char *why, size_t n, const char *msg)
{
	if (why && n > 0)
		snprintf(why, n, "%s", msg);
}

/* ---- texts -------------------------------------------------------------- */

const char *
gw_gpu_class_name(gw_gpu_class c)
{
	switch (c) {
	/* TRANSLATORS: GPU class filter on the GPU step: at most 12 cells
	 * each.  "All classes" is the no-filter choice. */
	case GW_CLASS_ANY: return _("All classes");
	/* TRANSLATORS: GPU class filter, at most 12 cells. */
	case GW_CLASS_DATACENTER: return _("Data center");
	/* TRANSLATORS: GPU class filter, at most 12 cells. */
	case GW_CLASS_WORKSTATION: return _("Workstation");
	/* TRANSLATORS: GPU class filter, at most 12 cells (a brand name). */
	case GW_CLASS_GEFORCE: return _("GeForce");
	default: return "";
	}
}

const char *
gw_host_item_title(int item)
{
	switch (item) {
	/* TRANSLATORS: host checklist items (BIOS settings): at most 28
	 * cells each. */
	case GW_HOST_IOMMU: return _("VT-d / AMD-Vi (IOMMU)");
	/* TRANSLATORS: host checklist item, at most 28 cells. */
	case GW_HOST_ABOVE4G: return _("Above 4G decoding");
	/* TRANSLATORS: host checklist item, at most 28 cells. */
	case GW_HOST_SRIOV: return _("SR-IOV (vGPU)");
	default: return "";
	}
}

const char *
gw_host_item_help(int item)
{
	switch (item) {
	case GW_HOST_IOMMU:
		return _("Turn on Intel VT-d or AMD-Vi (IOMMU) in the BIOS/UEFI setup, usually under Processor, Chipset or Integrated I/O. While it is off, esxcli hardware pci list shows Passthru Capable: false for every device.");
	case GW_HOST_ABOVE4G:
		return _("Turn on Above 4G decoding (also called MMIO above 4 GB or 64-bit MMIO) in the BIOS/UEFI PCI settings: GPUs with large BARs cannot be mapped without it.");
	case GW_HOST_SRIOV:
		return _("Turn on SR-IOV in the BIOS/UEFI PCI settings: NVIDIA vGPU on Ampere and later GPUs (A10, A16, A30, A40, A100, L4, L40S, H100, ...) runs on SR-IOV virtual functions. Passthrough does not need it.");
	default:
		return "";
	}
}

const char *
gw_vendor_name(unsigned vendor_id)
{
	switch (vendor_id) {
	case 0x10de: return "NVIDIA";
	case 0x1002: return "AMD";
	case 0x8086: return "Intel";
	default: return NULL;
	}
}

int
gw_setting_is_change(const gw_setting *s)
{
	if (s == NULL || s->keep)
		return 0;
	return !(s->old_value && s->value && strcmp(s->old_value, s->value) == 0);
}

