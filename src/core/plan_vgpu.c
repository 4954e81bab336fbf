/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_vgpu.c: vGPU devices and unified memory.  New vGPU blocks are
 * written only into a .vmx (pciPassthruN.vgpu: the spelling of the VMware
 * API's VmiopBackingInfo, not documented for the .vmx); --uvm sets
 * pciPassthruN.cfg.enable_uvm on every vGPU of the VM (NVIDIA AI
 * Enterprise documentation; NCCL 2.27 needs it).  vGPUs of a board whose
 * vGPUs run on SR-IOV virtual functions (the table's sriov: NVIDIA vGPU
 * documentation, Ampere and later) need SR-IOV on in the host's BIOS;
 * with it off the VM fails to power on with "Could not initialize plugin
 * 'libnvidia-vgx.so'" (field; doc/design.md 15.3).
 * pciPassthruN.cfg.parameter = "enable_uvm=1" (the KVM vgpu_params form)
 * is not the key ESXi passes to the vGPU plugin: the right one is
 * pciPassthruN.cfg.enable_uvm = "1".  The vmx layer cannot delete a key,
 * so the finding asks to remove the line by hand.
 */
#include "plan_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The profile as ESXi names it on this GPU ("grid_h100xm-80c" typed ->
 * "nvidia_h100xm-80c", the H100 SXM's own spelling): that is what the .vmx
 * and BOSH need.  A different spelling is said as an INFO finding. */
char *
pl_esxi_profile(gw_plan *p, const gw_gpu_want *w)
{
	char *prof = w->gpu ? gw_gpu_vgpu_profile(w->gpu, w->profile) : NULL;

	if (prof == NULL)
		return pl_lower_dup(w->profile);
	if (!gw_strieq(prof, w->profile))
		pl_finding(p, GW_SEV_INFO, "vgpu-profile-spelling",
		           GW_TOPIC_GPU,
		           SRC_VGPU_NAMES,
		           gw_xasprintf(_("vGPU profile '%s' is written as ESXi "
		                          "names it on %s: %s"),
		                        w->profile, w->gpu->id, prof),
		           NULL);
	return prof;
}

static void
uvm_setting(gw_plan *p, const gw_vmx *v, unsigned idx)
{
	char key[64];

	snprintf(key, sizeof key, "pciPassthru%u.cfg.enable_uvm", idx);
	pl_setting(p, v, GW_SET_UVM, key, "1",
	           gw_xasprintf(_("Unified memory for vGPU pciPassthru%u "
	                          "(NCCL 2.27+ needs it)."), idx), SRC_UVM);
}

/* Indices of vGPU blocks, growable. */
typedef struct idx_list {
	unsigned *v;
	size_t n;
} idx_list;

static void
idx_push(idx_list *l, unsigned idx)
{
	l->v = gw_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = idx;
}

/* The ESXi spelling the plan chose for want w (pl_add_wanted). */
static const char *
planned_profile(const gw_plan *p, const gw_gpu_want *w)
{
	size_t j;

	for (j = 0; j < p->ngpus; j++)
		if (!p->gpus[j].existing && p->gpus[j].profile &&
		    p->gpus[j].gpu == w->gpu &&
		    gw_strieq(p->gpus[j].label, w->profile))
			return p->gpus[j].profile;
	return w->profile;
}

/* pciPassthruN.present + .vgpu for each vGPU of want w that the VM
 * does not have yet (n: its count less the ones already in the VM). */
static void
vgpu_blocks(plan_ctx *c, const gw_gpu_want *w, int n, idx_list *vidx)
{
	const char *prof = planned_profile(c->p, w);
	char key[64];
	unsigned idx;
	int k;

	for (k = 0; k < n; k++) {
		idx = pl_next_free(&c->sc);
		snprintf(key, sizeof key, "pciPassthru%u.present", idx);
		pl_setting(c->p, c->v, GW_SET_DEVICE, key, "TRUE",
		           gw_xasprintf(_("Add vGPU %s as "
		                          "pciPassthru%u."),
		                        prof, idx), SRC_VGPU);
		snprintf(key, sizeof key, "pciPassthru%u.vgpu", idx);
		pl_setting(c->p, c->v, GW_SET_DEVICE, key, prof,
		           gw_xasprintf(_("vGPU profile %s."),
		                        prof), SRC_VGPU);
		idx_push(vidx, idx);
	}
}

/* Into a .vmx: new vGPU blocks, then UVM on every vGPU of the file. */
static void
vmx_vgpus(plan_ctx *c)
{
	gw_plan *p = c->p;
	idx_list vidx = { NULL, 0 };
	size_t i;

	for (i = 0; i < c->sc.ndevs; i++)
		if (c->sc.devs[i].present && c->sc.devs[i].vgpu)
			idx_push(&vidx, c->sc.devs[i].idx);
	for (i = 0; i < c->a->ngpus; i++)
		if (c->a->gpus[i].profile)
			vgpu_blocks(c, &c->a->gpus[i],
			            c->a->gpus[i].count - c->dedup[i], &vidx);
	if (p->n_vgpu > 0)
		pl_finding(p, GW_SEV_INFO, "vgpu-vmx-spelling",
		           GW_TOPIC_VGPU, SRC_VGPU,
		           gw_xasprintf(_("The .vmx spelling of vGPU "
		                          "devices (pciPassthruN.vgpu) is "
		                          "not documented by VMware")),
		           gw_xasprintf(_("The documented way is the vSphere "
		                          "Client: Edit Settings > Add new "
		                          "device > PCI Device > NVIDIA "
		                          "GRID vGPU.")));
	if (c->a->uvm)
		for (i = 0; i < vidx.n; i++)
			uvm_setting(p, c->v, vidx.v[i]);
	free(vidx.v);
}

/* Snippets: the vGPUs will be the VM's first devices when it has no
 * DirectPath GPU; otherwise the indices are a guess. */
static void
snippet_uvm(gw_plan *p)
{
	int n = p->n_vgpu + (p->n_passthru ? p->n_passthru : 0), i;

	for (i = 0; i < n; i++)
		uvm_setting(p, NULL, (unsigned)i);
	if (p->n_passthru)
		pl_finding(p, GW_SEV_WARN, "uvm-indices",
		           GW_TOPIC_VGPU, SRC_UVM,
		           gw_xasprintf(_("enable_uvm is written for "
		                          "pciPassthru0..%d because the VM "
		                          "mixes DirectPath GPUs and vGPUs: "
		                          "only the vGPU indices need it"),
		                        n - 1),
		           gw_xasprintf(_("Check which pciPassthruN are "
		                          "vGPUs after adding them.")));
}

/* Time-sliced A100 vGPUs of the VM.  MIG-backed vGPUs have no NVLink
 * P2P at all (NVIDIA AI Enterprise 6, vGPUs that Support Peer-to-Peer
 * CUDA Transfers: "Only C-series time-sliced vGPUs allocated all of the
 * physical GPU framebuffer"), so unified memory cannot turn it off. */
static int
a100_vgpus(const gw_plan *p)
{
	size_t i;
	int n = 0;
	gw_vgpu_type vt;

	for (i = 0; i < p->ngpus; i++)
		if (p->gpus[i].profile && p->gpus[i].gpu &&
		    strstr(p->gpus[i].gpu->name, "A100") &&
		    !(gw_vgpu_type_parse(p->gpus[i].profile, &vt) == 0 &&
		      vt.slices > 0))
			n += p->gpus[i].count;
	return n;
}

/* What unified memory means for this VM, asked for or not. */
static void
uvm_findings(plan_ctx *c)
{
	gw_plan *p = c->p;

	if (c->a->uvm && c->nvgpu_all > 0) {
		/* why it is on (the wizard proposes it for a VM with vGPUs),
		 * then what it costs */
		pl_finding(p, GW_SEV_INFO, "uvm-nccl",
		           GW_TOPIC_VGPU, SRC_UVM,
		           gw_xasprintf(P_("Unified memory on %d vGPU: NCCL "
		                           "2.27 and later fail without it "
		                           "(Cuda failure 'operation not "
		                           "supported' in ncclCommInitRank)",
		                           "Unified memory on %d vGPUs: NCCL "
		                           "2.27 and later fail without it "
		                           "(Cuda failure 'operation not "
		                           "supported' in ncclCommInitRank)",
		                           c->nvgpu_all),
		                        c->nvgpu_all),
		           NULL);
		/* NVIDIA's UVM limitations: "Enabling UVM disables vGPU
		 * migration for the VM" */
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "uvm-vmotion",
		           GW_TOPIC_VGPU, SRC_UVM,
		           gw_xasprintf(_("enable_uvm disables vGPU migration "
		                          "(vMotion) for this VM")),
		           gw_xasprintf(_("Power the VM off before its host "
		                          "goes into maintenance and move it "
		                          "cold; leave enable_uvm off (no --uvm) "
		                          "only where no NCCL 2.27 or later "
		                          "runs in it."))),
		          /* TRANSLATORS: the wizard's advice for the finding
		           * above (the options step has room for one line). */
		          gw_xstrdup(_("Before its host's maintenance, power the VM off and move it cold.")));
		if (a100_vgpus(p) >= 2)
			pl_fix_ui(pl_finding(p, GW_SEV_WARN, "uvm-a100-p2p",
			           GW_TOPIC_VGPU, SRC_UVM,
			           gw_xasprintf(_("On A100 VMs with several "
			                          "time-sliced vGPUs, unified memory "
			                          "turns NVLink P2P off (MIG-backed "
			                          "vGPUs have no P2P)")),
			           NULL),
			          /* TRANSLATORS: the wizard's advice for the
			           * finding above; the option's title. */
			          gw_xstrdup(_("Keep \"Unified memory (UVM) on every vGPU\" ticked for NCCL 2.27 and later; untick it on the Options step only if the workload needs NVLink P2P instead.")));
	} else if (c->a->uvm) {
		pl_finding(p, GW_SEV_INFO, "uvm-no-vgpu",
		           GW_TOPIC_VGPU, SRC_UVM,
		           /* TRANSLATORS: the CLI's --uvm and the wizard's
		            * "Unified memory (UVM) on every vGPU" both: no
		            * flag named, the wizard shows it too. */
		           gw_xasprintf(_("Unified memory (UVM) applies to vGPUs "
		                          "only, and this VM has none: nothing "
		                          "to set")),
		           NULL);
	} else if (c->nvgpu_all > 0) {
		pl_fix_ui(pl_finding(p, GW_SEV_INFO, "uvm-suggest",
		           GW_TOPIC_VGPU, SRC_NCCL,
		           gw_xasprintf(_("NCCL 2.27 and later fail on vGPUs "
		                          "without unified memory (Cuda failure "
		                          "'operation not supported' in "
		                          "ncclCommInitRank)")),
		           gw_xasprintf(_("Use --uvm to set "
		                          "pciPassthruN.cfg.enable_uvm = \"1\" "
		                          "on every vGPU (this disables vGPU "
		                          "vMotion)."))),
		          /* TRANSLATORS: the wizard's words for "Use --uvm":
		           * the Options step's option title. */
		          gw_xstrdup(_("Tick \"Unified memory (UVM) on every vGPU\" on the Options step (this disables vGPU vMotion).")));
	}
}

