/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_mmio.c: step 5, the 64-bit MMIO window.  Shows a picture of the
 * window with the GPUs' 64-bit BARs where the plan placed them
 * (gw_plan.bars: largest first, each at a multiple of its size), the
 * plan's calculation step by step (the rule and, where the table knows
 * them, the BARs), the numbers it came to, and a field for the size:
 * empty means the recommendation; a size below the rule needs a yes to a
 * question.
 *
 *   64-bit MMIO window: 256 GB, the BARs largest first, each aligned ...
 *   [█1 BAR1 128 GiB██████████████████████▒····························]
 *    0                                    128                    256 GB
 *    1 a100-80g-sxm4  ▒ BAR3 32 MiB (small BARs one cell wide: ...
 */
#include "draw.h"
#include "field.h"
#include "screen.h"
#include "mmio.h"

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
	/* a blank column between the text and the scroll marks */
	n = dw_wrap(b.data ? b.data : "", r.w - 4, &lines);
	if (n > 0 && lines[n - 1][0] == '\0') {
		n--;
		free(lines[n]);
	}
	if (st->top > (int)n - calc_h)
		st->top = (int)n - calc_h;
	if (st->top < 0)
		st->top = 0;
	for (i = 0; i < calc_h && st->top + i < (int)n; i++)
		dw_put(r.y + y + i, r.x + 2, lines[st->top + i], r.w - 4,
		       A_NORMAL);
	if (st->top > 0)
		dw_put(r.y + y, r.x + r.w - 1, "^", 1, ui_attr(UI_C_DIM));
	if (st->top + calc_h < (int)n)
		dw_put(r.y + y + calc_h - 1, r.x + r.w - 1, "v", 1,
		       ui_attr(UI_C_DIM));
	used = (int)n < calc_h ? (int)n : calc_h;
	gw_strs_free(lines, n);
	gw_buf_free(&b);
	return used;
}

/* ---- the picture -------------------------------------------------------- */

/* The glyphs: a BAR1 (two, so that neighbours differ), a BAR3, free
 * space, the mark of the recommendation in a larger window, a BAR cell
 * past the end of a window too small; ASCII outside UTF-8. */
enum { G_BAR1A, G_BAR1B, G_BAR3, G_FREE, G_MARK, G_OVER, G_N };

static const char *
glyph(int g)
{
	static const char *const utf[G_N] = { "█", "▓", "▒", "·", "┃", "!" };
	static const char *const asc[G_N] = { "#", "=", "+", ".", "|", "!" };

	return dw_utf8() ? utf[g] : asc[g];
}

/* The first GPU number of each group (GPUs counted 1, 2, ... over the
 * groups in the plan's order); malloc'ed. */
static int *
gpu_numbers(const gw_plan *p)
{
	int *first = gw_xcalloc(p->ngpus ? p->ngpus : 1, sizeof *first);
	size_t i;
	int n = 1;

	for (i = 0; i < p->ngpus; i++) {
		first[i] = n;
		n += p->gpus[i].count;
	}
	return first;
}

/* What the picture spans: the larger of the window written and the
 * recommendation (the BARs never end past the recommendation). */
typedef struct pic {
	uint64_t window, rec, span;
	int w;              /* cells between the brackets */
	int widened;        /* a BAR was drawn wider than its scale */
} pic;

static int
cell_of(const pic *pc, uint64_t b)
{
	/* b <= span <= 2^47 bytes and w <= 200: no overflow */
	return (int)(b * (uint64_t)pc->w / pc->span);
}

/* The cells of each BAR, [x0[k], x1[k]): from the cell its offset is in
 * to the one its end is in (a cell shared by two BARs is the second's),
 * at least one cell wide (pc->widened then set), the next one after it.
 * x0 and x1 have p->nbars entries. */
static void
place_cells(const gw_plan *p, pic *pc, int *x0, int *x1)
{
	int prev = 0;
	size_t k;

	pc->widened = 0;
	for (k = 0; k < p->nbars; k++) {
		const gw_plan_bar *b = &p->bars[k];
		uint64_t end = b->offset + b->size;
		int a = cell_of(pc, b->offset);
		int z = cell_of(pc, end);

		if (a < prev)
			a = prev;
		if (z < a + 1) {
			z = a + 1;
			pc->widened = 1;
		}
		if (z > pc->w)
			z = pc->w;
		x0[k] = a;
		x1[k] = z > a ? z : a;
		prev = x1[k];
	}
}

