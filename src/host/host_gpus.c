/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_gpus.c: the common half of a host's GPU list (hosttypes.h): the
 * MMIO size and the notes from the rows, whatever back end filled them,
 * and the words of a power state. */
#include "hosttypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
gw_gpu_dev_init(gw_gpu_dev *g)
{
	memset(g, 0, sizeof *g);
	g->vram_gb = -1;
	g->passthru_capable = -1;
	g->passthru_enabled = -1;
	g->passthru_active = -1;
}

void
gw_gpu_list_free(gw_gpu_list *l)
{
	if (l == NULL)
		return;
	gw_gpu_devs_free(l->gpus, l->n);
	gw_strs_free(l->notes, l->nnotes);
	free(l->source);
	memset(l, 0, sizeof *l);
}

/* Takes ownership of note. */
static void
add_note(gw_gpu_list *l, char *note)
{
	l->notes = gw_xrealloc(l->notes, (l->nnotes + 1) * sizeof *l->notes);
	l->notes[l->nnotes++] = note;
}

static int
has_bar64(const gw_gpu_dev *g)
{
	int k;

	for (k = 0; k < g->nbars; k++)
		if (g->bars[k].is64)
			return 1;
	return 0;
}

/* The MMIO size for all counted GPUs in one VM: the rule on their known
 * VRAM and the need of their 64-bit BARs, the larger wins; unknown when
 * a GPU has neither (its note says why) or none is counted. */
static void
sum_mmio(gw_gpu_list *l)
{
	uint64_t *bars = NULL, total = 0;
	size_t nbars = 0, i, ncounted = 0;
	int k, unknown = 0;
	gw_err me;

	for (i = 0; i < l->n; i++) {
		const gw_gpu_dev *g = &l->gpus[i];

		if (g->onboard)
			continue;
		ncounted++;
		if (g->vram_gb > 0)
			total += (uint64_t)g->vram_gb;
		else if (!has_bar64(g))
			unknown = 1;
		for (k = 0; k < g->nbars; k++)
			if (g->bars[k].is64) {
				bars = gw_xrealloc(bars, (nbars + 1) * sizeof *bars);
				bars[nbars++] = g->bars[k].size;
			}
	}
	l->total_vram_gb = total;
	memset(&l->mmio, 0, sizeof l->mmio);
	l->mmio_known = 0;
	if (ncounted > 0 && !unknown && (total > 0 || nbars > 0)) {
		if (gw_mmio_need_for(total, bars, nbars, &l->mmio, &me) != 0)
			add_note(l, gw_xasprintf(_("no MMIO size: %s"), me.msg));
		else
			l->mmio_known = 1;
	}
	free(bars);
}

/* Why the VRAM of g is unknown (id: "10de:26b9"), when its BARs cannot
 * stand in for it. */
static void
vram_note(gw_gpu_list *l, const gw_gpu_dev *g, const char *id)
{
	if (g->vram_gb >= 0 || has_bar64(g))
		return;
	if (g->ambiguous)
		add_note(l, gw_xasprintf(
		    _("%s (%s): several GPUs in the table share this PCI id and "
		      "its subsystem %04x:%04x does not pick one, so its VRAM is "
		      "unknown; size the VM with gpuwiz mmio --vram GB"),
		    g->bdf, id, g->subvendor, g->subdevice));
	else if (g->row)
		add_note(l, gw_xasprintf(
		    _("%s (%s, %s): its VRAM is unknown in the GPU table; size "
		      "the VM with gpuwiz mmio --vram GB"),
		    g->bdf, id, g->row->name));
	else
		add_note(l, gw_xasprintf(
		    _("%s (%s) is not in the GPU table, so its VRAM is unknown; "
		      "size the VM with gpuwiz mmio --vram GB"), g->bdf, id));
}

/* A device whose source gave no PCI id (lspci without -nn): the table
 * row its name matched, or the ids to ask for. */
