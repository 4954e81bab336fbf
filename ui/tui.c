/* tui.c: the ncurses wizard's main loop (design.md section 5).
 *
 * One loop: draw the frame (step list, title, purpose, the current
 * screen, message and key help lines), read one key, hand it to the
 * screen, act on the UI_* flags it returns.  Signal handlers only set
 * flags; the loop turns them into a resize or an exit.  Every exit path
 * ends curses before anything else (atexit as a last resort).
 *
 * Exit status: 0 when the operator quits or finishes; 128 + the signal
 * for SIGINT (130), SIGTERM (143) and SIGHUP (129); 2 for an error before
 * the screen started (terminal untouched).
 */
#include "tui.h"
#include "draw.h"
#include "screen.h"
#include "wizard_int.h"

#include <errno.h>
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#define TICK_MS 200

/* ---- signals ------------------------------------------------------------ */

static volatile sig_atomic_t sig_end;     /* SIGINT/SIGTERM/SIGHUP number */
static volatile sig_atomic_t sig_winch;
static struct sigaction old_int, old_term, old_hup, old_winch;
static int curses_on;

static void
on_signal(int s)
{
	if (s == SIGWINCH)
		sig_winch = 1;
	else if (sig_end == 0)
		sig_end = s;
}

static void
signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: a blocked read returns at once */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sigaction(SIGWINCH, &sa, &old_winch);
}

static void
signals_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGWINCH, &old_winch, NULL);
}

/* Last resort for any exit path that skipped the normal one. */
static void
restore_terminal(void)
{
	if (curses_on && !isendwin())
		endwin();
	curses_on = 0;
}

int
ui_ending(void)
{
	return sig_end != 0;
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
ui_set_language(ui_ctx *u, const char *lang)
{
	const char *m = setlocale(LC_MESSAGES, NULL);

	if (strcmp(lang, "en") != 0 &&
	    (!u->utf8 || m == NULL || strcmp(m, "C") == 0 ||
	     strcmp(m, "POSIX") == 0))
		return -1;
	setenv("LANGUAGE", lang, 1);
#if defined(ENABLE_NLS) && ENABLE_NLS
	/* gettext keeps the translations it found: the GNU gettext manual's
	 * way to make it look again after LANGUAGE changed */
	++_nl_msg_cat_cntr;
#endif
	/* the plan's reasons and steps were translated when it was built */
	gw_wizard_replan(u->w);
	return 0;
}

/* ---- messages ------------------------------------------------------------ */

void
ui_msg(ui_ctx *u, int kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof u->msg, fmt, ap);
	va_end(ap);
	u->msg_kind = kind;
}

/* ---- layout and frame ---------------------------------------------------- */

#define SIDE_MIN_COLS 100
#define SIDE_W 24

static int
msg_rows(const ui_ctx *u, int w)
{
	int n;

	if (u->msg[0] == '\0')
		return 1;
	n = dw_wrap_rows(u->msg, w);
	return n < 1 ? 1 : n > 3 ? 3 : n;
}

static void
layout(ui_ctx *u)
{
	int mr;

	u->too_small = COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS;
	u->bar_side = COLS >= SIDE_MIN_COLS;
	if (u->bar_side) {
		u->content.x = SIDE_W + 2;
		u->content.w = COLS - SIDE_W - 3;
		u->content.y = 3;
	} else {
		u->content.x = 1;
		u->content.w = COLS - 2;
		u->content.y = 4;
	}
	mr = msg_rows(u, COLS - 2);
	u->content.h = LINES - u->content.y - 1 - mr;
	if (u->content.h < 1)
		u->content.h = 1;
}

static void
draw_side_list(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int i, y;

	for (y = 0; y < LINES - 1; y++)
		dw_fill(y, 0, SIDE_W, ui_attr(UI_C_BAR));
	dw_put(0, 1, "gpuwiz", SIDE_W - 2, ui_attr(UI_C_BAR) | A_BOLD);
	for (i = 0; i < GW_NSTEPS; i++) {
		int cur = (int)w->step == i;
		attr_t a = ui_attr(cur ? UI_C_BAR_CUR :
		                   w->visited[i] ? UI_C_BAR_DONE : UI_C_BAR);
		char num[8];

		y = 2 + i;
		dw_fill(y, 0, SIDE_W, a);
		dw_put(y, 1, w->visited[i] && !cur ? ui_glyph_done(u) : " ", 1, a);
		snprintf(num, sizeof num, "%d", i + 1);
		dw_put(y, 3, num, 1, a);
		dw_put(y, 5, gw_step_title((gw_step)i), SIDE_W - 6, a);
		u->bar_y[i] = y;
		u->bar_x0[i] = 0;
		u->bar_x1[i] = SIDE_W;
	}
	attrset(ui_attr(UI_C_BOX));
	mvvline(0, SIDE_W, ACS_VLINE, LINES - 1);
	attrset(A_NORMAL);
}

