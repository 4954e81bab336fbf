/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_queue.h: the host changes the wizard queues (wizard_queue.c),
 * for the other files of src/wizard/. */
#ifndef GW_WIZARD_QUEUE_H
#define GW_WIZARD_QUEUE_H

#include "wizard_int.h"

/* After a probe: the rows of the GPUs with an enable queued show it in
 * place of the host's row (the host's kept with the change). */
void wz_queue_rows(gw_wizard *w);
/* Another VM is opened (or none): its upgrade is no longer wanted. */
void wz_drop_upgrade(gw_wizard *w);
/* The write ran the host changes waiting (rc 0, or -1 with why): their
 * rows marked, the host's counts made anew; on failure write_error says
 * which change failed and what ran before it.  Returns rc. */
int wz_changes_done(gw_wizard *w, int rc, const char *why);
/* The host changes done, a line each ("Enable passthrough on ... (done)"),
 * for the summary printed on exit. */
void wz_done_changes(const gw_wizard *w, wz_strv *s);
/* The next steps the host changes leave (the reboot an enable needs). */
void wz_next_host_changes(const gw_wizard *w, wz_strv *s);

#endif
