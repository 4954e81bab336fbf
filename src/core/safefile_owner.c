/* SPDX-License-Identifier: GPL-3.0-or-later */
/* safefile_owner.c: a new file given the owner and group of the one it
 * replaces, and the refusal that says who may do it (safefile.h). */
#include "safefile.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *
user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? gw_xstrdup(pw->pw_name)
	          : gw_xasprintf("%lu", (unsigned long)uid);
}

static char *
group_name(gid_t gid)
{
	struct group *gr = getgrgid(gid);

	return gr ? gw_xstrdup(gr->gr_name)
	          : gw_xasprintf("%lu", (unsigned long)gid);
}

void
gw_err_owner(gw_err *e, const char *path, const char *owner,
             const char *group, const char *me, int owner_differs)
{
	if (owner_differs && strcmp(owner, "root") == 0)
		gw_err_set(e, _("%s: owned by root, not %s; run gpuwiz as root; "
		                "nothing changed"), path, me);
	else if (owner_differs)
		gw_err_set(e, _("%s: owned by user %s, not %s; run gpuwiz as %s "
		                "or as root; nothing changed"),
		           path, owner, me, owner);
	else
		gw_err_set(e, _("%s: its group is %s, which user %s cannot give "
		                "a file; run gpuwiz as a member of %s or as root; "
		                "nothing changed"),
		           path, group, me, group);
}

int
gw_fd_take_owner(int fd, const char *path, const struct stat *like,
                 gw_err *e)
{
	struct stat now;
	char *owner, *group, *me;
	int saved;

	if (fstat(fd, &now) != 0) {
		gw_err_set(e, _("%s: cannot write: %s"), path, strerror(errno));
		return -1;
	}
	if (now.st_uid == like->st_uid && now.st_gid == like->st_gid)
		return 0;
	if (fchown(fd, now.st_uid == like->st_uid ? (uid_t)-1 : like->st_uid,
	           now.st_gid == like->st_gid ? (gid_t)-1 : like->st_gid) == 0)
		return 0;
	saved = errno;
	if (saved != EPERM) {
		gw_err_set(e, _("%s: cannot give the new file its owner and "
		                "group: %s"), path, strerror(saved));
		return -1;
	}
	owner = user_name(like->st_uid);
	group = group_name(like->st_gid);
	me = user_name(geteuid());
	gw_err_owner(e, path, owner, group, me, now.st_uid != like->st_uid);
	free(owner);
	free(group);
	free(me);
	return -1;
}
