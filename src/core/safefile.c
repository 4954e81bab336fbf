/* SPDX-License-Identifier: GPL-3.0-or-later */
/* safefile.c: writing files so that none is lost or half-written (see
 * safefile.h): directory syncs, locked temporaries and the removal of
 * those a killed run left, the atomic replace (a symlinked target
 * followed: safefile_path.c; the owner kept: safefile_owner.c). */
#include "safefile.h"
#include "idset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TMP_TAG ".gpuwiz-"
#define TMP_RANDOM 6            /* the XXXXXX of mkstemp */

static const char word_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

int
gw_write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* ---- directory syncs ---------------------------------------------------- */

static void
fsync_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* best effort: some file systems refuse fsync on a directory, and
	 * the rename it would make last has happened */
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
}

/* Between gw_dirsync_defer and gw_dirsync_flush, the directories a run
 * touches, each once (by its name's key, gw_idset_str_key, the name
 * compared on a match): whose sync waits for the flush, and whose stale
 * temporaries were swept already. */
typedef struct {
	char *name;
	int sync;               /* a rename in it waits for its sync */
	int swept;              /* gw_tmp_sweep went through it */
} dir_note;

static struct {
	int on;
	gw_idset seen;          /* hash -> index in dirs */
	dir_note *dirs;
	size_t n;
} deferred;

/* dir's note (dir freed or kept by it), NULL for another name with the
 * same hash: that one is served at once, as without deferral. */
static dir_note *
note_of(char *dir)
{
	const size_t *had = gw_idset_put(&deferred.seen, gw_idset_str_key(dir),
	                                 deferred.n);

	if (had == NULL) {
		deferred.dirs = gw_xrealloc(deferred.dirs,
		                            (deferred.n + 1) * sizeof *deferred.dirs);
		deferred.dirs[deferred.n] = (dir_note){ dir, 0, 0 };
		return &deferred.dirs[deferred.n++];
	}
	if (strcmp(deferred.dirs[*had].name, dir) != 0)
		return NULL;
	free(dir);
	return &deferred.dirs[*had];
}

void
gw_fsync_dir_of(const char *path)
{
	char *dir = gw_path_dir(path);
	dir_note *d;

	if (!deferred.on || (d = note_of(dir)) == NULL) {
		fsync_dir(dir);
		free(dir);
		return;
	}
	d->sync = 1;
}

void
gw_dirsync_defer(void)
{
	if (!deferred.on)
		gw_idset_init(&deferred.seen);
	deferred.on = 1;
}

/* From this many directories to sync on one file system, one syncfs(2)
 * of that file system instead of an fsync of each: it makes every rename
 * there last in one flush, where a datastore of one folder per VM would
 * cost a journal commit per folder.  Below it, only the directories. */
#define SYNCFS_FROM 16

typedef struct {
	dev_t dev;
	size_t i;               /* index in deferred.dirs */
} dir_dev;

