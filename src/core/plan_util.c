/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_util.c: the building blocks every phase of the plan uses (plan_int.h):
 * an explanation step, a finding, the wizard's words for a finding's fix,
 * a setting.  plan.c runs the phases; the phases add to the plan through
 * these functions only, so that no phase calls back into plan.c.
 */
#include "plan_int.h"

#include <stdlib.h>
#include <string.h>

void
pl_step(gw_plan *p, char *line)
{
	p->steps = gw_xrealloc(p->steps, (p->nsteps + 1) * sizeof *p->steps);
	p->steps[p->nsteps++] = line;
}

gw_finding *
pl_finding(gw_plan *p, gw_sev sev, const char *id, gw_topic topic,
           const char *source, char *msg, char *fix)
{
	return gw_findings_add(&p->findings, &p->nfindings, sev, id, topic, source,
	                NULL, msg, fix);
}

void
pl_fix_ui(gw_finding *f, char *text)
{
	free(f->fix_ui);
	f->fix_ui = text;
}

gw_setting *
pl_setting(gw_plan *p, const gw_vmx *v, gw_set_kind kind, const char *key,
           const char *value, char *reason, const char *source)
{
	gw_setting *s;
	const char *old = v ? gw_vmx_get(v, key) : NULL;

	p->settings = gw_xrealloc(p->settings,
	                          (p->nsettings + 1) * sizeof *p->settings);
	s = &p->settings[p->nsettings++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->key = gw_xstrdup(key);
	s->value = gw_xstrdup(value);
	s->old_value = old ? gw_xstrdup(old) : NULL;
	s->keep = old != NULL && gw_strieq(old, value);
	s->reason = reason;
	s->source = source;
	return s;
}
