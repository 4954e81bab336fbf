/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_write.c: step 8, write and the result.  Enter writes (the .vmx
 * patch with its backup and the snippet files, all or nothing, through
 * gw_wizard_write); with host changes queued it first asks once, listing
 * them (default No), then runs them in order with a progress box each,
 * and the files only when they all succeeded.  Then the screen lists
 * what was done and written, the backup's name and the commands to run
 * next, and Enter or q leaves. */
#include "draw.h"
#include "screen.h"
#include "dialog.h"
#include "textlist.h"
#include "wizard_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Next step i: its mark and words wrapped under them, then each command
 * alone on its line(s), in the command colour, under the words. */
static void
add_next(ui_textlist *tl, char *const *cmds, size_t i, int width)
{
	int level;
	const char *text, *mark = gw_wizard_next_mark(cmds, i, &level, &text);
	const char *nl = strchr(text, '\n');
	int ind = 1 + 4 * level;
	char *c = gw_xasprintf("%3s %.*s", mark,
	                       nl ? (int)(nl - text) : (int)strlen(text), text);

	ui_tl_add(tl, c, level == 1 ? UI_C_HEAD : UI_C_NORMAL, ind, 4, width);
	free(c);
	while (nl) {
		const char *line = nl + 1;

		nl = strchr(line, '\n');
		c = gw_xasprintf("%.*s", nl ? (int)(nl - line) : (int)strlen(line),
		                 line);
		ui_tl_add(tl, c, UI_C_KEY, ind + 4, 2, width);
		free(c);
	}
}

/* The screen's state: its lines. */
static ui_textlist *
tls(ui_ctx *u)
{
	return u->state[GW_STEP_WRITE];
}

static void *
write_open(void)
{
	return gw_xcalloc(1, sizeof(ui_textlist));
}

static void
write_close(void *state)
{
	ui_tl_clear(state);
	free(state);
}

/* "Written: path" and the like, with the label padded in cells. */
static void
add_labelled(ui_textlist *tl, const char *label, const char *value,
             int color, int lw, int width)
{
	int pad = lw - gw_text_cells(label);
	char *s = gw_xasprintf("%s%*s %s", label, pad > 0 ? pad : 0, "", value);

	ui_tl_add(tl, s, color, 0, lw + 1, width);
	free(s);
}

/* The host changes (gw_wizard_host_changes: what, then the command):
 * all of them before writing, under a heading; after, the lines only. */
static void
add_changes(ui_textlist *tl, const gw_wizard *w, int with_cmds, int width)
{
	char **v = gw_wizard_host_changes(w);
	size_t i;

	if (v[0])
		/* TRANSLATORS: heading of the host changes on the write
		 * step, as on the review. */
		ui_tl_add(tl, _("Changes on the host:"), UI_C_HEAD, 0, 0, width);
	for (i = 0; v[i] && v[i + 1]; i += 2) {
		ui_tl_add(tl, v[i], with_cmds ? UI_C_NORMAL : UI_C_PASS, 2, 2,
		          width);
		if (with_cmds)
			ui_tl_add(tl, v[i + 1], UI_C_DIM, 4, 2, width);
	}
	gw_strv_free(v);
}

/* Before writing: the host changes (they run first), the files, the
 * .vmx to patch, and the invitation. */
static void
build_ready(ui_textlist *tl, const gw_wizard *w, const gw_plan *p, int width)
{
	char why[1024];
	size_t k, n;
	char **files;

	add_changes(tl, w, 1, width);   /* they run first */
	/* TRANSLATORS: heading before writing. */
	ui_tl_add(tl, _("Ready to write:"), UI_C_HEAD, 0, 0, width);
	files = gw_apply_outputs(gw_wizard_answers(w), p, &n);
	for (k = 0; k < n; k++)
		ui_tl_add(tl, files[k], UI_C_NORMAL, 2, 2, width);
	gw_strs_free(files, n);
	if (gw_wizard_vmx_where(w)) {
		ui_tl_add(tl, gw_wizard_changes_nothing(w) ?
		          /* TRANSLATORS: the .vmx that already has every
		           * setting of the plan; the next rows name it
		           * (HOST:PATH or its path). */
		          _("the VM's .vmx, left as it is (nothing to change, no backup):") :
		          /* TRANSLATORS: the .vmx to be patched; the next rows
		           * name it (HOST:PATH or its path). */
		          _("patch of the VM's .vmx (a backup is written first):"),
		          UI_C_NORMAL, 2, 2, width);
		ui_tl_add_where(tl, gw_wizard_vmx_where(w), UI_C_NORMAL, 4,
		                width);
	}
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
	if (gw_wizard_changes_nothing(w))
		ui_tl_add(tl, _("Nothing to change: the VM already has these settings."),
		          UI_C_PASS, 0, 0, width);
	/* the review's check is the write's: its refusal, said as the write
	 * would say it */
	if (gw_wizard_check_step(w, GW_STEP_REVIEW, why, sizeof why) != 0)
		ui_tl_add(tl, why, UI_C_FAIL, 0, 0, width);
	ui_tl_add(tl, gw_wizard_changes_nothing(w) ?
	          /* TRANSLATORS: the invitation to write when the VM
	           * already has every setting. */
	          _("Press Enter to write these files; the VM is left as it is.") :
	          gw_wizard_vmx_where(w) ?
	          /* TRANSLATORS: the invitation to write, a .vmx among the
	           * files. */
	          _("Press Enter to write these files. The VM must be powered off.") :
	          /* TRANSLATORS: the invitation to write, no .vmx (snippets
	           * only: nothing is powered on or off). */
	          _("Press Enter to write these files."),
	          UI_C_TITLE, 0, 0, width);
}

