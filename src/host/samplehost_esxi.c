/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_esxi.c: an esxi sample in its scratch folder: the command
 * outputs, the datastores, the esxcli / vim-cmd stand-ins and their
 * log. */
#include "samplehost_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- esxi ------------------------------------------------------------- */

/* Copy the regular file src to dst with mode; flags is O_TRUNC or O_EXCL
 * (added to O_WRONLY | O_CREAT | O_NOFOLLOW). */
static int
copy_file(const char *src, const char *dst, int flags, mode_t mode, gw_err *e)
{
	char *data;
	size_t len;
	int fd, rc = 0;

	if (gw_read_file(src, SAMPLE_MAX_FILE, &data, &len, e) != 0)
		return -1;
	fd = open(dst, O_WRONLY | O_CREAT | O_NOFOLLOW | flags, mode);
	if (fd < 0 || gw_write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0) {
		gw_err_set(e, _("cannot write %s: %s"), dst, strerror(errno));
		rc = -1;
	}
	if (fd >= 0 && close(fd) != 0 && rc == 0) {
		gw_err_set(e, _("cannot write %s: %s"), dst, strerror(errno));
		rc = -1;
	}
	free(data);
	return rc;
}

/* Copy the regular files and folders of src into dst (created); links and
 * other files are skipped. */
static int
copy_tree(const char *src, const char *dst, mode_t fmode, gw_err *e)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (mkdir(dst, 0755) != 0 && errno != EEXIST) {
		gw_err_set(e, _("cannot create %s: %s"), dst, strerror(errno));
		return -1;
	}
	if ((d = opendir(src)) == NULL) {
		gw_err_set(e, _("cannot read %s: %s"), src, strerror(errno));
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *s, *t;
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		s = gw_xasprintf("%s/%s", src, de->d_name);
		t = gw_xasprintf("%s/%s", dst, de->d_name);
		if (lstat(s, &st) != 0) {
			gw_err_set(e, _("cannot read %s: %s"), s, strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = copy_tree(s, t, fmode, e);
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_file(s, t, O_TRUNC, fmode, e);
		}
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

int
smp_materialise_esxi(const char *hosts, const char *sdir, const gw_sample *s,
                     gw_err *e)
{
	static const char *const tools[] = { "esxcli", "vim-cmd" };
	char *src, *dst;
	size_t i;
	int rc, fd;

	src = gw_xasprintf("%s/esxi", sdir);
	dst = gw_xasprintf("%s/esxi", s->scratch);
	if (!smp_is_dir(src)) {
		gw_err_set(e, _("%s: a kind = esxi sample needs an esxi/ folder "
		                "with the command outputs"),
		           sdir);
		rc = -1;
	} else {
		rc = copy_tree(src, dst, 0644, e);
	}
	free(src);
	free(dst);
	if (rc != 0)
		return -1;
	src = gw_xasprintf("%s/volumes", sdir);
	if (smp_is_dir(src))
		rc = copy_tree(src, s->volumes, 0644, e);
	else if (mkdir(s->volumes, 0755) != 0) {
		gw_err_set(e, _("cannot create %s: %s"), s->volumes,
		           strerror(errno));
		rc = -1;
	}
	free(src);
	if (rc != 0)
		return -1;
	if (mkdir(s->bin, 0755) != 0) {
		gw_err_set(e, _("cannot create %s: %s"), s->bin, strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		src = gw_xasprintf("%s/bin/%s", hosts, tools[i]);
		dst = gw_xasprintf("%s/%s", s->bin, tools[i]);
		rc = copy_file(src, dst, O_EXCL, 0755, e);
		free(src);
		free(dst);
		if (rc != 0)
			return -1;
	}
	dst = gw_xasprintf("%s/commands.log", s->scratch);
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		gw_err_set(e, _("cannot write %s: %s"), dst, strerror(errno));
		free(dst);
		return -1;
	}
	close(fd);
	free(dst);
	return 0;
}
