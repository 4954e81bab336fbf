/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog.h: the boxes of dialog.c that screen.h does not declare. */
#ifndef GW_UI_DIALOG_H
#define GW_UI_DIALOG_H

#include "screen.h"

/* Ask a yes/no question with two buttons, the cursor on No (debian-
 * installer's "Write the changes to disks?"): y, or Enter on Yes, is 1;
 * n, Esc, or Enter on No is 0; Tab and Left/Right move; -1 ending. */
int ui_confirm_no(ui_ctx *u, const char *question);

/* The pieces of dialog.c's boxes, for a box made elsewhere (connect.c):
 * the width of a box (72 cells at most, 6 less than the terminal); a box
 * of h x w centred (its top row and left column); its title on its top
 * edge; "key label  key label" pairs (NULL-terminated) at (y, x) in w
 * cells; show what was drawn and wait for a key (1), a resize (0) or a
 * signal to end (-1); the box taken away (the next refresh repaints the
 * whole terminal). */
int ui_box_width(void);
void ui_box_place(int h, int w, int *y, int *x);
void ui_box_title(int y, int x, int w, const char *title);
void ui_box_keys(int y, int x, int w, const char *const *pairs);
int ui_box_wait(ui_ctx *u, ui_key *k);
void ui_box_closed(ui_ctx *u);

/* Ask a question answered by one of several keys: pairs is "key",
 * "label", ... NULL (each key one ASCII letter, shown before its label).
 * Returns the index of the pair whose key was pressed (either case); Esc
 * is -2; -1 ending. */
int ui_choose(ui_ctx *u, const char *question, const char *const *pairs);

#endif
