/* SPDX-License-Identifier: GPL-3.0-or-later */
/* screen.h: the wizard's screens as small "classes" (htop's Panel,
 * doc/design.md, section 10).  Each step is one module (ui/step_*.c) exporting a
 * ui_screen: draw, key, mouse and resize functions plus its help text.  Key
 * handlers return UI_* flags and the one main loop (tui.c) acts on them;
 * a handler that returns UI_IGNORED lets the loop apply the global keys
 * (Enter next, Esc/Backspace back, F1/? help, q quit).
 *
 * The screens render the gw_wizard state through its accessors
 * (src/wizard/wizard.h) and call its functions on keys; they never compute
 * settings themselves.  Each screen keeps its own state in one struct
 * (made by its open function, at u->state[step]), not in file statics.
 */
#ifndef GW_UI_SCREEN_H
#define GW_UI_SCREEN_H

#include "gw.h"
#include "wizard.h"

#include <curses.h>
#include <wchar.h>

/* What a key handler asks the loop to do. */
enum {
	UI_IGNORED = 0,        /* not mine: apply the global keys */
	UI_HANDLED = 1 << 0,   /* done; redraw as usual */
	UI_REDRAW  = 1 << 1,   /* repaint the whole terminal (clearok) */
	UI_NEXT    = 1 << 2,   /* validate this step and go forward */
	UI_BACK    = 1 << 3,   /* one step back */
	UI_QUIT    = 1 << 4,   /* quit (asks first when something is unsaved) */
	UI_HELP    = 1 << 5,   /* open this screen's help */
	UI_FINISH  = 1 << 6    /* leave the wizard, done (exit status 0) */
};

/* A key: a function key (fn = KEY_*, ch = 0) or a character (fn = 0). */
typedef struct ui_key {
	int fn;
	wint_t ch;
} ui_key;

#define UI_CTRL(c) ((c) & 0x1f)

/* How long the loop waits for a key before it looks at signals and
 * resizes again (curses' timeout; a screen that changes it for a while
 * sets it back to this). */
#define UI_TICK_MS 200

int ui_key_enter(ui_key k);
int ui_key_backspace(ui_key k);
int ui_key_esc(ui_key k);
int ui_key_space(ui_key k);
int ui_key_tab(ui_key k);
int ui_key_btab(ui_key k);
int ui_key_is(ui_key k, wint_t ch);
int ui_key_fn(ui_key k, int fn);

typedef struct ui_rect {
	int y, x, h, w;
} ui_rect;

/* One entry of the help line at the bottom: a key name (not translated)
 * and what it does (translated by the screen).  An empty key name: a note
 * (label alone, not clicked), such as the part that has the keys. */
typedef struct ui_keyhelp {
	const char *key;
	const char *label;
	ui_key k;              /* what a click on it sends */
} ui_keyhelp;

#define UI_MAX_KEYHELP 10

typedef struct ui_ctx ui_ctx;

typedef struct ui_screen {
	gw_step step;
	/* Make the screen's state (zeroed, its start values set) and free it:
	 * the loop keeps it at u->state[step] while the wizard runs. */
	void *(*open)(void);
	void (*close)(void *state);
	/* The step became the current one: take the values from the wizard. */
	void (*enter)(ui_ctx *u);
	/* Draw the content in r (the title, purpose, step list, message and
	 * help lines are drawn by the loop). */
	void (*draw)(ui_ctx *u, ui_rect r);
	int (*key)(ui_ctx *u, ui_key k);
	/* A click at (y, x) relative to the content rect; UI_* flags. */
	int (*mouse)(ui_ctx *u, ui_rect r, int y, int x);
	/* The terminal changed size (r is the new content rect). */
	void (*resize)(ui_ctx *u, ui_rect r);
	/* The screen's help text (translated paragraphs, '\n' separated);
	 * NULL: the step's (gw_wizard_step_help). */
	const char *(*help)(ui_ctx *u);
	/* The key help line for the current focus; returns the count. */
	size_t (*keys)(ui_ctx *u, ui_keyhelp *out, size_t max);
} ui_screen;

/* Each step's screen (the rows of steps.def). */
#define GW_STEP(ID, TITLE, PURPOSE, HELP, CHECK, SCREEN) \
	extern const ui_screen SCREEN;
#include "steps.def"
#undef GW_STEP

/* Message line kinds. */
enum { UI_MSG_INFO, UI_MSG_ERROR, UI_MSG_OK };

