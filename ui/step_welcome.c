/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_welcome.c: step 1, the language and what the operator is doing.
 *
 * The language is one row (English / 简体中文, default from --lang or
 * the locale), shown above both lists of the screen: Left/Right switch
 * it at once from any row, so reaching it never moves the choice.
 * Under "What are you doing?" one row per choice, a menu: the (*) is on
 * the highlighted row and Enter goes on with it.  The choices: the doctor (a failed power-on or crash;
 * step_doctor.c, a detour drawn in this screen's place until it walks to
 * the review or Esc brings the list back), a VM's .vmx offline
 * (GW_ACT_VM), a Tanzu/BOSH VM type offline (GW_ACT_TANZU), this Linux
 * host, an ESXi host over SSH, vCenter/ESXi through the API, and a
 * sample host to practise on, whose row opens the list of the samples
 * (data/hosts), each with its whole description: picking one builds it
 * in a scratch directory and runs the wizard against it
 * (gw_wizard_use_sample).  A route this build cannot reach yet is dimmed
 * with the wizard's sentence saying why; Enter on it says so.  On a
 * Linux machine without a GPU the sample row is highlighted first.
 */
#include "connect.h"
#include "dialog.h"
#include "wizard_connect.h"
#include "draw.h"
#include "screen.h"
#include "step_doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows of the main list: the language, then the choices. */
enum {
	ROW_LANG, ROW_DOCTOR, ROW_VM, ROW_TANZU, ROW_LINUX, ROW_SSH, ROW_API,
	ROW_SAMPLE, NROWS
};
#define ROW_CHOICE0 ROW_DOCTOR
/* The languages' columns on their row. */
#define LANG_W 20
/* The first row of the choices (under the language and the heading). */
#define CHOICE_Y 4
/* The samples' list: its heading's row, its first sample's row. */
#define SAMPLES_HEAD_Y 3
#define SAMPLES_Y 5

typedef struct welcome_st {
	ui_list list;             /* cur = the focused row (ROW_*) */
	int choice;               /* the row marked (*) among the choices */
	int in_samples;           /* the samples' list is shown */
	ui_list samples_list;     /* cur = the focused (and marked) sample */
	int sample_y[64];         /* where each sample's row was drawn */
	gw_sample_info *samples;
	size_t nsamples;
	int samples_read;
	int no_gpu_here;          /* no GPU on this machine: offer the samples */
	ui_doctor *doctor;        /* the detour from a failure */
	char *help;               /* the last help text made */
} welcome_st;

static welcome_st *
wst(ui_ctx *u)
{
	return u->state[GW_STEP_WELCOME];
}

/* A sample host's title (data/hosts/NAME/host.ini), translated.  The
 * titles are listed here for xgettext. */
static const char *
sample_title(const char *t)
{
	static const char *const known[] = {
		N_("AMD home lab, GeForce RTX 4060 Ti sharing its IOMMU group with a USB controller"),
		N_("ESXi 8.0U2 server, two L40S (one not yet enabled for passthrough), three VMs"),
		N_("Intel server, two L40S ready for passthrough (vfio-pci)"),
		N_("Intel workstation, VT-d on in the BIOS but the IOMMU off in the kernel (no intel_iommu=on)"),
	};

	(void)known;
	return _(t);
}

/* The route and activity each choice row takes (the doctor's and the
 * samples' are set by the doctor and by the sample picked). */
static const struct {
	gw_mode mode;
	gw_activity act;
} row_route[NROWS] = {
	[ROW_DOCTOR] = { GW_MODE_OFFLINE, GW_ACT_VM },
	[ROW_VM] = { GW_MODE_OFFLINE, GW_ACT_VM },
	[ROW_TANZU] = { GW_MODE_OFFLINE, GW_ACT_TANZU },
	[ROW_LINUX] = { GW_MODE_LINUX, GW_ACT_VM },
	[ROW_SSH] = { GW_MODE_ESXI_SSH, GW_ACT_VM },
	[ROW_API] = { GW_MODE_VSPHERE, GW_ACT_VM },
	[ROW_SAMPLE] = { GW_MODE_OFFLINE, GW_ACT_VM },
};

