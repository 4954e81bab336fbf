/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_next.h: what wizard_write.c and wizard_next.c share (src/wizard
 * only). */
#ifndef GW_WIZARD_NEXT_H
#define GW_WIZARD_NEXT_H

#include "wizard_int.h"

/* The open VM when it lives on the mode's host (its Vmid is known), else
 * NULL; *shell (may be NULL) = 1 when that host's .vmx is saved and
 * reloaded on its shell (vim-cmd), 0 through the API. */
const gw_vm *wz_next_vm(const gw_wizard *w, int *shell);
/* One step per WARN/FAIL finding of the plan that the write does not
 * resolve, in the order of the action table (wizard_next.c). */
void wz_next_findings(const gw_wizard *w, wz_strv *s);

#endif
