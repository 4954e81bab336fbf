/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.h: the non-interactive command line (doc/design.md, section 8). */
#ifndef GW_CLI_H
#define GW_CLI_H

#include "gputable.h"
#include "wizard.h"

/* The interactive wizard, handed in by main() so that the core library does
 * not depend on ncurses (see ui/tui.h).  It owns st->runner.  The CLI
 * gives t NULL and st->table_path: the wizard reads the table when it
 * needs it (gw_wizard_table). */
typedef int (*gw_wizard_fn)(const gw_table *t, gw_wizard_start *st,
                            gw_err *e);

/* Run gpuwiz with argv; returns the exit status (0 ok, 1 check failed,
 * 2 usage or input error).  wizard may be NULL (no screens built in). */
int gw_cli_main(int argc, char **argv, gw_wizard_fn wizard);

#endif
