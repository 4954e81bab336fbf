/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_report.h: the plan as the commands show it (gpuwiz mmio, vmx,
 * snippet, apply, vsphere apply): the GPUs, the calculation, the settings
 * as a diff with reasons and sources, and the findings through the one
 * finding printer (finding_print.h, GW_LAYOUT_PLAN), chosen by topic; or
 * the whole plan as one JSON object.  Each writes to the stream it is
 * given (snippet sends the findings to stderr, so that stdout stays a
 * clean snippet); text from outside is escaped. */
#ifndef GW_PLAN_REPORT_H
#define GW_PLAN_REPORT_H

#include "plan.h"

#include <stdio.h>
#include <jansson.h>

/* The findings that bear on the 64-bit MMIO size (gpuwiz mmio). */
#define GW_PLAN_SIZING_TOPICS \
	(GW_TOPIC_BIT(GW_TOPIC_SIZING) | GW_TOPIC_BIT(GW_TOPIC_GPU))

/* "  1 x l40s (NVIDIA L40S), 48 GB" a GPU. */
void gw_plan_print_gpus(FILE *f, const gw_plan *p);
/* The calculation's steps, indented. */
void gw_plan_print_steps(FILE *f, const gw_plan *p);
/* The findings with a topic in topics, after heading (NULL: none) when
 * there is one. */
void gw_plan_print_findings(FILE *f, const gw_plan *p, unsigned topics,
                            const char *heading);
/* "Changes:", the settings, then "Findings:" and every finding. */
void gw_plan_print_changes(FILE *f, const gw_plan *p);
/* {"gpus", "total_vram_gb", "rule_gb", "bar_gb", "existing_mmio_gb",
 * "mmio_size_gb", "steps", "settings", "findings"}: the findings with a
 * topic in topics, in finding_print.h's plan shape. */
json_t *gw_plan_json(const gw_plan *p, unsigned topics);

#endif
