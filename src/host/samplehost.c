/* samplehost.c: the sample hosts of data/hosts (see samplehost.h): listing
 * them, and materialising one in a private scratch folder, as a /sys and
 * /proc tree (linux) or as saved command outputs, datastores and
 * esxcli / vim-cmd stand-ins (esxi). */
#include "samplehost.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ini.h"

/* Largest file copied from an esxi sample. */
#define SAMPLE_MAX_FILE (16u << 20)
/* Bounds of the schema. */
#define SAMPLE_MAX_CPUS 64
#define SAMPLE_MAX_UNITS 16
#define SAMPLE_MAX_DEVS 256

/* ---- where the samples are ------------------------------------------- */

static char *hosts_dir;

static int
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The default candidates, in order (malloc'ed; at most 4). */
static size_t
candidates(char *cand[4])
{
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t nc = 0;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			cand[nc++] = gw_xasprintf("%s/../data/hosts", exe);
			cand[nc++] = gw_xasprintf("%s/data/hosts", exe);
		}
	}
#ifdef PKGDATADIR
	cand[nc++] = gw_xstrdup(PKGDATADIR "/hosts");
#endif
#ifdef GW_TOP_SRCDIR
	cand[nc++] = gw_xstrdup(GW_TOP_SRCDIR "/data/hosts");
#endif
	return nc;
}

