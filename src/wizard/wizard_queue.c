/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_queue.c: the host changes the screens queue (wizard.h): enabling
 * passthrough of a detected GPU (the host step's e) and raising the open
 * VM's hardware version (the VM step's u).  Nothing runs when queued: the
 * review lists each change with the command gpuwiz runs, and the write
 * step runs them after the operator's yes, before the .vmx and the files
 * (doc/design.md, the session: the host change queue).  Until then the
 * plan is made as if they had run: a queued enable makes the GPU free
 * for passthrough (the host counts, the device pick), a queued upgrade
 * gives the .vmx the target hardware version. */
#include "wizard_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the host step's rows ------------------------------------------------- */

/* The row of detected GPU idx: the rows "gpu-passthru" come one per
 * detected GPU, in order.  -1 when there is none. */
static long
gpu_row(const gw_wizard *w, size_t idx)
{
	size_t i, k = 0;

	for (i = 0; i < w->nchecks; i++)
		if (strcmp(w->checks[i].id, "gpu-passthru") == 0 && k++ == idx)
			return (long)i;
	return -1;
}

/* What the row of change c says in place of the host's. */
static void
change_row(gw_finding *f, const gw_session_change *c)
{
	const char *bdf = c->bdf ? c->bdf : "?";

	if (!c->done)
		gw_finding_set(f, GW_SEV_INFO, "gpu-passthru", GW_TOPIC_HOST, NULL,
		               /* TRANSLATORS: the host step's row of a GPU
		                * whose enable is queued; %s is its PCI
		                * address.  At most 70 cells. */
		               gw_xasprintf(_("Passthrough of %s: will be enabled when you write"), bdf),
		               gw_xstrdup(_("Queued: gpuwiz enables passthrough of this GPU after you confirm the write (the review lists the command); the GPU can be chosen for the VM now. e again takes it back.")),
		               NULL);
	else if (c->reboot)
		gw_finding_set(f, GW_SEV_WARN, "gpu-passthru", GW_TOPIC_HOST, NULL,
		               /* TRANSLATORS: at most 70 cells. */
		               gw_xasprintf(_("Passthrough of %s: enabled, reboot needed"), bdf),
		               gw_xstrdup(_("gpuwiz enabled passthrough of this GPU; the host needs a reboot before a VM can use it.")),
		               gw_xstrdup(_("Reboot the host (maintenance mode first) so that passthrough takes effect.")));
	else
		gw_finding_set(f, GW_SEV_PASS, "gpu-passthru", GW_TOPIC_HOST, NULL,
		               /* TRANSLATORS: at most 70 cells. */
		               gw_xasprintf(_("Passthrough of %s: enabled by gpuwiz"), bdf),
		               gw_xstrdup(_("passthrough enabled and active (owner: VM Passthru)")),
		               NULL);
}

/* Show change c in its GPU's row (fresh: the rows were just probed, so
 * the one there is the host's). */
static void
mark_row(gw_wizard *w, gw_session_change *c, int fresh)
{
	long r = gpu_row(w, c->gpu);

	if (c->kind != GW_CHANGE_ENABLE)
		return;
	if (r < 0) {
		if (fresh && c->row_saved) {
			gw_finding_free(&c->row);
			c->row_saved = 0;
		}
		return;
	}
	if (fresh || !c->row_saved) {
		if (c->row_saved)
			gw_finding_free(&c->row);
		c->row = w->checks[r];
		c->row_saved = 1;
	} else {
		gw_finding_free(&w->checks[r]);
	}
	change_row(&w->checks[r], c);
}

/* The host's own row back in place of change c's. */
static void
unmark_row(gw_wizard *w, gw_session_change *c)
{
	long r = gpu_row(w, c->gpu);

	if (!c->row_saved)
		return;
	if (r >= 0) {
		gw_finding_free(&w->checks[r]);
		w->checks[r] = c->row;
	} else {
		gw_finding_free(&c->row);
	}
	memset(&c->row, 0, sizeof c->row);
	c->row_saved = 0;
}

/* The queue's changes are the attached host's. */
static int
on_host(const gw_wizard *w)
{
	return w->host != NULL && wz_host_for(w, w->mode) == w->host;
}

void
wz_queue_rows(gw_wizard *w)
{
	size_t k;

	if (!on_host(w))
		return;
	for (k = 0; k < w->sess.nqueue; k++)
		mark_row(w, &w->sess.queue[k], 1);
}

/* ---- enable ---------------------------------------------------------------- */

