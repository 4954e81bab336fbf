/* step_welcome.c: step 1, the language and what the operator is doing.
 *
 * Two groups of choices in one list: the language (English / 简体中文,
 * default from the locale or --lang) and the mode (plan offline, this
 * Linux host, an ESXi host over SSH, vCenter/ESXi through the API).  Modes
 * this build cannot do yet are shown dimmed with the wizard's sentence
 * saying so; they cannot be chosen.  Below them the sample hosts
 * (data/hosts) to practise on: picking one builds it in a scratch
 * directory and runs the wizard against it (gw_wizard_use_sample).  On a
 * Linux machine without a GPU the first sample is highlighted.
 *
 * The first choice under "What are you doing?" starts from a failure:
 * the doctor (step_doctor.c), a detour drawn in this screen's place until
 * it walks to the review or Esc brings the list back.  The two languages
 * share a row, so that the list still ends on row 22 at 80x24 with the
 * sample hosts.
 */
#include "connect.h"
#include "draw.h"
#include "screen.h"
#include "step_doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROW_EN, ROW_ZH, ROW_DOCTOR, ROW_MODE0 };
/* The languages' columns on their row. */
#define LANG_W 20
#define ROW_SAMPLE0 (ROW_MODE0 + GW_NMODES)
#define NROWS(st) (ROW_SAMPLE0 + (int)(st)->nsamples)