static gw_mode
row_mode(int row)
{
	return row_route[row].mode;
}

static int
row_is_route(int row)
{
	return row == ROW_LINUX || row == ROW_SSH || row == ROW_API;
}

/* The choice row's label (translated). */
static const char *
row_label(int row)
{
	switch (row) {
	case ROW_DOCTOR:
		/* TRANSLATORS: the welcome screen's choice that opens the
		 * doctor; at most 72 cells. */
		return _("Fix a failed power-on or a crash: paste the error text or give vmware.log");
	case ROW_VM:
		/* TRANSLATORS: welcome screen choice (a VM's .vmx, planned
		 * offline); at most 72 cells. */
		return _("Patch a VM's .vmx offline, or get the lines to paste");
	case ROW_TANZU:
		/* TRANSLATORS: welcome screen choice (a Tanzu/BOSH VM type,
		 * planned offline); at most 72 cells. */
		return _("A Tanzu/BOSH VM type, offline: tile, BOSH, Ops Manager");
	case ROW_SAMPLE:
		/* TRANSLATORS: welcome screen choice that opens the list of
		 * the sample hosts; at most 72 cells. */
		return _("Practise on a sample host (no hardware needed)");
	default:
		return gw_mode_name(row_mode(row));
	}
}

/* The row of the sample in use, or -1. */
static int
sample_index(const gw_wizard *w, const welcome_st *st)
{
	const char *name = gw_wizard_sample_name(w);
	size_t k;

	for (k = 0; name != NULL && k < st->nsamples; k++)
		if (strcmp(st->samples[k].name, name) == 0)
			return (int)k;
	return -1;
}

/* The choice the wizard stands on: a sample host in use (its route is
 * the sample's), else the route, offline by its activity. */
static int
chosen_row(const gw_wizard *w, const welcome_st *st)
{
	gw_mode m = gw_wizard_mode(w);
	int r;

	for (r = ROW_VM; r < ROW_SAMPLE; r++) {
		if (row_route[r].mode != m)
			continue;
		if (!row_is_route(r)) {   /* offline: by the activity */
			if (row_route[r].act == gw_wizard_activity(w))
				return r;
			continue;
		}
		return sample_index(w, st) >= 0 ? ROW_SAMPLE : r;
	}
	return ROW_VM;
}

/* The screen line of main-list row (relative to the content): the
 * language heading, the languages, blank, the choices' heading, the
 * choices (a route with a note has it on the line after). */
static int
row_y(int row)
{
	int r, y = CHOICE_Y;

	if (row == ROW_LANG)
		return 1;
	for (r = ROW_CHOICE0; r < row; r++)
		y += 1 + (row_is_route(r) &&
		          gw_wizard_mode_note(row_mode(r), 0) != NULL);
	return y;
}

static void
read_samples(welcome_st *st)
{
	gw_err e;

	if (st->samples_read)
		return;
	st->samples_read = 1;
	if (gw_wizard_samples(&st->samples, &st->nsamples, &e) != 0) {
		st->samples = NULL;
		st->nsamples = 0;
	}
}

static void *
welcome_open(void)
{
	welcome_st *st = gw_xcalloc(1, sizeof(welcome_st));

	st->doctor = ui_doctor_new();
	return st;
}

ui_doctor *
ui_welcome_doctor(ui_ctx *u)
{
	welcome_st *st = wst(u);

	return st ? st->doctor : NULL;
}

/* Show the samples' list, the focus (and the mark) on the one in use,
 * else the first. */
static void
open_samples(ui_ctx *u, welcome_st *st)
{
	int k = sample_index(u->w, st);

	st->in_samples = 1;
	st->samples_list.n = (int)st->nsamples;
	st->samples_list.cur = k >= 0 ? k : 0;
	st->samples_list.top = 0;
}

