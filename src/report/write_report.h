/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write_report.h: a write described before it runs (apply.h:
 * gw_write_desc) as text and as JSON: what --dry-run prints, and what
 * apply --json says was or would be written.
 *
 * Text, one line a step, in the order the write runs them:
 *   "  copy PATH to a backup beside it, before any change on the host
 *    touches the VM"                           (a host change queued for it)
 *   "  run on the host: COMMAND  (TITLE)"
 *   "  save PATH (a backup beside it)", then ", then run: COMMAND" on a host
 *    (after the copy above: "(no second backup: ...)", the copy is the one)
 *   "  send through the API: COMMAND"          (the VM's settings, API)
 *   "  leave PATH as it is: it already has every setting"
 *   "  write PATH"                              (a snippet file)
 * and under a .vmx its lines, "      + key = \"value\"" / "      - ...".
 * JSON: {"host_changes": [{"change", "command"}], "vmx": null or {"path",
 * "on_host", "command", "changed", "lines": [...], "backup"}, "files":
 * [...]}. */
#ifndef GW_WRITE_REPORT_H
#define GW_WRITE_REPORT_H

#include "apply.h"

#include <jansson.h>

void gw_write_desc_render(gw_buf *out, const gw_write_desc *d);
/* backup: the .vmx's backup once written, NULL otherwise. */
json_t *gw_write_desc_json(const gw_write_desc *d, const char *backup);

#endif
