/* step_welcome.c: step 1, the language and what the operator is doing.
 *
 * Two groups of choices in one list: the language (English / 简体中文,
 * default from the locale or --lang) and the mode (plan offline, this
 * Linux host, an ESXi host over SSH, vCenter/ESXi through the API).  Modes
 * this build cannot do yet are shown dimmed with the wizard's sentence
 * saying so; they cannot be chosen.
 */
#include "draw.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROW_EN, ROW_ZH, ROW_MODE0 };
#define NROWS (ROW_MODE0 + GW_NMODES)

static ui_list list;   /* cur = the focused row */

static int
row_y(int row)
{
	/* language heading, 2 rows, blank, mode heading, modes */
	return row < ROW_MODE0 ? 1 + row : 5 + (row - ROW_MODE0);
}

static void
welcome_enter(ui_ctx *u)
{
	list.n = NROWS;
	list.cur = ui_lang_is_zh() ? ROW_ZH : ROW_EN;
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

static void
welcome_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	int zh = ui_lang_is_zh(), m, y;
	const char *why = NULL;

	/* TRANSLATORS: heading of the language choice; at most 40 cells. */
	dw_put(r.y, r.x, _("Language:"), r.w, ui_attr(UI_C_HEAD));
	radio(u, r.y + row_y(ROW_EN), r.x, r.w, !zh, list.cur == ROW_EN, 0,
	      "English");
	/* the language names are written in their own language; outside
	 * UTF-8 the Chinese one cannot be shown */
	radio(u, r.y + row_y(ROW_ZH), r.x, r.w, zh, list.cur == ROW_ZH,
	      !u->utf8, u->utf8 ? "\xe7\xae\x80\xe4\xbd\x93\xe4\xb8\xad\xe6\x96\x87" :
	      "Simplified Chinese");
	/* TRANSLATORS: heading of the mode choice; at most 60 cells. */
	dw_put(r.y + 4, r.x, _("What are you doing?"), r.w, ui_attr(UI_C_HEAD));
	for (m = 0; m < GW_NMODES; m++) {
		const char *mwhy = NULL;
		int avail = gw_mode_available((gw_mode)m, &mwhy);
		int row = ROW_MODE0 + m;

		radio(u, r.y + row_y(row), r.x, r.w, (int)w->mode == m,
		      list.cur == row, !avail, gw_mode_name((gw_mode)m));
		if (list.cur == row && !avail)
			why = mwhy;
	}
	y = r.y + row_y(ROW_MODE0 + GW_NMODES) + 1;
	if (list.cur == ROW_ZH && !u->utf8) {
		dw_wrap_put(y, r.x + 1, r.w - 1, r.y + r.h - y,
		            /* TRANSLATORS: why Chinese cannot be chosen;
		             * wrapped. */
		            _("Chinese needs a UTF-8 terminal: start gpuwiz with LANG=zh_CN.UTF-8."),
		            ui_attr(UI_C_WARN));
	} else if (why != NULL) {
		dw_wrap_put(y, r.x + 1, r.w - 1, r.y + r.h - y, why,
		            ui_attr(UI_C_WARN));
	} else if (w->af.path != NULL) {
		/* TRANSLATORS: %s is the answers file given with --answers. */
		char *s = gw_xasprintf(_("Answers from %s: every screen is filled in; Enter on each accepts it."),
		                       w->af.path);

		dw_wrap_put(y, r.x + 1, r.w - 1, r.y + r.h - y, s,
		            ui_attr(UI_C_INFO));
		free(s);
	}
}

/* Pick the focused row.  Returns 0 when it could be picked. */
static int
pick(ui_ctx *u)
{
	if (list.cur == ROW_EN || list.cur == ROW_ZH) {
		int zh = list.cur == ROW_ZH;

		if (zh == ui_lang_is_zh())
			return 0;
		if (ui_set_language(u, zh ? "zh_CN" : "en") != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s",
			       _("Chinese needs a UTF-8 terminal: start gpuwiz with LANG=zh_CN.UTF-8."));
			return -1;
		}
		return 0;
	} else {
		gw_mode m = (gw_mode)(list.cur - ROW_MODE0);
		const char *why = NULL;

		/* choosing this Linux host runs its checks the first time */
		if (gw_wizard_set_mode(u->w, m, &why) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", why ? why : "");
			return -1;
		}
		return 0;
	}
}

static int
welcome_key(ui_ctx *u, ui_key k)
{
	list.n = NROWS;
	if (ui_key_fn(k, KEY_UP) || ui_key_btab(k)) {
		list.cur = list.cur > 0 ? list.cur - 1 : NROWS - 1;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_DOWN) || ui_key_tab(k)) {
		list.cur = list.cur + 1 < NROWS ? list.cur + 1 : 0;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_HOME) || ui_key_fn(k, KEY_END)) {
		ui_list_key(&list, k, NROWS);
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
	int row;

	for (row = 0; row < NROWS; row++)
		if (row_y(row) == y) {
			list.cur = row;
			pick(u);
			return UI_HANDLED;
		}
	return UI_HANDLED;
}

static const char *
welcome_help(void)
{
	/* TRANSLATORS: help of step 1, wrapped to about 70 cells. */
	return _("Choose the language of the screens (the default comes from your locale or --lang) "
	         "and what you are doing.\n"
	         "Plan offline: pick the GPUs from the bundled table and write snippets "
	         "(.vmx lines, BOSH, Ops Manager, tile values) and, when you open one, patch a "
	         "local .vmx file with a backup.\n"
	         "Configure this Linux host: gpuwiz checks this host (CPU virtualization, IOMMU, "
	         "kernel command line, GPU drivers) and lists its GPUs to pick from; the "
	         "environment variable GPUWIZ_SYSROOT points it at another root (a copy of /proc "
	         "and /sys).\n"
	         "An ESXi host over SSH, or vCenter/ESXi through the API need their own parts of "
	         "gpuwiz; until this build has them they are shown dimmed with the reason, and "
	         "cannot be chosen.\n"
	         "Space picks the highlighted choice; Enter picks it and goes on.");
}

static size_t
welcome_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	/* TRANSLATORS: key help labels; at most 8 cells each. */
	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	ui_keys_add(out, &n, max, "Space", _("Pick"), sp);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_welcome = {
	GW_STEP_WELCOME, welcome_enter, welcome_draw, welcome_key,
	welcome_mouse, NULL, welcome_help, welcome_keys, NULL
};
