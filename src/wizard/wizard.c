/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard.c: the wizard's model (wizard.h): its life cycle, the plan it
 * keeps, and the hosts behind its modes.  The steps are in wizard_*.c;
 * the hosts are reached only through host.h and the session (session.h).
 */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lifecycle ----------------------------------------------------------- */

static void
clear_plan(gw_wizard *w)
{
	if (w->have_plan)
		gw_plan_free(&w->plan);
	memset(&w->plan, 0, sizeof w->plan);
	w->have_plan = 0;
}

/* The renders of the last plan. */
static void
clear_renders(gw_wizard *w)
{
	size_t i;

	for (i = 0; i < GW_NFORMATS; i++) {
		free(w->render[i]);
		free(w->render_error[i]);
		w->render[i] = w->render_error[i] = NULL;
		w->rendered[i] = 0;
	}
}

int
gw_wizard_replan(gw_wizard *w)
{
	gw_err le;
	gw_answers eff, *a = &w->af.a;
	int rc;

	w->nreplans++;
	w->plan_stale = 0;
	clear_renders(w);
	clear_plan(w);
	w->plan_error[0] = '\0';
	memset(&le, 0, sizeof le);
	wz_outputs_follow(w);
	if (w->af.a.ngpus == 0 && w->vmx == NULL) {
		snprintf(w->plan_error, sizeof w->plan_error, "%s",
		         _("No GPU chosen yet: choose one on the GPU step."));
		return -1;
	}
	/* on a host that picks devices (the API) the request is what the VM
	 * should have: what it has counts, free devices of its host are
	 * picked for the rest */
	if (wz_host_for(w, w->mode) == w->host && w->host != NULL) {
		if (gw_session_answers(&w->sess, &w->af.a, &eff, NULL, &le) != 0) {
			snprintf(w->plan_error, sizeof w->plan_error, "%s",
			         gw_err_text(&le, 1));
			return -1;
		}
		a = &eff;
	}
	rc = gw_plan_build(a, gw_wizard_table(w), w->vmx, &w->plan, &le);
	if (a == &eff)
		gw_answers_free(&eff);
	if (rc != 0) {
		gw_plan_free(&w->plan);
		memset(&w->plan, 0, sizeof w->plan);
		if (w->af.a.ngpus == 0)
			snprintf(w->plan_error, sizeof w->plan_error, "%s",
			         _("No GPU chosen yet: choose one on the GPU step."));
		else
			snprintf(w->plan_error, sizeof w->plan_error, "%s",
			         gw_err_text(&le, 1));
		return -1;
	}
	w->have_plan = 1;
	wz_outputs_fit(w);
	return 0;
}

void
wz_stale(gw_wizard *w)
{
	w->plan_stale = 1;
	if (w->batch == 0)
		gw_wizard_replan(w);
}

void
wz_begin(gw_wizard *w)
{
	w->batch++;
}

void
wz_end(gw_wizard *w)
{
	if (w->batch > 0 && --w->batch == 0 && w->plan_stale)
		gw_wizard_replan(w);
}

void
wz_fresh(const gw_wizard *cw)
{
	if (cw->plan_stale)
		gw_wizard_replan((gw_wizard *)cw);
}

const gw_plan *
wz_plan(const gw_wizard *w)
{
	wz_fresh(w);
	return w->have_plan ? &w->plan : NULL;
}

void
gw_wizard_action_begin(gw_wizard *w)
{
	wz_begin(w);
}

void
gw_wizard_action_end(gw_wizard *w)
{
	wz_end(w);
}

const char *
wz_render(const gw_wizard *cw, size_t i, const char **why)
{
	gw_wizard *w = (gw_wizard *)cw;   /* a cache of the plan */
	gw_err le;

	wz_fresh(cw);
	if (why)
		*why = NULL;
	if (i >= GW_NFORMATS)
		return NULL;
	if (!w->have_plan) {
		if (why)
			*why = w->plan_error;
		return NULL;
	}
	if (!w->rendered[i]) {
		le.msg[0] = '\0';
		w->nrenders++;
		if (gw_emit(gw_formats[i].bit, &w->plan, &w->render[i], &le) != 0) {
			free(w->render[i]);
			w->render[i] = NULL;
			w->render_error[i] = gw_xstrdup(le.msg);
		}
		w->rendered[i] = 1;
	}
	if (w->render[i] == NULL && why)
		*why = w->render_error[i];
	return w->render[i];
}

void
wz_changed(gw_wizard *w)
{
	w->dirty = 1;
	w->written = 0;
	gw_apply_result_free(&w->result);
	w->write_error[0] = '\0';
	w->reread_note[0] = '\0';
	wz_stale(w);
}

void
wz_set_vmx(gw_wizard *w, gw_vmx *v, char *path)
{
	gw_vmx_free(w->vmx);
	w->vmx = v;
	free(w->vmx_disk);
	w->vmx_disk = NULL;
	free(w->af.vmx_path);
	w->af.vmx_path = path;
	free(w->vmx_error);
	w->vmx_error = NULL;
}

