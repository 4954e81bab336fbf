/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_view.c: the model as the screens see it.  ui/ includes wizard.h
 * only; everything it draws comes through these accessors, and where the
 * kind of host matters (the ESXi shell, the vSphere API, this Linux host)
 * the answer comes from here, and the words from the modes' descriptors
 * (wizard_mode.c), so that the screens never branch on it.  Each accessor reads the struct directly: when the model changes
 * shape, this file is the one to follow it. */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- life ------------------------------------------------------------ */

/* The answers file's [host] that the command line did not give: a
 * sample is built, this Linux host probed, an SSH or API host connected
 * with its address (wz_replay_address). */
static int
file_host(gw_wizard *w, gw_err *e)
{
	const gw_answers_file *af = &w->af;
	gw_err le;

	switch (af->host) {
	case GW_AHOST_SAMPLE:
		le.msg[0] = '\0';
		if (gw_wizard_use_sample(w, af->host_address, &le) != 0) {
			/* TRANSLATORS: %s: the answers file, then why the
			 * sample host could not be built. */
			gw_err_set(e, _("%s: [host] address: %s"), af->path, le.msg);
			return -1;
		}
		return 0;
	case GW_AHOST_LINUX:
		return gw_wizard_set_mode(w, GW_MODE_LINUX, NULL), 0;
	case GW_AHOST_SSH:
	case GW_AHOST_API:
		wz_replay_address(w);
		return 0;
	default:
		return 0;
	}
}

static void file_changes(gw_wizard *w);

/* The answers file's [vm] name on the host attached: opened, so that the
 * replay patches the same VM; a name the host does not list is the VM
 * step's error.  Then the file's host changes are queued again. */
void
wz_file_vm(gw_wizard *w)
{
	gw_err le;
	long idx;

	if (w->af.vm_name == NULL || w->host == NULL ||
	    !gw_wizard_can(w, GW_CAN_VMS)) {
		file_changes(w);
		return;
	}
	le.msg[0] = '\0';
	idx = gw_session_find_vm(&w->sess, w->af.vm_name, &le);
	if (idx < 0 || gw_wizard_esxi_open_vm(w, idx, &le) != 0) {
		free(w->vmx_error);
		/* TRANSLATORS: %s: the answers file, the VM's name, why. */
		w->vmx_error = gw_xasprintf(_("%s: [vm] name: cannot open '%s' on this host: %s"),
		                            w->af.path, w->af.vm_name, le.msg);
		return;
	}
	file_changes(w);
}

/* The answers file's host changes, queued again as the host and VM
 * steps' e and u queued them: [host] enable by the GPU's address (one
 * the host has enabled already needs nothing), [vm] upgrade_hw on the VM
 * opened.  A change that cannot be queued is the VM step's error. */
static void
file_changes(gw_wizard *w)
{
	const gw_answers_file *af = &w->af;
	size_t i, k;
	gw_err le;

	if (w->host == NULL)
		return;
	for (i = 0; i < af->nhost_enable; i++) {
		for (k = 0; k < w->ndetected; k++)
			if (w->detected[k].bdf &&
			    strcmp(w->detected[k].bdf, af->host_enable[i]) == 0)
				break;
		le.msg[0] = '\0';
		if (k == w->ndetected) {
			/* TRANSLATORS: %s: the answers file, a PCI address. */
			gw_err_set(&le, _("%s: [host] enable: this host has no GPU at %s"),
			           af->path, af->host_enable[i]);
		} else if (gw_wizard_enable_queued(w, k) != 0 ||
		           gw_wizard_detected_passthru(w, k) == 1) {
			continue;   /* queued, or enabled already */
		} else if (gw_wizard_esxi_enable(w, k, NULL, &le) >= 0) {
			continue;
		}
		free(w->vmx_error);
		w->vmx_error = gw_xstrdup(le.msg);
		return;
	}
	if (af->upgrade_hw && gw_wizard_upgrade_queued(w) == 0 &&
	    gw_session_vm(&w->sess) != NULL &&
	    gw_wizard_esxi_upgrade_target(w) > 0) {
		le.msg[0] = '\0';
		if (gw_wizard_esxi_upgrade(w, &le) < 0) {
			free(w->vmx_error);
			/* TRANSLATORS: %s: the answers file, then why. */
			w->vmx_error = gw_xasprintf(_("%s: [vm] upgrade_hw: %s"),
			                            af->path, le.msg);
		}
	}
}