static int
by_dev(const void *a, const void *b)
{
	const dir_dev *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The noted directories' syncs: those of a file system with SYNCFS_FROM
 * or more by one syncfs of it, the others (and any that cannot be
 * stat'ed or opened: best effort, as fsync_dir) one by one.  How many
 * directories were made to last. */
static size_t
flush_noted(void)
{
	dir_dev *v = gw_xmalloc((deferred.n ? deferred.n : 1) * sizeof *v);
	size_t i, j, k = 0, n = 0;
	struct stat st;

	for (i = 0; i < deferred.n; i++)
		if (deferred.dirs[i].sync && stat(deferred.dirs[i].name, &st) == 0)
			v[k++] = (dir_dev){ st.st_dev, i };
		else if (deferred.dirs[i].sync) {
			fsync_dir(deferred.dirs[i].name);
			n++;
		}
	qsort(v, k, sizeof *v, by_dev);
	for (i = 0; i < k; i = j) {
		int fd = -1;

		for (j = i; j < k && v[j].dev == v[i].dev; j++)
			;
		if (j - i >= SYNCFS_FROM)
			fd = open(deferred.dirs[v[i].i].name,
			          O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && syncfs(fd) == 0) {
			close(fd);
			n += j - i;
			continue;
		}
		if (fd >= 0)
			close(fd);
		for (size_t m = i; m < j; m++)
			fsync_dir(deferred.dirs[v[m].i].name);
		n += j - i;
	}
	free(v);
	return n;
}

size_t
gw_dirsync_flush(void)
{
	size_t i, n = flush_noted();

	for (i = 0; i < deferred.n; i++)
		free(deferred.dirs[i].name);
	free(deferred.dirs);
	deferred.dirs = NULL;
	deferred.n = 0;
	if (deferred.on)
		gw_idset_free(&deferred.seen);
	deferred.on = 0;
	return n;
}

int
gw_no_hard_links(int err)
{
	return err == EPERM || err == EOPNOTSUPP ||
#if defined ENOTSUP && ENOTSUP != EOPNOTSUPP
	       err == ENOTSUP ||
#endif
	       err == ENOSYS || err == EMLINK || err == EXDEV;
}

void
gw_random_word(char *buf, size_t n)
{
	unsigned char r[64];
	size_t i, got = 0;

	if (n > sizeof r)
		n = sizeof r;
	while (got < n) {
		ssize_t k = getrandom(r + got, n - got, GRND_NONBLOCK);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (got < n) {
		/* no entropy yet: the time and pid still make the name
		 * unlikely, and it is created exclusively anyway */
		unsigned long x = (unsigned long)time(NULL) * 2654435761u ^
		                  (unsigned long)getpid() << 16 ^
		                  (unsigned long)clock();

		for (i = got; i < n; i++, x = x * 6364136223846793005u + 1)
			r[i] = (unsigned char)(x >> 33);
	}
	for (i = 0; i < n; i++)
		buf[i] = word_chars[r[i] % (sizeof word_chars - 1)];
	buf[n] = '\0';
}

/* ---- temporaries -------------------------------------------------------- */

/* name is base's temporary: base, TMP_TAG, then TMP_RANDOM word chars;
 * with base NULL, any file's temporary (a name before TMP_TAG). */
static int
is_tmp_of(const char *name, const char *base)
{
	size_t nl = strlen(name), tl = sizeof TMP_TAG - 1, bl, i;

	if (nl < tl + TMP_RANDOM + 1)
		return 0;
	bl = nl - tl - TMP_RANDOM;
	if ((base && (strlen(base) != bl || strncmp(name, base, bl) != 0)) ||
	    strncmp(name + bl, TMP_TAG, tl) != 0)
		return 0;
	for (i = bl + tl; name[i]; i++)
		if (strchr(word_chars, name[i]) == NULL)
			return 0;
	return 1;
}

/* A temporary lives from its writer's mkstemp to its rename: the bytes
 * of one .vmx or output file, written and fsynced at once, seconds even
 * on a slow NFS mount.  One last modified more than an hour ago is no
 * live write's; a younger one is left, lock or not: a writer has no lock
 * between its mkstemp and its flock, nor at all where flock fails
 * (ENOLCK on some NFS mounts). */
#define TMP_STALE_AGE (60 * 60)

/* Remove the entry name of dirfd when it is a stale temporary: a regular
 * file of ours, untouched for TMP_STALE_AGE, whose writer is gone.  A
 * writer holds its flock() until the temporary is renamed or removed,
 * and the kernel drops it when the writer dies, even by SIGKILL: a lock
 * we get means nobody is writing it. */
static int
remove_if_stale(int dirfd, const char *name)
{
	struct stat st, fst;
	time_t now = time(NULL);
	int fd, gone = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    now == (time_t)-1 || st.st_mtime > now - TMP_STALE_AGE)
		return 0;
	fd = openat(dirfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	            O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &fst) == 0 && fst.st_ino == st.st_ino &&
	    fst.st_dev == st.st_dev && S_ISREG(fst.st_mode) &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_ino == fst.st_ino && st.st_dev == fst.st_dev)
		gone = unlinkat(dirfd, name, 0) == 0;
	close(fd);
	return gone;
}

/* gw_tmp_sweep of final, a link-free path */
static size_t
sweep_beside(const char *final)
{
	char *dir;
	const char *base;
	struct dirent *de;
	dir_note *note = NULL;
	size_t n = 0;
	DIR *d;

	dir = gw_path_dir(final);
	base = gw_path_base(final);
	/* a deferring run reads each directory once, for every file's
	 * temporaries: a folder of N files costs N entries, not N * N */
	if (deferred.on && (note = note_of(gw_xstrdup(dir))) != NULL) {
		if (note->swept) {
			free(dir);
			return 0;
		}
		note->swept = 1;
	}
	if (*base && (d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (is_tmp_of(de->d_name, note ? NULL : base))
				n += (size_t)remove_if_stale(dirfd(d), de->d_name);
		closedir(d);
	}
	free(dir);
	return n;
}

size_t
gw_tmp_sweep(const char *path)
{
	char *final = gw_path_follow(path, NULL);
	size_t n;

	if (final == NULL)
		return 0;
	n = sweep_beside(final);
	free(final);
	return n;
}

int
gw_tmp_name(const char *name)
{
	return is_tmp_of(name, NULL);
}

void
gw_tmp_none_in(const char *dir)
{
	dir_note *note;

	if (deferred.on && (note = note_of(gw_xstrdup(dir))) != NULL)
		note->swept = 1;
}

int
gw_tmp_open(const char *final, char **tmp, gw_err *e)
{
	int fd;

	(void)sweep_beside(final);
	*tmp = gw_xasprintf("%s" TMP_TAG "XXXXXX", final);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		gw_err_set(e, _("%s: cannot create a temporary file beside it: %s"),
		           final, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	/* Without a lock (ENOLCK on some NFS mounts) the file is only safer
	 * from a sweep: remove_if_stale() cannot get one either. */
	(void)flock(fd, LOCK_EX | LOCK_NB);
	return fd;
}

/* ---- the atomic replace ------------------------------------------------ */

int
gw_fd_fill(int fd, const char *data, size_t len, mode_t mode)
{
	if (gw_write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 ||
	    fsync(fd) != 0)
		return -1;
	return 0;
}

void
gw_err_changed_on_disk(gw_err *e, const char *path)
{
	/* TRANSLATORS: %s is a .vmx file changed by someone else while
	 * gpuwiz had it open. */
	gw_err_set(e, _("%s: changed on disk since gpuwiz read it; nothing written (run gpuwiz again on the file as it is now)"),
	           path);
}

int
gw_file_holds(const char *path, const char *data, size_t len)
{
	char buf[65536];
	size_t at = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), same;

	if (fd < 0)
		return -1;
	for (same = 1; same;) {
		r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			same = -1;
			break;
		}
		if (r == 0)
			break;
		same = (size_t)r <= len - at && memcmp(buf, data + at, (size_t)r) == 0;
		at += (size_t)r;
	}
	close(fd);
	return same == 1 && at == len ? 1 : same < 0 ? -1 : 0;
}

/* The file at final (link-free) is still was (wlen bytes) when was is
 * given: 0; else -1 with e naming path. */
static int
still_as_read(const char *path, const char *final, const char *was,
              size_t wlen, gw_err *e)
{
	int same;

	if (was == NULL)
		return 0;
	same = gw_file_holds(final, was, wlen);
	if (same == 1)
		return 0;
	if (same < 0)
		gw_err_set(e, _("%s: cannot read it again before replacing it: %s; nothing written"),
		           path, strerror(errno));
	else
		gw_err_changed_on_disk(e, path);
	return -1;
}

int
gw_write_file_atomic(const char *path, const char *data, size_t len, gw_err *e)
{
	gw_staged s;

	if (gw_stage_open(path, &s, e) != 0 ||
	    gw_stage_fill(&s, data, len, e) != 0)
		return -1;
	return gw_staged_publish(&s, NULL, 0, e);
}

void
gw_staged_drop(gw_staged *s)
{
	if (s->tmp) {
		unlink(s->tmp);
		free(s->tmp);
		s->tmp = NULL;
	}
	if (s->fd >= 0)
		close(s->fd);   /* the lock goes with it */
	s->fd = -1;
	free(s->final);
	s->final = NULL;
}

int
gw_stage_open(const char *path, gw_staged *s, gw_err *e)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	s->fd = -1;
	if ((s->final = gw_path_follow_stat(path, &s->st, e)) == NULL)
		return -1;
	if (s->st.st_mode != 0) {
		if (S_ISDIR(s->st.st_mode)) {
			gw_err_set(e, _("%s: is a directory, expected a file"), path);
			gw_staged_drop(s);
			return -1;
		}
		s->had = 1;
	}
	return 0;
}

