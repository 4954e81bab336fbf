/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_vgpu_checks.c: what the vGPUs of one VM must agree on
 * (doc/design.md, section 15.3):
 *  - unified memory only on vGPUs that hold a whole framebuffer (a 1:1
 *    time-sliced C-series profile, the board's largest in the GPU table's
 *    vgpu_types, or a MIG-backed one, which has its whole GPU instance)
 *    and only in Linux guests (NVIDIA AI Enterprise, Unified Virtual
 *    Memory: known issues and limitations);
 *  - one board and one series for all vGPUs of a VM (NVIDIA AI
 *    Enterprise, Multi-vGPU); differing sizes of one board and series are
 *    allowed there, but not by older vGPU releases: a WARN, not a FAIL;
 *  - CUDA (and vLLM) only on C- and Q-series vGPUs, not A- or B-series;
 *    several vGPUs in one VM on vSphere 7.x only as whole-GPU C-series
 *    types, from vSphere 8.0 any (judged by the ESXi version given or
 *    reported); a 64-bit guest (NVIDIA AI Enterprise 6, vGPU (C-Series)
 *    appendix; doc/design.md 15.3);
 *  - passthrough and vGPU of one GPU model in one VM (and so in one BOSH
 *    vm_extension, which is this VM's plan) are mutually exclusive (TKGI:
 *    "you can use only one of them"): a FAIL naming both.
 * The wrong UVM key (pciPassthruN.cfg.parameter) is plan_vgpu.c's.
 */
#include "plan_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_UVM_LIMITS "NVIDIA AI Enterprise 6, vGPU (C-Series) appendix, vGPUs that Support Unified Memory (docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html); Unified Virtual Memory: known issues and limitations"
#define SRC_MULTI_VGPU "NVIDIA AI Enterprise 6, vGPU (C-Series) appendix, vGPUs that Support Multiple vGPUs Assigned to a VM (docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html)"
#define SRC_VGPU_GUEST "NVIDIA AI Enterprise 6, vGPU (C-Series) appendix, Prerequisites: the guest OS must be a 64-bit OS (docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html)"

/* A profile split into what must agree: "nvidia_l40s-24c" -> board
 * "nvidia_l40s", size 24, series "c"; "grid_a100-3-20c" -> board
 * "grid_a100", MIG slices 3. */
typedef struct vprof {
	char board[64];
	int mig;                  /* MIG-backed: <slices>-<size><series> */
	int size_gb;              /* -1 when it does not parse */
	char series[8];
} vprof;

static void
split_profile(const char *prof, vprof *o)
{
	const char *dash = strrchr(prof, '-'), *q, *s;
	size_t blen;

	memset(o, 0, sizeof *o);
	o->size_gb = -1;
	if (dash == NULL || !isdigit((unsigned char)dash[1]))
		return;
	o->size_gb = atoi(dash + 1);
	for (s = dash + 1; isdigit((unsigned char)*s); s++)
		;
	snprintf(o->series, sizeof o->series, "%s", s);
	/* "-<digits>" before the size: MIG slices */
	for (q = dash; q > prof && isdigit((unsigned char)q[-1]); q--)
		;
	if (q < dash && q > prof && q[-1] == '-') {
		o->mig = 1;
		dash = q - 1;
	}
	blen = (size_t)(dash - prof);
	if (blen >= sizeof o->board)
		blen = sizeof o->board - 1;
	memcpy(o->board, prof, blen);
	o->board[blen] = '\0';
}

/* The framebuffer of the physical GPU of vGPU g, -1 when unknown. */
static int
gpu_vram(const gw_plan_gpu *g)
{
	if (g->gpu && g->gpu->vram_gb > 0)
		return g->gpu->vram_gb;
	return g->vram_gb;
}

/* ---- unified memory: whole framebuffer, Linux guest ---------------------- */

int
gw_vgpu_whole_size(const gw_plan_gpu *g)
{
	int full = gw_gpu_vgpu_full_size(g->gpu, 'c');

	return full > 0 ? full : gpu_vram(g);
}

