/* SPDX-License-Identifier: GPL-3.0-or-later */
/* safefile_path.c: the parts of a path, and the file a symlinked target
 * leads to (safefile.h). */
#include "safefile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40            /* as the kernel's ELOOP limit */

char *
gw_path_dir(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return gw_xstrdup(".");
	if (s == path)
		return gw_xstrdup("/");
	return gw_xstrndup(path, (size_t)(s - path));
}

const char *
gw_path_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The target of the link at cur, relative ones from cur's directory. */
static char *
link_target(const char *cur, size_t size)
{
	char *t = gw_xmalloc(size + 1), *dir, *joined;
	ssize_t n = readlink(cur, t, size + 1);

	if (n < 0 || (size_t)n > size) {
		if (n >= 0)
			errno = ENAMETOOLONG;   /* it grew meanwhile */
		free(t);
		return NULL;
	}
	t[n] = '\0';
	if (t[0] == '/' || strchr(cur, '/') == NULL)
		return t;
	dir = gw_path_dir(cur);
	joined = gw_xasprintf("%s/%s", dir, t);
	free(dir);
	free(t);
	return joined;
}

/* A link's target, its directory without ".." or links (for the names
 * gpuwiz prints: the backup's); cur as it is when that cannot be had. */
static char *
tidy(char *cur)
{
	char *dir = gw_path_dir(cur), *real = realpath(dir, NULL), *t;

	free(dir);
	if (real == NULL)
		return cur;
	t = gw_xasprintf("%s/%s", strcmp(real, "/") ? real : "", gw_path_base(cur));
	free(real);
	free(cur);
	return t;
}

char *
gw_path_follow(const char *path, gw_err *e)
{
	return gw_path_follow_stat(path, NULL, e);
}

char *
gw_path_follow_stat(const char *path, struct stat *found, gw_err *e)
{
	char *cur = gw_xstrdup(path), *next;
	struct stat st;
	int hops;

	if (found)
		found->st_mode = 0;
	for (hops = 0; hops <= MAX_LINKS; hops++) {
		if (lstat(cur, &st) != 0) {
			if (errno == ENOENT)   /* a new file, or a dangling link */
				return hops ? tidy(cur) : cur;
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			/* no link: what stat(2) of it would say */
			if (found)
				*found = st;
			return hops ? tidy(cur) : cur;
		}
		next = link_target(cur, st.st_size > 0 ? (size_t)st.st_size
		                                       : 4096);
		if (next == NULL)
			break;
		free(cur);
		cur = next;
	}
	if (hops > MAX_LINKS)
		errno = ELOOP;
	gw_err_set(e, _("%s: cannot follow its symbolic link: %s"), path,
	           strerror(errno));
	free(cur);
	return NULL;
}
