/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lspci.c: a saved `lspci -vvv` / `lspci -nnvv` capture as a host's GPU
 * list (lspci.h): a line at a time, the display-class devices with
 * their regions, the GPU table's row by PCI id or by name. */
#include "lspci.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define LSPCI_CMD "lspci -nnvv"
/* Longer lines are cut here: no line lspci prints a GPU's facts in
 * comes near it. */
#define LINE_MAX_KEPT 4096

/* pci.ids vendor names as lspci prints them without -nn, for the
 * vendors whose id decides something: NVIDIA's table rows and the
 * on-board displays (gw_is_onboard_display). */
static const struct { const char *name; unsigned id; } vendors[] = {
	{ "NVIDIA Corporation", 0x10de },
	{ "ASPEED Technology, Inc.", 0x1a03 },
	{ "Matrox Electronics Systems Ltd.", 0x102b },
	{ "VMware", 0x15ad },
	{ "Red Hat, Inc.", 0x1b36 },
	{ "Advanced Micro Devices, Inc. [AMD/ATI]", 0x1002 },
	{ "Intel Corporation", 0x8086 },
};

typedef struct lspci_state {
	const gw_table *t;
	const char *name;
	gw_gpu_list *out;
	size_t cap;
	int ndevices;        /* device lines seen, display or not */
	gw_gpu_dev *cur;     /* the display device being read, or NULL */
	int in_caps;         /* past its first Capabilities: line */
	int in_rebar;        /* inside its Physical Resizable BAR */
	uint64_t rebar[6];   /* current sizes from it, 0 unknown */
	int unsized[6];      /* 64-bit ... regions without a size */
	gw_gpu_bar pending[6];
} lspci_state;

/* n hex digits (min..max) at *p; advances *p. */
static int
hex_at(const char **p, int min, int max, unsigned *v)
{
	const char *s = *p;
	unsigned x = 0;
	int n = 0;

	while (n < max && isxdigit((unsigned char)s[n])) {
		x = x * 16 + (unsigned)(isdigit((unsigned char)s[n])
		    ? s[n] - '0' : (tolower((unsigned char)s[n]) - 'a' + 10));
		n++;
	}
	if (n < min || isxdigit((unsigned char)s[n]))
		return -1;
	*v = x;
	*p = s + n;
	return 0;
}

/* "[DOMAIN:]BB:DD.F " at s; *rest after the blank. */
static int
parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
          unsigned *fn, const char **rest)
{
	const char *p = s;
	unsigned a, b;

	*dom = 0;
	if (hex_at(&p, 2, 8, &a) != 0 || *p++ != ':')
		return -1;
	if (hex_at(&p, 2, 2, &b) != 0)
		return -1;
	if (*p == ':') {             /* a domain came first */
		if (p - s < 7)       /* "0000:" at least */
			return -1;
		*dom = a;
		p++;
		a = b;
		if (hex_at(&p, 2, 2, &b) != 0)
			return -1;
	} else if (a > 0xff) {
		return -1;
	}
	if (*p++ != '.' || *p < '0' || *p > '7')
		return -1;
	*bus = a;
	*dev = b;
	*fn = (unsigned)(*p++ - '0');
	if (b > 0x1f || *p != ' ')
		return -1;
	*rest = p + 1;
	return 0;
}

/* A device line: its address, whether its class is a display one, and
 * the text after "CLASS: " (NULL when it is no device line). */
static const char *
device_line(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
            unsigned *fn, int *display)
{
	static const char *const classes[] = {
		"VGA compatible controller", "XGA compatible controller",
		"3D controller", "Display controller",
	};
	const char *cls, *colon, *code;
	size_t n, k;

	if (parse_bdf(s, dom, bus, dev, fn, &cls) != 0)
		return NULL;
	if ((colon = strstr(cls, ": ")) == NULL || colon == cls)
		return NULL;
	n = (size_t)(colon - cls);
	*display = 0;
	/* -nn: "3D controller [0302]" */
	if (n > 7 && cls[n - 1] == ']' && cls[n - 6] == '[' &&
	    cls[n - 7] == ' ') {
		code = cls + n - 5;
		*display = code[0] == '0' && code[1] == '3';
		n -= 7;
	}
	for (k = 0; k < sizeof classes / sizeof *classes; k++)
		if (strlen(classes[k]) == n && !strncmp(cls, classes[k], n))
			*display = 1;
	return colon + 2;
}

