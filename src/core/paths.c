/* SPDX-License-Identifier: GPL-3.0-or-later */
/* paths.c: where the program runs from, and what it loads from there or
 * from the environment (the GPU table, the modules, the message
 * catalogs), each path checked for trust first (doc/design.md 2.4). */
#include "gw.h"
#include "textesc.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
/* ---- where the program runs from ------------------------------------- */

/* The folder of the running program (/proc/self/exe), malloc'ed; NULL
 * when unknown. */
static char *
gw_exe_dir(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return NULL;
	*slash = '\0';
	return gw_xstrdup(exe);
}

/* ---- what the program loads (doc/design.md, section 2.4) -------------- */

/* Why st (of path) may not be loaded, malloc'ed; NULL when it may: owned
 * by the caller or by root, writable by neither its group nor others. */
static char *
trust_why(const char *path, const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		/* TRANSLATORS: %s a path, %u a user id. */
		return gw_xasprintf(_("%s is owned by another user (uid %u)"),
		                    path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		/* TRANSLATORS: %s a path (a file or a folder). */
		return gw_xasprintf(_("%s is writable by others"), path);
	return NULL;
}

int
gw_path_trust(const char *path, gw_path_kind kind, char **why)
{
	char real[PATH_MAX], *copy, *parent;
	struct stat st;
	int rc = 1;

	*why = NULL;
	if (realpath(path, real) == NULL) {
		if (errno != ENOENT)
			goto bad_stat;
		/* missing: a file may not be created there by another user */
		if (kind != GW_PATH_FILE)
			return 0;
		copy = gw_xstrdup(path);
		parent = dirname(copy);
		if (realpath(parent, real) != NULL && stat(real, &st) == 0)
			*why = trust_why(real, &st);
		free(copy);
		return *why != NULL ? -1 : 0;
	}
	if (stat(real, &st) != 0)
		goto bad_stat;
	if (kind == GW_PATH_FILE && !S_ISREG(st.st_mode)) {
		/* TRANSLATORS: %s a path. */
		*why = gw_xasprintf(_("%s is not a regular file"), real);
		return -1;
	}
	if (kind == GW_PATH_DIR && !S_ISDIR(st.st_mode)) {
		/* TRANSLATORS: %s a path. */
		*why = gw_xasprintf(_("%s is not a folder"), real);
		return -1;
	}
	if ((*why = trust_why(real, &st)) != NULL)
		return -1;
	if (kind == GW_PATH_FILE) {
		/* and the folder holding it: another user could replace it */
		parent = dirname(real);
		if (stat(parent, &st) != 0)
			goto bad_stat;
		if ((*why = trust_why(parent, &st)) != NULL)
			rc = -1;
	}
	return rc;
bad_stat:
	*why = gw_xasprintf("%s: %s", path, strerror(errno));
	return -1;
}

/* "gpuwiz: warning: ignoring WHAT (WHY)" and a newline (malloc'ed). */
static char *
warning_text(const char *what, const char *why)
{
	/* TRANSLATORS: "gpuwiz: warning: ignoring GPUWIZ_TABLE=/tmp/x/gpus.ini
	 * (/tmp/x is writable by others)"; %s the program, what and why. */
	return gw_xasprintf(_("%s: warning: ignoring %s (%s)\n"), PACKAGE, what,
	                    why);
}

/* Each warning once: the lookups run more than once.  None with -q. */
void
gw_path_warn(const char *what, const char *why)
{
	static char *seen[32];
	static size_t nseen;
	char *key, *text;
	size_t i;

	if (gw_verbosity() == GW_QUIET)
		return;
	key = gw_xasprintf("%s\n%s", what, why);

	for (i = 0; i < nseen; i++)
		if (strcmp(seen[i], key) == 0) {
			free(key);
			return;
		}
	if (nseen < sizeof seen / sizeof *seen)
		seen[nseen++] = key;
	else
		free(key);
	text = warning_text(what, why);
	gw_fputs_escaped(text, stderr);
	free(text);
}

/* The same warning's text on one line, for a screen (malloc'ed). */
char *
gw_path_warning(const char *what, const char *why)
{
	char *s = warning_text(what, why);

	s[strcspn(s, "\n")] = '\0';
	return s;
}

const char *
gw_env_path(const char *name, gw_path_kind kind)
{
	const char *v = secure_getenv(name);
	char *why, *what;
	struct stat st;

	if (v == NULL || *v == '\0')
		return NULL;
	/* a FIFO, socket or device is bad input, not an untrusted file: its
	 * reader refuses it by name and the command fails (gw_open_regular),
	 * rather than going on with another file */
	if (kind == GW_PATH_FILE && stat(v, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode))
		return v;
	if (gw_path_trust(v, kind, &why) >= 0)
		return v;
	what = gw_xasprintf("%s=%s", name, v);
	gw_path_warn(what, why);
	free(what);
	free(why);
	return NULL;
}

/* The folder of the running program when it runs in its build tree: the
 * marker beside it is a regular file owned by the caller and gw_path_trust
 * accepts it; else NULL (a copy of the program, or the installed one; a
 * marker refused is warned once).  Never in a setuid or setcap program. */
static const char *
gw_build_dir(void)
{
	static int looked;
	static char *dir;
	char *exe, *marker, *why = NULL;
	struct stat st;

	if (looked)
		return dir;
	looked = 1;
	/* never for a setuid or setcap program */
	if (getauxval(AT_SECURE) || (exe = gw_exe_dir()) == NULL)
		return NULL;
	marker = gw_xasprintf("%s/%s", exe, GW_BUILD_MARKER);
	if (lstat(marker, &st) != 0) {
		/* a copy of the program, or the installed one */
		free(exe);
		free(marker);
		return NULL;
	}
	if (!S_ISREG(st.st_mode))
		why = gw_xasprintf(_("%s is not a regular file"), marker);
	else if (st.st_uid != geteuid())
		why = gw_xasprintf(_("%s is owned by another user (uid %u)"),
		                   marker, (unsigned)st.st_uid);
	else if (gw_path_trust(marker, GW_PATH_FILE, &why) > 0)
		dir = exe;
	if (why != NULL) {
		/* TRANSLATORS: %s the marker file make writes beside the
		 * program of a build tree. */
		char *what = gw_xasprintf(_("the build-tree marker %s"), marker);

		gw_path_warn(what, why);
		free(what);
		free(why);
	}
	if (dir != exe)
		free(exe);
	free(marker);
	return dir;
}

char *
gw_build_path(const char *rel, gw_path_kind kind)
{
	const char *b = gw_build_dir();
	char *p, *why;

	if (b == NULL)
		return NULL;
	p = gw_xasprintf("%s/%s", b, rel);
	switch (gw_path_trust(p, kind, &why)) {
	case 1:
		return p;
	case -1:
		gw_path_warn(p, why);
		free(why);
		break;
	}
	free(p);
	return NULL;
}

const char *
gw_locale_dir(void)
{
	static char *dir;

	if (dir != NULL)
		return dir;
	/* BUILD/src/gpuwiz: the catalogue compiled by make (tests/locale) */
	if ((dir = gw_build_path("../tests/locale", GW_PATH_DIR)) != NULL)
		return dir;
#ifdef LOCALEDIR
	return LOCALEDIR;
#else
	return "/usr/share/locale";
#endif
}
