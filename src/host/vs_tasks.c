/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_tasks.c: following the session's tasks to their end together (see
 * vsphere.h, doc/design.md 4.5).  A batch's tasks are first asked for
 * their state (RetrievePropertiesEx, TASKS_PER_CALL a call): those that
 * ended quickly need nothing more.  One ListView holds the tasks still in
 * flight (at most TASKS_PER_CALL) and one PropertyFilter on the session's
 * property collector follows its members' info.state and info.error (a
 * TraversalSpec over the view's "view"), both made with the first task
 * waited on: each task started since the last wait goes into the view
 * with one ModifyListView, which also takes out the ended ones, and
 * WaitForUpdatesEx answers for all of them.  No poll loop per task and no
 * filter per batch: the round trips are the reads, the waits and one view
 * change per wait that has new tasks.  The server removes the view and
 * the filter at the session's end (Logout).  The answers are read in
 * vs_task_parse.c. */
#include "vsphere_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The least time between two waits while tasks run: updates accumulate,
 * so a batch of tasks ending together costs one round trip, not one each. */
#define WAIT_GAP_MS 100
/* The most tasks one call names or answers for: a read of the tasks'
 * state asks for at most this many, and the view (so each wait's answer)
 * holds at most this many; the others wait their turn.  Enough for a
 * fleet of 10,000 VMs in two reads, small enough that no answer grows
 * with the batch (a state with its error weighs about 1 KiB). */
#define TASKS_PER_CALL 5000