typedef struct welcome_st {
	ui_list list;             /* cur = the focused row */
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

/* Rows of the notes under modes before mode m (gw_wizard_mode_note). */
static int
notes_before(int m)
{
	int i, n = 0;

	for (i = 0; i < m; i++)
		n += gw_wizard_mode_note((gw_mode)i, 0) != NULL;
	return n;
}

static int
row_y(int row)
{
	/* language heading, the languages, blank, mode heading, the
	 * doctor, modes (each with its note row, if any), blank, sample
	 * heading, samples */
	if (row < ROW_DOCTOR)
		return 1;
	if (row == ROW_DOCTOR)
		return 4;
	if (row < ROW_SAMPLE0)
		return 5 + (row - ROW_MODE0) + notes_before(row - ROW_MODE0);
	return 5 + GW_NMODES + notes_before(GW_NMODES) + 2 +
	       (row - ROW_SAMPLE0);
}

/* The row of the sample in use, or -1. */
static int
sample_row(const gw_wizard *w, const welcome_st *st)
{
	const char *name = gw_wizard_sample_name(w);
	size_t k;

	for (k = 0; name != NULL && k < st->nsamples; k++)
		if (strcmp(st->samples[k].name, name) == 0)
			return ROW_SAMPLE0 + (int)k;
	return -1;
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

static void
welcome_enter(ui_ctx *u)
{
	const gw_wizard *w = u->w;
	welcome_st *st = wst(u);
	int first = !st->samples_read;

	/* back on the welcome screen: the doctor's walk is over */
	ui_doctor_close(u, st->doctor);
	read_samples(st);
	st->list.n = NROWS(st);
	/* the cursor starts on the marked choice: the sample in use, else
	 * the mode */
	st->list.cur = sample_row(w, st);
	if (st->list.cur < 0)
		st->list.cur = ROW_MODE0 + (int)gw_wizard_mode(w);
	/* the first time, on a plain start: a machine without a GPU has
	 * nothing to configure; offer the practice hosts */
	if (first && st->nsamples > 0 && gw_wizard_answers(w)->path == NULL &&
	    gw_wizard_scratch(w) == NULL &&
	    !gw_wizard_can(w, GW_CAN_PROBE) &&
	    !gw_wizard_machine_has_gpu(w)) {
		st->no_gpu_here = 1;
		st->list.cur = ROW_SAMPLE0;
	}
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

	snprintf(buf, sizeof buf, "%s %s", on ? "(*)" : "( )", text);
	if (focused)
		dw_fill(y, x, w, a);
	dw_put(y, x + 1, buf, w - 1, a);
}

/* The text under the list for the focused row, from the row after the
 * list's blank (or right after the list when that leaves one row). */
static void
welcome_info(ui_ctx *u, ui_rect r, const welcome_st *st, const char *why)
{
	const gw_wizard *w = u->w;
	int y = r.y + row_y(NROWS(st) - 1) + 2, rows;
	char *s = NULL;
	const char *t = NULL;
	int color = UI_C_INFO;

	if (r.y + r.h - y < 2)
		y--;
	rows = r.y + r.h - y;
	if (st->list.cur == ROW_ZH && !u->utf8) {
		/* TRANSLATORS: why Chinese cannot be chosen; wrapped. */
		t = _("Chinese needs a UTF-8 terminal: start gpuwiz with LANG=zh_CN.UTF-8.");
		color = UI_C_WARN;
	} else if (why != NULL) {
		t = why;
		color = UI_C_WARN;
	} else if (st->list.cur == ROW_DOCTOR) {
		/* TRANSLATORS: under the focused doctor choice; wrapped, at
		 * most 150 cells. */
		t = _("Paste the error of a failed power-on or a crash, or give the VM's vmware.log: gpuwiz names the cause and pre-fills the fix for the review.");
	} else if (st->list.cur >= ROW_MODE0 && st->list.cur < ROW_SAMPLE0 &&
	           gw_wizard_mode_note((gw_mode)(st->list.cur - ROW_MODE0),
	                               1) != NULL) {
		t = gw_wizard_mode_note((gw_mode)(st->list.cur - ROW_MODE0), 1);
	} else if (gw_wizard_scratch(w) != NULL &&
	           (st->list.cur < ROW_SAMPLE0 ||
	            st->list.cur == sample_row(w, st))) {
		/* TRANSLATORS: %s is the scratch directory of a sample host. */
		s = gw_xasprintf(_("Practising on a sample host: everything is written under %s."),
		                 gw_wizard_scratch(w));
	} else if (st->list.cur >= ROW_SAMPLE0 && st->no_gpu_here) {
		/* TRANSLATORS: under the focused sample host on a machine
		 * without a GPU; wrapped. */
		t = _("This machine has no GPU to configure. Practise on a sample host: gpuwiz builds it from real captures in a scratch directory and runs every step against it; nothing here is changed.");
	} else if (st->list.cur >= ROW_SAMPLE0) {
		/* the row's title may end in the sign: here it is whole.
		 * TRANSLATORS: the focused sample host's title (%1$s) and
		 * what picking it does (%2$s), as two sentences. */
		s = gw_xasprintf(_("%s. %s"),
		                 sample_title(st->samples[st->list.cur -
		                                          ROW_SAMPLE0].title),
		                 /* TRANSLATORS: under the focused sample host,
		                  * after its title; wrapped. */
		                 _("gpuwiz builds this host from real captures in a scratch directory and runs every step against it; nothing on this machine is changed."));
	} else if (gw_wizard_answers(w)->path != NULL) {
		/* TRANSLATORS: %s is the answers file given with --answers. */
		s = gw_xasprintf(_("Answers from %s: every screen is filled in; Enter on each accepts it."),
		                 gw_wizard_answers(w)->path);
	}
	if (s != NULL || t != NULL)
		dw_wrap_put(y, r.x + 1, r.w - 1, rows, s ? s : t,
		            ui_attr(color));
	free(s);
}

static void
welcome_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	welcome_st *st = wst(u);
	int zh = ui_lang_is_zh(), m;
	const char *why = NULL;

	if (ui_doctor_shown(st->doctor)) {
		ui_doctor_draw(u, st->doctor, r);
		return;
	}
	/* TRANSLATORS: heading of the language choice; at most 40 cells. */
	dw_put(r.y, r.x, _("Language:"), r.w, ui_attr(UI_C_HEAD));
	radio(u, r.y + row_y(ROW_EN), r.x, LANG_W, !zh, st->list.cur == ROW_EN,
	      0, "English");
	/* the language names are written in their own language; outside
	 * UTF-8 the Chinese one cannot be shown */
	radio(u, r.y + row_y(ROW_ZH), r.x + LANG_W, r.w - LANG_W, zh,
	      st->list.cur == ROW_ZH, !u->utf8,
	      u->utf8 ? "\xe7\xae\x80\xe4\xbd\x93\xe4\xb8\xad\xe6\x96\x87" :
	      "Simplified Chinese");
	/* TRANSLATORS: heading of the mode choice; at most 60 cells. */
	dw_put(r.y + 3, r.x, _("What are you doing?"), r.w, ui_attr(UI_C_HEAD));
	/* TRANSLATORS: the welcome screen's choice that opens the doctor;
	 * at most 72 cells. */
	radio(u, r.y + row_y(ROW_DOCTOR), r.x, r.w, 0,
	      st->list.cur == ROW_DOCTOR, 0,
	      _("Fix a failed power-on or a crash: paste the error text or give vmware.log"));
	for (m = 0; m < GW_NMODES; m++) {
		const char *mwhy = NULL;
		int avail = gw_wizard_mode_available(w, (gw_mode)m, &mwhy);
		int row = ROW_MODE0 + m;

		radio(u, r.y + row_y(row), r.x, r.w,
		      (int)gw_wizard_mode(w) == m,
		      st->list.cur == row, !avail, gw_mode_name((gw_mode)m));
		if (st->list.cur == row && !avail)
			why = mwhy;
		if (gw_wizard_mode_note((gw_mode)m, 0) != NULL)
			dw_put(r.y + row_y(row) + 1, r.x + 6,
			       gw_wizard_mode_note((gw_mode)m, 0), r.w - 6,
			       ui_attr(UI_C_DIM));
	}
	if (st->nsamples > 0) {
		size_t k;

		/* TRANSLATORS: heading of the sample hosts; at most 60
		 * cells. */
		dw_put(r.y + row_y(ROW_SAMPLE0) - 1, r.x,
		       _("Or practise on a sample host (no hardware needed):"), r.w,
		       ui_attr(UI_C_HEAD));
		for (k = 0; k < st->nsamples; k++) {
			int row = ROW_SAMPLE0 + (int)k;
			char *t = gw_xasprintf("%s  %s", st->samples[k].name,
			                       sample_title(st->samples[k].title));

			radio(u, r.y + row_y(row), r.x, r.w,
			      row == sample_row(w, st), st->list.cur == row, 0, t);
			free(t);
		}
	}
	welcome_info(u, r, st, why);
}

/* Pick the focused row.  Returns 0 when it could be picked. */
static int
pick(ui_ctx *u)
{
	welcome_st *st = wst(u);

	if (st->list.cur == ROW_DOCTOR) {
		ui_doctor_open(u, st->doctor);
		return 1;   /* not a choice to go on with: the doctor is shown */
	} else if (st->list.cur == ROW_EN || st->list.cur == ROW_ZH) {
		int zh = st->list.cur == ROW_ZH;

		if (zh == ui_lang_is_zh())
			return 0;
		if (ui_set_language(u, zh ? "zh_CN" : "en") != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s",
			       _("Chinese needs a UTF-8 terminal: start gpuwiz with LANG=zh_CN.UTF-8."));
			return -1;
		}
		return 0;
	} else if (st->list.cur >= ROW_SAMPLE0) {
		size_t k = (size_t)(st->list.cur - ROW_SAMPLE0);
		gw_err e;

		if (k >= st->nsamples)
			return -1;
		if (st->list.cur == sample_row(u->w, st))
			return 0;   /* in use already: keep what was done */
		/* TRANSLATORS: progress while a sample host is built. */
		ui_progress(u, _("Building the sample host..."), -1);
		u->repaint = UI_REPAINT_FULL;
		e.msg[0] = '\0';
		if (gw_wizard_use_sample(u->w, st->samples[k].name, &e) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
			return -1;
		}
		/* TRANSLATORS: after picking a sample host; %s is its name. */
		ui_msg(u, UI_MSG_OK, _("Sample host %s ready."), st->samples[k].name);
		return 0;
	} else {
		/* a route: chosen, or its connection box (connect.c) */
		return ui_connect_mode(u, (gw_mode)(st->list.cur - ROW_MODE0));
	}
}

