/* step_mmio.c: step 5, the 64-bit MMIO window.  Shows the plan's
 * calculation step by step (the rule and, where the table knows them, the
 * BARs), the numbers it came to, and a field for the size: empty means the
 * recommendation; a size below the rule needs a yes to a question. */
#include "draw.h"
#include "field.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The calculation keeps at least this many rows next to the findings. */
#define MIN_CALC 3

typedef struct mmio_st {
	ui_field size;
	int top;         /* first calculation line shown */
	int calc_page;   /* calculation rows shown (PgUp/PgDn) */
	uint64_t conf_gb;    /* the size below the rule confirmed last */
	uint64_t conf_rule;  /* and the rule it was below */
} mmio_st;

static mmio_st *
mst(ui_ctx *u)
{
	return u->state[GW_STEP_MMIO];
}

static void *
mmio_open(void)
{
	mmio_st *st = gw_xcalloc(1, sizeof *st);

	st->calc_page = 5;
	return st;
}

static void
mmio_close(void *state)
{
	mmio_st *st = state;

	ui_field_free(&st->size);
	free(st);
}

static uint64_t
mmio_answer(const gw_wizard *w)
{
	return gw_wizard_answers(w)->a.mmio_gb;
}

static void field_from_answer(ui_ctx *u);

static void
mmio_enter(ui_ctx *u)
{
	mmio_st *st = mst(u);

	st->size.digits_only = 0;   /* refused on Enter, with a message */
	st->size.max = 10;
	field_from_answer(u);
	st->top = 0;
}

/* The plan's explanation lines from row y, wrapped, scrolled with
 * PgUp/PgDn, in calc_h rows; returns the rows used. */
static int
draw_calc(ui_ctx *u, ui_rect r, int y, const gw_plan *p, int calc_h)
{
	mmio_st *st = mst(u);
	gw_buf b;
	char **lines;
	size_t n, s;
	int i, used;

	gw_buf_init(&b);
	for (s = 0; s < p->nsteps; s++) {
		gw_buf_puts(&b, p->steps[s]);
		gw_buf_puts(&b, "\n");
	}
	n = dw_wrap(b.data ? b.data : "", r.w - 2, &lines);
	if (n > 0 && lines[n - 1][0] == '\0') {
		n--;
		free(lines[n]);
	}
	if (st->top > (int)n - calc_h)
		st->top = (int)n - calc_h;
	if (st->top < 0)
		st->top = 0;
	for (i = 0; i < calc_h && st->top + i < (int)n; i++)
		dw_put(r.y + y + i, r.x + 2, lines[st->top + i], r.w - 2,
		       A_NORMAL);
	if (st->top > 0)
		dw_put(r.y + y, r.x + r.w - 1, "^", 1, ui_attr(UI_C_DIM));
	if (st->top + calc_h < (int)n)
		dw_put(r.y + y + calc_h - 1, r.x + r.w - 1, "v", 1,
		       ui_attr(UI_C_DIM));
	used = (int)n < calc_h ? (int)n : calc_h;
	dw_free_lines(lines, n);
	gw_buf_free(&b);
	return used;
}

/* "label  N GB" (or text when N is 0 and text is not NULL). */
static void
draw_number(ui_rect r, int y, int lw, const char *label, uint64_t gb,
            const char *text, attr_t a)
{
	char buf[256];

	dw_put(r.y + y, r.x, label, lw, A_BOLD);
	if (gb || text == NULL)
		/* TRANSLATORS: a size in GB ("256 GB"). */
		snprintf(buf, sizeof buf, _("%llu GB"), (unsigned long long)gb);
	else
		snprintf(buf, sizeof buf, "%s", text);
	dw_put(r.y + y, r.x + lw, buf, r.w - lw, a);
}

/* Rows: the heading, the calculation, a blank, the four numbers, a blank,
 * the size field, then this step's findings (a size below the rule, ...).
 * The findings get the rows they need first, so that a warning is never
 * cut off: the calculation gets what is left (at least MIN_CALC rows; it
 * scrolls with Up/Down/PgUp/PgDn), and the blank rows go when even that
 * is too tight (3-row message at 80x24).  Returns the field's row. */