static const char *pick_language(const char *lang, const char *locale,
                                 const char *file);

/* ---- the GPU table, read at its first use ------------------------------- */

/* The table of a wizard started without one (gw_wizard_new): read once,
 * at the first gw_wizard_table; a failure is kept and told again. */
struct wz_table {
	char *path;     /* NULL: gw_table_default_path's */
	gw_table t;
	int state;      /* 0: not read yet; 1: read; -1: failed (err) */
	gw_err err;
};

static const gw_table *
lazy_get(struct wz_table *lz, gw_err *e)
{
	char *p;

	if (lz->state == 0) {
		p = lz->path ? gw_xstrdup(lz->path) : gw_table_default_path(&lz->err);
		lz->state = p != NULL && gw_table_load(&lz->t, p, &lz->err) == 0
		            ? 1 : -1;
		free(p);
	}
	if (lz->state < 0) {
		if (e)
			*e = lz->err;
		return NULL;
	}
	return &lz->t;
}

/* A path that is not a regular file: the loader's error now. */
static int
lazy_missing(const struct wz_table *lz)
{
	struct stat sb;

	return lz->path != NULL &&
	       (stat(lz->path, &sb) != 0 || !S_ISREG(sb.st_mode));
}

void
wz_table_free(struct wz_table *lz)
{
	if (lz == NULL)
		return;
	if (lz->state == 1)
		gw_table_free(&lz->t);
	free(lz->path);
	free(lz);
}

const gw_table *
gw_wizard_table(const gw_wizard *w)
{
	if (w->table != NULL || w->lazy == NULL)
		return w->table;
	return lazy_get(w->lazy, NULL);
}

int
gw_wizard_load_table(gw_wizard *w, gw_err *e)
{
	if (w->table != NULL || w->lazy == NULL)
		return 0;
	return (w->table = lazy_get(w->lazy, e)) != NULL ? 0 : -1;
}

/* ---- start ------------------------------------------------------------- */

gw_wizard *
gw_wizard_new(const gw_table *t, gw_wizard_start *st, gw_err *e)
{
	gw_wizard *w = gw_xcalloc(1, sizeof *w);
	gw_host *h = st->host;
	struct wz_table *lz = NULL;
	char *file_lang;
	int rc = 0;

	st->host = NULL;   /* the wizard's from here on */
	if (t == NULL) {
		lz = gw_xcalloc(1, sizeof *lz);
		lz->path = st->table_path ? gw_xstrdup(st->table_path) : NULL;
		/* read now when a start needs it (an answers file's GPUs,
		 * the GPUs of a host read before the first screen) or when
		 * the file is not there (its error before the screen);
		 * else at the first step that needs it */
		if ((st->answers || st->sample || h || lazy_missing(lz)) &&
		    (t = lazy_get(lz, e)) == NULL) {
			wz_table_free(lz);
			gw_host_close(h);
			free(w);
			return NULL;
		}
	}
	if (gw_wizard_init(w, t, st->answers, e) != 0) {
		wz_table_free(lz);
		gw_host_close(h);
		gw_wizard_delete(w);
		return NULL;
	}
	w->lazy = lz;
	/* the language first: the host's rows are read in it */
	file_lang = w->af.language;   /* the file's; NULL: none */
	w->af.language = NULL;
	gw_wizard_set_language(w, pick_language(st->lang, st->locale,
	                                       file_lang));
	free(file_lang);
	if (st->use_language && gw_wizard_language(w) &&
	    st->use_language(gw_wizard_language(w)) != 0 && st->lang == NULL) {
		free(w->af.language);   /* not shown: the front end's default */
		w->af.language = NULL;
	}
	/* the answers file's values are for the host it is replayed on */
	w->starting = 1;
	wz_begin(w);
	/* a host connected by the command line, whatever reaches it; else
	 * the sample of the command line, else the answers file's host */
	if (h)
		wz_attach(w, h);
	else if (st->sample)
		rc = gw_wizard_use_sample(w, st->sample, e);
	else
		rc = file_host(w, e);
	if (rc == 0)
		wz_file_vm(w);   /* and the file's host changes */
	wz_end(w);
	w->starting = 0;
	if (rc != 0) {
		gw_wizard_delete(w);
		return NULL;
	}
	w->dirty = 0;
	return w;
}

