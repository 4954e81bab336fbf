/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere_mod.c: the one symbol of the vSphere module, vsphere.so
 * (doc/design.md, section 2.5): the table of the functions in
 * vsphere_api.def, with the ABI number, the version and the list as text
 * for the loader's check.  The module's other symbols are hidden (its
 * objects are built with -fvisibility=hidden); what it needs of the
 * program (gw_err_set, gw_buf_*, gw_x*) it finds there, exported by the
 * program for it. */
#include "vsphere_api.h"

__attribute__((visibility("default")))
extern const gw_vs_api gw_vs_module;

const gw_vs_api gw_vs_module = {
	.abi = GW_VS_ABI,
	.version = PACKAGE_VERSION,
	.signature = gw_vs_signature,
#define GW_VS_FN(ret, name, params, args, fail, err) .name = name,
#define GW_VS_PROC(name, params, args) .name = name,
#include "vsphere_api.def"
#undef GW_VS_FN
#undef GW_VS_PROC
};
