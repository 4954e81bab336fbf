/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost.c: the sample hosts of data/hosts (see samplehost.h): where
 * they are, listing them, and opening one in a private scratch folder (a
 * /sys and /proc tree for linux, saved command outputs, datastores and
 * esxcli / vim-cmd stand-ins for esxi; the pieces are listed in
 * samplehost_int.h) and closing it. */
#include "samplehost_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- where the samples are ------------------------------------------- */

static char *hosts_dir;

int
smp_is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
smp_is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The default candidates, in order (malloc'ed; at most 4): beside a
 * build-tree binary (BUILD/data/hosts, linked to the source tree's by make
 * in an out-of-tree build; only with make's marker beside the program,
 * gw_build_path), then the installed ones.  No path of the build is
 * compiled in (doc/design.md, section 2.4). */
static size_t
candidates(char *cand[4])
{
	size_t nc = 0;

	if ((cand[nc] = gw_build_path("../data/hosts", GW_PATH_DIR)) != NULL)
		nc++;
	if ((cand[nc] = gw_build_path("data/hosts", GW_PATH_DIR)) != NULL)
		nc++;
#ifdef PKGDATADIR
	cand[nc++] = gw_xstrdup(PKGDATADIR "/hosts");
#endif
	return nc;
}

/* The folder holding the sample hosts: $GPUWIZ_HOSTS_DIR when set (even if
 * it does not exist, so that errors name it; and trusted, gw_env_path),
 * else the first existing
 * folder of EXEDIR/../data/hosts, EXEDIR/data/hosts (a build-tree binary;
 * make links BUILD/data/hosts to the source tree's in an out-of-tree
 * build), PKGDATADIR/hosts (installed); NULL when none exists.  The
 * string is static and valid until the next call. */
static const char *
sample_hosts_dir(void)
{
	const char *env = gw_env_path("GPUWIZ_HOSTS_DIR", GW_PATH_DIR);
	char *cand[4];
	size_t i, nc;

	free(hosts_dir);
	hosts_dir = NULL;
	/* Named explicitly: use it even when missing, so that errors name
	 * the folder the operator asked for. */
	if (env)
		return hosts_dir = gw_xstrdup(env);
	nc = candidates(cand);
	for (i = 0; i < nc; i++) {
		if (hosts_dir == NULL && smp_is_dir(cand[i]))
			hosts_dir = cand[i];
		else
			free(cand[i]);
	}
	return hosts_dir;
}

/* The folder, or NULL with e naming what was tried. */
static const char *
hosts_dir_or_err(gw_err *e)
{
	const char *d = sample_hosts_dir();
	char *cand[4];
	size_t i, nc;
	gw_buf tried;

	if (d)
		return d;
	nc = candidates(cand);
	gw_buf_init(&tried);
	for (i = 0; i < nc; i++) {
		gw_buf_printf(&tried, "%s%s", i ? ", " : "", cand[i]);
		free(cand[i]);
	}
	gw_err_set(e, _("no sample hosts found (tried %s); set GPUWIZ_HOSTS_DIR "
	                "to the data/hosts folder"),
	           tried.len ? tried.data : "-");
	gw_buf_free(&tried);
	return NULL;
}

/* ---- listing ---------------------------------------------------------- */

static int
cmp_info(const void *a, const void *b)
{
	return strcmp(((const gw_sample_info *)a)->name,
	              ((const gw_sample_info *)b)->name);
}

void
gw_sample_list_free(gw_sample_info *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(l[i].name);
		free(l[i].title);
		free(l[i].kind);
	}
	free(l);
}

int
gw_sample_list(gw_sample_info **out, size_t *nout, gw_err *e)
{
	const char *dir;
	DIR *dp;
	struct dirent *de;
	gw_sample_info *l = NULL;
	size_t n = 0;
	struct stat st;

	*out = NULL;
	*nout = 0;
	if ((dir = hosts_dir_or_err(e)) == NULL)
		return -1;
	if ((dp = opendir(dir)) == NULL) {
		gw_err_set(e, _("cannot read %s: %s"), dir, strerror(errno));
		return -1;
	}
	/* the names only: a folder holding a host.ini (one stat each);
	 * no file is read (gw_sample_describe reads one when shown) */
	while ((de = readdir(dp)) != NULL) {
		char *ini;

		if (de->d_name[0] == '.')
			continue;
		ini = gw_xasprintf("%s/host.ini", de->d_name);
		if (fstatat(dirfd(dp), ini, &st, 0) == 0 && S_ISREG(st.st_mode)) {
			l = gw_xrealloc(l, (n + 1) * sizeof *l);
			l[n].name = gw_xstrdup(de->d_name);
			l[n].title = NULL;
			l[n].kind = NULL;
			n++;
		}
		free(ini);
	}
	closedir(dp);
	if (n > 1)
		qsort(l, n, sizeof *l, cmp_info);
	*out = l;
	*nout = n;
	return 0;
}