/* One step of the top bar: "✓2 Host check " (the mark, the number, the
 * title when shown, a blank). */
static void
top_bar_seg(const ui_ctx *u, int i, int with_title, char *seg, size_t size)
{
	const gw_wizard *w = u->w;
	int cur = (int)w->step == i;

	snprintf(seg, size, "%s%d%s%s ",
	         w->visited[i] && !cur ? ui_glyph_done(u) : " ", i + 1,
	         with_title ? " " : "",
	         with_title ? gw_step_title((gw_step)i) : "");
}

/* One line across the top: "gpuwiz  ✓1 Welcome  ✓2 Host check  3 GPU ...".
 * Titles of the other steps are dropped (numbers only) when they do not
 * all fit.  Each step is drawn as its segment and one blank between
 * segments; whether all the titles fit is measured on those very strings
 * in cells. */
static void
draw_top_bar(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int i, x, end, full;
	const char *name = "gpuwiz ";
	char seg[128];

	dw_fill(0, 0, COLS, ui_attr(UI_C_BAR));
	x = 1 + dw_put(0, 1, name, COLS - 2, ui_attr(UI_C_BAR) | A_BOLD);
	/* where the last segment would end with every title shown */
	end = x;
	for (i = 0; i < GW_NSTEPS; i++) {
		top_bar_seg(u, i, 1, seg, sizeof seg);
		end += (i > 0 ? 1 : 0) + gw_text_cells(seg);
	}
	full = end <= COLS - 1;
	for (i = 0; i < GW_NSTEPS; i++)
		u->bar_y[i] = -1;   /* not drawn: no click lands there */
	for (i = 0; i < GW_NSTEPS; i++) {
		int cur = (int)w->step == i;
		attr_t a = ui_attr(cur ? UI_C_BAR_CUR :
		                   w->visited[i] ? UI_C_BAR_DONE : UI_C_BAR);
		int n;

		top_bar_seg(u, i, full || cur, seg, sizeof seg);
		if (x >= COLS - 1)
			break;
		n = dw_put(0, x, seg, COLS - 1 - x, a);
		u->bar_y[i] = 0;
		u->bar_x0[i] = x;
		u->bar_x1[i] = x + n;
		x += n + 1;
	}
}

static void
draw_help_line(ui_ctx *u, const ui_screen *s)
{
	ui_keyhelp kh[UI_MAX_KEYHELP];
	size_t n = s->keys ? s->keys(u, kh, UI_MAX_KEYHELP) : 0, i;
	int x = 0, y = LINES - 1;

	u->help_y = y;
	u->help_n = 0;
	dw_fill(y, 0, COLS, A_NORMAL);
	/* the last four are the common keys (Enter, Esc, F1, q): when the
	 * line is too long, the screen's own keys give way first */
	for (;;) {
		int total = 0;

		for (i = 0; i < n; i++)
			total += gw_text_cells(kh[i].key) + 1 +
			         gw_text_cells(kh[i].label) + 2;
		if (total - 2 <= COLS - 1 || n <= 4)
			break;
		memmove(&kh[n - 5], &kh[n - 4], 4 * sizeof kh[0]);
		n--;
	}
	for (i = 0; i < n; i++) {
		int need = gw_text_cells(kh[i].key) + 1 +
		           gw_text_cells(kh[i].label) + 2;
		int x0 = x;

		if (x + need - 2 > COLS - 1)
			break;
		x += dw_put(y, x, kh[i].key, COLS - x, ui_attr(UI_C_KEY));
		x += 1;
		x += dw_put(y, x, kh[i].label, COLS - x - 1, A_NORMAL);
		u->help_x0[u->help_n] = x0;
		u->help_x1[u->help_n] = x;
		u->help_k[u->help_n] = kh[i].k;
		u->help_n++;
		x += 2;
	}
}

