/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tui.h: the ncurses wizard (doc/design.md, section 10).  One small module per
 * step (draw/key/resize), one main loop; the screens render the gw_wizard
 * state (src/wizard.h) and never compute settings themselves. */
#ifndef GW_TUI_H
#define GW_TUI_H

#include "gw.h"
#include "gputable.h"
#include "wizard.h"

/* Run the wizard on the terminal.  st->answers pre-fills every screen
 * (NULL = start empty); st->runner (owned from here on) is an ESXi host to
 * work on; st->sample a sample host to practise on (its scratch directory
 * is printed when the wizard ends); t NULL: st->table_path is read after
 * the first screen is drawn, before the first key (gw_wizard_load_table).
 * Returns the exit status: 0 written or quit by the operator, 2 on an
 * error before the screen started (e set, terminal untouched) or a GPU
 * table that cannot be read (e set, the terminal restored, nothing
 * done).  The terminal is restored on every exit path, including
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT (128 + the signal) and errors. */
int gw_tui_main(const gw_table *t, gw_wizard_start *st, gw_err *e);

#endif
