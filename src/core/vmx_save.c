/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx_save.c: the running-VM check (.vmx.lck), gpuwiz's own lock on a
 * .vmx, and saving a .vmx: the new file staged (synced temporary), a
 * timestamped backup (a hard link of the file, or a copy), then the
 * rename of the temporary over a file still as it was read; a symlinked
 * .vmx is written through the link to its target (see vmx.h,
 * safefile.h). */
#include "vmx_int.h"
#include "safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- locks and saving ------------------------------------------------ */

static int
ends_with_lck(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && vmx_key_eq(name + n - 4, ".lck");
}

/* The lock beside the .vmx named vmx_path, this very name. */
static int
locked_here(const char *vmx_path, char **lock_path)
{
	char *lck = gw_xasprintf("%s.lck", vmx_path);
	struct stat st;
	int locked = 0;

	if (lstat(lck, &st) != 0) {
		/* Not there: not locked.  Cannot look: assume locked. */
		locked = errno != ENOENT && errno != ENOTDIR;
	} else if (!S_ISDIR(st.st_mode)) {
		locked = 1;             /* an ESXi-style lock file */
	} else {
		/* Workstation: a directory holding M<pid>.lck entries.  An empty
		 * one is left behind by a crash and is not a lock. */
		DIR *d = opendir(lck);
		struct dirent *de;

		if (d == NULL) {
			locked = 1;
		} else {
			while ((de = readdir(d)) != NULL)
				if (ends_with_lck(de->d_name)) {
					char *inner = gw_xasprintf("%s/%s", lck,
					                           de->d_name);

					free(lck);
					lck = inner;
					locked = 1;
					break;
				}
			closedir(d);
		}
	}
	if (locked && lock_path)
		*lock_path = lck;
	else
		free(lck);
	return locked;
}

int
gw_vmx_is_locked(const char *vmx_path, char **lock_path)
{
	char *target;
	int locked;

	if (lock_path)
		*lock_path = NULL;
	if (locked_here(vmx_path, lock_path))
		return 1;
	/* A symlinked .vmx: VMware locks beside the name it was opened by,
	 * which may be the link or its target. */
	target = gw_path_follow(vmx_path, NULL);
	locked = target && strcmp(target, vmx_path) != 0 &&
	         locked_here(target, lock_path);
	free(target);
	return locked;
}

/* Copy in to out, set mode, fsync; 0, or -1 with errno set. */
static int
copy_synced(int in, int out, mode_t mode)
{
	char buf[65536];
	ssize_t r;

	for (;;) {
		r = read(in, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		if (gw_write_all(out, buf, (size_t)r) != 0)
			return -1;
	}
	return fchmod(out, mode) != 0 || fsync(out) != 0 ? -1 : 0;
}

/* Give src the first free backup name of path,
 * "<path>.<YYYYmmdd-HHMMSS>.bak" (".N" appended while that exists), never
 * replacing one: link(2) fails on an existing name.  Where the file
 * system has no hard links (gw_no_hard_links) and may_rename is set,
 * rename(2) after a look.  The name, with *renamed when src is gone; NULL
 * with errno set (0: too many). */
static char *
publish_backup(const char *src, const char *path, int may_rename,
               int *renamed)
{
	char stamp[32], *name;
	struct tm tm;
	time_t now = time(NULL);
	struct stat st;
	int n, saved;

	*renamed = 0;
	/* the fields printed, not strftime: glibc's strftime reads the time
	 * zone file again on every call (tzset), localtime_r once */
	if (localtime_r(&now, &tm) != NULL)
		snprintf(stamp, sizeof stamp, "%04d%02d%02d-%02d%02d%02d",
		         tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		         tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	for (n = 0; n < 1000; n++) {
		name = n ? gw_xasprintf("%s.%s.bak.%d", path, stamp, n)
		         : gw_xasprintf("%s.%s.bak", path, stamp);
		if (link(src, name) == 0)
			return name;
		saved = errno;
		if (saved != EEXIST && (!gw_no_hard_links(saved) || !may_rename)) {
			free(name);
			errno = saved;
			return NULL;
		}
		if (saved != EEXIST && lstat(name, &st) != 0 && errno == ENOENT) {
			if (rename(src, name) == 0) {
				*renamed = 1;
				return name;
			}
			saved = errno;
			free(name);
			errno = saved;
			return NULL;
		}
		free(name);
	}
	errno = 0;
	return NULL;
}

/* The backup as a copy, where the file system has no hard links: the
 * file now at path (link-free) copied beside it with its owner, group
 * and mode (refused where this user cannot give them: gw_fd_take_owner),
 * through a temporary that is complete and synced before it gets the
 * backup's name: a kill leaves no partial backup.  On failure nothing is
 * left behind. */
static int
copy_backup(const char *path, char **bak, gw_err *e)
{
	char *tmp = NULL;
	struct stat st;
	int in, out, renamed = 0, saved;

	in = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0) {
		gw_err_set(e, _("%s: cannot read it to make a backup: %s"), path,
		           strerror(errno));
		return -1;
	}
	if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		gw_err_set(e, _("%s: not a regular file; expected a .vmx file"),
		           path);
		close(in);
		return -1;
	}
	if ((out = gw_tmp_open(path, &tmp, e)) < 0) {
		close(in);
		return -1;
	}
	if (gw_fd_take_owner(out, path, &st, e) != 0) {
		/* e names the owner or group this user cannot give */
	} else if (copy_synced(in, out, st.st_mode & 0777) != 0) {
		gw_err_set(e, _("%s: cannot write the backup %s: %s"), path, tmp,
		           strerror(errno));
	} else if ((*bak = publish_backup(tmp, path, 1, &renamed)) == NULL) {
		saved = errno;
		gw_err_set(e, _("%s: cannot create a backup beside it: %s"), path,
		           saved ? strerror(saved) : _("too many backups this second"));
	}
	if (!renamed)
		unlink(tmp);
	close(out);             /* the lock goes with the name */
	close(in);
	free(tmp);
	return *bak ? 0 : -1;
}