static void
draw_too_small(ui_ctx *u)
{
	char buf[256];
	int rows, w = COLS > 4 ? COLS - 2 : COLS;

	erase();
	/* TRANSLATORS: shown alone when the terminal is too small; wrapped to
	 * the terminal's width.  %dx%d are the minimum, then the current
	 * columns x rows. */
	snprintf(buf, sizeof buf, _("Terminal too small: enlarge it to at least %dx%d (now %dx%d)"),
	         UI_MIN_COLS, UI_MIN_ROWS, COLS, LINES);
	rows = dw_wrap_rows(buf, w);
	dw_wrap_put(LINES > rows ? (LINES - rows) / 2 : 0, COLS > 4 ? 1 : 0, w,
	            LINES, buf, ui_attr(UI_C_MSG_ERR));
	u->cursor_y = -1;
}

void
ui_draw_all(ui_ctx *u)
{
	gw_wizard *w = u->w;
	const ui_screen *s = u->screens[w->step];
	char title[256];
	int tx, ty, tw;

	layout(u);
	u->cursor_y = -1;
	if (u->too_small) {
		draw_too_small(u);
		return;
	}
	erase();
	if (u->bar_side) {
		draw_side_list(u);
		tx = SIDE_W + 2;
		tw = COLS - SIDE_W - 3;
		ty = 0;
	} else {
		draw_top_bar(u);
		tx = 1;
		tw = COLS - 2;
		ty = 1;
	}
	/* TRANSLATORS: the title line of every screen: "Step 3/8: GPU".
	 * Keep "%d/%d" together; the whole line gets the width of the
	 * terminal (78 cells at 80 columns) with the step title at most 18. */
	snprintf(title, sizeof title, _("Step %d/%d: %s"), (int)w->step + 1,
	         (int)GW_NSTEPS, gw_step_title(w->step));
	dw_put(ty, tx, title, tw, ui_attr(UI_C_TITLE));
	dw_put(ty + 1, tx, gw_step_purpose(w->step), tw, A_NORMAL);
	attrset(ui_attr(UI_C_BOX));
	mvhline(ty + 2, tx, ACS_HLINE, tw);
	attrset(A_NORMAL);

	s->draw(u, u->content);

	/* message line(s) */
	if (u->msg[0]) {
		int y = u->content.y + u->content.h;
		int c = u->msg_kind == UI_MSG_ERROR ? UI_C_MSG_ERR :
		        u->msg_kind == UI_MSG_OK ? UI_C_MSG_OK : UI_C_NORMAL;

		dw_wrap_put(y, 1, COLS - 2, LINES - 1 - y, u->msg, ui_attr(c));
	}
	draw_help_line(u, s);
}

void
ui_refresh(ui_ctx *u)
{
	if (u->repaint != UI_REPAINT_NONE)
		clearok(curscr, TRUE);
	u->repaint = UI_REPAINT_NONE;
	refresh();
}

static void
show(ui_ctx *u)
{
	if (u->cursor_y >= 0 && !u->too_small) {
		move(u->cursor_y, u->cursor_x);
		curs_set(1);
	} else {
		curs_set(0);
	}
	ui_refresh(u);
}

/* ---- input --------------------------------------------------------------- */

/* The terminal changed size.  From our SIGWINCH flag (ask = 1): read the
 * size and tell curses, which queues a KEY_RESIZE when it changed; from
 * that KEY_RESIZE (ask = 0): curses knows already, only lay out again
 * (calling resizeterm there could queue KEY_RESIZE after KEY_RESIZE). */
static void
handle_resize(ui_ctx *u, int ask)
{
	struct winsize ws;

	u->redraw = 1;
	if (ask) {
		sig_winch = 0;
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
		    ws.ws_col > 0 && is_term_resized(ws.ws_row, ws.ws_col))
			resizeterm(ws.ws_row, ws.ws_col);
	}
	clearok(curscr, TRUE);
	layout(u);
	if (u->screens[u->w->step]->resize)
		u->screens[u->w->step]->resize(u, u->content);
}

int
ui_getkey(ui_ctx *u, ui_key *k)
{
	wint_t wch = 0;
	int r;

	if (sig_end)
		return -1;
	if (sig_winch) {
		handle_resize(u, 1);
		return 0;
	}
	r = get_wch(&wch);
	if (sig_end)
		return -1;
	if (sig_winch) {
		handle_resize(u, 1);
		return 0;
	}
	if (r == ERR)
		return 0;
	if (r == KEY_CODE_YES) {
		if (wch == KEY_RESIZE) {
			handle_resize(u, 0);
			return 0;
		}
		k->fn = (int)wch;
		k->ch = 0;
	} else {
		k->fn = 0;
		k->ch = wch;
		if (wch == L'\r')
			k->ch = L'\n';
	}
	return 1;
}

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

/* ---- the loop -------------------------------------------------------------- */