/* The bar at row y: each BAR in its cells (place_cells), BAR1s with
 * their GPU number and size inside where they fit; free cells up to the
 * window's end; in a larger window the mark of the recommendation; BAR
 * cells past the end of a window too small as "!" in the FAIL colour. */
static void
draw_bar(const gw_plan *p, const int *first, pic *pc, int y, int x)
{
	int i, wend = cell_of(pc, pc->window);
	int *x0 = gw_xcalloc(p->nbars + 1, sizeof *x0);
	int *x1 = gw_xcalloc(p->nbars + 1, sizeof *x1);
	size_t k;

	place_cells(p, pc, x0, x1);
	dw_put(y, x, "[", 1, ui_attr(UI_C_DIM));
	for (i = 0; i < pc->w; i++)
		dw_put(y, x + 1 + i, glyph(G_FREE), 1, ui_attr(UI_C_DIM));
	dw_put(y, x + 1 + pc->w, "]", 1, ui_attr(UI_C_DIM));
	for (k = 0; k < p->nbars; k++) {
		const gw_plan_bar *b = &p->bars[k];
		int n = first[b->gpu] + b->copy, c;
		char *sz, *lab;

		for (c = x0[k]; c < x1[k]; c++)
			dw_put(y, x + 1 + c, glyph(c >= wend ? G_OVER :
			                           b->bar != 1 ? G_BAR3 :
			                           n % 2 ? G_BAR1A : G_BAR1B), 1,
			       ui_attr(c >= wend ? UI_C_FAIL :
			               b->bar == 1 ? UI_C_INFO : UI_C_WARN));
		if (b->bar != 1)
			continue;
		sz = gw_bar_size_text(b->size);
		/* TRANSLATORS: inside a BAR1 drawn in the MMIO window: the
		 * GPU's number and the BAR's size ("1 BAR1 128 GiB"). */
		lab = gw_xasprintf(_("%d BAR1 %s"), n, sz);
		if (gw_text_cells(lab) + 2 <= x1[k] - x0[k] && x1[k] <= wend)
			dw_put(y, x + 2 + x0[k], lab, x1[k] - x0[k] - 2,
			       A_REVERSE | A_BOLD);
		else if (x1[k] - x0[k] >= 2 && x1[k] <= wend && n < 10)
			dw_printf(y, x + 2 + x0[k], 1, A_REVERSE | A_BOLD, "%d", n);
		free(lab);
		free(sz);
	}
	/* the recommendation inside a larger window, on a free cell */
	if (pc->window > pc->rec) {
		int m = cell_of(pc, pc->rec);

		if (m > 0 && m < pc->w && (p->nbars == 0 || m >= x1[p->nbars - 1]))
			dw_put(y, x + 1 + m, glyph(G_MARK), 1,
			       ui_attr(UI_C_PASS) | A_BOLD);
	}
	free(x0);
	free(x1);
}

/* "0", the middle (the alignment boundary of the largest BAR of a
 * window that is a power of two), the mark and the end, under the bar;
 * a label that would touch the one before it is left out. */
static void
draw_scale(const pic *pc, int y, int x)
{
	/* the middle, and the smaller of window and recommendation where
	 * they differ (0: none), left to right */
	uint64_t mid = pc->span / 2, other = 0, at[2];
	int i, used = 1;
	char buf[32];

	if (pc->window != pc->rec)
		other = pc->window < pc->rec ? pc->window : pc->rec;
	at[0] = other && other < mid ? other : mid;
	at[1] = other && other < mid ? mid : other;
	dw_put(y, x + 1, "0", 1, ui_attr(UI_C_DIM));
	/* TRANSLATORS: the end of the MMIO window's scale ("256 GB"). */
	snprintf(buf, sizeof buf, _("%llu GB"),
	         (unsigned long long)(pc->span >> 30));
	for (i = 0; i < 2; i++) {
		char lab[32];
		int c, lw;

		if (at[i] == 0 || (at[i] & ((UINT64_C(1) << 30) - 1)))
			continue;
		snprintf(lab, sizeof lab, "%llu",
		         (unsigned long long)(at[i] >> 30));
		lw = (int)strlen(lab);
		c = 1 + cell_of(pc, at[i]);
		if (c < used + 1 || c + lw > 1 + pc->w - gw_text_cells(buf) - 1)
			continue;
		dw_put(y, x + c, lab, lw, ui_attr(UI_C_DIM));
		used = c + lw;
	}
	dw_put_right(y, x + 1, buf, pc->w, ui_attr(UI_C_DIM));
}