int
gw_vgpu_profile_whole(const char *profile, int gpu_vram_gb)
{
	vprof vp;

	if (profile == NULL)
		return -1;
	split_profile(profile, &vp);
	if (vp.size_gb < 0)
		return -1;
	if (vp.mig)
		return 1;
	if (gpu_vram_gb <= 0)
		return -1;
	return vp.size_gb >= gpu_vram_gb;
}

/* The profiles of the VM (comma-separated, each once) that give a VM a
 * part of a GPU's framebuffer, and in *n how many; NULL when there is
 * none. */
static char *
fractional_profiles(const gw_plan *p, size_t *n)
{
	char *list = NULL, *t;
	size_t i, j;
	int vram, seen;

	*n = 0;
	for (i = 0; i < p->ngpus; i++) {
		if (p->gpus[i].profile == NULL)
			continue;
		vram = gw_vgpu_whole_size(&p->gpus[i]);
		if (gw_vgpu_profile_whole(p->gpus[i].profile, vram) != 0)
			continue;
		for (seen = 0, j = 0; j < i; j++)
			if (p->gpus[j].profile &&
			    strcmp(p->gpus[j].profile, p->gpus[i].profile) == 0)
				seen = 1;
		if (seen)
			continue;
		t = list ? gw_xasprintf("%s, %s", list, p->gpus[i].profile)
		         : gw_xstrdup(p->gpus[i].profile);
		free(list);
		list = t;
		(*n)++;
	}
	return list;
}

/* The guest is Windows: guestOS "windows9-64", "windows2019srv-64",
 * "winNetStandard"..., or the prettyName of guestOS.detailed.data. */
static int
windows_guest(const gw_vmx *v)
{
	const char *os = v ? gw_vmx_get(v, "guestOS") : NULL;

	if (os && strncasecmp(os, "win", 3) == 0)
		return 1;
	return gw_str_icontains(v ? gw_vmx_get(v, "guestOS.detailed.data") : NULL,
	              "windows");
}

/* UVM is off and the plan suggests it (uvm-suggest): with fractional
 * profiles the suggestion alone would not help NCCL, so its fix says that
 * a 1:1 or MIG-backed profile comes first. */
static void
suggest_whole(gw_plan *p, const char *frac, size_t nfrac)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++) {
		gw_finding *f = &p->findings[i];

		if (strcmp(f->id, "uvm-suggest") != 0)
			continue;
		free(f->fix);
		/* TRANSLATORS: %s: the profiles ("nvidia_l40s-24c" or
		 * "nvidia_l40s-24c, nvidia_l40s-12c"); the form follows how
		 * many. */
		f->fix = gw_xasprintf(P_("%s has only a part of a GPU, and unified memory needs a vGPU with the whole framebuffer: first a 1:1 profile (e.g. nvidia_l40s-48c on an L40S) or a MIG-backed one, then --uvm.",
		                         "%s have only a part of a GPU each, and unified memory needs a vGPU with the whole framebuffer: first a 1:1 profile (e.g. nvidia_l40s-48c on an L40S) or a MIG-backed one, then --uvm.",
		                         nfrac), frac);
		/* TRANSLATORS: the wizard's words for the fix above. */
		pl_fix_ui(f, gw_xasprintf(P_("%s has only a part of a GPU, and unified memory needs a vGPU with the whole framebuffer: first a 1:1 profile (e.g. nvidia_l40s-48c on an L40S) or a MIG-backed one, then tick \"Unified memory (UVM) on every vGPU\" on the Options step.",
		                             "%s have only a part of a GPU each, and unified memory needs a vGPU with the whole framebuffer: first a 1:1 profile (e.g. nvidia_l40s-48c on an L40S) or a MIG-backed one, then tick \"Unified memory (UVM) on every vGPU\" on the Options step.",
		                             nfrac), frac));
	}
}

/* "nvidia_l40s-48c" for the first fractional vGPU's board (its largest
 * C-series type), else NULL. */
static char *
whole_profile(const gw_plan *p)
{
	size_t i;
	int full;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->profile && g->gpu && g->gpu->vgpu_prefix &&
		    (full = gw_gpu_vgpu_full_size(g->gpu, 'c')) > 0)
			return gw_xasprintf("%s-%dc", g->gpu->vgpu_prefix, full);
	}
	return NULL;
}

