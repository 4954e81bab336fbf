/* SPDX-License-Identifier: GPL-3.0-or-later */
/* common.c: pieces the step modules share: the key predicates, the key
 * help line's common tail, the general help paragraph, findings as
 * PASS/WARN/FAIL rows, the language switch. */
#include "dialog.h"
#include "draw.h"
#include "screen.h"
#include "textlist.h"

#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* ---- key predicates -------------------------------------------------------- */

int ui_key_enter(ui_key k)
{ return (k.fn == 0 && (k.ch == L'\n' || k.ch == L'\r')) || k.fn == KEY_ENTER; }
int ui_key_backspace(ui_key k)
{ return (k.fn == 0 && (k.ch == 127 || k.ch == 8)) || k.fn == KEY_BACKSPACE; }
int ui_key_esc(ui_key k) { return k.fn == 0 && k.ch == 27; }
int ui_key_space(ui_key k) { return k.fn == 0 && k.ch == L' '; }
int ui_key_tab(ui_key k) { return k.fn == 0 && k.ch == L'\t'; }
int ui_key_btab(ui_key k) { return k.fn == KEY_BTAB; }
int ui_key_is(ui_key k, wint_t ch) { return k.fn == 0 && k.ch == ch; }
int ui_key_fn(ui_key k, int fn) { return k.fn == fn; }

/* Function and cursor keys as the usual terminals send them, for a
 * terminfo entry that names other ones: TERM=linux expects F1 as
 * ESC [ [ A, but the same program in tmux, screen or over ssh from an
 * xterm gets ESC O P; TERM=vt100 has no Home and End.  Only sequences
 * the entry leaves unbound are added (ncurses define_key), once. */
void
ui_keys_extra(void)
{
	static const struct { const char *seq; int key; } extra[] = {
		{ "\033OP", KEY_F(1) }, { "\033[11~", KEY_F(1) },
		{ "\033[[A", KEY_F(1) }, { "\033[21~", KEY_F(10) },
		{ "\033[1~", KEY_HOME }, { "\033[H", KEY_HOME },
		{ "\033OH", KEY_HOME }, { "\033[4~", KEY_END },
		{ "\033[F", KEY_END }, { "\033OF", KEY_END },
		{ "\033[5~", KEY_PPAGE }, { "\033[6~", KEY_NPAGE },
		{ "\033[Z", KEY_BTAB },
	};
	static int done;
	size_t i;

	if (done)
		return;
	done = 1;
#ifdef NCURSES_VERSION
	for (i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].key);
#else
	(void)extra;
	(void)i;
#endif
}

const char *
ui_help_general(void)
{
	/* TRANSLATORS: the part of every help screen about the keys; the key
	 * names (Enter, Esc, Tab, ...) stay as they are.  Wrapped to the
	 * help box (about 70 cells). */
	return _("Keys on every screen: Up and Down (or Tab and Shift-Tab) move between items; "
	         "Space toggles or picks the item under the cursor; Enter accepts the screen "
	         "and goes to the next step; Esc goes back a step (on the first one it quits); "
	         "F1 or ? opens this help; "
	         "q quits and asks first when something is not written or saved; "
	         "Ctrl-C quits at once.\n"
	         "In a list, Home and End go to its first and last row, PgUp and PgDn a page "
	         "up or down (in a list that fits on the screen, to its first and last row).\n"
	         "In a text field, letters, q and ? are typed into the field and Backspace "
	         "deletes the character before the cursor: Backspace goes back a step only "
	         "when no text field has the focus; Esc always goes back, and F10 quits.\n"
	         "A click on a step already done in the step list goes back to it; the mouse "
	         "wheel scrolls.");
}

/* A key's name on the key line, in the words the texts use for it: the
 * names stay as on the keyboard (Enter, Esc, Tab, PgDn, F1) except the
 * one a language has its own word for. */
static const char *
keyline_name(const char *key)
{
	if (strcmp(key, "Space") == 0)
		/* TRANSLATORS: the Space key's name on the key help line:
		 * the same word the help texts and hints use for the key
		 * (zh: 空格); at most 6 cells. */
		return _("Space");
	return key;
}