/* The legend: the GPUs by number (those already in the VM said so), the
 * BAR3s, the free space, the scale's liberty, what is not drawn; a
 * malloc'ed text for dw_wrap. */
static char *
legend_text(const gw_plan *p, const int *first, const pic *pc)
{
	gw_buf b, nd;
	size_t i;
	uint64_t bar3 = 0;
	char *t;

	gw_buf_init(&b);
	gw_buf_init(&nd);
	for (i = 0; i < p->nbars; i++)
		if (p->bars[i].bar == 3)
			bar3 = p->bars[i].size;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		int drawn = 0;
		size_t k;

		for (k = 0; k < p->nbars; k++)
			drawn |= p->bars[k].gpu == i;
		if (!drawn) {
			if (nd.len)
				gw_buf_puts(&nd, ", ");
			gw_buf_printf(&nd, g->profile ?
			              /* TRANSLATORS: a vGPU not drawn in the
			               * MMIO window; %s its profile. */
			              _("%s (vGPU: its BARs are virtual)") :
			              /* TRANSLATORS: a GPU not drawn in the
			               * MMIO window; %s its id. */
			              _("%s (BAR1 unknown)"), g->label);
			continue;
		}
		if (b.len)
			gw_buf_puts(&b, "  ");
		if (g->count > 1)
			gw_buf_printf(&b, "%d-%d ", first[i],
			              first[i] + g->count - 1);
		else
			gw_buf_printf(&b, "%d ", first[i]);
		gw_buf_puts(&b, g->label);
		if (g->existing)
			/* TRANSLATORS: after a GPU of the legend that is
			 * already in the .vmx. */
			gw_buf_puts(&b, _(" (in the VM)"));
	}
	if (bar3) {
		t = gw_bar_size_text(bar3);
		if (b.len)
			gw_buf_puts(&b, "  ");
		/* TRANSLATORS: the legend's BAR3: its glyph and size. */
		gw_buf_printf(&b, _("%s BAR3 %s"), glyph(G_BAR3), t);
		free(t);
	}
	if (pc->widened) {
		if (b.len)
			gw_buf_puts(&b, " ");
		/* TRANSLATORS: the MMIO picture draws BARs smaller than one
		 * cell one cell wide. */
		gw_buf_puts(&b, _("(small BARs one cell wide: not to scale)"));
	}
	if (pc->window > p->bar_end) {
		t = gw_bar_size_text(pc->window - p->bar_end);
		if (b.len)
			gw_buf_puts(&b, "  ");
		/* TRANSLATORS: the legend's free space of the MMIO window:
		 * its glyph and size. */
		gw_buf_printf(&b, _("%s free %s"), glyph(G_FREE), t);
		free(t);
	}
	if (nd.len) {
		if (b.len)
			gw_buf_puts(&b, "  ");
		/* TRANSLATORS: GPUs the MMIO picture cannot draw: %s lists
		 * them with why. */
		gw_buf_printf(&b, _("Not drawn: %s; the rule sizes the window."),
		              nd.data);
	}
	gw_buf_free(&nd);
	return gw_buf_steal(&b);
}

/* The heading of the picture: the window and how it stands to the
 * recommendation (malloc'ed). */
