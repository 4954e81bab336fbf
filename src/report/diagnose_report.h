/* diagnose_report.h: the report of gpuwiz diagnose: the findings of
 * gw_diagnose_text (diagnose.h) as text or JSON, and the command. */
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

/* `gpuwiz diagnose FILE|-`: read FILE ("-": standard input), diagnose it
 * and print the report on stdout.  Returns the exit status: 0 when at least
 * one known failure was recognised, 1 when none was, 2 on an input error
 * (no name, missing, unreadable, a directory, binary (NUL bytes), empty or
 * blank, larger than GW_DIAG_MAX_INPUT): then e holds one translated line
 * naming the input and nothing was printed on stdout.  A failed write to
 * stdout also returns 2, with e set ("standard output: cannot write"). */
int gw_diagnose_command(const char *path, int json, gw_err *e);

#endif
