/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_mmio.c: the 64-bit MMIO window of the plan: which framebuffers and
 * BARs count, the explanation steps, the operator's own size, the
 * existing value in the .vmx, the two settings.  The arithmetic itself is
 * mmio.c's (gw_mmio_need_layout), the one place it is done; the plan
 * keeps the BARs where it placed them (gw_plan.bars) for the MMIO step's
 * picture.
 *
 *  - MMIO rule: Broadcom KB 323402 (doc/design.md, section 15.2).
 *  - vGPU MMIO follows the physical GPU's framebuffer (the rule), and for
 *    a vGPU VM with 32 GB or more of memory NVIDIA's "MMIO Space Required"
 *    table (NVIDIA AI Enterprise 6, vGPU C-Series appendix, Table 18; the
 *    GPU table's vgpu_mmio_gb) is taken when it is larger (section 15.2).
 *    The table gives one GPU's need; several vGPUs add theirs, as the rule
 *    adds framebuffers, rounded up to a power of two.
 *  - BAR3 of NVIDIA GPUs: 32 MiB 64-bit prefetchable (see plan.c).
 */
#include "plan_int.h"
#include "mmio.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the phase collects before it writes anything. */
typedef struct mmio_work {
	gw_buf list;        /* "2 x l40s 48 GB + ..." */
	gw_buf unknown;     /* groups whose VRAM is unknown (not counted) */
	gw_buf nobars;      /* DirectPath groups without known BAR sizes */
	gw_buf barlist;     /* "2 x l40s: BAR1 64 GiB + BAR3 32 MiB; ..." */
	gw_buf vgpus;       /* vGPU profiles */
	gw_buf given;       /* groups whose BAR1 was given with the size */
	gw_buf tlist;       /* "1 x grid_v100x-16c on v100-16g-sxm2: 64 GB" */
	gw_buf tmissing;    /* vGPU groups whose GPU NVIDIA's table lacks */
	uint64_t tsum;      /* GB, NVIDIA's table added over the vGPUs */
	gw_mmio_bar *bars;  /* 64-bit BARs of the DirectPath GPUs (tag:
	                     * their index in info) */
	gw_plan_bar *info;  /* which GPU and BAR each is */
	size_t nbars;
	uint64_t total;     /* GB of framebuffer counted */
	int any_vgpu, nunknown;
	gw_mmio_need need;
} mmio_work;

char *
gw_bar_size_text(uint64_t bytes)
{
	uint64_t gib = bytes >> 30, mib = (bytes >> 20) & 1023;

	if (gib && mib)
		return gw_xasprintf(_("%llu GiB + %llu MiB"),
		                    (unsigned long long)gib,
		                    (unsigned long long)mib);
	if (gib)
		return gw_xasprintf(_("%llu GiB"), (unsigned long long)gib);
	return gw_xasprintf(_("%llu MiB"), (unsigned long long)(bytes >> 20));
}

/* "2 x l40s 48 GB", "1 x grid_l40s-48c (vGPU on l40s) 48 GB", ... */
static char *
group_text(const gw_plan_gpu *g)
{
	if (g->profile && g->gpu)
		return gw_xasprintf(g->existing
		                    ? _("%d x %s (vGPU on %s, in the .vmx) %d GB")
		                    : _("%d x %s (vGPU on %s) %d GB"),
		                    g->count, g->profile, g->gpu->id, g->vram_gb);
	if (g->gpu == NULL && !g->existing)
		return gw_xasprintf(_("%d x %d GB (given by size)"), g->count,
		                    g->vram_gb);
	return gw_xasprintf(g->existing ? _("%d x %s %d GB (in the .vmx)")
	                                : _("%d x %s %d GB"),
	                    g->count, g->label, g->vram_gb);
}

static void
join(gw_buf *b, const char *sep, char *s)
{
	if (b->len)
		gw_buf_puts(b, sep);
	gw_buf_puts(b, s);
	free(s);
}

static void
work_free(mmio_work *w)
{
	gw_buf_free(&w->list);
	gw_buf_free(&w->unknown);
	gw_buf_free(&w->nobars);
	gw_buf_free(&w->barlist);
	gw_buf_free(&w->vgpus);
	gw_buf_free(&w->given);
	gw_buf_free(&w->tlist);
	gw_buf_free(&w->tmissing);
	free(w->bars);
	free(w->info);
}

/* The framebuffer counted for the rule; fails when there is none. */
static int
count_framebuffer(const gw_plan *p, mmio_work *w, gw_err *e)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->vram_gb < 0) {
			w->nunknown += g->count;
			join(&w->unknown, ", ", gw_xasprintf(_("%d x %s"),
			                                     g->count, g->label));
			continue;
		}
		w->total += (uint64_t)g->vram_gb * (uint64_t)g->count;
		join(&w->list, " + ", group_text(g));
		if (g->profile) {
			w->any_vgpu = 1;
			join(&w->vgpus, ", ", gw_xstrdup(g->profile));
		}
	}
	if (w->total == 0) {
		if (w->nunknown) {
			gw_err_set(e, _("cannot size the MMIO window: the VRAM of "
			                "the GPUs in the VM (%s) is unknown; give "
			                "the size with --vram GB"),
			           w->unknown.data ? w->unknown.data : "");
		} else {
			gw_err_set(e, _("no GPU to plan for: give one with --gpu "
			                "SPEC, --vgpu PROFILE or --vram GB"));
			gw_err_set_ui(e, "%s", _("No GPU chosen yet: choose one on the GPU step."));
		}
		return -1;
	}
	if (w->total > GW_MMIO_MAX_TOTAL_GB) {
		gw_err_set(e, _("total framebuffer %llu GB is not plausible for "
		                "one VM (expected at most %llu GB)"),
		           (unsigned long long)w->total,
		           (unsigned long long)GW_MMIO_MAX_TOTAL_GB);
		return -1;
	}
	return 0;
}

