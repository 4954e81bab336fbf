/* plan_print.c: the plan as the commands show it: text with reasons and
 * sources, or one JSON object (jansson).  Findings go to the stream the
 * command names (stderr for snippet, so stdout stays a clean snippet).
 */
#include "cli_int.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdio.h>
#include <string.h>

static const char *
sev_label(gw_sev s)
{
	switch (s) {
	/* TRANSLATORS: severity labels, at most 5 cells. */
	case GW_SEV_ERROR: return _("FAIL");
	case GW_SEV_WARN: return _("WARN");
	default: return _("INFO");
	}
}

static const char *
sev_id(gw_sev s)
{
	return s == GW_SEV_ERROR ? "error" : s == GW_SEV_WARN ? "warn" : "info";
}

void
cli_print_gpus(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		const char *name = g->gpu ? g->gpu->name : g->label;

		if (g->vram_gb >= 0)
			gw_fprintf_escaped(stdout, _("  %d x %s (%s), %d GB%s\n"), g->count, g->label, name,
			       g->vram_gb, g->existing ? _(", already in the VM") : "");
		else
			gw_fprintf_escaped(stdout, _("  %d x %s (%s), framebuffer unknown%s\n"), g->count,
			       g->label, name, g->existing ? _(", already in the VM") : "");
	}
}

void
cli_print_steps(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		gw_fprintf_escaped(stdout, "  %s\n", p->steps[i]);
}

/* The mmio command answers one question: show only what bears on it. */
static int
finding_is_sizing(const gw_finding *x)
{
	static const char *const prefixes[] = { "mmio-", "gpu-", "vgpu-profile",
	                                         "geforce-" };
	size_t i;

	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(x->id, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

void
cli_print_findings_if(const gw_plan *p, FILE *f, int sizing_only)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *x = &p->findings[i];

		if (sizing_only && !finding_is_sizing(x))
			continue;

		/* pad the label to 5 cells, not bytes: CJK labels are 2 cells
		 * a character */
		gw_fprintf_escaped(f, "  %s%*s %s\n", sev_label(x->sev),
		        5 - gw_text_cells(sev_label(x->sev)) > 0 ?
		        5 - gw_text_cells(sev_label(x->sev)) : 0, "", x->message);
		if (x->fix)
			gw_fprintf_escaped(f, _("        fix: %s\n"), x->fix);
		if (x->source)
			gw_fprintf_escaped(f, _("        source: %s\n"), x->source);
	}
}

void
cli_print_findings(const gw_plan *p, FILE *f)
{
	cli_print_findings_if(p, f, 0);
}

size_t
cli_count_sizing_findings(const gw_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nfindings; i++)
		n += finding_is_sizing(&p->findings[i]);
	return n;
}

static int
setting_unchanged(const gw_setting *s)
{
	return s->keep || (s->old_value && strcmp(s->old_value, s->value) == 0);
}

static void
cli_print_settings(const gw_plan *p, int diff)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (!diff) {
			if (!s->keep)
				gw_fprintf_escaped(stdout, "  %s = \"%s\"\n", s->key, s->value);
		} else if (s->keep) {
			gw_fprintf_escaped(stdout, "  = %s = \"%s\"  %s\n", s->key, s->old_value,
			       _("(kept)"));
		} else if (setting_unchanged(s)) {
			gw_fprintf_escaped(stdout, "  = %s = \"%s\"  %s\n", s->key, s->value,
			       _("(already set)"));
		} else {
			if (s->old_value)
				gw_fprintf_escaped(stdout, "  - %s = \"%s\"\n", s->key, s->old_value);
			gw_fprintf_escaped(stdout, "  + %s = \"%s\"\n", s->key, s->value);
		}
		if (s->reason)
			gw_fprintf_escaped(stdout, _("      why: %s\n"), s->reason);
		if (s->source)
			gw_fprintf_escaped(stdout, _("      source: %s\n"), s->source);
	}
}

/* "Findings:" and the findings, when there are any (stdout). */
void
cli_print_findings_titled(const gw_plan *p)
{
	if (p->nfindings > 0) {
		gw_fprintf_escaped(stdout, "%s\n", _("Findings:"));
		cli_print_findings(p, stdout);
	}
}

/* What a .vmx or a VM would change, then the findings. */
void
cli_print_changes(const gw_plan *p)
{
	gw_fprintf_escaped(stdout, "%s\n", _("Changes:"));
	cli_print_settings(p, 1);
	cli_print_findings_titled(p);
}

json_t *
cli_plan_json(const gw_plan *p, int sizing_only)
{
	json_t *o = json_object(), *gpus = json_array(), *steps = json_array();
	json_t *sets = json_array(), *finds = json_array();
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
	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *x = &p->findings[i];
		json_t *j;

		if (sizing_only && !finding_is_sizing(x))
			continue;
		j = json_object();
		json_object_set_new(j, "id", json_string(x->id));
		json_object_set_new(j, "severity", json_string(sev_id(x->sev)));
		json_object_set_new(j, "message", gw_json_text(x->message));
		json_object_set_new(j, "fix", x->fix ? gw_json_text(x->fix) : json_null());
		json_object_set_new(j, "source", x->source ? gw_json_text(x->source) : json_null());
		json_array_append_new(finds, j);
	}
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "total_vram_gb", json_integer((json_int_t)p->total_vram_gb));
	json_object_set_new(o, "rule_gb", json_integer((json_int_t)p->rule_gb));
	json_object_set_new(o, "bar_gb", p->bar_gb ? json_integer((json_int_t)p->bar_gb) : json_null());
	json_object_set_new(o, "existing_mmio_gb", p->existing_gb ? json_integer((json_int_t)p->existing_gb) : json_null());
	json_object_set_new(o, "mmio_size_gb", json_integer((json_int_t)p->mmio_gb));
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "settings", sets);
	json_object_set_new(o, "findings", finds);
	return o;
}

/* On a host (vmx --vm, vsphere apply) the hardware-version advice has a
 * flag of its own: say so under the findings. */
void
cli_upgrade_hint(const gw_plan *p, int asked)
{
	if (!asked && p->hw_current > 0 && p->hw_target > p->hw_current)
		/* TRANSLATORS: %d is the newest hardware version of the host;
		 * --upgrade-hw is an option. */
		gw_fprintf_escaped(stdout, _("  Add --upgrade-hw to upgrade this VM to vmx-%d first (powered off only; one-way: take a snapshot or backup).\n"),
		       p->hw_target);
}

/* The power state word of the JSON outputs. */
const char *
cli_power_word(gw_power p)
{
	return p == GW_POWER_ON ? "on" : p == GW_POWER_OFF ? "off" :
	       p == GW_POWER_SUSPENDED ? "suspended" : "unknown";
}