/* A trailing "[vvvv:dddd]" of s (length *n): the ids, cut off. */
static int
trailing_ids(const char *s, size_t *n, unsigned *v, unsigned *d)
{
	const char *p;

	if (*n < 11 || s[*n - 1] != ']' || s[*n - 11] != '[' ||
	    s[*n - 6] != ':')
		return 0;
	p = s + *n - 10;
	if (hex_at(&p, 4, 4, v) != 0 || *p++ != ':' || hex_at(&p, 4, 4, d) != 0)
		return 0;
	*n -= 11;
	while (*n > 0 && s[*n - 1] == ' ')
		(*n)--;
	return 1;
}

/* The vendor whose pci.ids name starts text, followed by a blank; *after
 * past it.  0 when none of ours. */
static unsigned
vendor_of(const char *text, const char **after)
{
	size_t k, n;

	for (k = 0; k < sizeof vendors / sizeof *vendors; k++) {
		n = strlen(vendors[k].name);
		if (!strncmp(text, vendors[k].name, n) && text[n] == ' ') {
			*after = text + n + 1;
			return vendors[k].id;
		}
	}
	*after = text;
	return 0;
}

/* The one table row whose name ends text (after a blank), or NULL (none,
 * or several: the names do not decide). */
static const gw_gpu *
row_by_name(const gw_table *t, const char *text)
{
	const gw_gpu *hit = NULL;
	size_t i, n = strlen(text), m;

	if (t == NULL)
		return NULL;
	for (i = 0; i < t->n; i++) {
		m = strlen(t->gpus[i].name);
		if (m == 0 || m > n || (m < n && text[n - m - 1] != ' ') ||
		    strcasecmp(text + n - m, t->gpus[i].name) != 0)
			continue;
		if (hit)
			return NULL;
		hit = &t->gpus[i];
	}
	return hit;
}

/* The text of a device line without " (rev a1)", " (prog-if ...)". */
static size_t
text_len(const char *s)
{
	const char *r = strstr(s, " (rev ");
	const char *q = strstr(s, " (prog-if ");
	size_t n = strlen(s);

	if (r && (size_t)(r - s) < n)
		n = (size_t)(r - s);
	if (q && (size_t)(q - s) < n)
		n = (size_t)(q - s);
	return n;
}

/* The device ends: its unsized regions take the Resizable BAR's current
 * size; what stays without a size is not a BAR gpuwiz can count. */
static void
finish_device(lspci_state *st)
{
	gw_gpu_dev *g = st->cur;
	int k;

	if (g == NULL)
		return;
	for (k = 0; k < 6; k++)
		if (st->unsized[k] && st->rebar[k] > 0 && g->nbars < 6) {
			g->bars[g->nbars] = st->pending[k];
			g->bars[g->nbars].size = st->rebar[k];
			g->nbars++;
		}
	st->cur = NULL;
}

static void
start_device(lspci_state *st, const char *text, unsigned dom, unsigned bus,
             unsigned dev, unsigned fn)
{
	gw_gpu_dev *g;
	size_t n = text_len(text);
	char *t = gw_xasprintf("%.*s", (int)n, text);
	const char *model;
	unsigned v = 0, d = 0;
	int ids;

	if (st->out->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 4;
		st->out->gpus = gw_xrealloc(st->out->gpus,
		                            st->cap * sizeof *st->out->gpus);
	}
	g = &st->out->gpus[st->out->n++];
	gw_gpu_dev_init(g);
	memset(st->rebar, 0, sizeof st->rebar);
	memset(st->unsized, 0, sizeof st->unsized);
	st->in_caps = st->in_rebar = 0;
	st->cur = g;
	g->bdf = gw_xasprintf("%04x:%02x:%02x.%x", dom, bus, dev, fn);
	g->dom = dom;
	g->bus = bus;
	g->dev = dev;
	g->fn = fn;
	ids = trailing_ids(t, &n, &v, &d);
	t[n] = '\0';
	if (!ids) {
		v = vendor_of(t, &model);
		/* lspci names a device pci.ids lacks "Device 2330" */
		if (v == 0x10de && !strncmp(model, "Device ", 7)) {
			const char *p = model + 7;

			ids = hex_at(&p, 4, 4, &d) == 0 && *p == '\0';
		}
	} else {
		vendor_of(t, &model);
	}
	if (ids) {
		g->vendor = v;
		g->device = d;
	} else if ((g->row = row_by_name(st->t, t)) != NULL) {
		g->vendor = g->row->vendor_id;
		g->device = g->row->device_id;
		g->ids_unread = 1;
	} else {
		g->vendor = v;    /* the vendor's name said it, or 0 */
		g->ids_unread = 1;
	}
	g->name = gw_xstrdup(*model ? model : t);
	free(t);
}

