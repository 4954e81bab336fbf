/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_nvsmi.c: the parser of `nvidia-smi -q` (verify.h, layer 1).
 *
 * The parser walks the lines once, keeping a stack of the open sections by
 * indentation; it records only the fields the checks need and ignores the
 * rest.
 */
#include "verify_int.h"
#include "idset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NM(n) ((n) != NULL ? (n) : "<nvidia-smi -q>")

/* ---- small helpers ------------------------------------------------------ */

int
gw_verify_starts_ci(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncasecmp(s, prefix, n) == 0;
}

static int
is_hex_run(const char *s, size_t min, size_t max, const char **end)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]) && n <= max)
		n++;
	if (n < min || n > max)
		return 0;
	*end = s + n;
	return 1;
}

/* "GPU 00000000:03:00.0" (4 to 8 hex digits of domain): pointer to the
 * bus id, else NULL. */
static const char *
gpu_header_bus(const char *key)
{
	const char *p, *q;

	if (strncmp(key, "GPU ", 4) != 0)
		return NULL;
	p = key + 4;
	if (!is_hex_run(p, 4, 8, &q) || *q != ':')
		return NULL;
	if (!is_hex_run(q + 1, 2, 2, &q) || *q != ':')
		return NULL;
	if (!is_hex_run(q + 1, 2, 2, &q) || *q != '.')
		return NULL;
	if (!is_hex_run(q + 1, 1, 1, &q) || *q != '\0')
		return NULL;
	return p;
}

/* "143771 MiB" -> MiB; "N/A" -> GW_NVSMI_NA; else GW_NVSMI_BAD. */
static long long
parse_mib(const char *v)
{
	char digits[24];
	size_t n = 0;
	unsigned long long x;
	const char *p = v;

	if (gw_strieq(v, "N/A"))
		return GW_NVSMI_NA;
	while (isdigit((unsigned char)*p) && n < sizeof digits - 1)
		digits[n++] = *p++;
	digits[n] = '\0';
	if (n == 0)
		return GW_NVSMI_BAD;
	while (*p == ' ')
		p++;
	if (strcmp(p, "MiB") != 0)
		return GW_NVSMI_BAD;
	if (gw_parse_uint(digits, 1ULL << 40, &x) != 0)
		return GW_NVSMI_BAD;
	return (long long)x;
}

/* "0x233510DE" -> hi 0x2335, lo 0x10de.  0 on success. */
static int
parse_pci_pair(const char *v, unsigned *hi, unsigned *lo)
{
	const char *end;
	unsigned long x;

	if (v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return -1;
	if (!is_hex_run(v + 2, 1, 8, &end) || *end != '\0')
		return -1;
	x = strtoul(v + 2, NULL, 16);
	if (x == 0)
		return -1;
	*hi = (unsigned)(x >> 16) & 0xffffu;
	*lo = (unsigned)x & 0xffffu;
	return 0;
}

static gw_virt_mode
decode_virt(const char *v)
{
	if (v == NULL)
		return GW_VIRT_UNKNOWN;
	if (gw_strieq(v, "None"))
		return GW_VIRT_NONE;
	if (gw_strieq(v, "Pass-Through") || gw_strieq(v, "Passthrough"))
		return GW_VIRT_PASSTHROUGH;
	if (gw_strieq(v, "VGPU"))
		return GW_VIRT_VGPU;
	if (gw_strieq(v, "Host VGPU"))
		return GW_VIRT_HOST_VGPU;
	return GW_VIRT_UNKNOWN;
}

/* Trim in place by moving the start (the library's trim shifts the text,
 * which is quadratic on a long run of blanks). */
static char *
trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
	       *s == '\v')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
	                   end[-1] == '\r' || end[-1] == '\f' ||
	                   end[-1] == '\v'))
		*--end = '\0';
	return s;
}

static void
set_once(char **field, const char *value)
{
	if (*field == NULL)
		*field = gw_xstrdup(value);
}

