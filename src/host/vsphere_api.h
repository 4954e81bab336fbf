/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere_api.h: the table the vSphere module (vsphere.so) exports and the
 * program looks up with dlsym (doc/design.md, section 2.5).  The module is
 * the only code linked with libcurl, libxml2 and OpenSSL; the program
 * reaches it through the forwarders of vsphere_load.c, which have the
 * names and prototypes of vsphere.h, so callers do not change.
 */
#ifndef GW_VSPHERE_API_H
#define GW_VSPHERE_API_H

#include "vsphere.h"

/* Bump on any change of vsphere_api.def or of a struct of vsphere.h. */
#define GW_VS_ABI 6
/* The file the program opens and the one symbol it looks up there. */
#define GW_VS_MODULE_FILE "vsphere.so"
#define GW_VS_MODULE_SYMBOL "gw_vs_module"

/* The boundary as text, one line per function ("RET NAME (PARAMS)"): the
 * loader compares the module's with its own, whole, so a module built
 * from another list is refused even where GW_VS_ABI was not bumped.  (A
 * copy in each of the two files that include this header.) */
static const char gw_vs_signature[] =
#define GW_VS_FN(ret, name, params, args, fail, err) #ret " " #name " " #params "\n"
#define GW_VS_PROC(name, params, args) "void " #name " " #params "\n"
#include "vsphere_api.def"
#undef GW_VS_FN
#undef GW_VS_PROC
	"";

typedef struct gw_vs_api {
	unsigned abi;             /* GW_VS_ABI; first, read before the rest */
	const char *version;      /* PACKAGE_VERSION of the module's build */
	const char *signature;    /* the module's gw_vs_signature */
#define GW_VS_FN(ret, name, params, args, fail, err) ret (*name) params;
#define GW_VS_PROC(name, params, args) void (*name) params;
#include "vsphere_api.def"
#undef GW_VS_FN
#undef GW_VS_PROC
} gw_vs_api;

#endif
