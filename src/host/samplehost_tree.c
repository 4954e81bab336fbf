/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_tree.c: writing a sample's scratch tree (the first failure
 * kept) and removing it. */
#include "samplehost_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writing a tree --------------------------------------------------- */

void
smp_mk_fail(mk *m, int what, const char *path)
{
	const char *why = strerror(errno);

	if (m->failed)
		return;
	if (what == MK_CREATE)
		gw_err_set(m->e, _("cannot create %s: %s"), path, why);
	else if (what == MK_WRITE)
		gw_err_set(m->e, _("cannot write %s: %s"), path, why);
	else
		gw_err_set(m->e, _("cannot create the link %s: %s"), path, why);
	m->failed = 1;
}

/* mkdir -p ROOT/rel */
void
smp_mk_dirs(mk *m, const char *rel)
{
	char *p, *s;

	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	for (s = p + strlen(m->root) + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST) {
				smp_mk_fail(m, MK_CREATE, p);
				free(p);
				return;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
}

static void
mk_parent(mk *m, const char *rel)
{
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');

	if (sl) {
		*sl = '\0';
		smp_mk_dirs(m, dir);
	}
	free(dir);
}

void
smp_mk_file(mk *m, const char *rel, const void *data, size_t len, mode_t mode)
{
	char *p;
	int fd;

	if (m->failed)
		return;
	mk_parent(m, rel);
	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode);
	if (fd < 0 || gw_write_all(fd, data, len) != 0) {
		smp_mk_fail(m, MK_WRITE, p);
		if (fd >= 0)
			close(fd);
		free(p);
		return;
	}
	if (close(fd) != 0)
		smp_mk_fail(m, MK_WRITE, p);
	free(p);
}

void
smp_mk_text(mk *m, const char *rel, const char *text)
{
	smp_mk_file(m, rel, text, strlen(text), 0644);
}

void
smp_mk_printf(mk *m, const char *rel, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	s = gw_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	smp_mk_text(m, rel, s);
	free(s);
}

void
smp_mk_link(mk *m, const char *rel, const char *target)
{
	char *p;

	if (m->failed)
		return;
	mk_parent(m, rel);
	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	if (symlink(target, p) != 0)
		smp_mk_fail(m, MK_LINK, p);
	free(p);
}

/* ---- removing a tree -------------------------------------------------- */

void
smp_rm_tree(const char *p)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(p, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(p);
		return;
	}
	if ((d = opendir(p)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *c;

			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			c = gw_xasprintf("%s/%s", p, de->d_name);
			smp_rm_tree(c);
			free(c);
		}
		closedir(d);
	}
	rmdir(p);
}