static void
sleep_s(double sec)
{
	struct timespec ts;

	if (sec <= 0)
		return;
	ts.tv_sec = (time_t)sec;
	ts.tv_nsec = (long)((sec - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ---- the session's tasks ------------------------------------------------- */

/* The ended tasks noted for the view's next change, forgotten. */
static void
ended_free(gw_vs *s)
{
	gw_strs_free(s->view_ended, s->nview_ended);
	s->view_ended = NULL;
	s->nview_ended = 0;
}

/* The slot i under its moref's key (task_ids). */
static void
ids_put(gw_vs *s, size_t i)
{
	if (gw_idset_put(&s->task_ids, gw_idset_str_key(s->tasks[i].moref), i))
		s->task_ids_shared = 1;
}

/* task_ids anew from the slots (after they moved). */
static void
ids_rebuild(gw_vs *s)
{
	gw_idset_free(&s->task_ids);
	s->task_ids_shared = 0;
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].moref)
			ids_put(s, i);
}

/* The task of moref, by its key; the list walked only when two morefs
 * have met under one key. */
static vs_task *
find_task(gw_vs *s, const char *moref)
{
	const size_t *i = gw_idset_get(&s->task_ids, gw_idset_str_key(moref));

	if (i && *i < s->ntasks && s->tasks[*i].moref &&
	    strcmp(s->tasks[*i].moref, moref) == 0)
		return &s->tasks[*i];
	for (size_t k = 0; s->task_ids_shared && k < s->ntasks; k++)
		if (s->tasks[k].moref && strcmp(s->tasks[k].moref, moref) == 0)
			return &s->tasks[k];
	return NULL;
}

vs_task *
vs_task_add(gw_vs *s, char *moref, const char *vm, const char *what, int sync)
{
	vs_task *t;

	if (s->inflight == 0 && s->ntasks > 0) {
		/* every slot ended and told: the list starts again */
		s->ntasks = 0;
		ids_rebuild(s);
	}
	if (s->ntasks == s->tasks_cap) {
		/* the ended tasks' slots given back first, so that the list
		 * stays as long as the tasks in flight, not the batch */
		size_t k = 0;

		for (size_t i = 0; i < s->ntasks; i++)
			if (s->tasks[i].moref != NULL)
				s->tasks[k++] = s->tasks[i];
		s->ntasks = k;
		s->read_at = 0;
		ids_rebuild(s);
	}
	if (s->ntasks == s->tasks_cap) {
		s->tasks_cap = s->tasks_cap ? s->tasks_cap * 2 : 16;
		s->tasks = gw_xrealloc(s->tasks, s->tasks_cap * sizeof *s->tasks);
	}
	t = &s->tasks[s->ntasks++];
	memset(t, 0, sizeof *t);
	t->moref = moref;
	t->vm = gw_xstrdup(vm);
	t->what = gw_xstrdup(what);
	t->state = -1;
	t->sync = sync;
	t->last_pct = -2;
	ids_put(s, s->ntasks - 1);
	s->inflight++;
	if (!sync)
		s->ntotal++;
	return t;
}

/* A task forgotten; one in the view is noted for the view's next change
 * (ModifyListView's remove). */
static void
task_clear(gw_vs *s, vs_task *t)
{
	if (t->in_view && t->moref != NULL) {
		s->view_ended = gw_xrealloc(s->view_ended, (s->nview_ended + 1) *
		                            sizeof *s->view_ended);
		s->view_ended[s->nview_ended++] = t->moref;
		t->moref = NULL;
		s->view_n--;
	}
	free(t->moref);
	free(t->vm);
	free(t->what);
	free(t->fault_type);
	free(t->fault_message);
	memset(t, 0, sizeof *t);
}

/* A batch task has ended: told to the caller's callback, then forgotten
 * (its slot stays, empty: the list is as long as the batch). */
static void
task_report(gw_vs *s, vs_task *t)
{
	gw_err e;

	e.msg[0] = '\0';
	if (t->state == 3) {
		gw_vs_fault f = { t->fault_type, t->fault_message };

		vs_task_fault(s, t->vm, t->what, &f, &e);
		s->nfailed++;
	} else {
		s->ndone++;
	}
	if (s->done_cb)
		s->done_cb(s->done_ctx, t->vm, t->state == 3 ? e.msg : NULL,
		           s->ndone, s->nfailed, s->ntotal);
	task_clear(s, t);
}

/* An update for one of our tasks. */
static void
task_update(gw_vs *s, const gw_vs_task_update *u)
{
	vs_task *t = find_task(s, u->task);

	if (t == NULL || t->state >= 2)
		return;
	if (u->left && u->state < 0) {
		t->left = 1;    /* gone from the filter before we saw its end */
		return;
	}
	if (u->state >= 0)
		t->state = u->state;
	if (t->state < 2 && u->progress >= 0 && t->cb && u->progress != t->last_pct) {
		t->cb(t->ctx, t->what, u->progress);
		t->last_pct = u->progress;
	}
	if (u->fault_type)
		vs_set_str(&t->fault_type, gw_xstrdup(u->fault_type));
	if (u->fault_message)
		vs_set_str(&t->fault_message, gw_xstrdup(u->fault_message));
	if (t->state >= 2) {
		s->inflight--;
		if (!t->sync)
			task_report(s, t);
	}
}

/* The Task properties a filter follows and a reconcile asks: the state
 * and the error (a propSet of spec). */
static xmlNodePtr
task_props(xmlNodePtr spec)
{
	xmlNodePtr ps = vs_add_el(spec, "propSet");

	vs_add_text(ps, "type", "Task");
	vs_add_text(ps, "pathSet", "info.state");
	vs_add_text(ps, "pathSet", "info.error");
	return ps;
}

/* The open tasks not in the view yet, as moref elements name of parent,
 * while the view has room (TASKS_PER_CALL); each marked in the view. */
static void
add_new_tasks(gw_vs *s, xmlNodePtr parent, const char *name)
{
	for (size_t i = 0; i < s->ntasks && s->view_n < TASKS_PER_CALL; i++) {
		vs_task *t = &s->tasks[i];

		if (t->moref && t->state < 2 && !t->in_view) {
			vs_add_moref(parent, name, "Task", t->moref);
			t->in_view = 1;
			s->view_n++;
		}
	}
}

/* The view with its first members (CreateListView). */
static int
create_view(gw_vs *s, gw_err *e)
{
	req r;

	vs_req_init(&r, "CreateListView");
	vs_add_moref(r.method, "_this", "ViewManager", s->view_manager);
	add_new_tasks(s, r.method, "obj");
	s->task_view = vs_call_moref(s, "CreateListView", &r, e);
	return s->task_view != NULL ? 0 : -1;
}

/* The one filter over the view: its members' state and error. */
static int
create_filter(gw_vs *s, gw_err *e)
{
	req r;
	xmlNodePtr spec, ps;

	spec = vs_req_collector(&r, s, "CreateFilter", "spec");
	ps = task_props(spec);
	/* each task waited for alone (the wizard): its progress shown too */
	if (s->parallel == 0)
		vs_add_text(ps, "pathSet", "info.progress");
	vs_add_traversal(&r, spec, "ListView", s->task_view, "tasks", "view");
	vs_add_text(r.method, "partialUpdates", "false");
	s->task_filter = vs_call_moref(s, "CreateFilter", &r, e);
	return s->task_filter != NULL ? 0 : -1;
}

/* ModifyListView: the new tasks in, the ended ones out. */
static int
modify_view(gw_vs *s, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el;

	vs_req_init(&r, "ModifyListView");
	vs_add_moref(r.method, "_this", "ListView", s->task_view);
	add_new_tasks(s, r.method, "add");
	for (size_t i = 0; i < s->nview_ended; i++)
		vs_add_moref(r.method, "remove", "Task", s->view_ended[i]);
	if (vs_call_simple(s, "ModifyListView", &r, &doc, &el, e) != 0) {
		vs_req_free(&r);
		return -1;
	}
	vs_req_free(&r);
	xmlFreeDoc(doc);
	ended_free(s);
	return 0;
}

/* The open tasks not in the view yet put in it (the view and its filter
 * made with the first); the next wait asks for the whole state: the new
 * tasks as they are now, ended ones too. */
static int
watch_new(gw_vs *s, gw_err *e)
{
	if ((s->task_view == NULL ? create_view(s, e) : modify_view(s, e)) != 0)
		return -1;
	if (s->task_filter == NULL && create_filter(s, e) != 0)
		return -1;
	s->full_wait = 1;
	return 0;
}

/* One WaitForUpdatesEx; *quiet set when it came back with nothing.  After
 * a new filter: without a version, the whole state at once; else the
 * changes since the last, waiting for them (maxWaitSeconds). */
static int
wait_once(gw_vs *s, int *quiet, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, opt;
	vs_updates ups = { NULL, 0, 0 };
	size_t n;
	int truncated, full = s->full_wait;
	long cap = s->call_timeout / 2 > 0 ? s->call_timeout / 2 : 1;
	long wait = s->wait_secs > 0 && s->wait_secs < cap ? s->wait_secs : 1;
	double left = vs_time_left(s);
	char secs[24];

	if (s->wait_secs >= cap)
		wait = cap;
	/* the server's wait ends before the deadline */
	if (left >= 0 && (double)wait > left - 1)
		wait = left > 2 ? (long)left - 1 : 1;

	if (!full)
		sleep_s(s->last_wait + WAIT_GAP_MS / 1000.0 - vs_now());
	s->last_wait = vs_now();
	vs_req_init(&r, "WaitForUpdatesEx");
	vs_add_moref(r.method, "_this", "PropertyCollector", s->property_collector);
	if (s->wait_version && !full)
		vs_add_text(r.method, "version", s->wait_version);
	opt = vs_add_el(r.method, "options");
	snprintf(secs, sizeof secs, "%ld", wait);
	vs_add_text(opt, "maxWaitSeconds", secs);
	if (vs_call_units(s, "WaitForUpdatesEx", &r, vs_updates_path,
	                  vs_task_update_unit, &ups, &doc, &el, e) != 0) {
		vs_req_free(&r);
		gw_vs_task_updates_free(ups.ups, ups.n);
		return -1;
	}
	vs_req_free(&r);
	vs_task_updates_from_el(el, &ups, &s->wait_version, &truncated);
	xmlFreeDoc(doc);
	n = ups.n;
	s->full_wait = 0;
	for (size_t i = 0; i < n; i++)
		task_update(s, &ups.ups[i]);
	*quiet = n == 0 && !truncated && !full;
	/* quiet: the next wait twice as long (1, 2, 4 ... s, up to half the
	 * call timeout), so a lost update (reconcile) costs a second, and a
	 * long task a wait every half call timeout */
	s->wait_secs = *quiet ? wait * 2 : 1;
	if (truncated)
		s->last_wait = 0;       /* the rest at once */
	gw_vs_task_updates_free(ups.ups, n);
	return 0;
}

/* The task has gone from its filter: its info asked directly, once. */
static int
ask_task(gw_vs *s, vs_task *t, gw_err *e)
{
	gw_vs_task_info ti;
	gw_vs_task_update u;

	if (vs_task_info_get(s, t->moref, &ti, e) != 0)
		return -1;
	if (ti.state < 0) {
		gw_vs_task_info_free(&ti);
		gw_err_set(e, _("%s: the task %s (%s) has gone; check the VM in the vSphere Client"),
		           s->host, t->moref, t->what);
		return -1;
	}
	memset(&u, 0, sizeof u);
	u.task = t->moref;
	u.state = ti.state;
	u.progress = -1;
	u.fault_type = ti.fault_type;
	u.fault_message = ti.fault_message;
	t->left = 0;
	task_update(s, &u);
	gw_vs_task_info_free(&ti);
	return 0;
}

/* Tasks seen leaving their filter before they ended (removed on the
 * server): asked for directly. */
static int
ask_left_tasks(gw_vs *s, gw_err *e)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		vs_task *t = &s->tasks[i];

		if (t->moref && t->state < 2 && t->left && ask_task(s, t, e) != 0)
			return -1;
	}
	return 0;
}