void
ui_keys_add(ui_keyhelp *out, size_t *n, size_t max, const char *key,
            const char *label, ui_key k)
{
	if (*n >= max)
		return;
	out[*n].key = keyline_name(key);
	out[*n].label = label;
	out[*n].k = k;
	(*n)++;
}

size_t
ui_keys_common(ui_keyhelp *out, size_t n, size_t max, int field_focus)
{
	ui_key enter = { 0, L'\n' }, esc = { 0, 27 }, f1 = { KEY_F(1), 0 };
	ui_key q = { 0, L'q' }, f10 = { KEY_F(10), 0 };

	/* TRANSLATORS: key help labels (after the key names Enter, Esc, F1,
	 * q).  The whole help line must fit 80 cells: at most 8 cells each. */
	ui_keys_add(out, &n, max, "Enter", _("Next"), enter);
	/* TRANSLATORS: key help label, at most 8 cells. */
	ui_keys_add(out, &n, max, "Esc", _("Back"), esc);
	/* TRANSLATORS: key help label, at most 8 cells. */
	ui_keys_add(out, &n, max, "F1", _("Help"), f1);
	if (field_focus)
		ui_keys_add(out, &n, max, "F10", _("Quit"), f10);
	else
		/* TRANSLATORS: key help label, at most 8 cells. */
		ui_keys_add(out, &n, max, "q", _("Quit"), q);
	return n;
}

int
ui_sev_color(gw_sev s)
{
	return s == GW_SEV_ERROR ? UI_C_FAIL : s == GW_SEV_WARN ? UI_C_WARN :
	       UI_C_INFO;
}

/* Findings are drawn as "WARN  message", the message and its fix wrapped
 * in the width after the label. */
#define FINDING_LABEL_W 6

/* The plan's findings of those topics, most severe first (FAIL, WARN,
 * INFO, PASS; the plan's order within one severity): a FAIL is never
 * below the fold behind INFO rows.  *out is malloc'ed (NULL for none). */
static size_t
findings_sorted(const gw_plan *p, unsigned topics, const gw_finding ***out)
{
	size_t i, n = 0;
	int sev;

	*out = NULL;
	if (p == NULL || p->nfindings == 0)
		return 0;
	*out = gw_xcalloc(p->nfindings, sizeof **out);
	for (sev = GW_SEV_ERROR; sev >= GW_SEV_PASS; sev--)
		for (i = 0; i < p->nfindings; i++)
			if ((int)p->findings[i].sev == sev &&
			    gw_topic_in(p->findings[i].topic, topics))
				(*out)[n++] = &p->findings[i];
	return n;
}

static char *
fix_line(const gw_finding *f)
{
	/* TRANSLATORS: before the fix of a finding, like the CLI's
	 * "fix: %s". */
	return gw_wizard_finding_fix(f) ?
	       gw_xasprintf(_("fix: %s"), gw_wizard_finding_fix(f)) : NULL;
}

int
ui_findings_rows(const ui_ctx *u, int w, unsigned topics)
{
	const gw_finding **v;
	size_t n = findings_sorted(gw_wizard_plan(u->w), topics, &v), i;
	int rows = 0;

	for (i = 0; i < n; i++) {
		char *s = fix_line(v[i]);

		rows += dw_wrap_rows(v[i]->message, w - FINDING_LABEL_W);
		if (s)
			rows += dw_wrap_rows(s, w - FINDING_LABEL_W);
		free(s);
	}
	free(v);
	return rows;
}

/* The last row of a findings area that has no room for them all: how
 * many are left out and where they all are. */
static void
findings_more(ui_rect r, int y, size_t left)
{
	/* TRANSLATORS: the last row of a list of findings that has no room
	 * for all of them; %zu is how many are not shown.  At most 70
	 * cells. */
	dw_printf(y, r.x, r.w, ui_attr(UI_C_WARN),
	          P_("v %zu more finding: the review (step 7) lists it",
	             "v %zu more findings: the review (step 7) lists them all",
	             left),
	          left);
}