const gw_gpu_want *
gw_answers_sriov_vgpu(const gw_answers *a)
{
	size_t i;

	for (i = 0; a && i < a->ngpus; i++)
		if (a->gpus[i].profile && a->gpus[i].gpu &&
		    a->gpus[i].gpu->sriov)
			return &a->gpus[i];
	return NULL;
}

/* ---- pciPassthruN.cfg.parameter ----------------------------------------- */

#define SRC_UVM_VMWARE "NVIDIA AI Enterprise documentation (Enabling Unified Memory on VMware vSphere)"

/* "pciPassthru<digits>.cfg.parameter": *idx set. */
static int
cfg_parameter_key(const char *key, unsigned *idx)
{
	const char *s = key + 11;

	/* most keys are told apart by their first byte */
	if ((key[0] | 0x20) != 'p' || strncasecmp(key, "pciPassthru", 11) != 0 ||
	    !isdigit((unsigned char)*s))
		return 0;
	*idx = (unsigned)strtoul(s, NULL, 10);
	while (isdigit((unsigned char)*s))
		s++;
	return strcasecmp(s, ".cfg.parameter") == 0;
}

static void
wrong_uvm_keys(plan_ctx *c)
{
	size_t i, n = c->v ? gw_vmx_count(c->v) : 0;
	const char *key, *val;
	unsigned idx;

	for (i = 0; i < n; i++) {
		key = gw_vmx_key_at(c->v, i);
		val = gw_vmx_value_at(c->v, i);
		if (!cfg_parameter_key(key, &idx) || !gw_str_icontains(val, "uvm"))
			continue;
		pl_fix_ui(pl_finding(c->p, GW_SEV_WARN, "uvm-wrong-key",
		          GW_TOPIC_VGPU, SRC_UVM_VMWARE,
		          /* TRANSLATORS: the key and value as written in the
		           * .vmx, then its line, then the right key. */
		          gw_xasprintf(_("%s = \"%s\" (line %d) is not how "
		                         "ESXi passes enable_uvm to the vGPU: "
		                         "it is ignored; the key is "
		                         "pciPassthru%u.cfg.enable_uvm = \"1\""),
		                       key, val, gw_vmx_line_of(c->v, key),
		                       idx),
		          c->a->uvm ?
		          gw_xasprintf(_("The plan writes "
		                         "pciPassthru%u.cfg.enable_uvm; remove "
		                         "line %d by hand (gpuwiz does not "
		                         "delete keys)."), idx,
		                       gw_vmx_line_of(c->v, key)) :
		          gw_xasprintf(_("Use --uvm to write "
		                         "pciPassthru%u.cfg.enable_uvm, and "
		                         "remove line %d by hand (gpuwiz does "
		                         "not delete keys)."), idx,
		                       gw_vmx_line_of(c->v, key))),
		          /* TRANSLATORS: the wizard's words for the fix above:
		           * the Options step's option title; %d the line. */
		          gw_xasprintf(_("Tick \"Unified memory (UVM) on every vGPU\" on the Options step (it writes the right key) and remove line %d of the .vmx by hand (gpuwiz does not delete keys)."),
		                       gw_vmx_line_of(c->v, key)));
	}
}

