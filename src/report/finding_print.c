/* SPDX-License-Identifier: GPL-3.0-or-later */
/* finding_print.c: the one text and the one JSON printer of findings
 * (finding_print.h): a row printer per layout, chosen from a table. */
#include "finding_print.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdlib.h>

/* verify's titles are padded to this many terminal cells */
#define VERIFY_TITLE_CELLS 56

size_t
gw_findings_count(const gw_finding *v, size_t n, unsigned topics)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += gw_topic_in(v[i].topic, topics);
	return k;
}

static const char *
nz(const char *s)
{
	return s ? s : "";
}

/* ---- text --------------------------------------------------------------- */

/* "  WARN  message", the label padded to 5 cells, not bytes: CJK labels
 * are 2 cells a character. */
static void
plan_text(gw_buf *out, const gw_finding *x)
{
	const char *lab = gw_sev_label(x->sev);
	int pad = 5 - gw_text_cells(lab);

	/* "  %s%*s %s\n", put together without a format */
	gw_buf_puts(out, "  ");
	gw_buf_puts(out, lab);
	gw_buf_add(out, "      ", (size_t)(pad > 0 ? pad : 0) + 1);
	gw_buf_puts(out, nz(x->message));
	gw_buf_puts(out, "\n");
	if (x->fix)
		gw_buf_printf(out, _("        fix: %s\n"), x->fix);
	if (x->source)
		gw_buf_printf(out, _("        source: %s\n"), x->source);
}

static void
check_text(gw_buf *out, const gw_finding *x)
{
	/* the status translated like the plan's labels and the BIOS list
	 * (doc/design.md, section 11); JSON keeps gw_sev_word */
	/* TRANSLATORS: a host check row: the check's title, then its status
	 * (PASS, WARN, FAIL, INFO translated). */
	gw_buf_printf(out, _("%s : %s\n"), x->title ? x->title : nz(x->id),
	              gw_sev_label(x->sev));
	if (x->sev == GW_SEV_PASS)
		return;
	gw_buf_printf(out, "  %s\n", nz(x->message));
	if (x->fix) {
		gw_buf_printf(out, _("  fix: %s"), x->fix);
		gw_buf_puts(out, "\n");
	}
}

/* Titles padded in cells, so that CJK titles line up too. */
static void
verify_text(gw_buf *out, const gw_finding *x)
{
	const char *title = x->title ? x->title : nz(x->id);
	int pad = VERIFY_TITLE_CELLS - gw_text_cells(title);

	gw_buf_printf(out, "%s%*s : %s\n", title, pad > 0 ? pad : 0, "",
	              gw_sev_label(x->sev));
	gw_buf_printf(out, "        %s\n", nz(x->message));
	if (x->fix)
		gw_buf_printf(out, _("        fix: %s\n"), x->fix);
}

static void
diag_text(gw_buf *out, const gw_finding *x)
{
	gw_buf_puts(out, "    ");
	gw_buf_printf(out, _("Cause: %s"), nz(x->message));
	gw_buf_puts(out, "\n");
	if (x->fix) {
		gw_buf_puts(out, "    ");
		gw_buf_printf(out, _("Fix: %s"), x->fix);
		gw_buf_puts(out, "\n");
	}
	if (x->source) {
		gw_buf_puts(out, "    ");
		gw_buf_printf(out, _("Source: %s"), x->source);
		gw_buf_puts(out, "\n");
	}
}

/* ---- JSON --------------------------------------------------------------- */

static json_t *
text_or_null(const char *s)
{
	return s ? gw_json_text(s) : json_null();
}