int
gw_wizard_esxi_enable(gw_wizard *w, size_t idx, int *reboot, gw_err *e)
{
	long k;

	if (reboot)
		*reboot = 0;
	if (!host_can(w->host, HOST_PASSTHRU) || !on_host(w) ||
	    idx >= w->ndetected) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	k = gw_session_find_enable(&w->sess, idx);
	if (k >= 0 && w->sess.queue[k].done) {
		if (reboot)
			*reboot = w->sess.queue[k].reboot;
		gw_err_set(e, "%s", _("Passthrough of this GPU was enabled when you wrote."));
		return -1;
	}
	if (k >= 0) {
		unmark_row(w, &w->sess.queue[k]);
		gw_session_unqueue(&w->sess, (size_t)k);
		wz_fill_avail(w);
		return 0;
	}
	if (gw_host_gpu_passthru(w->host, idx) == 1) {
		gw_err_set(e, "%s", _("Passthrough is already enabled for this GPU."));
		return -1;
	}
	k = (long)gw_session_queue_enable(&w->sess, idx, w->detected[idx].bdf);
	mark_row(w, &w->sess.queue[k], 0);
	wz_fill_avail(w);
	return 1;
}

int
gw_wizard_enable_queued(const gw_wizard *w, size_t idx)
{
	long k = on_host(w) ? gw_session_find_enable(&w->sess, idx) : -1;

	if (k < 0)
		return 0;
	return w->sess.queue[k].done ? 2 : 1;
}

/* ---- upgrade --------------------------------------------------------------- */

/* The open .vmx as the upgrade leaves it: its hardware version hw. */
static int
set_hw(gw_wizard *w, int hw, gw_err *e)
{
	char v[16];

	snprintf(v, sizeof v, "%d", hw);
	return gw_vmx_set(w->vmx, "virtualHW.version", v, e);
}

int
gw_wizard_esxi_upgrade(gw_wizard *w, gw_err *e)
{
	long k = gw_session_find_upgrade(&w->sess);
	int target, from;

	if (k >= 0) {
		from = w->sess.queue[k].from;
		gw_session_unqueue(&w->sess, (size_t)k);
		if (w->vmx && set_hw(w, from, e) != 0)
			return -1;
		wz_changed(w);
		return 0;
	}
	target = gw_wizard_esxi_upgrade_target(w);
	if (target == 0 || w->vmx == NULL || !host_can(w->host, HOST_UPGRADE)) {
		gw_err_set(e, "%s", _("Nothing to upgrade: the VM already has the newest hardware version this host runs."));
		return -1;
	}
	if (!gw_session_vm_off(&w->sess)) {
		gw_err_set(e, "%s", _("The VM is not powered off: its hardware version can be upgraded only when it is off. Shut it down first."));
		return -1;
	}
	from = wz_plan(w) ? w->plan.hw_current : 0;
	if (set_hw(w, target, e) != 0)
		return -1;
	gw_session_queue_upgrade(&w->sess, from, target);
	wz_changed(w);
	return 1;
}

int
gw_wizard_upgrade_queued(const gw_wizard *w)
{
	long k = gw_session_find_upgrade(&w->sess);

	return k >= 0 ? w->sess.queue[k].to : 0;
}

int
gw_wizard_upgrade_from(const gw_wizard *w)
{
	long k = gw_session_find_upgrade(&w->sess);

	return k >= 0 ? w->sess.queue[k].from : 0;
}

void
wz_drop_upgrade(gw_wizard *w)
{
	long k = gw_session_find_upgrade(&w->sess);

	if (k >= 0)
		gw_session_unqueue(&w->sess, (size_t)k);
}

/* ---- the review ------------------------------------------------------------ */

/* A host change that ran, titled t: an enable with the host's verdict on
 * a reboot (the device list read after it, gw_host_enable_*'s reboot),
 * as the queued line promised (malloc'ed). */
static char *
done_text(const gw_session_change *c, const char *t)
{
	if (c->kind == GW_CHANGE_ENABLE && c->reboot)
		/* TRANSLATORS: an enable that ran, and the device list
		 * read after it does not show the device owned by
		 * passthrough yet. */
		return gw_xasprintf(_("%s (done; the host needs a reboot: it does not list the device as given to passthrough yet)"), t);
	if (c->kind == GW_CHANGE_ENABLE)
		/* TRANSLATORS: an enable that ran, and the device list
		 * read after it shows the device owned by passthrough
		 * (ESXi 7 and later: no reboot). */
		return gw_xasprintf(_("%s (done; no reboot needed: the host lists the device as given to passthrough now)"), t);
	/* TRANSLATORS: a host change that ran: its line, then the note. */
	return gw_xasprintf(_("%s (done)"), t);
}

char **
gw_wizard_host_changes(const gw_wizard *w)
{
	wz_strv s = { NULL, 0 };
	const gw_session_change *c;
	char *t;
	size_t k;

	for (k = 0; on_host(w) && k < w->sess.nqueue; k++) {
		c = &w->sess.queue[k];
		t = gw_session_change_title(&w->sess, c);
		if (c->done)
			wz_strv_push(&s, done_text(c, t));
		else if (c->kind == GW_CHANGE_ENABLE)
			/* TRANSLATORS: a queued enable: its line, then the
			 * note. */
			wz_strv_push(&s, gw_xasprintf(_("%s (the host may need a reboot after it: gpuwiz checks and says so)"), t));
		else if (host_can(w->sess.host, HOST_BACKUP))
			/* TRANSLATORS: a queued upgrade on a host that keeps
			 * a copy of the .vmx (the write's order). */
			wz_strv_push(&s, gw_xasprintf(_("%s (one-way; the .vmx is copied to a backup beside it first, read again after it, then patched)"), t));
		else
			/* TRANSLATORS: a queued upgrade: its line. */
			wz_strv_push(&s, gw_xasprintf(_("%s (one-way; the .vmx is read again after it, then patched)"), t));
		free(t);
		wz_strv_push(&s, gw_session_change_command(&w->sess, c));
	}
	return wz_strv_finish(&s);
}

