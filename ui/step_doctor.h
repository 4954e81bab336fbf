/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_doctor.h: the doctor, a detour of the welcome screen (not a
 * numbered step): a text area for the pasted error or a vmware.log path,
 * then the findings with cause, fix and source, then the review with the
 * fixes pre-filled (src/wizard/wizard_doctor.h).  The welcome screen
 * owns its state and hands it draw, keys and help while it is open. */
#ifndef GW_UI_STEP_DOCTOR_H
#define GW_UI_STEP_DOCTOR_H

#include "screen.h"
#include "wizard_doctor.h"

typedef struct ui_doctor ui_doctor;

ui_doctor *ui_doctor_new(void);
void ui_doctor_free(ui_doctor *dc);
/* Show the text area (bracketed paste on); shown until Esc or a walk. */
void ui_doctor_open(ui_ctx *u, ui_doctor *dc);
int ui_doctor_shown(const ui_doctor *dc);
/* Back to the welcome list: the text area off, the walk forgotten. */
void ui_doctor_close(ui_ctx *u, ui_doctor *dc);
void ui_doctor_draw(ui_ctx *u, ui_doctor *dc, ui_rect r);
int ui_doctor_key(ui_ctx *u, ui_doctor *dc, ui_key k);
const char *ui_doctor_help(ui_ctx *u, const ui_doctor *dc);
size_t ui_doctor_keys(ui_ctx *u, const ui_doctor *dc, ui_keyhelp *out,
                      size_t max);

/* The findings page (step_doctor_draw.c): its scroll, kept by the
 * doctor; draw clamps top and sets rows (shown) and nrows (in all). */
typedef struct ui_doctor_scroll {
	int top, rows, nrows;
} ui_doctor_scroll;
void ui_doctor_findings_draw(ui_ctx *u, const gw_wizard_doctor *d,
                             ui_rect r, ui_doctor_scroll *sc);

/* ---- for the main loop (tui.c) ---------------------------------------- */

/* The welcome screen's doctor (step_welcome.c). */
ui_doctor *ui_welcome_doctor(ui_ctx *u);
/* A step was passed: when the doctor's walk stopped there, walk on to
 * the review.  1 when the wizard moved (the loop enters the new step). */
int ui_doctor_resume(ui_ctx *u);
/* The terminal's bracketed paste mode (xterm's DECSET 2004) on or off;
 * off on every exit path (tui.c). */
void ui_bracketed_paste(int on);

#endif