int
gw_sample_describe(gw_sample_info *s, gw_err *e)
{
	const char *dir, *title, *kind;
	dictionary *d;
	ini_ctx c;
	char *ini;
	int rc = 0;

	if (s->title != NULL)
		return 0;
	if ((dir = hosts_dir_or_err(e)) == NULL)
		return -1;
	ini = gw_xasprintf("%s/%s/host.ini", dir, s->name);
	if ((d = smp_load_ini(ini, e)) == NULL) {
		free(ini);
		return -1;
	}
	c.d = d;
	c.path = ini;
	c.e = e;
	if (smp_host_title_kind(&c, &title, &kind) != 0) {
		rc = -1;
	} else {
		s->title = gw_xstrdup(title);
		s->kind = gw_xstrdup(kind);
	}
	iniparser_freedict(d);
	free(ini);
	return rc;
}

/* ---- open / close ----------------------------------------------------- */

static int
unknown_name(const char *name, gw_err *e)
{
	gw_sample_info *l;
	size_t n, i;
	gw_buf known;

	if (gw_sample_list(&l, &n, e) != 0)
		return -1;
	gw_buf_init(&known);
	for (i = 0; i < n; i++)
		gw_buf_printf(&known, "%s%s", i ? ", " : "", l[i].name);
	gw_err_set(e, _("unknown sample host \"%s\"; known: %s"), name,
	           known.len ? known.data : "-");
	gw_buf_free(&known);
	gw_sample_list_free(l, n);
	return -1;
}

void
gw_sample_close(gw_sample *s, int remove_scratch)
{
	if (s == NULL)
		return;
	if (remove_scratch && s->scratch && *s->scratch)
		smp_rm_tree(s->scratch);
	free(s->name);
	free(s->kind);
	free(s->scratch);
	free(s->sysroot);
	free(s->bin);
	free(s->volumes);
	memset(s, 0, sizeof *s);
}

int
gw_sample_open(const char *name, gw_sample *out, gw_err *e)
{
	const char *title, *kind, *tmp;
	char *hosts, *sdir = NULL, *ini = NULL, *tmpl;
	dictionary *d = NULL;
	shost h;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&h, 0, sizeof h);
	if ((tmp = hosts_dir_or_err(e)) == NULL)
		return -1;
	hosts = gw_xstrdup(tmp);   /* gw_sample_list resets the static */
	if (name == NULL || name[0] == '\0' || name[0] == '.' ||
	    strchr(name, '/') != NULL || strlen(name) > 255) {
		unknown_name(name ? name : "", e);
		goto done;
	}
	sdir = gw_xasprintf("%s/%s", hosts, name);
	ini = gw_xasprintf("%s/host.ini", sdir);
	if (!smp_is_file(ini)) {
		unknown_name(name, e);
		goto done;
	}
	if (smp_read_host(ini, &d, &title, &kind, &h, e) != 0)
		goto done;

	tmp = getenv("TMPDIR");
	tmpl = gw_xasprintf("%s/gpuwiz-sample.XXXXXX",
	                    tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(tmpl) == NULL) {
		gw_err_set(e, _("cannot create a scratch folder %s: %s"), tmpl,
		           strerror(errno));
		free(tmpl);
		goto done;
	}
	out->name = gw_xstrdup(name);
	out->kind = gw_xstrdup(kind);
	out->scratch = tmpl;
	if (strcmp(kind, "linux") == 0) {
		out->sysroot = gw_xasprintf("%s/root", tmpl);
		rc = smp_materialise_linux(tmpl, &h, e);
	} else {
		out->bin = gw_xasprintf("%s/bin", tmpl);
		out->volumes = gw_xasprintf("%s/volumes", tmpl);
		rc = smp_materialise_esxi(hosts, sdir, out, e);
	}
	if (rc != 0)
		gw_sample_close(out, 1);
done:
	free(h.devs);
	if (d)
		iniparser_freedict(d);
	free(ini);
	free(sdir);
	free(hosts);
	return rc;
}

gw_runner *
gw_sample_runner(const gw_sample *s)
{
	gw_runner *r;

	if (s->kind == NULL || strcmp(s->kind, "esxi") != 0)
		return NULL;
	r = gw_runner_open_local();
	gw_runner_set_path_prefix(r, s->bin);
	gw_runner_set_volumes_root(r, s->volumes);
	return r;
}

char *
gw_sample_label(const gw_sample *s)
{
	/* TRANSLATORS: how a sample host is named; %s is its name. */
	return gw_xasprintf(_("%s (sample)"), s->name);
}