static void
push_bar(mmio_work *w, size_t gi, int copy, int bar, uint64_t size)
{
	gw_plan_bar *b;

	w->bars = gw_xrealloc(w->bars, (w->nbars + 1) * sizeof *w->bars);
	w->info = gw_xrealloc(w->info, (w->nbars + 1) * sizeof *w->info);
	w->bars[w->nbars].size = size;
	w->bars[w->nbars].offset = 0;
	w->bars[w->nbars].tag = w->nbars;
	b = &w->info[w->nbars++];
	b->gpu = gi;
	b->copy = copy;
	b->bar = bar;
	b->size = size;
	b->offset = 0;
}

/* BAR-based need: DirectPath GPUs whose BAR1 is known (the table's
 * largest, or given with the size).  vGPUs are left out: the VM sees the
 * vGPU's own (virtual) BARs, not the physical GPU's; NVIDIA sizes them by
 * the rule.  A GPU given by size is taken as an NVIDIA GPU for its BAR3
 * (gpuwiz plans NVIDIA GPUs; the 32 MiB can only make the need larger). */
static void
collect_bars(const gw_plan *p, mmio_work *w)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		unsigned long mib = g->gpu ? gw_gpu_bar1_max_mib(g->gpu) : 0;
		uint64_t b1, b3;
		char *s1, *s3;
		int k;

		if (g->profile)
			continue;
		b1 = g->bar1_bytes ? g->bar1_bytes : (uint64_t)mib << 20;
		if (b1 == 0) {
			join(&w->nobars, ", ", gw_xstrdup(g->label));
			continue;
		}
		b3 = g->gpu == NULL || g->gpu->vendor_id == NVIDIA_VENDOR
		     ? NVIDIA_BAR3_BYTES : 0;
		for (k = 0; k < g->count; k++) {
			push_bar(w, i, k, 1, b1);
			if (b3)
				push_bar(w, i, k, 3, b3);
		}
		if (g->bar1_bytes)
			join(&w->given, ", ", gw_xstrdup(g->label));
		s1 = gw_bar_size_text(b1);
		s3 = gw_bar_size_text(b3);
		join(&w->barlist, "; ",
		     b3 ? gw_xasprintf(_("%d x %s: BAR1 %s + BAR3 %s"),
		                       g->count, g->label, s1, s3)
		        : gw_xasprintf(_("%d x %s: BAR1 %s"),
		                       g->count, g->label, s1));
		free(s1);
		free(s3);
	}
}

