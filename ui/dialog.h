/* dialog.h: the boxes of dialog.c that screen.h does not declare. */
#ifndef GW_UI_DIALOG_H
#define GW_UI_DIALOG_H

#include "screen.h"

/* Ask a yes/no question with two buttons, the cursor on No (debian-
 * installer's "Write the changes to disks?"): y, or Enter on Yes, is 1;
 * n, Esc, or Enter on No is 0; Tab and Left/Right move; -1 ending. */
int ui_confirm_no(ui_ctx *u, const char *question);

/* Ask a question answered by one of several keys: pairs is "key",
 * "label", ... NULL (each key one ASCII letter, shown before its label).
 * Returns the index of the pair whose key was pressed (either case); Esc
 * is -2; -1 ending. */
int ui_choose(ui_ctx *u, const char *question, const char *const *pairs);

#endif
