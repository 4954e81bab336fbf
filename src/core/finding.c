/* SPDX-License-Identifier: GPL-3.0-or-later */
/* finding.c: the one result type (finding.h). */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

void
gw_finding_set(gw_finding *f, gw_sev sev, const char *id, gw_topic topic,
               const char *source, char *title, char *message, char *fix)
{
	f->sev = sev;
	f->id = id;
	f->topic = topic;
	f->title = title;
	f->message = message;
	f->fix = fix;
	f->fix_ui = NULL;
	f->source = source;
	f->gpu = -1;
}

void
gw_finding_free(gw_finding *f)
{
	if (f == NULL)
		return;
	free(f->title);
	free(f->message);
	free(f->fix);
	free(f->fix_ui);
	memset(f, 0, sizeof *f);
	f->gpu = -1;
}

gw_finding *
gw_findings_add(gw_finding **v, size_t *n, gw_sev sev, const char *id,
                gw_topic topic, const char *source, char *title,
                char *message, char *fix)
{
	gw_finding *f;

	*v = gw_xrealloc(*v, (*n + 1) * sizeof **v);
	f = &(*v)[(*n)++];
	gw_finding_set(f, sev, id, topic, source, title, message, fix);
	return f;
}

void
gw_findings_free(gw_finding **v, size_t *n)
{
	size_t i;

	for (i = 0; *v && i < *n; i++)
		gw_finding_free(&(*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

int
gw_topic_in(gw_topic t, unsigned mask)
{
	return (unsigned)t < 32 && (mask & GW_TOPIC_BIT(t)) != 0;
}

const char *
gw_sev_id(gw_sev s)
{
	switch (s) {
	case GW_SEV_PASS: return "pass";
	case GW_SEV_WARN: return "warn";
	case GW_SEV_ERROR: return "error";
	default: return "info";
	}
}

const char *
gw_sev_word(gw_sev s)
{
	switch (s) {
	case GW_SEV_PASS: return "PASS";
	case GW_SEV_WARN: return "WARN";
	case GW_SEV_ERROR: return "FAIL";
	default: return "INFO";
	}
}

const char *
gw_sev_check_id(gw_sev s)
{
	switch (s) {
	case GW_SEV_PASS: return "pass";
	case GW_SEV_WARN: return "warn";
	case GW_SEV_ERROR: return "fail";
	default: return "info";
	}
}

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