struct ui_ctx {
	gw_wizard *w;
	const ui_screen *screens[GW_NSTEPS];
	int utf8;             /* the locale is UTF-8 (box glyphs, check marks) */
	int color;            /* colours in use (has_colors, no NO_COLOR) */
	int cursor_y, cursor_x; /* terminal cursor to show after drawing, -1 none */
	char msg[1024];       /* one-line message under the content */
	int msg_kind;
	int too_small;        /* the terminal is below the minimum */
	int redraw;           /* something happened: draw before waiting */
	int repaint;          /* a dialog closed (UI_REPAINT_FULL) or a progress
	                       * box is up (UI_REPAINT_PROGRESS): the next
	                       * ui_refresh repaints the whole terminal */
	ui_rect content;      /* where the current screen draws */
	/* the step list / top bar, for mouse clicks */
	int bar_side;         /* 1: side list, 0: top bar */
	int bar_x0[GW_NSTEPS], bar_x1[GW_NSTEPS], bar_y[GW_NSTEPS];
	/* the key help line, for mouse clicks */
	int help_y;
	int help_x0[UI_MAX_KEYHELP], help_x1[UI_MAX_KEYHELP];
	ui_key help_k[UI_MAX_KEYHELP];
	size_t help_n;
	void *state[GW_NSTEPS];   /* each screen's struct (ui_screen.open) */
	char *saved_answers;  /* the answers file last saved (ui_save_answers),
	                       * absolute: named in the exit text */
};

enum { UI_REPAINT_NONE, UI_REPAINT_FULL, UI_REPAINT_PROGRESS };

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24

/* ---- services of the main loop (tui.c) for screens and dialogs ------- */

void ui_msg(ui_ctx *u, int kind, const char *fmt, ...) GW_PRINTF(3, 4);
/* Lay the frame out for the terminal's size (u->content, too_small). */
void ui_layout(ui_ctx *u);
/* Draw everything (no refresh): used by dialogs to paint what lies under
 * them. */
void ui_draw_all(ui_ctx *u);
/* refresh(), first asking curses to repaint the whole terminal when a
 * dialog was closed since the last one (u->repaint): what a box covered
 * is then put back cell by cell, whatever curses thinks is there. */
void ui_refresh(ui_ctx *u);
/* Show the terminal cursor where the screen asked for it, then
 * ui_refresh. */
void ui_show(ui_ctx *u);
/* Wait up to the loop's tick for a key.  Returns 1 and fills *k for a key,
 * 0 on a timeout or a handled resize (redraw), -1 when a signal asks the
 * program to end (the caller returns at once; the loop exits). */
int ui_getkey(ui_ctx *u, ui_key *k);
/* A signal (SIGINT/SIGTERM/SIGHUP/SIGQUIT) asked to end. */
int ui_ending(void);
/* Switch the message language: "en" or "zh_CN".  0 ok, -1 not possible:
 * Chinese needs a UTF-8 terminal, or the language's message catalogue is
 * refused (catalog.c; then *what and *why say so, malloc'ed, else NULL;
 * ui_set_language's *refused the warning's text).  ui_use_language
 * switches gettext only (before the wizard's screens exist);
 * ui_set_language also tells the wizard and makes its plan again in the
 * new language. */
int ui_use_language(int utf8, const char *lang, char **what, char **why);
int ui_set_language(ui_ctx *u, const char *lang, char **refused);
/* Is the message language Chinese now? */
int ui_lang_is_zh(void);
/* Ask for a file name and save the answers there (gw_wizard_save_answers;
 * the message says where or why not).  1 saved, 0 not. */
int ui_save_answers(ui_ctx *u);

/* ---- dialogs (dialog.c) ----------------------------------------------- */

/* Ask a yes/no question.  1 yes, 0 no (Esc, n), -1 ending. */
int ui_confirm(ui_ctx *u, const char *question);
/* Ask for one line of text.  *value holds the start text (may be NULL)
 * and gets the answer (malloc'ed).  1 entered, 0 cancelled, -1 ending.
 * digits_only restricts the input to 0-9. */
int ui_input(ui_ctx *u, const char *title, const char *label, char **value,
             int digits_only);
/* The help overlay for a screen (closed by Esc, q, F1, ?, Enter). */
void ui_help(ui_ctx *u, const ui_screen *s);
/* Progress of long work: draw a box saying what is being done (pct < 0:
 * unknown); it shows no key, as nothing reads one. */
void ui_progress(ui_ctx *u, const char *what, int pct);
/* The same box for work that can still be cancelled: it shows "Esc
 * Cancel" and returns 1 when the operator asked to (Esc/c or a signal),
 * 0 otherwise.  Call it between units of work. */
int ui_progress_cancel(ui_ctx *u, const char *what, int pct);

/* ---- shared pieces of the step modules ------------------------------- */

/* The general keys paragraph, appended to every screen's help. */
const char *ui_help_general(void);
/* The common tail of the help line: Enter/Esc/F1/q; returns the count. */
size_t ui_keys_common(ui_keyhelp *out, size_t n, size_t max, int field_focus);
void ui_keys_add(ui_keyhelp *out, size_t *n, size_t max, const char *key,
                 const char *label, ui_key k);
/* The colour of a severity (its label: gw_sev_label, finding.h). */
int ui_sev_color(gw_sev s);
/* Findings of the plan with a topic in topics (a mask of GW_TOPIC_BIT,
 * finding.h), drawn from row y in r; returns the rows used. */
int ui_draw_findings(ui_ctx *u, ui_rect r, int y, unsigned topics,
                     int max_rows);
/* Rows ui_draw_findings needs for those findings in w cells, unlimited. */
int ui_findings_rows(const ui_ctx *u, int w, unsigned topics);

#endif
