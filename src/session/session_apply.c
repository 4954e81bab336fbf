/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session_apply.c: the write (session.h): one description of what a write
 * does (gw_session_write_prepare), which a dry run prints and the write
 * runs (gw_session_write_run), and the one refusal rule.  The queue of host
 * changes it runs is session_queue.c.
 *
 * The order of a write, so that a failure anywhere leaves every file as
 * it was: the plan may be written (gw_session_may_write); the snippets
 * and a local .vmx are rendered and the snippets staged as temporaries
 * beside their names (gw_apply_stage_begin: nothing visible yet); the
 * host changes run (an upgrade reads the .vmx again and the caller's
 * on_changes hook makes the plan anew, after which the stage is made
 * again from it), the VM's .vmx copied to a backup first when one of
 * them touches the VM (its upgrade), so that the file as it was before
 * any change is kept; the VM's .vmx is written on the host; last the local
 * .vmx is saved and the temporaries renamed into place
 * (gw_apply_stage_commit, which undoes itself on failure).  A failure
 * before the last step removes the temporaries: no snippet file is left.
 * What a host did cannot be taken back (an enabled passthrough, a raised
 * hardware version): those come before any file, and a later failure
 * says what was done. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the refusal rule ---------------------------------------------------- */

int
gw_session_may_write(const gw_plan *p, int force, gw_err *e)
{
	if (force || p == NULL || !gw_plan_has_errors(p))
		return 1;
	if (e)
		gw_err_set(e, "%s", _("not written: the plan has failures (FAIL); fix them, or force the write (--force, force = yes in an answers file, or Force in the wizard's options)"));
	return 0;
}

int
gw_session_vm_may_change(const gw_session *s, gw_err *e)
{
	static const char *const words[] = {
		[GW_POWER_UNKNOWN] = "in an unknown state",
		[GW_POWER_ON] = "Powered on",
		[GW_POWER_OFF] = "Powered off",
		[GW_POWER_SUSPENDED] = "Suspended",
	};
	const gw_vm *vm = gw_session_vm(s);

	if (vm == NULL || s->power == GW_POWER_OFF)
		return 1;
	gw_err_set(e, _("%s is %s: gpuwiz does not change a VM that is not powered off; shut the guest down (or power the VM off), then run this again"),
	           vm->name, words[s->power <= GW_POWER_SUSPENDED ? s->power : 0]);
	return 0;
}

/* ---- the description -------------------------------------------------------- */

/* A change waiting that touches the open VM (its hardware upgrade
 * rewrites its .vmx), on a host that keeps a copy: the .vmx as it is now
 * is copied to a backup first, so that the file before any change is
 * kept (a DirectPath VM has no snapshot to go back to). */
static int
backup_first(const gw_session *s)
{
	return gw_session_find_upgrade(s) >= 0 && gw_session_vm(s) != NULL &&
	       s->vmx_where != NULL && host_can(s->host, HOST_BACKUP);
}

/* The host changes waiting in the queue, each with its command; an
 * enable by address is asked of the host first (read only): refused as
 * the host would refuse it, left out when the device needs nothing. */
static int
describe_changes(gw_session *s, gw_write_desc *d, gw_err *e)
{
	size_t k;
	int rc;

	for (k = 0; k < s->nqueue; k++) {
		const gw_session_change *c0 = &s->queue[k];
		char *t, *c;

		if (c0->done)
			continue;
		if (c0->kind == GW_CHANGE_ENABLE && c0->gpu == GW_CHANGE_BY_BDF) {
			rc = gw_host_enable_check(s->host, c0->bdf, c0->host_name, e);
			if (rc < 0)
				return -1;
			if (rc == 1)
				continue;
		}
		t = gw_session_change_title(s, &s->queue[k]);
		c = gw_session_change_command(s, &s->queue[k]);
		gw_write_desc_add(d, GW_WRITE_HOST, t, c);
		free(t);
		free(c);
	}
	return 0;
}

/* The .vmx: on the host (saved there and reloaded, or through the API),
 * or the local file. */