static void
welcome_enter(ui_ctx *u)
{
	const gw_wizard *w = u->w;
	welcome_st *st = wst(u);
	int first = !st->samples_read;

	/* back on the welcome screen: the doctor's walk is over */
	ui_doctor_close(u, st->doctor);
	read_samples(st);
	st->list.n = NROWS;
	st->in_samples = 0;
	/* the focus starts on the choice the wizard stands on; a sample in
	 * use shows its list with the focus on it */
	st->choice = chosen_row(w, st);
	if (st->choice == ROW_SAMPLE && st->nsamples > 0)
		open_samples(u, st);
	/* the first time, on a plain start: a machine without a GPU has
	 * nothing to configure; offer the practice hosts */
	if (first && st->nsamples > 0 && gw_wizard_answers(w)->path == NULL &&
	    gw_wizard_scratch(w) == NULL &&
	    !gw_wizard_can(w, GW_CAN_PROBE) &&
	    !gw_wizard_machine_has_gpu(w)) {
		st->no_gpu_here = 1;
		st->choice = ROW_SAMPLE;
	}
	st->list.cur = st->choice;
}

static void
welcome_close(void *state)
{
	welcome_st *st = state;

	gw_wizard_samples_free(st->samples, st->nsamples);
	ui_doctor_free(st->doctor);
	free(st->help);
	free(st);
}

static void
radio(ui_ctx *u, int y, int x, int w, int on, int focused, int dim,
      const char *text)
{
	attr_t a = focused ? ui_attr(UI_C_SEL) : dim ? ui_attr(UI_C_DIM) :
	           A_NORMAL;
	char buf[512];

	(void)u;
	snprintf(buf, sizeof buf, "%s %s", on ? "(*)" : "( )", text);
	if (focused)
		dw_fill(y, x, w, a);
	dw_put(y, x + 1, buf, w - 1, a);
}

/* The row that the text under the list speaks of: the focused choice. */
static const char *
info_text(ui_ctx *u, const welcome_st *st, char **own, int *color)
{
	const gw_wizard *w = u->w;
	int row = st->list.cur;
	const char *why = NULL;

	*own = NULL;
	*color = UI_C_INFO;
	if (row_is_route(row) &&
	    !gw_wizard_mode_available(w, row_mode(row), &why)) {
		/* a route whose box connects: what Enter does, not a fault */
		if (gw_wizard_connect_form(row_mode(row)) == NULL)
			*color = UI_C_WARN;
		return why;
	}
	switch (row) {
	case ROW_DOCTOR:
		/* TRANSLATORS: under the focused doctor choice; wrapped, at
		 * most 150 cells. */
		return _("Paste the error of a failed power-on or a crash, or give the VM's vmware.log: gpuwiz names the cause and pre-fills the fix for the review.");
	case ROW_VM:
		/* TRANSLATORS: under the focused choice "Patch a VM's .vmx
		 * offline"; wrapped, at most 230 cells. */
		return _("Pick the GPUs from gpuwiz's table and open the VM's .vmx: gpuwiz patches it with a backup beside it, or writes the lines to paste into it. Nothing is read from a host.");
	case ROW_TANZU:
		/* TRANSLATORS: under the focused choice "A Tanzu/BOSH VM
		 * type"; wrapped, at most 230 cells. */
		return _("Pick the GPUs from gpuwiz's table: gpuwiz writes the tile's VM type fields, the BOSH VM extension and the Ops Manager JSON for them; BOSH makes the VMs, so no .vmx is needed.");
	case ROW_SAMPLE:
		if (st->no_gpu_here)
			/* TRANSLATORS: under the focused sample choice on a
			 * machine without a GPU; wrapped. */
			return _("This machine has no GPU to configure. Practise on a sample host: gpuwiz builds it from real captures in a scratch directory and runs every step against it; nothing here is changed.");
		/* TRANSLATORS: under the focused sample choice; wrapped. */
		return _("Enter lists the sample hosts. gpuwiz builds the one you pick from real captures in a scratch directory and runs every step against it; nothing on this machine is changed.");
	default:
		break;
	}
	if (row_is_route(row) && gw_wizard_mode_note(row_mode(row), 1) != NULL)
		return gw_wizard_mode_note(row_mode(row), 1);
	if (gw_wizard_answers(w)->path != NULL) {
		/* TRANSLATORS: %s is the answers file given with --answers. */
		*own = gw_xasprintf(_("Answers from %s: every screen is filled in; Enter on each accepts it."),
		                    gw_wizard_answers(w)->path);
		return *own;
	}
	return NULL;
}