int
gw_version_cmp(const char *a, const char *b, int *cmp)
{
	unsigned long va[8], vb[8];
	int na = 0, nb = 0, i;
	const char *s[2] = { a, b };
	unsigned long *out[2] = { va, vb };
	int *cnt[2] = { &na, &nb };
	int k;

	for (k = 0; k < 2; k++) {
		const char *p = s[k];

		if (p == NULL || !isdigit((unsigned char)*p))
			return -1;
		for (;;) {
			unsigned long x = 0;
			int d = 0;

			while (isdigit((unsigned char)*p)) {
				if (++d > 9)
					return -1;
				x = x * 10 + (unsigned long)(*p - '0');
				p++;
			}
			if (d == 0 || *cnt[k] == 8)
				return -1;
			out[k][(*cnt[k])++] = x;
			if (*p == '\0')
				break;
			if (*p != '.')
				return -1;
			p++;
		}
	}
	*cmp = 0;
	for (i = 0; i < 8 && (i < na || i < nb); i++) {
		unsigned long x = i < na ? va[i] : 0, y = i < nb ? vb[i] : 0;

		if (x != y) {
			*cmp = x < y ? -1 : 1;
			break;
		}
	}
	return 0;
}

/* ---- 1. the parser ------------------------------------------------------ */

void
gw_nvsmi_free(gw_nvsmi *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->ngpus; i++) {
		gw_nvsmi_gpu *g = &q->gpus[i];

		free(g->bus_id);
		free(g->product_name);
		free(g->virt_mode_text);
		free(g->host_vgpu_mode);
		free(g->addressing_mode);
		free(g->fb_total_text);
		free(g->bar1_total_text);
		free(g->licensed_product);
		free(g->license_status);
	}
	free(q->gpus);
	free(q->driver_version);
	free(q->cuda_version);
	free(q->error_text);
	memset(q, 0, sizeof *q);
	q->attached_gpus = -1;
}

/* Refuse what is not text.  0 when it is. */
static int
check_text(const char *d, size_t len, const char *nm, gw_err *e)
{
	const char *z;
	size_t i, n, ctl = 0, oddnul = 0;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)d[i]))
			break;
	if (i == len) {
		gw_err_set(e, _("%s: the file is empty; expected the output of "
		                "nvidia-smi -q"), nm);
		return -1;
	}
	n = len < 8192 ? len : 8192;
	for (i = 1; i < n; i += 2)
		oddnul += d[i] == '\0';
	if ((len >= 2 && (((unsigned char)d[0] == 0xff &&
	                   (unsigned char)d[1] == 0xfe) ||
	                  ((unsigned char)d[0] == 0xfe &&
	                   (unsigned char)d[1] == 0xff))) ||
	    (n >= 16 && oddnul * 4 > n)) {
		gw_err_set(e, _("%s: looks like UTF-16 text (as PowerShell's > "
		                "writes it); save it as UTF-8, for example with "
		                "nvidia-smi -q -f FILE"), nm);
		return -1;
	}
	z = memchr(d, '\0', len);
	if (z != NULL) {
		gw_err_set(e, _("%s: binary data (NUL byte at offset %zu); "
		                "expected the text output of nvidia-smi -q"),
		           nm, (size_t)(z - d));
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)d[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
		    c != '\f' && c != '\v' && c != 0x1b)
			ctl++;
	}
	if (ctl > 8 && ctl * 32 > n) {
		gw_err_set(e, _("%s: binary data (control bytes); expected the "
		                "text output of nvidia-smi -q"), nm);
		return -1;
	}
	return 0;
}

/* A global field: the same value again is fine (nvidia-smi -q -i 0;
 * nvidia-smi -q -i 1 in one file), a different one is two machines. */
static int
set_global(char **field, int *field_line, const char *value, int ln,
           const char *key, const char *nm, gw_err *e)
{
	if (*field == NULL) {
		*field = gw_xstrdup(value);
		*field_line = ln;
		return 0;
	}
	if (strcmp(*field, value) == 0)
		return 0;
	gw_err_set(e, _("%s:%d: %s '%s' differs from '%s' on line %d: save one "
	                "machine's nvidia-smi -q per file"),
	           nm, ln, key, value, *field, *field_line);
	return -1;
}