/* The BARs where the BAR need placed them, for the picture. */
static void
keep_bars(gw_plan *p, const mmio_work *w)
{
	size_t i;

	p->bar_end = w->need.bar_end;
	p->rec_gb = w->need.mmio_gb;
	if (w->nbars == 0)
		return;
	p->bars = gw_xcalloc(w->nbars, sizeof *p->bars);
	for (i = 0; i < w->nbars; i++) {
		p->bars[i] = w->info[w->bars[i].tag];
		p->bars[i].offset = w->bars[i].offset;
	}
	p->nbars = w->nbars;
}

static void
rule_steps(gw_plan *p, const mmio_work *w)
{
	pl_step(p, gw_xasprintf(_("Total framebuffer: %s = %llu GB"),
	                        w->list.data, (unsigned long long)w->total));
	if (w->nunknown)
		pl_step(p, gw_xasprintf(_("Not counted (VRAM unknown): %s"),
		                        w->unknown.data));
	if (w->any_vgpu)
		pl_step(p, gw_xasprintf(_("vGPU profiles (%s) count with the "
		                          "physical GPU's whole framebuffer, "
		                          "not the profile's share (%s)"),
		                        w->vgpus.data, SRC_VGPU_MMIO));
	if (gw_is_pow2(w->total))
		pl_step(p, gw_xasprintf(_("%llu is a power of two: take the "
		                          "next power of two: %llu GB (rule, "
		                          "%s)"),
		                        (unsigned long long)w->total,
		                        (unsigned long long)p->rule_gb,
		                        SRC_MMIO));
	else
		pl_step(p, gw_xasprintf(_("%llu is not a power of two: round up "
		                          "to %llu, then double: %llu GB (rule, "
		                          "%s)"),
		                        (unsigned long long)w->total,
		                        (unsigned long long)(p->rule_gb / 2),
		                        (unsigned long long)p->rule_gb,
		                        SRC_MMIO));
}

static void
bar_steps(gw_plan *p, const mmio_work *w)
{
	char *end;

	if (w->nbars == 0) {
		if (w->nobars.len)
			pl_step(p, gw_xasprintf(_("BAR sizes unknown for %s: only "
			                          "the rule applies"),
			                        w->nobars.data));
		return;
	}
	end = gw_bar_size_text(w->need.bar_end);
	pl_step(p, gw_xasprintf(_("64-bit BARs (largest BAR1 observed, "
	                          "from the GPU table; NVIDIA BAR3 32 "
	                          "MiB, as in the NVIDIA lspci and "
	                          "vmware.log captures): %s"),
	                        w->barlist.data));
	if (w->given.len)
		pl_step(p, gw_xasprintf(_("BAR1 as given for %s, and a BAR3 "
		                          "of 32 MiB as on NVIDIA GPUs"),
		                        w->given.data));
	pl_step(p, gw_xasprintf(_("BAR-based need: packed largest "
	                          "first at natural alignment they end "
	                          "at %s; rounded up to a power of two: "
	                          "%llu GB"),
	                        end, (unsigned long long)p->bar_gb));
	free(end);
	if (w->nobars.len)
		pl_step(p, gw_xasprintf(_("BAR sizes unknown for %s: not "
		                          "in the BAR-based need"),
		                        w->nobars.data));
}

/* memsize of the .vmx, else the answers' memory; 0 unknown. */
static unsigned long long
vm_memory_mb(const plan_ctx *c)
{
	const char *ms = c->v ? gw_vmx_get(c->v, "memsize") : NULL;
	unsigned long long mb = 0;

	if (ms && gw_parse_uint(ms, ULLONG_MAX, &mb) == 0 && mb > 0)
		return mb;
	return c->a->memory_mb > 0 ? (unsigned long long)c->a->memory_mb : 0;
}

