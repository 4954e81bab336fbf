/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_report.c: the plan as the commands show it (plan_report.h). */
#include "plan_report.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <string.h>

void
gw_plan_print_gpus(FILE *f, const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		const char *name = g->gpu ? g->gpu->name : g->label;

		if (g->vram_gb >= 0)
			gw_fprintf_escaped(f, _("  %d x %s (%s), %d GB%s\n"), g->count, g->label, name,
			       g->vram_gb, g->existing ? _(", already in the VM") : "");
		else
			gw_fprintf_escaped(f, _("  %d x %s (%s), framebuffer unknown%s\n"), g->count,
			       g->label, name, g->existing ? _(", already in the VM") : "");
	}
}

void
gw_plan_print_steps(FILE *f, const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		gw_fprintf_escaped(f, "  %s\n", p->steps[i]);
}

void
gw_plan_print_findings(FILE *f, const gw_plan *p, unsigned topics,
                       const char *heading)
{
	if (gw_findings_count(p->findings, p->nfindings, topics) == 0)
		return;
	if (heading)
		gw_fprintf_escaped(f, "%s\n", heading);
	gw_findings_print(f, p->findings, p->nfindings, GW_LAYOUT_PLAN, topics);
}

static int
setting_unchanged(const gw_setting *s)
{
	return s->keep || (s->old_value && strcmp(s->old_value, s->value) == 0);
}

/* Each setting: "+ key", "- key" (changed), "= key ... (kept)" or
 * "(already set)", with why: and source: lines. */
static void
print_settings(FILE *f, const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (s->keep) {
			gw_fprintf_escaped(f, "  = %s = \"%s\"  %s\n", s->key, s->old_value,
			       _("(kept)"));
		} else if (setting_unchanged(s)) {
			gw_fprintf_escaped(f, "  = %s = \"%s\"  %s\n", s->key, s->value,
			       _("(already set)"));
		} else {
			if (s->old_value)
				gw_fprintf_escaped(f, "  - %s = \"%s\"\n", s->key, s->old_value);
			gw_fprintf_escaped(f, "  + %s = \"%s\"\n", s->key, s->value);
		}
		if (s->reason)
			gw_fprintf_escaped(f, _("      why: %s\n"), s->reason);
		if (s->source)
			gw_fprintf_escaped(f, _("      source: %s\n"), s->source);
	}
}

void
gw_plan_print_changes(FILE *f, const gw_plan *p)
{
	gw_fprintf_escaped(f, "%s\n", _("Changes:"));
	print_settings(f, p);
	gw_plan_print_findings(f, p, GW_TOPIC_ALL, _("Findings:"));
}

json_t *
gw_plan_json(const gw_plan *p, unsigned topics)
{
	json_t *o = json_object(), *gpus = json_array(), *steps = json_array();
	json_t *sets = json_array();
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		json_t *j = json_object();

		json_object_set_new(j, "id", json_string(g->gpu ? g->gpu->id : g->label));
		json_object_set_new(j, "name", gw_json_text(g->gpu ? g->gpu->name : g->label));
		json_object_set_new(j, "vram_gb", g->vram_gb >= 0 ? json_integer(g->vram_gb) : json_null());
		json_object_set_new(j, "count", json_integer(g->count));
		json_object_set_new(j, "profile", g->profile ? gw_json_text(g->profile) : json_null());
		json_object_set_new(j, "existing", json_boolean(g->existing));
		json_array_append_new(gpus, j);
	}
	for (i = 0; i < p->nsteps; i++)
		json_array_append_new(steps, gw_json_text(p->steps[i]));
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		json_t *j = json_object();

		json_object_set_new(j, "key", gw_json_text(s->key));
		json_object_set_new(j, "value", gw_json_text(s->value));
		json_object_set_new(j, "old_value", s->old_value ? gw_json_text(s->old_value) : json_null());
		json_object_set_new(j, "change", json_boolean(!setting_unchanged(s)));
		json_object_set_new(j, "reason", s->reason ? gw_json_text(s->reason) : json_null());
		json_object_set_new(j, "source", s->source ? gw_json_text(s->source) : json_null());
		json_array_append_new(sets, j);
	}
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "total_vram_gb", json_integer((json_int_t)p->total_vram_gb));
	json_object_set_new(o, "rule_gb", json_integer((json_int_t)p->rule_gb));
	json_object_set_new(o, "bar_gb", p->bar_gb ? json_integer((json_int_t)p->bar_gb) : json_null());
	json_object_set_new(o, "existing_mmio_gb", p->existing_gb ? json_integer((json_int_t)p->existing_gb) : json_null());
	json_object_set_new(o, "mmio_size_gb", json_integer((json_int_t)p->mmio_gb));
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "settings", sets);
	json_object_set_new(o, "findings", gw_findings_json(p->findings, p->nfindings,
	                                                    GW_LAYOUT_PLAN, topics));
	return o;
}
