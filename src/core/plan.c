/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan.c: answers (+ a .vmx) -> settings and findings.  Pure: no file or
 * environment access (gettext aside).  gw_plan_build runs the phases of
 * plan_int.h in order; this file holds the sequence, the checks of the
 * answers and the name.  The phases add steps, findings and settings
 * through plan_util.c and never call back into this file.
 *
 * Facts used here and where they come from (doc/design.md, section 15):
 *  - MMIO rule: Broadcom KB 323402 (section 15.2).
 *  - vGPU MMIO follows the physical GPU's framebuffer: NVIDIA AI Enterprise
 *    "MMIO space required" table (section 15.2).
 *  - BAR3 of NVIDIA GPUs is a 32 MiB 64-bit prefetchable BAR in every
 *    capture that shows its size (section 15.2): public lspci -vvv
 *    captures of an RTX 4060 Ti 16GB and an RTX 6000 Ada ("Region 3 ...
 *    (64-bit, prefetchable) [size=32M]"), and tests/fixtures/vmwarelog/
 *    vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt ("barIndex 3
 *    type 3 ... size 33554432").  An RTX 3090 capture shows Region 3 as
 *    64-bit prefetchable but unassigned, without a size.  BAR0 is 32-bit
 *    there and does not use the 64-bit window.
 *  - Memory reservation: KB 309986; nested virtualization: KB 437651;
 *    P2P: NVIDIA GPU Operator docs; UVM: NVIDIA AI Enterprise docs and
 *    NVIDIA NCCL issue 2101 (section 15.1); hardware versions: KB 1003746
 *    (section 15.5); passthrough device limits: KB 309986 (section 15.5).
 */
#include "plan_int.h"
#include "mmio.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plan ----------------------------------------------------------- */

/* "gpu-<first id>": the first GPU asked for, else the first one in the
 * .vmx; characters outside [A-Za-z0-9_-] (periods above all: Ops Manager
 * names have none) become '-'. */
static char *
derive_name(const gw_plan *p, const gw_answers *a)
{
	const char *first = NULL;
	char *n, *q;
	size_t i;

	if (a->ngpus > 0) {
		const gw_gpu_want *w = &a->gpus[0];

		if (w->profile)
			first = w->profile;
		else if (w->gpu)
			first = w->gpu->id;
		else
			first = "";
	}
	for (i = 0; first == NULL && i < p->ngpus; i++)
		if (p->gpus[i].vram_gb >= 0)
			first = p->gpus[i].label;
	if (first && *first == '\0')
		n = gw_xasprintf("gpu-%dgb", a->gpus[0].vram_gb);
	else
		n = gw_xasprintf("gpu-%s", first ? first : "vm");
	for (q = n; *q; q++) {
		unsigned char c = (unsigned char)*q;

		if (!isalnum(c) && c != '-' && c != '_')
			*q = '-';
		else
			*q = (char)tolower(c);
	}
	return n;
}

static int
name_valid(const char *s)
{
	size_t n = 0;

	if (s == NULL || *s == '\0')
		return 0;
	for (; *s; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (!isalnum(c) && c != '-' && c != '_')
			return 0;
	}
	return n <= 80;
}

/* Inputs that make a plan impossible, before anything is read. */
static int
check_wants(const gw_answers *a, size_t *npt_slots, gw_err *e)
{
	size_t i;

	*npt_slots = 0;
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *w = &a->gpus[i];
		const char *spec = w->spec ? w->spec : "?";

		if (w->count < 1 || w->count > GW_MMIO_MAX_COUNT) {
			gw_err_set(e, _("%s: count %d is not 1..%d"),
			           spec, w->count, GW_MMIO_MAX_COUNT);
			return -1;
		}
		if (w->vram_gb < 0) {
			gw_err_set(e, _("%s: the VRAM of this GPU is unknown in "
			                "the GPU table; give the size with --vram "
			                "GB"), spec);
			return -1;
		}
		if (w->vram_gb == 0 || (uint64_t)w->vram_gb > GW_MMIO_MAX_GPU_GB) {
			gw_err_set(e, _("%s: %d GB is not a plausible size "
			                "(expected 1..%llu)"),
			           spec, w->vram_gb,
			           (unsigned long long)GW_MMIO_MAX_GPU_GB);
			return -1;
		}
		if (w->profile == NULL && w->gpu == NULL && a->dynamic) {
			gw_err_set(e, _("--dynamic: %s is a GPU given only by its size; Dynamic DirectPath I/O writes its PCI ids: give it by id (--gpu)"),
			           spec);
			return -1;
		}
		if (w->profile == NULL)
			*npt_slots += (size_t)w->count;
	}
	return 0;
}

/* More host addresses than passthrough GPUs: the option's words and
 * the wizard's. */
static void
bdf_surplus(size_t nbdfs, size_t nslots, gw_err *e)
{
	char *n;

	/* TRANSLATORS: how many --bdf addresses were given: the %s of the
	 * error below. */
	n = gw_xasprintf(P_("%zu host PCI address", "%zu host PCI addresses",
	                    nbdfs), nbdfs);
	/* TRANSLATORS: %s is the text above ("2 host PCI addresses"), %zu
	 * how many passthrough GPUs are being added. */
	gw_err_set(e, P_("--bdf: %s given but only %zu passthrough GPU is being added (each --bdf pairs with one GPU of --gpu, in order)",
	                 "--bdf: %s given but only %zu passthrough GPUs are being added (each --bdf pairs with one GPU of --gpu, in order)",
	                 nslots), n, nslots);
	free(n);
	/* TRANSLATORS: how many addresses the wizard's "Host PCI
	 * addresses" field has: the %s of the text below. */
	n = gw_xasprintf(P_("%zu address", "%zu addresses", nbdfs), nbdfs);
	/* TRANSLATORS: the wizard's words for the error above; %s is the
	 * text above ("2 addresses"). */
	gw_err_set_ui(e, P_("\"Host PCI addresses\" has %s but only %zu passthrough GPU is chosen on the GPU step: each address pairs with one GPU, in order.",
	                    "\"Host PCI addresses\" has %s but only %zu passthrough GPUs are chosen on the GPU step: each address pairs with one of them, in order.",
	                    nslots), n, nslots);
	free(n);
}

static int
check_answers(const gw_answers *a, const gw_vmx *v, size_t npt_slots,
              gw_err *e)
{
	/* An encrypted VM keeps its real configuration inside
	 * encryption.data: plain keys appended to the .vmx would be ignored
	 * or break it, so refuse rather than write advice that cannot work.
	 * A VM whose only encryption is its vTPM's (encryption.keySafe, no
	 * encryption.data) keeps its settings in plain text: planned as any
	 * other (plan_vm.c says so, pl_encryption). */
	if (v != NULL && gw_vmx_get(v, "encryption.data") != NULL) {
		gw_err_set(e, _("%s: the VM is encrypted: its settings live inside encryption.data and cannot be edited in the file; make these changes in the vSphere Client, the ESXi Host Client or Workstation"),
		           gw_vmx_name(v));
		return -1;
	}
	if (a->name && !name_valid(a->name)) {
		gw_err_set(e, _("name: '%s' may contain only letters, digits, "
		                "'-' and '_' (no periods), at most 80"), a->name);
		return -1;
	}
	if (a->nbdfs > 0 && (a->system_id == NULL ||
	                     !gw_system_id_valid(a->system_id))) {
		gw_err_set(e, _("--system-id: a host system id is needed with "
		                "--bdf (run esxcli system uuid get on the "
		                "host)"));
		/* TRANSLATORS: the wizard's words for the error above; the
		 * quoted names are the Virtual machine step's fields. */
		gw_err_set_ui(e, "%s", _("Fill \"Host system id\" too: a host PCI address needs the host's system id (esxcli system uuid get on the host gives it)."));
		return -1;
	}
	if (a->dynamic && (a->nbdfs > 0 || a->system_id != NULL)) {
		gw_err_set(e, _("--dynamic: Dynamic DirectPath I/O chooses the GPU by its PCI ids when the VM powers on; --bdf and --system-id pin one host's device (give one or the other)"));
		/* TRANSLATORS: the wizard's words for the error above. */
		gw_err_set_ui(e, "%s", _("Dynamic DirectPath I/O chooses the GPU by its PCI ids when the VM powers on: leave \"Host PCI addresses\" and \"Host system id\" empty, or turn Dynamic DirectPath I/O off."));
		return -1;
	}
	if (a->dynamic && a->ngpus > 0 && npt_slots == 0) {
		gw_err_set(e, _("--dynamic: Dynamic DirectPath I/O is for passthrough GPUs (--gpu); none is asked for"));
		return -1;
	}
	if (a->nbdfs > npt_slots) {
		bdf_surplus(a->nbdfs, npt_slots, e);
		return -1;
	}
	return 0;
}

/* A key that must change but exists only as a malformed line. */
static int
check_malformed(const gw_plan *p, const gw_vmx *v, gw_err *e)
{
	size_t i;

	for (i = 0; v && i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		int line;

		if (s->keep || gw_vmx_get(v, s->key) != NULL)
			continue;
		line = gw_vmx_malformed_line_of(v, s->key);
		if (line > 0) {
			gw_err_set(e, _("%s:%d: the line for %s is malformed; fix "
			                "or remove it first"), gw_vmx_name(v), line,
			           s->key);
			return -1;
		}
	}
	return 0;
}

/* The GPUs already in the .vmx, then the ones being added. */
static int
plan_gpus(plan_ctx *c, gw_err *e)
{
	size_t i;

	if (c->v)
		pl_existing(c);
	for (i = 0; i < c->sc.ndevs; i++)
		if (c->sc.devs[i].present) {
			c->ndevices++;
			if (c->sc.devs[i].vgpu)
				c->nvgpu_all++;
		}
	/* Nothing asked for is fine when the VM has its devices (--uvm on
	 * the vGPUs already there); with neither there is nothing to plan. */
	if (c->a->ngpus == 0 && c->p->ngpus == 0 && c->v != NULL) {
		gw_err_set(e, _("%s: no GPU to plan for: the .vmx has no GPU "
		                "device (pciPassthruN) and none was asked for; "
		                "add one (--gpu, --vgpu or --vram; [gpu] "
		                "devices in an answers file)"), gw_vmx_name(c->v));
		return -1;
	}
	pl_add_wanted(c);
	return pl_count_devices(c, e);
}

static void
ctx_free(plan_ctx *c)
{
	free(c->nds);
	free(c->dedup);
	pl_scan_free(&c->sc);
}

int
gw_plan_check_present(const gw_answers *a, const gw_vmx *v, int *counted,
                      gw_err *e)
{
	plan_ctx c;
	size_t i;
	int rc;

	if (counted)
		*counted = 0;
	if (v == NULL)
		return 0;
	memset(&c, 0, sizeof c);
	c.a = a;
	c.v = v;
	pl_scan_vmx(v, &c.sc);
	rc = pl_pair_bdfs(&c, e) == 0 && pl_claim_present(&c, e) == 0 ? 0 : -1;
	for (i = 0; rc == 0 && counted && i < a->ngpus; i++)
		*counted += c.dedup[i];
	ctx_free(&c);
	return rc;
}

int
gw_plan_build(const gw_answers *a, const gw_table *t, const gw_vmx *v,
              gw_plan *p, gw_err *e)
{
	plan_ctx c;

	memset(p, 0, sizeof *p);
	memset(&c, 0, sizeof c);
	if (a == NULL) {
		gw_err_set(e, _("no answers to plan from"));
		return -1;
	}
	c.a = a;
	c.t = t;
	c.v = v;
	c.p = p;
	if (check_wants(a, &c.npt_slots, e) != 0 ||
	    check_answers(a, v, c.npt_slots, e) != 0)
		return -1;
	pl_scan_vmx(v, &c.sc);
	if (pl_pair_bdfs(&c, e) != 0 || pl_claim_present(&c, e) != 0 ||
	    plan_gpus(&c, e) != 0 ||
	    pl_mmio(&c, e) != 0)
		goto fail;
	pl_geforce(p);
	pl_memory(&c);
	pl_encryption(&c);
	pl_device_blocks(&c);
	pl_host_counts(&c);
	pl_vgpu_uvm(&c);
	pl_options(&c);
	pl_firmware(&c);
	pl_hw(&c);
	pl_dynamic(&c);
	pl_limits(&c);
	if (check_malformed(p, v, e) != 0)
		goto fail;
	p->name = a->name ? gw_xstrdup(a->name) : derive_name(p, a);
	ctx_free(&c);
	return 0;
fail:
	ctx_free(&c);
	gw_plan_free(p);
	return -1;
}
void
gw_plan_free(gw_plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ngpus; i++) {
		free(p->gpus[i].label);
		free(p->gpus[i].profile);
	}
	free(p->gpus);
	free(p->bars);
	for (i = 0; i < p->nsteps; i++)
		free(p->steps[i]);
	free(p->steps);
	for (i = 0; i < p->nsettings; i++) {
		free(p->settings[i].key);
		free(p->settings[i].value);
		free(p->settings[i].old_value);
		free(p->settings[i].reason);
	}
	free(p->settings);
	gw_findings_free(&p->findings, &p->nfindings);
	free(p->name);
	memset(p, 0, sizeof *p);
}

int
gw_plan_apply_vmx(const gw_plan *p, gw_vmx *vmx, gw_err *e)
{
	size_t i;

	if (p == NULL || vmx == NULL) {
		gw_err_set(e, _("no plan or no .vmx to apply it to"));
		return -1;
	}
	/* Check first, so a refusal leaves the document untouched. */
	if (check_malformed(p, vmx, e) != 0)
		return -1;
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (s->keep)
			continue;
		if (gw_vmx_set(vmx, s->key, s->value, e) != 0)
			return -1;
	}
	return 0;
}

int
gw_plan_has_errors(const gw_plan *p)
{
	size_t i;

	for (i = 0; p && i < p->nfindings; i++)
		if (p->findings[i].sev == GW_SEV_ERROR)
			return 1;
	return 0;
}
