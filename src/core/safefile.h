/* SPDX-License-Identifier: GPL-3.0-or-later */
/* safefile.h: writing files so that none is lost or half-written
 * (doc/design.md, section 7, "Writes").  gw_write_all and
 * gw_write_file_atomic are declared in gw.h.
 *
 * A temporary is always "FINAL.gpuwiz-XXXXXX" (six letters or digits)
 * beside its final name, created exclusively and flock()ed by its writer
 * for as long as it exists.  A kill leaves such a file unlocked: a write
 * of FINAL an hour later or more removes it (gw_tmp_sweep).
 */
#ifndef GW_SAFEFILE_H
#define GW_SAFEFILE_H

#include "gw.h"

#include <sys/stat.h>
#include <sys/types.h>

/* The file path names once its symbolic links are followed (as sed -i
 * --follow-symlinks does): path itself when it is no link or does not
 * exist; a link's relative target is taken from the link's directory.
 * NULL, with e set, for a loop or a link that cannot be read. */
char *gw_path_follow(const char *path, gw_err *e);
/* The same, and *found what stat(2) says of the file reached (its
 * st_mode 0 when there is none): the last look on the way. */
char *gw_path_follow_stat(const char *path, struct stat *found, gw_err *e);

/* Create a temporary for final (final must be link-free: see
 * gw_path_follow), exclusively, mode 0600, locked; stale temporaries of
 * final are removed first.  The fd, with *tmp its name; -1 with e set.
 * The lock goes with the last close of the fd. */
int gw_tmp_open(const char *final, char **tmp, gw_err *e);

/* A write in three steps, for a caller with a step between the complete
 * temporary and its rename (gw_vmx_save: the backup).  gw_stage_open
 * follows path's links and refuses a directory, the file found (s->had,
 * s->st) there for the caller to look at before anything is written: 0,
 * or -1 with e set and s spent.  gw_stage_fill writes data to a locked
 * temporary beside the target with the owner, group and mode of the file
 * there (gw_fd_take_owner; 0644 for a new one), fsynced: 0, or -1 with e
 * set and nothing left behind. */
typedef struct gw_staged {
	const char *path;     /* as given: the name messages use */
	char *final;          /* path, its links followed */
	char *tmp;            /* the temporary, NULL once renamed */
	int fd;               /* open (its lock held) until renamed */
	int had;              /* a file was at final: st is it */
	struct stat st;
} gw_staged;
int gw_stage_open(const char *path, gw_staged *s, gw_err *e);
int gw_stage_fill(gw_staged *s, const char *data, size_t len, gw_err *e);
/* Rename the temporary over final, refused (nothing renamed) when was is
 * given and final no longer holds those wlen bytes; then the directory
 * sync (gw_fsync_dir_of).  The stage is spent either way: 0, or -1 with
 * e set and the temporary removed. */
int gw_staged_publish(gw_staged *s, const char *was, size_t wlen,
                      gw_err *e);
/* Remove a stage's temporary (when not renamed) and free it. */
void gw_staged_drop(gw_staged *s);

/* The refusal of a file no longer as gpuwiz read it (here and by the
 * ESXi host's write script): one line naming path. */
void gw_err_changed_on_disk(gw_err *e, const char *path);
/* The file at path holds exactly the len bytes data: 1; 0 when it holds
 * others; -1 with errno set when it cannot be read. */
int gw_file_holds(const char *path, const char *data, size_t len);

/* Write data to fd (a temporary), set its mode, fsync it: 0, or -1
 * with errno set. */
int gw_fd_fill(int fd, const char *data, size_t len, mode_t mode);

/* Give the temporary fd the owner and group of like (the file it will
 * replace or back up), before its mode is set (a chown clears the set-id
 * bits): root may, and a user the group of a file it owns when it is a
 * member of that group.  0 when they are already those; -1 with e set
 * (gw_err_owner's line naming path) where this user may not give them. */
int gw_fd_take_owner(int fd, const char *path, const struct stat *like,
                     gw_err *e);

/* The refusal for a file whose owner (owner_differs) or else group this
 * user (me) cannot give a new file: one line naming path, the owner or
 * group, and who may write it. */
void gw_err_owner(gw_err *e, const char *path, const char *owner,
                  const char *group, const char *me, int owner_differs);

/* Remove the stale temporaries of the file path names (its links
 * followed): in its directory, the entries named "NAME.gpuwiz-" and six
 * letters or digits that are regular files (not links), owned by this
 * user, last modified more than an hour ago (no run takes that long
 * between a temporary's creation and its rename) and not locked by a live
 * writer.  Nothing else is ever removed.  The number removed.
 * Between gw_dirsync_defer and gw_dirsync_flush a directory is read once:
 * its first sweep removes the stale temporaries of every file in it, the
 * later ones read nothing. */
size_t gw_tmp_sweep(const char *path);
/* Is name (a directory entry) a temporary of some file (the pattern
 * gw_tmp_sweep looks for)? */
int gw_tmp_name(const char *name);
/* Between gw_dirsync_defer and gw_dirsync_flush: dir (as gw_path_dir
 * names a file's directory) was read by the caller and held no
 * temporary, so gw_tmp_sweep does not read it again. */
void gw_tmp_none_in(const char *dir);

/* The directory part of path: "." when it has no '/', "/" for "/x". */
char *gw_path_dir(const char *path);
/* The file name part of path: after its last '/', or path itself. */
const char *gw_path_base(const char *path);

/* fsync the directory that holds path: a rename or link into it lasts.
 * Between gw_dirsync_defer and gw_dirsync_flush the directory is only
 * noted, and the flush syncs each noted directory once: a run that
 * writes many files (vmx DIR --write) syncs a directory once, after
 * every rename in it, instead of once per file. */
void gw_fsync_dir_of(const char *path);
void gw_dirsync_defer(void);
/* Sync the directories noted since gw_dirsync_defer, each once (where
 * 16 or more are on one file system, by one syncfs(2) of it), and sync
 * at once again from then on.  The number of directories synced. */
size_t gw_dirsync_flush(void);

/* A link(2) failure that says the file system has no hard links here
 * (EPERM, ENOTSUP, ENOSYS, EMLINK, EXDEV: vfat, some FUSE and network
 * mounts, a file this user may not link): a copy is made instead. */
int gw_no_hard_links(int err);

/* n random letters and digits (the temporaries' alphabet) and a NUL into
 * buf (n + 1 bytes). */
void gw_random_word(char *buf, size_t n);

#endif