int
ui_draw_findings(ui_ctx *u, ui_rect r, int y, unsigned topics,
                 int max_rows)
{
	const gw_finding **v;
	size_t n = findings_sorted(gw_wizard_plan(u->w), topics, &v), i;
	int rows = 0, lw = FINDING_LABEL_W;

	for (i = 0; i < n && rows < max_rows; i++) {
		const gw_finding *f = v[i];
		char *s = fix_line(f);
		int need = dw_wrap_rows(f->message, r.w - lw) +
		           (s ? dw_wrap_rows(s, r.w - lw) : 0);

		/* a finding that does not fit whole, with more after it,
		 * gives its rows to the sign that they are left out */
		if (rows + need > max_rows && rows > 0) {
			free(s);
			break;
		}
		dw_put(r.y + y + rows, r.x, gw_sev_label(f->sev), 5,
		       ui_attr(ui_sev_color(f->sev)));
		rows += dw_wrap_put(r.y + y + rows, r.x + lw, r.w - lw,
		                    max_rows - rows, f->message, A_NORMAL);
		if (s && rows < max_rows)
			rows += dw_wrap_put(r.y + y + rows, r.x + lw, r.w - lw,
			                    max_rows - rows, s, ui_attr(UI_C_DIM));
		free(s);
	}
	if (i < n) {
		if (rows >= max_rows)
			rows = max_rows - 1;
		dw_fill(r.y + y + rows, r.x, r.w, A_NORMAL);
		findings_more(r, r.y + y + rows, n - i);
		rows++;
	}
	free(v);
	return rows;
}

static void
findings_fill(ui_ctx *u, ui_textlist *t, int w, unsigned topics)
{
	const gw_finding **v;
	size_t n = findings_sorted(gw_wizard_plan(u->w), topics, &v), i;

	ui_tl_clear(t);
	/* a cell less: a blank between the text and the ^/v marks */
	w--;
	for (i = 0; i < n; i++) {
		char *s = fix_line(v[i]);

		ui_tl_add_label(t, gw_sev_label(v[i]->sev),
		                ui_sev_color(v[i]->sev), v[i]->message,
		                UI_C_NORMAL, FINDING_LABEL_W, w);
		if (s)
			ui_tl_add(t, s, UI_C_DIM, FINDING_LABEL_W, 0, w);
		free(s);
	}
	free(v);
}

int
ui_findings_list(ui_ctx *u, ui_textlist *t, ui_rect r, unsigned topics)
{
	if (r.h < 1) {
		t->page = 0;
		return 0;
	}
	findings_fill(u, t, r.w, topics);
	ui_tl_draw(t, r);
	return (int)t->n < r.h ? (int)t->n : r.h;
}

/* ---- language ------------------------------------------------------------ */

int
ui_lang_is_zh(void)
{
	const char *m = setlocale(LC_MESSAGES, NULL), *l = getenv("LANGUAGE");

	if (m == NULL || strcmp(m, "C") == 0 || strcmp(m, "POSIX") == 0)
		return 0;
	if (l != NULL && *l)
		return strncmp(l, "zh", 2) == 0;
	return strncmp(m, "zh", 2) == 0;
}

#if defined(ENABLE_NLS) && ENABLE_NLS
/* GNU gettext (glibc, libintl): bumped when the language changes */
extern int _nl_msg_cat_cntr;
#endif

int
ui_use_language(int utf8, const char *lang, char **what, char **why)
{
	const char *m = setlocale(LC_MESSAGES, NULL);

	*what = *why = NULL;
	if (strcmp(lang, "en") != 0 &&
	    (!utf8 || m == NULL || strcmp(m, "C") == 0 ||
	     strcmp(m, "POSIX") == 0))
		return -1;
#if defined(ENABLE_NLS) && ENABLE_NLS
	{
		/* the catalogues of lang checked before gettext may open
		 * them (catalog.c); a folder refused at start-up is bound to
		 * /dev/null and holds none */
		const char *dir = bindtextdomain(PACKAGE, NULL);

		if (dir != NULL &&
		    gw_catalog_check_lang(dir, PACKAGE, lang, what, why) != 0)
			return -1;
	}
#endif
	setenv("LANGUAGE", lang, 1);
#if defined(ENABLE_NLS) && ENABLE_NLS
	/* gettext keeps the translations it found: the GNU gettext manual's
	 * way to make it look again after LANGUAGE changed */
	++_nl_msg_cat_cntr;
#endif
	return 0;
}