static void
ids_note(gw_gpu_list *l, const gw_gpu_dev *g)
{
	if (g->row)
		add_note(l, gw_xasprintf(
		    _("%s: no PCI id in the capture; its name matches %s "
		      "(%04x:%04x) in the GPU table"),
		    g->bdf, g->row->id, g->row->vendor_id, g->row->device_id));
	else if (has_bar64(g))
		add_note(l, gw_xasprintf(
		    _("%s: no PCI id in the capture and its name matches no "
		      "single GPU of the table: its VRAM is unknown, so its "
		      "BARs size it; capture lspci -nnvv for the ids"), g->bdf));
	else
		add_note(l, gw_xasprintf(
		    _("%s: no PCI id in the capture, its name matches no "
		      "single GPU of the table and it shows no 64-bit BAR: "
		      "capture lspci -nnvv for the ids"), g->bdf));
}

/* What stands between g and a VM on the host's side. */
static void
passthru_note(gw_gpu_list *l, const gw_gpu_dev *g)
{
	if (g->passthru_capable == 0)
		add_note(l, gw_xasprintf(
		    _("%s: ESXi says it cannot be passed through (Passthru "
		      "Capable: false); check that VT-d / AMD-Vi (IOMMU) is "
		      "enabled in the host's BIOS"), g->bdf));
	else if (g->passthru_enabled == 0)
		add_note(l, gw_xasprintf(
		    _("%s: passthrough is not enabled; enable it with: esxcli "
		      "hardware pci pcipassthru set -d %s -e true -a"),
		    g->bdf, g->bdf));
	else if (g->passthru_enabled == 1 && g->passthru_active == 0)
		add_note(l, gw_xasprintf(
		    _("%s: passthrough is configured but the device is still "
		      "owned by %s; reboot the host to apply it"),
		    g->bdf, g->current_owner ? g->current_owner : "VMkernel"));
}

/* Group-mates that must go along, and a GPU without a group. */
static void
group_notes(gw_gpu_list *l, const gw_gpu_dev *g)
{
	size_t k;

	for (k = 0; k < g->nforeign; k++)
		add_note(l, gw_xasprintf(
		    _("WARN: %s shares IOMMU group %s with %s, which is "
		      "not part of the card: pass it through to the same "
		      "VM too, or move the GPU to a slot with its own "
		      "group"), g->bdf, g->group, g->foreign[k]));
	if (g->group == NULL)
		add_note(l, gw_xasprintf(
		    _("WARN: %s is in no IOMMU group: the IOMMU is off "
		      "(run gpuwiz check)"), g->bdf));
}

void
gw_gpu_list_sum(gw_gpu_list *l)
{
	size_t i;

	gw_strs_free(l->notes, l->nnotes);
	l->notes = NULL;
	l->nnotes = 0;
	for (i = 0; i < l->n; i++) {
		const gw_gpu_dev *g = &l->gpus[i];
		char id[16];

		if (g->ids_unread && g->row == NULL)   /* the vendor, by name */
			snprintf(id, sizeof id, "%04x", g->vendor);
		else
			snprintf(id, sizeof id, "%04x:%04x", g->vendor,
			         g->device);
		if (g->onboard) {
			add_note(l, gw_xasprintf(
			    _("%s (%s) is an on-board management or virtual "
			      "display, not counted in the MMIO size"),
			    g->bdf, id));
			continue;
		}
		if (g->ids_unread)
			ids_note(l, g);
		else
			vram_note(l, g, id);
		passthru_note(l, g);
		if (l->iommu_known)
			group_notes(l, g);
	}
	sum_mmio(l);
}

const char *
gw_power_name(gw_power p)
{
	switch (p) {
	/* TRANSLATORS: a VM's power state; at most 14 cells each. */
	case GW_POWER_ON: return _("powered on");
	case GW_POWER_OFF: return _("powered off");
	case GW_POWER_SUSPENDED: return _("suspended");
	default: return _("state unknown");
	}
}
