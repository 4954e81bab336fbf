/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_review.c: step 7, a summary of the choices (gw_wizard_summary),
 * then every change as a diff with its reason and source (as `gpuwiz vmx`
 * prints it), the findings, and the outputs to write and where.  s saves
 * the answers to a file (for a class to replay the same run with
 * --answers); the digits go back to that step; v shows the snippets
 * the write would produce, in place of the review, until Esc. */
#include "draw.h"
#include "screen.h"
#include "textlist.h"
#include "wizard_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The screen's state: the review's lines, and the snippet view's. */
typedef struct review_state {
	ui_textlist list;
	ui_textlist view;
	int viewing;      /* v: the snippets are shown until Esc */
} review_state;

static review_state *
rst(ui_ctx *u)
{
	return u->state[GW_STEP_REVIEW];
}

static ui_textlist *
tls(ui_ctx *u)
{
	return &rst(u)->list;
}

static void *
review_open(void)
{
	return gw_xcalloc(1, sizeof(review_state));
}

static void
review_close(void *state)
{
	review_state *st = state;

	ui_tl_clear(&st->list);
	ui_tl_clear(&st->view);
	free(st);
}

/* Cells of a summary line's label with its padding ("GPUs:    "): the
 * hanging indent of its wrapped rows. */
static int
summary_hang(const char *line)
{
	const char *p = strchr(line, ' ');
	char *label;
	int n;

	if (p == NULL)
		return 0;
	while (*p == ' ')
		p++;
	label = gw_xstrndup(line, (size_t)(p - line));
	n = gw_text_cells(label);
	free(label);
	return n < 30 ? n : 0;
}

/* The summary of the choices, a line each, wrapped under its text (a
 * long output directory is read whole). */
static void
add_summary(ui_textlist *tl, const gw_wizard *w, int width)
{
	char **v = gw_wizard_summary(w);
	size_t i;

	/* TRANSLATORS: heading of the review's summary; 1-%d are the
	 * digit keys up to the review's own number.  At most 76 cells. */
	char *head = gw_xasprintf(_("Your choices (1-%d goes back to that step):"),
	                          (int)GW_STEP_REVIEW + 1);

	ui_tl_add(tl, head, UI_C_HEAD, 0, 0, width);
	free(head);
	for (i = 0; v[i]; i++)
		ui_tl_add(tl, v[i], UI_C_NORMAL, 2, summary_hang(v[i]), width);
	gw_strv_free(v);
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
}

/* The host changes queued (gw_wizard_host_changes), each with the exact
 * command gpuwiz runs; none (offline, nothing queued): no section. */
static void
add_host_changes(ui_textlist *tl, const gw_wizard *w, int width)
{
	char **v = gw_wizard_host_changes(w);
	size_t i;

	if (v[0] != NULL)
		/* TRANSLATORS: heading of the review's host changes; at most
		 * 78 cells. */
		ui_tl_add(tl, _("Changes on the host (they run first, after your yes at the write):"),
		          UI_C_HEAD, 0, 0, width);
	for (i = 0; v[i] && v[i + 1]; i += 2) {
		ui_tl_add(tl, v[i], UI_C_WARN, 2, 2, width);
		ui_tl_add(tl, v[i + 1], UI_C_DIM, 6, 2, width);
	}
	if (v[0] != NULL)
		ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
	gw_strv_free(v);
}

/* Cells of a translated "label: %s" before its %s: the hanging indent
 * that lines up the wrapped rows under the text, not under the label
 * (5 for "fix: ", 10 for "解决方法："). */
static int
label_cells(const char *fmt)
{
	const char *p = strstr(fmt, "%s");
	char *label;
	int n;

	if (p == NULL)
		return 0;
	label = gw_xstrndup(fmt, (size_t)(p - fmt));
	n = gw_text_cells(label);
	free(label);
	return n;
}