/* The subsystem ids, once the device's own ids are known. */
static void
subsystem_line(lspci_state *st, const char *s)
{
	gw_gpu_dev *g = st->cur;
	size_t n = strlen(s);
	unsigned sv, sd;

	if (!trailing_ids(s, &n, &sv, &sd))
		return;
	g->subvendor = sv;
	g->subdevice = sd;
	g->subsys_known = 1;
}

/* "16G", "32M", "128": bytes; "16GB", "256MB" too (Resizable BAR).  0
 * when it is no size. */
static uint64_t
size_at(const char *s)
{
	char *end;
	unsigned long long n;
	int shift = 0;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (end == s || errno != 0 || n == 0)
		return 0;
	switch (*end) {
	case 'K': shift = 10; break;
	case 'M': shift = 20; break;
	case 'G': shift = 30; break;
	case 'T': shift = 40; break;
	default: break;
	}
	if (n > (UINT64_MAX >> shift))
		return 0;
	return (uint64_t)n << shift;
}

/* "Region 1: Memory at 38000000000 (64-bit, prefetchable) [size=32G]" */
static void
region_line(lspci_state *st, const char *s)
{
	gw_gpu_dev *g = st->cur;
	gw_gpu_bar b;
	const char *p = s + 7, *z;
	char *end;
	long idx;

	idx = strtol(p, &end, 10);
	if (end == p || idx < 0 || idx > 5 || *end != ':' || g->nbars >= 6)
		return;
	memset(&b, 0, sizeof b);
	b.index = (int)idx;
	b.io = strstr(end, "I/O ports") != NULL;
	b.is64 = strstr(end, "64-bit") != NULL;
	b.pref = strstr(end, "prefetchable") != NULL &&
	         strstr(end, "non-prefetchable") == NULL;
	if ((z = strstr(end, "[size=")) != NULL)
		b.size = size_at(z + 6);
	if (b.size > 0) {
		g->bars[g->nbars++] = b;
	} else if (!b.io) {
		st->unsized[idx] = 1;
		st->pending[idx] = b;
	}
}

/* "BAR 1: current size: 32GB, supported: ..." */
static void
rebar_line(lspci_state *st, const char *s)
{
	const char *c = strstr(s, ": current size: ");
	char *end;
	long idx = strtol(s + 4, &end, 10);

	if (c == NULL || end != c || idx < 0 || idx > 5)
		return;
	st->rebar[idx] = size_at(c + 16);
}

static void
detail_line(lspci_state *st, const char *s)
{
	gw_gpu_dev *g = st->cur;

	if (!strncmp(s, "Capabilities:", 13)) {
		st->in_caps = 1;
		st->in_rebar = strstr(s, "Resizable BAR") != NULL &&
		               strstr(s, "VF Resizable BAR") == NULL;
	} else if (!st->in_caps && !strncmp(s, "Region ", 7)) {
		region_line(st, s);
	} else if (st->in_rebar && !strncmp(s, "BAR ", 4)) {
		rebar_line(st, s);
	} else if (!strncmp(s, "Subsystem: ", 11)) {
		subsystem_line(st, s + 11);
	} else if (!strncmp(s, "Kernel driver in use: ", 22) && !g->driver) {
		g->driver = gw_xstrdup(s + 22);
	} else if (!strncmp(s, "IOMMU group: ", 13) && !g->group) {
		g->group = gw_xstrdup(s + 13);
	}
}

/* One line (NUL-terminated, writable). */
static void
feed(lspci_state *st, char *line)
{
	char *s = line, *end;
	unsigned dom, bus, dev, fn;
	const char *text;
	int display;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (*s == '\0' || *s == '#')
		return;
	if ((text = device_line(s, &dom, &bus, &dev, &fn, &display)) != NULL) {
		finish_device(st);
		st->ndevices++;
		if (display)
			start_device(st, text, dom, bus, dev, fn);
		return;
	}
	if (st->cur)
		detail_line(st, s);
}

static void
state_init(lspci_state *st, const gw_table *t, const char *name,
           gw_gpu_list *out)
{
	memset(st, 0, sizeof *st);
	memset(out, 0, sizeof *out);
	st->t = t;
	st->name = name;
	st->out = out;
}

/* The end of the input: the list summed, or the error of a capture
 * without a device line. */