/* "4" -> 4 (0..65536); -1 for anything else. */
static int
parse_count(const char *v)
{
	unsigned long long n;

	return gw_parse_uint(v, 65536, &n) == 0 ? (int)n : -1;
}

/* The sections of a GPU that gpu_field reads, known by name once when the
 * section opens (section_kind) rather than on each of its lines. */
enum {
	SEC_NONE,            /* a field of the GPU itself */
	SEC_OTHER,
	SEC_VIRT,
	SEC_LICENSE,
	SEC_PCI,
	SEC_FB,
	SEC_BAR1
};

static int
section_kind(const char *name)
{
	static const struct {
		const char *name;
		int kind;
	} k[] = {
		{ "GPU Virtualization Mode", SEC_VIRT },
		{ "vGPU Software Licensed Product", SEC_LICENSE },
		{ "PCI", SEC_PCI },
		{ "FB Memory Usage", SEC_FB },
		{ "BAR1 Memory Usage", SEC_BAR1 },
	};
	size_t i;

	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		if (gw_strieq(name, k[i].name))
			return k[i].kind;
	return SEC_OTHER;
}

static void
gpu_field(gw_nvsmi_gpu *g, int section, const char *key, const char *value)
{
	if (section == SEC_NONE) {
		if (gw_strieq(key, "Product Name"))
			set_once(&g->product_name, value);
		else if (gw_strieq(key, "Addressing Mode"))
			set_once(&g->addressing_mode, value);
		else if (gw_strieq(key, "Active vGPUs") && g->active_vgpus < 0)
			g->active_vgpus = parse_count(value);
		return;
	}
	if (section == SEC_VIRT) {
		if (gw_strieq(key, "Virtualization Mode") &&
		    g->virt_mode_text == NULL) {
			g->virt_mode_text = gw_xstrdup(value);
			g->virt_mode = decode_virt(value);
		} else if (gw_strieq(key, "Host VGPU Mode")) {
			set_once(&g->host_vgpu_mode, value);
		}
	} else if (section == SEC_LICENSE) {
		if (gw_strieq(key, "Product Name"))
			set_once(&g->licensed_product, value);
		else if (gw_strieq(key, "License Status"))
			set_once(&g->license_status, value);
	} else if (section == SEC_PCI) {
		unsigned hi, lo;

		if (gw_strieq(key, "Device Id") && g->device_id == 0 &&
		    parse_pci_pair(value, &hi, &lo) == 0) {
			g->device_id = hi;
			g->vendor_id = lo;
		} else if (gw_strieq(key, "Sub System Id") &&
		           g->subsys_device == 0 &&
		           parse_pci_pair(value, &hi, &lo) == 0) {
			g->subsys_device = hi;
			g->subsys_vendor = lo;
		}
	} else if (section == SEC_FB) {
		if (gw_strieq(key, "Total") && g->fb_total_text == NULL) {
			g->fb_total_text = gw_xstrdup(value);
			g->fb_total_mib = parse_mib(value);
		}
	} else if (section == SEC_BAR1) {
		if (gw_strieq(key, "Total") && g->bar1_total_text == NULL) {
			g->bar1_total_text = gw_xstrdup(value);
			g->bar1_total_mib = parse_mib(value);
		}
	}
}

/* nvidia-smi's own failure lines: a valid capture of "no GPU". */
static int
is_smi_error(const char *s)
{
	/* the first byte first: a line of a capture is seldom one */
	if (*s != 'N' && *s != 'n' && *s != 'U' && *s != 'u')
		return 0;
	return gw_verify_starts_ci(s, "No devices were found") ||
	       gw_verify_starts_ci(s, "NVIDIA-SMI has failed") ||
	       gw_verify_starts_ci(s, "Unable to determine the device handle");
}

static void
not_nvsmi(const char *data, size_t len, const char *nm, gw_err *e)
{
	if (memmem(data, len, "<nvidia_smi_log", 15) != NULL ||
	    (len >= 5 && memcmp(data, "<?xml", 5) == 0))
		gw_err_set(e, _("%s: XML output (nvidia-smi -q -x); gpuwiz reads "
		                "the text output of nvidia-smi -q"), nm);
	else if (memmem(data, len, "NVIDIA-SMI ", 11) != NULL &&
	         memmem(data, len, "+---", 4) != NULL)
		gw_err_set(e, _("%s: the nvidia-smi summary table; gpuwiz reads "
		                "the output of nvidia-smi -q"), nm);
	else
		gw_err_set(e, _("%s: not the output of nvidia-smi -q: no \"NVSMI "
		                "LOG\" banner and no \"GPU 00000000:xx:xx.x\" "
		                "section"), nm);
}

