/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizutil.h: what the wizard unit tests share (after testutil.h and
 * wizard.h). */
#ifndef GW_WIZUTIL_H
#define GW_WIZUTIL_H

/* A wizard on the heap, started plain (no answers, host or sample). */
static inline gw_wizard *
tu_wizard_fresh(const gw_table *t)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	w = gw_wizard_new(t, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

#endif