static char *
pic_heading(const gw_plan *p, const pic *pc)
{
	if (p->mmio_gb > p->rec_gb)
		/* TRANSLATORS: the MMIO picture's heading when the window is
		 * larger than recommended; %s is the mark in the picture. */
		return gw_xasprintf(_("64-bit MMIO window: %llu GB; %llu GB recommended, at %s"),
		                    (unsigned long long)p->mmio_gb,
		                    (unsigned long long)p->rec_gb,
		                    glyph(G_MARK));
	if ((p->mmio_gb << 30) < p->bar_end)
		/* TRANSLATORS: the heading when the BARs do not fit the
		 * window; %s is the mark of their cells past its end. */
		return gw_xasprintf(_("64-bit MMIO window: %llu GB; the BARs marked %s do not fit; %llu GB recommended"),
		                    (unsigned long long)p->mmio_gb,
		                    glyph(G_OVER),
		                    (unsigned long long)p->rec_gb);
	if (p->mmio_gb < p->rec_gb)
		/* TRANSLATORS: the heading when the window is smaller than
		 * recommended but the BARs fit. */
		return gw_xasprintf(_("64-bit MMIO window: %llu GB; %llu GB recommended"),
		                    (unsigned long long)p->mmio_gb,
		                    (unsigned long long)p->rec_gb);
	(void)pc;
	/* TRANSLATORS: the MMIO picture's heading. */
	return gw_xasprintf(_("64-bit MMIO window: %llu GB, the BARs largest first, each aligned to its size"),
	                    (unsigned long long)p->mmio_gb);
}

static void
pic_init(const gw_plan *p, int w, pic *pc)
{
	int *x0, *x1;

	pc->window = p->mmio_gb << 30;
	pc->rec = p->rec_gb << 30;
	pc->span = pc->window > pc->rec ? pc->window : pc->rec;
	if (pc->span < p->bar_end)
		pc->span = p->bar_end;
	if (pc->span == 0)
		pc->span = 1;
	pc->w = w > 1 ? w : 1;
	x0 = gw_xcalloc(p->nbars + 1, sizeof *x0);
	x1 = gw_xcalloc(p->nbars + 1, sizeof *x1);
	place_cells(p, pc, x0, x1);   /* sets widened */
	free(x0);
	free(x1);
}

/* Rows the picture takes in width w with at most maxleg legend rows. */
static int
pic_rows(const gw_plan *p, int w, int maxleg)
{
	pic pc;
	int *first = gpu_numbers(p), n;
	char *t, *h;

	pic_init(p, w - 4, &pc);
	t = legend_text(p, first, &pc);
	h = pic_heading(p, &pc);
	n = dw_wrap_rows(t, w - 2);
	if (n > maxleg)
		n = maxleg;
	n += dw_wrap_rows(h, w) > 1 ? 2 : 1;
	free(t);
	free(h);
	free(first);
	return n + 2;
}

/* The picture from row y in rows rows (pic_rows); returns them. */
static int
draw_pic(ui_rect r, int y, const gw_plan *p, int rows)
{
	pic pc;
	int *first = gpu_numbers(p), hr, lr;
	char *t, *h;

	pic_init(p, r.w - 4, &pc);
	h = pic_heading(p, &pc);
	hr = dw_wrap_rows(h, r.w) > 1 ? 2 : 1;
	dw_wrap_put(r.y + y, r.x, r.w, hr, h, ui_attr(UI_C_HEAD));
	draw_bar(p, first, &pc, r.y + y + hr, r.x + 1);
	draw_scale(&pc, r.y + y + hr + 1, r.x + 1);
	t = legend_text(p, first, &pc);
	lr = rows - hr - 2;
	if (lr > 0)
		dw_wrap_put(r.y + y + hr + 2, r.x + 2, r.w - 2, lr, t, A_NORMAL);
	free(t);
	free(h);
	free(first);
	return rows;
}

/* ---- the numbers ---------------------------------------------------------- */

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

/* The four numbers in two columns where they fit (rule and BAR need,
 * the .vmx's and the size to write), else one a row; returns the rows. */
