/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_steps.c: the step table (steps.def: titles, purposes, help, what
 * each needs before the next, gw_wizard_check_step), moving between the
 * steps, the review's checks (wizard.h). */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- steps ---------------------------------------------------------------- */

/* Is the SR-IOV item relevant: a chosen vGPU on a GPU whose vGPUs run on
 * SR-IOV (gw_answers_sriov_vgpu, plan.h)? */
static int
sriov_needed(const gw_wizard *w)
{
	return gw_answers_sriov_vgpu(&w->af.a) != NULL;
}

void
gw_wizard_set_host_ok(gw_wizard *w, int item, int ok)
{
	if (item >= 0 && item < GW_NHOST)
		w->host_ok[item] = ok ? 1 : 0;
}

int
gw_wizard_format_check(const gw_wizard *w, int fmt, char *why, size_t n)
{
	const char *reason = NULL;
	size_t i;

	for (i = 0; i < GW_NFORMATS && gw_formats[i].bit != fmt; i++)
		;
	if (i == GW_NFORMATS) {
		wz_put_why(why, n, _("unknown output format"));
		return -1;
	}
	if (wz_render(w, i, &reason) == NULL) {
		wz_put_why(why, n, reason ? reason : "");
		return -1;
	}
	return 0;
}

int
wz_formats_possible(const gw_wizard *w, int mask)
{
	size_t i;
	int can = 0;

	for (i = 0; i < GW_NFORMATS; i++)
		if ((mask & gw_formats[i].bit) &&
		    gw_wizard_format_check(w, gw_formats[i].bit, NULL, 0) == 0)
			can |= gw_formats[i].bit;
	return can;
}

/* The registry's rows as the screens see them (wizard.h). */
static const gw_wizard_format formats_shown[] = {
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, FOR, MEM, TAKES, EMIT, NEXT) \
	{ GW_FMT_##ID, LABEL, HOLDS, FILE },
#include "formats.def"
#undef GW_FORMAT
};
_Static_assert(GW_NFORMATS <= GW_WIZARD_MAX_FORMATS,
               "the options step has rows for GW_WIZARD_MAX_FORMATS formats");

size_t
gw_wizard_nformats(void)
{
	return GW_NFORMATS;
}

const gw_wizard_format *
gw_wizard_format_at(size_t i)
{
	return i < GW_NFORMATS ? &formats_shown[i] : NULL;
}

char *
gw_wizard_output_path(const gw_wizard *w, int fmt)
{
	const char *f = gw_format_filename(fmt);

	if (f == NULL || w->af.out_dir == NULL || w->af.out_dir[0] == '\0')
		return NULL;
	return gw_xasprintf("%s/%s", w->af.out_dir, f);
}

static int
check_review(const gw_wizard *w, char *why, size_t n)
{
	gw_err le;
	char buf[1024];
	size_t i;

	if (wz_plan(w) == NULL) {
		wz_put_why(why, n, w->plan_error);
		return -1;
	}
	if (w->vmx_error) {
		wz_put_why(why, n, w->vmx_error);
		return -1;
	}
	if (w->af.formats == 0 && w->vmx == NULL) {
		wz_put_why(why, n, _("Nothing to write: choose at least one output format, or open a .vmx on the VM step."));
		return -1;
	}
	if (w->af.formats && (w->af.out_dir == NULL || w->af.out_dir[0] == '\0')) {
		wz_put_why(why, n, _("Output directory: missing (expected the directory to write the snippets into)."));
		return -1;
	}
	if (sriov_needed(w) && !w->host_ok[GW_HOST_SRIOV]) {
		snprintf(buf, sizeof buf,
		         _("%s: not confirmed, and the vGPUs chosen need it (NVIDIA vGPU on Ampere and later runs on SR-IOV); confirm it on the host check step."),
		         gw_host_item_title(GW_HOST_SRIOV));
		wz_put_why(why, n, buf);
		return -1;
	}
	for (i = 0; i < GW_NFORMATS; i++) {
		char reason[900];

		if (!(w->af.formats & gw_formats[i].bit))
			continue;
		if (gw_wizard_format_check(w, gw_formats[i].bit, reason,
		                           sizeof reason) != 0) {
			snprintf(buf, sizeof buf,
			         _("Output '%s' cannot be made from this plan: %s; turn it off or change the GPUs."),
			         gw_formats[i].name, reason);
			wz_put_why(why, n, buf);
			return -1;
		}
	}
	if (!gw_session_may_write(&w->plan, w->af.force, &le)) {
		wz_put_why(why, n, le.msg);
		return -1;
	}
	return 0;
}