static int
draw_plan(ui_ctx *u, ui_rect r, const gw_plan *p, unsigned mmio)
{
	/* TRANSLATORS: label of the rule's result; at most 24 cells. */
	const char *l_rule = _("Rule (KB 323402):");
	/* TRANSLATORS: label of the BAR-based need; at most 24 cells. */
	const char *l_bar = _("BAR need:");
	/* TRANSLATORS: label of the size in the .vmx; at most 24 cells. */
	const char *l_old = _("Already in the .vmx:");
	/* TRANSLATORS: label of the size written; at most 24 cells. */
	const char *l_new = _("Size to write:");
	const char *labs[4];
	int lw = 0, i, y = 0, calc_h, gap = 1;

	labs[0] = l_rule; labs[1] = l_bar; labs[2] = l_old; labs[3] = l_new;
	for (i = 0; i < 4; i++)
		if (gw_text_cells(labs[i]) > lw)
			lw = gw_text_cells(labs[i]);
	lw += 1;
	calc_h = r.h - 8 - ui_findings_rows(u, r.w, mmio);
	if (calc_h < MIN_CALC) {
		gap = 0;
		calc_h += 2;
	}
	if (calc_h < MIN_CALC)
		calc_h = r.h - 6 >= MIN_CALC ? MIN_CALC :
		         r.h - 6 > 1 ? r.h - 6 : 1;
	mst(u)->calc_page = calc_h;
	/* TRANSLATORS: heading of the calculation lines. */
	dw_put(r.y + y++, r.x, _("Calculation:"), r.w, ui_attr(UI_C_HEAD));
	y += draw_calc(u, r, y, p, calc_h);
	y += gap;
	draw_number(r, y++, lw, l_rule, p->rule_gb, NULL, A_NORMAL);
	draw_number(r, y++, lw, l_bar, p->bar_gb,
	            /* TRANSLATORS: the BAR sizes are not known. */
	            _("unknown (no BAR sizes for these GPUs)"), A_NORMAL);
	draw_number(r, y++, lw, l_old, p->existing_gb, _("none"), A_NORMAL);
	/* the answer */
	draw_number(r, y++, lw, l_new, p->mmio_gb, NULL, ui_attr(UI_C_PASS));
	return y + gap;
}

static void
mmio_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	const gw_plan *p = gw_wizard_plan(w);
	const char *err = gw_wizard_error(w, GW_ERR_PLAN);
	/* the sizing findings ("mmio-*") */
	const unsigned mmio = GW_TOPIC_BIT(GW_TOPIC_SIZING);
	int i, fy;

	r = ui_rect_cap(r);   /* readable columns at 200x50 */

	if (p == NULL) {
		dw_wrap_put(r.y, r.x, r.w, r.h, err ? err :
		            /* TRANSLATORS: no plan and no reason given. */
		            _("No plan yet: choose the GPUs first."),
		            ui_attr(UI_C_MSG_ERR));
		fy = r.h - 1;
	} else {
		fy = draw_plan(u, r, p, mmio);
	}
	/* TRANSLATORS: label of the MMIO size field; at most 24 cells. */
	i = dw_put(r.y + fy, r.x, _("Your size in GB:"), 24, A_BOLD) + 1;
	ui_field_draw(u, &mst(u)->size, r.y + fy, r.x + i, 8, 1);
	/* TRANSLATORS: after the MMIO size field; at most 44 cells. */
	dw_put(r.y + fy, r.x + i + 9, _("(empty: the recommended size)"),
	       r.w - i - 9, ui_attr(UI_C_DIM));
	if (p && fy + 1 < r.h)
		ui_draw_findings(u, r, fy + 1, mmio, r.h - fy - 1);
}

/* The field shows the current answer (empty: the recommendation). */
static void
field_from_answer(ui_ctx *u)
{
	char buf[32] = "";

	if (mmio_answer(u->w))
		snprintf(buf, sizeof buf, "%llu",
		         (unsigned long long)mmio_answer(u->w));
	ui_field_set(&mst(u)->size, buf);
}

