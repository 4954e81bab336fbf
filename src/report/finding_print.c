/* finding_print.c: the one text and the one JSON printer of findings
 * (finding_print.h). */
#include "finding_print.h"
#include "jsonutil.h"

#include <stdlib.h>

const char *
gw_sev_label(gw_sev s)
{
	switch (s) {
	/* TRANSLATORS: severity labels, at most 5 cells. */
	case GW_SEV_ERROR: return _("FAIL");
	case GW_SEV_WARN: return _("WARN");
	case GW_SEV_PASS: return _("PASS");
	default: return _("INFO");
	}
}

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

/* "  WARN  message", the label padded to 5 cells, not bytes: CJK labels
 * are 2 cells a character. */
static void
print_plan_row(FILE *f, const gw_finding *x)
{
	const char *lab = gw_sev_label(x->sev);
	int pad = 5 - gw_text_cells(lab);

	fprintf(f, "  %s%*s %s\n", lab, pad > 0 ? pad : 0, "", nz(x->message));
	if (x->fix)
		fprintf(f, _("        fix: %s\n"), x->fix);
	if (x->source)
		fprintf(f, _("        source: %s\n"), x->source);
}

static void
print_check_row(FILE *f, const gw_finding *x)
{
	fprintf(f, "%s : %s\n", x->title ? x->title : nz(x->id),
	        gw_sev_word(x->sev));
	if (x->sev == GW_SEV_PASS)
		return;
	fprintf(f, "  %s\n", nz(x->message));
	if (x->fix) {
		fprintf(f, _("  fix: %s"), x->fix);
		fputc('\n', f);
	}
}

void
gw_findings_print(FILE *f, const gw_finding *v, size_t n,
                  gw_finding_layout layout, unsigned topics)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!gw_topic_in(v[i].topic, topics))
			continue;
		if (layout == GW_LAYOUT_CHECKS)
			print_check_row(f, &v[i]);
		else
			print_plan_row(f, &v[i]);
	}
}

static json_t *
text_or_null(const char *s)
{
	return s ? gw_json_text(s) : json_null();
}

static json_t *
plan_row_json(const gw_finding *x)
{
	json_t *j = json_object();

	json_object_set_new(j, "id", json_string(nz(x->id)));
	json_object_set_new(j, "severity", json_string(gw_sev_id(x->sev)));
	json_object_set_new(j, "message", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
	json_object_set_new(j, "source", text_or_null(x->source));
	return j;
}

static json_t *
check_row_json(const gw_finding *x)
{
	json_t *j = json_object();

	json_object_set_new(j, "id", json_string(nz(x->id)));
	json_object_set_new(j, "status", json_string(gw_sev_word(x->sev)));
	json_object_set_new(j, "title", gw_json_text(nz(x->title)));
	json_object_set_new(j, "message", gw_json_text(nz(x->message)));
	json_object_set_new(j, "fix", text_or_null(x->fix));
	return j;
}

json_t *
gw_findings_json(const gw_finding *v, size_t n, gw_finding_layout layout,
                 unsigned topics)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		if (!gw_topic_in(v[i].topic, topics))
			continue;
		json_array_append_new(arr, layout == GW_LAYOUT_CHECKS
		                           ? check_row_json(&v[i])
		                           : plan_row_json(&v[i]));
	}
	return arr;
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
