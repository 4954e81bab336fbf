/* SPDX-License-Identifier: GPL-3.0-or-later */
/* connect.h: the welcome screen's choice of a route (connect.c). */
#ifndef GW_UI_CONNECT_H
#define GW_UI_CONNECT_H

#include "screen.h"

/* Choose route m on the welcome screen (Enter or Space on its row): a
 * route that can be chosen as it stands is chosen (gw_wizard_set_mode);
 * one that connects and has no host yet (an ESXi host over SSH, the API)
 * opens its connection box, which asks for the address and connects
 * (gw_wizard_connect).  0 when m is chosen (a host attached and read),
 * -1 when not (cancelled, or the message line says why). */
int ui_connect_mode(ui_ctx *u, gw_mode m);

#endif