static void
describe_vmx(const gw_session *s, gw_session_write *w)
{
	const gw_vm *vm = gw_session_vm(s);
	char *what, *cmd;
	size_t k;

	if (w->vmx == NULL)
		return;
	if (!w->host_vmx) {
		k = gw_write_desc_add(&w->desc, GW_WRITE_VMX, w->af->vmx_path,
		                      NULL);
	} else {
		if (host_can(s->host, HOST_RELOAD)) {
			what = gw_xstrdup(s->vmx_where);
			cmd = gw_xasprintf("vim-cmd vmsvc/reload %lu", vm->vmid);
		} else {
			what = gw_xasprintf("%s:%s", gw_host_label(s->host),
			                    vm->name);
			cmd = gw_xasprintf("ReconfigVM_Task (%s)", vm->name);
		}
		k = gw_write_desc_add(&w->desc, GW_WRITE_VMX_HOST, what, cmd);
		free(what);
		free(cmd);
	}
	gw_write_desc_vmx_lines(&w->desc, k, w->vmx, w->after);
}

static void
describe_files(const gw_session_write *w, gw_write_desc *d)
{
	size_t i, n = 0;
	char **v = w->p ? gw_apply_outputs(w->af, w->p, &n) : NULL;

	for (i = 0; i < n; i++)
		gw_write_desc_add(d, GW_WRITE_FILE, v[i], NULL);
	gw_strs_free(v, n);
}

int
gw_session_write_prepare(gw_session *s, const gw_answers_file *af,
                         const gw_plan *p, const gw_vmx *vmx,
                         gw_session_write *w, gw_err *e)
{
	return gw_session_write_prepare_applied(s, af, p, vmx, NULL, w, e);
}

int
gw_session_write_prepare_applied(gw_session *s, const gw_answers_file *af,
                                 const gw_plan *p, const gw_vmx *vmx,
                                 gw_vmx *after, gw_session_write *w,
                                 gw_err *e)
{
	memset(w, 0, sizeof *w);
	w->af = af;
	w->p = p;
	w->vmx = vmx;
	/* taken, whatever happens */
	w->after = vmx != NULL ? after : NULL;
	if (vmx == NULL)
		gw_vmx_free(after);
	if (!gw_session_may_write(p, af->force, e)) {
		gw_session_write_free(w);
		return -1;
	}
	w->host_vmx = vmx != NULL && gw_session_vm(s) != NULL;
	if (vmx != NULL) {
		if (p == NULL) {
			gw_err_set(e, "%s", _(".vmx: no plan to apply; nothing written"));
			gw_session_write_free(w);
			return -1;
		}
		/* a private copy with the plan applied: what the write saves */
		if (w->after == NULL) {
			w->after = gw_vmx_dup(vmx);
			if (gw_plan_apply_vmx(p, w->after, e) != 0) {
				gw_session_write_free(w);
				return -1;
			}
		}
		w->changed = !gw_vmx_same(vmx, w->after);
		if (w->host_vmx && w->changed && !gw_session_vm_may_change(s, e)) {
			gw_session_write_free(w);
			return -1;
		}
	}
	if (gw_session_find_upgrade(s) >= 0 && !gw_session_vm_may_change(s, e)) {
		gw_session_write_free(w);
		return -1;
	}
	if (backup_first(s))
		gw_write_desc_add(&w->desc, GW_WRITE_BACKUP, s->vmx_where, NULL);
	if (describe_changes(s, &w->desc, e) != 0) {
		gw_session_write_free(w);
		return -1;
	}
	describe_vmx(s, w);
	describe_files(w, &w->desc);
	return 0;
}

void
gw_session_write_free(gw_session_write *w)
{
	gw_write_desc_free(&w->desc);
	gw_vmx_free(w->after);
	w->after = NULL;
}

/* ---- the run ------------------------------------------------------------------ */

/* The snippets and a local .vmx rendered, the snippets staged. */
static int
stage(gw_session_write *w, gw_apply_stage **st, gw_err *e)
{
	int local = w->vmx != NULL && !w->host_vmx;

	*st = NULL;
	if (!gw_apply_writes_files(w->af, w->p) && !local)
		return 0;
	/* a local .vmx: the stage saves the copy the plan was applied to
	 * (w->after), the file expected to hold w->vmx */
	if (gw_apply_stage_begin(w->af, w->p, w->texts,
	                         local ? (gw_vmx *)w->vmx : NULL,
	                         local ? w->after : NULL,
	                         w->af->force, st, e) != 0)
		return -1;
	if (w->disk != NULL)
		gw_apply_stage_expect(*st, w->disk, w->disk_len);
	return 0;
}

