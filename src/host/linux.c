/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux.c: probes of a Linux host through a root prefix (linux.h): the
 * path and small file helpers the other pieces share.
 *
 * gpuwiz check reads /proc and /sys directly, like virt-host-validate
 * (doc/design.md, section 15.7): linux_checks.c, linux_irq.c.  gpuwiz gpus lists
 * display-class devices through libpci's sysfs back end: linux_gpus.c.
 * Nothing here prints: gpuwiz check prints the rows through
 * src/report/finding_print.c, gpuwiz gpus the list through gpus_print.c.
 */
#include "linux_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- paths and small file helpers ------------------------------------- */

/* The root prefix without trailing '/': "" for the real root. */
static char *
root_prefix(const char *sysroot)
{
	char *r;
	size_t n;

	if (sysroot == NULL || *sysroot == '\0')
		return gw_xstrdup("");
	r = gw_xstrdup(sysroot);
	n = strlen(r);
	while (n > 0 && r[n - 1] == '/')
		r[--n] = '\0';
	return r;
}

static int
check_root(const char *sysroot, gw_err *e)
{
	struct stat st;

	if (sysroot == NULL || *sysroot == '\0')
		return 0;
	if (stat(sysroot, &st) != 0) {
		gw_err_set(e, _("--sysroot %s: %s"), sysroot, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		gw_err_set(e, _("--sysroot %s: not a directory"), sysroot);
		return -1;
	}
	return 0;
}

int
gw_linux_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
gw_linux_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory (without . and ..); -1 when it cannot
 * be opened. */
static int
list_dir(const char *path, char ***out, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;

	*out = NULL;
	*n = 0;
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		*out = gw_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = gw_xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, cmp_str);
	return 0;
}

/* Basename of a symlink's target, NULL when path is not a link. */
static char *
link_base(const char *path)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	char *s;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	s = strrchr(buf, '/');
	return gw_xstrdup(s ? s + 1 : buf);
}

/* A small hex value file ("0x10de\n"); -1 when unreadable. */
static long
read_hex_file(const char *path)
{
	char *data = NULL;
	size_t len;
	long v;
	gw_err e;

	if (gw_read_file(path, 4096, &data, &len, &e) != 0)
		return -1;
	v = gw_linux_parse_hex(data);
	free(data);
	return v;
}

/* ---- the rows of gpuwiz check ----------------------------------------- */

void
gw_linux_add_row(gw_linux_rows *rows, const char *id, gw_sev st,
                 char *title, char *message, char *fix)
{
	gw_findings_add(&rows->r, &rows->n, st, id, GW_TOPIC_HOST, NULL,
	                title, message, fix);
}

void
gw_linux_checks_free(gw_finding *rows, size_t n)
{
	gw_findings_free(&rows, &n);
}

/* Does the kernel command line hold this exact word? */
int
gw_linux_has_word(const char *cmdline, const char *w)
{
	size_t n = strlen(w);
	const char *p = cmdline;

	while ((p = strstr(p, w)) != NULL) {
		if ((p == cmdline || p[-1] == ' ' || p[-1] == '\t' ||
		     p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t' ||
		     p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

/* ---- helpers shared with verify.c (linux.h) --------------------------  */

char *
gw_linux_root(const char *sysroot, gw_err *e)
{
	if (check_root(sysroot, e) != 0)
		return NULL;
	return root_prefix(sysroot);
}

int
gw_linux_list_dir(const char *path, char ***out, size_t *n)
{
	return list_dir(path, out, n);
}

long
gw_linux_read_hex(const char *path)
{
	return read_hex_file(path);
}

char *
gw_linux_link_base(const char *path)
{
	return link_base(path);
}
