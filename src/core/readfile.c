/* SPDX-License-Identifier: GPL-3.0-or-later */
/* readfile.c: reading the files a user names (gw.h): opened only when
 * regular, read whole or in chunks as they come, with one line naming the
 * file for each failure. */
#include "gw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, for a message. */
static const char *
file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return _("a named pipe (FIFO)");
	if (S_ISSOCK(m))
		return _("a socket");
	if (S_ISCHR(m))
		return _("a character device");
	if (S_ISBLK(m))
		return _("a block device");
	return _("a special file");
}

int
gw_open_regular(const char *path, gw_err *e)
{
	struct stat st;
	int fd, fl;

	/* O_NONBLOCK: opening a FIFO for reading waits for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		gw_err_set(e, _("%s: cannot open: %s"), path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		gw_err_set(e, _("%s: cannot read: %s"), path, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		gw_err_set(e, _("%s: is a directory, expected a file"), path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		/* TRANSLATORS: %s: the file; %s: what it is ("a socket",
		 * "a named pipe (FIFO)"). */
		gw_err_set(e, _("%s: is %s, expected a regular file"), path,
		           file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int
gw_read_stream(int fd, const char *name, size_t max_bytes,
               void (*take)(void *ctx, const char *data, size_t len),
               void *ctx, gw_err *e)
{
	char chunk[65536];
	size_t total = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, chunk, sizeof chunk);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			gw_err_set(e, _("%s: cannot read: %s"), name, strerror(errno));
			return -1;
		}
		if (r == 0)
			return 0;
		if (total + (size_t)r > max_bytes) {
			gw_err_set(e, _("%s: file is too large (more than %zu bytes)"),
			           name, max_bytes);
			return -1;
		}
		total += (size_t)r;
		take(ctx, chunk, (size_t)r);
	}
}

void
gw_lines_feed(gw_buf *part, const char *data, size_t len, gw_line_fn *fn,
              void *ctx)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl == NULL) {
			gw_buf_add(part, p, (size_t)(end - p));
			return;
		}
		if (part->len > 0) {
			gw_buf_add(part, p, (size_t)(nl - p));
			fn(ctx, part->data, part->len);
			part->len = 0;
		} else {
			fn(ctx, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
}

void
gw_lines_end(gw_buf *part, gw_line_fn *fn, void *ctx)
{
	if (part->len > 0)
		fn(ctx, part->data, part->len);
	gw_buf_free(part);
}

static void
take_buf(void *ctx, const char *data, size_t len)
{
	gw_buf_add(ctx, data, len);
}

int
gw_read_fd(int fd, const char *name, size_t max_bytes, char **out,
           size_t *len, gw_err *e)
{
	gw_buf b;
	struct stat st;

	gw_buf_init(&b);
	/* room for the whole file at once: growing by doubling would hold up
	 * to three times its size while the last block is copied */
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (unsigned long long)st.st_size < max_bytes) {
		b.cap = (size_t)st.st_size + 2;
		b.data = gw_xrealloc(b.data, b.cap);
	}
	if (gw_read_stream(fd, name, max_bytes, take_buf, &b, e) != 0) {
		gw_buf_free(&b);
		return -1;
	}
	*len = b.len;
	*out = gw_buf_steal(&b);
	return 0;
}

int
gw_read_file(const char *path, size_t max_bytes, char **out, size_t *len,
             gw_err *e)
{
	int fd, rc;

	if ((fd = gw_open_regular(path, e)) < 0)
		return -1;
	rc = gw_read_fd(fd, path, max_bytes, out, len, e);
	close(fd);
	return rc;
}

int
gw_read_text_file(const char *path, size_t max_bytes, const char *what,
                  char **out, size_t *len, gw_err *e)
{
	if (gw_read_file(path, max_bytes, out, len, e) != 0)
		return -1;
	if (memchr(*out, '\0', *len) != NULL) {
		gw_err_set(e, _("%s: binary data (NUL byte); expected the text "
		                "output of %s"), path, what);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
