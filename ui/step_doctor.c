/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_doctor.c: the doctor, the welcome screen's detour that starts
 * from a failure (step_doctor.h; doc/design.md, section 9, "The
 * doctor").
 *
 * Two pages.  The text area takes text as people give it, its line
 * breaks kept: a paste between ESC [ 200 ~ and ESC [ 201 ~ (the
 * terminal's bracketed paste, xterm's mode 2004, is on while it is
 * shown); a paste from a terminal without it, which arrives as keys
 * (after each newline the keys already waiting are read as text, so no
 * part of a paste acts as a command); and lines typed one by one, Enter
 * starting a new line.  Ctrl-D, or Enter on an empty line, runs the
 * diagnosis; Enter after a single line naming a file reads that file at
 * once (the model's rule, wizard_doctor.c).  The findings
 * page shows each finding's cause, fix (in the wizard's words:
 * gw_wizard_finding_fix), source and log line, the VM found beside the
 * log, and the next action; Enter takes it: the review with the fixes
 * pre-filled, the VM step first when no .vmx is known, or the normal
 * steps.
 */
#include "draw.h"
#include "screen.h"
#include "step_doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DC_OFF, DC_INPUT, DC_RESULT };

struct ui_doctor {
	int page;               /* DC_* */
	gw_buf text;            /* what was typed and pasted */
	gw_wizard_doctor *d;
	ui_doctor_scroll sc;    /* the findings page */
};

/* The terminal's mode, like curses' own state: one terminal per run. */
static int paste_on;

void
ui_bracketed_paste(int on)
{
	if (on == paste_on)
		return;
	fputs(on ? "\033[?2004h" : "\033[?2004l", stdout);
	fflush(stdout);
	paste_on = on;
}

ui_doctor *
ui_doctor_new(void)
{
	ui_doctor *dc = gw_xcalloc(1, sizeof *dc);

	gw_buf_init(&dc->text);
	dc->d = gw_wizard_doctor_new();
	return dc;
}

void
ui_doctor_free(ui_doctor *dc)
{
	if (dc == NULL)
		return;
	gw_buf_free(&dc->text);
	gw_wizard_doctor_free(dc->d);
	free(dc);
}

static void
show_page(ui_doctor *dc, int page)
{
	dc->page = page;
	ui_bracketed_paste(page == DC_INPUT);
}

void
ui_doctor_open(ui_ctx *u, ui_doctor *dc)
{
	(void)u;
	show_page(dc, DC_INPUT);
}

int
ui_doctor_shown(const ui_doctor *dc)
{
	return dc != NULL && dc->page != DC_OFF;
}

void
ui_doctor_close(ui_ctx *u, ui_doctor *dc)
{
	(void)u;
	if (dc == NULL)
		return;
	show_page(dc, DC_OFF);
	gw_wizard_doctor_stop(dc->d);
}

/* ---- the text area ------------------------------------------------------ */

static void
add_char(ui_ctx *u, ui_doctor *dc, wint_t c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	if (dc->text.len + n > GW_DIAG_MAX_INPUT) {
		/* TRANSLATORS: %zu is a size in bytes. */
		ui_msg(u, UI_MSG_ERROR, _("The text area holds at most %zu bytes: give the vmware.log's path instead."),
		       (size_t)GW_DIAG_MAX_INPUT);
		return;
	}
	gw_buf_add(&dc->text, b, n);
}

/* One character off the end (UTF-8). */
static void
back_char(ui_doctor *dc)
{
	gw_buf *b = &dc->text;

	while (b->len > 0 && ((unsigned char)b->data[b->len - 1] & 0xc0) == 0x80)
		b->len--;
	if (b->len > 0)
		b->len--;
	if (b->data)
		b->data[b->len] = '\0';
}

/* A character the text keeps: printable, or a tab. */
static int
text_char(ui_key k)
{
	return k.fn == 0 && (k.ch == L'\t' || (k.ch >= 0x20 && k.ch != 127));
}

/* After an ESC: the rest of a CSI sequence ("200~") into seq.  1 when
 * one followed, 0 when nothing did (the Esc key itself), -1 for another
 * key. */
static int
read_csi(ui_ctx *u, char *seq, size_t n)
{
	ui_key k;
	size_t i = 0;

	seq[0] = '\0';
	if (ui_getkey(u, &k) != 1)
		return 0;
	if (!ui_key_is(k, L'['))
		return -1;
	while (i + 1 < n && ui_getkey(u, &k) == 1 && k.fn == 0) {
		seq[i++] = (char)k.ch;
		if (k.ch == L'~' || (k.ch >= L'@' && k.ch <= L'z' && k.ch != L'['))
			break;
	}
	seq[i] = '\0';
	return 1;
}

/* How long after a newline the next key of a paste may come: a terminal
 * without bracketed paste writes the pasted text at once, a person does
 * not type the next key within this. */
#define PASTE_GAP_MS 40

static void
text_cut(ui_doctor *dc, size_t len)
{
	if (len < dc->text.len) {
		dc->text.len = len;
		dc->text.data[len] = '\0';
	}
}

/* The line being typed (after the last newline) is empty. */
static int
line_empty(const ui_doctor *dc)
{
	return dc->text.len == 0 || dc->text.data[dc->text.len - 1] == '\n';
}

static void paste(ui_ctx *u, ui_doctor *dc);

/* After a newline: the keys that follow at once are the rest of a paste
 * the terminal sent as keys, so they are text (Enter a line break), never
 * commands.  1 when any came. */
static int
paste_rest(ui_ctx *u, ui_doctor *dc)
{
	ui_key k;
	char seq[12];
	int got = 0;

	timeout(PASTE_GAP_MS);
	while (ui_getkey(u, &k) == 1) {
		got = 1;
		if (ui_key_enter(k))
			add_char(u, dc, L'\n');
		else if (text_char(k))
			add_char(u, dc, k.ch);
		else if (ui_key_esc(k) && read_csi(u, seq, sizeof seq) == 1 &&
		         strcmp(seq, "200~") == 0)
			paste(u, dc);
	}
	timeout(UI_TICK_MS);
	return got;
}

/* Inside a bracketed paste: every key is text, Enter a line break, up
 * to ESC [ 201 ~ (or two seconds without a byte: a paste that lost its
 * end mark). */
static void
paste(ui_ctx *u, ui_doctor *dc)
{
	ui_key k;
	char seq[12];
	int r, idle = 0;

	while (idle < 10) {
		r = ui_getkey(u, &k);
		if (r < 0)
			return;
		if (r == 0) {
			idle++;
			continue;
		}
		idle = 0;
		if (ui_key_esc(k)) {
			if (read_csi(u, seq, sizeof seq) == 1 &&
			    strcmp(seq, "201~") == 0)
				return;
		} else if (ui_key_enter(k)) {
			add_char(u, dc, L'\n');
		} else if (text_char(k)) {
			add_char(u, dc, k.ch);
		}
	}
}

static void
diagnose(ui_ctx *u, ui_doctor *dc)
{
	gw_err e;

	if (dc->text.len == 0) {
		ui_msg(u, UI_MSG_ERROR, "%s",
		       _("Paste the error text or type the vmware.log's path first."));
		return;
	}
	e.msg[0] = '\0';
	if (gw_wizard_doctor_text(dc->d, u->w, dc->text.data, dc->text.len,
	                          &e) < 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return;
	}
	dc->sc.top = 0;
	show_page(dc, DC_RESULT);
}

/* Enter: a new line, the rest of a paste, or the end of the input: on an
 * empty line, or after a single line naming a file. */
static void
input_enter(ui_ctx *u, ui_doctor *dc)
{
	size_t len = dc->text.len;
	int was_empty = line_empty(dc);

	if (len > 0)
		add_char(u, dc, L'\n');
	if (paste_rest(u, dc))
		return;
	if (was_empty ||
	    gw_wizard_doctor_names_file(dc->text.data, len)) {
		text_cut(dc, len);
		diagnose(u, dc);
	}
}

static int
input_key(ui_ctx *u, ui_doctor *dc, ui_key k)
{
	char seq[12];
	int r;

	if (ui_key_esc(k)) {
		r = read_csi(u, seq, sizeof seq);
		if (r == 1 && strcmp(seq, "200~") == 0)
			paste(u, dc);
		else if (r != 1)
			ui_doctor_close(u, dc);
		return UI_HANDLED;
	}
	if (ui_key_enter(k)) {
		input_enter(u, dc);
		return UI_HANDLED;
	}
	if (ui_key_is(k, UI_CTRL('d'))) {
		diagnose(u, dc);
		return UI_HANDLED;
	}
	if (ui_key_backspace(k)) {
		back_char(dc);
		return UI_HANDLED;
	}
	if (ui_key_is(k, UI_CTRL('u'))) {
		text_cut(dc, 0);
		return UI_HANDLED;
	}
	if (text_char(k)) {
		add_char(u, dc, k.ch);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

/* The last rows rows of the text from (y, x) in w cells, each line
 * wrapped (a log line is longer than the box: its end says most); the
 * cursor at its end. */
static void
draw_tail(ui_ctx *u, const gw_buf *b, int y, int x, int w, int rows)
{
	const char *s = b->len ? b->data : "";
	char **out = gw_xcalloc((size_t)rows, sizeof *out);
	size_t end = b->len, start;
	int nv = 0, i, used = 0;

	/* the lines from the last one back, until the rows are full */
	while (nv < rows) {
		char **l, *line, *c;
		size_t n, k;

		start = end;
		while (start > 0 && s[start - 1] != '\n')
			start--;
		line = gw_xstrndup(s + start, end - start);
		for (c = line; *c; c++)
			if ((unsigned char)*c < 0x20)
				*c = ' ';
		n = dw_wrap(line, w - 1, &l);
		if (n == 0)
			out[rows - 1 - nv++] = gw_xstrdup("");
		for (k = n; k-- > 0 && nv < rows;)
			out[rows - 1 - nv++] = gw_xstrdup(l[k]);
		gw_strs_free(l, n);
		free(line);
		if (start == 0)
			break;
		end = start - 1;
	}
	for (i = 0; i < nv; i++)
		used = dw_put(y + i, x, out[rows - nv + i], w - 1, A_NORMAL);
	for (i = 0; i < rows; i++)
		free(out[i]);
	free(out);
	u->cursor_y = y + (nv > 0 ? nv - 1 : 0);
	u->cursor_x = x + (nv > 0 ? used : 0);
}

static void
input_draw(ui_ctx *u, ui_doctor *dc, ui_rect r)
{
	int y = r.y, bh;
	size_t k, lines = 0;
	char *nl, *nb;

	/* TRANSLATORS: heading of the doctor's text area; at most 60
	 * cells. */
	dw_put(y, r.x, _("Fix a failed power-on or a crash"), r.w,
	       ui_attr(UI_C_HEAD));
	y++;
	/* TRANSLATORS: above the doctor's text area; wrapped, 3 rows of
	 * about 76 cells.  Ctrl-D is the key that diagnoses (^D on the key
	 * line). */
	y += dw_wrap_put(y, r.x + 1, r.w - 1, 3,
	                 _("Paste the error text (a vSphere task error, lines of a vmware.log or of a BOSH director's log, the guest's log) or type the vmware.log's path. Enter starts a new line; Ctrl-D or Enter on an empty line diagnoses."),
	                 A_NORMAL);
	bh = r.y + r.h - 1 - y;
	if (bh < 3)
		return;
	dw_box(y, r.x, bh, r.w, ui_attr(UI_C_BOX));
	draw_tail(u, &dc->text, y + 1, r.x + 1, r.w - 2, bh - 2);
	if (dc->text.len == 0)
		return;
	/* the lines given: the one being typed counts once it has text */
	for (k = 0; k < dc->text.len; k++)
		lines += dc->text.data[k] == '\n';
	lines += !line_empty(dc);
	/* TRANSLATORS: under the doctor's text area: how many lines. */
	nl = gw_xasprintf(P_("%zu line", "%zu lines", lines), lines);
	/* TRANSLATORS: under the doctor's text area: how many bytes. */
	nb = gw_xasprintf(P_("%zu byte", "%zu bytes", dc->text.len),
	                  dc->text.len);
	/* TRANSLATORS: under the doctor's text area: "3 lines, 120
	 * bytes" (the two texts above). */
	dw_printf(r.y + r.h - 1, r.x + 1, r.w - 1, ui_attr(UI_C_DIM),
	          _("%s, %s"), nl, nb);
	free(nl);
	free(nb);
}

/* Enter on the findings: the review with the fixes pre-filled (the loop
 * enters the step the wizard moved to), or the normal steps. */
static int
take_action(ui_ctx *u, ui_doctor *dc)
{
	char why[1024];
	int rc = gw_wizard_doctor_apply(dc->d, u->w, why, sizeof why);

	if (rc < 0) {
		ui_doctor_close(u, dc);
		return UI_NEXT;
	}
	show_page(dc, DC_OFF);
	if (rc > 0 && gw_wizard_step(u->w) == GW_STEP_VM &&
	    gw_wizard_vmx(u->w) == NULL)
		ui_msg(u, UI_MSG_INFO, "%s", gw_wizard_can(u->w, GW_CAN_VMS) ?
		       /* TRANSLATORS: on the VM step of a host, after the
		        * doctor. */
		       _("Open the VM that failed from the host's list; Enter then goes straight to the review.") :
		       /* TRANSLATORS: on the VM step, after the doctor. */
		       _("Give the VM's .vmx (the VM that failed); Enter then goes straight to the review."));
	else if (rc > 0 && gw_wizard_doctor_tanzu(dc->d) &&
	         gw_wizard_step(u->w) == GW_STEP_GPU)
		ui_msg(u, UI_MSG_INFO, "%s", why);   /* the GPU model asked */
	else if (rc > 0)
		ui_msg(u, UI_MSG_ERROR, "%s", why);
	return UI_HANDLED;
}

static int
result_key(ui_ctx *u, ui_doctor *dc, ui_key k)
{
	int page = dc->sc.rows > 1 ? dc->sc.rows - 1 : 1;

	if (ui_key_esc(k) || ui_key_backspace(k)) {
		show_page(dc, DC_INPUT);
		return UI_HANDLED;
	}
	if (ui_key_enter(k))
		return take_action(u, dc);
	if (ui_key_fn(k, KEY_UP))
		dc->sc.top--;
	else if (ui_key_fn(k, KEY_DOWN))
		dc->sc.top++;
	else if (ui_key_fn(k, KEY_PPAGE))
		dc->sc.top -= page;
	else if (ui_key_fn(k, KEY_NPAGE) || ui_key_space(k))
		dc->sc.top += page;
	else if (ui_key_fn(k, KEY_HOME))
		dc->sc.top = 0;
	else if (ui_key_fn(k, KEY_END))
		dc->sc.top = dc->sc.nrows;
	else
		return UI_IGNORED;
	return UI_HANDLED;
}

void
ui_doctor_draw(ui_ctx *u, ui_doctor *dc, ui_rect r)
{
	if (dc->page == DC_INPUT)
		input_draw(u, dc, r);
	else if (dc->page == DC_RESULT)
		ui_doctor_findings_draw(u, dc->d, r, &dc->sc);
}

int
ui_doctor_key(ui_ctx *u, ui_doctor *dc, ui_key k)
{
	if (dc->page == DC_INPUT)
		return input_key(u, dc, k);
	if (dc->page == DC_RESULT)
		return result_key(u, dc, k);
	return UI_IGNORED;
}

const char *
ui_doctor_help(ui_ctx *u, const ui_doctor *dc)
{
	(void)u;
	(void)dc;
	/* TRANSLATORS: help of the doctor, wrapped to about 70 cells. */
	return _("The doctor starts from a failure: a VM that did not power on, or a crash in the guest.\n"
	         "Paste the error text into the box: the vSphere Client's task error, the lines of the VM's vmware.log around the failure, a BOSH director's vSphere CPI log, or the guest's log (the NCCL error of a vLLM pod). Pasted lines keep their line breaks, with or without the terminal's bracketed paste, and nothing of a paste acts as a key. Lines may be typed one by one too: Enter starts a new line. Ctrl-D, or Enter on an empty line, starts the diagnosis; the box shows the last lines given. Or type the path of the VM's vmware.log (it lives beside the .vmx, in the VM's directory on the datastore) and press Enter: gpuwiz reads the file, and when exactly one .vmx lies beside it, opens that VM.\n"
	         "The doctor names each failure it knows with its cause, its fix and the source of the fact (KB articles, NVIDIA documents). When the fix is a change of the .vmx (the 64-bit MMIO size, the memory reservation, unified memory for vGPUs) it fills in the answers and Enter opens the review, where every change is shown before anything is written; without a known .vmx the VM step asks for it first. A BOSH director's log (a VM of the Tanzu tile that BOSH deleted after DevicePowerOn failed) takes the Tanzu route: the GPU step asks for the GPU model, the review shows the tile's values, the BOSH VM extension and the Ops Manager JSON, and the next step is Apply Changes in Ops Manager. A fix on the host or in the guest is shown with what to do next.\n"
	         "When nothing is recognised, Enter goes on with the normal steps.\n"
	         "Keys: Ctrl-D diagnoses; Ctrl-U empties the box; Up/Down and PgUp/PgDn scroll the findings; Esc goes back (from the findings to the box, from the box to the welcome screen).");
}

size_t
ui_doctor_keys(ui_ctx *u, const ui_doctor *dc, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key enter = { 0, L'\n' }, esc = { 0, 27 }, f1 = { KEY_F(1), 0 };
	ui_key cu = { 0, UI_CTRL('u') }, f10 = { KEY_F(10), 0 };
	ui_key cd = { 0, UI_CTRL('d') };
	ui_key down = { KEY_NPAGE, 0 };

	(void)u;
	if (dc->page == DC_INPUT) {
		/* TRANSLATORS: key help labels of the doctor; at most 8
		 * cells each. */
		ui_keys_add(out, &n, max, "^D", _("Diagnose"), cd);
		/* TRANSLATORS: key help label, at most 8 cells: Enter
		 * starts a new line in the doctor's box. */
		ui_keys_add(out, &n, max, "Enter", _("New line"), enter);
		ui_keys_add(out, &n, max, "^U", _("Clear"), cu);
		ui_keys_add(out, &n, max, "Esc", _("Back"), esc);
		ui_keys_add(out, &n, max, "F1", _("Help"), f1);
		ui_keys_add(out, &n, max, "F10", _("Quit"), f10);
		return n;
	}
	/* TRANSLATORS: key help label, at most 8 cells. */
	ui_keys_add(out, &n, max, "PgDn", _("Scroll"), down);
	return ui_keys_common(out, n, max, 0);
}

/* ---- the walk, for the main loop ----------------------------------------- */

int
ui_doctor_resume(ui_ctx *u)
{
	ui_doctor *dc = ui_welcome_doctor(u);
	gw_step s = gw_wizard_step(u->w);
	char why[1024];

	if (dc == NULL || !gw_wizard_doctor_pending(dc->d))
		return 0;
	if (gw_wizard_doctor_resume(dc->d, u->w, why, sizeof why) > 0 &&
	    why[0] != '\0')
		ui_msg(u, UI_MSG_ERROR, "%s", why);
	return gw_wizard_step(u->w) != s;
}