/* NVIDIA's "MMIO Space Required" table for the vGPUs of the VM: applies
 * to a VM with 32 GB or more of memory (taken as applying when the memory
 * is unknown, said so); p->vgpu_table_gb, 0 when it does not apply. */
static void
nvidia_table(plan_ctx *c, mmio_work *w)
{
	gw_plan *p = c->p;
	unsigned long long mb = vm_memory_mb(c);
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->profile == NULL)
			continue;
		if (g->gpu == NULL || g->gpu->vgpu_mmio_gb <= 0) {
			join(&w->tmissing, ", ", gw_xstrdup(g->profile));
			continue;
		}
		w->tsum += (uint64_t)g->gpu->vgpu_mmio_gb * (uint64_t)g->count;
		join(&w->tlist, " + ",
		     gw_xasprintf(_("%d x %s on %s: %d GB"), g->count,
		                  g->profile, g->gpu->id,
		                  g->gpu->vgpu_mmio_gb));
	}
	if (w->tmissing.len)
		pl_step(p, gw_xasprintf(_("Not in NVIDIA's MMIO table (%s): "
		                          "%s; the rule sizes them"),
		                        SRC_VGPU_MMIO, w->tmissing.data));
	if (w->tsum == 0)
		return;
	if (mb > 0 && mb < 32768) {
		pl_step(p, gw_xasprintf(_("NVIDIA's MMIO table (%s) is for vGPU "
		                          "VMs with 32 GB or more of memory; "
		                          "this VM has %llu MB: not applied"),
		                        SRC_VGPU_MMIO, mb));
		return;
	}
	p->vgpu_table_gb = gw_pow2_ceil(w->tsum);
	if (mb)
		pl_step(p, gw_xasprintf(_("NVIDIA's MMIO table for vGPU VMs "
		                          "with 32 GB or more of memory (%s; "
		                          "this VM: %llu MB): %s = %llu GB"),
		                        SRC_VGPU_MMIO, mb, w->tlist.data,
		                        (unsigned long long)w->tsum));
	else
		pl_step(p, gw_xasprintf(_("NVIDIA's MMIO table for vGPU VMs "
		                          "with 32 GB or more of memory (%s; "
		                          "this VM's memory is unknown, so it "
		                          "is applied): %s = %llu GB"),
		                        SRC_VGPU_MMIO, w->tlist.data,
		                        (unsigned long long)w->tsum));
	if (p->vgpu_table_gb != w->tsum)
		pl_step(p, gw_xasprintf(_("Rounded up to a power of two: %llu GB"),
		                        (unsigned long long)p->vgpu_table_gb));
}

static void
recommend_step(gw_plan *p, uint64_t rec)
{
	if (p->vgpu_table_gb)
		pl_step(p, gw_xasprintf(p->vgpu_table_gb > p->rule_gb &&
		                        p->vgpu_table_gb >= p->bar_gb
		                        ? _("Recommended: the larger of the rule "
		                            "(%llu GB) and NVIDIA's vGPU MMIO "
		                            "table (%llu GB): %llu GB, NVIDIA's "
		                            "table, which is authoritative for "
		                            "vGPU VMs")
		                        : _("Recommended: the larger of the rule "
		                            "(%llu GB) and NVIDIA's vGPU MMIO "
		                            "table (%llu GB): %llu GB"),
		                        (unsigned long long)(p->rule_gb > p->bar_gb ?
		                                             p->rule_gb : p->bar_gb),
		                        (unsigned long long)p->vgpu_table_gb,
		                        (unsigned long long)rec));
	else if (p->bar_gb)
		pl_step(p, gw_xasprintf(_("Recommended: the larger of the rule "
		                          "(%llu GB) and the BAR-based need "
		                          "(%llu GB): %llu GB"),
		                        (unsigned long long)p->rule_gb,
		                        (unsigned long long)p->bar_gb,
		                        (unsigned long long)rec));
	else
		pl_step(p, gw_xasprintf(_("Recommended: %llu GB"),
		                        (unsigned long long)rec));
}

