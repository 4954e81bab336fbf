/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_changes.h: the host changes the wizard queues (enable passthrough,
 * upgrade the hardware version), shown in the review and run by the write
 * step after one confirmation (wizard_queue.c).  Part of the wizard's
 * interface (the screens that show or run the changes include it). */
#ifndef GW_WIZARD_CHANGES_H
#define GW_WIZARD_CHANGES_H

#include "wizard.h"

/* Passthrough of detected GPU idx queued (gw_wizard_esxi_enable): 1
 * waiting, 2 done by the write, 0 not queued.  A queued GPU counts as
 * enabled (gw_wizard_detected_passthru is 1) for the plan's host counts
 * and the GPU step. */
int gw_wizard_enable_queued(const gw_wizard *w, size_t idx);
/* The hardware version the open VM's queued upgrade goes to, 0 when none
 * waits. */
int gw_wizard_upgrade_queued(const gw_wizard *w);
/* The hardware version the open VM has before its queued upgrade runs
 * (the plan is already made for the target), 0 when none waits. */
int gw_wizard_upgrade_from(const gw_wizard *w);
/* The review's "Changes on the host": two translated lines per change,
 * in the order they run: what it does ("Enable passthrough on
 * 0000:5e:00.0 (...)", "Upgrade VM NAME from vmx-13 to vmx-21 (...)",
 * "(done)" once run), then the exact command (esxcli, vim-cmd, or the API
 * method; not translated).  Empty without a host or a change; never
 * NULL (gw_strv_free). */
char **gw_wizard_host_changes(const gw_wizard *w);
/* The question the write step asks before it runs host changes: "Write
 * the changes to the host and the files? This cannot be undone on the
 * host." and the numbered list of what will be done (the last: the .vmx
 * and the files); NULL when no host change waits (no question).
 * malloc'ed. */
char *gw_wizard_confirm_text(const gw_wizard *w);
/* The host changes the write has done (also when it then stopped). */
size_t gw_wizard_host_changed(const gw_wizard *w);
/* The write step's actions report here (step k of n from 1, what is
 * being done, translated), before each: the host changes in order, then
 * the .vmx and the files.  gw_wizard_write runs the changes first; a
 * failure stops it there, writes no file and says in GW_ERR_WRITE which
 * change failed and what was done before it. */
typedef void (*gw_wizard_step_fn)(void *ctx, size_t k, size_t n,
                                  const char *what);
void gw_wizard_set_write_steps(gw_wizard *w, gw_wizard_step_fn fn, void *ctx);

#endif
