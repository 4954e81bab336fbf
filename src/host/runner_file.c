/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner_file.c: read and replace files through the runner (cat, and a
 * small shell script that keeps a backup and renames a complete, synced
 * temporary file, created exclusively, over the old one). */
#include "runner_int.h"
#include "safefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int
check_abs(const char *path, gw_err *e)
{
	if (path == NULL || path[0] != '/') {
		gw_err_set(e, _("%s: expected an absolute path"),
		           path ? path : "");
		return -1;
	}
	return 0;
}

int
gw_runner_read_file(gw_runner *r, const char *path, char **data, size_t *len,
                    gw_err *e)
{
	const char *argv[] = {"cat", path, NULL};
	char *err = NULL, *o = NULL;
	int st;

	*data = NULL;
	*len = 0;
	if (check_abs(path, e) != 0)
		return -1;
	runner_out ro = { .out = &o, .olen = len };

	if (runner_run_argv(r, argv, &ro, &err, &st, e) != 0)
		return -1;
	if (st != 0) {
		char *line = runner_first_line(err);
		gw_err_set(e, _("%s: cannot read it (exit %d): %s"), path, st,
		           *line ? line : _("no message"));
		free(line);
		free(err);
		free(o);
		*len = 0;
		return -1;
	}
	free(err);
	*data = o;   /* NUL-terminated by gw_buf; *len from the pipe */
	return 0;
}

/* Shell functions for the scripts below.  follow: p, a symbolic link,
 * becomes the file it names (relative targets from the link's directory,
 * as gw_path_follow), and the temporaries t and u, the backup name b and
 * the directory d move beside it; the link stays.  same F: F (a copy of p
 * made by cp -p) has p's owner and group, or the owner, group and this
 * user's name go to stderr (cp -p only warns where it cannot give them:
 * busybox and GNU alike). */
static void
owner_functions(gw_buf *s)
{
	gw_buf_puts(s,
	    "follow() { q=$p; i=0; "
	    "while [ -L \"$p\" ]; do i=$((i+1)); "
	    "[ $i -le 40 ] || { echo 'too many levels of symbolic links' >&2; "
	    "exit 17; }; "
	    "l=$(readlink \"$p\") && [ -n \"$l\" ] || exit 17; "
	    "case $l in /*) p=$l ;; *) p=${p%/*}/$l ;; esac; done; "
	    "[ \"$p\" = \"$q\" ] && return 0; "
	    "[ -z \"$t\" ] || t=$p${t#\"$q\"}; [ -z \"$u\" ] || u=$p${u#\"$q\"}; "
	    "[ -z \"$b\" ] || b=$p${b#\"$q\"}; [ -z \"$x\" ] || x=$p${x#\"$q\"}; "
	    "d=${p%/*}; d=${d:-/}; }; "
	    "own() { set -- $(ls -lnd \"$1\") && echo \"$3:$4\"; }; "
	    "same() { [ \"$(own \"$1\")\" = \"$(own \"$p\")\" ] && return 0; "
	    "set -- $(ls -ld \"$p\"); echo \"$3 $4 $(id -un)\" >&2; return 1; }; ");
}

/* The script that replaces path by stdin (len bytes) through the
 * temporary tmp (with xt given, stdin starts with wlen more bytes, the
 * file as read: dd copies exactly those to the temporary xt, and cmp
 * compares it with path right before the renames; another content is
 * exit 18, nothing changed), with a backup at base (or base.N) made
 * through the temporary bt (none when base is NULL: the caller copied the file to a
 * backup before, gw_runner_backup_file): each temporary is created exclusively (set -C: an
 * existing name, a link included, is never written through), complete and
 * synced before it is renamed, and removed on every failure and on a
 * hang-up (the ssh connection gone).  A symbolic link at path is followed
 * and its target written, the link kept (follow); the temporaries are
 * cp -p copies of the file, so they carry its owner, group and mode, and
 * where this user cannot give the owner or group nothing is done (same).
 * Exit codes: 10 backup, 11 temporary copy, 12 writing, 13 size, 14
 * rename, 15 a signal, 16 an owner or group not given, 17 a link not
 * followed, 18 changed since it was read, 19 read-only (no write bit for
 * anyone; not checked with force).  Only runner_quote_word()ed
 * words are put in.  ESXi's busybox sh has set -C, sync (a busybox sync
 * before 1.26 ignores its arguments and syncs everything), mv, dd, cmp,
 * readlink and ls -n; VMFS has no hard links.  A file is created with
 * printf, not ':': a redirection that fails on a special built-in ends
 * the shell before its exit code is set. */