const char *
gw_sample_hosts_dir(void)
{
	const char *env = getenv("GPUWIZ_HOSTS_DIR");
	char *cand[4];
	size_t i, nc;

	free(hosts_dir);
	hosts_dir = NULL;
	/* Named explicitly: use it even when missing, so that errors name
	 * the folder the operator asked for. */
	if (env && *env)
		return hosts_dir = gw_xstrdup(env);
	nc = candidates(cand);
	for (i = 0; i < nc; i++) {
		if (hosts_dir == NULL && is_dir(cand[i]))
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
	const char *d = gw_sample_hosts_dir();
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

/* ---- host.ini --------------------------------------------------------- */


static dictionary *
load_ini(const char *path, gw_err *e)
{
	dictionary *d;
	FILE *f;

	/* Name an unreadable file as such (iniparser only says NULL). */
	if ((f = fopen(path, "r")) == NULL) {
		gw_err_set(e, _("cannot read %s: %s"), path, strerror(errno));
		return NULL;
	}
	fclose(f);
	if ((d = gw_ini_load(path, e)) == NULL)
		return NULL;
	return d;
}

static const char *
ini_get(const dictionary *d, const char *sec, const char *key)
{
	char full[256];

	snprintf(full, sizeof full, "%s:%s", sec, key);
	return iniparser_getstring(d, full, NULL);
}

/* The checks below name the file, the section and the key. */
typedef struct ini_ctx {
	const dictionary *d;
	const char *path;
	gw_err *e;
} ini_ctx;

static int
missing(const ini_ctx *c, const char *sec, const char *key)
{
	gw_err_set(c->e, _("%s: [%s] %s is missing"), c->path, sec, key);
	return -1;
}

/* A required (or, with required 0, optional: *out untouched) string. */
static int
get_str(const ini_ctx *c, const char *sec, const char *key, int required,
        const char **out)
{
	const char *v = ini_get(c->d, sec, key);

	if (v == NULL || *v == '\0')
		return required ? missing(c, sec, key) : 0;
	*out = v;
	return 0;
}

/* One of choices ("on", "off", NULL).  Returns the index, or -1 with e set;
 * an absent optional key gives dflt. */
static int
get_enum(const ini_ctx *c, const char *sec, const char *key,
         const char *const *choices, int dflt)
{
	const char *v = ini_get(c->d, sec, key);
	gw_buf all;
	int i;

	if (v == NULL || *v == '\0') {
		if (dflt >= 0)
			return dflt;
		return missing(c, sec, key);
	}
	for (i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0)
			return i;
	gw_buf_init(&all);
	for (i = 0; choices[i]; i++)
		gw_buf_printf(&all, "%s%s", i ? ", " : "", choices[i]);
	gw_err_set(c->e, _("%s: [%s] %s: expected one of %s, found \"%s\""),
	           c->path, sec, key, all.data, v);
	gw_buf_free(&all);
	return -1;
}

/* A decimal whole number in [lo, hi]; dflt when absent. */
static int
get_uint(const ini_ctx *c, const char *sec, const char *key, unsigned lo,
         unsigned hi, unsigned dflt, unsigned *out)
{
	const char *v = ini_get(c->d, sec, key);
	unsigned long long n;

	if (v == NULL || *v == '\0') {
		*out = dflt;
		return 0;
	}
	if (gw_parse_uint(v, hi, &n) != 0 || n < lo) {
		gw_err_set(c->e, _("%s: [%s] %s: expected a whole number from "
		                   "%u to %u, found \"%s\""),
		           c->path, sec, key, lo, hi, v);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

/* Hex digits with an optional 0x: 0 and *out, or -1. */
static int
parse_hex(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, n++) {
		int h = gw_hexval((unsigned char)*s);

		if (h < 0 || n >= 16)
			return -1;
		v = v << 4 | (uint64_t)h;
	}
	if (n == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static int
get_hex(const ini_ctx *c, const char *sec, const char *key, uint64_t max,
        int required, uint64_t dflt, uint64_t *out)
{
	const char *v = ini_get(c->d, sec, key);

	if (v == NULL || *v == '\0') {
		if (required)
			return missing(c, sec, key);
		*out = dflt;
		return 0;
	}
	if (parse_hex(v, max, out) != 0) {
		gw_err_set(c->e, _("%s: [%s] %s: expected a hex number up to "
		                   "0x%llx, found \"%s\""),
		           c->path, sec, key, (unsigned long long)max, v);
		return -1;
	}
	return 0;
}

static const char *const kind_words[] = { "linux", "esxi", NULL };

/* [host] title and kind of a host.ini (pointers into d). */
static int
host_title_kind(const ini_ctx *c, const char **title, const char **kind)
{
	int k;

	if (get_str(c, "host", "title", 1, title) != 0)
		return -1;
	if ((k = get_enum(c, "host", "kind", kind_words, -1)) < 0)
		return -1;
	*kind = kind_words[k];
	return 0;
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

	*out = NULL;
	*nout = 0;
	if ((dir = hosts_dir_or_err(e)) == NULL)
		return -1;
	if ((dp = opendir(dir)) == NULL) {
		gw_err_set(e, _("cannot read %s: %s"), dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		char *ini;
		dictionary *d;
		const char *title, *kind;
		ini_ctx c;

		if (de->d_name[0] == '.')
			continue;
		ini = gw_xasprintf("%s/%s/host.ini", dir, de->d_name);
		if (!is_file(ini)) {
			free(ini);
			continue;
		}
		if ((d = load_ini(ini, e)) == NULL) {
			free(ini);
			goto fail;
		}
		c.d = d;
		c.path = ini;
		c.e = e;
		if (host_title_kind(&c, &title, &kind) != 0) {
			iniparser_freedict(d);
			free(ini);
			goto fail;
		}
		l = gw_xrealloc(l, (n + 1) * sizeof *l);
		l[n].name = gw_xstrdup(de->d_name);
		l[n].title = gw_xstrdup(title);
		l[n].kind = gw_xstrdup(kind);
		n++;
		iniparser_freedict(d);
		free(ini);
	}
	closedir(dp);
	if (n > 1)
		qsort(l, n, sizeof *l, cmp_info);
	*out = l;
	*nout = n;
	return 0;
fail:
	closedir(dp);
	gw_sample_list_free(l, n);
	return -1;
}

/* ---- writing a tree --------------------------------------------------- */

/* Files are written under root; the first failure is kept in e and later
 * calls do nothing. */
typedef struct mk {
	const char *root;
	gw_err *e;
	int failed;
} mk;

enum { MK_CREATE, MK_WRITE, MK_LINK };

static void
mk_fail(mk *m, int what, const char *path)
{
	const char *why = strerror(errno);

	if (m->failed)
		return;
	if (what == MK_CREATE)
		gw_err_set(m->e, _("cannot create %s: %s"), path, why);
	else if (what == MK_WRITE)
		gw_err_set(m->e, _("cannot write %s: %s"), path, why);
	else
		gw_err_set(m->e, _("cannot create the link %s: %s"), path, why);
	m->failed = 1;
}

/* mkdir -p ROOT/rel */
static void
mk_dirs(mk *m, const char *rel)
{
	char *p, *s;

	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	for (s = p + strlen(m->root) + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST) {
				mk_fail(m, MK_CREATE, p);
				free(p);
				return;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
}

static void
mk_parent(mk *m, const char *rel)
{
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');

	if (sl) {
		*sl = '\0';
		mk_dirs(m, dir);
	}
	free(dir);
}

static void
mk_file(mk *m, const char *rel, const void *data, size_t len, mode_t mode)
{
	char *p;
	int fd;

	if (m->failed)
		return;
	mk_parent(m, rel);
	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode);
	if (fd < 0 || gw_write_all(fd, data, len) != 0) {
		mk_fail(m, MK_WRITE, p);
		if (fd >= 0)
			close(fd);
		free(p);
		return;
	}
	if (close(fd) != 0)
		mk_fail(m, MK_WRITE, p);
	free(p);
}

static void
mk_text(mk *m, const char *rel, const char *text)
{
	mk_file(m, rel, text, strlen(text), 0644);
}

static void GW_PRINTF(3, 4)
mk_printf(mk *m, const char *rel, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	s = gw_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	mk_text(m, rel, s);
	free(s);
}

static void
mk_link(mk *m, const char *rel, const char *target)
{
	char *p;

	if (m->failed)
		return;
	mk_parent(m, rel);
	if (m->failed)
		return;
	p = gw_xasprintf("%s/%s", m->root, rel);
	if (symlink(target, p) != 0)
		mk_fail(m, MK_LINK, p);
	free(p);
}

/* ---- removing a tree -------------------------------------------------- */

static void
rm_tree(const char *p)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(p, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(p);
		return;
	}
	if ((d = opendir(p)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *c;

			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			c = gw_xasprintf("%s/%s", p, de->d_name);
			rm_tree(c);
			free(c);
		}
		closedir(d);
	}
	rmdir(p);
}

/* ---- linux: the description ------------------------------------------- */

enum { BK_NONE, BK_MEM32, BK_MEM32P, BK_MEM64, BK_MEM64P, BK_IO, BK_UPPER };

typedef struct sbar {
	int kind;              /* BK_*; BK_UPPER: the upper half of the
	                        * 64-bit BAR before it */
	uint64_t size, addr;
	int has_addr;
} sbar;

typedef struct sdev {
	const char *sec;
	char bdf[16];
	unsigned dom, bus, dev, fn;
	unsigned vendor, device, subv, subd, cls, rev;
	sbar bars[6];
	const char *group;     /* NULL: none */
	const char *driver;    /* NULL: none */
	int bridge, multi;
	unsigned secondary, subordinate;   /* bridges: the buses behind */
} sdev;

typedef struct shost {
	int amd, virt, iommu, ir;
	const char *cpu_model, *kernel, *proc_version, *cmdline, *acpi;
	unsigned family, model, stepping, cpus, units;
	uint64_t cap, ecap;
	sdev *devs;
	size_t ndevs;
} shost;

static const char *const host_keys[] = {
	"title", "kind", "source", "cpu", "cpu_model", "cpu_family",
	"cpu_model_number", "cpu_stepping", "cpus", "virt", "kernel",
	"proc_version", "cmdline", "acpi", "iommu", "iommu_units",
	"interrupt_remapping", "cap", "ecap", NULL
};
static const char *const dev_keys[] = {
	"name", "bdf", "vendor", "device", "subvendor", "subdevice", "class",
	"revision", "bars", "group", "driver", "secondary", "subordinate", NULL
};
static const char *const esxi_keys[] = { "title", "kind", "source", NULL };

static int
in_list(const char *const *l, const char *w)
{
	for (; *l; l++)
		if (strcmp(*l, w) == 0)
			return 1;
	return 0;
}

/* [host] and [devN] only, each with its known keys. */
static int
check_keys(const ini_ctx *c, int esxi)
{
	int nsec = iniparser_getnsec(c->d), i;

	for (i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(c->d, i);
		const char *const *known;
		int nk, k, is_dev;
		const char **keys;

		is_dev = strncmp(sec, "dev", 3) == 0 && sec[3] >= '0' &&
		         sec[3] <= '9' && strspn(sec + 3, "0123456789") ==
		                          strlen(sec + 3);
		if (strcmp(sec, "host") == 0) {
			known = esxi ? esxi_keys : host_keys;
		} else if (is_dev && !esxi) {
			known = dev_keys;
		} else {
			gw_err_set(c->e, esxi
			           ? _("%s: unknown section [%s] (expected [host])")
			           : _("%s: unknown section [%s] (expected [host] "
			               "or [devN])"),
			           c->path, sec);
			return -1;
		}
		nk = iniparser_getsecnkeys(c->d, sec);
		if (nk <= 0)
			continue;
		keys = gw_xcalloc((size_t)nk, sizeof *keys);
		iniparser_getseckeys(c->d, sec, keys);
		for (k = 0; k < nk; k++) {
			const char *key = strchr(keys[k], ':');

			key = key ? key + 1 : keys[k];
			if (!in_list(known, key)) {
				gw_err_set(c->e, _("%s: [%s] unknown key '%s'"),
				           c->path, sec, key);
				free(keys);
				return -1;
			}
		}
		free(keys);
	}
	return 0;
}

/* "0000:3b:00.0" (hex, lower or upper case). */
static int
parse_bdf(const char *s, sdev *d)
{
	unsigned v[4] = { 0, 0, 0, 0 };
	static const size_t width[4] = { 4, 2, 2, 1 };
	static const char sep[4] = { ':', ':', '.', '\0' };
	size_t i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < width[i]; k++, s++) {
			int h = gw_hexval((unsigned char)*s);

			if (h < 0)
				return -1;
			v[i] = v[i] << 4 | (unsigned)h;
		}
		if (*s++ != sep[i])
			return -1;
	}
	if (v[2] > 0x1f || v[3] > 7)
		return -1;
	d->dom = v[0];
	d->bus = v[1];
	d->dev = v[2];
	d->fn = v[3];
	snprintf(d->bdf, sizeof d->bdf, "%04x:%02x:%02x.%x", d->dom, d->bus,
	         d->dev, d->fn);
	return 0;
}

/* "64G", "16K", "128": bytes, a power of two. */
static int
parse_size(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	size_t i;

	if (len == 0)
		return -1;
	switch (s[len - 1]) {
	case 'K': case 'k': mul = 1ULL << 10; len--; break;
	case 'M': case 'm': mul = 1ULL << 20; len--; break;
	case 'G': case 'g': mul = 1ULL << 30; len--; break;
	case 'T': case 't': mul = 1ULL << 40; len--; break;
	default: break;
	}
	if (len == 0 || len > 12)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	v *= mul;
	if (v == 0 || (v & (v - 1)) != 0)
		return -1;
	*out = v;
	return 0;
}

static int
bad_bars(const ini_ctx *c, const char *sec, const char *tok, size_t len)
{
	gw_err_set(c->e, _("%s: [%s] bars: \"%.*s\": expected "
	                   "INDEX:KIND:SIZE[@ADDRESS], KIND one of mem32, "
	                   "mem32p, mem64, mem64p, io, SIZE a power of two such "
	                   "as 16M or 64G, ADDRESS aligned to the size"),
	           c->path, sec, (int)len, tok);
	return -1;
}

static int
parse_bars(const ini_ctx *c, const char *sec, const char *s, sdev *d)
{
	static const struct { const char *w; int kind; } kinds[] = {
		{ "mem32p", BK_MEM32P }, { "mem32", BK_MEM32 },
		{ "mem64p", BK_MEM64P }, { "mem64", BK_MEM64 }, { "io", BK_IO },
	};

	while (*s) {
		const char *tok, *p, *at, *end;
		size_t len, k;
		int idx, kind = BK_NONE;
		sbar *b;
		uint64_t addr = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		tok = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		len = (size_t)(s - tok);
		end = tok + len;
		if (len < 4 || tok[0] < '0' || tok[0] > '5' || tok[1] != ':')
			return bad_bars(c, sec, tok, len);
		idx = tok[0] - '0';
		p = tok + 2;
		for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			size_t wl = strlen(kinds[k].w);

			if ((size_t)(end - p) > wl &&
			    strncmp(p, kinds[k].w, wl) == 0 && p[wl] == ':') {
				kind = kinds[k].kind;
				p += wl + 1;
				break;
			}
		}
		if (kind == BK_NONE)
			return bad_bars(c, sec, tok, len);
		at = memchr(p, '@', (size_t)(end - p));
		b = &d->bars[idx];
		if (parse_size(p, (size_t)((at ? at : end) - p), &b->size) != 0)
			return bad_bars(c, sec, tok, len);
		if (at) {
			char buf[40];
			size_t al = (size_t)(end - at - 1);

			if (al == 0 || al >= sizeof buf)
				return bad_bars(c, sec, tok, len);
			memcpy(buf, at + 1, al);
			buf[al] = '\0';
			if (parse_hex(buf, UINT64_MAX, &addr) != 0 ||
			    (addr & (b->size - 1)) != 0)
				return bad_bars(c, sec, tok, len);
		}
		if ((kind == BK_IO && (b->size < 4 || b->size > 65536)) ||
		    (kind != BK_IO && b->size < 16) ||
		    ((kind == BK_MEM32 || kind == BK_MEM32P) &&
		     (b->size > (1ULL << 31) || addr + b->size > (1ULL << 32))))
			return bad_bars(c, sec, tok, len);
		if (d->bars[idx].kind != BK_NONE ||
		    ((kind == BK_MEM64 || kind == BK_MEM64P) &&
		     (idx == 5 || d->bars[idx + 1].kind != BK_NONE))) {
			gw_err_set(c->e, _("%s: [%s] bars: BAR %d is given twice or "
			                   "overlaps a 64-bit BAR (which also takes "
			                   "the next index; BAR 5 cannot be 64-bit)"),
			           c->path, sec, idx);
			return -1;
		}
		b->kind = kind;
		b->addr = addr;
		b->has_addr = at != NULL;
		if (kind == BK_MEM64 || kind == BK_MEM64P)
			d->bars[idx + 1].kind = BK_UPPER;
	}
	if (d->bridge) {
		int i;

		for (i = 2; i < 6; i++)
			if (d->bars[i].kind != BK_NONE) {
				gw_err_set(c->e, _("%s: [%s] bars: a PCI bridge "
				                   "(class 0x0604xx) has BARs 0 and 1 "
				                   "only"),
				           c->path, sec);
				return -1;
			}
	}
	return 0;
}

static int
word_ok(const char *s, const char *extra)
{
	if (*s == '\0' || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && strchr(extra, *s) == NULL)
			return 0;
	return 1;
}

static int
parse_dev(const ini_ctx *c, const char *sec, const shost *h, sdev *d)
{
	const char *v = NULL;
	uint64_t x;

	memset(d, 0, sizeof *d);
	d->sec = sec;
	if (get_str(c, sec, "bdf", 1, &v) != 0)
		return -1;
	if (parse_bdf(v, d) != 0) {
		gw_err_set(c->e, _("%s: [%s] bdf: expected a PCI address such as "
		                   "0000:3b:00.0, found \"%s\""),
		           c->path, sec, v);
		return -1;
	}
#define HEX(key, max, req, dflt, field) do { \
		if (get_hex(c, sec, key, max, req, dflt, &x) != 0) \
			return -1; \
		d->field = (unsigned)x; } while (0)
	HEX("vendor", 0xffff, 1, 0, vendor);
	HEX("device", 0xffff, 1, 0, device);
	HEX("subvendor", 0xffff, 0, 0, subv);
	HEX("subdevice", 0xffff, 0, 0, subd);
	HEX("class", 0xffffff, 1, 0, cls);
	HEX("revision", 0xff, 0, 0, rev);
	d->bridge = (d->cls >> 8) == 0x0604;
	if ((ini_get(c->d, sec, "secondary") || ini_get(c->d, sec, "subordinate"))
	    && !d->bridge) {
		gw_err_set(c->e, _("%s: [%s] secondary and subordinate are for a "
		                   "PCI bridge (class 0x0604xx) only"),
		           c->path, sec);
		return -1;
	}
	HEX("secondary", 0xff, 0, 0, secondary);
	HEX("subordinate", 0xff, 0, d->secondary, subordinate);
	if (d->subordinate < d->secondary) {
		gw_err_set(c->e, _("%s: [%s] subordinate: bus 0x%02x is below the "
		                   "secondary bus 0x%02x"),
		           c->path, sec, d->subordinate, d->secondary);
		return -1;
	}
#undef HEX
	v = NULL;
	if (get_str(c, sec, "bars", 0, &v) != 0 ||
	    (v && parse_bars(c, sec, v, d) != 0))
		return -1;
	v = NULL;
	if (get_str(c, sec, "group", 0, &v) != 0)
		return -1;
	if (v) {
		unsigned long long g;

		if (gw_parse_uint(v, 99999, &g) != 0) {
			gw_err_set(c->e, _("%s: [%s] group: expected an IOMMU group "
			                   "number, found \"%s\""),
			           c->path, sec, v);
			return -1;
		}
		if (!h->iommu) {
			gw_err_set(c->e, _("%s: [%s] group: the host has iommu = "
			                   "off, so no device is in an IOMMU group"),
			           c->path, sec);
			return -1;
		}
		d->group = v;
	}
	v = NULL;
	if (get_str(c, sec, "driver", 0, &v) != 0)
		return -1;
	if (v && !word_ok(v, "_-")) {
		gw_err_set(c->e, _("%s: [%s] driver: expected a driver name such "
		                   "as vfio-pci, found \"%s\""),
		           c->path, sec, v);
		return -1;
	}
	d->driver = v;
	return 0;
}

static const char *const cpu_words[] = { "intel", "amd", NULL };
static const char *const onoff_words[] = { "on", "off", NULL };
static const char *const acpi_words[] = { "DMAR", "IVRS", "none", NULL };

/* The [host] and [devN] of a linux sample (strings point into c->d). */
static int
parse_linux(const ini_ctx *c, shost *h)
{
	int k, nsec, i;
	size_t j;

	memset(h, 0, sizeof *h);
	if ((k = get_enum(c, "host", "cpu", cpu_words, -1)) < 0)
		return -1;
	h->amd = k == 1;
	if ((k = get_enum(c, "host", "virt", onoff_words, 0)) < 0)
		return -1;
	h->virt = k == 0;
	if ((k = get_enum(c, "host", "iommu", onoff_words, -1)) < 0)
		return -1;
	h->iommu = k == 0;
	if ((k = get_enum(c, "host", "interrupt_remapping", onoff_words,
	                  h->iommu ? 0 : 1)) < 0)
		return -1;
	h->ir = k == 0;
	if ((k = get_enum(c, "host", "acpi", acpi_words, -1)) < 0)
		return -1;
	h->acpi = k == 2 ? NULL : acpi_words[k];
	h->cpu_model = h->amd ? "AMD Ryzen 9 5950X 16-Core Processor"
	                      : "Intel(R) Xeon(R) Gold 6146 CPU @ 3.20GHz";
	if (get_str(c, "host", "cpu_model", 0, &h->cpu_model) != 0 ||
	    get_str(c, "host", "kernel", 1, &h->kernel) != 0 ||
	    get_str(c, "host", "cmdline", 1, &h->cmdline) != 0)
		return -1;
	h->proc_version = NULL;
	if (get_str(c, "host", "proc_version", 0, &h->proc_version) != 0)
		return -1;
	if (!word_ok(h->kernel, ".-_+~")) {
		gw_err_set(c->e, _("%s: [%s] %s: expected a kernel release such "
		                   "as 6.1.0-18-amd64, found \"%s\""),
		           c->path, "host", "kernel", h->kernel);
		return -1;
	}
	if (get_uint(c, "host", "cpu_family", 0, 255, h->amd ? 25 : 6,
	             &h->family) != 0 ||
	    get_uint(c, "host", "cpu_model_number", 0, 255, h->amd ? 33 : 85,
	             &h->model) != 0 ||
	    get_uint(c, "host", "cpu_stepping", 0, 15, 0, &h->stepping) != 0 ||
	    get_uint(c, "host", "cpus", 1, SAMPLE_MAX_CPUS, 4, &h->cpus) != 0 ||
	    get_uint(c, "host", "iommu_units", 0, SAMPLE_MAX_UNITS,
	             h->iommu ? 1 : 0, &h->units) != 0)
		return -1;
	/* A real Skylake-SP unit (dmesg "cap 8d2078c106f0466 ecap f020df"). */
	if (get_hex(c, "host", "cap", UINT64_MAX, 0, 0x8d2078c106f0466ULL,
	            &h->cap) != 0 ||
	    get_hex(c, "host", "ecap", UINT64_MAX, 0,
	            h->ir ? 0xf020dfULL : 0xf020d7ULL, &h->ecap) != 0)
		return -1;
	if (!h->amd && h->units > 0 && !!(h->ecap & 8) != h->ir) {
		gw_err_set(c->e, _("%s: [host] ecap %llx: bit 3 (interrupt "
		                   "remapping) does not match "
		                   "interrupt_remapping = %s"),
		           c->path, (unsigned long long)h->ecap,
		           h->ir ? "on" : "off");
		return -1;
	}

	nsec = iniparser_getnsec(c->d);
	for (i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(c->d, i);
		sdev *d;

		if (strcmp(sec, "host") == 0)
			continue;
		if (h->ndevs >= SAMPLE_MAX_DEVS) {
			gw_err_set(c->e, _("%s: more than %d devices"), c->path,
			           SAMPLE_MAX_DEVS);
			return -1;
		}
		h->devs = gw_xrealloc(h->devs, (h->ndevs + 1) * sizeof *h->devs);
		d = &h->devs[h->ndevs];
		if (parse_dev(c, sec, h, d) != 0)
			return -1;
		for (j = 0; j < h->ndevs; j++)
			if (strcmp(h->devs[j].bdf, d->bdf) == 0) {
				gw_err_set(c->e, _("%s: [%s] bdf %s is also in [%s]"),
				           c->path, sec, d->bdf, h->devs[j].sec);
				return -1;
			}
		h->ndevs++;
	}
	for (j = 0; j < h->ndevs; j++) {
		size_t m;

		for (m = 0; m < h->ndevs; m++)
			if (m != j && h->devs[m].dom == h->devs[j].dom &&
			    h->devs[m].bus == h->devs[j].bus &&
			    h->devs[m].dev == h->devs[j].dev)
				h->devs[j].multi = 1;
	}
	return 0;
}

/* ---- linux: the tree -------------------------------------------------- */

/* Flags of a Skylake-SP Xeon and a Zen 3 Ryzen, split where vmx / svm
 * go. */
static const char intel_flags1[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"pse36 clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx "
	"pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good "
	"nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 "
	"monitor ds_cpl";
static const char intel_flags2[] =
	" smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 "
	"x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand "
	"lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cdp_l3 "
	"invpcid_single intel_ppin ssbd mba ibrs ibpb stibp fsgsbase "
	"tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm cqm mpx rdt_a "
	"avx512f avx512dq rdseed adx smap clflushopt clwb intel_pt avx512cd "
	"avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc "
	"cqm_occup_llc cqm_mbm_total cqm_mbm_local dtherm ida arat pln pts "
	"pku ospke md_clear flush_l1d arch_capabilities";
static const char intel_vmx_flags[] =
	"vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb "
	"flexpriority apicv tsc_offset vtpr mtf vapic ept vpid "
	"unrestricted_guest vapic_reg vid ple shadow_vmcs pml";
static const char amd_flags1[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb "
	"rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid extd_apicid "
	"aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 sse4_1 sse4_2 "
	"x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy";
static const char amd_flags2[] =
	" extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs "
	"skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc "
	"mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba ibrs ibpb stibp vmmcall "
	"fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a rdseed adx smap "
	"clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc "
	"cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr "
	"rdpru wbnoinvd arat";
static const char amd_svm_flags[] =
	" npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid "
	"decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif "
	"v_spec_ctrl";
static const char amd_flags3[] =
	" umip pku ospke vaes vpclmulqdq rdpid overflow_recov succor smca fsrm";

/* One /proc/interrupts line: the count on CPU0, 0 on the others. */
static void
irq_line(gw_buf *b, unsigned cpus, int num, unsigned count, const char *chip,
         unsigned long hwirq, const char *type, const char *name)
{
	unsigned i;

	gw_buf_printf(b, "%4d:", num);
	for (i = 0; i < cpus; i++)
		gw_buf_printf(b, " %10u", i == 0 ? count : 0u);
	gw_buf_printf(b, "  %-11s %lu-%-8s %s\n", chip, hwirq, type, name);
}

static void
write_proc(mk *m, const shost *h)
{
	gw_buf b;
	unsigned i, u;
	size_t j;
	int irq;

	gw_buf_init(&b);
	for (i = 0; i < h->cpus; i++) {
		gw_buf_printf(&b,
		              "processor\t: %u\n"
		              "vendor_id\t: %s\n"
		              "cpu family\t: %u\n"
		              "model\t\t: %u\n"
		              "model name\t: %s\n"
		              "stepping\t: %u\n"
		              "physical id\t: 0\n"
		              "siblings\t: %u\n"
		              "core id\t\t: %u\n"
		              "cpu cores\t: %u\n"
		              "fpu\t\t: yes\n"
		              "flags\t\t: ",
		              i, h->amd ? "AuthenticAMD" : "GenuineIntel",
		              h->family, h->model, h->cpu_model, h->stepping,
		              h->cpus, i, h->cpus);
		if (h->amd)
			gw_buf_printf(&b, "%s%s%s%s%s\n", amd_flags1,
			              h->virt ? " svm" : "", amd_flags2,
			              h->virt ? amd_svm_flags : "", amd_flags3);
		else
			gw_buf_printf(&b, "%s%s%s\n", intel_flags1,
			              h->virt ? " vmx" : "", intel_flags2);
		if (!h->amd && h->virt)
			gw_buf_printf(&b, "vmx flags\t: %s\n", intel_vmx_flags);
		gw_buf_printf(&b, "address sizes\t: %s\n\n",
		              h->amd ? "48 bits physical, 48 bits virtual"
		                     : "46 bits physical, 48 bits virtual");
	}
	mk_text(m, "proc/cpuinfo", b.data);
	gw_buf_free(&b);

	mk_printf(m, "proc/cmdline", "%s\n", h->cmdline);
	if (h->proc_version)
		mk_printf(m, "proc/version", "%s\n", h->proc_version);
	else
		mk_printf(m, "proc/version", "Linux version %s (gpuwiz sample) "
		          "#1 SMP PREEMPT_DYNAMIC\n", h->kernel);
	mk_printf(m, "proc/sys/kernel/osrelease", "%s\n", h->kernel);

	/* /proc/interrupts: the legacy lines, the IOMMU units' own MSI, then
	 * one MSI line per device a host driver uses. */
	gw_buf_init(&b);
	gw_buf_puts(&b, "    ");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, "       CPU%-3u", i);
	gw_buf_puts(&b, "\n");
	irq_line(&b, h->cpus, 0, 44, h->ir ? "IR-IO-APIC" : "IO-APIC", 2,
	         "edge", "timer");
	irq_line(&b, h->cpus, 8, 0, h->ir ? "IR-IO-APIC" : "IO-APIC", 8,
	         "edge", "rtc0");
	irq_line(&b, h->cpus, 9, 0, h->ir ? "IR-IO-APIC" : "IO-APIC", 9,
	         "fasteoi", "acpi");
	irq = 24;
	for (u = 0; u < h->units; u++) {
		char name[16];

		if (h->amd) {
			irq_line(&b, h->cpus, irq++, 0, "PCI-MSI", 4096UL * (u + 1),
			         "edge", "AMD-Vi");
		} else {
			snprintf(name, sizeof name, "dmar%u", u);
			irq_line(&b, h->cpus, irq++, 0, "DMAR-MSI", u, "edge",
			         name);
		}
	}
	for (j = 0; j < h->ndevs; j++) {
		const sdev *d = &h->devs[j];
		unsigned long hwirq = ((unsigned long)d->bus << 19) |
		                      ((unsigned long)d->dev << 14) |
		                      ((unsigned long)d->fn << 11);

		if (!d->driver || d->bridge || strcmp(d->driver, "vfio-pci") == 0)
			continue;
		irq_line(&b, h->cpus, irq++, 1000 + 37 * (unsigned)j,
		         h->ir ? "IR-PCI-MSI" : "PCI-MSI", hwirq, "edge",
		         d->driver);
	}
	gw_buf_puts(&b, " NMI:");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, " %10u", 0u);
	gw_buf_puts(&b, "   Non-maskable interrupts\n LOC:");
	for (i = 0; i < h->cpus; i++)
		gw_buf_printf(&b, " %10u", 100000u + 1000u * i);
	gw_buf_puts(&b, "   Local timer interrupts\n ERR:          0\n"
	                " MIS:          0\n");
	mk_text(m, "proc/interrupts", b.data);
	gw_buf_free(&b);
}

/* A 48-byte ACPI table with a valid checksum: DMAR (host address width
 * 46, INTR_REMAP flag) or IVRS (IVinfo: 48-bit PA, 64-bit VA). */
static void
write_acpi(mk *m, const shost *h)
{
	unsigned char t[48];
	unsigned sum = 0;
	size_t i;
	char *rel;

	if (h->acpi == NULL)
		return;
	memset(t, 0, sizeof t);
	memcpy(t, h->acpi, 4);
	t[4] = sizeof t;
	t[8] = strcmp(h->acpi, "DMAR") == 0 ? 1 : 2;
	memcpy(t + 10, "GWSAMP", 6);
	memcpy(t + 16, "GPUWIZ  ", 8);
	t[24] = 1;
	memcpy(t + 28, "GWIZ", 4);
	t[32] = 1;
	if (strcmp(h->acpi, "DMAR") == 0) {
		t[36] = 46 - 1;
		t[37] = h->ir ? 1 : 0;
	} else {
		uint32_t ivinfo = 0x203040;

		t[36] = ivinfo & 0xff;
		t[37] = (ivinfo >> 8) & 0xff;
		t[38] = (ivinfo >> 16) & 0xff;
	}
	for (i = 0; i < sizeof t; i++)
		sum += t[i];
	t[9] = (unsigned char)(0x100 - (sum & 0xff));
	rel = gw_xasprintf("sys/firmware/acpi/tables/%s", h->acpi);
	mk_file(m, rel, t, sizeof t, 0400);
	free(rel);
}

static void
write_iommu(mk *m, const shost *h)
{
	/* dmar0 and dmar1 of the real dmesg the default cap/ecap come from. */
	static const unsigned long addrs[] = { 0xfbffc000UL, 0xc7ffc000UL };
	unsigned i;

	mk_dirs(m, "sys/class/iommu");
	mk_dirs(m, "sys/kernel/iommu_groups");
	for (i = 0; i < h->units; i++) {
		char *rel, *dev, *target;
		const char *name = h->amd ? "ivhd" : "dmar";

		dev = gw_xasprintf("sys/devices/virtual/iommu/%s%u", name, i);
		mk_dirs(m, dev);
		if (h->amd) {
			rel = gw_xasprintf("%s/amd-iommu", dev);
			mk_dirs(m, rel);
			free(rel);
		} else {
			rel = gw_xasprintf("%s/intel-iommu/cap", dev);
			mk_printf(m, rel, "%llx\n", (unsigned long long)h->cap);
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/ecap", dev);
			mk_printf(m, rel, "%llx\n", (unsigned long long)h->ecap);
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/version", dev);
			mk_text(m, rel, "1:0\n");
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/address", dev);
			mk_printf(m, rel, "%lx\n",
			          i < 2 ? addrs[i] : 0xc7ffc000UL - i * 0x1000000UL);
			free(rel);
		}
		rel = gw_xasprintf("sys/class/iommu/%s%u", name, i);
		target = gw_xasprintf("../../devices/virtual/iommu/%s%u", name,
		                      i);
		mk_link(m, rel, target);
		free(target);
		free(rel);
		free(dev);
	}
}

/* Kernel resource flags and the low bits of the BAR register. */
static void
bar_flags(int kind, uint64_t *flags, unsigned *low)
{
	switch (kind) {
	case BK_MEM32:  *flags = 0x40200;  *low = 0x0; break;
	case BK_MEM32P: *flags = 0x42208;  *low = 0x8; break;
	case BK_MEM64:  *flags = 0x140204; *low = 0x4; break;
	case BK_MEM64P: *flags = 0x14220c; *low = 0xc; break;
	case BK_IO:     *flags = 0x40101;  *low = 0x1; break;
	default:        *flags = 0;        *low = 0;   break;
	}
}

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Next free addresses for BARs given without one. */
typedef struct alloc {
	uint64_t mem32, mem64, io;
} alloc;

static void
write_dev(mk *m, const shost *h, const sdev *d, size_t idx, alloc *al)
{
	unsigned char cfg[256];
	char *dir = gw_xasprintf("sys/devices/pci%04x:00/%s", d->dom, d->bdf);
	char *rel, *t;
	gw_buf res;
	int i, nres = d->bridge ? 17 : 13;

	memset(cfg, 0, sizeof cfg);
	cfg[0x00] = d->vendor & 0xff;
	cfg[0x01] = d->vendor >> 8;
	cfg[0x02] = d->device & 0xff;
	cfg[0x03] = d->device >> 8;
	cfg[0x04] = 0x07;            /* I/O, memory, bus master */
	cfg[0x08] = d->rev & 0xff;
	cfg[0x09] = d->cls & 0xff;
	cfg[0x0a] = (d->cls >> 8) & 0xff;
	cfg[0x0b] = (d->cls >> 16) & 0xff;
	cfg[0x0e] = (d->bridge ? 0x01 : 0x00) | (d->multi ? 0x80 : 0x00);
	if (!d->bridge) {
		cfg[0x2c] = d->subv & 0xff;
		cfg[0x2d] = d->subv >> 8;
		cfg[0x2e] = d->subd & 0xff;
		cfg[0x2f] = d->subd >> 8;
	} else {
		cfg[0x18] = d->bus & 0xff;
		cfg[0x19] = d->secondary & 0xff;
		cfg[0x1a] = d->subordinate & 0xff;
		cfg[0x1c] = 0xf0;        /* I/O, memory and prefetchable     */
		cfg[0x20] = 0xf0;        /* windows closed: base above limit */
		cfg[0x24] = 0xf0;
	}
	cfg[0x3c] = (unsigned char)(16 + idx % 8);
	cfg[0x3d] = 1;               /* INTA; no capability list */

	gw_buf_init(&res);
	for (i = 0; i < 6; i++) {
		const sbar *b = &d->bars[i];
		uint64_t start = 0, flags, reg;
		unsigned low;

		bar_flags(b->kind, &flags, &low);
		if (b->kind == BK_NONE || b->kind == BK_UPPER) {
			gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
			                  "0x0000000000000000\n");
			continue;
		}
		if (b->has_addr) {
			start = b->addr;
		} else if (b->kind == BK_IO) {
			start = align_up(al->io, b->size < 16 ? 16 : b->size);
			al->io = start + (b->size < 16 ? 16 : b->size);
		} else if (b->kind == BK_MEM32 || b->kind == BK_MEM32P) {
			start = align_up(al->mem32, b->size < 4096 ? 4096
			                                           : b->size);
			al->mem32 = start + b->size;
		} else {
			start = align_up(al->mem64, b->size < 4096 ? 4096
			                                           : b->size);
			al->mem64 = start + b->size;
		}
		reg = start | low;
		cfg[0x10 + 4 * i] = reg & 0xff;
		cfg[0x11 + 4 * i] = (reg >> 8) & 0xff;
		cfg[0x12 + 4 * i] = (reg >> 16) & 0xff;
		cfg[0x13 + 4 * i] = (reg >> 24) & 0xff;
		if ((b->kind == BK_MEM64 || b->kind == BK_MEM64P) && i < 5) {
			cfg[0x14 + 4 * i] = (reg >> 32) & 0xff;
			cfg[0x15 + 4 * i] = (reg >> 40) & 0xff;
			cfg[0x16 + 4 * i] = (reg >> 48) & 0xff;
			cfg[0x17 + 4 * i] = (reg >> 56) & 0xff;
		}
		gw_buf_printf(&res, "0x%016llx 0x%016llx 0x%016llx\n",
		              (unsigned long long)start,
		              (unsigned long long)(start + b->size - 1),
		              (unsigned long long)flags);
	}
	for (i = 6; i < nres; i++)   /* ROM, IOV and bridge windows */
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
		                  "0x0000000000000000\n");

