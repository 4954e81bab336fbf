/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_safefile.c: following a symlinked target, the locked temporaries
 * and the removal of stale ones (only gpuwiz's own), the atomic replace
 * and the .vmx save through a link (safefile.h, vmx.h); the save's
 * backup, a hard link or (where link(2) fails as on a file system
 * without hard links) a copy, and its syncs: one for the new file, one
 * for the directory, deferred in a batch to one per directory.
 * link(2) and fsync(2) go through the wrappers below (-Wl,--wrap, see
 * Makefile.am): a link refused with an errno of the test's choice, and
 * the syncs counted, of files and of directories apart. */
#include "testutil.h"
#include "safefile.h"
#include "vmx.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the wrapped calls -------------------------------------------------- */

int __real_link(const char *from, const char *to);
int __wrap_link(const char *from, const char *to);
int __real_fsync(int fd);
int __wrap_fsync(int fd);

static int link_fails;          /* an errno link(2) fails with, or 0 */
static size_t file_syncs, dir_syncs;

int
__wrap_link(const char *from, const char *to)
{
	if (link_fails) {
		errno = link_fails;
		return -1;
	}
	return __real_link(from, to);
}

int
__wrap_fsync(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		dir_syncs++;
	else
		file_syncs++;
	return __real_fsync(fd);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(p);
}

static void
mk_link(const char *dir, const char *target, const char *name)
{
	char *p = gw_xasprintf("%s/%s", dir, name);

	assert_int_equal(symlink(target, p), 0);
	free(p);
}

static void
mk_dir(const char *dir, const char *name)
{
	char *p = gw_xasprintf("%s/%s", dir, name);

	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
}

/* dir without links (tu_tmpdir's may have some, as /tmp on macOS) */
static char *
real_dir(const char *dir)
{
	char *r = realpath(dir, NULL);

	assert_non_null(r);
	return r;
}

/* Set name's modification time to secs ago. */
static void
age(const char *dir, const char *name, long secs)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	struct timespec ts[2];

	assert_int_equal(clock_gettime(CLOCK_REALTIME, &ts[0]), 0);
	ts[0].tv_sec -= secs;
	ts[1] = ts[0];
	assert_int_equal(utimensat(AT_FDCWD, p, ts, AT_SYMLINK_NOFOLLOW), 0);
	free(p);
}

static int
exists(const char *dir, const char *name)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	struct stat st;
	int r = lstat(p, &st) == 0;

	free(p);
	return r;
}

static char *
slurp(const char *path)
{
	char *d = NULL;
	size_t n;
	gw_err e;

	assert_int_equal(gw_read_file(path, 1 << 20, &d, &n, &e), 0);
	return d;
}

