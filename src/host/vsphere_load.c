/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere_load.c: the program's side of the vSphere module (doc/design.md,
 * section 2.5).  libcurl, libxml2 and OpenSSL (with GnuTLS, LDAP,
 * Kerberos, ICU behind them: some thirty libraries) are linked into
 * vsphere.so only, so a command that does not talk to vSphere never loads
 * them.  The functions of vsphere_api.def are defined here as forwarders
 * with the names of vsphere.h: the first call that needs the module opens
 * it (once: dlopen, dlsym of one table, its ABI checked); when it cannot
 * be opened every vSphere call fails with one line naming the file and
 * why.  The forwarders are hidden: the program exports its gw_* functions
 * for the module, and these must never stand in for the module's own.
 */
#include "gw.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "vsphere_api.h"

#define GW_LOCAL __attribute__((visibility("hidden")))

static const gw_vs_api *api;
static int tried;
static gw_err load_err;

/* Where the module is: GPUWIZ_MODULE_DIR when set and trusted
 * (gw_env_path; used even when the file is missing, so that the error
 * names it); beside a build-tree program (BUILD/src/gpuwiz ->
 * BUILD/src/host/vsphere.so, made by make, recognised by gw_build_dir's
 * marker); else the installed PKGLIBDIR.  No path of the build is
 * compiled in (doc/design.md, sections 2.4 and 2.5).  Malloc'ed. */
static char *
module_path(void)
{
	const char *env = gw_env_path("GPUWIZ_MODULE_DIR", GW_PATH_DIR);
	char *cand;

	if (env != NULL)
		return gw_xasprintf("%s/%s", env, GW_VS_MODULE_FILE);
	if ((cand = gw_build_path("host/" GW_VS_MODULE_FILE, GW_PATH_FILE)) != NULL)
		return cand;
	return gw_xstrdup(PKGLIBDIR "/" GW_VS_MODULE_FILE);
}

/* dlerror's text, less the "PATH: " it usually starts with (the message
 * names the path already). */
static const char *
dl_reason(const char *path)
{
	const char *why = dlerror();
	size_t n = strlen(path);

	if (why == NULL)
		return "?";
	if (strncmp(why, path, n) == 0 && why[n] == ':' && why[n + 1] == ' ')
		why += n + 2;
	return why;
}

/* The table of the module at path, checked; NULL with load_err set. */
static const gw_vs_api *
load(const char *path)
{
	const gw_vs_api *a;
	void *h;

	char *why;

	/* checked before dlopen runs its constructors: a regular file in a
	 * folder, both owned by the caller or root, writable by no one else */
	if (gw_path_trust(path, GW_PATH_FILE, &why) < 0) {
		/* TRANSLATORS: %s the module's path, %s why (a path "is
		 * writable by others", "is owned by another user (uid 65534)"). */
		gw_err_set(&load_err, _("refusing to load the vSphere module %s: %s"),
		           path, why);
		free(why);
		return NULL;
	}
	/* (lazy for the libraries behind it: the module itself is linked
	 * -z now, so a missing symbol of its own fails here, named) */
	if ((h = dlopen(path, RTLD_LAZY | RTLD_LOCAL)) == NULL ||
	    (a = dlsym(h, GW_VS_MODULE_SYMBOL)) == NULL) {
		/* TRANSLATORS: %s the module's path, %s the system's reason
		 * (dlerror, in the system's language). */
		gw_err_set(&load_err, _("cannot load the vSphere module %s: %s (reinstall gpuwiz, or set GPUWIZ_MODULE_DIR to the folder of vsphere.so)"),
		           path, dl_reason(path));
		return NULL;
	}
	if (a->abi != GW_VS_ABI) {
		/* TRANSLATORS: %s the module's path, %u two numbers. */
		gw_err_set(&load_err, _("the vSphere module %s is from another build of gpuwiz (interface %u, this program needs %u): reinstall gpuwiz"),
		           path, a->abi, GW_VS_ABI);
		a = NULL;
	} else if (strcmp(a->version, PACKAGE_VERSION) != 0 ||
	           strcmp(a->signature, gw_vs_signature) != 0) {
		/* TRANSLATORS: %s the module's path, then two versions. */
		gw_err_set(&load_err, _("the vSphere module %s is from another build of gpuwiz (version %s, this program %s): reinstall gpuwiz"),
		           path, a->version, PACKAGE_VERSION);
		a = NULL;
	}
	/* (a refused module stays open: its libraries may not unload
	 * cleanly, and the program is about to fail anyway) */
	return a;
}

/* The module's table, loaded on the first call; NULL with e set (the same
 * line on every call) when it cannot be. */
static const gw_vs_api *
vs_api(gw_err *e)
{
	char *path;

	if (!tried) {
		tried = 1;
		/* a build without the module: every call refuses, one line */
		if (gw_vs_available(&load_err) == 0) {
			path = module_path();
			api = load(path);
			free(path);
		}
	}
	if (api == NULL && e != NULL)
		*e = load_err;
	return api;
}

#define GW_VS_FN(ret, name, params, args, fail, err)                    \
	GW_LOCAL ret name params                                        \
	{                                                               \
		const gw_vs_api *a = vs_api(err);                       \
                                                                        \
		return a != NULL ? a->name args : (fail);               \
	}
#define GW_VS_PROC(name, params, args)                                  \
	GW_LOCAL void name params                                       \
	{                                                               \
		if (api != NULL)                                        \
			api->name args;                                 \
	}
#include "vsphere_api.def"
#undef GW_VS_FN
#undef GW_VS_PROC