/* One setting as a diff line, then its reason and source. */
static void
add_setting(ui_textlist *tl, const gw_setting *st, int width)
{
	char *s;

	if (st->keep) {
		s = gw_xasprintf("= %s = \"%s\"  %s", st->key,
		                 st->old_value ? st->old_value : "",
		                 /* TRANSLATORS: like the CLI's diff. */
		                 _("(kept)"));
		ui_tl_add(tl, s, UI_C_DIM, 2, 2, width);
	} else if (!gw_setting_is_change(st)) {
		s = gw_xasprintf("= %s = \"%s\"  %s", st->key, st->value,
		                 /* TRANSLATORS: like the CLI's diff. */
		                 _("(already set)"));
		ui_tl_add(tl, s, UI_C_DIM, 2, 2, width);
	} else {
		if (st->old_value) {
			s = gw_xasprintf("- %s = \"%s\"", st->key, st->old_value);
			ui_tl_add(tl, s, UI_C_DEL, 2, 2, width);
			free(s);
		}
		s = gw_xasprintf("+ %s = \"%s\"", st->key, st->value);
		ui_tl_add(tl, s, UI_C_ADD, 2, 2, width);
	}
	free(s);
	if (st->reason) {
		/* TRANSLATORS: the reason of a change, like the CLI's "why:
		 * %s". */
		s = gw_xasprintf(_("why: %s"), st->reason);
		ui_tl_add(tl, s, UI_C_NORMAL, 6, label_cells(_("why: %s")), width);
		free(s);
	}
	if (st->source) {
		/* TRANSLATORS: where a fact comes from, like the CLI's
		 * "source: %s". */
		s = gw_xasprintf(_("source: %s"), st->source);
		ui_tl_add(tl, s, UI_C_DIM, 6, label_cells(_("source: %s")), width);
		free(s);
	}
}

/* One finding: "FAIL  message", its fix and its source. */
static void
add_finding(ui_textlist *tl, const gw_finding *x, int width)
{
	const char *lab = gw_sev_label(x->sev);
	int pad = 5 - gw_text_cells(lab);
	char *s;

	s = gw_xasprintf("%s%*s %s", lab, pad > 0 ? pad : 0, "", x->message);
	ui_tl_add(tl, s, ui_sev_color(x->sev), 2,
	          gw_text_cells(lab) + (pad > 0 ? pad : 0) + 1, width);
	free(s);
	if (gw_wizard_finding_fix(x)) {
		s = gw_xasprintf(_("fix: %s"), gw_wizard_finding_fix(x));
		ui_tl_add(tl, s, UI_C_NORMAL, 8, label_cells(_("fix: %s")), width);
		free(s);
	}
	if (x->source) {
		s = gw_xasprintf(_("source: %s"), x->source);
		ui_tl_add(tl, s, UI_C_DIM, 8, label_cells(_("source: %s")), width);
		free(s);
	}
}

/* Output f (a registry row) chosen: what it holds, where it goes, and
 * why it cannot be made when the plan refuses it. */
static void
add_output(ui_textlist *tl, const gw_wizard *w, const gw_wizard_format *f,
           int width)
{
	const char *what = _(f->holds);
	char *where, *s, why[1024];
	int pad;

	if (!(gw_wizard_answers(w)->formats & f->bit))
		return;
	pad = 20 - gw_text_cells(what);
	where = gw_wizard_output_path(w, f->bit);
	s = gw_xasprintf("%s%*s %s", what, pad > 0 ? pad : 0, "",
	                 where ? where : "?");
	free(where);
	/* wrapped rows under the path, not under the padding */
	ui_tl_add(tl, s, UI_C_NORMAL, 2,
	          gw_text_cells(what) + (pad > 0 ? pad : 0) + 1, width);
	free(s);
	if (gw_wizard_format_check(w, f->bit, why, sizeof why) != 0) {
		s = gw_xasprintf(_("Cannot be made from this plan: %s"), why);
		ui_tl_add(tl, s, UI_C_FAIL, 23, 0, width);
		free(s);
	}
}