static void
uvm_support(plan_ctx *c)
{
	gw_plan *p = c->p;
	char *frac, *whole;
	size_t nfrac;

	if (c->nvgpu_all <= 0)
		return;
	frac = fractional_profiles(p, &nfrac);
	if (!c->a->uvm) {
		if (frac)
			suggest_whole(p, frac, nfrac);
		free(frac);
		return;
	}
	if (frac) {
		whole = whole_profile(p);
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "uvm-fractional",
		          GW_TOPIC_VGPU, SRC_UVM_LIMITS,
		          /* TRANSLATORS: %s: the profiles ("nvidia_l40s-24c"
		           * or "nvidia_l40s-24c, nvidia_l40s-12c"); the form
		           * follows how many. */
		          gw_xasprintf(P_("Unified memory is supported only on "
		                          "C-series vGPUs that have the whole "
		                          "framebuffer of the GPU and on "
		                          "MIG-backed vGPUs; %s has a part of "
		                          "one, so NCCL 2.27 and later still fail "
		                          "('operation not supported') with "
		                          "enable_uvm set",
		                          "Unified memory is supported only on "
		                          "C-series vGPUs that have the whole "
		                          "framebuffer of the GPU and on "
		                          "MIG-backed vGPUs; %s have a part of "
		                          "one each, so NCCL 2.27 and later still "
		                          "fail ('operation not supported') with "
		                          "enable_uvm set", nfrac), frac),
		          whole ?
		          /* TRANSLATORS: %s: the whole-GPU profile
		           * ("nvidia_l40s-48c"). */
		          gw_xasprintf(_("Use %s (the whole GPU) or a "
		                         "MIG-backed profile with --vgpu, or "
		                         "DirectPath I/O."), whole) :
		          gw_xasprintf(_("Use a 1:1 profile (e.g. "
		                         "nvidia_l40s-48c on an L40S) or a "
		                         "MIG-backed one with --vgpu, or "
		                         "DirectPath I/O."))),
		          whole ?
		          /* TRANSLATORS: the wizard's words for the fix above. */
		          gw_xasprintf(_("Pick %s (the whole GPU) or a MIG-backed profile with Space on the GPU selection step, or the whole GPU (passthrough)."),
		                       whole) :
		          /* TRANSLATORS: the wizard's words for the fix above:
		           * the GPU step's title and its key for profiles. */
		          gw_xstrdup(_("Pick a 1:1 profile (e.g. nvidia_l40s-48c on an L40S) or a MIG-backed one with Space on the GPU selection step, or the whole GPU (passthrough).")));
		free(whole);
	}
	free(frac);
	if (c->v && windows_guest(c->v))
		pl_finding(p, GW_SEV_WARN, "uvm-windows",
		           GW_TOPIC_VGPU, SRC_UVM_LIMITS,
		           gw_xasprintf(_("Unified memory on vGPU is supported "
		                          "only in Linux guests, and this VM's "
		                          "guest is Windows (guestOS = %s): "
		                          "enable_uvm does not help NCCL there"),
		                        gw_vmx_get(c->v, "guestOS") ?
		                        gw_vmx_get(c->v, "guestOS") : "?"),
		           gw_xasprintf(_("Run the NCCL workload in a Linux "
		                          "guest.")));
}

/* ---- one board and series per VM ---------------------------------------- */

/* The first vGPU of the VM whose profile differs from the first one's;
 * *hard = 1 when the board or series differs (unsupported), 0 when only
 * the size does. */
static const gw_plan_gpu *
mixed_profile(const gw_plan *p, const gw_plan_gpu **first, int *hard)
{
	vprof a, b;
	size_t i;

	*first = NULL;
	for (i = 0; i < p->ngpus; i++) {
		if (p->gpus[i].profile == NULL)
			continue;
		if (*first == NULL) {
			*first = &p->gpus[i];
			continue;
		}
		if (gw_strieq((*first)->profile, p->gpus[i].profile))
			continue;
		split_profile((*first)->profile, &a);
		split_profile(p->gpus[i].profile, &b);
		*hard = !gw_strieq(a.series, b.series) ||
		        ((*first)->gpu && p->gpus[i].gpu ?
		         (*first)->gpu != p->gpus[i].gpu :
		         !gw_strieq(a.board, b.board));
		return &p->gpus[i];
	}
	return NULL;
}

