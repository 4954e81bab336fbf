/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_host.h: what the parts of step 2 share: its state, and the probed
 * rows (this Linux host's checks, an ESXi host's rows) drawn most severe
 * first (step_host_rows.c); step_host.c has the offline checklist and
 * the keys. */
#ifndef GW_UI_STEP_HOST_H
#define GW_UI_STEP_HOST_H

#include "draw.h"
#include "screen.h"

typedef struct host_st {
	ui_list list;          /* cur: the highlighted row (gw_wizard_checks'
	                        * index; offline: the item) */
	ui_list view;          /* probed: the rows in the order shown */
	int row_of[GW_NHOST];  /* offline: each item's line */
	int lrow_y0;           /* probed: the first row's line */
	int rows_h;            /* probed: the rows shown at the last draw */
	int seen;              /* entered once: the cursor was placed */
} host_st;

static inline host_st *
hst(ui_ctx *u)
{
	return u->state[GW_STEP_HOST];
}

/* The host's rows are probes (this Linux host, an ESXi host), not the
 * offline checklist. */
static inline int
probe_mode(const gw_wizard *w)
{
	return gw_wizard_can(w, GW_CAN_PROBE);
}

/* The probed rows are shown most severe first (FAIL, WARN, INFO, PASS;
 * the host's order within one severity), so that nothing that needs the
 * operator is below the fold (doc/design.md, section 10): the row (gw_wizard_checks'
 * index) shown at position k, and where row i is shown. */
int host_shown_row(const gw_wizard *w, int k);
int host_row_shown_at(const gw_wizard *w, int i);
/* The probed rows, the ^/v marks, and the highlighted row's message and
 * fix (kept whole below the rows). */
void host_rows_draw(ui_ctx *u, ui_rect r);

#endif