/* The NCCL all-reduce script that goes with the snippets of a VM of two
 * GPUs or more: the last of gw_apply_outputs when there is one more file
 * than formats. */
static void
add_nccl(ui_textlist *tl, const gw_wizard *w, int width)
{
	const gw_plan *p = gw_wizard_plan(w);
	size_t n, nfmt = 0;
	char **files, *s;
	/* TRANSLATORS: the NCCL test script among the outputs; at most 20
	 * cells. */
	const char *what = _("NCCL check script");
	int pad = 20 - gw_text_cells(what);
	size_t f;

	if (p == NULL)
		return;
	for (f = 0; f < gw_wizard_nformats(); f++)
		nfmt += (gw_wizard_answers(w)->formats & gw_wizard_format_at(f)->bit) != 0;
	files = gw_apply_outputs(gw_wizard_answers(w), p, &n);
	if (n > nfmt) {
		s = gw_xasprintf("%s%*s %s", what, pad > 0 ? pad : 0, "",
		                 files[n - 1]);
		ui_tl_add(tl, s, UI_C_NORMAL, 2,
		          gw_text_cells(what) + (pad > 0 ? pad : 0) + 1, width);
		free(s);
	}
	gw_strs_free(files, n);
}

static void
add_outputs(ui_textlist *tl, const gw_wizard *w, int width)
{
	size_t f;

	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
	/* TRANSLATORS: heading of the files the write step makes. */
	ui_tl_add(tl, _("Outputs to write:"), UI_C_HEAD, 0, 0, width);
	for (f = 0; f < gw_wizard_nformats(); f++)
		add_output(tl, w, gw_wizard_format_at(f), width);
	add_nccl(tl, w, width);
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
	if (gw_wizard_answers(w)->formats == 0 && gw_wizard_vmx(w) == NULL)
		/* TRANSLATORS: no format chosen and no .vmx. */
		ui_tl_add(tl, _("Nothing: no output format is chosen and no .vmx is open."),
		          UI_C_WARN, 2, 0, width);
}

static void
build(ui_ctx *u, int width)
{
	const gw_wizard *w = u->w;
	const gw_plan *p = gw_wizard_plan(w);
	const char *err = gw_wizard_error(w, GW_ERR_PLAN);
	ui_textlist *tl = tls(u);
	size_t i;
	int sev;

	ui_tl_clear(tl);
	add_summary(tl, w, width);
	add_host_changes(tl, w, width);
	if (p == NULL) {
		ui_tl_add(tl, err ? err : _("No plan yet: choose the GPUs first."),
		          UI_C_MSG_ERR, 0, 0, width);
		return;
	}
	if (gw_wizard_vmx_where(w)) {
		/* TRANSLATORS: heading of the diff; the next rows name the
		 * .vmx (HOST:PATH or its path). */
		ui_tl_add(tl, _("Changes to the VM's .vmx:"), UI_C_HEAD, 0, 0,
		          width);
		ui_tl_add_where(tl, gw_wizard_vmx_where(w), UI_C_NORMAL, 2,
		                width);
	} else {
		/* TRANSLATORS: heading of the settings without a .vmx. */
		ui_tl_add(tl, _("Settings (no .vmx: snippets only):"),
		          UI_C_HEAD, 0, 0, width);
	}
	if (gw_wizard_changes_nothing(w))
		/* TRANSLATORS: the review and the write step when the open
		 * VM already has every setting of the plan. */
		ui_tl_add(tl, _("Nothing to change: the VM already has these settings."),
		          UI_C_PASS, 2, 0, width);
	for (i = 0; i < p->nsettings; i++)
		add_setting(tl, &p->settings[i], width);
	if (p->nsettings == 0)
		/* TRANSLATORS: the plan has no setting. */
		ui_tl_add(tl, _("Nothing to change."), UI_C_DIM, 2, 0, width);
	if (p->nfindings > 0) {
		ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
		/* TRANSLATORS: heading, like the CLI's "Findings:". */
		ui_tl_add(tl, _("Findings:"), UI_C_HEAD, 0, 0, width);
	}
	/* FAIL first, then WARN, INFO, PASS: what needs action on top */
	for (sev = GW_SEV_ERROR; sev >= GW_SEV_PASS; sev--)
		for (i = 0; i < p->nfindings; i++)
			if ((int)p->findings[i].sev == sev)
				add_finding(tl, &p->findings[i], width);
	add_outputs(tl, w, width);
}