#define PUT(name, ...) do { \
		rel = gw_xasprintf("%s/%s", dir, name); \
		mk_printf(m, rel, __VA_ARGS__); \
		free(rel); } while (0)
	PUT("vendor", "0x%04x\n", d->vendor);
	PUT("device", "0x%04x\n", d->device);
	PUT("class", "0x%06x\n", d->cls);
	PUT("subsystem_vendor", "0x%04x\n", d->bridge ? 0 : d->subv);
	PUT("subsystem_device", "0x%04x\n", d->bridge ? 0 : d->subd);
	PUT("revision", "0x%02x\n", d->rev);
	PUT("irq", "%u\n", (unsigned)(16 + idx % 8));
	PUT("numa_node", "%s\n", "-1");
	PUT("enable", "%d\n",
	    d->driver && strcmp(d->driver, "vfio-pci") != 0 ? 1 : 0);
	PUT("resource", "%s", res.data);
#undef PUT
	gw_buf_free(&res);
	rel = gw_xasprintf("%s/config", dir);
	mk_file(m, rel, cfg, sizeof cfg, 0644);
	free(rel);

	rel = gw_xasprintf("sys/bus/pci/devices/%s", d->bdf);
	t = gw_xasprintf("../../../devices/pci%04x:00/%s", d->dom, d->bdf);
	mk_link(m, rel, t);
	free(rel);
	free(t);
	if (d->group) {
		rel = gw_xasprintf("%s/iommu_group", dir);
		t = gw_xasprintf("../../../kernel/iommu_groups/%s", d->group);
		mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/devices/%s",
		                   d->group, d->bdf);
		t = gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                 d->bdf);
		mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/type", d->group);
		mk_text(m, rel, strstr(h->cmdline, "iommu=pt") ? "identity\n"
		                                               : "DMA-FQ\n");
		free(rel);
	}
	if (d->driver) {
		char *mod = gw_xstrdup(d->driver), *p;

		rel = gw_xasprintf("sys/bus/pci/drivers/%s/%s", d->driver,
		                   d->bdf);
		t = gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                 d->bdf);
		mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("%s/driver", dir);
		t = gw_xasprintf("../../../bus/pci/drivers/%s", d->driver);
		mk_link(m, rel, t);
		free(rel);
		free(t);
		for (p = mod; *p; p++)
			if (*p == '-')
				*p = '_';
		rel = gw_xasprintf("sys/module/%s", mod);
		mk_dirs(m, rel);
		free(rel);
		free(mod);
	}
	free(dir);
}