/* The .vmx changed on disk and was read again: why, then the write made
 * on it now, line by line (gw_wizard_write_preview), before the files. */
static void
add_reread(ui_textlist *tl, gw_wizard *w, const char *why, int width)
{
	char *text, *line, *nl;
	gw_err e;

	ui_tl_add(tl, why, UI_C_WARN, 0, 0, width);
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
	if ((text = gw_wizard_write_preview(w, &e)) == NULL)
		return;
	for (line = text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		ui_tl_add(tl, line, UI_C_NORMAL, 0, 4, width);
		if (!nl)
			break;
	}
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
	free(text);
}

static void
build(ui_ctx *u, int width)
{
	const gw_wizard *w = u->w;
	const gw_apply_result *r = gw_wizard_result(w);
	const gw_plan *p = gw_wizard_plan(w);
	const char *err;
	ui_textlist *tl = tls(u);
	/* TRANSLATORS: label of the result lines, at most 10 cells.  Screen
	 * tests look for it. */
	const char *l_written = _("Written:");
	/* TRANSLATORS: label of the .vmx backup, at most 10 cells. */
	const char *l_backup = _("Backup:");
	/* TRANSLATORS: label of a .vmx left as it was, at most 10 cells. */
	const char *l_same = _("Unchanged:");
	int lw = gw_text_cells(l_written);
	size_t i;

	if (gw_text_cells(l_backup) > lw)
		lw = gw_text_cells(l_backup);
	if (gw_text_cells(l_same) > lw)
		lw = gw_text_cells(l_same);
	ui_tl_clear(tl);
	if (r != NULL) {
		char **cmds;

		add_changes(tl, w, 0, width);
		if (r->vmx_path && r->vmx_unchanged && r->backup == NULL)
			ui_tl_add(tl, _("Nothing to change: the VM already has these settings."),
			          UI_C_PASS, 0, 0, width);
		for (i = 0; i < r->nwritten; i++)
			add_labelled(tl, l_written, r->written[i], UI_C_PASS, lw,
			             width);
		if (r->vmx_path) {
			if (r->vmx_unchanged) {
				/* TRANSLATORS: the .vmx had every setting. */
				char *s = gw_xasprintf(_("%s (it already has every setting)"),
				                       r->vmx_path);

				add_labelled(tl, l_same, s, UI_C_NORMAL, lw,
				             width);
				free(s);
			} else {
				add_labelled(tl, l_written, r->vmx_path,
				             UI_C_PASS, lw, width);
			}
		}
		if (r->backup)
			add_labelled(tl, l_backup, r->backup, UI_C_NORMAL, lw,
			             width);
		if (r->nwritten == 0 && r->vmx_path == NULL)
			/* TRANSLATORS: the write step had nothing to write. */
			ui_tl_add(tl, _("Nothing was written: no output was chosen."),
			    UI_C_WARN, 0, 0, width);
		ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
		/* TRANSLATORS: heading of the commands to run next; screen
		 * tests look for it.  At most 40 cells. */
		ui_tl_add(tl, _("Next steps:"), UI_C_HEAD, 0, 0, width);
		cmds = gw_wizard_next_commands(w);
		for (i = 0; cmds && cmds[i]; i++)
			add_next(tl, cmds, i, width);
		gw_strv_free(cmds);
		ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
		/* TRANSLATORS: the last line of the wizard. */
		ui_tl_add(tl, _("Done. Enter or q leaves gpuwiz."), UI_C_DIM, 0, 0, width);
		return;
	}
	if ((err = gw_wizard_error(w, GW_ERR_WRITE)) != NULL) {
		/* TRANSLATORS: before the reason the write failed. */
		add_labelled(tl, _("Not written:"), err, UI_C_FAIL,
		             gw_text_cells(_("Not written:")), width);
		if (gw_wizard_host_changed(w) > 0) {
			add_changes(tl, w, 0, width);
			/* TRANSLATORS: after a write that stopped at a host
			 * change, some done before it. */
			ui_tl_add(tl, _("No file was written. Fix the cause (Esc goes back to the steps) and press Enter to try again: the changes done are not run again."),
			    UI_C_NORMAL, 0, 0, width);
			return;
		}
		/* TRANSLATORS: after a failed write. */
		ui_tl_add(tl, _("Nothing was changed. Fix the cause (Esc goes back to the steps) and press Enter to try again."),
		    UI_C_NORMAL, 0, 0, width);
		return;
	}
	if (p == NULL) {
		err = gw_wizard_error(w, GW_ERR_PLAN);
		ui_tl_add(tl, err ? err : _("No plan yet: choose the GPUs first."),
		    UI_C_MSG_ERR, 0, 0, width);
		return;
	}
	if ((err = gw_wizard_error(w, GW_ERR_REREAD)) != NULL)
		add_reread(tl, u->w, err, width);
	build_ready(tl, w, p, width);
}

