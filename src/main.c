/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: kept thin; everything lives in libgpuwiz and ui/. */
#include "gw.h"
#include "cli.h"
#include "tui.h"

int
main(int argc, char **argv)
{
	return gw_cli_main(argc, argv, gw_tui_main);
}