/* NVIDIA's table asks more than the rule and the BARs: said as a finding
 * too, so that every command and the wizard show it. */
static void
table_finding(gw_plan *p)
{
	uint64_t other = p->rule_gb > p->bar_gb ? p->rule_gb : p->bar_gb;

	pl_finding(p, GW_SEV_INFO, "mmio-vgpu-table", GW_TOPIC_SIZING,
	           SRC_VGPU_MMIO,
	           /* TRANSLATORS: the first %llu is NVIDIA's figure, the
	            * second the rule's (Broadcom KB 323402). */
	           gw_xasprintf(_("NVIDIA's MMIO table asks %llu GB for this "
	                          "vGPU VM, more than the rule's %llu GB: %llu "
	                          "GB is recommended (NVIDIA's table is "
	                          "authoritative for vGPU VMs with 32 GB or "
	                          "more of memory)"),
	                        (unsigned long long)p->vgpu_table_gb,
	                        (unsigned long long)other,
	                        (unsigned long long)p->vgpu_table_gb),
	           NULL);
}

/* "Use N GB" in the wizard's words: its MMIO step, the r key. */
static void
below_ui(gw_finding *f, uint64_t rec)
{
	/* TRANSLATORS: the wizard's words for "Use %llu GB if power-on
	 * fails": "MMIO size" is the step title, r its Reset key. */
	pl_fix_ui(f, gw_xasprintf(_("If power-on fails, press r on the MMIO size step for the recommended %llu GB."),
	                          (unsigned long long)rec));
}

/* The operator's size against the rule and the BARs. */
static void
chosen_findings(gw_plan *p, uint64_t gb, uint64_t rec)
{
	if (!gw_is_pow2(gb))
		pl_finding(p, GW_SEV_INFO, "mmio-not-pow2", GW_TOPIC_SIZING,
		           SRC_MMIO,
		           gw_xasprintf(_("The chosen MMIO size %llu GB is "
		                          "not a power of two; the sizes "
		                          "the rule gives always are"),
		                        (unsigned long long)gb),
		           NULL);
	if (gb < p->rule_gb)
		below_ui(pl_finding(p, GW_SEV_WARN, "mmio-below-rule", GW_TOPIC_SIZING,
		           SRC_MMIO,
		           gw_xasprintf(_("The MMIO size %llu GB is below "
		                          "the rule's %llu GB, as "
		                          "confirmed: the VM may fail to "
		                          "power on (DevicePowerOn)"),
		                        (unsigned long long)gb,
		                        (unsigned long long)p->rule_gb),
		           gw_xasprintf(_("Use %llu GB if power-on fails."),
		                        (unsigned long long)rec)), rec);
	else if (gb < rec && gb < p->vgpu_table_gb)
		below_ui(pl_finding(p, GW_SEV_WARN, "mmio-below-vgpu-table",
		           GW_TOPIC_SIZING, SRC_VGPU_MMIO,
		           gw_xasprintf(_("The MMIO size %llu GB is below "
		                          "the %llu GB of NVIDIA's vGPU MMIO "
		                          "table: the VM may fail to power "
		                          "on"),
		                        (unsigned long long)gb,
		                        (unsigned long long)p->vgpu_table_gb),
		           gw_xasprintf(_("Use %llu GB if power-on fails."),
		                        (unsigned long long)rec)), rec);
	else if (gb < rec)
		below_ui(pl_finding(p, GW_SEV_WARN, "mmio-below-bars", GW_TOPIC_SIZING,
		           SRC_MMIO,
		           gw_xasprintf(_("The MMIO size %llu GB is below "
		                          "the BAR-based need of %llu GB: "
		                          "the GPUs' BARs may not fit"),
		                        (unsigned long long)gb,
		                        (unsigned long long)p->bar_gb),
		           gw_xasprintf(_("Use %llu GB if power-on fails."),
		                        (unsigned long long)rec)), rec);
	else if (gb > rec)
		pl_finding(p, GW_SEV_INFO, "mmio-operator", GW_TOPIC_SIZING,
		           SRC_MMIO,
		           gw_xasprintf(_("Using the chosen MMIO size "
		                          "%llu GB (recommended: %llu GB)"),
		                        (unsigned long long)gb,
		                        (unsigned long long)rec),
		           NULL);
}