static void
write_enter(ui_ctx *u)
{
	tls(u)->top = 0;
}

static void
write_draw(ui_ctx *u, ui_rect r)
{
	build(u, r.w - 1);
	ui_tl_draw(tls(u), r);
}

/* Each action of the write: "2/3 Upgrading the VM's hardware
 * version..." (alone, no count). */
static void
write_step(void *ctx, size_t k, size_t n, const char *what)
{
	char *s;

	if (n <= 1) {
		ui_progress(ctx, what, -1);
		return;
	}
	s = gw_xasprintf("%zu/%zu %s", k, n, what);
	ui_progress(ctx, s, (int)(100 * (k - 1) / n));
	free(s);
}

/* Enter: with host changes queued, the one question (default No), else
 * the progress box that Esc can still cancel; then the write. */
static int
do_write(ui_ctx *u)
{
	gw_wizard *w = u->w;
	char *q = gw_wizard_confirm_text(w);
	int r;

	if (q != NULL) {
		r = ui_confirm_no(u, q);
		free(q);
		if (r != 1) {
			/* TRANSLATORS: No at the write step's question. */
			ui_msg(u, UI_MSG_INFO, "%s", _("Not written: nothing was changed on the host or in the files."));
			return UI_HANDLED;
		}
	/* TRANSLATORS: progress box while writing. */
	} else if (ui_progress_cancel(u, _("Writing the files..."), -1)) {
		/* TRANSLATORS: Esc pressed before the write began. */
		ui_msg(u, UI_MSG_INFO, "%s", _("Cancelled: nothing was written."));
		return UI_HANDLED;
	}
	if (ui_ending())
		return UI_HANDLED;
	gw_wizard_set_write_steps(w, write_step, u);
	r = gw_wizard_write(w);
	gw_wizard_set_write_steps(w, NULL, NULL);
	u->repaint = UI_REPAINT_FULL;
	if (r == 0)
		/* TRANSLATORS: after a successful write. */
		ui_msg(u, UI_MSG_OK, "%s", _("Written. The commands to run next are listed above."));
	tls(u)->top = 0;
	return UI_HANDLED;
}

static int
write_key(ui_ctx *u, ui_key k)
{
	gw_wizard *w = u->w;

	if (ui_key_enter(k)) {
		if (gw_wizard_is(w, GW_WIZ_WRITTEN))
			return UI_FINISH;
		return do_write(u);
	}
	/* q and F10 are the global quit (tui.c: one path, which asks only
	 * when something is neither written nor saved) */
	if (!ui_tl_key(tls(u), k))
		return UI_IGNORED;
	return UI_HANDLED;
}

static size_t
write_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key enter = { 0, L'\n' }, esc = { 0, 27 }, f1 = { KEY_F(1), 0 };
	ui_key q = { 0, L'q' }, pg = { KEY_NPAGE, 0 };

	if (gw_wizard_is(u->w, GW_WIZ_WRITTEN)) {
		/* TRANSLATORS: key help labels; at most 8 cells each. */
		ui_keys_add(out, &n, max, "Enter", _("Finish"), enter);
		ui_keys_add(out, &n, max, "PgDn", _("Scroll"), pg);
		ui_keys_add(out, &n, max, "Esc", _("Back"), esc);
		ui_keys_add(out, &n, max, "F1", _("Help"), f1);
		ui_keys_add(out, &n, max, "q", _("Quit"), q);
		return n;
	}
	/* TRANSLATORS: key help label (also the step title); at most 8
	 * cells. */
	ui_keys_add(out, &n, max, "Enter", _("Write"), enter);
	ui_keys_add(out, &n, max, "Esc", _("Back"), esc);
	ui_keys_add(out, &n, max, "F1", _("Help"), f1);
	ui_keys_add(out, &n, max, "q", _("Quit"), q);
	return n;
}

const ui_screen ui_step_write = {
	GW_STEP_WRITE, write_open, write_close, write_enter, write_draw,
	write_key, NULL, NULL, NULL, write_keys
};
