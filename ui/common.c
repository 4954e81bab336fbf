/* common.c: pieces the step modules share: the key help line's common
 * tail, the general help paragraph, findings as PASS/WARN/FAIL rows. */
#include "draw.h"
#include "screen.h"

#include <stdlib.h>
#include <string.h>

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
	         "In a text field, letters, q and ? are typed into the field and Backspace "
	         "deletes the character before the cursor: Backspace goes back a step only "
	         "when no text field has the focus; Esc always goes back, and F10 quits.\n"
	         "A click on a step already done in the step list goes back to it; the mouse "
	         "wheel scrolls.");
}

void
ui_keys_add(ui_keyhelp *out, size_t *n, size_t max, const char *key,
            const char *label, ui_key k)
{
	if (*n >= max)
		return;
	out[*n].key = key;
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

int
ui_findings_rows(const ui_ctx *u, int w, unsigned topics)
{
	const gw_plan *p = gw_wizard_plan(u->w);
	size_t i;
	int rows = 0;

	if (p == NULL)
		return 0;
	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *f = &p->findings[i];

		if (!gw_topic_in(f->topic, topics))
			continue;
		rows += dw_wrap_rows(f->message, w - FINDING_LABEL_W);
		if (gw_wizard_finding_fix(f)) {
			char *s = gw_xasprintf(_("fix: %s"), gw_wizard_finding_fix(f));

			rows += dw_wrap_rows(s, w - FINDING_LABEL_W);
			free(s);
		}
	}
	return rows;
}

int
ui_draw_findings(ui_ctx *u, ui_rect r, int y, unsigned topics,
                 int max_rows)
{
	const gw_plan *p = gw_wizard_plan(u->w);
	size_t i;
	int rows = 0;

	if (p == NULL)
		return 0;
	for (i = 0; i < p->nfindings && rows < max_rows; i++) {
		const gw_finding *f = &p->findings[i];
		const char *lab = gw_sev_label(f->sev);
		int lw = FINDING_LABEL_W;

		if (!gw_topic_in(f->topic, topics))
			continue;
		dw_put(r.y + y + rows, r.x, lab, 5, ui_attr(ui_sev_color(f->sev)));
		rows += dw_wrap_put(r.y + y + rows, r.x + lw, r.w - lw,
		                    max_rows - rows, f->message, A_NORMAL);
		if (gw_wizard_finding_fix(f) && rows < max_rows) {
			/* TRANSLATORS: before the fix of a finding, like the
			 * CLI's "fix: %s". */
			char *s = gw_xasprintf(_("fix: %s"), gw_wizard_finding_fix(f));

			rows += dw_wrap_put(r.y + y + rows, r.x + lw, r.w - lw,
			                    max_rows - rows, s, ui_attr(UI_C_DIM));
			free(s);
		}
	}
	return rows;
}
