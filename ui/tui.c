/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tui.c: the ncurses wizard's main loop (doc/design.md, section 10).
 *
 * One loop: draw the frame (step list, title, purpose, the current
 * screen, message and key help lines), read one key, hand it to the
 * screen, act on the UI_* flags it returns.  Signal handlers only set
 * flags; the loop turns them into a resize or an exit.  Every exit path
 * ends curses before anything else (atexit as a last resort).
 *
 * Exit status: 0 when the operator quits or finishes; 128 + the signal
 * for SIGINT (130), SIGTERM (143), SIGHUP (129) and SIGQUIT (131: Ctrl-\
 * in cbreak mode would otherwise leave the alternate screen and a hidden
 * cursor); 2 for an error before the screen started (terminal untouched).
 */
#include "tui.h"
#include "draw.h"
#include "screen.h"
#include "step_doctor.h"
#include "connect.h"
#include "wizard_connect.h"
#include "dialog.h"
#include "textesc.h"

#include <errno.h>
#include <locale.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* ---- signals ------------------------------------------------------------ */

static volatile sig_atomic_t sig_end;     /* SIGINT/TERM/HUP/QUIT number */
static volatile sig_atomic_t sig_winch;
static struct sigaction old_int, old_term, old_hup, old_quit, old_winch;
static int curses_on;
/* The exit summary of the last successful write (gw_wizard_exit_summary),
 * kept as the screens are drawn: a change after the write clears the
 * wizard's result, but the files written then are still there. */
static char **exit_summary;

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
	sigaction(SIGQUIT, &sa, &old_quit);
	sigaction(SIGWINCH, &sa, &old_winch);
}

static void
signals_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGWINCH, &old_winch, NULL);
}

/* Last resort for any exit path that skipped the normal one. */
static void
restore_terminal(void)
{
	ui_bracketed_paste(0);   /* the doctor's text area's mode */
	if (curses_on && !isendwin())
		endwin();
	curses_on = 0;
}