static void
test_path_follow(void **state)
{
	char *dir = tu_tmpdir(), *p, *r, *r2, *want;
	gw_err e;

	(void)state;
	mk_dir(dir, "real");
	put(dir, "real/vm.vmx", "x\n");
	p = gw_xasprintf("%s/real/vm.vmx", dir);
	r = gw_path_follow(p, &e);
	assert_string_equal(r, p);                /* no link: itself */
	free(r);
	free(p);
	/* a relative link to a relative link: from each link's directory */
	mk_link(dir, "real/vm.vmx", "a.vmx");
	mk_dir(dir, "lib");
	mk_link(dir, "../a.vmx", "lib/b.vmx");
	p = gw_xasprintf("%s/lib/b.vmx", dir);
	r = gw_path_follow(p, &e);
	r2 = real_dir(dir);
	want = gw_xasprintf("%s/real/vm.vmx", r2);
	free(r2);
	assert_string_equal(r, want);
	free(r);
	free(p);
	/* a missing file is itself; a loop is an error naming the path */
	p = gw_xasprintf("%s/new.vmx", dir);
	r = gw_path_follow(p, &e);
	assert_string_equal(r, p);
	free(r);
	free(p);
	mk_link(dir, "loop2", "loop1");
	mk_link(dir, "loop1", "loop2");
	p = gw_xasprintf("%s/loop1", dir);
	assert_null(gw_path_follow(p, &e));
	assert_non_null(strstr(e.msg, p));
	assert_non_null(strstr(e.msg, "symbolic link"));
	free(p);
	free(want);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_write_through_link(void **state)
{
	char *dir = tu_tmpdir(), *link, *target, *d;
	struct stat st;
	gw_err e;

	(void)state;
	put(dir, "t.vmx", "old\n");
	target = gw_xasprintf("%s/t.vmx", dir);
	assert_int_equal(chmod(target, 0640), 0);
	link = gw_xasprintf("%s/l.vmx", dir);
	assert_int_equal(symlink("t.vmx", link), 0);
	assert_int_equal(gw_write_file_atomic(link, "new\n", 4, &e), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));         /* the link stays */
	d = slurp(target);
	assert_string_equal(d, "new\n");
	free(d);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	free(link);
	free(target);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_tmp_open_and_sweep(void **state)
{
	char *dir = tu_tmpdir(), *final, *tmp, *name, *p;
	struct stat st;
	int fd, busy;
	gw_err e;

	(void)state;
	final = gw_xasprintf("%s/vm.vmx", dir);
	put(dir, "vm.vmx", "x\n");
	fd = gw_tmp_open(final, &tmp, &e);
	assert_true(fd >= 0);
	name = strrchr(tmp, '/') + 1;
	assert_int_equal(strncmp(name, "vm.vmx.gpuwiz-", 14), 0);
	assert_int_equal(strlen(name), 20);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* held by a live writer: kept; its writer gone: kept while it
	 * is younger than an hour (a writer between its mkstemp and its
	 * flock holds no lock), removed when older */
	age(dir, name, 0);
	assert_int_equal(gw_tmp_sweep(final), 0);
	assert_true(exists(dir, name));
	close(fd);
	age(dir, name, 59 * 60);
	assert_int_equal(gw_tmp_sweep(final), 0);
	assert_true(exists(dir, name));
	age(dir, name, 61 * 60);
	assert_int_equal(gw_tmp_sweep(final), 1);
	assert_false(exists(dir, name));
	free(tmp);
	/* only the pattern, only regular files, not a locked one */
	put(dir, "vm.vmx.gpuwiz-Ab12Cd", "stale");
	put(dir, "vm.vmx.gpuwiz-Ab12C", "5 letters");
	put(dir, "vm.vmx.gpuwiz-Ab12Cd7", "7 letters");
	put(dir, "vm.vmx.gpuwiz-Ab-2Cd", "a dash");
	put(dir, "xvm.vmx.gpuwiz-Ab12Cd", "another file's");
	put(dir, "vm.vmx.gpuwiz-Locked", "locked");
	mk_link(dir, "xvm.vmx.gpuwiz-Ab12Cd", "vm.vmx.gpuwiz-LinkAB");
	mk_dir(dir, "vm.vmx.gpuwiz-DirABC");
	p = gw_xasprintf("%s/vm.vmx.gpuwiz-Locked", dir);
	busy = open(p, O_RDONLY);
	assert_true(busy >= 0);
	assert_int_equal(flock(busy, LOCK_EX), 0);
	age(dir, "vm.vmx.gpuwiz-Ab12Cd", 2 * 3600);
	age(dir, "vm.vmx.gpuwiz-Ab12C", 2 * 3600);
	age(dir, "vm.vmx.gpuwiz-Ab12Cd7", 2 * 3600);
	age(dir, "vm.vmx.gpuwiz-Ab-2Cd", 2 * 3600);
	age(dir, "xvm.vmx.gpuwiz-Ab12Cd", 2 * 3600);
	age(dir, "vm.vmx.gpuwiz-Locked", 2 * 3600);
	/* another user's, however old, is not ours to remove (root can
	 * give a file away to make one) */
	if (geteuid() == 0) {
		char *o = gw_xasprintf("%s/vm.vmx.gpuwiz-Other1", dir);

		put(dir, "vm.vmx.gpuwiz-Other1", "another user's");
		assert_int_equal(chown(o, 4321, 4321), 0);
		age(dir, "vm.vmx.gpuwiz-Other1", 2 * 3600);
		free(o);
	}
	assert_int_equal(gw_tmp_sweep(final), 1);
	assert_false(exists(dir, "vm.vmx.gpuwiz-Ab12Cd"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-Ab12C"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-Ab12Cd7"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-Ab-2Cd"));
	assert_true(exists(dir, "xvm.vmx.gpuwiz-Ab12Cd"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-Locked"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-LinkAB"));
	assert_true(exists(dir, "vm.vmx.gpuwiz-DirABC"));
	assert_true(geteuid() != 0 || exists(dir, "vm.vmx.gpuwiz-Other1"));
	close(busy);
	/* through a link to the file: the target's directory is swept */
	mk_link(dir, "vm.vmx", "link.vmx");
	free(final);
	final = gw_xasprintf("%s/link.vmx", dir);
	assert_int_equal(gw_tmp_sweep(final), 1);
	assert_false(exists(dir, "vm.vmx.gpuwiz-Locked"));
	free(p);
	free(final);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_vmx_save_through_link(void **state)
{
	char *dir = tu_tmpdir(), *link, *bak = NULL, *d, *want;
	struct stat st;
	gw_vmx *v;
	gw_err e;

	(void)state;
	mk_dir(dir, "real");
	put(dir, "real/vm.vmx", "memSize = \"4096\"\n");
	link = gw_xasprintf("%s/vm.vmx", dir);
	assert_int_equal(symlink("real/vm.vmx", link), 0);
	assert_int_equal(gw_vmx_load_checked(&v, link, &e), 0);
	assert_int_equal(gw_vmx_set(v, "memSize", "8192", &e), 0);
	assert_int_equal(gw_vmx_save(v, link, NULL, 0, 0, &bak, &e), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	d = real_dir(dir);
	want = gw_xasprintf("%s/real/vm.vmx.", d);
	free(d);
	assert_int_equal(strncmp(bak, want, strlen(want)), 0);
	d = slurp(bak);
	assert_string_equal(d, "memSize = \"4096\"\n");
	free(d);
	d = slurp(link);
	assert_string_equal(d, "memSize = \"8192\"\n");
	free(d);
	/* a lock beside the target counts as well as one beside the link */
	put(dir, "real/vm.vmx.lck", "");
	assert_true(gw_vmx_is_locked(link, NULL));
	assert_int_equal(gw_vmx_save(v, link, NULL, 0, 0, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "real/vm.vmx.lck"));
	gw_vmx_free(v);
	free(want);
	free(bak);
	free(link);
	tu_rm_tree(dir);
	free(dir);
}

/* The names in dir: how many hold pattern (a temporary's, a backup's). */
static size_t
count_names(const char *dir, const char *pattern)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += strstr(de->d_name, pattern) != NULL;
	closedir(d);
	return n;
}

/* dir/name (mode 0640) read, memSize set to mem, saved: the backup's
 * name, the file's inode before the save in *ino. */
static char *
save_one(const char *dir, const char *name, const char *mem, ino_t *ino,
         int *rc, gw_err *e)
{
	char *p = gw_xasprintf("%s/%s", dir, name), *bak = NULL;
	struct stat st;
	gw_vmx *v;

	put(dir, name, "memSize = \"4096\"\n");
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(stat(p, &st), 0);
	*ino = st.st_ino;
	assert_int_equal(gw_vmx_load_checked(&v, p, e), 0);
	assert_int_equal(gw_vmx_set(v, "memSize", mem, e), 0);
	*rc = gw_vmx_save(v, p, NULL, 0, 0, &bak, e);
	gw_vmx_free(v);
	free(p);
	return bak;
}

/* The backup is the old file itself, linked: its inode, owner, mode and
 * bytes; the new file is another inode with the old one's mode.  Two
 * syncs: the new file's data, then the directory after the rename. */
static void
test_vmx_save_backup_linked(void **state)
{
	char *dir = tu_tmpdir(), *bak, *p, *d;
	struct stat st, bst;
	ino_t old;
	gw_err e;
	int rc;

	(void)state;
	link_fails = 0;
	file_syncs = dir_syncs = 0;
	bak = save_one(dir, "vm.vmx", "8192", &old, &rc, &e);
	assert_int_equal(rc, 0);
	assert_int_equal(file_syncs, 1);
	assert_int_equal(dir_syncs, 1);
	assert_int_equal(stat(bak, &bst), 0);
	assert_int_equal(bst.st_ino, old);
	assert_int_equal(bst.st_mode & 07777, 0640);
	p = gw_xasprintf("%s/vm.vmx", dir);
	assert_int_equal(stat(p, &st), 0);
	assert_int_not_equal(st.st_ino, old);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(bst.st_nlink, 1);   /* the old file's one name now */
	d = slurp(bak);
	assert_string_equal(d, "memSize = \"4096\"\n");
	free(d);
	d = slurp(p);
	assert_string_equal(d, "memSize = \"8192\"\n");
	free(d);
	assert_int_equal(count_names(dir, ".gpuwiz-"), 0);
	free(p);
	free(bak);
	tu_rm_tree(dir);
	free(dir);
}

/* Where link(2) says the file system has no hard links (vfat: EPERM; a
 * bind mount: EXDEV; EMLINK, ENOTSUP), the backup is a synced copy with
 * the old bytes and mode, put in place by rename; nothing else is
 * left. */
static void
test_vmx_save_backup_copied(void **state)
{
	static const int no_links[] = { EPERM, EXDEV, EMLINK, ENOTSUP };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof no_links / sizeof *no_links; i++) {
		char *dir = tu_tmpdir(), *bak, *p, *d;
		struct stat bst;
		ino_t old;
		gw_err e;
		int rc;

		link_fails = no_links[i];
		file_syncs = dir_syncs = 0;
		bak = save_one(dir, "vm.vmx", "8192", &old, &rc, &e);
		link_fails = 0;
		assert_int_equal(rc, 0);
		assert_int_equal(file_syncs, 2);   /* the new file, the copy */
		assert_int_equal(dir_syncs, 1);
		assert_non_null(bak);
		assert_int_equal(stat(bak, &bst), 0);
		assert_int_not_equal(bst.st_ino, old);  /* a copy */
		assert_int_equal(bst.st_mode & 07777, 0640);
		d = slurp(bak);
		assert_string_equal(d, "memSize = \"4096\"\n");
		free(d);
		p = gw_xasprintf("%s/vm.vmx", dir);
		d = slurp(p);
		assert_string_equal(d, "memSize = \"8192\"\n");
		free(d);
		assert_int_equal(count_names(dir, ".gpuwiz-"), 0);
		assert_int_equal(count_names(dir, ".bak"), 1);
		free(p);
		free(bak);
		tu_rm_tree(dir);
		free(dir);
	}
}

/* Any other link(2) failure refuses the save: the file as it was, no
 * backup, no temporary, one line naming the file. */
static void
test_vmx_save_backup_refused(void **state)
{
	char *dir = tu_tmpdir(), *bak, *p, *d;
	ino_t old;
	gw_err e;
	int rc;

	(void)state;
	link_fails = EIO;
	bak = save_one(dir, "vm.vmx", "8192", &old, &rc, &e);
	link_fails = 0;
	assert_int_equal(rc, -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, "vm.vmx: cannot create a backup beside it"));
	p = gw_xasprintf("%s/vm.vmx", dir);
	d = slurp(p);
	assert_string_equal(d, "memSize = \"4096\"\n");
	free(d);
	assert_int_equal(count_names(dir, ".gpuwiz-"), 0);
	assert_int_equal(count_names(dir, ".bak"), 0);
	free(p);
	tu_rm_tree(dir);
	free(dir);
}

/* In a batch (gw_dirsync_defer) the saves sync no directory; the flush
 * syncs each directory once, after all of them: 5 files in 2 directories,
 * 5 + 2 syncs in all.  After the flush a save syncs at once again. */
static void
test_dirsync_deferred(void **state)
{
	static const char *const names[] = { "a/1.vmx", "a/2.vmx", "b/1.vmx",
	                                      "a/3.vmx", "b/2.vmx" };
	char *dir = tu_tmpdir(), *bak;
	size_t i;
	ino_t old;
	gw_err e;
	int rc;

	(void)state;
	mk_dir(dir, "a");
	mk_dir(dir, "b");
	link_fails = 0;
	file_syncs = dir_syncs = 0;
	gw_dirsync_defer();
	for (i = 0; i < sizeof names / sizeof *names; i++) {
		bak = save_one(dir, names[i], "8192", &old, &rc, &e);
		assert_int_equal(rc, 0);
		free(bak);
	}
	assert_int_equal(file_syncs, 5);
	assert_int_equal(dir_syncs, 0);
	assert_int_equal(gw_dirsync_flush(), 2);
	assert_int_equal(dir_syncs, 2);
	assert_int_equal(gw_dirsync_flush(), 0);   /* nothing noted now */
	bak = save_one(dir, "a/4.vmx", "8192", &old, &rc, &e);
	assert_int_equal(rc, 0);
	assert_int_equal(file_syncs, 6);
	assert_int_equal(dir_syncs, 3);
	free(bak);
	tu_rm_tree(dir);
	free(dir);
}

/* A deferring run reads a directory once: its first sweep removes the
 * stale temporaries of every file in it (and no fresh, locked or other
 * user's one), a later sweep there reads nothing; another directory gets
 * its own first sweep; after the flush each sweep reads again. */
static void
test_sweep_deferred_once(void **state)
{
	char *dir = tu_tmpdir(), *a1, *a2, *b1;

	(void)state;
	mk_dir(dir, "a");
	mk_dir(dir, "b");
	put(dir, "a/1.vmx", "x\n");
	put(dir, "a/2.vmx", "x\n");
	put(dir, "b/1.vmx", "x\n");
	put(dir, "a/1.vmx.gpuwiz-Old111", "stale");
	put(dir, "a/2.vmx.gpuwiz-Old222", "stale");
	put(dir, "a/2.vmx.gpuwiz-New222", "young");
	put(dir, "a/notes.gpuwiz-Abc", "not the pattern");
	put(dir, "b/1.vmx.gpuwiz-Old333", "stale");
	age(dir, "a/1.vmx.gpuwiz-Old111", 2 * 3600);
	age(dir, "a/2.vmx.gpuwiz-Old222", 2 * 3600);
	age(dir, "a/notes.gpuwiz-Abc", 2 * 3600);
	age(dir, "b/1.vmx.gpuwiz-Old333", 2 * 3600);
	a1 = gw_xasprintf("%s/a/1.vmx", dir);
	a2 = gw_xasprintf("%s/a/2.vmx", dir);
	b1 = gw_xasprintf("%s/b/1.vmx", dir);
	gw_dirsync_defer();
	assert_int_equal(gw_tmp_sweep(a1), 2);
	assert_false(exists(dir, "a/1.vmx.gpuwiz-Old111"));
	assert_false(exists(dir, "a/2.vmx.gpuwiz-Old222"));
	assert_true(exists(dir, "a/2.vmx.gpuwiz-New222"));
	assert_true(exists(dir, "a/notes.gpuwiz-Abc"));
	put(dir, "a/2.vmx.gpuwiz-Old444", "stale");
	age(dir, "a/2.vmx.gpuwiz-Old444", 2 * 3600);
	assert_int_equal(gw_tmp_sweep(a2), 0);      /* read once */
	assert_true(exists(dir, "a/2.vmx.gpuwiz-Old444"));
	assert_int_equal(gw_tmp_sweep(b1), 1);
	assert_false(exists(dir, "b/1.vmx.gpuwiz-Old333"));
	assert_int_equal(gw_dirsync_flush(), 0);    /* swept, nothing renamed */
	assert_int_equal(gw_tmp_sweep(a2), 1);      /* not deferring: read */
	assert_false(exists(dir, "a/2.vmx.gpuwiz-Old444"));
	free(a1);
	free(a2);
	free(b1);
	tu_rm_tree(dir);
	free(dir);
}

static void
test_random_word(void **state)
{
	char a[7], b[7];
	size_t i;

	(void)state;
	gw_random_word(a, 6);
	gw_random_word(b, 6);
	assert_int_equal(strlen(a), 6);
	assert_string_not_equal(a, b);
	for (i = 0; i < 6; i++)
		assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                       "abcdefghijklmnopqrstuvwxyz0123456789", a[i]));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_follow),
		cmocka_unit_test(test_write_through_link),
		cmocka_unit_test(test_tmp_open_and_sweep),
		cmocka_unit_test(test_sweep_deferred_once),
		cmocka_unit_test(test_vmx_save_through_link),
		cmocka_unit_test(test_vmx_save_backup_linked),
		cmocka_unit_test(test_vmx_save_backup_copied),
		cmocka_unit_test(test_vmx_save_backup_refused),
		cmocka_unit_test(test_dirsync_deferred),
		cmocka_unit_test(test_random_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