static void
mixed_profiles(plan_ctx *c)
{
	const gw_plan_gpu *first, *other;
	int hard = 0;
	gw_finding *f;

	other = mixed_profile(c->p, &first, &hard);
	if (other == NULL)
		return;
	if (hard)
		f = pl_finding(c->p, GW_SEV_ERROR, "vgpu-mixed-board",
		    GW_TOPIC_VGPU, SRC_MULTI_VGPU,
		    /* TRANSLATORS: two vGPU profiles of one VM. */
		    gw_xasprintf(_("The vGPUs of one VM must be of the same "
		                   "board and series: %s and %s are not, which "
		                   "NVIDIA does not support"),
		                 first->profile, other->profile),
		    gw_xasprintf(_("Use one profile for every vGPU of the VM "
		                   "(e.g. --vgpu %s), or change the VM's vGPUs "
		                   "in the vSphere Client or the ESXi Host "
		                   "Client (Edit Settings)."),
		                 first->profile));
	else
		f = pl_finding(c->p, GW_SEV_WARN, "vgpu-mixed-size",
		    GW_TOPIC_VGPU, SRC_MULTI_VGPU,
		    /* TRANSLATORS: two vGPU profiles of one VM. */
		    gw_xasprintf(_("The vGPUs of this VM differ in size (%s "
		                   "and %s): NVIDIA AI Enterprise 8 allows it "
		                   "for one board and series, earlier vGPU "
		                   "releases need one profile for all"),
		                 first->profile, other->profile),
		    gw_xasprintf(_("Use one profile for every vGPU of the VM "
		                   "(--vgpu %s) unless the host's vGPU release "
		                   "supports mixed sizes."), first->profile));
	/* TRANSLATORS: the wizard's words for the fixes above: %s the
	 * profile; Space picks profiles on the GPU selection step. */
	pl_fix_ui(f, gw_xasprintf(_("Pick one profile (e.g. %s) for every vGPU with Space on the GPU selection step, or change the VM's vGPUs in the vSphere Client or the ESXi Host Client (Edit Settings)."),
	                          first->profile));
}

/* ---- series: CUDA runs on C- and Q-series only ---------------------------- */

#define SRC_SERIES "NVIDIA vGPU user guide, OpenCL and CUDA Application Support (Q-series); NVIDIA AI Enterprise 6, vGPU (C-Series) appendix (docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html)"

static void
series_cuda(plan_ctx *c)
{
	size_t i;
	gw_vgpu_type vt;
	char *csz;

	for (i = 0; i < c->p->ngpus; i++) {
		const char *prof = c->p->gpus[i].profile;

		if (prof == NULL || gw_vgpu_type_parse(prof, &vt) != 0 ||
		    (vt.series != 'a' && vt.series != 'b'))
			continue;
		csz = gw_gpu_vgpu_sizes(c->p->gpus[i].gpu, 'c', 0);
		pl_fix_ui(pl_finding(c->p, GW_SEV_ERROR, "vgpu-profile-series",
		          GW_TOPIC_GPU, SRC_SERIES,
		          /* TRANSLATORS: %s the profile; %c its series letter
		           * (A: virtual applications, B: virtual PCs). */
		          gw_xasprintf(_("vGPU profile %s is %c-series: CUDA, "
		                         "and so vLLM, runs only on C-series "
		                         "(AI Enterprise) and Q-series vGPUs"),
		                       prof, toupper((unsigned char)vt.series)),
		          csz && c->p->gpus[i].gpu->vgpu_prefix ?
		          /* TRANSLATORS: %s the profile prefix
		           * ("nvidia_l40s"), then NVIDIA's C-series sizes. */
		          gw_xasprintf(_("Use a C-series profile with --vgpu: "
		                         "%s-<GB>c, GB one of %s."),
		                       c->p->gpus[i].gpu->vgpu_prefix, csz) :
		          gw_xstrdup(_("Use a C-series profile (ending in c) "
		                       "with --vgpu."))),
		          /* TRANSLATORS: the wizard's words for the fix above. */
		          gw_xstrdup(_("Pick a C-series profile (ending in c) with Space on the GPU selection step.")));
		free(csz);
	}
}