/* Text wrapped from line y to the end of r (a blank line before it when
 * there is room). */
static void
text_below(ui_rect r, int y, const char *t, int color)
{
	int rows;

	if (t == NULL)
		return;
	if (r.h - (y + 1) >= dw_wrap_rows(t, r.w - 1))
		y++;
	rows = r.h - y;
	if (rows > 0)
		dw_wrap_put(r.y + y, r.x + 1, r.w - 1, rows, t, ui_attr(color));
}

/* The language row under its heading, at the top of either list (never
 * focused: Left/Right switch it from any row). */
static void
draw_lang(ui_ctx *u, ui_rect r)
{
	int zh = ui_lang_is_zh();
	char *head;

	/* TRANSLATORS: heading of the language choice; at most 40 cells. */
	head = gw_xasprintf("%s  %s", _("Language:"),
	                    /* TRANSLATORS: after the heading of the
	                     * language choice: the keys that switch it
	                     * from any row; at most 30 cells. */
	                    _("(Left/Right)"));
	dw_put(r.y, r.x, head, r.w, ui_attr(UI_C_HEAD));
	free(head);
	radio(u, r.y + row_y(ROW_LANG), r.x, LANG_W, !zh, 0, 0, "English");
	/* the language names are written in their own language; outside
	 * UTF-8 the Chinese one cannot be shown */
	radio(u, r.y + row_y(ROW_LANG), r.x + LANG_W, r.w - LANG_W, zh, 0,
	      !u->utf8,
	      u->utf8 ? "\xe7\xae\x80\xe4\xbd\x93\xe4\xb8\xad\xe6\x96\x87" :
	      "Simplified Chinese");
}

static void
draw_main(ui_ctx *u, ui_rect r, welcome_st *st)
{
	const gw_wizard *w = u->w;
	int row, y = 0, color;
	char *own;
	const char *t;

	draw_lang(u, r);
	/* TRANSLATORS: heading of the choices; at most 60 cells. */
	dw_put(r.y + 3, r.x, _("What are you doing?"), r.w, ui_attr(UI_C_HEAD));
	for (row = ROW_CHOICE0; row < NROWS; row++) {
		/* a route that connects from its box is not dimmed */
		int avail = !row_is_route(row) ||
		            gw_wizard_mode_available(w, row_mode(row), NULL) ||
		            gw_wizard_connect_form(row_mode(row)) != NULL;
		const char *note = row_is_route(row) ?
		                   gw_wizard_mode_note(row_mode(row), 0) : NULL;

		if (row == ROW_SAMPLE && st->nsamples == 0)
			continue;
		y = row_y(row);
		radio(u, r.y + y, r.x, r.w, st->choice == row,
		      st->list.cur == row, !avail, row_label(row));
		if (note != NULL)
			dw_put(r.y + ++y, r.x + 6, note, r.w - 6,
			       ui_attr(UI_C_DIM));
	}
	t = info_text(u, st, &own, &color);
	text_below(r, y + 1, t, color);
	free(own);
}

/* The samples' list: each sample's name and its whole description,
 * wrapped under it; then what picking one does. */
