/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_report.h: the report of gpuwiz diagnose: the findings of
 * gw_diagnose_text (diagnose.h) as text or JSON (the command that reads
 * the input and prints is in src/cli/cmd_guest.c). */
#ifndef GW_DIAGNOSE_REPORT_H
#define GW_DIAGNOSE_REPORT_H

#include "diagnose.h"

/* Render a result as the command prints it, appending to *out.
 * Text: for each finding the rule id, the line number, the quoted line,
 * then "Cause:", "Fix:" and "Source:" lines; with no finding a "no known
 * failure recognised in NAME" line and what to send to support.
 * JSON (json != 0): {"findings":[{"id","cause","fix","source","line",
 * "line_number","matches", and "mmio_size_gb" / "memsize_mb" where the rule
 * has them}]}; with no finding also "message" (the same advice as text).
 * input_name names the input in the text ("standard input" for "-").
 * out must be initialised (gw_buf_init) or all zero. */
void gw_diag_render(const gw_diag_result *r, const char *input_name, int json,
                    gw_buf *out);

#endif