/* ---- several vGPUs in one VM: by the vSphere release ---------------------- */

/* 7 for "7.0U3", 8 for "8.0U2"; 0 unknown. */
static int
esxi_major(const char *v)
{
	return v && isdigit((unsigned char)*v) ? atoi(v) : 0;
}

static void
multi_vgpu(plan_ctx *c)
{
	gw_plan *p = c->p;
	char *frac, *not_one;
	size_t nfrac;
	int major;

	if (c->nvgpu_all < 2)
		return;
	frac = fractional_profiles(p, &nfrac);
	if (frac == NULL) {
		/* whole-GPU time-sliced C-series only is what 7.x takes;
		 * a MIG-backed or other series profile is not */
		size_t i;
		gw_vgpu_type vt;

		for (i = 0; i < p->ngpus && frac == NULL; i++)
			if (p->gpus[i].profile &&
			    gw_vgpu_type_parse(p->gpus[i].profile, &vt) == 0 &&
			    (vt.series != 'c' || vt.slices)) {
				frac = gw_xstrdup(p->gpus[i].profile);
				nfrac = 1;
			}
	}
	if (frac == NULL)
		return;
	major = esxi_major(c->a->esxi_version);
	if (major >= 8) {
		free(frac);
		return;
	}
	/* TRANSLATORS: the profiles that do not own a whole GPU
	 * ("nvidia_l40s-24c" or "nvidia_l40s-24c, nvidia_l40s-12c"): the
	 * last %s of the text below. */
	not_one = gw_xasprintf(P_("%s is not one", "%s are not", nfrac), frac);
	if (major == 7)
		pl_fix_ui(pl_finding(p, GW_SEV_ERROR, "vgpu-profile-multi-vsphere7",
		           GW_TOPIC_GPU, SRC_MULTI_VGPU,
		           /* TRANSLATORS: %d the vGPU count, %s the ESXi
		            * version, the last %s the text above
		            * ("nvidia_l40s-24c is not one"). */
		           gw_xasprintf(P_("%d vGPU in one VM on ESXi %s: "
		                           "vSphere 7.x supports several vGPUs "
		                           "in a VM only with C-series profiles "
		                           "that own the whole GPU, and %s",
		                           "%d vGPUs in one VM on ESXi %s: "
		                           "vSphere 7.x supports several vGPUs "
		                           "in a VM only with C-series profiles "
		                           "that own the whole GPU, and %s",
		                           c->nvgpu_all),
		                        c->nvgpu_all, c->a->esxi_version, not_one),
		           gw_xasprintf(_("Use the whole-GPU C-series profile "
		                          "for every vGPU, or vSphere 8.0 or "
		                          "later."))),
		          /* TRANSLATORS: the wizard's words for the fix above. */
		          gw_xstrdup(_("Pick the whole-GPU C-series profile for every vGPU with Space on the GPU selection step, or use vSphere 8.0 or later.")));
	else
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "vgpu-profile-multi-esxi",
		           GW_TOPIC_GPU, SRC_MULTI_VGPU,
		           gw_xasprintf(P_("%d vGPU in one VM with %s: supported "
		                           "from vSphere 8.0; vSphere 7.x takes "
		                           "several vGPUs only with C-series "
		                           "profiles that own the whole GPU, and "
		                           "the ESXi version is not known",
		                           "%d vGPUs in one VM with %s: supported "
		                           "from vSphere 8.0; vSphere 7.x takes "
		                           "several vGPUs only with C-series "
		                           "profiles that own the whole GPU, and "
		                           "the ESXi version is not known",
		                           c->nvgpu_all),
		                        c->nvgpu_all, frac),
		           gw_xasprintf(_("Give the host's ESXi version with "
		                          "--esxi (e.g. 8.0U2)."))),
		          /* TRANSLATORS: the wizard's words for the fix above. */
		          gw_xstrdup(_("Enter the host's ESXi version on the VM step (e.g. 8.0U2).")));
	free(not_one);
	free(frac);
}

