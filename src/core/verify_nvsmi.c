/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_nvsmi.c: the parser of `nvidia-smi -q` (verify.h, layer 1), a
 * line at a time (verify_nvsmi_input.c reads the input and hands it the
 * lines).
 *
 * The parser walks the lines once, keeping a stack of the open sections by
 * indentation (their indent and, below a GPU, which of the sections it
 * reads each is); it records only the fields the checks need and ignores
 * the rest.
 */
#include "verify_int.h"
#include "idset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small helpers ------------------------------------------------------ */

/* The blanks trimmed around keys and values. */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void
set_once(char **field, const char *value)
{
	if (*field == NULL)
		*field = gw_xstrdup(value);
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
			g->active_vgpus = gw_nvsmi_parse_count(value);
		return;
	}
	if (section == SEC_VIRT) {
		if (gw_strieq(key, "Virtualization Mode") &&
		    g->virt_mode_text == NULL) {
			g->virt_mode_text = gw_xstrdup(value);
			g->virt_mode = gw_nvsmi_decode_virt(value);
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
		    gw_nvsmi_parse_pci_pair(value, &hi, &lo) == 0) {
			g->device_id = hi;
			g->vendor_id = lo;
		} else if (gw_strieq(key, "Sub System Id") &&
		           g->subsys_device == 0 &&
		           gw_nvsmi_parse_pci_pair(value, &hi, &lo) == 0) {
			g->subsys_device = hi;
			g->subsys_vendor = lo;
		}
	} else if (section == SEC_FB) {
		if (gw_strieq(key, "Total") && g->fb_total_text == NULL) {
			g->fb_total_text = gw_xstrdup(value);
			g->fb_total_mib = gw_nvsmi_parse_mib(value);
		}
	} else if (section == SEC_BAR1) {
		if (gw_strieq(key, "Total") && g->bar1_total_text == NULL) {
			g->bar1_total_text = gw_xstrdup(value);
			g->bar1_total_mib = gw_nvsmi_parse_mib(value);
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

#define STACK_MAX 32

/* The parser's state between lines. */
struct gw_nvsmi_parser {
	gw_nvsmi *q;
	const char *nm;          /* the input's name, for errors */
	gw_err *e;
	struct {
		int indent;
		int kind;            /* section_kind of its name, at depth 1 */
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
};
typedef struct gw_nvsmi_parser parser;

/* The ':' that ends the key of "key : value" (rest trimmed): the first
 * followed by a blank or the end; NULL when the line has none (a section
 * header). */
static char *
key_end(char *rest)
{
	char *sep;

	for (sep = rest; (sep = strchr(sep, ':')) != NULL; sep++)
		if (sep[1] == '\0' || sep[1] == ' ' || sep[1] == '\t')
			break;
	return sep;
}

/* Cut "key : value" at sep (key_end): the key ends at its last byte that
 * is not a blank, the value starts at its first. */
static void
split_key(char *rest, char *sep, char **key, char **value)
{
	char *end;

	for (end = sep; end > rest && is_blank(end[-1]); end--)
		;
	*end = '\0';
	for (sep++; is_blank(*sep); sep++)
		;
	*key = rest;
	*value = sep;
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
	if (value == NULL && (bus = gw_nvsmi_gpu_header_bus(key)) != NULL)
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

/* The line's text without its leading and trailing blanks (cut at the
 * end in place), *indent its leading spaces (a tab counts 4). */
static char *
line_text(char *line, size_t n, int *indent)
{
	char *rest, *end;

	*indent = 0;
	for (rest = line; *rest == ' ' || *rest == '\t'; rest++)
		*indent += *rest == '\t' ? 4 : 1;
	while (is_blank(*rest))
		rest++;
	/* line[n] is the buffer's NUL: the end without a strlen (a NUL
	 * inside refuses the input: gw_nvsmi_parse) */
	end = line + n;
	while (end > rest && is_blank(end[-1]))
		end--;
	*end = '\0';
	return rest;
}

/* Does no one read the field at the current depth?  Most are: below a
 * section gpu_field does not read, or past a GPU's second level. */
static int
unread_field(const parser *P)
{
	return P->depth > 0 && P->again == NULL &&
	       (P->vgpu_q || P->cur == NULL || P->depth > 2 ||
	        (P->depth == 2 && P->st[1].kind == SEC_OTHER));
}

/* key (and value, NULL for a section's header) where the stack is now. */
static int
line_field(parser *P, const char *key, const char *value)
{
	if (P->depth == 0)
		return top_line(P, key, value);
	if (P->again != NULL) {
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
	return 0;
}

int
gw_nvsmi_parser_line(parser *P, char *line, size_t n)
{
	char *rest, *sep, *key, *value = NULL;
	int indent;

	P->ln++;
	rest = line_text(line, n, &indent);
	if (*rest == '\0')
		return 0;
	if (is_smi_error(rest)) {
		set_once(&P->q->error_text, rest);
		return 0;
	}
	sep = key_end(rest);
	/* rest is trimmed: the key is empty when the ':' comes first */
	if (sep == rest)
		return 0;
	while (P->depth > 0 && P->st[P->depth - 1].indent >= indent)
		P->depth--;
	/* a field no one reads is not cut */
	if (sep != NULL && unread_field(P))
		return 0;
	key = rest;
	if (sep != NULL)
		split_key(rest, sep, &key, &value);
	if (line_field(P, key, value) != 0)
		return -1;
	/* At the top only a GPU header opens a section: a shell prompt
	 * line must not swallow a capture pasted with an indent. */
	if (value == NULL && (P->depth > 0 || P->cur != NULL) &&
	    P->depth < STACK_MAX) {
		P->st[P->depth].indent = indent;
		P->st[P->depth].kind = P->depth == 1 ? section_kind(key)
		                                     : SEC_OTHER;
		P->depth++;
	}
	return 0;
}

parser *
gw_nvsmi_parser_new(gw_nvsmi *q, const char *name, gw_err *e)
{
	parser *P = gw_xcalloc(1, sizeof *P);

	memset(q, 0, sizeof *q);
	q->attached_gpus = -1;
	gw_idset_init(&P->buses);
	P->q = q;
	P->nm = name;
	P->e = e;
	return P;
}

int
gw_nvsmi_parser_end(parser *P, int rc)
{
	gw_nvsmi *q = P->q;

	if (rc == 0 && P->again != NULL)
		rc = again_field(P, NULL);
	if (rc == 0 && !q->banner && q->ngpus == 0 && q->error_text == NULL)
		rc = 1;
	if (rc == 0) {
		q->driver_version = gw_nvsmi_pick_version(P->kmd, P->driver);
		q->cuda_version = gw_nvsmi_pick_version(P->umd, P->cuda);
		if (P->attached != NULL) {
			q->attached_gpus = gw_nvsmi_parse_count(P->attached);
		} else if (P->attached_v != NULL) {
			q->attached_gpus = gw_nvsmi_parse_count(P->attached_v);
			q->attached_vgpus = 1;
		}
	}
	free(P->driver);
	free(P->kmd);
	free(P->cuda);
	free(P->umd);
	free(P->attached);
	free(P->attached_v);
	gw_idset_free(&P->buses);
	free(P);
	return rc;
}