int
ui_set_language(ui_ctx *u, const char *lang, char **refused)
{
	char *what, *why;

	*refused = NULL;
	if (ui_use_language(u->utf8, lang, &what, &why) != 0) {
		if (what != NULL)
			*refused = gw_path_warning(what, why);
		free(what);
		free(why);
		return -1;
	}
	/* the model makes its texts again in the new language */
	gw_wizard_set_language(u->w, lang);
	return 0;
}

/* Would saving to path replace a file the operator did not open here?
 * 1 when path is an existing file other than the answers file the wizard
 * was started with (nano asks the same before writing over a file under
 * another name). */
static int
save_replaces(const gw_wizard *w, const char *path)
{
	const char *given = gw_wizard_answers(w)->path;
	struct stat st, gst;

	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return 0;    /* nothing to replace; a directory: the save says */
	return !(given && stat(given, &gst) == 0 &&
	         st.st_dev == gst.st_dev && st.st_ino == gst.st_ino);
}

/* The save box (s on the review, and the quit question): the file name
 * (the answers file's, else gpuwiz-answers.ini here) to edit, the
 * question before replacing an existing file (default no: back to the
 * name), then gw_wizard_save_answers. */
int
ui_save_answers(ui_ctx *u)
{
	gw_wizard *w = u->w;
	const char *given = gw_wizard_answers(w)->path;
	char *path = gw_xstrdup(given ? given : "gpuwiz-answers.ini");
	char *cwd = getcwd(NULL, 0), *ask;
	gw_err e;
	int saved = 0, r;

	/* TRANSLATORS: the save-answers question; %s is the current
	 * directory, where a file name alone goes; wrapped (5 lines of 68
	 * cells at most). */
	ask = gw_xasprintf(_("Save the answers to this file (a name alone goes into %s); gpuwiz --answers FILE replays them (Enter on each screen):"),
	                   cwd ? cwd : ".");
	free(cwd);
	for (;;) {
		/* TRANSLATORS: title of the save-answers box (the review's
		 * "s Save" and the quit question's s): it saves the answers
		 * for a replay, not the .vmx; at most 64 cells. */
		r = ui_input(u, _("Save the answers for a replay (not the .vmx)"),
		             ask, &path, 0);
		if (r != 1)
			break;
		gw_trim(path);
		if (*path != '\0' && save_replaces(w, path)) {
			/* TRANSLATORS: asked before the answers are saved over
			 * an existing file; %s is its name; the answer keys
			 * stay y and n (No is the default).  Wrapped at about
			 * 68 cells. */
			char *q = gw_xasprintf(_("%s already exists. Replace it with these answers?"),
			                       path);
			int yes = ui_confirm_no(u, q);

			free(q);
			if (ui_ending())
				break;
			if (yes != 1)
				continue;    /* back to the name, as nano does */
		}
		e.msg[0] = '\0';
		if (*path == '\0')
			ui_msg(u, UI_MSG_ERROR, "%s",
			       /* TRANSLATORS: the save box was left empty. */
			       _("No file name given: nothing saved."));
		else if (gw_wizard_save_answers(w, path, &e) != 0)
			ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		else {
			char *abs = realpath(path, NULL);

			/* TRANSLATORS: %s is the answers file written. */
			ui_msg(u, UI_MSG_OK, _("Answers saved to %s"),
			       abs ? abs : path);
			free(u->saved_answers);
			u->saved_answers = abs ? abs : gw_xstrdup(path);
			saved = 1;
		}
		break;
	}
	free(path);
	free(ask);
	return saved;
}