static void
enter_step(ui_ctx *u)
{
	const ui_screen *s = u->screens[u->w->step];

	if (s->enter)
		s->enter(u);
}

/* The keys every screen shares, applied when the screen left the key. */
static int
global_key(ui_key k)
{
	if (ui_key_enter(k))
		return UI_NEXT;
	if (ui_key_esc(k) || ui_key_backspace(k))
		return UI_BACK;
	if (ui_key_fn(k, KEY_F(1)) || ui_key_is(k, L'?'))
		return UI_HELP;
	if (ui_key_is(k, L'q') || ui_key_is(k, L'Q') || ui_key_fn(k, KEY_F(10)))
		return UI_QUIT;
	if (ui_key_is(k, UI_CTRL('l')))
		return UI_REDRAW;
	return UI_IGNORED;
}

/* A click: on the step list (jump to a visited step), on the key help
 * line (as if the key was pressed), else to the screen. */
static int
mouse_event(ui_ctx *u, ui_key *synth)
{
	MEVENT ev;
	int i;
	const ui_screen *s = u->screens[u->w->step];

	if (getmouse(&ev) != OK)
		return UI_HANDLED;
	if (ev.bstate & BUTTON4_PRESSED) {
		synth->fn = KEY_UP;
		synth->ch = 0;
		return -1;
	}
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED) {
		synth->fn = KEY_DOWN;
		synth->ch = 0;
		return -1;
	}
#endif
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
	                   BUTTON1_DOUBLE_CLICKED)))
		return UI_HANDLED;
	if (u->too_small)
		return UI_HANDLED;
	for (i = 0; i < GW_NSTEPS; i++) {
		if (ev.y == u->bar_y[i] && ev.x >= u->bar_x0[i] &&
		    ev.x < u->bar_x1[i]) {
			if (i == (int)u->w->step)
				return UI_HANDLED;
			char why[1024];

			if (gw_wizard_goto_why(u->w, (gw_step)i, why,
			                       sizeof why) != 0) {
				ui_msg(u, UI_MSG_ERROR, "%s", why);
			} else {
				enter_step(u);
			}
			return UI_HANDLED;
		}
	}
	if (ev.y == u->help_y) {
		size_t j;

		for (j = 0; j < u->help_n; j++)
			if (ev.x >= u->help_x0[j] && ev.x < u->help_x1[j]) {
				*synth = u->help_k[j];
				return -1;
			}
		return UI_HANDLED;
	}
	if (ev.y >= u->content.y && ev.y < u->content.y + u->content.h &&
	    ev.x >= u->content.x && ev.x < u->content.x + u->content.w &&
	    s->mouse != NULL)
		return s->mouse(u, u->content, ev.y - u->content.y,
		                ev.x - u->content.x);
	return UI_HANDLED;
}

static int
ask_quit(ui_ctx *u)
{
	if (!u->w->dirty || u->w->written)
		return 1;
	/* TRANSLATORS: the quit question when answers are not written or
	 * saved; the answer keys stay y and n.  At most 60 cells. */
	return ui_confirm(u, _("Quit without writing? y/n")) == 1;
}

/* Returns the exit status when the wizard ends, -1 to go on. */
static int
act(ui_ctx *u, int flags)
{
	gw_wizard *w = u->w;
	char why[1024];

	if (flags & UI_REDRAW)
		clearok(curscr, TRUE);
	if (flags & UI_FINISH)
		return 0;
	if (flags & UI_QUIT) {
		int yes = ask_quit(u);

		u->redraw = 1;
		if (ui_ending())
			return -1;
		return yes ? 0 : -1;
	}
	if (flags & UI_HELP)
		ui_help(u, u->screens[w->step]);
	if (flags & UI_NEXT) {
		why[0] = '\0';
		if (w->step + 1 >= GW_NSTEPS) {
			/* the write screen handles Enter itself */
		} else if (gw_wizard_next(w, why, sizeof why) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", why[0] ? why :
			       /* TRANSLATORS: fallback when a step refuses to
			        * move on without saying why. */
			       _("This step is not complete yet."));
		} else {
			enter_step(u);
		}
	}
	if (flags & UI_BACK) {
		if (w->step == GW_STEP_WELCOME) {
			/* Esc on the first step leaves, like q */
			return act(u, UI_QUIT);
		}
		if (gw_wizard_back(w) == 0)
			enter_step(u);
	}
	/* a dialog may have painted over the screen */
	u->redraw = 1;
	return -1;
}