#define STACK_MAX 32

/* The parser's state between lines. */
typedef struct parser {
	gw_nvsmi *q;
	const char *nm;          /* the input's name, for errors */
	gw_err *e;
	struct {
		int indent;
		char *name;          /* the section's name, owned */
		size_t cap;
		int kind;            /* section_kind of name, at depth 1 */
	} st[STACK_MAX];
	int depth, ln;
	int driver_line, cuda_line, att_line;
	int kmd_line, umd_line, attv_line;
	char *driver, *kmd;      /* "Driver Version", "KMD Version" as written */
	char *cuda, *umd;        /* "CUDA Version", "CUDA UMD Version" */
	char *attached;          /* "Attached GPUs" as written */
	char *attached_v;        /* "Attached vGPUs" as written */
	gw_nvsmi_gpu *cur;       /* the open GPU section, NULL at the top */
	gw_nvsmi_gpu *again;     /* cur is a repeated header of this GPU,
	                          * waiting for its first field */
	int again_line;          /* the line of that repeated header */
	int vgpu_q;              /* cur is a repeated section of nvidia-smi
	                          * vgpu -q: only its first field, "Active
	                          * vGPUs", was read */
	size_t cap;
	gw_idset buses;          /* bus_key -> the first GPU of that key */
} parser;

/* Split "key : value" at the first ':' followed by a blank or the end;
 * *value NULL when the line has none (a section header). */
static void
split_key(char *rest, char **key, char **value)
{
	char *sep;

	for (sep = rest; (sep = strchr(sep, ':')) != NULL; sep++)
		if (sep[1] == '\0' || sep[1] == ' ' || sep[1] == '\t')
			break;
	if (sep != NULL) {
		*sep = '\0';
		*key = trim(rest);
		*value = trim(sep + 1);
	} else {
		*key = rest;
		*value = NULL;
	}
}

/* The key of a bus id in P->buses: a hash of it in the case gw_strieq
 * ignores (equal ids, equal keys). */
static uint64_t
bus_key(const char *bus)
{
	uint64_t h = 14695981039346656037u;     /* FNV-1a */

	for (; *bus; bus++) {
		h ^= (unsigned char)tolower((unsigned char)*bus);
		h *= 1099511628211u;
	}
	return h;
}

/* Open the section of GPU bus; -1 with e set when it repeats or there are
 * too many. */
static int
open_gpu(parser *P, const char *bus)
{
	gw_nvsmi *q = P->q;
	uint64_t key = bus_key(bus);
	const size_t *at = gw_idset_get(&P->buses, key);
	size_t i = 0;

	/* the index of the GPU of that key; every GPU in turn only where
	 * two buses share a key */
	if (at == NULL)
		i = q->ngpus;
	else if (gw_strieq(q->gpus[*at].bus_id, bus))
		i = *at;
	for (; i < q->ngpus; i++)
		if (gw_strieq(q->gpus[i].bus_id, bus)) {
			/* nvidia-smi vgpu -q after the -q: decided by the
			 * section's first field (again_field) */
			P->cur = P->again = &q->gpus[i];
			P->again_line = P->ln;
			return 0;
		}
	if (q->ngpus == GW_NVSMI_MAX_GPUS) {
		gw_err_set(P->e, _("%s:%d: more than %d GPU sections; "
		                   "expected one machine's nvidia-smi "
		                   "-q"), P->nm, P->ln, GW_NVSMI_MAX_GPUS);
		return -1;
	}
	if (q->ngpus == P->cap) {
		P->cap = P->cap ? P->cap * 2 : 4;
		q->gpus = gw_xrealloc(q->gpus, P->cap * sizeof *q->gpus);
	}
	(void)gw_idset_put(&P->buses, key, q->ngpus);
	P->cur = &q->gpus[q->ngpus++];
	memset(P->cur, 0, sizeof *P->cur);
	P->cur->bus_id = gw_xstrdup(bus);
	P->cur->line = P->ln;
	P->cur->fb_total_mib = GW_NVSMI_ABSENT;
	P->cur->bar1_total_mib = GW_NVSMI_ABSENT;
	P->cur->active_vgpus = -1;
	return 0;
}