/* The open tasks' state and error asked directly, at most
 * TASKS_PER_CALL of them in one RetrievePropertiesEx, from read_at on
 * (wrapping round), read_at left after the last asked: what it finds
 * ended goes through task_update as an update would.  After a wait that
 * brought nothing (reconcile): a wait should miss no change, but a
 * server may: govmomi's simulator reads a new filter's state and only
 * then starts collecting changes, so a task that ends in between is
 * never reported, and a client that trusts the filter alone waits for
 * it until the deadline.  Before the first wait: tasks that end quickly
 * are known ended without a view, a filter or a wait.  The answer is
 * read object by object (a page is enough: the tasks it leaves out are
 * asked next time). */
static int
read_states(gw_vs *s, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, spec;
	vs_updates a = { NULL, 0, 0 };
	size_t i, k, n = 0;
	int rc;

	spec = vs_req_collector(&r, s, "RetrievePropertiesEx", "specSet");
	task_props(spec);
	if (s->read_at >= s->ntasks)
		s->read_at = 0;
	for (k = 0, i = s->read_at; k < s->ntasks && n < TASKS_PER_CALL;
	     k++, i = i + 1 < s->ntasks ? i + 1 : 0)
		if (s->tasks[i].moref && s->tasks[i].state < 2 && !s->tasks[i].left) {
			vs_add_moref(vs_add_el(spec, "objectSet"), "obj", "Task",
			             s->tasks[i].moref);
			n++;
		}
	s->read_at = i;
	vs_add_el(r.method, "options");
	if (n == 0) {
		vs_req_free(&r);
		return 0;
	}
	rc = vs_call_units(s, "RetrievePropertiesEx", &r, vs_objects_path,
	                   vs_task_state_unit, &a, &doc, &el, e);
	vs_req_free(&r);
	if (rc != 0) {
		gw_vs_task_updates_free(a.ups, a.n);
		return -1;
	}
	vs_task_states_from_el(el, &a);
	xmlFreeDoc(doc);
	for (i = 0; i < a.n; i++)
		task_update(s, &a.ups[i]);
	gw_vs_task_updates_free(a.ups, a.n);
	return 0;
}