static int
run(ui_ctx *u)
{
	for (;;) {
		ui_key k;
		int r, flags, rc;

		if (sig_end)
			return 128 + sig_end;
		if (u->redraw) {
			ui_draw_all(u);
			show(u);
			u->redraw = 0;
		}
		r = ui_getkey(u, &k);
		if (r < 0)
			return 128 + sig_end;
		if (r == 0)
			continue;
		u->redraw = 1;
		u->msg[0] = '\0';
		if (u->too_small) {
			/* only quitting works until the terminal is larger */
			flags = global_key(k);
			if (flags & UI_QUIT) {
				rc = act(u, UI_QUIT);
				if (rc >= 0)
					return rc;
			}
			continue;
		}
		if (ui_key_fn(k, KEY_MOUSE)) {
			flags = mouse_event(u, &k);
			if (flags >= 0) {
				if ((rc = act(u, flags)) >= 0)
					return rc;
				continue;
			}
			/* a click on the help line or the wheel: a key */
		}
		if (ui_key_fn(k, KEY_F(1))) {
			flags = UI_HELP;   /* F1 always opens the help */
		} else {
			flags = u->screens[u->w->step]->key(u, k);
			if (flags == UI_IGNORED)
				flags = global_key(k);
		}
		if ((rc = act(u, flags)) >= 0)
			return rc;
	}
}

static int
locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Long API tasks (reconfigure, upgrade) draw the progress box. */
static void
tui_progress(void *ctx, const char *what, int pct)
{
	ui_progress((ui_ctx *)ctx, what, pct);
}

int
gw_tui_main(const gw_table *t, gw_wizard_start *st, gw_err *e)
{
	static int atexit_done;
	static const ui_screen *const screens[GW_NSTEPS] = {
		&ui_step_welcome, &ui_step_host, &ui_step_gpu, &ui_step_vm,
		&ui_step_mmio, &ui_step_options, &ui_step_review, &ui_step_write
	};
	gw_wizard w;
	ui_ctx u;
	SCREEN *scr;
	const char *nc;
	int rc, i;

	memset(&w, 0, sizeof w);
	if (gw_wizard_init(&w, t, st->answers, e) != 0) {
		gw_runner_close(st->runner);
		st->runner = NULL;
		gw_vs_close(st->vs);
		st->vs = NULL;
		gw_wizard_free(&w);
		return 2;
	}
	if (st->runner) {
		gw_wizard_attach_esxi(&w, st->runner, st->label);
		st->runner = NULL;
	}
	if (st->vs) {
		gw_wizard_attach_vsphere(&w, st->vs, st->label);
		st->vs = NULL;
	}
	if (st->sample && gw_wizard_use_sample(&w, st->sample, e) != 0) {
		gw_wizard_free(&w);
		return 2;
	}
	memset(&u, 0, sizeof u);
	u.w = &w;
	for (i = 0; i < GW_NSTEPS; i++)
		u.screens[i] = screens[i];
	u.utf8 = locale_utf8();
	u.cursor_y = -1;
	gw_wizard_set_progress(&w, tui_progress, &u);

	sig_end = 0;
	sig_winch = 0;
	/* ours before newterm: ncurses then leaves these signals alone */
	signals_install();
	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL) {
		signals_restore();
		gw_wizard_free(&w);
		/* TRANSLATORS: an error line on stderr; %s is $TERM. */
		gw_err_set(e, _("cannot start the screen: the terminal type '%s' is unknown"),
		           getenv("TERM") ? getenv("TERM") : "");
		return 2;
	}
	set_term(scr);
	curses_on = 1;
	if (!atexit_done) {
		atexit(restore_terminal);
		atexit_done = 1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(TICK_MS);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED |
	          BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	          | BUTTON5_PRESSED
#endif
	          , NULL);
	mouseinterval(0);
	nc = getenv("NO_COLOR");
	u.color = has_colors() && !(nc != NULL && *nc != '\0');
	ui_colors_init(u.color);

	enter_step(&u);
	u.redraw = 1;
	rc = run(&u);

	/* the terminal first, then everything else */
	endwin();
	curses_on = 0;
	delscreen(scr);
	signals_restore();
	for (i = 0; i < GW_NSTEPS; i++)
		if (screens[i]->fini)
			screens[i]->fini();
	if (w.scratch)
		/* TRANSLATORS: printed when the wizard ends after practising
		 * on a sample host; %s is a directory. */
		printf(_("The sample host and everything written for it are in %s (remove it when done).\n"),
		       w.scratch);
	gw_wizard_free(&w);
	sig_end = 0;
	return rc;
}