/* A GPU header seen twice is refused unless its section is nvidia-smi
 * vgpu -q's (first field "Active vGPUs"); key NULL: the section ended
 * without a field. */
static int
again_field(parser *P, const char *key)
{
	gw_nvsmi_gpu *g = P->again;

	P->again = NULL;
	if (key != NULL && gw_strieq(key, "Active vGPUs")) {
		P->vgpu_q = 1;
		return 0;
	}
	gw_err_set(P->e, _("%s:%d: GPU %s appears twice (first on line %d): "
	                   "save one nvidia-smi -q per file"),
	           P->nm, P->again_line, g->bus_id, g->line);
	return -1;
}

/* A line at the top level: a GPU header, the banner or a global field. */
static int
top_line(parser *P, const char *key, const char *value)
{
	gw_nvsmi *q = P->q;
	const char *bus;

	if (P->again != NULL && again_field(P, NULL) != 0)
		return -1;
	P->cur = NULL;
	P->vgpu_q = 0;
	if (value == NULL && (bus = gpu_header_bus(key)) != NULL)
		return open_gpu(P, bus);
	if (value == NULL) {
		if (strstr(key, "NVSMI LOG") != NULL)
			q->banner = 1;
	} else if (gw_strieq(key, "Driver Version")) {
		return set_global(&P->driver, &P->driver_line, value, P->ln,
		                  "Driver Version", P->nm, P->e);
	} else if (gw_strieq(key, "KMD Version")) {
		return set_global(&P->kmd, &P->kmd_line, value, P->ln,
		                  "KMD Version", P->nm, P->e);
	} else if (gw_strieq(key, "CUDA Version")) {
		return set_global(&P->cuda, &P->cuda_line, value, P->ln,
		                  "CUDA Version", P->nm, P->e);
	} else if (gw_strieq(key, "CUDA UMD Version")) {
		return set_global(&P->umd, &P->umd_line, value, P->ln,
		                  "CUDA UMD Version", P->nm, P->e);
	} else if (gw_strieq(key, "Attached GPUs")) {
		return set_global(&P->attached, &P->att_line, value, P->ln,
		                  "Attached GPUs", P->nm, P->e);
	} else if (gw_strieq(key, "Attached vGPUs")) {
		return set_global(&P->attached_v, &P->attv_line, value, P->ln,
		                  "Attached vGPUs", P->nm, P->e);
	}
	return 0;
}

/* One line (NUL-terminated, modified in place).  -1 with e set on a
 * refusal. */
static int
parse_line(parser *P, char *line)
{
	char *rest, *key, *value;
	int indent = 0;

	P->ln++;
	for (rest = line; *rest == ' ' || *rest == '\t'; rest++)
		indent += *rest == '\t' ? 4 : 1;
	rest = trim(rest);
	if (*rest == '\0')
		return 0;
	if (is_smi_error(rest)) {
		set_once(&P->q->error_text, rest);
		return 0;
	}
	split_key(rest, &key, &value);
	if (*key == '\0')
		return 0;
	while (P->depth > 0 && P->st[P->depth - 1].indent >= indent)
		P->depth--;
	if (P->depth == 0) {
		if (top_line(P, key, value) != 0)
			return -1;
	} else if (P->again != NULL) {
		if (again_field(P, key) != 0)
			return -1;
		if (value != NULL && P->depth == 1)
			gpu_field(P->cur, SEC_NONE, key, value);
	} else if (P->vgpu_q) {
		/* the rest of nvidia-smi vgpu -q's section is about the
		 * vGPUs (their FB Memory Usage, ...), not the GPU */
	} else if (P->cur != NULL && value != NULL && P->depth <= 2) {
		/* st[0] is cur's header */
		gpu_field(P->cur, P->depth == 2 ? P->st[1].kind : SEC_NONE, key,
		          value);
	}
	/* At the top only a GPU header opens a section: a shell prompt
	 * line must not swallow a capture pasted with an indent. */
	if (value == NULL && (P->depth > 0 || P->cur != NULL) &&
	    P->depth < STACK_MAX) {
		size_t n = strlen(key) + 1;

		/* the line is read into a buffer the next one reuses */
		if (n > P->st[P->depth].cap) {
			P->st[P->depth].cap = n < 64 ? 64 : n;
			P->st[P->depth].name = gw_xrealloc(P->st[P->depth].name,
			                                   P->st[P->depth].cap);
		}
		memcpy(P->st[P->depth].name, key, n);
		P->st[P->depth].indent = indent;
		P->st[P->depth].kind = P->depth == 1 ? section_kind(key)
		                                     : SEC_OTHER;
		P->depth++;
	}
	return 0;
}