/* The backup of the file the stage s replaces (its final, link-free), made
 * before the rename: a hard link of the file itself, which no data is
 * copied for and which keeps its owner, group, mode and times (the inode
 * is the same); a copy where the file system has no hard links.  Its
 * name lasts with the directory sync after the rename (doc/design.md,
 * section 7).  *bak is NULL (and 0 returned) when there is no file yet;
 * on failure nothing is left behind. */
static int
make_backup(const gw_staged *s, char **bak, gw_err *e)
{
	int renamed, saved;

	*bak = NULL;
	if (!s->had)
		return 0;
	if (!S_ISREG(s->st.st_mode)) {
		gw_err_set(e, _("%s: not a regular file; expected a .vmx file"),
		           s->final);
		return -1;
	}
	if ((*bak = publish_backup(s->final, s->final, 0, &renamed)) != NULL)
		return 0;
	saved = errno;
	if (saved != 0 && gw_no_hard_links(saved))
		return copy_backup(s->final, bak, e);
	gw_err_set(e, _("%s: cannot create a backup beside it: %s"), s->final,
	           saved ? strerror(saved) : _("too many backups this second"));
	return -1;
}

/* ---- gpuwiz's own lock ------------------------------------------------- */

int
gw_vmx_lock(const char *path, int *fd, gw_err *e)
{
	struct stat st, now;
	int waited, f;

	*fd = -1;
	for (waited = 0;; waited += GW_VMX_LOCK_POLL_MS) {
		f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (f < 0)
			return 0;   /* the read that follows says why */
		if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(f);
			return 0;   /* not a .vmx: the read refuses it */
		}
		if (flock(f, LOCK_EX | LOCK_NB) != 0) {
			int why = errno;

			close(f);
			if (why != EWOULDBLOCK && why != EINTR)
				return 0;   /* no locks here (ENOLCK): the
				             * content check still stands */
		} else if (stat(path, &now) == 0 && now.st_dev == st.st_dev &&
		           now.st_ino == st.st_ino) {
			*fd = f;
			return 0;
		} else {
			/* replaced while we waited: lock the file there now */
			close(f);
			continue;
		}
		if (waited >= GW_VMX_LOCK_WAIT_S * 1000) {
			/* TRANSLATORS: %1$s is a .vmx file, %2$d seconds. */
			gw_err_set(e, P_("%1$s: another gpuwiz is changing this file (waited %2$d second); nothing written, run this again when it is done",
			                 "%1$s: another gpuwiz is changing this file (waited %2$d seconds); nothing written, run this again when it is done",
			                 GW_VMX_LOCK_WAIT_S),
			           path, GW_VMX_LOCK_WAIT_S);
			return -1;
		}
		usleep(GW_VMX_LOCK_POLL_MS * 1000);
	}
}

void
gw_vmx_unlock(int fd)
{
	if (fd >= 0)
		close(fd);      /* the flock goes with it */
}

/* ---- saving ------------------------------------------------------------- */

/* No write bit for anyone: the operator made it read-only. */
static int
read_only(const gw_staged *s)
{
	return s->had && S_ISREG(s->st.st_mode) && (s->st.st_mode & 0222) == 0;
}

void
gw_vmx_err_read_only(gw_err *e, const char *path)
{
	gw_err_set(e, _("%s: read-only (no write permission for anyone); nothing written: add --force to write it anyway"),
	           path);
	gw_err_set_ui(e, _("%s: read-only (no write permission for anyone); nothing written: turn on Force in the options to write it anyway"),
	              path);
}

int
gw_vmx_save(const gw_vmx *v, const char *path, const char *was, size_t wlen,
            int force, char **backup_path, gw_err *e)
{
	char *lck = NULL, *bak = NULL, *data;
	gw_staged staged;
	size_t len;
	int rc;

	if (backup_path)
		*backup_path = NULL;
	if (!force && gw_vmx_is_locked(path, &lck)) {
		gw_err_set(e, _("%s: the VM looks powered on (lock %s exists); "
		                "power it off first"), path, lck);
		free(lck);
		return -1;
	}
	/* A symlinked .vmx: the target is backed up beside itself and
	 * replaced; the link stays. */
	if (gw_stage_open(path, &staged, e) != 0)
		return -1;
	if (!force && read_only(&staged)) {
		gw_vmx_err_read_only(e, path);
		gw_staged_drop(&staged);
		return -1;
	}
	/* the new file complete and synced, then the backup, then the
	 * rename: a kill anywhere leaves the .vmx old or new, and a backup
	 * only of the old bytes */
	data = gw_vmx_serialize(v, &len);
	rc = gw_stage_fill(&staged, data, len, e);
	free(data);
	if (rc != 0)
		return -1;
	if (make_backup(&staged, &bak, e) != 0) {
		gw_staged_drop(&staged);
		return -1;
	}
	if (gw_staged_publish(&staged, was, wlen, e) != 0) {
		if (bak)
			unlink(bak);
		free(bak);
		return -1;
	}
	if (backup_path)
		*backup_path = bak;
	else
		free(bak);
	return 0;
}