/* The size to write: the recommendation, or the operator's (checked). */
static int
choose_target(gw_plan *p, const gw_answers *a, uint64_t rec,
              uint64_t *target, gw_err *e)
{
	*target = rec;
	if (a->mmio_gb == 0)
		return 0;
	if (a->mmio_gb > GW_MMIO_MAX_WINDOW_GB) {
		gw_err_set(e, _("MMIO size: %llu GB is not plausible "
		                "(expected 1..%llu)"),
		           (unsigned long long)a->mmio_gb,
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	if (a->mmio_gb < p->rule_gb && !a->allow_below_rule) {
		gw_err_set(e, _("MMIO size: %llu GB is below the rule's "
		                "%llu GB (%s) and the VM may not power on; "
		                "confirm a smaller size explicitly "
		                "(allow_below_rule) or use %llu"),
		           (unsigned long long)a->mmio_gb,
		           (unsigned long long)p->rule_gb, SRC_MMIO,
		           (unsigned long long)rec);
		return -1;
	}
	*target = a->mmio_gb;
	chosen_findings(p, a->mmio_gb, rec);
	pl_step(p, gw_xasprintf(_("Chosen size: %llu GB"),
	                        (unsigned long long)a->mmio_gb));
	return 0;
}

/* An existing pciPassthru.64bitMMIOSizeGB at least as large is kept. */
static void
keep_existing(gw_plan *p, const gw_vmx *v, uint64_t target)
{
	gw_setting *s;
	char val[32];

	snprintf(val, sizeof val, "%llu", (unsigned long long)p->existing_gb);
	s = pl_setting(p, v, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", val,
	               gw_xasprintf(_("The existing %llu GB already "
	                              "covers the %llu GB needed."),
	                            (unsigned long long)p->existing_gb,
	                            (unsigned long long)target),
	               SRC_MMIO);
	s->keep = 1;
	p->mmio_gb = p->existing_gb;
	if (p->existing_gb > target)
		pl_finding(p, GW_SEV_INFO, "mmio-kept",
		           GW_TOPIC_SIZING, SRC_MMIO,
		           gw_xasprintf(_("pciPassthru.64bitMMIOSizeGB = "
		                          "%llu in the .vmx is larger than "
		                          "the %llu GB needed: kept"),
		                        (unsigned long long)p->existing_gb,
		                        (unsigned long long)target),
		           NULL);
	pl_step(p, gw_xasprintf(_("The .vmx already has %llu GB: kept"),
	                        (unsigned long long)p->existing_gb));
}

static void
write_size(gw_plan *p, const gw_vmx *v, const char *cur, uint64_t total,
           uint64_t target)
{
	char val[32];

	snprintf(val, sizeof val, "%llu", (unsigned long long)target);
	pl_setting(p, v, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB", val,
	           gw_xasprintf(_("64-bit MMIO window for %llu GB "
	                          "of framebuffer: %llu GB."),
	                        (unsigned long long)total,
	                        (unsigned long long)target),
	           SRC_MMIO);
	if (cur == NULL)
		return;
	pl_finding(p, GW_SEV_INFO, "mmio-raised", GW_TOPIC_SIZING, SRC_MMIO,
	           gw_xasprintf(_("pciPassthru.64bitMMIOSizeGB = "
	                          "'%s' in the .vmx is too small: "
	                          "raised to %llu"),
	                        cur, (unsigned long long)target),
	           NULL);
	pl_step(p, gw_xasprintf(_("The .vmx has '%s': raised to "
	                          "%llu GB"), cur,
	                        (unsigned long long)target));
}

/* pciPassthru.use64bitMMIO and pciPassthru.64bitMMIOSizeGB. */
static void
mmio_settings(gw_plan *p, const gw_vmx *v, uint64_t total, uint64_t target)
{
	const char *cur;
	unsigned long long old;

	pl_setting(p, v, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE",
	           gw_xstrdup(_("Map the GPUs' large BARs above 4 GB.")),
	           SRC_MMIO);
	if (v && gw_vmx_get(v, "pciPassthru.use64bitMMIO") != NULL &&
	    gw_vmx_get_bool(v, "pciPassthru.use64bitMMIO", 0))
		p->settings[p->nsettings - 1].keep = 1;

	cur = v ? gw_vmx_get(v, "pciPassthru.64bitMMIOSizeGB") : NULL;
	if (cur && gw_parse_uint(cur, ULLONG_MAX, &old) == 0)
		p->existing_gb = old;
	p->mmio_gb = target;
	if (p->existing_gb && p->existing_gb >= target)
		keep_existing(p, v, target);
	else
		write_size(p, v, cur, total, target);
}

/* Rule + BAR need + operator/existing values -> p->mmio_gb, steps,
 * findings, settings.  Returns -1 (e set) when the plan is impossible. */
int
pl_mmio(plan_ctx *c, gw_err *e)
{
	gw_plan *p = c->p;
	mmio_work w;
	uint64_t target;
	int rc = -1;

	memset(&w, 0, sizeof w);
	gw_buf_init(&w.list);
	gw_buf_init(&w.unknown);
	gw_buf_init(&w.nobars);
	gw_buf_init(&w.barlist);
	gw_buf_init(&w.vgpus);
	gw_buf_init(&w.given);
	gw_buf_init(&w.tlist);
	gw_buf_init(&w.tmissing);
	if (count_framebuffer(p, &w, e) != 0)
		goto out;
	p->total_vram_gb = w.total;
	collect_bars(p, &w);
	if (gw_mmio_need_layout(w.total, w.bars, w.nbars, &w.need, e) != 0)
		goto out;
	p->rule_gb = w.need.rule_gb;
	p->bar_gb = w.need.bar_gb;
	rule_steps(p, &w);
	bar_steps(p, &w);
	nvidia_table(c, &w);
	if (p->vgpu_table_gb > w.need.mmio_gb) {
		w.need.mmio_gb = p->vgpu_table_gb;
		table_finding(p);
	}
	keep_bars(p, &w);
	recommend_step(p, w.need.mmio_gb);
	if (choose_target(p, c->a, w.need.mmio_gb, &target, e) != 0)
		goto out;
	mmio_settings(p, c->v, w.total, target);
	rc = 0;
out:
	work_free(&w);
	return rc;
}

/* GeForce cards without Resizable BAR have a 256 MiB BAR1. */
void
pl_geforce(gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->profile || g->gpu == NULL || g->gpu->nbar1 == 0 ||
		    g->gpu->bar1_mib[0] != 256 ||
		    strstr(g->gpu->name, "GeForce") == NULL)
			continue;
		pl_finding(p, GW_SEV_INFO, "geforce-bar1-256", GW_TOPIC_GPU,
		           SRC_REBAR,
		           g->gpu->nbar1 > 1
		           ? gw_xasprintf(_("%s: without Resizable BAR its BAR1 "
		                            "is 256 MiB and the MMIO setting is "
		                            "harmless but not what blocks "
		                            "power-on; with Resizable BAR it is "
		                            "%lu MiB and the setting matters"),
		                          g->label,
		                          g->gpu->bar1_mib[g->gpu->nbar1 - 1])
		           : gw_xasprintf(_("%s: without Resizable BAR its BAR1 "
		                            "is 256 MiB and the MMIO setting is "
		                            "harmless but not what blocks "
		                            "power-on; with Resizable BAR on, "
		                            "BAR1 can be as large as the VRAM "
		                            "and the setting matters"),
		                          g->label),
		           NULL);
	}
}
