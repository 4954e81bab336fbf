/* finding_print.h: the one text printer and the one JSON printer for lists
 * of gw_finding (finding.h).
 *
 * Two layouts give today's two outputs:
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
	GW_LAYOUT_CHECKS    /* check rows: "TITLE : STATUS" */
} gw_finding_layout;

/* "FAIL", "WARN", "INFO", "PASS", translated (at most 5 cells). */
const char *gw_sev_label(gw_sev s);

/* How many of the n rows have a topic in topics. */
size_t gw_findings_count(const gw_finding *v, size_t n, unsigned topics);

/* Print the rows with a topic in topics to f, in the layout. */
void gw_findings_print(FILE *f, const gw_finding *v, size_t n,
                       gw_finding_layout layout, unsigned topics);

/* The rows with a topic in topics as a new JSON array (the caller owns
 * it), in the layout's shape.  Text that is not valid UTF-8 becomes '?'
 * (gw_json_text). */
json_t *gw_findings_json(const gw_finding *v, size_t n,
                         gw_finding_layout layout, unsigned topics);

/* gpuwiz check's output of check rows: the GW_LAYOUT_CHECKS text, or with
 * json {"checks": [...]} indented, keys in order, with a final newline. */
void gw_checks_print(FILE *f, const gw_finding *v, size_t n, int json);

#endif
