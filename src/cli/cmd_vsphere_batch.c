/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_vsphere_batch.c: the tasks of gpuwiz vsphere apply on the screen
 * (vsbatch.h). */
#include "cli_int.h"
#include "out.h"
#include "vsbatch.h"
#include "textesc.h"
#include "jsonutil.h"

#include <stdio.h>
#include <string.h>

void
vs_batch_init(vs_batch *b, const char *cmd, int bar, json_t *vms)
{
	memset(b, 0, sizeof *b);
	b->cmd = cmd;
	b->bar = bar;
	b->vms = vms;
	b->byname = vms != NULL ? json_object() : NULL;
}

void
vs_batch_name(vs_batch *b, const char *name, json_t *jvm)
{
	if (b->byname != NULL && name != NULL &&
	    json_object_get(b->byname, name) == NULL)
		json_object_set(b->byname, name, jvm);
}

void
vs_batch_free(vs_batch *b)
{
	json_decref(b->byname);
	b->byname = NULL;
}

static void
bar_clear(vs_batch *b)
{
	if (b->drawn)
		fputs("\r\033[K", stderr);
	b->drawn = 0;
}

void
vs_batch_done(void *ctx, const char *vm, const char *error, unsigned done,
              unsigned failed, unsigned total)
{
	vs_batch *b = ctx;

	bar_clear(b);
	gw_out_flush();
	if (b->vms != NULL) {
		json_t *x = json_object_get(b->byname, vm);

		if (x != NULL) {
			json_object_set_new(x, "result", json_string(error ? "failed" : "reconfigured"));
			json_object_set_new(x, "error", error ? gw_json_text(error) : json_null());
		}
		if (error)
			cli_die_line(b->cmd, error);
	} else if (error) {
		cli_die_line(b->cmd, error);
	} else {
		/* TRANSLATORS: after ReconfigVM_Task succeeded; %s is the VM. */
		gw_fprintf_escaped(stdout, _("Reconfigured %s.\n"), vm);
		gw_out_flush();
	}
	if (b->bar && b->waiting) {
		/* TRANSLATORS: the progress line of vsphere apply: tasks
		 * ended of those started, then how many failed; at most 60
		 * cells. */
		fprintf(stderr, _("Tasks: %u of %u ended, %u failed"),
		        done + failed, total, failed);
		b->drawn = 1;
	}
}

int
vs_batch_wait(vs_batch *b, gw_vs *vs, gw_err *e)
{
	int rc;

	gw_out_flush();
	b->waiting = 1;
	rc = gw_vs_tasks_wait(vs, e);
	bar_clear(b);
	return rc;
}