static void
review_enter(ui_ctx *u)
{
	tls(u)->top = 0;
	rst(u)->viewing = 0;
}

/* The snippet view: each chosen format's file name, then the text the
 * write would put in it (gw_wizard_snippet: the emitters, from the plan,
 * nothing written), or why it cannot be made. */
static void
add_snippet(ui_textlist *tl, const gw_wizard *w, const gw_wizard_format *f,
            int width)
{
	int fmt = f->bit;
	char *text, *where = gw_wizard_output_path(w, fmt), *line, *nl, *s;
	gw_err e;

	s = gw_xasprintf("%s:", where ? where : f->filename);
	ui_tl_add(tl, s, UI_C_HEAD, 0, 0, width);
	free(s);
	free(where);
	e.msg[0] = '\0';
	if ((text = gw_wizard_snippet(w, fmt, &e)) == NULL) {
		s = gw_xasprintf(_("Cannot be made from this plan: %s"), e.msg);
		ui_tl_add(tl, s, UI_C_FAIL, 2, 0, width);
		free(s);
		ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
		return;
	}
	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		else if (*line == '\0')
			break;   /* after the last line's newline */
		ui_tl_add(tl, line, UI_C_NORMAL, 2, 4, width);
	}
	free(text);
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
}

/* The write's own description (gw_wizard_write_preview: the host
 * changes, the .vmx with the lines set and removed, the files), as the
 * write will do it. */
static void
add_write(ui_textlist *tl, gw_wizard *w, int width)
{
	char *text, *line, *nl, *s;
	gw_err e;

	/* TRANSLATORS: heading in the snippet view (v on the review): the
	 * write's steps follow, as gpuwiz apply --dry-run prints them. */
	ui_tl_add(tl, _("What the write does, in order:"), UI_C_HEAD, 0, 0,
	          width);
	e.msg[0] = '\0';
	if ((text = gw_wizard_write_preview(w, &e)) == NULL) {
		s = gw_xasprintf(_("Cannot be made from this plan: %s"), e.msg);
		ui_tl_add(tl, s, UI_C_FAIL, 2, 0, width);
		free(s);
	}
	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		else if (*line == '\0')
			break;
		ui_tl_add(tl, line, UI_C_NORMAL, 0, 8, width);
	}
	free(text);
	ui_tl_add(tl, "", UI_C_NORMAL, 0, 0, width);
}

static void
build_view(ui_ctx *u, int width)
{
	ui_textlist *tl = &rst(u)->view;
	int mask = gw_wizard_answers(u->w)->formats;
	size_t f;

	ui_tl_clear(tl);
	add_write(tl, u->w, width);
	for (f = 0; f < gw_wizard_nformats(); f++)
		if (mask & gw_wizard_format_at(f)->bit)
			add_snippet(tl, u->w, gw_wizard_format_at(f), width);
	if (mask == 0 && gw_wizard_vmx_where(u->w) == NULL)
		/* TRANSLATORS: v on the review with no format chosen. */
		ui_tl_add(tl, _("No output format is chosen: no snippet to show."),
		          UI_C_WARN, 0, 0, width);
}

