/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_doctor.h: the doctor, the welcome screen's detour that starts
 * from a failure (doc/design.md, section 9, "The doctor"): the operator
 * pastes the error text or gives a vmware.log, gpuwiz diagnose's rules
 * (diagnose.h) name cause, fix and source, and where the fix is a .vmx
 * change the doctor pre-fills the answers and walks to the review.
 * Part of the wizard's interface (the doctor's screens include it). */
#ifndef GW_WIZARD_DOCTOR_H
#define GW_WIZARD_DOCTOR_H

#include "wizard.h"
#include "diagnose.h"

/* One doctor per wizard run, kept by the screen (not in the wizard: a
 * diagnosis is the screen's input, the wizard only gets its answers). */
typedef struct gw_wizard_doctor gw_wizard_doctor;

gw_wizard_doctor *gw_wizard_doctor_new(void);
void gw_wizard_doctor_free(gw_wizard_doctor *d);

/* Diagnose text[0..len) (pasted or typed; any bytes).  When the text,
 * blanks trimmed, is one line naming an existing file ("~/" is the home
 * directory), that file is read instead (at most GW_DIAG_MAX_INPUT bytes)
 * and becomes the source; a file named vmware*.log is looked at for the
 * VM's .vmx beside it: exactly one *.vmx in its directory is proposed
 * (gw_wizard_doctor_vmx), several or none leave the choice to the VM
 * step.  Replaces an earlier diagnosis (nothing is pre-filled yet).
 * Returns the number of findings (0: nothing recognised), -1 and e when
 * the file cannot be read or the input is larger than GW_DIAG_MAX_INPUT.
 * w is only read (may be NULL). */
int gw_wizard_doctor_text(gw_wizard_doctor *d, const gw_wizard *w,
                          const char *text, size_t len, gw_err *e);

/* Is text[0..len), blanks trimmed, one line naming an existing file (the
 * rule gw_wizard_doctor_text reads a file by)? */
int gw_wizard_doctor_names_file(const char *text, size_t len);

/* The findings of the last diagnosis, in diagnose's order. */
size_t gw_wizard_doctor_count(const gw_wizard_doctor *d);
const gw_diag_finding *gw_wizard_doctor_finding(const gw_wizard_doctor *d,
                                                size_t i);
/* The file read (the text was a path), NULL for pasted text. */
const char *gw_wizard_doctor_source(const gw_wizard_doctor *d);
/* The .vmx found beside a vmware.log, NULL when none was; how many .vmx
 * files lie there (0, 1, or more: the VM step asks). */
const char *gw_wizard_doctor_vmx(const gw_wizard_doctor *d);
size_t gw_wizard_doctor_nvmx(const gw_wizard_doctor *d);

/* Pre-fill the answers from the findings whose fix is a .vmx change and
 * walk to the review: the proposed .vmx is opened (gw_wizard_open_vmx,
 * the normal checks), the MMIO size set to the diagnosis' size unless
 * the plan's is as large (gw_wizard_set_mmio), the memory reserved, UVM
 * ticked, the Tanzu route's VM type set up (gw_wizard_doctor_tanzu:
 * there the walk stops on the GPU step until a GPU is chosen); on a host
 * that is not probed the checklist's IOMMU and above-4G
 * items are confirmed (the VM reached a passthrough device's power-on, so
 * the host has passthrough).  Each step on the way must pass
 * gw_wizard_check_step; the options step's proposals run as when it is
 * shown.  Returns 0 at the review; 1 when a step stops the walk (why: the
 * step's reason; the doctor stays pending: gw_wizard_doctor_resume goes
 * on once the operator passed it); -1 when no finding has a fix the
 * wizard makes (nothing changes: the normal steps follow). */
int gw_wizard_doctor_apply(gw_wizard_doctor *d, gw_wizard *w, char *why,
                           size_t n);
/* After the operator passed the step that stopped the walk: pre-fill
 * again (the plan may have changed with the .vmx) and walk on.  The
 * same returns; -1 when the doctor is not pending. */
int gw_wizard_doctor_resume(gw_wizard_doctor *d, gw_wizard *w, char *why,
                            size_t n);
int gw_wizard_doctor_pending(const gw_wizard_doctor *d);
/* Did the text come from a BOSH director's vSphere CPI log (the Tanzu
 * route: the fix is the VM type's, the walk asks for the GPU model on
 * the GPU step instead of a .vmx)?  gw_wizard_doctor_apply then sets the
 * activity GW_ACT_TANZU, the outputs tile, BOSH and Ops Manager and the
 * MMIO size of the rule for the GPU chosen. */
int gw_wizard_doctor_tanzu(const gw_wizard_doctor *d);
/* The operator left the detour (back on the welcome screen). */
void gw_wizard_doctor_stop(gw_wizard_doctor *d);

/* The next action after the findings (translated): go to the review with
 * the changes pre-filled, ask for the VM's .vmx first (or, on the Tanzu
 * route, the GPU model; Apply Changes in Ops Manager after the write), do
 * the fix on the host or in the guest and power the VM on again, or (no
 * finding) go on with the normal steps. */
const char *gw_wizard_doctor_next(const gw_wizard_doctor *d,
                                  const gw_wizard *w);

#endif