/* Everything derived from the old host or route left behind: the GPUs,
 * the memory size, the MMIO size, the .vmx and the open VM, the host's
 * facts (ESXi version, BDFs, system id, GPU counts), the probes and host
 * changes, and the output directory back to "gpuwiz-out".  The
 * operator's options, formats and name stay. */
static void
wz_drop_derived(gw_wizard *w)
{
	gw_answers *a = &w->af.a;
	int uvm = w->af.uvm_set ? a->uvm : 0, p2p = a->p2p;
	int code43 = a->code43, reserve = a->reserve;
	char *name = a->name;

	if (w->starting)
		return;   /* the answers file's values are for this host */
	a->name = NULL;
	gw_answers_free(a);
	gw_answers_init(a);
	a->uvm = uvm;
	a->p2p = p2p;
	a->code43 = code43;
	a->reserve = reserve;
	a->name = name;
	wz_set_vmx(w, NULL, NULL);
	free(w->af.vm_name);
	w->af.vm_name = NULL;
	free(w->af.out_dir);
	w->af.out_dir = gw_xstrdup("gpuwiz-out");
	w->outdir_given = 0;
	free(w->host_error);
	w->host_error = NULL;
	wz_clear_probes(w);
	w->probed = 0;
	/* the open VM and the host changes were the old route's */
	gw_session_free(&w->sess);
	gw_session_init(&w->sess, w->host);
	w->written = 0;
	gw_apply_result_free(&w->result);
	w->write_error[0] = '\0';
	wz_stale(w);
}

char *
wz_expand_tilde(const char *p)
{
	const char *home = getenv("HOME");

	if (p[0] == '~' && p[1] == '/' && home && *home)
		return gw_xasprintf("%s%s", home, p + 1);
	return gw_xstrdup(p);
}

int
gw_wizard_init(gw_wizard *w, const gw_table *t, const char *answers_path,
               gw_err *e)
{
	int i;

	memset(w, 0, sizeof *w);
	w->table = t;
	w->mode = GW_MODE_OFFLINE;
	gw_session_init(&w->sess, NULL);
	w->step = GW_STEP_WELCOME;
	w->visited[GW_STEP_WELCOME] = 1;
	if (answers_path) {
		if (gw_answers_load(&w->af, answers_path, t, e) != 0) {
			gw_answers_file_free(&w->af);
			memset(w, 0, sizeof *w);
			gw_session_init(&w->sess, NULL);
			return -1;
		}
		for (i = 0; i < GW_NHOST; i++)
			w->host_ok[i] = 1;
		if (w->af.vmx_path) {
			gw_err le;

			if (gw_vmx_load_checked(&w->vmx, w->af.vmx_path, &le) != 0) {
				w->vmx = NULL;
				w->vmx_error = gw_xstrdup(le.msg);
			}
		}
	} else {
		gw_answers_init(&w->af.a);
		w->af.activity = -1;
	}
	w->outdir_given = w->af.out_dir != NULL;
	if (w->af.activity >= 0)   /* a word of gw_answers_activities */
		w->activity = gw_activity_parse(
			gw_answers_activities[w->af.activity]);
	if (w->af.out_dir == NULL)
		w->af.out_dir = gw_xstrdup("gpuwiz-out");
	gw_wizard_replan(w);   /* the outputs follow the activity */
	w->dirty = 0;
	return 0;
}

void
gw_wizard_free(gw_wizard *w)
{
	if (w == NULL)
		return;
	wz_table_free(w->lazy);
	gw_answers_file_free(&w->af);
	gw_vmx_free(w->vmx);
	free(w->vmx_disk);
	free(w->vmx_error);
	free(w->host_error);
	clear_renders(w);
	clear_plan(w);
	gw_apply_result_free(&w->result);
	wz_free_probes(w);
	free(w->sysroot);
	free(w->scratch);
	while (w->nscratch_left > 0)
		free(w->scratch_left[--w->nscratch_left]);
	free(w->scratch_left);
	gw_session_free(&w->sess);
	gw_host_close(w->host);
	gw_host_close(w->local);
	wz_address_free(w);
	memset(w, 0, sizeof *w);
}


/* ---- the hosts ---------------------------------------------------------- */

const char *
gw_wizard_sysroot(void)
{
	/* (a root the program reads as this host's /proc and /sys) */
	const char *r = gw_env_path("GPUWIZ_SYSROOT", GW_PATH_DIR);

	return r != NULL ? r : "/";
}

/* Probe this root instead of gw_wizard_sysroot() (a Linux sample host). */
static void
set_sysroot(gw_wizard *w, const char *root)
{
	free(w->sysroot);
	w->sysroot = root && *root ? gw_xstrdup(root) : NULL;
	gw_host_close(w->local);
	w->local = NULL;
	w->probed = 0;
}