static int
materialise_linux(const char *scratch, const shost *h, gw_err *e)
{
	char *root = gw_xasprintf("%s/root", scratch);
	mk m;
	alloc al = { 0x90000000ULL, 0x38000000000ULL, 0x1000ULL };
	size_t i;

	m.root = root;
	m.e = e;
	m.failed = 0;
	if (mkdir(root, 0755) != 0) {
		mk_fail(&m, MK_CREATE, root);
		free(root);
		return -1;
	}
	write_proc(&m, h);
	mk_dirs(&m, "sys/bus/pci/devices");
	mk_dirs(&m, "sys/bus/pci/drivers");
	mk_dirs(&m, "sys/firmware/acpi/tables");
	mk_dirs(&m, "sys/module");
	write_acpi(&m, h);
	write_iommu(&m, h);
	for (i = 0; i < h->ndevs; i++)
		write_dev(&m, h, &h->devs[i], i, &al);
	free(root);
	return m.failed ? -1 : 0;
}

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

static int
materialise_esxi(const char *hosts, const char *sdir, const gw_sample *s,
                 gw_err *e)
{
	static const char *const tools[] = { "esxcli", "vim-cmd" };
	char *src, *dst;
	size_t i;
	int rc, fd;

	src = gw_xasprintf("%s/esxi", sdir);
	dst = gw_xasprintf("%s/esxi", s->scratch);
	if (!is_dir(src)) {
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
	if (is_dir(src))
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
		rm_tree(s->scratch);
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
	ini_ctx c;
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
	if (!is_file(ini)) {
		unknown_name(name, e);
		goto done;
	}
	if ((d = load_ini(ini, e)) == NULL)
		goto done;
	c.d = d;
	c.path = ini;
	c.e = e;
	if (host_title_kind(&c, &title, &kind) != 0 ||
	    check_keys(&c, strcmp(kind, "esxi") == 0) != 0)
		goto done;
	if (strcmp(kind, "linux") == 0 && parse_linux(&c, &h) != 0)
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
		rc = materialise_linux(tmpl, &h, e);
	} else {
		out->bin = gw_xasprintf("%s/bin", tmpl);
		out->volumes = gw_xasprintf("%s/volumes", tmpl);
		rc = materialise_esxi(hosts, sdir, out, e);
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