static void
plan_json(json_t *j, const gw_finding *x)
{
	json_object_set_new(j, "severity", json_string(gw_sev_id(x->sev)));
	json_object_set_new(j, "message", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
	json_object_set_new(j, "source", text_or_null(x->source));
}

static void
check_json(json_t *j, const gw_finding *x)
{
	json_object_set_new(j, "status", json_string(gw_sev_word(x->sev)));
	json_object_set_new(j, "title", gw_json_text(nz(x->title)));
	json_object_set_new(j, "message", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
	json_object_set_new(j, "source", text_or_null(x->source));
}

/* "status" only: the extra's keys and then verify_json_tail follow. */
static void
verify_json(json_t *j, const gw_finding *x)
{
	json_object_set_new(j, "status", json_string(gw_sev_check_id(x->sev)));
}

static void
verify_json_tail(json_t *j, const gw_finding *x)
{
	json_object_set_new(j, "message", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
}

static void
diag_json(json_t *j, const gw_finding *x)
{
	json_object_set_new(j, "cause", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
	json_object_set_new(j, "source", text_or_null(x->source));
}

/* ---- the printers ------------------------------------------------------- */

/* A layout: its text row, its JSON keys after "id" up to the extra's
 * keys, and those after them (NULL: none). */
static const struct layout_ops {
	void (*text)(gw_buf *, const gw_finding *);
	void (*json)(json_t *, const gw_finding *);
	void (*json_tail)(json_t *, const gw_finding *);
} layouts[] = {
	[GW_LAYOUT_PLAN] = { plan_text, plan_json, NULL },
	[GW_LAYOUT_CHECKS] = { check_text, check_json, NULL },
	[GW_LAYOUT_VERIFY] = { verify_text, verify_json, verify_json_tail },
	[GW_LAYOUT_DIAG] = { diag_text, diag_json, NULL },
};

static const struct layout_ops *
ops_of(gw_finding_layout layout)
{
	if ((size_t)layout >= sizeof layouts / sizeof layouts[0])
		return &layouts[GW_LAYOUT_PLAN];
	return &layouts[layout];
}

void
gw_findings_render(gw_buf *out, const gw_finding *v, size_t n,
                   gw_finding_layout layout, unsigned topics,
                   const gw_finding_extra *x)
{
	const struct layout_ops *ops = ops_of(layout);
	gw_buf rows;
	size_t i;

	if (out->data == NULL)
		gw_buf_init(out);
	/* the rows hold what hosts and files said (a folder's name, a VM's,
	 * a log line): escaped here, the one text printer (doc/design.md
	 * 5.3), never echoed raw to the terminal */
	gw_buf_init(&rows);
	for (i = 0; i < n; i++) {
		if (!gw_topic_in(v[i].topic, topics))
			continue;
		if (x && x->text)
			x->text(&rows, &v[i], i, x->arg);
		ops->text(&rows, &v[i]);
	}
	if (rows.len)
		gw_buf_put_escaped(out, rows.data);
	gw_buf_free(&rows);
}

static json_t *
row_json(const struct layout_ops *ops, const gw_finding *f, size_t i,
         const gw_finding_extra *x)
{
	json_t *j = json_object();

	json_object_set_new(j, "id", json_string(nz(f->id)));
	ops->json(j, f);
	if (x && x->json)
		x->json(j, f, i, x->arg);
	if (ops->json_tail)
		ops->json_tail(j, f);
	return j;
}

json_t *
gw_findings_json_ext(const gw_finding *v, size_t n, gw_finding_layout layout,
                     unsigned topics, const gw_finding_extra *x)
{
	const struct layout_ops *ops = ops_of(layout);
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		if (gw_topic_in(v[i].topic, topics))
			json_array_append_new(arr, row_json(ops, &v[i], i, x));
	return arr;
}

void
gw_findings_print(FILE *f, const gw_finding *v, size_t n,
                  gw_finding_layout layout, unsigned topics)
{
	gw_buf b;

	gw_buf_init(&b);
	gw_findings_render(&b, v, n, layout, topics, NULL);
	if (b.len)
		fwrite(b.data, 1, b.len, f);
	gw_buf_free(&b);
}

json_t *
gw_findings_json(const gw_finding *v, size_t n, gw_finding_layout layout,
                 unsigned topics)
{
	return gw_findings_json_ext(v, n, layout, topics, NULL);
}

void
gw_checks_print(FILE *f, const gw_finding *v, size_t n, int json)
{
	json_t *o;

	if (!json) {
		gw_findings_print(f, v, n, GW_LAYOUT_CHECKS, GW_TOPIC_ALL);
		return;
	}
	o = json_object();
	json_object_set_new(o, "checks", gw_findings_json(v, n, GW_LAYOUT_CHECKS,
	                                                  GW_TOPIC_ALL));
	gw_json_fprint(f, o);
	json_decref(o);
}