int
gw_wizard_set_mode(gw_wizard *w, gw_mode m, const char **why)
{
	const char *reason = NULL;

	if (!gw_wizard_mode_available(w, m, &reason)) {
		if (why)
			*why = reason;
		return -1;
	}
	if (why)
		*why = NULL;
	wz_begin(w);
	if (m != w->mode)
		wz_drop_derived(w);   /* the old route's host and VM */
	w->mode = m;
	if (!w->probed && wz_mode(m)->probe)
		wz_mode(m)->probe(w);
	wz_end(w);
	return 0;
}

/* h becomes the attached host, probed (what the old one left is the
 * caller's to drop). */
static void
attach_host(gw_wizard *w, gw_host *h)
{
	gw_session_free(&w->sess);
	gw_host_close(w->host);
	wz_address_free(w);
	w->host = h;
	gw_session_init(&w->sess, h);
	gw_host_set_progress(h, w->progress, w->progress_ctx);
	w->mode = wz_mode_of(h);
	w->probed = 0;
	gw_wizard_probe_esxi(w);
}

void
wz_attach(gw_wizard *w, gw_host *h)
{
	wz_begin(w);
	wz_drop_derived(w);   /* the old host's */
	attach_host(w, h);
	wz_end(w);
}

void
gw_wizard_set_progress(gw_wizard *w, gw_host_progress_fn fn, void *ctx)
{
	w->progress = fn;
	w->progress_ctx = ctx;
	if (w->host)
		gw_host_set_progress(w->host, fn, ctx);
}

int
gw_wizard_use_sample(gw_wizard *w, const char *name, gw_err *e)
{
	gw_host *h;

	if (gw_host_open_sample(name, 1, &h, e) != 0)
		return -1;
	wz_begin(w);
	wz_drop_derived(w);   /* the old host's */
	if (w->scratch != NULL) {   /* it holds what was written: kept */
		w->scratch_left = gw_xrealloc(w->scratch_left,
		                              (w->nscratch_left + 1) *
		                              sizeof *w->scratch_left);
		w->scratch_left[w->nscratch_left++] = w->scratch;
	}
	w->scratch = gw_xstrdup(gw_host_scratch(h));
	/* the writes go into the scratch directory, unless the answers
	 * file names a directory of its own */
	if (!w->outdir_given) {
		free(w->af.out_dir);
		w->af.out_dir = gw_xasprintf("%s/gpuwiz-out", w->scratch);
	}
	if (!host_can(h, HOST_SYSROOT)) {
		attach_host(w, h);
		wz_end(w);
		return 0;
	}
	/* a Linux sample: probed as this Linux host through its root */
	gw_session_free(&w->sess);
	gw_host_close(w->host);
	wz_address_free(w);
	w->host = NULL;
	gw_session_init(&w->sess, NULL);
	set_sysroot(w, gw_host_sysroot(h));
	w->local = h;
	w->mode = wz_mode_of(h);
	gw_wizard_probe_host(w);
	wz_end(w);
	return 0;
}

/* ---- the MMIO field ------------------------------------------------------- */

/* A whole number of GB made of digits only (no sign, point or unit);
 * one too large for 64 bits reads as UINT64_MAX (not plausible). */
static int
mmio_digits(const char *t, uint64_t *gb)
{
	unsigned long long v;
	const char *c;

	for (c = t; *c; c++)
		if (*c < '0' || *c > '9')
			return -1;
	*gb = gw_parse_uint(t, ~0ULL, &v) == 0 ? (uint64_t)v : UINT64_MAX;
	return 0;
}

int
gw_wizard_set_mmio_text(gw_wizard *w, const char *text, int confirmed,
                        uint64_t *gb, gw_err *e)
{
	char *t = gw_xstrdup(text ? text : ""), *s = gw_trim(t);
	uint64_t v = 0;
	int empty = *s == '\0', rc;

	if (!empty && mmio_digits(s, &v) != 0) {
		/* TRANSLATORS: %s is what was typed in the MMIO field, %llu
		 * the largest size; "r" is the key that empties the field. */
		gw_err_set(e, _("MMIO size: '%s' is not a whole number of GB: type 1 to %llu, or empty the field (r) for the recommended size"),
		           s, (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		free(t);
		return -1;
	}
	free(t);
	if (!empty && v == 0) {
		/* a typed 0: the answers file's 0 means the recommendation,
		 * on the screen that is the empty field.  TRANSLATORS: "r" is
		 * the key that empties the field. */
		gw_err_set(e, _("MMIO size: 0 GB is no window at all: type 1 to %llu, or empty the field (r) for the recommended size"),
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	if (gb)
		*gb = v;
	if (v == w->af.a.mmio_gb)
		return 0;   /* as it stands (confirmed then if below the rule) */
	if (empty)
		return gw_wizard_set_mmio(w, 0, 0, e);
	rc = gw_wizard_set_mmio(w, v, confirmed, e);
	if (rc != 0 && v <= GW_MMIO_MAX_WINDOW_GB && !confirmed)
		return GW_MMIO_ASK;
	return rc;
}