/* The field's text was refused: say why, show the size that stands. */
static int
refuse(ui_ctx *u, const char *why)
{
	field_from_answer(u);
	ui_msg(u, UI_MSG_ERROR, "%s", why);
	return -1;
}

/* A size below the rule: asked once per size (and rule); a yes is
 * remembered, so Enter on it again, or typing it again, goes on. */
static int
confirm_below(ui_ctx *u, const char *text, uint64_t gb, const char *why)
{
	mmio_st *st = mst(u);
	const gw_plan *p = gw_wizard_plan(u->w);
	uint64_t rule = p ? p->rule_gb : 0;
	gw_err e;

	if (!(st->conf_gb == gb && st->conf_rule == rule)) {
		/* TRANSLATORS: the confirmation for a size below the rule; %s
		 * is the wizard's reason.  Answer keys y/n. */
		char *q = gw_xasprintf(_("%s\nUse it anyway? y/n"), why);
		int yes = ui_confirm(u, q);

		free(q);
		if (yes != 1) {
			field_from_answer(u);
			/* TRANSLATORS: a size below the rule was declined. */
			ui_msg(u, UI_MSG_INFO, "%s", _("Not changed: the size shown stands."));
			return -1;
		}
		st->conf_gb = gb;
		st->conf_rule = rule;
	}
	e.msg[0] = '\0';
	if (gw_wizard_set_mmio_text(u->w, text, 1, NULL, &e) != 0)
		return refuse(u, e.msg);
	return 0;
}

/* Use the field's size.  0 when it stands (or nothing changed). */
static int
apply_size(ui_ctx *u)
{
	char *t = ui_field_get(&mst(u)->size);
	uint64_t before = mmio_answer(u->w), gb = 0;
	gw_err e;
	int rc;

	e.msg[0] = '\0';
	rc = gw_wizard_set_mmio_text(u->w, t, 0, &gb, &e);
	if (rc == GW_MMIO_ASK)
		rc = confirm_below(u, t, gb, e.msg);
	else if (rc != 0)
		rc = refuse(u, e.msg);
	free(t);
	if (rc == 0 && gb == 0 && before != 0)
		/* TRANSLATORS: the field was emptied. */
		ui_msg(u, UI_MSG_OK, "%s", _("Back to the recommended size."));
	return rc;
}

/* The field takes every character but the step's and the global keys
 * (r, q, ?), so that "1.5", "-5" or "abc" reach Enter and are refused
 * with a message instead of being dropped a key at a time. */
static int
field_takes(ui_key k)
{
	return !(k.fn == 0 && (k.ch == L'q' || k.ch == L'Q' || k.ch == L'?'));
}

static int
mmio_key(ui_ctx *u, ui_key k)
{
	mmio_st *st = mst(u);
	int r, page = st->calc_page > 1 ? st->calc_page - 1 : 1;

	if (ui_key_enter(k))
		return apply_size(u) == 0 ? UI_NEXT : UI_HANDLED;
	if (ui_key_fn(k, KEY_PPAGE) || ui_key_fn(k, KEY_UP)) {
		st->top -= ui_key_fn(k, KEY_UP) ? 1 : page;
		if (st->top < 0)
			st->top = 0;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_NPAGE) || ui_key_fn(k, KEY_DOWN)) {
		/* mmio_draw keeps st->top in range */
		st->top += ui_key_fn(k, KEY_DOWN) ? 1 : page;
		return UI_HANDLED;
	}
	if (ui_key_is(k, L'r')) {
		ui_field_set(&st->size, "");
		return UI_HANDLED;
	}
	if (!field_takes(k))
		return UI_IGNORED;
	r = ui_field_key(&st->size, k);
	return r ? UI_HANDLED : UI_IGNORED;
}

static size_t
mmio_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key r = { 0, L'r' }, pg = { KEY_NPAGE, 0 };

	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "0-9", _("Size"), r);
	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "r", _("Reset"), r);
	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "PgDn", _("Scroll"), pg);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_mmio = {
	GW_STEP_MMIO, mmio_open, mmio_close, mmio_enter, mmio_draw, mmio_key,
	NULL, NULL, NULL, mmio_keys
};
