/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_write.c: the command line's side of a write (session.h,
 * session_apply.c): with --dry-run the write's description is printed and
 * nothing runs; otherwise the session runs the same description.  And the
 * words the host commands share (the upgrade hint, power states). */
#include "cli_int.h"
#include "textesc.h"
#include "write_report.h"

#include <stdio.h>
#include <string.h>

void
cli_print_dry_run(const gw_write_desc *d)
{
	gw_buf b;

	gw_buf_init(&b);
	gw_write_desc_render(&b, d);
	/* TRANSLATORS: heading of --dry-run; the steps follow. */
	printf("%s\n", _("Dry run: nothing was changed. The write would:"));
	fputs(b.data ? b.data : "", stdout);
	gw_buf_free(&b);
}

int
cli_write(const cli_opts *o, gw_session *s, gw_session_write *w, gw_vmx **doc,
          gw_apply_result *res, gw_err *e)
{
	if (o->dry_run) {
		memset(res, 0, sizeof *res);
		return 0;
	}
	if (gw_session_write_run(s, w, doc, res, e) != 0)
		return -1;
	cli_note_written(res);
	return 0;
}

/* On a host (vmx --vm, vsphere apply) the hardware-version advice has a
 * flag of its own: say so under the findings. */
void
cli_upgrade_hint(const gw_plan *p, int asked)
{
	if (!asked && p->hw_current > 0 && p->hw_target > p->hw_current)
		/* TRANSLATORS: %d is the newest hardware version of the host;
		 * --upgrade-hw is an option. */
		gw_fprintf_escaped(stdout, _("  Add --upgrade-hw to upgrade this VM to vmx-%d first (powered off only; one-way: gpuwiz first copies the .vmx to a backup beside it).\n"),
		       p->hw_target);
}

/* The power state word of the JSON outputs. */
const char *
cli_power_word(gw_power p)
{
	return p == GW_POWER_ON ? "on" : p == GW_POWER_OFF ? "off" :
	       p == GW_POWER_SUSPENDED ? "suspended" : "unknown";
}

