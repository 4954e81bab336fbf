/* SPDX-License-Identifier: GPL-3.0-or-later */
/* finding_print.h: the one text printer and the one JSON printer for lists
 * of gw_finding (finding.h).
 *
 * Four layouts give today's outputs:
 *  - GW_LAYOUT_PLAN, the plan's findings (gpuwiz vmx/mmio/snippet/apply):
 *      "  WARN  message\n"
 *      "        fix: ...\n"         (when fix is set)
 *      "        source: ...\n"      (when source is set)
 *    the label translated and padded to 5 terminal cells; JSON: an array
 *    of {"id", "severity" ("info"/"warn"/"error"), "message", "fix",
 *    "source"} (fix and source null when unset).
 *  - GW_LAYOUT_CHECKS, check rows (gpuwiz check, the host probes):
 *      "TITLE : STATUS\n"           (STATUS: PASS, INFO, WARN, FAIL)
 *      "  message\n"                (rows that did not pass)
 *      "  fix: ...\n"               (rows that did not pass, fix set)
 *    JSON: an array of {"id", "status", "title", "message", "fix"} (fix
 *    null when unset); gw_checks_print wraps it as {"checks": [...]}.
 *  - GW_LAYOUT_VERIFY, the guest's rows (gpuwiz verify), in the manner of
 *    virt-host-validate:
 *      "TITLE<padded to 56 cells> : LABEL\n"   (LABEL translated)
 *      "        message\n"
 *      "        fix: ...\n"         (when fix is set)
 *    JSON: an array of {"id", "status" ("pass"/"info"/"warn"/"fail"),
 *    [the extra's keys: verify's "gpu"], "message", "fix"}.
 *  - GW_LAYOUT_DIAG, the causes gpuwiz diagnose recognised:
 *      [the extra's text: "\n[1] id (line N)\n    \"line\"\n"]
 *      "    Cause: message\n"
 *      "    Fix: ...\n"             (when fix is set)
 *      "    Source: ...\n"          (when source is set)
 *    JSON: an array of {"id", "cause", "fix", "source", [the extra's
 *    keys: "line", "line_number", "matches", ...]}.
 *
 * Every printer takes a topic mask (finding.h: GW_TOPIC_BIT, GW_TOPIC_ALL)
 * and shows only the rows whose topic is in it: "gpuwiz mmio" shows
 * GW_TOPIC_BIT(GW_TOPIC_SIZING) | GW_TOPIC_BIT(GW_TOPIC_GPU).
 */
#ifndef GW_FINDING_PRINT_H
#define GW_FINDING_PRINT_H

#include "finding.h"

#include <stdio.h>
#include <jansson.h>

typedef enum {
	GW_LAYOUT_PLAN,     /* the plan's findings */
	GW_LAYOUT_CHECKS,   /* check rows: "TITLE : STATUS" */
	GW_LAYOUT_VERIFY,   /* verify's rows: "TITLE ... : LABEL" */
	GW_LAYOUT_DIAG      /* diagnose's causes: "Cause:", "Fix:" */
} gw_finding_layout;

/* What a producer adds to each of its rows, beyond the finding: diagnose
 * its heading, the quoted line and the numbers; verify the GPU's bus id.
 * Each hook gets the row, its index in the list handed to the printer,
 * and arg; either hook may be NULL. */
typedef struct gw_finding_extra {
	/* text written before the row's own */
	void (*text)(gw_buf *out, const gw_finding *f, size_t i, void *arg);
	/* keys added to the row's object: in GW_LAYOUT_VERIFY after
	 * "status", in the other layouts after the last key */
	void (*json)(json_t *row, const gw_finding *f, size_t i, void *arg);
	void *arg;
} gw_finding_extra;

/* How many of the n rows have a topic in topics. */
size_t gw_findings_count(const gw_finding *v, size_t n, unsigned topics);

/* The text printer: the rows with a topic in topics, in the layout,
 * appended to out (initialised when out->data is NULL); x may be NULL. */
void gw_findings_render(gw_buf *out, const gw_finding *v, size_t n,
                        gw_finding_layout layout, unsigned topics,
                        const gw_finding_extra *x);

/* The JSON printer: the rows with a topic in topics as a new JSON array
 * (the caller owns it), in the layout's shape; x may be NULL.  Text that
 * is not valid UTF-8 becomes '?' (gw_json_text). */
json_t *gw_findings_json_ext(const gw_finding *v, size_t n,
                             gw_finding_layout layout, unsigned topics,
                             const gw_finding_extra *x);

/* gw_findings_render to f, without extras. */
void gw_findings_print(FILE *f, const gw_finding *v, size_t n,
                       gw_finding_layout layout, unsigned topics);

/* gw_findings_json_ext without extras. */
json_t *gw_findings_json(const gw_finding *v, size_t n,
                         gw_finding_layout layout, unsigned topics);

/* gpuwiz check's output of check rows: the GW_LAYOUT_CHECKS text, or with
 * json {"checks": [...]} indented, keys in order, with a final newline. */
void gw_checks_print(FILE *f, const gw_finding *v, size_t n, int json);

#endif