static void
write_script(gw_buf *s, const char *path, const char *tmp, const char *bt,
             const char *base, const char *dir, size_t len, const char *xt,
             size_t wlen, int force)
{
	gw_buf_puts(s, "p=");
	runner_quote_word(s, path);
	gw_buf_puts(s, "; t=");
	runner_quote_word(s, tmp);
	gw_buf_puts(s, "; u=");
	runner_quote_word(s, bt);
	gw_buf_puts(s, "; b=");
	if (base)
		runner_quote_word(s, base);
	gw_buf_puts(s, "; d=");
	runner_quote_word(s, dir);
	gw_buf_printf(s, "; n=%zu; ", len);
	gw_buf_puts(s, "x=");
	if (xt)
		runner_quote_word(s, xt);
	gw_buf_printf(s, "; m=%zu; f=%s; ", wlen, force ? "1" : "");
	owner_functions(s);
	gw_buf_puts(s,
	    "mt=; mu=; mx=; k=; follow; "
	    "if [ -z \"$f\" ] && [ -e \"$p\" ]; then "
	    "case $(ls -lnd \"$p\") in ?[r-]-?[r-]-?[r-]-*) exit 19 ;; esac; "
	    "fi; "
	    "gone() { [ -z \"$mt\" ] || rm -f \"$t\"; "
	    "[ -z \"$mu\" ] || rm -f \"$u\"; "
	    "[ -z \"$mx\" ] || rm -f \"$x\"; }; "
	    "trap 'gone; exit 15' HUP INT TERM; "
	    "set -C; "
	    "if [ -e \"$p\" ]; then "
	    "if [ -n \"$b\" ]; then "
	    "printf '' > \"$u\" || exit 10; mu=1; "
	    "cp -p \"$p\" \"$u\" || { gone; exit 10; }; "
	    "same \"$u\" || { gone; exit 16; }; "
	    "k=\"$b\"; i=1; "
	    "while [ -e \"$k\" ]; do k=\"$b.$i\"; i=$((i+1)); done; "
	    "fi; "
	    "printf '' > \"$t\" || { gone; exit 11; }; mt=1; "
	    "cp -p \"$p\" \"$t\" || { gone; exit 11; }; "
	    "same \"$t\" || { gone; exit 16; }; "
	    "else printf '' > \"$t\" || exit 11; mt=1; fi; "
	    "if [ -n \"$x\" ]; then "
	    "printf '' > \"$x\" || { gone; exit 11; }; mx=1; fi; "
	    "set +C; "
	    "if [ -n \"$x\" ]; then "
	    "dd bs=1 count=\"$m\" of=\"$x\" 2>/dev/null || { gone; exit 12; }; "
	    "w=$(wc -c < \"$x\"); "
	    "[ \"$w\" -eq \"$m\" ] || { gone; exit 13; }; fi; "
	    "cat > \"$t\" || { gone; exit 12; }; "
	    "w=$(wc -c < \"$t\"); "
	    "[ \"$w\" -eq \"$n\" ] || { gone; exit 13; }; "
	    "sync \"$t\" ${k:+\"$u\"} 2>/dev/null || sync; "
	    "if [ -n \"$x\" ]; then "
	    "cmp -s \"$x\" \"$p\" || { gone; exit 18; }; "
	    "rm -f \"$x\"; mx=; fi; "
	    "if [ -n \"$k\" ]; then mv \"$u\" \"$k\" || { gone; exit 10; }; "
	    "mu=; fi; "
	    "mv -f \"$t\" \"$p\" || { gone; exit 14; }; mt=; "
	    "sync \"$d\" 2>/dev/null || sync; "
	    "printf '%s' \"$k\"");
}

/* The refusal of a file whose owner or group this user cannot give: the
 * last line of err is "OWNER GROUP USER" (same() in owner_functions),
 * after what cp said. */
static void
owner_error(gw_err *e, const char *path, const char *err)
{
	const char *end = err ? err + strlen(err) : NULL, *start;
	char *w[3] = {NULL, NULL, NULL}, *copy, *p, *line;
	int n;

	while (end && end > err && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (start = end; start && start > err && start[-1] != '\n'; start--)
		;
	line = copy = start ? gw_xstrndup(start, (size_t)(end - start))
	                    : gw_xstrdup("");
	p = copy;

	for (n = 0; n < 3 && (w[n] = strsep(&p, " ")) != NULL; n++)
		;
	if (n == 3 && *w[0] && *w[1] && *w[2])
		gw_err_owner(e, path, w[0], w[1], w[2], strcmp(w[0], w[2]) != 0);
	else
		gw_err_set(e, _("%s: cannot give the new file its owner and "
		                "group: %s"), path, *line ? line : _("no message"));
	free(line);
}

/* What the script's exit status st says (err: its stderr). */
static void
write_error(gw_err *e, const char *path, const char *tmp, size_t len, int st,
            const char *err)
{
	char *line = runner_first_line(err);

	switch (st) {
	case 10:
		gw_err_set(e, _("%s: cannot make a backup beside it: %s"), path,
		           line);
		break;
	case 11: case 12:
		gw_err_set(e, _("%s: cannot write the temporary file %s: %s"),
		           path, tmp, line);
		break;
	case 13:
		gw_err_set(e, P_("%s: the temporary file %s does not have the "
		                 "%zu byte sent; nothing changed",
		                 "%s: the temporary file %s does not have the "
		                 "%zu bytes sent; nothing changed", len),
		           path, tmp, len);
		break;
	case 14:
		gw_err_set(e, _("%s: cannot rename %s over it: %s"), path, tmp,
		           line);
		break;
	case 16:
		owner_error(e, path, err);
		break;
	case 17:
		gw_err_set(e, _("%s: cannot follow its symbolic link: %s"), path,
		           *line ? line : _("no message"));
		break;
	case 19:
		gw_vmx_err_read_only(e, path);
		break;
	case 18:
		gw_err_changed_on_disk(e, path);
		break;
	default:
		runner_status_error(e, path, st, err);
		break;
	}
	free(line);
}

/* "PATH.YYYYmmdd-HHMMSS.bak": the name a backup of path starts from. */
static char *
backup_base(const char *path)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	return gw_xasprintf("%s.%s.bak", path, stamp);
}