/* Every open task's state read once, TASKS_PER_CALL a call. */
static int
read_all_states(gw_vs *s, gw_err *e)
{
	size_t open = 0, calls;

	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].moref && s->tasks[i].state < 2 && !s->tasks[i].left)
			open++;
	s->read_at = 0;
	for (calls = (open + TASKS_PER_CALL - 1) / TASKS_PER_CALL;
	     calls > 0 && s->inflight > 0; calls--)
		if (read_states(s, e) != 0)
			return -1;
	return 0;
}

/* A call about the tasks failed: -1, e said anew where the server went
 * away (the tasks' fate not known). */
static int
lost_line(gw_vs *s, gw_err *e)
{
	if (s->lost && !s->out_of_time)
		gw_err_set(e, _("the server went away while the task was running; check the VM in the vSphere Client before trying again"));
	return -1;
}

static int
open_done(const gw_vs *s, const vs_task *sync_task, size_t max_inflight)
{
	if (sync_task)
		return sync_task->state >= 2;
	return s->inflight <= max_inflight;
}

/* Open tasks not in the view yet, and room for them in it. */
static int
unwatched(const gw_vs *s)
{
	if (s->view_n >= TASKS_PER_CALL)
		return 0;
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].moref && s->tasks[i].state < 2 && !s->tasks[i].in_view)
			return 1;
	return 0;
}

