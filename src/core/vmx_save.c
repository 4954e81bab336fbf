/* vmx_save.c: the running-VM check (.vmx.lck) and saving a .vmx: a
 * timestamped backup, then an atomic replace through a symlink to its
 * target (see vmx.h). */
#include "vmx_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int
gw_vmx_is_locked(const char *vmx_path, char **lock_path)
{
	char *lck = gw_xasprintf("%s.lck", vmx_path);
	struct stat st;
	int locked = 0;

	if (lock_path)
		*lock_path = NULL;
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

/* Copy the file now at path to "<path>.<YYYYmmdd-HHMMSS>.bak" (".N"
 * appended while that exists).  *bak is NULL (and 0 returned) when there is
 * no file at path yet.  On failure nothing is left behind. */
static int
make_backup(const char *path, char **bak, gw_err *e)
{
	char stamp[32], buf[65536], *name = NULL;
	struct stat st;
	struct tm tm;
	time_t now = time(NULL);
	int in, out = -1, n, saved;
	ssize_t r;

	*bak = NULL;
	in = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0) {
		if (errno == ENOENT)
			return 0;
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
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	for (n = 0; n < 1000; n++) {
		name = n ? gw_xasprintf("%s.%s.bak.%d", path, stamp, n)
		         : gw_xasprintf("%s.%s.bak", path, stamp);
		out = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		           st.st_mode & 0777);
		if (out >= 0 || errno != EEXIST)
			break;
		free(name);
		name = NULL;
	}
	if (out < 0) {
		saved = errno;
		gw_err_set(e, _("%s: cannot create a backup beside it: %s"), path,
		           name ? strerror(saved) : _("too many backups this second"));
		free(name);
		close(in);
		return -1;
	}
	for (;;) {
		r = read(in, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (gw_write_all(out, buf, (size_t)r) != 0) {
			r = -1;
			break;
		}
	}
	saved = errno;
	if (r == 0 && (fchmod(out, st.st_mode & 0777) != 0 || fsync(out) != 0)) {
		r = -1;
		saved = errno;
	}
	if (close(out) != 0 && r == 0) {
		r = -1;
		saved = errno;
	}
	close(in);
	if (r != 0) {
		unlink(name);
		gw_err_set(e, _("%s: cannot write the backup %s: %s"), path, name,
		           strerror(saved));
		free(name);
		return -1;
	}
	*bak = name;
	return 0;
}

int
gw_vmx_save(const gw_vmx *v, const char *path, int force, char **backup_path,
            gw_err *e)
{
	char *lck = NULL, *bak = NULL, *data;
	size_t len;

	if (backup_path)
		*backup_path = NULL;
	if (!force && gw_vmx_is_locked(path, &lck)) {
		gw_err_set(e, _("%s: the VM looks powered on (lock %s exists); "
		                "power it off first"), path, lck);
		free(lck);
		return -1;
	}
	if (make_backup(path, &bak, e) != 0)
		return -1;
	data = gw_vmx_serialize(v, &len);
	if (gw_write_file_atomic(path, data, len, e) != 0) {
		if (bak)
			unlink(bak);
		free(bak);
		free(data);
		return -1;
	}
	free(data);
	if (backup_path)
		*backup_path = bak;
	else
		free(bak);
	return 0;
}
