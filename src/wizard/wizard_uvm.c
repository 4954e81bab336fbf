/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_uvm.c: the devices already in the open VM, unified memory and
 * the outputs that follow the activity (wizard.h, last section;
 * wizard_int.h: wz_outputs_follow).  A VM whose vGPUs crash NCCL 2.27+ in
 * ncclCommInitRank needs pciPassthruN.cfg.enable_uvm = "1" on every vGPU
 * and nothing else (doc/design.md, 15.1; NVIDIA AI Enterprise
 * documentation): the GPU step lets the operator go on with only those
 * devices, and the wizard proposes UVM for them until the operator
 * decides (an answers file's [options] uvm, or the options step).
 * The proposal does not look at the profiles: on a fractional profile
 * (nvidia_l40s-24c) or in a Windows guest UVM is not supported, and the
 * plan's WARN (uvm-fractional, uvm-windows: doc/design.md, 15.3), which
 * the options step shows under the option, says so and what to pick
 * instead; proposing it off there would only hide that. */
#include "wizard_int.h"

static int
count_gpus(const gw_wizard *w, int existing_only, int vgpu_only)
{
	const gw_plan *p = wz_plan(w);
	size_t i;
	int n = 0;

	for (i = 0; p != NULL && i < p->ngpus; i++) {
		if (existing_only && !p->gpus[i].existing)
			continue;
		if (vgpu_only && p->gpus[i].profile == NULL)
			continue;
		n += p->gpus[i].count;
	}
	return n;
}

int
gw_wizard_existing_gpus(const gw_wizard *w)
{
	return w->vmx != NULL ? count_gpus(w, 1, 0) : 0;
}

int
gw_wizard_vm_vgpus(const gw_wizard *w)
{
	return count_gpus(w, 0, 1);
}

int
gw_wizard_uvm_proposed(const gw_wizard *w)
{
	return w->af.a.uvm && !w->af.uvm_set;
}

int
gw_wizard_propose_uvm(gw_wizard *w)
{
	int want;

	if (w->af.uvm_set || wz_plan(w) == NULL)
		return 0;
	want = gw_wizard_vm_vgpus(w) > 0;
	if (want == (w->af.a.uvm != 0))
		return 0;
	w->af.a.uvm = want;
	wz_changed(w);
	return 1;
}

int
gw_wizard_fit_formats(gw_wizard *w)
{
	int mask;

	if (w->af.a.ngpus > 0 || wz_plan(w) == NULL)
		return 0;
	mask = wz_formats_possible(w, w->af.formats);
	if (mask == w->af.formats)
		return 0;
	w->af.formats = mask;   /* as chosen or not: the rest stays */
	wz_changed(w);
	return 1;
}

/* ---- the outputs of the activity ---------------------------------------- */


/* The activity's default outputs (formats.def's FOR, through the audience
 * of the activity): a VM's .vmx gets the .vmx lines, or nothing besides
 * the .vmx itself when one is open (it is patched); a Tanzu VM type the
 * BOSH, Ops Manager and tile outputs. */
static int
wz_default_formats(const gw_wizard *w)
{
	int m = gw_format_defaults(gw_answers_audience((int)w->activity));

	/* an open .vmx is itself the output: patched, no lines to paste */
	if (w->activity == GW_ACT_VM && w->vmx != NULL)
		m &= ~GW_FMT_VMX;
	return m;
}

void
wz_outputs_follow(gw_wizard *w)
{
	if (!w->af.formats_set)
		w->af.formats = wz_default_formats(w);
	/* an open .vmx is patched with the plan's lines: it needs the size */
	w->af.a.outputs_do = w->vmx == NULL ? gw_formats_do(w->af.formats) :
	                     0;
}

void
wz_outputs_fit(gw_wizard *w)
{
	if (!w->af.formats_set && w->af.formats)
		w->af.formats = wz_formats_possible(w, w->af.formats);
}