/* One step of the wait: the new tasks into the view, a wait, the tasks
 * that left asked for.  A
 * wait that brings nothing (maxWaitSeconds) is only counted: nothing new
 * for POLL_CALLS call timeouts ends the wait with an error. */
static int
wait_step(gw_vs *s, int *quiet, gw_err *e)
{
	if ((unwatched(s) && watch_new(s, e) != 0) ||
	    wait_once(s, quiet, e) != 0 || ask_left_tasks(s, e) != 0 ||
	    (*quiet && s->inflight > 0 && read_states(s, e) != 0))
		return lost_line(s, e);
	return 0;
}

int
vs_tasks_wait_until(gw_vs *s, vs_task *sync_task, size_t max_inflight,
                    gw_err *e)
{
	double deadline = vs_now() + (double)s->call_timeout * POLL_CALLS;

	while (!open_done(s, sync_task, max_inflight)) {
		int quiet = 0;

		if (wait_step(s, &quiet, e) != 0)
			return -1;
		if (quiet && vs_now() > deadline) {
			gw_err_set(e, _("%s: a task is still running after %ld s; check the VMs in the vSphere Client"),
			           s->host, s->call_timeout * POLL_CALLS);
			return -1;
		}
		if (!quiet)
			deadline = vs_now() + (double)s->call_timeout * POLL_CALLS;
	}
	return 0;
}

int
vs_tasks_make_room(gw_vs *s, size_t max_inflight, gw_err *e)
{
	/* tasks that end quickly free the window in this one round trip,
	 * with no view change and no wait */
	if (read_states(s, e) != 0)
		return lost_line(s, e);
	return vs_tasks_wait_until(s, NULL, max_inflight, e);
}

void
vs_task_forget(gw_vs *s, vs_task *t)
{
	task_clear(s, t);
	while (s->ntasks > 0 && s->tasks[s->ntasks - 1].moref == NULL)
		s->ntasks--;
}

/* The tasks' list emptied (the view and its filter stay for the next). */
static void
tasks_reset(gw_vs *s)
{
	for (size_t i = 0; i < s->ntasks; i++)
		task_clear(s, &s->tasks[i]);
	free(s->tasks);
	s->tasks = NULL;
	s->ntasks = s->tasks_cap = 0;
	s->inflight = 0;
	s->read_at = 0;
	gw_idset_free(&s->task_ids);
	s->task_ids_shared = 0;
}

void
vs_tasks_free(gw_vs *s)
{
	tasks_reset(s);
	ended_free(s);
	free(s->task_view);
	free(s->task_filter);
	s->task_view = s->task_filter = NULL;
	free(s->wait_version);
	s->wait_version = NULL;
}

void
gw_vs_set_parallel(gw_vs *s, unsigned n, gw_vs_task_done_fn cb, void *ctx)
{
	if (s == NULL)
		return;
	s->parallel = n;
	s->done_cb = cb;
	s->done_ctx = ctx;
}

int
gw_vs_tasks_wait(gw_vs *s, gw_err *e)
{
	int rc;

	if (s == NULL)
		return 0;
	/* tasks that ended quickly: known without a view or a wait */
	rc = read_all_states(s, e) != 0 ? lost_line(s, e) :
	     vs_tasks_wait_until(s, NULL, 0, e);
	if (rc == 0 && s->nfailed > 0)
		rc = 1;
	tasks_reset(s);
	s->ndone = s->nfailed = s->ntotal = 0;
	return rc;
}