void
gw_wizard_delete(gw_wizard *w)
{
	gw_wizard_free(w);
	free(w);
}

/* ---- what the screens draw ------------------------------------------ */

gw_step
gw_wizard_step(const gw_wizard *w)
{
	return w->step;
}

int
gw_wizard_visited(const gw_wizard *w, gw_step s)
{
	return s < GW_NSTEPS && w->visited[s];
}

gw_mode
gw_wizard_mode(const gw_wizard *w)
{
	return w->mode;
}

gw_activity
gw_wizard_activity(const gw_wizard *w)
{
	return w->activity;
}

void
gw_wizard_set_activity(gw_wizard *w, gw_activity a)
{
	int dirty = w->dirty;

	if ((int)a < 0 || a >= GW_NACTS || a == w->activity)
		return;
	w->activity = a;
	wz_changed(w);
	w->dirty = dirty;
}

/* The language of a locale's name, or NULL (gw_wizard_start.locale). */
static const char *
locale_language(const char *locale)
{
	size_t i, n;

	if (locale == NULL || strcmp(locale, "POSIX") == 0 ||
	    strcmp(locale, "C") == 0 || strncmp(locale, "C.", 2) == 0)
		return NULL;
	/* the language part: before '_', '.' and '@' */
	n = strcspn(locale, "_.@");
	for (i = 0; n > 0 && gw_answers_languages[i]; i++)
		if (strncmp(locale, gw_answers_languages[i], n) == 0 &&
		    (gw_answers_languages[i][n] == '\0' ||
		     gw_answers_languages[i][n] == '_'))
			return gw_answers_languages[i];
	return NULL;
}

/* --lang, else the locale's, else the file's (gw_wizard_start.lang). */
static const char *
pick_language(const char *lang, const char *locale, const char *file)
{
	if (lang != NULL)
		return lang;
	if (locale_language(locale) != NULL)
		return locale_language(locale);
	return file;
}

void
gw_wizard_set_language(gw_wizard *w, const char *lang)
{
	size_t i;

	int dirty = w->dirty, same;

	for (i = 0; lang && gw_answers_languages[i]; i++)
		if (strcmp(lang, gw_answers_languages[i]) == 0)
			break;
	if (lang == NULL || gw_answers_languages[i] == NULL)
		return;
	/* from none (the start: the locale's, in use already) or to the
	 * same: the texts are in it already */
	same = w->af.language == NULL ||
	       strcmp(w->af.language, gw_answers_languages[i]) == 0;
	/* lang may be w->af.language itself: the table's word */
	free(w->af.language);
	w->af.language = gw_xstrdup(gw_answers_languages[i]);
	if (same)
		return;
	/* every text the model holds was made in the old language: the
	 * host's rows are read again, the plan made again */
	wz_begin(w);
	wz_reread_rows(w);
	if (w->nreplans > 0)
		wz_stale(w);
	wz_end(w);
	w->dirty = dirty;
}

const char *
gw_wizard_language(const gw_wizard *w)
{
	return w->af.language;
}

/* The answers file's words (answers.h), in the order of gw_activity. */
static const char *const *const activity_words = gw_answers_activities;

gw_activity
gw_activity_parse(const char *word)
{
	int i;

	for (i = 0; word && i < GW_NACTS; i++)
		if (strcmp(word, activity_words[i]) == 0)
			return (gw_activity)i;
	return GW_NACTS;
}

const gw_answers_file *
gw_wizard_answers(const gw_wizard *w)
{
	return &w->af;
}

const gw_plan *
gw_wizard_plan(const gw_wizard *w)
{
	return wz_plan(w);
}

const gw_vmx *
gw_wizard_vmx(const gw_wizard *w)
{
	return w->vmx;
}

const gw_apply_result *
gw_wizard_result(const gw_wizard *w)
{
	return w->written ? &w->result : NULL;
}

const char *
gw_wizard_scratch(const gw_wizard *w)
{
	return w->scratch;
}