/* ---- passthrough and vGPU of one model: one or the other ------------------ */

#define SRC_TKGI_EXCLUSIVE "VMware Tanzu Kubernetes Grid Integrated Edition documentation, GPU workloads on vSphere: vGPU and passthrough of the GPUs, \"you can use only one of them\""

/* Are a and b the same GPU model: the same table row, or the same PCI
 * vendor and device id where both are known? */
static int
same_model(const gw_plan_gpu *a, const gw_plan_gpu *b)
{
	if (a->gpu && a->gpu == b->gpu)
		return 1;
	return a->device_id && a->vendor_id == b->vendor_id &&
	       a->device_id == b->device_id;
}

static void
passthrough_and_vgpu(plan_ctx *c)
{
	gw_plan *p = c->p;
	size_t i, j;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *pt = &p->gpus[i];

		if (pt->profile != NULL)
			continue;
		for (j = 0; j < p->ngpus; j++) {
			const gw_plan_gpu *vg = &p->gpus[j];
			const char *model;

			if (vg->profile == NULL || !same_model(pt, vg))
				continue;
			model = pt->gpu ? pt->gpu->id : pt->label;
			pl_fix_ui(pl_finding(p, GW_SEV_ERROR,
			           "vgpu-profile-passthrough", GW_TOPIC_GPU,
			           SRC_TKGI_EXCLUSIVE,
			           /* TRANSLATORS: %s the GPU model (l40s), then
			            * its vGPU profile; "you can use only one of
			            * them" quotes the TKGI documentation. */
			           gw_xasprintf(_("%s is in this VM both passed "
			                          "through (DirectPath I/O) and as "
			                          "vGPU %s: passthrough and vGPU of "
			                          "one GPU model are mutually "
			                          "exclusive in one VM or one BOSH "
			                          "VM extension (TKGI: \"you can use "
			                          "only one of them\")"),
			                        model, vg->profile),
			           /* TRANSLATORS: %s the GPU model. */
			           gw_xasprintf(_("Give the %s either with --gpu "
			                          "(passthrough) or with --vgpu "
			                          "(vGPU), not both; remove the other "
			                          "device from the VM in the vSphere "
			                          "Client (Edit Settings)."), model)),
			          /* TRANSLATORS: the wizard's words for the fix
			           * above; %s the GPU model. */
			          gw_xasprintf(_("Pick the %s either whole (passthrough) or as a vGPU profile on the GPU selection step, not both."),
			                       model));
			return;
		}
	}
}

/* ---- 64-bit guest --------------------------------------------------------- */

static void
guest_64bit(plan_ctx *c)
{
	const char *os = c->v ? gw_vmx_get(c->v, "guestOS") : NULL;
	size_t n = os ? strlen(os) : 0;

	if (c->nvgpu_all <= 0 || os == NULL || n == 0 ||
	    (n > 3 && strcasecmp(os + n - 3, "-64") == 0))
		return;
	pl_finding(c->p, GW_SEV_ERROR, "vgpu-guest-32bit", GW_TOPIC_VGPU,
	           SRC_VGPU_GUEST,
	           /* TRANSLATORS: %s the guestOS value of the .vmx. */
	           gw_xasprintf(_("The guest OS must be 64-bit for NVIDIA "
	                          "vGPU, and this VM's is not (guestOS = "
	                          "%s)"), os),
	           gw_xasprintf(_("Install a 64-bit guest OS and set its "
	                          "guest OS type (a value ending in -64).")));
}

void
pl_vgpu_checks(plan_ctx *c)
{
	series_cuda(c);
	passthrough_and_vgpu(c);
	multi_vgpu(c);
	guest_64bit(c);
	mixed_profiles(c);
	uvm_support(c);
}