static int
welcome_key(ui_ctx *u, ui_key k)
{
	welcome_st *st = wst(u);

	if (ui_doctor_shown(st->doctor))
		return ui_doctor_key(u, st->doctor, k);
	st->list.n = NROWS(st);
	if (ui_key_fn(k, KEY_UP) || ui_key_btab(k)) {
		st->list.cur = st->list.cur > 0 ? st->list.cur - 1 :
		               NROWS(st) - 1;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_DOWN) || ui_key_tab(k)) {
		st->list.cur = st->list.cur + 1 < NROWS(st) ?
		               st->list.cur + 1 : 0;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_HOME) || ui_key_fn(k, KEY_END)) {
		ui_list_key(&st->list, k, NROWS(st));
		return UI_HANDLED;
	}
	if (ui_key_space(k)) {
		pick(u);
		return UI_HANDLED;
	}
	if (ui_key_enter(k))
		return pick(u) == 0 ? UI_NEXT : UI_HANDLED;
	return UI_IGNORED;
}

static int
welcome_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	welcome_st *st = wst(u);
	int row;

	(void)r;
	if (ui_doctor_shown(st->doctor))
		return UI_HANDLED;
	for (row = 0; row < NROWS(st); row++)
		if (row_y(row) == y &&
		    (row > ROW_ZH || (x >= LANG_W) == (row == ROW_ZH))) {
			st->list.cur = row;
			pick(u);
			return UI_HANDLED;
		}
	return UI_HANDLED;
}

/* The help of step 1, with the doctor's choice after the first
 * paragraph's topics (kept in the screen's state: the language may
 * change between two calls). */
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
	                         * step 1, after the modes'; wrapped to about
	                         * 70 cells. */
	                        _("A sample host lets you practise without the "
	                          "hardware: gpuwiz builds it from real captures "
	                          "in a scratch directory (also: gpuwiz "
	                          "--sample-host NAME) and every write goes "
	                          "there.\nSpace picks the highlighted choice; "
	                          "Enter picks it and goes on."),
	                        /* TRANSLATORS: a paragraph of the help of
	                         * step 1, wrapped to about 70 cells. */
	                        _("Fix a failed power-on or a crash: paste the error text or give the VM's vmware.log; gpuwiz names the cause, its fix and its source, and where the fix is a change of the .vmx it fills it in and opens the review (F1 there says more)."));
	return st->help;
}

static size_t
welcome_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	if (ui_doctor_shown(wst(u)->doctor))
		return ui_doctor_keys(u, wst(u)->doctor, out, max);
	/* TRANSLATORS: key help labels; at most 8 cells each. */
	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	ui_keys_add(out, &n, max, "Space", _("Pick"), sp);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_welcome = {
	GW_STEP_WELCOME, welcome_open, welcome_close, welcome_enter,
	welcome_draw, welcome_key, welcome_mouse, NULL, welcome_help,
	welcome_keys
};
