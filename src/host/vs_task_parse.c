/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_task_parse.c: what the server says of our tasks (vs_tasks.c follows
 * them): WaitForUpdatesEx answers (an objectSet's changeSet per task) and
 * RetrievePropertiesEx answers (an objects' propSet), both the same name /
 * val pairs, read into gw_vs_task_update. */
#include "vsphere_int.h"

#include <stdlib.h>
#include <string.h>

/* "queued" -> 0 ... "error" -> 3, else -1. */
int
vs_task_state(const char *st)
{
	static const char *const names[] = { "queued", "running", "success", "error" };

	for (int i = 0; st && i < 4; i++)
		if (strcmp(st, names[i]) == 0)
			return i;
	return -1;
}

/* One changeSet (or propSet: the same name / val shape) into u. */
static void
update_change(xmlNodePtr cs, gw_vs_task_update *u)
{
	char *name = vs_child_text(cs, "name");
	xmlNodePtr val = vs_first_el(cs, "val");

	if (name && strcmp(name, "info.state") == 0 && val) {
		char *st = vs_el_text(val);

		gw_trim(st);
		u->state = vs_task_state(st);
		free(st);
	} else if (name && strcmp(name, "info.progress") == 0 && val) {
		long long pct;

		if (vs_el_long(val, &pct) == 0 && pct >= 0 && pct <= 100)
			u->progress = (int)pct;
	} else if (name && strcmp(name, "info.error") == 0 && val) {
		vs_set_str(&u->fault_type, vs_xsi_type(vs_first_el(val, "fault")));
		vs_set_str(&u->fault_message,
		           vs_nonempty(vs_child_text(val, "localizedMessage")));
	}
	free(name);
}

/* u from os's "obj" and its name/val children named child: a
 * WaitForUpdatesEx objectSet ("changeSet") or a RetrievePropertiesEx
 * objects ("propSet"); state and progress -1 when not given. */
static void
vs_task_update_from(xmlNodePtr os, const char *child, gw_vs_task_update *u)
{
	memset(u, 0, sizeof *u);
	u->state = -1;
	u->progress = -1;
	u->task = vs_nonempty(vs_child_text(os, "obj"));
	FOR_EL(cs, os, child)
		update_change(cs, u);
}

const char *const vs_updates_path[] = {
	"returnval", "filterSet", "objectSet", NULL
};

/* One update's strings freed (the update itself is the caller's). */
static void
task_update_free(gw_vs_task_update *u)
{
	if (u == NULL)
		return;
	free(u->task);
	free(u->fault_type);
	free(u->fault_message);
	memset(u, 0, sizeof *u);
}

/* The next update of a (room made; a->n not counted yet). */
static gw_vs_task_update *
updates_slot(vs_updates *a)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 8;
		a->ups = gw_xrealloc(a->ups, a->cap * sizeof *a->ups);
	}
	return &a->ups[a->n];
}

void
vs_task_update_unit(xmlNodePtr os, void *ctx)
{
	vs_updates *a = ctx;
	gw_vs_task_update *u;
	char *kind;

	u = updates_slot(a);
	vs_task_update_from(os, "changeSet", u);
	kind = vs_child_text(os, "kind");
	u->left = kind && strcmp(kind, "leave") == 0;
	free(kind);
	if (u->task == NULL) {
		task_update_free(u);
		return;
	}
	a->n++;
}

void
vs_task_updates_from_el(xmlNodePtr el, vs_updates *a, char **version,
                        int *truncated)
{
	xmlNodePtr rv = vs_first_el(el, "returnval");

	*truncated = 0;
	if (rv == NULL)
		return;         /* maxWaitSeconds passed: nothing new */
	vs_set_str(version, vs_nonempty(vs_child_text(rv, "version")));
	*truncated = vs_child_bool(rv, "truncated") == 1;
	FOR_EL(fs, rv, "filterSet")
		FOR_EL(os, fs, "objectSet")
			vs_task_update_unit(os, a);
}

void
vs_task_state_unit(xmlNodePtr o, void *ctx)
{
	vs_updates *a = ctx;
	gw_vs_task_update *u = updates_slot(a);

	vs_task_update_from(o, "propSet", u);
	if (u->task && u->state >= 0)
		a->n++;
	else
		task_update_free(u);
}

void
vs_task_states_from_el(xmlNodePtr el, vs_updates *a)
{
	FOR_EL(o, vs_first_el(el, "returnval"), "objects")
		vs_task_state_unit(o, a);
}

int
gw_vs_parse_task_updates(const char *text, size_t len, gw_vs_task_update **ups,
                         size_t *n, char **version, int *truncated, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	vs_updates a = { NULL, 0, 0 };

	*ups = NULL;
	*n = 0;
	*truncated = 0;
	if (vs_parse_answer_units(text, len, "WaitForUpdatesEx", vs_updates_path,
	                          vs_task_update_unit, &a, &doc, &el, e) != 0) {
		gw_vs_task_updates_free(a.ups, a.n);
		return -1;
	}
	vs_task_updates_from_el(el, &a, version, truncated);
	xmlFreeDoc(doc);
	*ups = a.ups;
	*n = a.n;
	return 0;
}

void
gw_vs_task_updates_free(gw_vs_task_update *ups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		task_update_free(&ups[i]);
	free(ups);
}