gw_sev
gw_wizard_host_item_sev(const gw_wizard *w, int item)
{
	if (item < 0 || item >= GW_NHOST || w->host_ok[item])
		return GW_SEV_PASS;
	if (item != GW_HOST_SRIOV)
		return GW_SEV_ERROR;   /* the host step's Enter waits for it */
	/* the review's Enter waits for it once a vGPU needs it */
	return sriov_needed(w) ? GW_SEV_WARN : GW_SEV_INFO;
}

/* The host step: the probes' rows (a probed mode), else the BIOS
 * checklist's items that FAIL (gw_wizard_host_item_sev), all named. */
static int
check_host(const gw_wizard *w, char *why, size_t n)
{
	const gw_finding *f;
	char buf[1024];
	int i, missing[GW_NHOST], nm = 0;

	if (!gw_wizard_can(w, GW_CAN_PROBE)) {
		for (i = 0; i < GW_NHOST; i++)
			if (gw_wizard_host_item_sev(w, i) == GW_SEV_ERROR)
				missing[nm++] = i;
		if (nm == 0)
			return 0;
		if (nm == 1)
			snprintf(buf, sizeof buf,
			         _("%s: not confirmed; turn it on in the BIOS/UEFI setup and confirm it here."),
			         gw_host_item_title(missing[0]));
		else
			/* TRANSLATORS: Enter on the offline host check with
			 * both BIOS items not confirmed: their titles. */
			snprintf(buf, sizeof buf,
			         _("%s and %s: not confirmed; turn both on in the BIOS/UEFI setup and confirm each here (Space)."),
			         gw_host_item_title(missing[0]),
			         gw_host_item_title(missing[1]));
		wz_put_why(why, n, buf);
		return -1;
	}
	f = gw_wizard_host_fail(w);
	if (w->host_override)
		return 0;
	if (!w->probed) {
		wz_put_why(why, n, _("The host checks have not run yet: press r to run them."));
		return -1;
	}
	if (w->checks_error) {
		/* TRANSLATORS: %s says why the checks could not
		 * run; o and r are keys. */
		snprintf(buf, sizeof buf,
		         _("The host checks could not run: %s. Press o to go on anyway."),
		         w->checks_error);
		wz_put_why(why, n, buf);
		return -1;
	}
	if (f) {
		/* TRANSLATORS: a FAIL row blocks the host
		 * step: its title and message; r and o are
		 * keys. */
		snprintf(buf, sizeof buf,
		         _("FAIL: %s: %s. Fix it and press r to check again, or press o to go on anyway."),
		         f->title, f->message);
		wz_put_why(why, n, buf);
		return -1;
	}
	return 0;
}

/* The GPU step: GPUs chosen, or only the devices already in the VM
 * (the seed-001 VM: its vGPUs need UVM, nothing added; doc/design.md,
 * 15.1).  Before a VM is open its devices are not known yet: the VM step
 * asks again. */
static int
check_gpu(const gw_wizard *w, char *why, size_t n)
{
	if (w->af.a.ngpus > 0 || w->vmx == NULL ||
	    gw_wizard_existing_gpus(w) > 0)
		return 0;
	wz_put_why(why, n, _("Choose at least one GPU: the open VM has none yet."));
	return -1;
}

/* The VM step: something to plan for, the chosen GPUs or the VM's. */
static int
check_vm_gpus(const gw_wizard *w, char *why, size_t n)
{
	if (w->af.a.ngpus == 0 && (w->vmx == NULL ||
	                           gw_wizard_existing_gpus(w) == 0)) {
		wz_put_why(why, n, w->vmx == NULL ?
		           _("No GPU chosen and no VM open: choose a GPU on the GPU step, or open a .vmx that already has its GPUs.") :
		           _("This VM has no GPU device yet: go back to the GPU step and choose one, or open another .vmx."));
		return -1;
	}
	if (w->vmx && wz_plan(w) == NULL) {
		wz_put_why(why, n, w->plan_error);
		return -1;
	}
	return 0;
}

/* The welcome step: a mode this wizard can do. */
static int
check_welcome(const gw_wizard *w, char *why, size_t n)
{
	const char *reason = NULL;

	if (!gw_wizard_mode_available(w, w->mode, &reason)) {
		wz_put_why(why, n, reason);
		return -1;
	}
	return 0;
}

/* The VM step: the .vmx read, and something to plan for. */
static int
check_vm(const gw_wizard *w, char *why, size_t n)
{
	char buf[1024];

	if (w->vmx_error) {
		snprintf(buf, sizeof buf,
		         _("%s; open another .vmx or choose none (snippets only)."),
		         w->vmx_error);
		wz_put_why(why, n, buf);
		return -1;
	}
	return check_vm_gpus(w, why, n);
}