const char *
gw_wizard_error(const gw_wizard *w, gw_wizard_err which)
{
	switch (which) {
	case GW_ERR_PLAN:
		wz_fresh(w);
		return w->plan_error[0] ? w->plan_error : NULL;
	case GW_ERR_WRITE:
		return w->write_error[0] ? w->write_error : NULL;
	case GW_ERR_VMX:
		return w->vmx_error;
	case GW_ERR_CHECKS:
		return w->checks_error;
	case GW_ERR_DETECT:
		return w->detect_error;
	case GW_ERR_VMS:
		return w->sess.vms_error;
	case GW_ERR_HOST:
		return w->host_error;
	case GW_ERR_REREAD:
		return w->reread_note[0] ? w->reread_note : NULL;
	}
	return NULL;
}

int
gw_wizard_is(const gw_wizard *w, gw_wizard_flag f)
{
	switch (f) {
	case GW_WIZ_DIRTY:
		return w->dirty;
	case GW_WIZ_SAVABLE:
		return wz_savable(w, NULL, NULL);
	case GW_WIZ_WRITTEN:
		return w->written;
	case GW_WIZ_HOST_OVERRIDE:
		return w->host_override;
	}
	return 0;
}

/* ---- the host ---------------------------------------------------------- */

int
gw_wizard_can(const gw_wizard *w, gw_wizard_cap c)
{
	switch (c) {
	case GW_CAN_PROBE:
		return wz_mode(w->mode)->probe != NULL;
	case GW_CAN_ENABLE:
	case GW_CAN_VMS:
		return gw_wizard_host_mode(w);
	}
	return 0;
}

int
gw_wizard_reprobe(gw_wizard *w)
{
	const wz_mode_desc *d = wz_mode(w->mode);

	return d->probe ? d->probe(w) : 0;
}

const char *
gw_wizard_host_label(const gw_wizard *w)
{
	return w->host ? gw_host_label(w->host) : "";
}

int
gw_wizard_host_ok(const gw_wizard *w, int item)
{
	return item >= 0 && item < GW_NHOST && w->host_ok[item];
}

size_t
gw_wizard_checks(const gw_wizard *w, const gw_finding **out)
{
	if (out)
		*out = w->checks;
	return w->nchecks;
}

size_t
gw_wizard_detected(const gw_wizard *w, const gw_gpu_dev **out)
{
	if (out)
		*out = w->detected;
	return w->ndetected;
}

int
gw_wizard_detected_added(const gw_wizard *w, size_t idx)
{
	return w->detected_added && idx < w->ndetected &&
	       w->detected_added[idx];
}

size_t
gw_wizard_vms(const gw_wizard *w, const gw_vm **out)
{
	if (out)
		*out = w->sess.vms.list.vms;
	return w->sess.vms.list.n;
}

long
gw_wizard_vm_open(const gw_wizard *w)
{
	return w->sess.vm;
}

gw_power
gw_wizard_vm_power(const gw_wizard *w)
{
	return w->sess.power;
}

const char *
gw_wizard_vm_picked(const gw_wizard *w)
{
	/* only a host that picks devices has picked them */
	return host_can(wz_host_for(w, w->mode), HOST_PICK) ? w->sess.picked
	                                                     : NULL;
}

size_t
gw_wizard_vm_devices(const gw_wizard *w, gw_vm_device *out, size_t max)
{
	const gw_vmx *v = w->vmx;
	size_t n = 0;
	int i;

	for (i = 0; v != NULL && i < 128; i++) {
		char key[64];
		gw_vm_device d;

		snprintf(key, sizeof key, "pciPassthru%d.present", i);
		if (!gw_vmx_get_bool(v, key, 0))
			continue;
		d.n = i;
		snprintf(key, sizeof key, "pciPassthru%d.vgpu", i);
		d.vgpu = gw_vmx_get(v, key);
		snprintf(key, sizeof key, "pciPassthru%d.vendorId", i);
		d.vendor_id = gw_vmx_get(v, key);
		snprintf(key, sizeof key, "pciPassthru%d.deviceId", i);
		d.device_id = gw_vmx_get(v, key);
		if (n < max)
			out[n] = d;
		n++;
	}
	return n;
}

int
gw_wizard_samples(gw_sample_info **out, size_t *n, gw_err *e)
{
	return gw_sample_list(out, n, e);
}

int
gw_wizard_sample_describe(gw_sample_info *s, gw_err *e)
{
	return gw_sample_describe(s, e);
}

void
gw_wizard_samples_free(gw_sample_info *l, size_t n)
{
	gw_sample_list_free(l, n);
}
