/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_facts.c: what some rules' texts ask of the whole input
 * (gw_diag_facts, diagnose_int.h), gathered line by line during the scan:
 * the address a pciPassthruN.id names, whether the input shows a vGPU,
 * the vLLM engine or ASPM, the memory of the GPU it names.  Each fact is
 * looked for only on the lines that hold its words (found with the rules'
 * words in the scan's one pass) and only until it is known.
 */
#include "diagnose_int.h"

#include <string.h>

static const char *const id_words[] = { "pcipassthru", ".id", NULL };
static const char *const vgpu_words[] = {
	"vgpu", "vmiop", "grid_", "nvidia_", NULL
};
static const char *const vllm_words[] = { "enginecore", NULL };
static const char *const aspm_words[] = { "aspm", NULL };
static const char *const vram_words[] = {
	"rtx", "gtx", "tesla", "quadro", NULL
};

const char *const *const gw_diag_fact_words[GW_DIAG_NFACTS] = {
	id_words, vgpu_words, vllm_words, aspm_words, vram_words
};

void
gw_diag_facts_line(gw_diag_facts *x, const char *seg, size_t n,
                   const char *fold, size_t fn, const int *may)
{
	if (!x->vgpu && may[GW_DIAG_FACT_VGPU]) {
		char prof[64];

		x->vgpu = gw_diag_ci_contains(seg, n, "vgpu") ||
		          gw_diag_ci_contains(seg, n, "vmiop") ||
		          gw_diag_find_profile(seg, n, prof, sizeof prof);
	}
	if (!x->vllm && may[GW_DIAG_FACT_VLLM])
		x->vllm = gw_diag_ci_contains(seg, n,
		                              "enginecore failed to start");
	if (!x->aspm && may[GW_DIAG_FACT_ASPM])
		x->aspm = gw_diag_ci_contains(seg, n, "aspm");
	if (x->vram_gb == 0 && may[GW_DIAG_FACT_VRAM])
		x->vram_gb = gw_diag_line_vram(fold, fn);
}

void
gw_diag_facts_lf_line(gw_diag_facts *x, const char *s, size_t n, int id_may)
{
	if (x->id_kind == 0 && id_may && gw_diag_id_line(s, n))
		x->id_kind = gw_diag_line_id_bdf(s, n, x->id_hex,
		                                 sizeof x->id_hex, x->id_dec,
		                                 sizeof x->id_dec);
	if (x->any_kind == 0)
		x->any_kind = gw_diag_line_id_bdf(s, n, x->any_hex,
		                                  sizeof x->any_hex, x->any_dec,
		                                  sizeof x->any_dec);
}

void
gw_diag_facts_end(gw_diag_facts *x)
{
	if (x->id_kind != 0)
		return;
	x->id_kind = x->any_kind;
	memcpy(x->id_hex, x->any_hex, sizeof x->id_hex);
	memcpy(x->id_dec, x->any_dec, sizeof x->id_dec);
}
