/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_ctx.c: what gpuwiz diagnose knows of the VM besides the text
 * (diagnose.h, gw_diag_ctx): its vGPUs and their profile, from the VM's
 * plan (the doctor's) or from its .vmx (gpuwiz diagnose --vmx), so that
 * NCCL's 'operation not supported' is named a vGPU problem only on a VM
 * with vGPUs (doc/design.md, 15.10).
 */
#include "diagnose.h"
#include "plan.h"

#include <stdio.h>
#include <string.h>

void
gw_diag_ctx_from_plan(gw_diag_ctx *ctx, const gw_plan *p)
{
	size_t i;

	memset(ctx, 0, sizeof *ctx);
	ctx->vm_known = 1;
	ctx->profile_whole = -1;
	for (i = 0; p != NULL && i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		int vram;

		if (g->profile == NULL || !g->existing)
			continue;
		ctx->vgpus += g->count > 0 ? g->count : 1;
		if (ctx->profile[0])
			continue;
		snprintf(ctx->profile, sizeof ctx->profile, "%s", g->profile);
		vram = gw_vgpu_whole_size(g);
		ctx->profile_whole = gw_vgpu_profile_whole(g->profile, vram);
		if (g->gpu && g->gpu->vgpu_prefix && vram > 0)
			snprintf(ctx->whole, sizeof ctx->whole, "%s-%dc",
			         g->gpu->vgpu_prefix, vram);
	}
}

int
gw_diag_ctx_from_vmx(gw_diag_ctx *ctx, const gw_vmx *v, const gw_table *t)
{
	gw_answers a;
	gw_plan p;
	gw_err e;
	int rc;

	if (t == NULL) {
		memset(ctx, 0, sizeof *ctx);
		return -1;
	}
	gw_answers_init(&a);
	memset(&p, 0, sizeof p);
	rc = gw_plan_build(&a, t, v, &p, &e);
	/* a .vmx without any GPU has no plan ("no GPU"): no vGPU either */
	gw_diag_ctx_from_plan(ctx, rc == 0 ? &p : NULL);
	gw_plan_free(&p);
	gw_answers_free(&a);
	return 0;
}