static void
review_draw(ui_ctx *u, ui_rect r)
{
	ui_rect below = { r.y + 1, r.x, r.h - 1, r.w };

	if (!rst(u)->viewing) {
		build(u, r.w - 1);
		ui_tl_draw(tls(u), r);
		return;
	}
	/* TRANSLATORS: heading of the snippet view (v on the review);
	 * at most 78 cells. */
	dw_put(r.y, r.x, _("What the write step would write (Esc closes):"),
	       r.w - 1, ui_attr(UI_C_TITLE));
	build_view(u, r.w - 1);
	ui_tl_draw(&rst(u)->view, below);
}

/* A digit up to the review's number: back to that step (the review's
 * own stays), as a click on
 * the step list does; a refusal is the message. */
static void
jump(ui_ctx *u, gw_step to)
{
	char why[1024];
	const ui_screen *s;

	if (to == GW_STEP_REVIEW)
		return;
	why[0] = '\0';
	if (gw_wizard_goto_why(u->w, to, why, sizeof why) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", why);
		return;
	}
	s = u->screens[to];
	if (s && s->enter)
		s->enter(u);
}

/* Keys of the snippet view: it scrolls, Esc (or v, Enter, Backspace)
 * closes it; nothing else acts under it (q still quits). */
static int
view_key(ui_ctx *u, ui_key k)
{
	if (ui_tl_key(&rst(u)->view, k))
		return UI_HANDLED;
	if (ui_key_esc(k) || ui_key_enter(k) || ui_key_backspace(k) ||
	    ui_key_is(k, L'v') || ui_key_is(k, L'V')) {
		rst(u)->viewing = 0;
		return UI_REDRAW;
	}
	if (ui_key_is(k, L'q') || ui_key_is(k, L'Q'))
		return UI_IGNORED;
	return UI_HANDLED;
}

static int
review_key(ui_ctx *u, ui_key k)
{
	if (rst(u)->viewing)
		return view_key(u, k);
	if (ui_tl_key(tls(u), k))
		return UI_HANDLED;
	if (k.fn == 0 && k.ch >= L'1' &&
	    k.ch <= L'1' + (wint_t)GW_STEP_REVIEW)
		jump(u, (gw_step)(k.ch - L'1'));
	else if (ui_key_is(k, L's') || ui_key_is(k, L'S'))
		ui_save_answers(u);
	else if (ui_key_is(k, L'v') || ui_key_is(k, L'V')) {
		rst(u)->viewing = 1;
		rst(u)->view.top = 0;
	} else
		return UI_IGNORED;
	return UI_HANDLED;
}

static size_t
review_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key pg = { KEY_NPAGE, 0 }, s = { 0, L's' }, v = { 0, L'v' };
	ui_key none = { 0, 0 }, esc = { 0, 27 };
	static char digits[8];   /* "1-7": up to the review's number */

	snprintf(digits, sizeof digits, "1-%d", (int)GW_STEP_REVIEW + 1);
	if (rst(u)->viewing) {
		/* TRANSLATORS: key help label (close the snippet view); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "Esc", _("Close"), esc);
		ui_keys_add(out, &n, max, "PgDn", _("Scroll"), pg);
		return n;
	}
	/* More below than the page shows: PgDn first, so that it is never
	 * cut off the key line ("More", as on the other steps); then s, so
	 * that a line too long drops the others first */
	if (tls(u)->n > (size_t)tls(u)->page + (size_t)tls(u)->top)
		ui_keys_add(out, &n, max, "PgDn", _("More"), pg);
	/* TRANSLATORS: key help label (save the answers); at most 8 cells. */
	ui_keys_add(out, &n, max, "s", _("Save"), s);
	/* TRANSLATORS: key help label (the digits go to a step); at most
	 * 8 cells. */
	ui_keys_add(out, &n, max, digits, _("Go to"), none);
	/* TRANSLATORS: key help label (show the snippets); at most 8
	 * cells. */
	ui_keys_add(out, &n, max, "v", _("Snippets"), v);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_review = {
	GW_STEP_REVIEW, review_open, review_close, review_enter, review_draw,
	review_key, NULL, NULL, NULL, review_keys
};