/* A temporary name beside path, of safefile.h's pattern, random: set -C
 * refuses one taken. */
static char *
temp_beside(const char *path)
{
	char word[8];

	gw_random_word(word, 6);
	return gw_xasprintf("%s.gpuwiz-%s", path, word);
}

int
gw_runner_backup_file(gw_runner *r, const char *path, char **backup,
                      gw_err *e)
{
	char *bt, *base, *out = NULL, *err = NULL;
	gw_buf s;
	int st, rc = -1;

	*backup = NULL;
	if (check_abs(path, e) != 0)
		return -1;
	bt = temp_beside(path);
	base = backup_base(path);
	/* the copy made complete and synced under a temporary name created
	 * exclusively, then renamed to the first free backup name (as
	 * write_script's backup) */
	gw_buf_init(&s);
	gw_buf_puts(&s, "p=");
	runner_quote_word(&s, path);
	gw_buf_puts(&s, "; u=");
	runner_quote_word(&s, bt);
	gw_buf_puts(&s, "; b=");
	runner_quote_word(&s, base);
	gw_buf_puts(&s, "; t=; d=; ");
	owner_functions(&s);
	gw_buf_puts(&s,
	    "follow; mu=; gone() { [ -z \"$mu\" ] || rm -f \"$u\"; }; "
	    "trap 'gone; exit 15' HUP INT TERM; "
	    "[ -e \"$p\" ] || { echo \"no such file\" >&2; exit 10; }; "
	    "set -C; printf '' > \"$u\" || exit 10; mu=1; set +C; "
	    "cp -p \"$p\" \"$u\" || { gone; exit 10; }; "
	    "same \"$u\" || { gone; exit 16; }; "
	    "k=\"$b\"; i=1; "
	    "while [ -e \"$k\" ]; do k=\"$b.$i\"; i=$((i+1)); done; "
	    "sync \"$u\" 2>/dev/null || sync; "
	    "mv \"$u\" \"$k\" || { gone; exit 10; }; "
	    "printf '%s' \"$k\"");
	if (runner_run_script(r, s.data, NULL, 0, &(runner_out){ .out = &out },
	                      &err, &st, path, e) != 0)
		goto done;
	if (st != 0 || out == NULL || *out == '\0') {
		write_error(e, path, bt, 0, st ? st : 10, err);
		goto done;
	}
	*backup = out;
	out = NULL;
	rc = 0;
done:
	gw_buf_free(&s);
	free(out);
	free(err);
	free(bt);
	free(base);
	return rc;
}

int
gw_runner_write_file_atomic(gw_runner *r, const char *path, const char *data,
                            size_t len, const char *was, size_t wlen,
                            int force, char **backup, gw_err *e)
{
	char *tmp, *bt, *xt = NULL, *base, *dir, *out = NULL, *in;
	char *err = NULL;
	gw_buf s;
	int st, rc = -1;

	if (backup)
		*backup = NULL;
	if (check_abs(path, e) != 0)
		return -1;
	tmp = temp_beside(path);
	bt = temp_beside(path);
	if (was != NULL)
		xt = temp_beside(path);
	base = backup ? backup_base(path) : NULL;
	dir = gw_path_dir(path);
	gw_buf_init(&s);
	write_script(&s, path, tmp, bt, base, dir, len, xt, wlen, force);
	/* stdin: the file as read (with xt), then the new content */
	in = gw_xmalloc(wlen + len + 1);
	if (xt)
		memcpy(in, was, wlen);
	memcpy(in + (xt ? wlen : 0), data, len);
	if (runner_run_script(r, s.data, in, (xt ? wlen : 0) + len,
	                      &(runner_out){ .out = &out }, &err, &st, path,
	                      e) != 0) {
		free(in);
		goto done;
	}
	free(in);
	if (st != 0) {
		write_error(e, path, tmp, len, st, err);
		goto done;
	}
	if (backup && out && *out)
		*backup = gw_xstrdup(out);
	rc = 0;
done:
	gw_buf_free(&s);
	free(out);
	free(err);
	free(tmp);
	free(bt);
	free(xt);
	free(base);
	free(dir);
	return rc;
}