/* The MMIO and options steps: a plan. */
static int
check_plan(const gw_wizard *w, char *why, size_t n)
{
	if (wz_plan(w) == NULL) {
		wz_put_why(why, n, w->plan_error);
		return -1;
	}
	return 0;
}

/* The write step is the last. */
static int
check_last(const gw_wizard *w, char *why, size_t n)
{
	(void)w;
	wz_put_why(why, n, _("This is the last step."));
	return -1;
}

/* ---- the step table (steps.def) ------------------------------------------- */

static const struct {
	const char *title, *purpose, *help;
	int (*check)(const gw_wizard *w, char *why, size_t n);
} steps[GW_NSTEPS] = {
#define GW_STEP(ID, TITLE, PURPOSE, HELP, CHECK, SCREEN) \
	[GW_STEP_##ID] = { TITLE, PURPOSE, HELP, CHECK },
#include "steps.def"
#undef GW_STEP
};

const char *
gw_step_title(gw_step s)
{
	return (unsigned)s < GW_NSTEPS ? _(steps[s].title) : "";
}

const char *
gw_step_purpose(gw_step s)
{
	return (unsigned)s < GW_NSTEPS ? _(steps[s].purpose) : "";
}

const char *
gw_step_help(gw_step s)
{
	return (unsigned)s < GW_NSTEPS ? _(steps[s].help) : "";
}

int
gw_wizard_check_step(const gw_wizard *w, gw_step s, char *why, size_t n)
{
	if (why && n > 0)
		why[0] = '\0';
	if ((unsigned)s >= GW_NSTEPS) {
		wz_put_why(why, n, _("Unknown step."));
		return -1;
	}
	return steps[s].check(w, why, n);
}

/* Did step s leave a FAIL or WARN behind although the operator went on:
 * a host row that FAILs or WARNs (overridden or not), a review with a
 * FAIL finding (written with force). */
static int
step_left_warn(const gw_wizard *w, gw_step s)
{
	size_t i;

	if (s == GW_STEP_HOST) {
		if (w->host_override)
			return 1;
		if (gw_wizard_can(w, GW_CAN_PROBE)) {
			for (i = 0; i < w->nchecks; i++)
				if (w->checks[i].sev >= GW_SEV_WARN)
					return 1;
			return 0;
		}
		for (i = 0; i < GW_NHOST; i++)
			if (gw_wizard_host_item_sev(w, (int)i) >= GW_SEV_WARN)
				return 1;
		return 0;
	}
	if (s == GW_STEP_REVIEW && w->have_plan) {
		for (i = 0; i < w->plan.nfindings; i++)
			if (w->plan.findings[i].sev == GW_SEV_ERROR)
				return 1;
	}
	return 0;
}

gw_step_mark
gw_wizard_step_mark(const gw_wizard *w, gw_step s)
{
	if ((unsigned)s >= GW_NSTEPS || !w->visited[s] || s == w->step ||
	    s > w->step)
		return GW_MARK_NONE;
	/* the review's check renders every output: behind it is only the
	 * write step, reached through that very check, so its FAIL
	 * findings say it all */
	if ((s != GW_STEP_REVIEW && gw_wizard_check_step(w, s, NULL, 0) != 0) ||
	    step_left_warn(w, s))
		return GW_MARK_WARN;
	return GW_MARK_PASS;
}

int
gw_wizard_next(gw_wizard *w, char *why, size_t n)
{
	if (gw_wizard_check_step(w, w->step, why, n) != 0)
		return -1;
	w->step = (gw_step)(w->step + 1);
	w->visited[w->step] = 1;
	return 0;
}

int
gw_wizard_back(gw_wizard *w)
{
	if (w->step == GW_STEP_WELCOME)
		return -1;
	w->step = (gw_step)(w->step - 1);
	return 0;
}

int
gw_wizard_goto_why(gw_wizard *w, gw_step s, char *why, size_t n)
{
	gw_step k;

	if (why && n > 0)
		why[0] = '\0';
	if ((int)s < 0 || s >= GW_NSTEPS || !w->visited[s]) {
		wz_put_why(why, n, _("That step is not reached yet: finish this one first."));
		return -1;
	}
	for (k = w->step; k < s; k = (gw_step)(k + 1))
		if (gw_wizard_check_step(w, k, why, n) != 0)
			return -1;
	w->step = s;
	return 0;
}

