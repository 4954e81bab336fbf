/* cmd_vsphere_batch.c: the tasks of gpuwiz vsphere apply on the screen
 * (vsbatch.h). */
#include "cli_int.h"
#include "out.h"
#include "vsbatch.h"
#include "textesc.h"

#include <stdio.h>
#include <string.h>

void
vs_batch_init(vs_batch *b, const char *cmd, int bar)
{
	memset(b, 0, sizeof *b);
	b->cmd = cmd;
	b->bar = bar;
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
	if (error) {
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