static void
draw_samples(ui_ctx *u, ui_rect r, welcome_st *st)
{
	const gw_wizard *w = u->w;
	int y = SAMPLES_Y, in_use = sample_index(w, st);
	int cur = st->samples_list.cur;
	size_t k;
	char *s;

	draw_lang(u, r);
	/* TRANSLATORS: heading of the sample hosts' list; at most 78
	 * cells. */
	dw_put(r.y + SAMPLES_HEAD_Y, r.x,
	       _("Practise on a sample host (no hardware needed):"),
	       r.w, ui_attr(UI_C_HEAD));
	for (k = 0; k < st->nsamples && k < 64; k++) {
		int foc = st->samples_list.cur == (int)k;
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		gw_err e;
		/* the description read when first shown (host.ini); a
		 * file that cannot be read: its line in its place */
		char *t = gw_xasprintf("%s  %s", st->samples[k].name,
		                       gw_wizard_sample_describe(&st->samples[k], &e) == 0
		                       ? sample_title(st->samples[k].title) : e.msg);
		int n = dw_wrap_rows(t, r.w - 5), i;

		if (y + n > r.h)
			break;
		st->sample_y[k] = y;
		for (i = 0; foc && i < n; i++)
			dw_fill(r.y + y + i, r.x, r.w, a);
		dw_put(r.y + y, r.x + 1, foc ? "(*)" : "( )", 3, a);
		dw_wrap_put(r.y + y, r.x + 5, r.w - 5, n, t, a);
		free(t);
		y += n;
	}
	for (; k < 64; k++)
		st->sample_y[k] = -1;
	if (in_use >= 0 && cur != in_use && cur >= 0 &&
	    (size_t)cur < st->nsamples &&
	    gw_wizard_sample_leaves_answers(w, st->samples[cur].name))
		/* TRANSLATORS: under the sample hosts' list when the focus
		 * left the answers file's sample; %1$s is that sample, %2$s
		 * the focused one. */
		s = gw_xasprintf(_("%1$s is the answers file's host. Enter asks before leaving it for %2$s: what the file chose there (its VM, GPUs and host changes) would be dropped."),
		                 st->samples[in_use].name, st->samples[cur].name);
	else if (in_use >= 0 && gw_wizard_scratch(w) != NULL)
		/* TRANSLATORS: %s is the scratch directory of a sample host. */
		s = gw_xasprintf(_("Practising on a sample host: everything is written under %s."),
		                 gw_wizard_scratch(w));
	else
		/* TRANSLATORS: under the sample hosts' list; wrapped. */
		s = gw_xstrdup(_("gpuwiz builds the host you pick from real captures in a scratch directory and runs every step against it; nothing on this machine is changed."));
	text_below(r, y, s, UI_C_INFO);
	free(s);
}

static void
welcome_draw(ui_ctx *u, ui_rect r)
{
	welcome_st *st = wst(u);

	if (ui_doctor_shown(st->doctor)) {
		ui_doctor_draw(u, st->doctor, r);
		return;
	}
	if (st->in_samples)
		draw_samples(u, r, st);
	else
		draw_main(u, r, st);
}

/* Switch the language to zh (1) or English (0).  Returns 0 when it is
 * in use now. */
static int
pick_language(ui_ctx *u, int zh)
{
	char *refused;

	if (zh == ui_lang_is_zh())
		return 0;
	if (ui_set_language(u, zh ? "zh_CN" : "en", &refused) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", refused ? refused :
		       _("Chinese needs a UTF-8 terminal: start gpuwiz with LANG=zh_CN.UTF-8."));
		free(refused);
		return -1;
	}
	return 0;
}

/* The focused sample: build it (unless in use) and use it.  Returns 0
 * when it is in use now. */