/* The BIOS setting the vGPUs being added need. */
static void
sriov_finding(plan_ctx *c)
{
	const gw_gpu_want *w = gw_answers_sriov_vgpu(c->a);

	if (w == NULL)
		return;
	pl_fix_ui(pl_finding(c->p, GW_SEV_INFO, "gpu-sriov", GW_TOPIC_GPU,
	           SRC_SRIOV,
	           gw_xasprintf(_("vGPUs on %s run on SR-IOV virtual "
	                          "functions: SR-IOV must be on in the "
	                          "host's BIOS/UEFI"), w->gpu->id),
	           gw_xasprintf(_("Turn on SR-IOV in the BIOS/UEFI PCI "
	                          "settings; while it is off the VM does not "
	                          "power on (Could not initialize plugin "
	                          "'libnvidia-vgx.so')."))),
	          /* TRANSLATORS: the wizard's words for the advice above;
	           * the quoted name is the Host check step's item. */
	          gw_xstrdup(_("Turn on SR-IOV in the BIOS/UEFI PCI settings, then confirm \"SR-IOV (vGPU)\" on the Host check step (Space).")));
}

void
pl_vgpu_uvm(plan_ctx *c)
{
	if (c->v)
		vmx_vgpus(c);
	else if (c->a->uvm && c->p->n_vgpu > 0)
		snippet_uvm(c->p);
	uvm_findings(c);
	pl_vgpu_checks(c);
	wrong_uvm_keys(c);
	sriov_finding(c);
}
