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
/* The write step's first part: the host changes waiting, in order, each
 * reported (k of n, the write itself the last); the .vmx read again after
 * an upgrade and the plan made anew on it.  0 when all ran (or none
 * waited); -1 with write_error saying which change failed and what ran
 * before it. */
int wz_run_changes(gw_wizard *w);
/* The host changes done, a line each ("Enable passthrough on ... (done)"),
 * for the summary printed on exit. */
void wz_done_changes(const gw_wizard *w, wz_strv *s);
/* The next steps the host changes leave (the reboot an enable needs). */
void wz_next_host_changes(const gw_wizard *w, wz_strv *s);

#endif