static int
pick_sample(ui_ctx *u, welcome_st *st)
{
	size_t k = (size_t)st->samples_list.cur;
	gw_err e;

	if (k >= st->nsamples)
		return -1;
	if ((int)k == sample_index(u->w, st) &&
	    chosen_row(u->w, st) == ROW_SAMPLE)
		return 0;   /* in use already: keep what was done */
	if (gw_wizard_sample_leaves_answers(u->w, st->samples[k].name)) {
		/* TRANSLATORS: %1$s a sample host, %2$s the answers file's
		 * sample host; a yes/no question, No the default. */
		char *q = gw_xasprintf(_("Use the sample host %1$s instead of %2$s, the answers file's host? What the file chose on %2$s (its VM, GPUs and host changes) is dropped."),
		                       st->samples[k].name,
		                       gw_wizard_sample_name(u->w));
		int yes = ui_confirm_no(u, q);

		free(q);
		if (yes != 1)
			return -1;
	}
	/* TRANSLATORS: progress while a sample host is built. */
	ui_progress(u, _("Building the sample host..."), -1);
	u->repaint = UI_REPAINT_FULL;
	e.msg[0] = '\0';
	if (gw_wizard_use_sample(u->w, st->samples[k].name, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return -1;
	}
	gw_wizard_set_activity(u->w, GW_ACT_VM);
	/* TRANSLATORS: after picking a sample host; %s is its name. */
	ui_msg(u, UI_MSG_OK, _("Sample host %s ready."), st->samples[k].name);
	return 0;
}

/* Enter on the SSH and API rows: the route as it stands, or its
 * connection box (connect.c) when no host is attached yet.  Returns 0
 * when the route is chosen. */
static int
pick_remote(ui_ctx *u, gw_mode m)
{
	if (ui_connect_mode(u, m) != 0)
		return -1;
	gw_wizard_set_activity(u->w, GW_ACT_VM);
	return 0;
}

/* Act on the marked choice.  Returns 0 when the wizard may go on with
 * it, 1 when it opened something in this screen (the doctor, the
 * samples' list), -1 when it could not be chosen (a message says why). */
static int
pick(ui_ctx *u, welcome_st *st)
{
	const char *why = NULL;

	switch (st->choice) {
	case ROW_DOCTOR:
		ui_doctor_open(u, st->doctor);
		return 1;
	case ROW_SAMPLE:
		if (st->nsamples == 0)
			return -1;
		open_samples(u, st);
		return 1;
	case ROW_SSH:
	case ROW_API:
		return pick_remote(u, row_mode(st->choice));
	default:
		break;
	}
	/* offline (an activity) or this Linux host, whose checks run the
	 * first time it is chosen */
	if (gw_wizard_set_mode(u->w, row_mode(st->choice), &why) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", why ? why : "");
		return -1;
	}
	gw_wizard_set_activity(u->w, row_route[st->choice].act);
	return 0;
}

/* The next shown choice row after (dir 1) or before (-1) row, wrapping
 * around (the language row is no stop: Left/Right switch it). */
static int
step_row(const welcome_st *st, int row, int dir)
{
	do
		row = (row + dir + NROWS) % NROWS;
	while (row == ROW_LANG || (row == ROW_SAMPLE && st->nsamples == 0));
	return row;
}

/* Left/Right: the language, from any row of either list. */
static int
lang_key(ui_ctx *u, ui_key k)
{
	if (!ui_key_fn(k, KEY_LEFT) && !ui_key_fn(k, KEY_RIGHT))
		return 0;
	pick_language(u, ui_key_fn(k, KEY_RIGHT));
	return 1;
}

static int
samples_key(ui_ctx *u, welcome_st *st, ui_key k)
{
	ui_list *l = &st->samples_list;

	l->n = (int)st->nsamples;
	if (lang_key(u, k))
		return UI_HANDLED;
	if (ui_key_esc(k) || ui_key_backspace(k)) {
		st->in_samples = 0;
		return UI_HANDLED;
	}
	if (ui_key_tab(k) || ui_key_btab(k)) {
		l->cur = (l->cur + (ui_key_tab(k) ? 1 : l->n - 1)) % l->n;
		return UI_HANDLED;
	}
	if (ui_list_key(l, k, l->n))
		return UI_HANDLED;
	if (ui_key_space(k)) {
		pick_sample(u, st);
		return UI_HANDLED;
	}
	if (ui_key_enter(k))
		return pick_sample(u, st) == 0 ? UI_NEXT : UI_HANDLED;
	return UI_IGNORED;
}

static int
welcome_key(ui_ctx *u, ui_key k)
{
	welcome_st *st = wst(u);
	int r;

	if (ui_doctor_shown(st->doctor))
		return ui_doctor_key(u, st->doctor, k);
	if (st->in_samples)
		return samples_key(u, st, k);
	st->list.n = NROWS;
	if (lang_key(u, k))
		return UI_HANDLED;
	if (ui_key_fn(k, KEY_UP) || ui_key_btab(k) || ui_key_fn(k, KEY_DOWN) ||
	    ui_key_tab(k)) {
		int dir = ui_key_fn(k, KEY_UP) || ui_key_btab(k) ? -1 : 1;

		st->list.cur = step_row(st, st->list.cur, dir);
		st->choice = st->list.cur;   /* a menu: (*) follows */
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_HOME) || ui_key_fn(k, KEY_END) ||
	    ui_key_fn(k, KEY_PPAGE) || ui_key_fn(k, KEY_NPAGE)) {
		/* the choices as a list of their own (the language row is
		 * not one): Home/PgUp the first, End/PgDn the last */
		ui_list c = { 0 };

		c.n = NROWS - ROW_CHOICE0 - (st->nsamples == 0);
		c.cur = st->list.cur == ROW_LANG ? 0 :
		        st->list.cur - ROW_CHOICE0;
		ui_list_key(&c, k, c.n);
		st->list.cur = st->choice = ROW_CHOICE0 + c.cur;
		return UI_HANDLED;
	}
	if (ui_key_space(k)) {
		pick(u, st);
		return UI_HANDLED;
	}
	if (ui_key_enter(k)) {
		r = pick(u, st);
		return r == 0 ? UI_NEXT : UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
welcome_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	welcome_st *st = wst(u);
	int row;
	size_t k;

	(void)r;
	if (ui_doctor_shown(st->doctor))
		return UI_HANDLED;
	if (y == row_y(ROW_LANG)) {   /* above either list */
		pick_language(u, x >= LANG_W);
		return UI_HANDLED;
	}
	if (st->in_samples) {
		for (k = 0; k < st->nsamples && k < 64; k++) {
			size_t j = k + 1;
			int end = j < st->nsamples && j < 64 && st->sample_y[j] >= 0 ?
			          st->sample_y[j] : st->sample_y[k] + 1;

			if (st->sample_y[k] >= 0 && y >= st->sample_y[k] &&
			    y < end) {
				st->samples_list.cur = (int)k;
				pick_sample(u, st);
			}
		}
		return UI_HANDLED;
	}
	for (row = ROW_CHOICE0; row < NROWS; row++)
		if (row_y(row) == y) {
			st->list.cur = st->choice = row;
			pick(u, st);
			return UI_HANDLED;
		}
	return UI_HANDLED;
}

/* The help of step 1, with the sample hosts' and the doctor's paragraphs
 * after the routes' (kept in the screen's state: the language may change
 * between two calls). */
static const char *
welcome_help(ui_ctx *u)
{
	welcome_st *st = wst(u);

	if (ui_doctor_shown(st->doctor))
		return ui_doctor_help(u, st->doctor);
	free(st->help);
	st->help = gw_xasprintf("%s\n%s\n%s",
	                        gw_wizard_step_help(u->w, GW_STEP_WELCOME),
	                        /* TRANSLATORS: paragraphs of the help of
	                         * step 1, after the routes'; wrapped to about
	                         * 70 cells. */
	                        _("A sample host lets you practise without the "
	                          "hardware: Enter on its row lists them, Up/Down "
	                          "choose one and Enter builds it from real captures "
	                          "in a scratch directory (also: gpuwiz "
	                          "--sample-host NAME) and goes on; every write goes "
	                          "there. Esc brings the first list back."),
	                        /* TRANSLATORS: a paragraph of the help of
	                         * step 1, wrapped to about 70 cells. */
	                        _("Fix a failed power-on or a crash: paste the error text or give the VM's vmware.log; gpuwiz names the cause, its fix and its source, and where the fix is a change of the .vmx it fills it in and opens the review (F1 there says more)."));
	return st->help;
}

static size_t
welcome_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	welcome_st *st = wst(u);
	size_t n = 0;
	ui_key down = { KEY_DOWN, 0 }, right = { KEY_RIGHT, 0 };

	if (ui_doctor_shown(st->doctor))
		return ui_doctor_keys(u, st->doctor, out, max);
	/* TRANSLATORS: key help labels; at most 8 cells each. */
	ui_keys_add(out, &n, max, "Up/Dn", _("Choose"), down);
	/* TRANSLATORS: key help label (Left/Right switch the language);
	 * at most 8 cells. */
	ui_keys_add(out, &n, max, "Lt/Rt", _("Language"), right);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_welcome = {
	GW_STEP_WELCOME, welcome_open, welcome_close, welcome_enter,
	welcome_draw, welcome_key, welcome_mouse, NULL, welcome_help,
	welcome_keys
};