int
ui_ending(void)
{
	return sig_end != 0;
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

/* The screen of the current step. */
static const ui_screen *
cur_screen(const ui_ctx *u)
{
	return u->screens[gw_wizard_step(u->w)];
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
	ui_layout(u);
	if (cur_screen(u)->resize)
		cur_screen(u)->resize(u, u->content);
}

static int
input_gone(void)
{
	struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };

	return poll(&pfd, 1, 0) == 1 &&
	       (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
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
	if (r == ERR) {
		/* A timeout, or the terminal is gone: a hangup that came
		 * without SIGHUP (the process holding the other side of the
		 * pty died) leaves poll saying POLLHUP at once and get_wch
		 * failing at once, a busy loop forever.  End as on SIGHUP. */
		if (input_gone()) {
			sig_end = SIGHUP;
			return -1;
		}
		return 0;
	}
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

/* ---- the loop -------------------------------------------------------------- */

static void
enter_step(ui_ctx *u)
{
	const ui_screen *s = cur_screen(u);

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
	const ui_screen *s = cur_screen(u);

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
			if (i == (int)gw_wizard_step(u->w))
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
	const char *pairs[7];
	int r;

	if (!gw_wizard_is(u->w, GW_WIZ_DIRTY) ||
	    gw_wizard_is(u->w, GW_WIZ_WRITTEN))
		return 1;
	if (!gw_wizard_is(u->w, GW_WIZ_SAVABLE))
		/* TRANSLATORS: the quit question when answers are not
		 * written or saved (and cannot be saved yet); the answer
		 * keys stay y and n.  At most 60 cells. */
		return ui_confirm(u, _("Quit without writing? y/n")) == 1;
	pairs[0] = "y";
	/* TRANSLATORS: the answers of the quit question with unsaved
	 * answers (keys y, n and s); at most 16 cells each. */
	pairs[1] = _("Quit");
	pairs[2] = "n";
	pairs[3] = _("Stay");
	pairs[4] = "s";
	pairs[5] = _("Save, then quit");
	pairs[6] = NULL;
	/* TRANSLATORS: the quit question when the answers are neither
	 * written nor saved: its first line as the plain quit question's,
	 * then the offer to save; wrapped at about 68 cells. */
	r = ui_choose(u, _("Quit without writing? y/n\nThe answers are not saved: s saves them to a file first (gpuwiz --answers FILE replays them)."),
	              pairs);
	if (r == 2)
		return ui_save_answers(u);
	return r == 0;
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
		ui_help(u, cur_screen(u));
	if (flags & UI_NEXT) {
		why[0] = '\0';
		if (gw_wizard_step(w) + 1 >= GW_NSTEPS) {
			/* the write screen handles Enter itself */
		} else if (gw_wizard_next(w, why, sizeof why) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", why[0] ? why :
			       /* TRANSLATORS: fallback when a step refuses to
			        * move on without saying why. */
			       _("This step is not complete yet."));
		} else {
			enter_step(u);
			if (ui_doctor_resume(u))   /* the doctor's walk */
				enter_step(u);
		}
	}
	if (flags & UI_BACK) {
		if (gw_wizard_step(w) == GW_STEP_WELCOME) {
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

static void
keep_summary(const gw_wizard *w)
{
	if (!gw_wizard_is(w, GW_WIZ_WRITTEN))
		return;
	gw_strv_free(exit_summary);
	exit_summary = gw_wizard_exit_summary(w);
}

/* The width of the normal terminal in cells for what is printed after
 * curses ended; 0 when stdout is not a terminal (a file or a pipe gets
 * whole lines). */
static int
out_cols(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) ||
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
		return 0;
	return ws.ws_col;
}

/* The cells of s's lead that its wrapped rows line up under: the blanks,
 * then a number ("12. ") or a label padded with blanks ("Written:   ",
 * "已写入：  "); 0 when there is none or it leaves too little room. */
static int
lead_cells(const char *s, int cols)
{
	const char *p = s, *q;
	char *lead;
	int n;

	while (*p == ' ')
		p++;
	q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q > p && q[0] == '.' && q[1] == ' ') {
		q += 2;
	} else {
		q = strstr(p, "  ");   /* a label's padding: two blanks or more */
		if (q == NULL || q == p || strchr(p, ' ') != q ||
		    (q[-1] != ':' &&
		     (q - p < 3 || strncmp(q - 3, "\xef\xbc\x9a", 3) != 0)))
			q = p;   /* no label: its ":" or "：" right before */
	}
	while (*q == ' ')
		q++;
	lead = gw_xstrndup(s, (size_t)(q - s));
	n = gw_text_cells(lead);
	free(lead);
	return n * 2 > cols ? 0 : n;
}

/* Print line s wrapped to the terminal's width cols (dw_wrap_hang: at
 * blanks and between CJK characters, text measured in cells), its rows
 * after the first under the text after its lead; whole when cols is 0. */
static void
print_wrapped(const char *s, int cols)
{
	char **rows;
	size_t n, i;
	int hang;

	if (cols <= 0) {
		printf("%s\n", s);
		return;
	}
	hang = lead_cells(s, cols);
	n = dw_wrap_hang(s, cols, cols - hang, &rows);
	for (i = 0; i < n; i++)
		printf("%*s%s\n", i > 0 ? hang : 0, "", rows[i]);
	if (n == 0)
		printf("\n");
	gw_strs_free(rows, n);
}

/* On the normal terminal after a normal end (not a signal): what was
 * written, the backup and the commands to run next, or one line saying
 * that nothing was, so that an operator who quit knows the VM's .vmx was
 * not touched; then the answers file saved, if one was (ui_save_answers:
 * the review's s or the quit question's).  Each line wrapped to the
 * terminal (print_wrapped). */
static void
print_summary(const ui_ctx *u, int cols)
{
	size_t i;

	keep_summary(u->w);
	if (exit_summary == NULL)
		/* TRANSLATORS: printed on the terminal when the wizard ends
		 * before the write step wrote anything (answers saved on the
		 * review step are not outputs). */
		print_wrapped(_("gpuwiz: no .vmx or output file was written."),
		              cols);
	for (i = 0; exit_summary && exit_summary[i]; i++)
		print_wrapped(exit_summary[i], cols);
	if (u->saved_answers) {
		/* a path from outside: escaped (doc/design.md 5.3) */
		char *p = gw_str_escaped(u->saved_answers), *t;

		/* TRANSLATORS: printed on the terminal at the end when the
		 * answers were saved; %s is the answers file (absolute). */
		t = gw_xasprintf(_("gpuwiz: the answers were saved to %s (gpuwiz --answers FILE replays them)."),
		                 p);
		print_wrapped(t, cols);
		free(t);
		free(p);
	}
}

static int
run(ui_ctx *u, gw_err *e)
{
	int first = 1;

	for (;;) {
		ui_key k;
		int r, flags, rc;

		gw_wizard_action_end(u->w);   /* the last key's action */
		if (sig_end)
			return 128 + sig_end;
		if (u->redraw) {
			keep_summary(u->w);
			ui_draw_all(u);
			ui_show(u);
			u->redraw = 0;
		}
		/* the first screen is drawn without the GPU table; it is
		 * read while the operator reads that screen, before the
		 * first key: a table that cannot be read ends the wizard
		 * here, with nothing done (exit 2, its line on stderr) */
		if (first && gw_wizard_load_table(u->w, e) != 0)
			return 2;
		first = 0;
		r = ui_getkey(u, &k);
		if (r < 0)
			return 128 + sig_end;
		if (r == 0)
			continue;
		u->redraw = 1;
		u->msg[0] = '\0';
		/* one key, one action: the plan is made once, at its end
		 * (the top of the loop, before the screen is drawn) */
		gw_wizard_action_begin(u->w);
		if (u->too_small)
			/* nothing acts unseen: keys wait for a larger terminal
			 * (Ctrl-C and the other signals still end it) */
			continue;
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
			gw_step was = gw_wizard_step(u->w);

			flags = cur_screen(u)->key(u, k);
			if (gw_wizard_step(u->w) != was)
				enter_step(u);   /* the doctor walked on */
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

static const ui_screen *const all_screens[GW_NSTEPS] = {
#define GW_STEP(ID, TITLE, PURPOSE, HELP, CHECK, SCREEN) &SCREEN,
#include "steps.def"
#undef GW_STEP
};

/* Each screen's state, made once for the whole run. */
static void
screens_open(ui_ctx *u)
{
	int i;

	for (i = 0; i < GW_NSTEPS; i++) {
		u->screens[i] = all_screens[i];
		u->state[i] = all_screens[i]->open ? all_screens[i]->open() :
		              NULL;
	}
}

static void
screens_close(ui_ctx *u)
{
	int i;

	for (i = 0; i < GW_NSTEPS; i++) {
		if (u->screens[i]->close)
			u->screens[i]->close(u->state[i]);
		u->state[i] = NULL;
	}
}

/* curses in the terminal: keys, mouse, colours.  NULL when the terminal
 * type is unknown. */
static SCREEN *
curses_start(ui_ctx *u)
{
	static int atexit_done;
	SCREEN *scr = newterm(NULL, stdout, stdin);
	const char *nc;

	if (scr == NULL)
		return NULL;
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
	timeout(UI_TICK_MS);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED |
	          BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	          | BUTTON5_PRESSED
#endif
	          , NULL);
	mouseinterval(0);
	nc = getenv("NO_COLOR");
	u->color = has_colors() && !(nc != NULL && *nc != '\0');
	ui_colors_init(u->color);
	return scr;
}

/* Every sample host's scratch directory made in this session, the one
 * in use last: each holds what was written for it. */
static void
print_scratches(const gw_wizard *w, int cols)
{
	size_t i, n;
	const char *const *left = gw_wizard_scratch_left(w, &n);

	for (i = 0; i <= n; i++) {
		const char *d = i < n ? left[i] : gw_wizard_scratch(w);
		char *say;

		if (d == NULL)
			continue;
		/* TRANSLATORS: printed when the wizard ends after practising
		 * on a sample host; %s is a directory. */
		say = gw_xasprintf(_("The sample host and everything written for it are in %s (remove it when done)."),
		                   d);
		print_wrapped(say, cols);
		free(say);
	}
}

/* The wizard's language before it reads the host (gw_wizard_start). */
static int
start_language(const char *lang)
{
	char *what, *why;
	int rc = ui_use_language(locale_utf8(), lang, &what, &why);

	/* before the screen starts: a warning line */
	if (what != NULL)
		gw_path_warn(what, why);
	free(what);
	free(why);
	return rc;
}

int
gw_tui_main(const gw_table *t, gw_wizard_start *st, gw_err *e)
{
	gw_wizard *w;
	ui_ctx u;
	SCREEN *scr;
	char *refused = NULL;
	int rc, cols;

	st->use_language = start_language;
	if ((w = gw_wizard_new(t, st, e)) == NULL)
		return 2;
	memset(&u, 0, sizeof u);
	u.w = w;
	u.utf8 = locale_utf8();
	u.cursor_y = -1;
	gw_wizard_set_progress(w, tui_progress, &u);

	sig_end = 0;
	sig_winch = 0;
	/* ours before newterm: ncurses then leaves these signals alone */
	signals_install();
	if ((scr = curses_start(&u)) == NULL) {
		signals_restore();
		gw_wizard_delete(w);
		/* TRANSLATORS: an error line on stderr; %s is $TERM. */
		gw_err_set(e, _("cannot start the screen: the terminal type '%s' is unknown"),
		           getenv("TERM") ? getenv("TERM") : "");
		return 2;
	}
	/* the language gw_wizard_new chose (in use since), else the
	 * locale's */
	if (gw_wizard_language(w) == NULL ||
	    ui_set_language(&u, gw_wizard_language(w), &refused) != 0)
		gw_wizard_set_language(w, ui_lang_is_zh() ? "zh_CN" : "en");
	free(refused);   /* warned before the screen started */
	screens_open(&u);
	enter_step(&u);
	/* the answers file's API host: its box, for the password */
	if (gw_wizard_connect_pending(w) != GW_NMODES) {
		ui_draw_all(&u);
		if (ui_connect_mode(&u, gw_wizard_connect_pending(w)) == 0)
			enter_step(&u);   /* the welcome screen's focus on it */
	}
	if (gw_wizard_error(w, GW_ERR_HOST))
		ui_msg(&u, UI_MSG_ERROR, "%s", gw_wizard_error(w, GW_ERR_HOST));
	u.redraw = 1;
	rc = run(&u, e);

	/* the terminal first, then everything else */
	ui_bracketed_paste(0);
	endwin();
	curses_on = 0;
	delscreen(scr);
	signals_restore();
	screens_close(&u);
	cols = out_cols();
	if (rc == 0)
		print_summary(&u, cols);
	free(u.saved_answers);
	gw_strv_free(exit_summary);
	exit_summary = NULL;
	print_scratches(w, cols);
	gw_wizard_delete(w);
	sig_end = 0;
	return rc;
}