int
gw_stage_fill(gw_staged *s, const char *data, size_t len, gw_err *e)
{
	mode_t mode = s->had ? s->st.st_mode & 07777 : 0644;

	if ((s->fd = gw_tmp_open(s->final, &s->tmp, e)) < 0) {
		gw_staged_drop(s);
		return -1;
	}
	/* the file's owner and group kept, or nothing done */
	if (s->had && gw_fd_take_owner(s->fd, s->path, &s->st, e) != 0) {
		gw_staged_drop(s);
		return -1;
	}
	if (gw_fd_fill(s->fd, data, len, mode) != 0) {
		gw_err_set(e, _("%s: cannot write: %s"), s->path, strerror(errno));
		gw_staged_drop(s);
		return -1;
	}
	return 0;
}

int
gw_staged_publish(gw_staged *s, const char *was, size_t wlen, gw_err *e)
{
	/* the fd (and its lock) is kept over the rename: until then the
	 * temporary is never taken for a stale one */
	if (still_as_read(s->path, s->final, was, wlen, e) != 0) {
		gw_staged_drop(s);
		return -1;
	}
	if (rename(s->tmp, s->final) != 0) {
		gw_err_set(e, _("%s: cannot write: %s"), s->path, strerror(errno));
		gw_staged_drop(s);
		return -1;
	}
	free(s->tmp);
	s->tmp = NULL;
	/* fsync has reported the write errors a close would */
	gw_fsync_dir_of(s->final);
	gw_staged_drop(s);
	return 0;
}