char *
gw_wizard_confirm_text(const gw_wizard *w)
{
	size_t k, i = 0;
	char *q, *t, *n;

	if (!on_host(w) || gw_session_pending(&w->sess) == 0)
		return NULL;
	/* TRANSLATORS: the question before the write runs the host
	 * changes; the numbered list follows. */
	q = gw_xstrdup(_("Write the changes to the host and the files? This cannot be undone on the host."));
	for (k = 0; k < w->sess.nqueue; k++) {
		if (w->sess.queue[k].done)
			continue;
		t = gw_session_change_title(&w->sess, &w->sess.queue[k]);
		n = gw_xasprintf("%s\n%zu. %s", q, ++i, t);
		free(t);
		free(q);
		q = n;
	}
	/* TRANSLATORS: the last of the list before the write. */
	n = gw_xasprintf("%s\n%zu. %s", q, ++i, _("Write the .vmx and the files"));
	free(q);
	return n;
}

void
gw_wizard_set_write_steps(gw_wizard *w, gw_wizard_step_fn fn, void *ctx)
{
	gw_session_set_steps(&w->sess, fn, ctx);
}

/* ---- the write step -------------------------------------------------------- */

/* "1. Enable ...; 2. Upgrade ..." of the changes done (malloc'ed). */
static char *
done_list(const gw_wizard *w)
{
	char *s = NULL, *t, *n;
	size_t k;

	for (k = 0; k < w->sess.nqueue; k++) {
		if (!w->sess.queue[k].done)
			continue;
		t = gw_session_change_title(&w->sess, &w->sess.queue[k]);
		n = s ? gw_xasprintf("%s; %s", s, t) : gw_xstrdup(t);
		free(s);
		free(t);
		s = n;
	}
	return s;
}

/* The change that failed and what ran before it, into write_error. */
static void
say_failed(gw_wizard *w, const char *why)
{
	long k;
	char *t, *done = done_list(w);

	for (k = 0; k < (long)w->sess.nqueue && w->sess.queue[k].done; k++)
		;
	t = k < (long)w->sess.nqueue
	    ? gw_session_change_title(&w->sess, &w->sess.queue[k])
	    : gw_xstrdup("?");
	if (done)
		/* TRANSLATORS: %1$s the host change that failed, %2$s why,
		 * %3$s the changes done before it. */
		snprintf(w->write_error, sizeof w->write_error,
		         _("%1$s failed: %2$s. Done before it: %3$s. No file was written."),
		         t, why, done);
	else
		/* TRANSLATORS: %1$s the host change that failed, %2$s why. */
		snprintf(w->write_error, sizeof w->write_error,
		         _("%1$s failed: %2$s. Nothing was changed on the host before it; no file was written."),
		         t, why);
	free(t);
	free(done);
}

int
wz_changes_done(gw_wizard *w, int rc, const char *why)
{
	size_t k;

	for (k = 0; k < w->sess.nqueue; k++)
		mark_row(w, &w->sess.queue[k], 0);
	if (rc != 0)
		say_failed(w, why);
	wz_fill_avail(w);
	return rc;
}

void
wz_done_changes(const gw_wizard *w, wz_strv *s)
{
	char *t;
	size_t k;

	for (k = 0; on_host(w) && k < w->sess.nqueue; k++) {
		if (!w->sess.queue[k].done)
			continue;
		t = gw_session_change_title(&w->sess, &w->sess.queue[k]);
		wz_strv_push(s, done_text(&w->sess.queue[k], t));
		free(t);
	}
}

/* ---- next steps ------------------------------------------------------------ */

void
wz_next_host_changes(const gw_wizard *w, wz_strv *s)
{
	const gw_session_change *c;
	size_t k;

	for (k = 0; on_host(w) && k < w->sess.nqueue; k++) {
		c = &w->sess.queue[k];
		if (c->kind == GW_CHANGE_ENABLE && c->done && c->reboot)
			/* TRANSLATORS: a next step; %s is a PCI address. */
			wz_strv_push(s, gw_xasprintf(_("Reboot the host (maintenance mode first) before powering on the VM: passthrough of %s takes effect only after it"),
			                             c->bdf ? c->bdf : "?"));
	}
}

size_t
gw_wizard_host_changed(const gw_wizard *w)
{
	size_t k, n = 0;

	for (k = 0; on_host(w) && k < w->sess.nqueue; k++)
		n += w->sess.queue[k].done != 0;
	return n;
}