/* The version at the start of a value: "610.57.04 [Deprecated; ...]" ->
 * "610.57.04", "535.129.03" -> itself; NULL when the value does not start
 * with a version followed by the end or a blank. */
static char *
lead_version(const char *v)
{
	char *tok;
	int cmp;

	tok = gw_xstrndup(v, strcspn(v, " \t"));
	if (gw_version_cmp(tok, "0", &cmp) != 0) {
		free(tok);
		return NULL;
	}
	return tok;
}

/* The version to judge: the newer line's (KMD Version, CUDA UMD Version)
 * when it holds one, else the older line's; when neither does, the text of
 * the one present (so the check can quote it); NULL when both are
 * absent. */
static char *
pick_version(const char *newer, const char *older)
{
	char *v = NULL;

	if (newer != NULL)
		v = lead_version(newer);
	if (v == NULL && older != NULL)
		v = lead_version(older);
	if (v == NULL && (newer != NULL || older != NULL))
		v = gw_xstrdup(newer != NULL ? newer : older);
	return v;
}

int
gw_nvsmi_parse(gw_nvsmi *q, const char *data, size_t len, const char *name,
               gw_err *e)
{
	parser P;
	const char *p, *end;
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0, i;

	memset(q, 0, sizeof *q);
	q->attached_gpus = -1;
	memset(&P, 0, sizeof P);
	gw_idset_init(&P.buses);
	P.q = q;
	P.nm = NM(name);
	P.e = e;
	if (data == NULL)
		len = 0;
	if (len == 0) {
		gw_err_set(e, _("%s: the file is empty; expected the output of "
		                "nvidia-smi -q"), P.nm);
		return -1;
	}
	if (check_text(data, len, P.nm, e) != 0)
		return -1;
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		data += 3;
		len -= 3;
	}
	/* one line at a time through one buffer: no copy of the whole */
	for (p = data, end = data + len; p < end && rc == 0;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n + 1 > cap) {
			cap = n + 1 > 2 * cap ? n + 1 : 2 * cap;
			buf = gw_xrealloc(buf, cap);
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p = nl ? nl + 1 : end;
		rc = parse_line(&P, buf);
	}
	if (rc == 0 && P.again != NULL)
		rc = again_field(&P, NULL);
	if (rc == 0 && !q->banner && q->ngpus == 0 && q->error_text == NULL) {
		not_nvsmi(data, len, P.nm, e);
		rc = -1;
	}
	if (rc == 0) {
		q->driver_version = pick_version(P.kmd, P.driver);
		q->cuda_version = pick_version(P.umd, P.cuda);
		if (P.attached != NULL) {
			q->attached_gpus = parse_count(P.attached);
		} else if (P.attached_v != NULL) {
			q->attached_gpus = parse_count(P.attached_v);
			q->attached_vgpus = 1;
		}
	}
	free(P.driver);
	free(P.kmd);
	free(P.cuda);
	free(P.umd);
	free(P.attached);
	free(P.attached_v);
	for (i = 0; i < STACK_MAX; i++)
		free(P.st[i].name);
	free(buf);
	gw_idset_free(&P.buses);
	if (rc != 0)
		gw_nvsmi_free(q);
	return rc;
}
