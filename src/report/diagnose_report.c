/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_report.c: the output of gpuwiz diagnose (diagnose_report.h):
 * the findings as text or JSON.
 */
#include "diagnose_report.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* ---- rendering ---------------------------------------------------------- */

static const char *
no_match_line(void)
{
	return _("Send to support: the VM's whole vmware.log (in the VM's "
	         "folder on the datastore), its .vmx file, the exact error text "
	         "of the failed task, and from the host the output of esxcli "
	         "hardware pci list and esxcli system version get; for a "
	         "problem inside the guest, nvidia-smi -q and the application's "
	         "log.");
}

/* The common part of each finding, borrowed (free only the array): the
 * printers take a plain array of gw_finding. */
static gw_finding *
common_rows(const gw_diag_result *r)
{
	gw_finding *v = gw_xcalloc(r->n ? r->n : 1, sizeof *v);
	size_t i;

	for (i = 0; i < r->n; i++)
		v[i] = r->findings[i].f;
	return v;
}

/* GW_LAYOUT_DIAG's extras: the numbered heading and the quoted line
 * before each finding, */
static void
diag_head(gw_buf *out, const gw_finding *x, size_t i, void *arg)
{
	const gw_diag_finding *f = &((const gw_diag_result *)arg)->findings[i];

	gw_buf_puts(out, "\n");
	if (f->matches > 1)
		/* TRANSLATORS: [finding number] rule id (untranslated),
		 * line number, number of lines that matched. */
		gw_buf_printf(out, P_("[%lu] %s (line %lu; %lu matching "
		                      "line)",
		                      "[%lu] %s (line %lu; %lu matching "
		                      "lines)", f->matches),
		              (unsigned long)i + 1, x->id, f->lineno, f->matches);
	else
		gw_buf_printf(out, _("[%lu] %s (line %lu)"),
		              (unsigned long)i + 1, x->id, f->lineno);
	gw_buf_printf(out, "\n    \"%s\"\n", f->line);
}

/* and in JSON the line, where it is, and the numbers the rule read. */
static void
diag_keys(json_t *j, const gw_finding *x, size_t i, void *arg)
{
	const gw_diag_finding *f = &((const gw_diag_result *)arg)->findings[i];

	json_object_set_new(j, "line", gw_json_text(f->line));
	json_object_set_new(j, "line_number",
	                    json_integer((json_int_t)f->lineno));
	json_object_set_new(j, "matches",
	                    json_integer((json_int_t)f->matches));
	if (f->mmio_gb)
		json_object_set_new(j, "mmio_size_gb",
		                    json_integer((json_int_t)f->mmio_gb));
	if (f->memsize_mb)
		json_object_set_new(j, "memsize_mb",
		                    json_integer((json_int_t)f->memsize_mb));
}

static void
render_json(const gw_diag_result *r, const gw_finding *v,
            const gw_finding_extra *x, const char *name, gw_buf *out)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "findings", gw_findings_json_ext(v, r->n,
	                    GW_LAYOUT_DIAG, GW_TOPIC_ALL, x));
	if (r->n == 0) {
		char *m = gw_xasprintf(_("No known failure recognised in %s."),
		                       name);
		char *msg = gw_xasprintf("%s %s", m, no_match_line());

		/* the name may be any bytes: gw_json_text keeps the key */
		json_object_set_new(o, "message", gw_json_text(msg));
		free(msg);
		free(m);
	}
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (s) {
		gw_buf_puts(out, s);
		gw_buf_puts(out, "\n");
		free(s);
	}
	json_decref(o);
}

static void
render_text(const gw_diag_result *r, const gw_finding *v,
            const gw_finding_extra *x, const char *raw_name, gw_buf *out)
{
	/* the file's name as the terminal may show it (the rows are escaped
	 * by gw_findings_render) */
	char *name = gw_str_escaped(raw_name);

	if (r->n == 0) {
		gw_buf_printf(out, _("No known failure recognised in %s."), name);
		gw_buf_puts(out, "\n");
		gw_buf_puts(out, no_match_line());
		gw_buf_puts(out, "\n");
		free(name);
		return;
	}
	/* TRANSLATORS: %s: the file name (or "standard input"); %lu: how
	 * many known failures were found (1 or more). */
	gw_buf_printf(out, _("Known failures recognised in %s: %lu"), name,
	              (unsigned long)r->n);
	gw_buf_puts(out, "\n");
	free(name);
	gw_findings_render(out, v, r->n, GW_LAYOUT_DIAG, GW_TOPIC_ALL, x);
}

void
gw_diag_render(const gw_diag_result *r, const char *input_name, int json,
               gw_buf *out)
{
	const char *name = input_name ? input_name : "-";
	gw_finding *v = common_rows(r);
	gw_finding_extra x = { diag_head, diag_keys, (void *)r };

	if (out->data == NULL)
		gw_buf_init(out);
	if (json)
		render_json(r, v, &x, name, out);
	else
		render_text(r, v, &x, name, out);
	free(v);
}