static int
state_end(lspci_state *st, gw_err *e)
{
	size_t i;

	finish_device(st);
	if (st->ndevices == 0) {
		gw_err_set(e, _("%s: no lspci device line; expected the output "
		                "of %s (lines like '41:00.0 3D controller [0302]: "
		                "NVIDIA Corporation ...')"), st->name, LSPCI_CMD);
		gw_gpu_list_free(st->out);
		return -1;
	}
	for (i = 0; i < st->out->n; i++) {
		gw_gpu_dev *g = &st->out->gpus[i];

		if (g->row == NULL && !g->ids_unread && st->t != NULL)
			g->row = gw_table_find_pci(st->t, g->vendor, g->device,
			                           g->subvendor, g->subdevice,
			                           &g->ambiguous);
		if (g->row) {
			free(g->name);
			g->name = gw_xstrdup(g->row->name);
		}
		g->vram_gb = g->row ? g->row->vram_gb : -1;
		g->onboard = gw_is_onboard_display(g->vendor);
	}
	st->out->source = gw_xstrdup(st->name);
	gw_gpu_list_sum(st->out);
	return 0;
}

static int
nul_error(lspci_state *st, gw_err *e)
{
	gw_err_set(e, _("%s: binary data (NUL byte); expected the text "
	                "output of %s"), st->name, LSPCI_CMD);
	finish_device(st);
	gw_gpu_list_free(st->out);
	return -1;
}

int
gw_lspci_gpu_list_read(const gw_table *t, const char *text, const char *name,
                       gw_gpu_list *out, gw_err *e)
{
	lspci_state st;
	char *line = gw_xmalloc(LINE_MAX_KEPT + 1);
	const char *p = text ? text : "", *nl;
	size_t n;

	if (name == NULL)
		name = "lspci";
	state_init(&st, t, name, out);
	if (strlen(p) > GW_LSPCI_MAX_BYTES) {
		gw_err_set(e, _("%s: more than %u bytes; expected the output of "
		                "%s"), name, GW_LSPCI_MAX_BYTES, LSPCI_CMD);
		free(line);
		return -1;
	}
	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		memcpy(line, p, n < LINE_MAX_KEPT ? n : LINE_MAX_KEPT);
		line[n < LINE_MAX_KEPT ? n : LINE_MAX_KEPT] = '\0';
		feed(&st, line);
		p += n + (nl != NULL);
	}
	free(line);
	return state_end(&st, e);
}

int
gw_lspci_gpu_list_read_file(const gw_table *t, const char *path,
                            gw_gpu_list *out, gw_err *e)
{
	lspci_state st;
	char *line;
	size_t n = 0, total = 0;
	FILE *f;
	int fd, c;

	memset(out, 0, sizeof *out);
	if (path == NULL || *path == '\0') {
		gw_err_set(e, "%s", _("--lspci-file: no file given"));
		return -1;
	}
	if ((fd = gw_open_regular(path, e)) < 0)
		return -1;
	if ((f = fdopen(fd, "r")) == NULL) {
		gw_err_set(e, _("%s: cannot read: %s"), path, strerror(errno));
		close(fd);
		return -1;
	}
	state_init(&st, t, path, out);
	line = gw_xmalloc(LINE_MAX_KEPT + 1);
	for (;;) {
		c = getc(f);
		if (c == '\0') {
			free(line);
			fclose(f);
			return nul_error(&st, e);
		}
		if (c != EOF && ++total > GW_LSPCI_MAX_BYTES) {
			gw_err_set(e, _("%s: more than %u bytes; expected the "
			                "output of %s"), path, GW_LSPCI_MAX_BYTES,
			           LSPCI_CMD);
			finish_device(&st);
			gw_gpu_list_free(out);
			free(line);
			fclose(f);
			return -1;
		}
		if (c == EOF || c == '\n') {
			line[n < LINE_MAX_KEPT ? n : LINE_MAX_KEPT] = '\0';
			if (n > 0 || c == '\n')
				feed(&st, line);
			n = 0;
			if (c == EOF)
				break;
			continue;
		}
		if (n < LINE_MAX_KEPT)
			line[n] = (char)c;
		n++;
	}
	free(line);
	if (ferror(f)) {
		gw_err_set(e, _("%s: cannot read: %s"), path, strerror(errno));
		fclose(f);
		finish_device(&st);
		gw_gpu_list_free(out);
		return -1;
	}
	fclose(f);
	return state_end(&st, e);
}

int
gw_lspci_is_capture(const char *text)
{
	char line[256];
	const char *p = text ? text : "", *nl, *s;
	unsigned dom, bus, dev, fn;
	int display;
	size_t n;

	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		s = p;
		while (n > 0 && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		if (device_line(line, &dom, &bus, &dev, &fn, &display) != NULL)
			return 1;
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return 0;
}