static int
draw_numbers(ui_rect r, int y, const gw_plan *p, int count_only)
{
	/* TRANSLATORS: label of the rule's result; at most 24 cells. */
	const char *l_rule = _("Rule (KB 323402):");
	/* TRANSLATORS: label of the BAR-based need; at most 24 cells. */
	const char *l_bar = _("BAR need:");
	/* TRANSLATORS: label of the size in the .vmx; at most 24 cells. */
	const char *l_old = _("Already in the .vmx:");
	/* TRANSLATORS: label of the size written; at most 24 cells. */
	const char *l_new = _("Size to write:");
	/* TRANSLATORS: the BAR need when no BAR size is known (the MMIO
	 * picture says which GPUs); at most 24 cells. */
	const char *unk = _("unknown: the rule alone");
	/* TRANSLATORS: no MMIO size in the .vmx; at most 24 cells. */
	const char *none = _("none");
	int lw1 = gw_text_cells(l_rule), lw2 = gw_text_cells(l_bar);
	int cw = r.w / 2, two;

	if (gw_text_cells(l_old) > lw1)
		lw1 = gw_text_cells(l_old);
	if (gw_text_cells(l_new) > lw2)
		lw2 = gw_text_cells(l_new);
	lw1++;
	lw2++;
	/* the values: up to 12 cells ("131072 GB"), the words above */
	two = lw1 + 12 <= cw && lw1 + gw_text_cells(none) <= cw &&
	      lw2 + 12 <= r.w - cw && lw2 + gw_text_cells(unk) <= r.w - cw;
	if (count_only)
		return two ? 2 : 4;
	if (two) {
		ui_rect c2 = r;

		c2.x += cw;
		c2.w -= cw;
		r.w = cw;
		draw_number(r, y, lw1, l_rule, p->rule_gb, NULL, A_NORMAL);
		draw_number(c2, y, lw2, l_bar, p->bar_gb, unk, A_NORMAL);
		draw_number(r, y + 1, lw1, l_old, p->existing_gb, none, A_NORMAL);
		draw_number(c2, y + 1, lw2, l_new, p->mmio_gb, NULL,
		            ui_attr(UI_C_PASS));
		return 2;
	}
	if (lw2 > lw1)
		lw1 = lw2;
	draw_number(r, y, lw1, l_rule, p->rule_gb, NULL, A_NORMAL);
	draw_number(r, y + 1, lw1, l_bar, p->bar_gb, unk, A_NORMAL);
	draw_number(r, y + 2, lw1, l_old, p->existing_gb, none, A_NORMAL);
	/* the answer */
	draw_number(r, y + 3, lw1, l_new, p->mmio_gb, NULL, ui_attr(UI_C_PASS));
	return 4;
}

/* Rows: the picture, a blank, the calculation's heading and lines, a
 * blank, the numbers, a blank, the size field, then this step's findings
 * (a size below the rule, ...).  The findings get the rows they need
 * first, so that a warning is never cut off; the picture comes next (its
 * legend up to 3 rows); the calculation gets what is left (at least
 * MIN_CALC rows; it scrolls with Up/Down/PgUp/PgDn), and the blank rows
 * go, then legend rows, when even that is too tight.  Returns the field's
 * row. */
static int
draw_plan(ui_ctx *u, ui_rect r, const gw_plan *p, unsigned mmio)
{
	int y = 0, calc_h, gap = 1, nnum, prows, leg = 3;
	int fixed, frows = ui_findings_rows(u, r.w, mmio);

	nnum = draw_numbers(r, 0, p, 1);
	for (;;) {
		prows = pic_rows(p, r.w, leg);
		fixed = prows + 1 + nnum + 1 + 3 * gap;
		calc_h = r.h - fixed - frows;
		if (calc_h >= MIN_CALC)
			break;
		if (gap) {
			gap = 0;
			continue;
		}
		if (leg > 1) {
			leg--;
			continue;
		}
		calc_h = MIN_CALC;
		break;
	}
	mst(u)->calc_page = calc_h;
	y += draw_pic(r, y, p, prows);
	y += gap;
	/* TRANSLATORS: heading of the calculation lines. */
	dw_put(r.y + y++, r.x, _("Calculation:"), r.w, ui_attr(UI_C_HEAD));
	y += draw_calc(u, r, y, p, calc_h);
	y += gap;
	y += draw_numbers(r, y, p, 0);
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