/* The host changes waiting; after an upgrade (or whenever the caller's
 * hook gives another plan) the description and the stage are made anew
 * from the .vmx the host has now. */
static int
run_changes(gw_session *s, gw_session_write *w, gw_vmx **doc,
            gw_apply_stage **st, gw_err *e)
{
	const gw_answers_file *af = w->af;
	const gw_plan *p = w->p;
	gw_vmx *v = doc ? *doc : NULL;
	const char *disk;
	size_t disk_len;
	int rc;

	if (gw_session_pending(s) == 0)
		return 0;
	if (backup_first(s) &&
	    gw_host_backup_vmx(s->host, s->vmx_where, &s->backup_first, e) != 0)
		return -1;   /* nothing changed yet */
	rc = gw_session_run_queue(s, &v, e);
	if (doc)
		*doc = v;
	else if (v != w->vmx)
		gw_vmx_free(v);   /* read again, but nobody keeps it */
	if (s->on_changes)
		rc = s->on_changes(s->changes_ctx, rc, &p, e);
	if (rc != 0)
		return -1;
	/* the same plan on the same document: the stage stands; a write
	 * without a .vmx stays one */
	if (p == w->p && (w->vmx == NULL || doc == NULL || *doc == w->vmx))
		return 0;
	v = w->vmx == NULL ? NULL : doc ? *doc : (gw_vmx *)w->vmx;
	gw_apply_stage_end(*st);
	*st = NULL;
	disk = w->disk;
	disk_len = w->disk_len;
	gw_session_write_free(w);
	if (gw_session_write_prepare(s, af, p, v, w, e) != 0)
		return -1;
	w->disk = disk;
	w->disk_len = disk_len;
	return stage(w, st, e);
}

static void
host_result(const gw_session *s, gw_apply_result *res)
{
	free(res->vmx_path);
	res->vmx_path = gw_xstrdup(s->last.where ? s->last.where : "");
	free(res->backup);
	/* the file before any change: the one taken before the host's */
	res->backup = s->backup_first ? gw_xstrdup(s->backup_first) :
	              s->last.backup ? gw_xstrdup(s->last.backup) : NULL;
	res->vmx_unchanged = !s->last.changed;
}

int
gw_session_write_run(gw_session *s, gw_session_write *w, gw_vmx **doc,
                     gw_apply_result *res, gw_err *e)
{
	gw_apply_stage *st = NULL;
	int rc = 0;

	memset(res, 0, sizeof *res);
	free(s->backup_first);
	s->backup_first = NULL;
	if (stage(w, &st, e) != 0 || run_changes(s, w, doc, &st, e) != 0) {
		gw_apply_stage_end(st);
		return -1;
	}
	if (w->host_vmx) {
		gw_host_write_free(&s->last);
		/* the backup taken before the host changes is the one this
		 * write keeps: the save makes no second one */
		if (gw_host_write_vmx(s->host, gw_session_vm(s), s->vmx_where,
		                      w->p, w->vmx, w->after, s->backup_first,
		                      w->af->force, &s->last, e) != 0) {
			gw_apply_stage_end(st);
			return -1;
		}
	}
	if (st != NULL) {
		rc = gw_apply_stage_commit(st, res, e);
		gw_apply_stage_end(st);
	}
	if (rc == 0 && w->host_vmx)
		host_result(s, res);
	return rc;
}

void
gw_session_set_on_changes(gw_session *s, gw_session_changes_fn fn, void *ctx)
{
	s->on_changes = fn;
	s->changes_ctx = ctx;
}

int
gw_session_reload_warning(const gw_session *s, char *buf, size_t n)
{
	const gw_vm *vm = gw_session_vm(s);

	if (vm == NULL || !host_can(s->host, HOST_RELOAD) || !s->last.changed ||
	    s->last.reloaded)
		return 0;
	/* TRANSLATORS: %s says why vim-cmd vmsvc/reload failed. */
	snprintf(buf, n,
	         _("Saved, but the VM could not be reloaded: %s; run vim-cmd vmsvc/reload %lu on the host."),
	         s->last.reload_error, vm->vmid);
	return 1;
}
