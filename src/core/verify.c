/* verify.c: the guest-side check from a saved `nvidia-smi -q` (verify.h).
 *
 * The parser walks the lines once, keeping a stack of the open sections by
 * indentation; it records only the fields the checks need and ignores the
 * rest.  The checks are pure: capture + table -> rows.  The command reads
 * the file, and prints only once everything is known, so an input error
 * leaves stdout empty.
 */
#include "verify.h"
#include "apply.h"   /* GW_NCCL_CHECK_FILE */
#include "mmio.h"
#include "linux.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#define NM(n) ((n) != NULL ? (n) : "<nvidia-smi -q>")

/* ---- small helpers ------------------------------------------------------ */

static int
starts_with_ci(const char *s, const char *prefix)
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

static void
gpu_field(gw_nvsmi_gpu *g, const char *section, const char *key,
          const char *value)
{
	if (section == NULL) {
		if (gw_strieq(key, "Product Name"))
			set_once(&g->product_name, value);
		else if (gw_strieq(key, "Addressing Mode"))
			set_once(&g->addressing_mode, value);
		return;
	}
	if (gw_strieq(section, "GPU Virtualization Mode")) {
		if (gw_strieq(key, "Virtualization Mode") &&
		    g->virt_mode_text == NULL) {
			g->virt_mode_text = gw_xstrdup(value);
			g->virt_mode = decode_virt(value);
		} else if (gw_strieq(key, "Host VGPU Mode")) {
			set_once(&g->host_vgpu_mode, value);
		}
	} else if (gw_strieq(section, "vGPU Software Licensed Product")) {
		if (gw_strieq(key, "Product Name"))
			set_once(&g->licensed_product, value);
		else if (gw_strieq(key, "License Status"))
			set_once(&g->license_status, value);
	} else if (gw_strieq(section, "PCI")) {
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
	} else if (gw_strieq(section, "FB Memory Usage")) {
		if (gw_strieq(key, "Total") && g->fb_total_text == NULL) {
			g->fb_total_text = gw_xstrdup(value);
			g->fb_total_mib = parse_mib(value);
		}
	} else if (gw_strieq(section, "BAR1 Memory Usage")) {
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
	return starts_with_ci(s, "No devices were found") ||
	       starts_with_ci(s, "NVIDIA-SMI has failed") ||
	       starts_with_ci(s, "Unable to determine the device handle");
}

static void
not_nvsmi(const char *data, size_t len, const char *nm, gw_err *e)
{
	char *d = gw_xstrndup(data, len);   /* the parser cut its copy up */

	if (strstr(d, "<nvidia_smi_log") != NULL ||
	    strncmp(d, "<?xml", 5) == 0)
		gw_err_set(e, _("%s: XML output (nvidia-smi -q -x); gpuwiz reads "
		                "the text output of nvidia-smi -q"), nm);
	else if (strstr(d, "NVIDIA-SMI ") != NULL && strstr(d, "+---") != NULL)
		gw_err_set(e, _("%s: the nvidia-smi summary table; gpuwiz reads "
		                "the output of nvidia-smi -q"), nm);
	else
		gw_err_set(e, _("%s: not the output of nvidia-smi -q: no \"NVSMI "
		                "LOG\" banner and no \"GPU 00000000:xx:xx.x\" "
		                "section"), nm);
	free(d);
}

#define STACK_MAX 32

int
gw_nvsmi_parse(gw_nvsmi *q, const char *data, size_t len, const char *name,
               gw_err *e)
{
	const char *nm = NM(name);
	struct { int indent; const char *name; } st[STACK_MAX];
	int depth = 0, ln = 0, driver_line = 0, cuda_line = 0, att_line = 0;
	char *buf, *p, *attached = NULL;
	gw_nvsmi_gpu *cur = NULL;
	size_t cap = 0;

	memset(q, 0, sizeof *q);
	q->attached_gpus = -1;
	if (data == NULL)
		len = 0;
	if (len == 0) {
		gw_err_set(e, _("%s: the file is empty; expected the output of "
		                "nvidia-smi -q"), nm);
		return -1;
	}
	if (check_text(data, len, nm, e) != 0)
		return -1;
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		data += 3;
		len -= 3;
	}
	buf = gw_xstrndup(data, len);

	for (p = buf; *p != '\0';) {
		char *line = p, *nl = strchr(p, '\n'), *rest, *sep, *key, *value;
		int indent = 0;

		if (nl != NULL) {
			*nl = '\0';
			p = nl + 1;
		} else {
			p += strlen(p);
		}
		ln++;
		for (rest = line; *rest == ' ' || *rest == '\t'; rest++)
			indent += *rest == '\t' ? 4 : 1;
		rest = trim(rest);
		if (*rest == '\0')
			continue;
		if (is_smi_error(rest)) {
			set_once(&q->error_text, rest);
			continue;
		}
		/* The key ends at the first ':' followed by a blank or the end. */
		for (sep = rest; (sep = strchr(sep, ':')) != NULL; sep++)
			if (sep[1] == '\0' || sep[1] == ' ' || sep[1] == '\t')
				break;
		if (sep != NULL) {
			*sep = '\0';
			key = trim(rest);
			value = trim(sep + 1);
		} else {
			key = rest;
			value = NULL;
		}
		if (*key == '\0')
			continue;
		while (depth > 0 && st[depth - 1].indent >= indent)
			depth--;

		if (depth == 0) {
			const char *bus;

			cur = NULL;
			if (value == NULL && (bus = gpu_header_bus(key)) != NULL) {
				size_t i;

				for (i = 0; i < q->ngpus; i++)
					if (gw_strieq(q->gpus[i].bus_id, bus)) {
						gw_err_set(e, _("%s:%d: GPU %s appears twice "
						                "(first on line %d): save one "
						                "nvidia-smi -q per file"),
						           nm, ln, bus, q->gpus[i].line);
						goto fail;
					}
				if (q->ngpus == GW_NVSMI_MAX_GPUS) {
					gw_err_set(e, _("%s:%d: more than %d GPU sections; "
					                "expected one machine's nvidia-smi "
					                "-q"), nm, ln, GW_NVSMI_MAX_GPUS);
					goto fail;
				}
				if (q->ngpus == cap) {
					cap = cap ? cap * 2 : 4;
					q->gpus = gw_xrealloc(q->gpus, cap * sizeof *q->gpus);
				}
				cur = &q->gpus[q->ngpus++];
				memset(cur, 0, sizeof *cur);
				cur->bus_id = gw_xstrdup(bus);
				cur->line = ln;
				cur->fb_total_mib = GW_NVSMI_ABSENT;
				cur->bar1_total_mib = GW_NVSMI_ABSENT;
			} else if (value == NULL) {
				if (strstr(key, "NVSMI LOG") != NULL)
					q->banner = 1;
			} else if (gw_strieq(key, "Driver Version")) {
				if (set_global(&q->driver_version, &driver_line, value,
				               ln, "Driver Version", nm, e) != 0)
					goto fail;
			} else if (gw_strieq(key, "CUDA Version")) {
				if (set_global(&q->cuda_version, &cuda_line, value, ln,
				               "CUDA Version", nm, e) != 0)
					goto fail;
			} else if (gw_strieq(key, "Attached GPUs")) {
				if (set_global(&attached, &att_line, value, ln,
				               "Attached GPUs", nm, e) != 0)
					goto fail;
			}
		} else if (cur != NULL) {
			/* st[0] is cur's header */
			if (value != NULL && depth == 1)
				gpu_field(cur, NULL, key, value);
			else if (value != NULL && depth == 2)
				gpu_field(cur, st[1].name, key, value);
		}
		/* At the top only a GPU header opens a section: a shell prompt
		 * line must not swallow a capture pasted with an indent. */
		if (value == NULL && (depth > 0 || cur != NULL) &&
		    depth < STACK_MAX) {
			st[depth].indent = indent;
			st[depth].name = key;
			depth++;
		}
	}

	if (!q->banner && q->ngpus == 0 && q->error_text == NULL) {
		not_nvsmi(data, len, nm, e);
		goto fail;
	}
	if (attached != NULL) {
		unsigned long long n;

		if (gw_parse_uint(attached, 65536, &n) == 0)
			q->attached_gpus = (int)n;
	}
	free(attached);
	free(buf);
	return 0;

fail:
	free(attached);
	free(buf);
	gw_nvsmi_free(q);
	return -1;
}

/* ---- 2. the checks ------------------------------------------------------ */

const char *
gw_check_status_id(gw_check_status s)
{
	switch (s) {
	case GW_CHECK_PASS: return "pass";
	case GW_CHECK_INFO: return "info";
	case GW_CHECK_WARN: return "warn";
	default: return "fail";
	}
}

const char *
gw_check_status_label(gw_check_status s)
{
	switch (s) {
	/* TRANSLATORS: check status labels, at most 5 cells. */
	case GW_CHECK_PASS: return _("PASS");
	case GW_CHECK_INFO: return _("INFO");
	case GW_CHECK_WARN: return _("WARN");
	default: return _("FAIL");
	}
}

/* Takes ownership of title, message and fix. */
static void
add_check(gw_verify *v, const char *id, gw_check_status st, int gpu,
          char *title, char *message, char *fix)
{
	gw_check *c;

	v->checks = gw_xrealloc(v->checks, (v->nchecks + 1) * sizeof *v->checks);
	c = &v->checks[v->nchecks++];
	c->id = id;
	c->status = st;
	c->gpu = gpu;
	c->title = title;
	c->message = message;
	c->fix = fix;
	switch (st) {
	case GW_CHECK_PASS: v->npass++; break;
	case GW_CHECK_INFO: v->ninfo++; break;
	case GW_CHECK_WARN: v->nwarn++; break;
	default: v->nfail++; break;
	}
}

void
gw_verify_free(gw_verify *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->nchecks; i++) {
		free(v->checks[i].title);
		free(v->checks[i].message);
		free(v->checks[i].fix);
	}
	free(v->checks);
	free(v->rows);
	free(v->torchrun);
	memset(v, 0, sizeof *v);
}

/* The table row for a GPU: by PCI id (and subsystem); for a vGPU guest
 * whose PCI id is shared (25b6 = A2/A16), by the profile in its product
 * name ("NVIDIA A16-4Q" -> nvidia_a16-4q). */
static const gw_gpu *
find_row(const gw_table *t, const gw_nvsmi_gpu *g)
{
	const gw_gpu *r;
	int amb = 0;

	if (t == NULL || g->device_id == 0)
		return NULL;
	r = gw_table_find_pci(t, g->vendor_id, g->device_id, g->subsys_vendor,
	                      g->subsys_device, &amb);
	if (r != NULL)
		return r;
	if (g->virt_mode == GW_VIRT_VGPU && g->product_name != NULL) {
		const char *s = g->product_name, *pfx = "nvidia_";
		char *prof, *c;
		gw_err le;

		if (starts_with_ci(s, "NVIDIA ")) {
			s += 7;
		} else if (starts_with_ci(s, "GRID ")) {
			s += 5;
			pfx = "grid_";
		}
		prof = gw_xasprintf("%s%s", pfx, s);
		for (c = prof; *c; c++)
			*c = *c == ' ' ? '_' : (char)tolower((unsigned char)*c);
		r = gw_table_lookup(t, prof, &le);
		free(prof);
		if (r != NULL && r->vendor_id == g->vendor_id &&
		    r->device_id == g->device_id)
			return r;
	}
	return NULL;
}

static void
check_gpus(gw_verify *v, const gw_nvsmi *q)
{
	char *title = gw_xstrdup(_("Checking that the GPUs are visible"));
	const char *fix_none = _("Check that the VM has the GPU (a PCI device "
	                         "or a vGPU in its settings), that lspci shows "
	                         "an NVIDIA device, and dmesg | grep NVRM.");

	if (q->ngpus == 0 && q->error_text != NULL &&
	    starts_with_ci(q->error_text, "NVIDIA-SMI has failed")) {
		add_check(v, "gpus", GW_CHECK_FAIL, -1, title,
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text),
		          gw_xstrdup(_("Load the NVIDIA driver: check that it is "
		                       "built for the running kernel (lsmod | grep "
		                       "nvidia, dmesg | grep NVRM).  In a VM, "
		                       "\"NVRM: BAR1 is 0M\" or an unassigned BAR "
		                       "in lspci -vv means the 64-bit MMIO window "
		                       "is too small.")));
	} else if (q->ngpus == 0) {
		add_check(v, "gpus", GW_CHECK_FAIL, -1, title,
		          q->error_text != NULL ?
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text) :
		          gw_xstrdup(_("the capture has no GPU section")),
		          gw_xstrdup(fix_none));
	} else if (q->error_text != NULL) {
		add_check(v, "gpus", GW_CHECK_WARN, -1, title,
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text),
		          gw_xstrdup(fix_none));
	} else if (q->attached_gpus > (int)q->ngpus) {
		add_check(v, "gpus", GW_CHECK_WARN, -1, title,
		          gw_xasprintf(_("the capture shows %zu of the %d attached "
		                         "GPUs (nvidia-smi -q -i selects some)"),
		                       q->ngpus, q->attached_gpus),
		          gw_xstrdup(_("Run nvidia-smi -q without -i to check "
		                       "every GPU.")));
	} else {
		add_check(v, "gpus", GW_CHECK_PASS, -1, title,
		          gw_xasprintf(_("GPUs in the capture: %zu"), q->ngpus),
		          NULL);
	}
}

static void
check_driver(gw_verify *v, const gw_nvsmi *q)
{
	char *title = gw_xstrdup(_("Checking the driver version"));
	int cmp;

	if (q->driver_version == NULL) {
		add_check(v, "driver", GW_CHECK_WARN, -1, title,
		          gw_xstrdup(_("the capture has no Driver Version line")),
		          NULL);
	} else if (gw_version_cmp(q->driver_version, GW_VERIFY_MIN_DRIVER,
	                          &cmp) != 0) {
		add_check(v, "driver", GW_CHECK_WARN, -1, title,
		          gw_xasprintf(_("cannot read the Driver Version '%s'"),
		                       q->driver_version), NULL);
	} else if (v->host) {
		if (cmp >= 0)
			add_check(v, "driver", GW_CHECK_PASS, -1, title,
			          gw_xasprintf(_("the host's vGPU manager is driver "
			                         "%s; guests need their own driver, "
			                         "%s or newer"),
			                       q->driver_version, GW_VERIFY_MIN_DRIVER),
			          NULL);
		else
			add_check(v, "driver", GW_CHECK_WARN, -1, title,
			          gw_xasprintf(_("the host's vGPU manager %s is older "
			                         "than %s: its guests cannot run a %s "
			                         "or newer driver"),
			                       q->driver_version, GW_VERIFY_MIN_DRIVER,
			                       GW_VERIFY_MIN_DRIVER),
			          gw_xasprintf(_("Upgrade the vGPU manager on the host "
			                         "to a release whose guest driver is %s "
			                         "or newer."), GW_VERIFY_MIN_DRIVER));
	} else if (cmp >= 0) {
		add_check(v, "driver", GW_CHECK_PASS, -1, title,
		          gw_xasprintf(_("driver %s is %s or newer"),
		                       q->driver_version, GW_VERIFY_MIN_DRIVER),
		          NULL);
	} else {
		add_check(v, "driver", GW_CHECK_FAIL, -1, title,
		          gw_xasprintf(_("driver %s is older than %s, the version "
		                         "to use for vLLM with Llama 3"),
		                       q->driver_version, GW_VERIFY_MIN_DRIVER),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (for a vGPU: the guest driver of a "
		                         "vGPU release the host's vGPU manager "
		                         "supports)."), GW_VERIFY_MIN_DRIVER));
	}
}

static void
check_cuda(gw_verify *v, const gw_nvsmi *q)
{
	char *title;
	int cmp;

	if (v->host)    /* the vGPU manager has no CUDA ("Not Found") */
		return;
	title = gw_xstrdup(_("Checking the CUDA version"));
	if (q->cuda_version == NULL) {
		add_check(v, "cuda", GW_CHECK_WARN, -1, title,
		          gw_xstrdup(_("the capture has no CUDA Version line")),
		          NULL);
	} else if (gw_strieq(q->cuda_version, "Not Found")) {
		add_check(v, "cuda", GW_CHECK_FAIL, -1, title,
		          gw_xstrdup(_("CUDA Version: Not Found: the driver "
		                       "offers no CUDA")),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (it brings CUDA %s or newer)."),
		                       GW_VERIFY_MIN_DRIVER, GW_VERIFY_MIN_CUDA));
	} else if (gw_version_cmp(q->cuda_version, GW_VERIFY_MIN_CUDA,
	                          &cmp) != 0) {
		add_check(v, "cuda", GW_CHECK_WARN, -1, title,
		          gw_xasprintf(_("cannot read the CUDA Version '%s'"),
		                       q->cuda_version), NULL);
	} else if (cmp >= 0) {
		add_check(v, "cuda", GW_CHECK_PASS, -1, title,
		          gw_xasprintf(_("the driver supports CUDA up to %s (%s or "
		                         "newer needed)"),
		                       q->cuda_version, GW_VERIFY_MIN_CUDA), NULL);
	} else {
		add_check(v, "cuda", GW_CHECK_FAIL, -1, title,
		          gw_xasprintf(_("the driver supports CUDA up to %s; vLLM "
		                         "for Llama 3 needs CUDA %s or newer"),
		                       q->cuda_version, GW_VERIFY_MIN_CUDA),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (it brings CUDA %s or newer)."),
		                       GW_VERIFY_MIN_DRIVER, GW_VERIFY_MIN_CUDA));
	}
}

static void
check_virt(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	char *title = gw_xasprintf(_("Checking GPU %s: Virtualization Mode"),
	                           g->bus_id);

	switch (g->virt_mode) {
	case GW_VIRT_PASSTHROUGH:
		add_check(v, "virt-mode", GW_CHECK_PASS, i, title,
		          gw_xstrdup(_("Pass-Through: the whole GPU is passed "
		                       "through to this VM (DirectPath I/O)")),
		          NULL);
		break;
	case GW_VIRT_VGPU:
		add_check(v, "virt-mode", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("VGPU: a vGPU guest (%s)"),
		                       g->product_name ? g->product_name : "?"),
		          NULL);
		break;
	case GW_VIRT_HOST_VGPU:
		add_check(v, "virt-mode", GW_CHECK_FAIL, i, title,
		          gw_xstrdup(_("Host VGPU: this capture comes from the "
		                       "hypervisor host running the vGPU manager, "
		                       "not from a guest")),
		          gw_xstrdup(_("Run nvidia-smi -q inside the VM and verify "
		                       "that output.")));
		break;
	case GW_VIRT_NONE:
		add_check(v, "virt-mode", GW_CHECK_WARN, i, title,
		          gw_xstrdup(_("None: the driver sees no hypervisor: bare "
		                       "metal, or a VM that hides it "
		                       "(hypervisor.cpuid.v0 = FALSE)")),
		          gw_xstrdup(_("If this is not the VM's output, run "
		                       "nvidia-smi -q inside the VM.")));
		break;
	default:
		add_check(v, "virt-mode", GW_CHECK_WARN, i, title,
		          g->virt_mode_text ?
		          gw_xasprintf(_("unknown Virtualization Mode '%s'"),
		                       g->virt_mode_text) :
		          gw_xstrdup(_("the capture has no Virtualization Mode "
		                       "line")),
		          NULL);
		break;
	}
}

static char *
uvm_fix(void)
{
	return gw_xstrdup(_("Power the VM off, set pciPassthruN.cfg.enable_uvm "
	                    "= \"1\" for every vGPU N of the VM (pciPassthru0, "
	                    "pciPassthru1, ...), then power it on again (a "
	                    "power-cycle, not a reboot of the guest).  This "
	                    "disables vMotion of the VM's vGPUs."));
}

static void
check_addressing(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	const char *am = g->addressing_mode;
	char *title;

	if (v->host)
		return;
	title = gw_xasprintf(_("Checking GPU %s: Addressing Mode"), g->bus_id);
	if (g->virt_mode == GW_VIRT_VGPU) {
		if (am == NULL)
			add_check(v, "addressing-mode", GW_CHECK_WARN, i, title,
			          gw_xstrdup(_("no Addressing Mode line (older "
			                       "driver): cannot tell whether unified "
			                       "memory reaches this vGPU; NCCL 2.27 "
			                       "and later need it")),
			          uvm_fix());
		else if (gw_strieq(am, "None"))
			add_check(v, "addressing-mode", GW_CHECK_FAIL, i, title,
			          gw_xstrdup(_("Addressing Mode is None on a vGPU: "
			                       "unified memory is not exposed to the "
			                       "guest, and NCCL 2.27 and later fail in "
			                       "ncclCommInitRank with Cuda failure "
			                       "'operation not supported'")),
			          uvm_fix());
		else
			add_check(v, "addressing-mode", GW_CHECK_PASS, i, title,
			          gw_xasprintf(_("Addressing Mode %s: unified memory "
			                         "reaches this vGPU"), am), NULL);
	} else if (g->virt_mode == GW_VIRT_UNKNOWN) {
		add_check(v, "addressing-mode", GW_CHECK_INFO, i, title,
		          gw_xasprintf(_("Addressing Mode %s; it matters for vGPUs "
		                         "only, and the Virtualization Mode is "
		                         "unknown"), am ? am : "-"),
		          NULL);
	} else if (am == NULL) {
		add_check(v, "addressing-mode", GW_CHECK_INFO, i, title,
		          gw_xstrdup(_("no Addressing Mode line (older driver); "
		                       "it matters for vGPUs only")), NULL);
	} else if (gw_strieq(am, "None")) {
		add_check(v, "addressing-mode", GW_CHECK_PASS, i, title,
		          gw_xstrdup(_("Addressing Mode None: normal without a "
		                       "vGPU (enable_uvm is for vGPUs only)")),
		          NULL);
	} else {
		add_check(v, "addressing-mode", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("Addressing Mode %s"), am), NULL);
	}
}

static void
check_license(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	char *title;

	if (g->virt_mode != GW_VIRT_VGPU || g->license_status == NULL)
		return;
	title = gw_xasprintf(_("Checking GPU %s: vGPU license"), g->bus_id);
	if (starts_with_ci(g->license_status, "Licensed"))
		add_check(v, "license", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("License Status: %s"), g->license_status),
		          NULL);
	else
		add_check(v, "license", GW_CHECK_WARN, i, title,
		          gw_xasprintf(_("License Status: %s: NVIDIA restricts an "
		                         "unlicensed vGPU once its grace period "
		                         "ends"), g->license_status),
		          gw_xstrdup(_("Configure the guest's NVIDIA License "
		                       "System client: put the client "
		                       "configuration token in "
		                       "/etc/nvidia/ClientConfigToken/, set "
		                       "FeatureType in /etc/nvidia/gridd.conf, and "
		                       "restart nvidia-gridd.")));
}

/* "256, 65536" */
static char *
bar1_list(const gw_gpu *r)
{
	gw_buf b;
	int k;

	gw_buf_init(&b);
	for (k = 0; k < r->nbar1; k++)
		gw_buf_printf(&b, "%s%lu", k ? ", " : "", r->bar1_mib[k]);
	return gw_buf_steal(&b);
}

/* What to do about a BAR1 that is 0 or far too small. */
static char *
bar1_fix(const gw_verify *v, gw_virt_mode m)
{
	if (m == GW_VIRT_HOST_VGPU)
		return gw_xstrdup(_("Enable Above 4G Decoding (and Resizable BAR, "
		                    "where the GPU has it) in the server's BIOS."));
	if (m == GW_VIRT_NONE) {
		if (v->mmio_gb > 0)
			return gw_xasprintf(_("On bare metal, enable Above 4G "
			                      "Decoding (and Resizable BAR) in the "
			                      "BIOS.  In a VM that hides the "
			                      "hypervisor, power it off, set "
			                      "pciPassthru.use64bitMMIO = \"TRUE\" and "
			                      "pciPassthru.64bitMMIOSizeGB = \"%llu\", "
			                      "then power it on."),
			                    (unsigned long long)v->mmio_gb);
		return gw_xstrdup(_("On bare metal, enable Above 4G Decoding (and "
		                    "Resizable BAR) in the BIOS.  In a VM that "
		                    "hides the hypervisor, set the 64-bit MMIO "
		                    "window (gpuwiz mmio computes it)."));
	}
	if (v->mmio_gb > 0)
		return gw_xasprintf(_("Power the VM off, set "
		                      "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                      "pciPassthru.64bitMMIOSizeGB = \"%llu\" (the "
		                      "rule for %llu GB of GPU memory in this VM: "
		                      "rounded up to a power of two, then "
		                      "doubled), then power it on."),
		                    (unsigned long long)v->mmio_gb,
		                    (unsigned long long)v->total_vram_gb);
	return gw_xstrdup(_("Power the VM off, set pciPassthru.use64bitMMIO = "
	                    "\"TRUE\" and pciPassthru.64bitMMIOSizeGB to the "
	                    "VM's total GPU memory in GB rounded up to a power "
	                    "of two, then doubled (gpuwiz mmio --gpu SPEC "
	                    "computes it), then power it on."));
}

static void
check_bar1(gw_verify *v, const gw_nvsmi_gpu *g, int i, const gw_gpu *r)
{
	long long bar = g->bar1_total_mib;
	int vm = g->virt_mode != GW_VIRT_NONE &&
	         g->virt_mode != GW_VIRT_HOST_VGPU;
	char *title = gw_xasprintf(_("Checking GPU %s: BAR1"), g->bus_id);

	if (bar == GW_NVSMI_ABSENT) {
		add_check(v, "bar1", GW_CHECK_WARN, i, title,
		          gw_xstrdup(_("the capture has no BAR1 Memory Usage "
		                       "Total")), NULL);
	} else if (bar == GW_NVSMI_NA) {
		if (g->addressing_mode && gw_strieq(g->addressing_mode, "ATS"))
			add_check(v, "bar1", GW_CHECK_PASS, i, title,
			          gw_xstrdup(_("BAR1 total N/A, as nvidia-smi reports "
			                       "it with Addressing Mode ATS (Grace "
			                       "Hopper)")), NULL);
		else
			add_check(v, "bar1", GW_CHECK_WARN, i, title,
			          gw_xstrdup(_("BAR1 total N/A: the BAR1 cannot be "
			                       "checked from this capture")),
			          gw_xstrdup(_("Check the GPU's BARs with lspci -vv "
			                       "and dmesg | grep NVRM.")));
	} else if (bar < 0) {
		add_check(v, "bar1", GW_CHECK_WARN, i, title,
		          gw_xasprintf(_("cannot read the BAR1 total '%s'"),
		                       g->bar1_total_text), NULL);
	} else if (bar == 0) {
		add_check(v, "bar1", GW_CHECK_WARN, i, title,
		          gw_xstrdup(vm ? _("BAR1 total is 0 MiB: the GPU's BAR1 "
		                            "is not assigned, so the VM's 64-bit "
		                            "MMIO window is likely too small")
		                        : _("BAR1 total is 0 MiB: the GPU's BAR1 "
		                            "is not assigned")),
		          bar1_fix(v, g->virt_mode));
	} else if (g->virt_mode == GW_VIRT_VGPU) {
		add_check(v, "bar1", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB: vGPU profiles map a "
		                         "small BAR1"), bar), NULL);
	} else if (r != NULL && r->nbar1 > 0 &&
	           (unsigned long long)bar < r->bar1_mib[0]) {
		char *seen = bar1_list(r);

		add_check(v, "bar1", GW_CHECK_WARN, i, title,
		          vm ? gw_xasprintf(_("BAR1 total %lld MiB is far below the "
		                              "%s MiB seen for table row %s: the VM's 64-bit "
		                              "MMIO window is likely too small"),
		                            bar, seen, r->id)
		             : gw_xasprintf(_("BAR1 total %lld MiB is far below the "
		                              "%s MiB seen for table row %s"),
		                            bar, seen, r->id),
		          bar1_fix(v, g->virt_mode));
		free(seen);
	} else if (r != NULL && r->nbar1 > 0) {
		char *seen = bar1_list(r);

		add_check(v, "bar1", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB (%s MiB seen for table row %s)"),
		                       bar, seen, r->id), NULL);
		free(seen);
	} else {
		add_check(v, "bar1", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("BAR1 total %lld MiB: assigned (the table "
		                         "has no BAR1 size for this GPU to "
		                         "compare)"), bar), NULL);
	}
}

static void
check_fb(gw_verify *v, const gw_nvsmi_gpu *g, int i, const gw_gpu *r)
{
	long long fb = g->fb_total_mib;
	char *title = gw_xasprintf(_("Checking GPU %s: framebuffer"), g->bus_id);
	long long table_mib = r != NULL && r->vram_gb > 0 ?
	                      (long long)r->vram_gb * 1024 : 0;

	if (fb == GW_NVSMI_ABSENT) {
		add_check(v, "fb", GW_CHECK_WARN, i, title,
		          gw_xstrdup(_("the capture has no FB Memory Usage Total")),
		          NULL);
	} else if (fb < 0) {
		add_check(v, "fb", GW_CHECK_WARN, i, title,
		          gw_xasprintf(_("cannot read the FB total '%s'"),
		                       g->fb_total_text), NULL);
	} else if (fb == 0) {
		add_check(v, "fb", GW_CHECK_WARN, i, title,
		          gw_xstrdup(_("FB total is 0 MiB")),
		          gw_xstrdup(_("Check the GPU's messages: dmesg | grep "
		                       "NVRM.")));
	} else if (table_mib == 0) {
		add_check(v, "fb", GW_CHECK_INFO, i, title,
		          gw_xasprintf(_("FB total %lld MiB (not compared: the GPU "
		                         "or its VRAM is not in the table)"), fb),
		          NULL);
	} else if (g->virt_mode == GW_VIRT_VGPU) {
		if (fb <= table_mib)
			add_check(v, "fb", GW_CHECK_PASS, i, title,
			          gw_xasprintf(_("FB total %lld MiB: the vGPU "
			                         "profile's share of the %d GB physical "
			                         "GPU (table row %s)"),
			                       fb, r->vram_gb, r->id), NULL);
		else
			add_check(v, "fb", GW_CHECK_WARN, i, title,
			          gw_xasprintf(_("FB total %lld MiB is more than the "
			                         "%d GB of table row %s"),
			                       fb, r->vram_gb, r->id), NULL);
	} else if (fb * 100 < table_mib * 85) {
		add_check(v, "fb", GW_CHECK_WARN, i, title,
		          gw_xasprintf(_("FB total %lld MiB is well below the %d GB "
		                         "of table row %s: another model with the same PCI "
		                         "id, or memory the driver cannot use"),
		                       fb, r->vram_gb, r->id),
		          gw_xstrdup(_("Compare the Product Name with the GPU you "
		                       "expect, and check dmesg | grep NVRM.")));
	} else if (fb * 100 > table_mib * 105) {
		add_check(v, "fb", GW_CHECK_WARN, i, title,
		          gw_xasprintf(_("FB total %lld MiB is more than the %d GB "
		                         "of table row %s"),
		                       fb, r->vram_gb, r->id), NULL);
	} else {
		add_check(v, "fb", GW_CHECK_PASS, i, title,
		          gw_xasprintf(_("FB total %lld MiB matches the %d GB of table row %s"),
		                       fb, r->vram_gb, r->id), NULL);
	}
}

/* VRAM of the capture's GPUs for the MMIO rule: the table's VRAM (the
 * physical GPU's, for a vGPU too), else the FB total of a passthrough
 * GPU.  0 when any is unknown or the capture lacks some attached GPUs. */
static uint64_t
total_vram(const gw_nvsmi *q, const gw_verify *v)
{
	uint64_t total = 0;
	size_t i;

	if (q->ngpus == 0 || q->attached_gpus > (int)q->ngpus)
		return 0;
	for (i = 0; i < q->ngpus; i++) {
		const gw_nvsmi_gpu *g = &q->gpus[i];

		if (v->rows[i] != NULL && v->rows[i]->vram_gb > 0)
			total += (uint64_t)v->rows[i]->vram_gb;
		else if (g->virt_mode != GW_VIRT_VGPU && g->fb_total_mib > 0)
			total += ((uint64_t)g->fb_total_mib + 1023) / 1024;
		else
			return 0;
	}
	return total;
}

void
gw_verify_run(const gw_nvsmi *q, const gw_table *t, gw_verify *v)
{
	size_t i;
	gw_err le;

	memset(v, 0, sizeof *v);
	v->ngpus = q->ngpus;
	v->rows = gw_xcalloc(q->ngpus ? q->ngpus : 1, sizeof *v->rows);
	for (i = 0; i < q->ngpus; i++) {
		v->rows[i] = find_row(t, &q->gpus[i]);
		if (q->gpus[i].virt_mode == GW_VIRT_HOST_VGPU)
			v->host = 1;
	}
	v->gpu_count = q->attached_gpus > (int)q->ngpus ? q->attached_gpus
	                                                 : (int)q->ngpus;
	if (!v->host) {
		v->total_vram_gb = total_vram(q, v);
		if (v->total_vram_gb > 0 &&
		    gw_mmio_rule(v->total_vram_gb, &v->mmio_gb, &le) != 0)
			v->total_vram_gb = v->mmio_gb = 0;
	}

	check_gpus(v, q);
	check_driver(v, q);
	check_cuda(v, q);
	for (i = 0; i < q->ngpus; i++) {
		check_virt(v, &q->gpus[i], (int)i);
		check_addressing(v, &q->gpus[i], (int)i);
		check_license(v, &q->gpus[i], (int)i);
		check_bar1(v, &q->gpus[i], (int)i, v->rows[i]);
		check_fb(v, &q->gpus[i], (int)i, v->rows[i]);
	}
	if (!v->host && v->gpu_count >= 2) {
		v->torchrun = gw_xasprintf("torchrun --nproc_per_node=%d %s",
		                           v->gpu_count, GW_NCCL_CHECK_FILE);
		add_check(v, "nccl", GW_CHECK_INFO, -1,
		          gw_xstrdup(_("Checking NCCL across the GPUs")),
		          gw_xasprintf(_("%d GPUs: test an NCCL all-reduce before "
		                         "starting vLLM; each rank should print "
		                         "\"ok %d.0\""),
		                       v->gpu_count, v->gpu_count),
		          gw_xasprintf(_("Save the NCCL check as %s (gpuwiz apply "
		                         "writes it beside the snippets) and run: "
		                         "%s"), GW_NCCL_CHECK_FILE, v->torchrun));
	}
}

/* ---- 3. the command ----------------------------------------------------- */

static char *
pci_text(unsigned vendor, unsigned device)
{
	if (vendor == 0 && device == 0)
		return NULL;
	return gw_xasprintf("%04x:%04x", vendor, device);
}

static json_t *
jstr(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
jmib(long long x)
{
	return x >= 0 ? json_integer((json_int_t)x) : json_null();
}

static json_t *
verify_json(const gw_nvsmi *q, const gw_verify *v, const char *path)
{
	json_t *o = json_object(), *gpus = json_array(), *checks = json_array();
	json_t *sum = json_object();
	size_t i;

	json_object_set_new(o, "file", json_string(path));
	json_object_set_new(o, "driver_version", jstr(q->driver_version));
	json_object_set_new(o, "cuda_version", jstr(q->cuda_version));
	json_object_set_new(o, "attached_gpus", q->attached_gpus >= 0 ?
	                    json_integer(q->attached_gpus) : json_null());
	json_object_set_new(o, "host", json_boolean(v->host));
	json_object_set_new(o, "nvidia_smi_error", jstr(q->error_text));
	for (i = 0; i < q->ngpus; i++) {
		const gw_nvsmi_gpu *g = &q->gpus[i];
		json_t *j = json_object();
		char *pci = pci_text(g->vendor_id, g->device_id);
		char *sub = pci_text(g->subsys_vendor, g->subsys_device);

		json_object_set_new(j, "bus_id", json_string(g->bus_id));
		json_object_set_new(j, "product_name", jstr(g->product_name));
		json_object_set_new(j, "pci_id", jstr(pci));
		json_object_set_new(j, "subsys_id", jstr(sub));
		json_object_set_new(j, "table_id",
		                    jstr(v->rows[i] ? v->rows[i]->id : NULL));
		json_object_set_new(j, "virtualization_mode",
		                    jstr(g->virt_mode_text));
		json_object_set_new(j, "host_vgpu_mode", jstr(g->host_vgpu_mode));
		json_object_set_new(j, "addressing_mode", jstr(g->addressing_mode));
		json_object_set_new(j, "fb_total_mib", jmib(g->fb_total_mib));
		json_object_set_new(j, "bar1_total_mib", jmib(g->bar1_total_mib));
		json_object_set_new(j, "licensed_product",
		                    jstr(g->licensed_product));
		json_object_set_new(j, "license_status", jstr(g->license_status));
		json_array_append_new(gpus, j);
		free(pci);
		free(sub);
	}
	json_object_set_new(o, "gpus", gpus);
	for (i = 0; i < v->nchecks; i++) {
		const gw_check *c = &v->checks[i];
		json_t *j = json_object();

		json_object_set_new(j, "id", json_string(c->id));
		json_object_set_new(j, "status",
		                    json_string(gw_check_status_id(c->status)));
		json_object_set_new(j, "gpu", c->gpu >= 0 ?
		                    json_string(q->gpus[c->gpu].bus_id) :
		                    json_null());
		json_object_set_new(j, "message", json_string(c->message));
		json_object_set_new(j, "fix", jstr(c->fix));
		json_array_append_new(checks, j);
	}
	json_object_set_new(o, "checks", checks);
	json_object_set_new(o, "mmio_size_gb", v->mmio_gb ?
	                    json_integer((json_int_t)v->mmio_gb) : json_null());
	json_object_set_new(o, "torchrun", jstr(v->torchrun));
	json_object_set_new(sum, "pass", json_integer((json_int_t)v->npass));
	json_object_set_new(sum, "info", json_integer((json_int_t)v->ninfo));
	json_object_set_new(sum, "warn", json_integer((json_int_t)v->nwarn));
	json_object_set_new(sum, "fail", json_integer((json_int_t)v->nfail));
	json_object_set_new(o, "summary", sum);
	return o;
}

#define TITLE_CELLS 56

/* The check rows like virt-host-validate ("Checking ... : PASS", titles
 * padded in cells), each with its message and fix, then the tally: shared
 * by the capture report and the live report. */
static void
print_checks(FILE *f, const gw_verify *v)
{
	size_t i;

	fputs("\n", f);
	for (i = 0; i < v->nchecks; i++) {
		const gw_check *c = &v->checks[i];
		int pad = TITLE_CELLS - gw_text_cells(c->title);

		fprintf(f, "%s%*s : %s\n", c->title, pad > 0 ? pad : 0, "",
		        gw_check_status_label(c->status));
		fprintf(f, "        %s\n", c->message);
		if (c->fix != NULL)
			fprintf(f, _("        fix: %s\n"), c->fix);
	}
	fputs("\n", f);
	fprintf(f, _("Result: %zu PASS, %zu INFO, %zu WARN, %zu FAIL\n"),
	        v->npass, v->ninfo, v->nwarn, v->nfail);
}

static void
print_text(FILE *f, const gw_nvsmi *q, const gw_verify *v, const char *path)
{
	size_t i;
	char att[24] = "-";

	if (q->attached_gpus >= 0)
		snprintf(att, sizeof att, "%d", q->attached_gpus);
	fprintf(f, _("Capture: %s\n"), path);
	/* TRANSLATORS: nvidia-smi's field names: keep them as they are. */
	fprintf(f, _("  Driver Version: %s   CUDA Version: %s   Attached GPUs: %s\n"),
	       q->driver_version ? q->driver_version : "-",
	       q->cuda_version ? q->cuda_version : "-",
	       att);
	if (q->error_text != NULL)
		fprintf(f, "  nvidia-smi: %s\n", q->error_text);
	for (i = 0; i < q->ngpus; i++) {
		const gw_nvsmi_gpu *g = &q->gpus[i];
		char *pci = pci_text(g->vendor_id, g->device_id);

		if (v->rows[i] != NULL)
			fprintf(f, _("  GPU %s: %s (PCI %s, table row %s)\n"), g->bus_id,
			       g->product_name ? g->product_name : "-",
			       pci ? pci : "-", v->rows[i]->id);
		else
			fprintf(f, _("  GPU %s: %s (PCI %s, not in the table)\n"),
			       g->bus_id, g->product_name ? g->product_name : "-",
			       pci ? pci : "-");
		free(pci);
		fprintf(f, _("    Virtualization Mode: %s   Addressing Mode: %s\n"),
		       g->virt_mode_text ? g->virt_mode_text : "-",
		       g->addressing_mode ? g->addressing_mode : "-");
		fprintf(f, _("    FB Memory Usage Total: %s   BAR1 Memory Usage "
		         "Total: %s\n"),
		       g->fb_total_text ? g->fb_total_text : "-",
		       g->bar1_total_text ? g->bar1_total_text : "-");
		if (g->licensed_product != NULL || g->license_status != NULL)
			fprintf(f, _("    vGPU Software Licensed Product: %s (%s)\n"),
			       g->licensed_product ? g->licensed_product : "-",
			       g->license_status ? g->license_status : "-");
	}
	print_checks(f, v);
}

int
gw_verify_command(const gw_table *t, const char *nvsmi_path, int json,
                  gw_err *e)
{
	char *data = NULL;
	size_t len = 0;
	gw_nvsmi q;
	gw_verify v;
	int rc;

	if (nvsmi_path == NULL || *nvsmi_path == '\0') {
		gw_err_set(e, _("--nvidia-smi-q: no file given"));
		return GW_VERIFY_INPUT;
	}
	if (gw_read_file(nvsmi_path, GW_NVSMI_MAX_BYTES, &data, &len, e) != 0)
		return GW_VERIFY_INPUT;
	if (gw_nvsmi_parse(&q, data, len, nvsmi_path, e) != 0) {
		free(data);
		return GW_VERIFY_INPUT;
	}
	free(data);
	gw_verify_run(&q, t, &v);
	if (json) {
		json_t *o = verify_json(&q, &v, nvsmi_path);
		char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		if (s != NULL) {
			puts(s);
			free(s);
		}
		json_decref(o);
	} else {
		print_text(stdout, &q, &v, nvsmi_path);
	}
	fflush(stdout);
	rc = v.nfail > 0 ? GW_VERIFY_FAILED : GW_VERIFY_OK;
	gw_verify_free(&v);
	gw_nvsmi_free(&q);
	return rc;
}

/* ---- 4. the live guest -------------------------------------------------- */

typedef struct live_bar {
	unsigned long long start, end, flags;
} live_bar;

typedef struct live_gpu {
	char *bdf;
	unsigned vendor, device, subv, subd, cls;
	const gw_gpu *row;
	char *driver;
	live_bar bars[6];
	int nres;                /* resource lines read */
	unsigned cfg_bar[6];     /* config space BAR registers */
	int cfg_ok;
} live_gpu;

typedef struct live_sys {
	char *root;              /* prefix, "" for / */
	const char *sysroot;     /* as given, NULL for / */
	live_gpu *gpus;
	size_t ngpus;
	char *version_text;      /* /proc/driver/nvidia/version, NULL absent */
	char *driver_version;
	char *cmdline;
} live_sys;

static void
live_free(live_sys *l)
{
	size_t i;

	for (i = 0; i < l->ngpus; i++) {
		free(l->gpus[i].bdf);
		free(l->gpus[i].driver);
	}
	free(l->gpus);
	free(l->root);
	free(l->version_text);
	free(l->driver_version);
	free(l->cmdline);
}

static char *
live_read(const char *root, const char *rel, size_t max)
{
	char *p = gw_xasprintf("%s/%s", root, rel), *data = NULL;
	size_t len;
	gw_err e;

	if (gw_read_file(p, max, &data, &len, &e) != 0)
		data = NULL;
	free(p);
	return data;
}

/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri ..." ->
 * the first dotted version on the NVRM line. */
static char *
nvrm_version(const char *text)
{
	const char *p = strstr(text, "NVRM version:");
	char tok[64];

	if (p == NULL)
		return NULL;
	p += strlen("NVRM version:");
	while (*p && *p != '\n') {
		size_t n = 0;
		int cmp;

		while (*p == ' ' || *p == '\t')
			p++;
		while (p[n] && !isspace((unsigned char)p[n]))
			n++;
		if (n > 0 && n < sizeof tok) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (strchr(tok, '.') &&
			    gw_version_cmp(tok, "0", &cmp) == 0)
				return gw_xstrdup(tok);
		}
		p += n;
	}
	return NULL;
}

static void
live_scan_dev(live_sys *l, const char *dir, const char *name)
{
	char *p = gw_xasprintf("%s/%s/class", dir, name), *res, *cfg;
	long cls = gw_linux_read_hex(p), v;
	live_gpu *g;
	size_t len;
	gw_err e;

	free(p);
	p = gw_xasprintf("%s/%s/vendor", dir, name);
	v = gw_linux_read_hex(p);
	free(p);
	if (cls < 0 || ((cls >> 16) & 0xff) != 0x03 || v != 0x10de)
		return;
	l->gpus = gw_xrealloc(l->gpus, (l->ngpus + 1) * sizeof *l->gpus);
	g = &l->gpus[l->ngpus++];
	memset(g, 0, sizeof *g);
	g->bdf = gw_xstrdup(name);
	g->vendor = (unsigned)v;
	g->cls = (unsigned)cls;
#define HEX(field, file) do { \
		p = gw_xasprintf("%s/%s/" file, dir, name); \
		v = gw_linux_read_hex(p); \
		g->field = v < 0 ? 0 : (unsigned)v; \
		free(p); } while (0)
	HEX(device, "device");
	HEX(subv, "subsystem_vendor");
	HEX(subd, "subsystem_device");
#undef HEX
	p = gw_xasprintf("%s/%s/driver", dir, name);
	g->driver = gw_linux_link_base(p);
	free(p);
	p = gw_xasprintf("%s/%s/resource", dir, name);
	if (gw_read_file(p, 65536, &res, &len, &e) == 0) {
		char *line = res, *nl;

		for (; g->nres < 6 && *line; line = nl ? nl + 1 : line + strlen(line)) {
			live_bar *b = &g->bars[g->nres];

			nl = strchr(line, '\n');
			if (sscanf(line, "%llx %llx %llx", &b->start, &b->end,
			           &b->flags) != 3)
				break;
			g->nres++;
			if (nl == NULL)
				break;
		}
		free(res);
	}
	free(p);
	p = gw_xasprintf("%s/%s/config", dir, name);
	if (gw_read_file(p, 65536, &cfg, &len, &e) == 0) {
		if (len >= 0x28) {
			int k;

			for (k = 0; k < 6; k++) {
				const unsigned char *c =
					(const unsigned char *)cfg + 0x10 + 4 * k;
				g->cfg_bar[k] = (unsigned)c[0] | (unsigned)c[1] << 8 |
				                (unsigned)c[2] << 16 |
				                (unsigned)c[3] << 24;
			}
			g->cfg_ok = 1;
		}
		free(cfg);
	}
	free(p);
}

static int
live_scan(live_sys *l, const gw_table *t, const char *sysroot, gw_err *e)
{
	char *dir, **names;
	size_t n, i;

	memset(l, 0, sizeof *l);
	l->root = gw_linux_root(sysroot, e);
	if (l->root == NULL)
		return -1;
	l->sysroot = sysroot;
	dir = gw_xasprintf("%s/sys/bus/pci/devices", l->root);
	if (gw_linux_list_dir(dir, &names, &n) == 0) {
		for (i = 0; i < n; i++)
			live_scan_dev(l, dir, names[i]);
		gw_linux_free_list(names, n);
	}
	free(dir);
	for (i = 0; i < l->ngpus; i++) {
		live_gpu *g = &l->gpus[i];

		g->row = t ? gw_table_find_pci(t, g->vendor, g->device, g->subv,
		                               g->subd, NULL) : NULL;
	}
	l->version_text = live_read(l->root, "proc/driver/nvidia/version",
	                            65536);
	if (l->version_text)
		l->driver_version = nvrm_version(l->version_text);
	l->cmdline = live_read(l->root, "proc/cmdline", 65536);
	return 0;
}

/* Is BAR k (0..5) the upper half of a 64-bit memory BAR? */
static int
upper_half(const live_gpu *g, int k)
{
	unsigned r;

	if (k == 0 || !g->cfg_ok)
		return 0;
	r = g->cfg_bar[k - 1];
	return !(r & 1) && ((r >> 1) & 3) == 2 && !upper_half(g, k - 1);
}

static void
live_checks(const live_sys *l, gw_verify *v)
{
	size_t i;
	uint64_t total = 0;
	int all_known = l->ngpus > 0;
	gw_err le;
	int cmp;
	char *title;

	memset(v, 0, sizeof *v);
	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i].row != NULL && l->gpus[i].row->vram_gb > 0)
			total += (uint64_t)l->gpus[i].row->vram_gb;
		else
			all_known = 0;
	}
	if (all_known) {
		v->total_vram_gb = total;
		if (gw_mmio_rule(total, &v->mmio_gb, &le) != 0)
			v->total_vram_gb = v->mmio_gb = 0;
	}
	v->gpu_count = (int)l->ngpus;

	title = gw_xstrdup(_("Checking that the GPUs are visible"));
	if (l->ngpus == 0) {
		add_check(v, "gpus", GW_CHECK_FAIL, -1, title,
		          gw_xasprintf(_("no NVIDIA display device under %s"
		                         "/sys/bus/pci/devices"),
		                       *l->root ? l->root : ""),
		          gw_xstrdup(_("Check that the VM has the GPU (a PCI device "
		                       "or a vGPU in its settings), that lspci shows "
		                       "an NVIDIA device, and dmesg | grep NVRM.")));
	} else {
		gw_buf b;

		gw_buf_init(&b);
		for (i = 0; i < l->ngpus; i++)
			gw_buf_printf(&b, "%s%s", i ? ", " : "", l->gpus[i].bdf);
		add_check(v, "gpus", GW_CHECK_PASS, -1, title,
		          gw_xasprintf(_("NVIDIA GPUs on the PCI bus: %zu (%s)"),
		                       l->ngpus, b.data), NULL);
		gw_buf_free(&b);
	}

	title = gw_xstrdup(_("Checking the driver version"));
	if (l->version_text == NULL) {
		add_check(v, "driver", GW_CHECK_FAIL, -1, title,
		          gw_xstrdup(_("the NVIDIA driver is not loaded (no "
		                       "/proc/driver/nvidia/version)")),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (for a vGPU: the guest driver of a "
		                         "vGPU release the host's vGPU manager "
		                         "supports)."), GW_VERIFY_MIN_DRIVER));
	} else if (l->driver_version == NULL ||
	           gw_version_cmp(l->driver_version, GW_VERIFY_MIN_DRIVER,
	                          &cmp) != 0) {
		add_check(v, "driver", GW_CHECK_WARN, -1, title,
		          gw_xstrdup(_("cannot read the driver version in "
		                       "/proc/driver/nvidia/version")), NULL);
	} else if (cmp >= 0) {
		add_check(v, "driver", GW_CHECK_PASS, -1, title,
		          gw_xasprintf(_("driver %s is %s or newer"),
		                       l->driver_version, GW_VERIFY_MIN_DRIVER),
		          NULL);
	} else {
		add_check(v, "driver", GW_CHECK_FAIL, -1, title,
		          gw_xasprintf(_("driver %s is older than %s, the version "
		                         "to use for vLLM with Llama 3"),
		                       l->driver_version, GW_VERIFY_MIN_DRIVER),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (for a vGPU: the guest driver of a "
		                         "vGPU release the host's vGPU manager "
		                         "supports)."), GW_VERIFY_MIN_DRIVER));
	}

	for (i = 0; i < l->ngpus; i++) {
		const live_gpu *g = &l->gpus[i];
		const live_bar *b1 = &g->bars[1];
		char *fix;
		gw_buf miss;
		int k;

		title = gw_xasprintf(_("Checking GPU %s: BAR1"), g->bdf);
		if (g->nres < 2) {
			add_check(v, "bar1", GW_CHECK_WARN, -1, title,
			          gw_xstrdup(_("cannot read the GPU's resource file "
			                       "in sysfs")), NULL);
		} else if (b1->start == 0 || b1->end < b1->start) {
			if (v->mmio_gb > 0)
				fix = bar1_fix(v, GW_VIRT_PASSTHROUGH);
			else
				fix = gw_xstrdup(_("Power the VM off, set "
				                   "pciPassthru.use64bitMMIO = \"TRUE\" "
				                   "and pciPassthru.64bitMMIOSizeGB to the "
				                   "value gpuwiz mmio --vram GB prints "
				                   "(GB: the memory of the VM's GPUs "
				                   "together), then power it on."));
			add_check(v, "bar1", GW_CHECK_FAIL, -1, title,
			          gw_xstrdup(_("BAR1 unassigned: the VM's 64-bit "
			                       "MMIO window is too small")), fix);
		} else {
			add_check(v, "bar1", GW_CHECK_PASS, -1, title,
			          gw_xasprintf(_("BAR1 assigned: %llu MiB at 0x%llx"),
			                       (b1->end - b1->start + 1) >> 20,
			                       b1->start), NULL);
		}
		/* other BARs the config space shows but without an address */
		gw_buf_init(&miss);
		for (k = 0; k < g->nres && g->cfg_ok; k++) {
			if (k == 1 || upper_half(g, k))
				continue;
			if (g->bars[k].start == 0 && g->bars[k].end == 0 &&
			    g->cfg_bar[k] != 0)
				gw_buf_printf(&miss, "%sBAR%d", miss.len ? ", " : "",
				              k);
		}
		if (miss.len > 0)
			add_check(v, "bars", GW_CHECK_FAIL, -1,
			          gw_xasprintf(_("Checking GPU %s: other BARs"),
			                       g->bdf),
			          gw_xasprintf(_("%s unassigned although the config "
			                         "space has them"), miss.data),
			          gw_xstrdup(_("Check dmesg for \"BAR ... no space\" "
			                       "and set the VM's 64-bit MMIO window "
			                       "(gpuwiz mmio computes it).")));
		gw_buf_free(&miss);
	}
}

static char *
live_pci(const live_gpu *g)
{
	return gw_xasprintf("%04x:%04x", g->vendor, g->device);
}

static void
live_text(FILE *f, const live_sys *l, const gw_verify *v)
{
	size_t i;

	fprintf(f, _("System: %s\n"), l->sysroot && *l->sysroot ? l->sysroot
	                                                        : "/");
	fprintf(f, _("  NVIDIA driver: %s\n"),
	        l->driver_version ? l->driver_version :
	        l->version_text ? "?" : _("not loaded"));
	for (i = 0; i < l->ngpus; i++) {
		const live_gpu *g = &l->gpus[i];
		char *pci = live_pci(g);

		if (g->row != NULL)
			fprintf(f, _("  GPU %s: %s (PCI %s, table row %s)\n"),
			        g->bdf, g->row->name, pci, g->row->id);
		else
			fprintf(f, _("  GPU %s: %s (PCI %s, not in the table)\n"),
			        g->bdf, "-", pci);
		free(pci);
	}
	print_checks(f, v);
}

static json_t *
live_json(const live_sys *l, const gw_verify *v, json_t *nvsmi,
          const gw_verify *qv)
{
	json_t *o = json_object(), *gpus = json_array(), *checks = json_array();
	json_t *sum = json_object();
	size_t i, np = v->npass, ni = v->ninfo, nw = v->nwarn, nf = v->nfail;
	int k;

	json_object_set_new(o, "sysroot", json_string(l->sysroot && *l->sysroot
	                                              ? l->sysroot : "/"));
	json_object_set_new(o, "driver_version", jstr(l->driver_version));
	for (i = 0; i < l->ngpus; i++) {
		const live_gpu *g = &l->gpus[i];
		json_t *j = json_object(), *bars = json_array();
		char *pci = live_pci(g), *sub = pci_text(g->subv, g->subd);

		json_object_set_new(j, "bdf", json_string(g->bdf));
		json_object_set_new(j, "pci_id", json_string(pci));
		json_object_set_new(j, "subsys_id", jstr(sub));
		json_object_set_new(j, "table_id", jstr(g->row ? g->row->id
		                                               : NULL));
		json_object_set_new(j, "driver", jstr(g->driver));
		for (k = 0; k < g->nres; k++) {
			const live_bar *b = &g->bars[k];
			json_t *jb;

			if (b->start == 0 && b->end == 0 &&
			    !(g->cfg_ok && g->cfg_bar[k] != 0 && !upper_half(g, k)) &&
			    k != 1)
				continue;
			jb = json_object();
			json_object_set_new(jb, "index", json_integer(k));
			json_object_set_new(jb, "start", json_integer(
				(json_int_t)b->start));
			json_object_set_new(jb, "size", json_integer(
				b->start != 0 && b->end >= b->start ?
				(json_int_t)(b->end - b->start + 1) : 0));
			json_array_append_new(bars, jb);
		}
		json_object_set_new(j, "bars", bars);
		json_array_append_new(gpus, j);
		free(pci);
		free(sub);
	}
	json_object_set_new(o, "gpus", gpus);
	for (i = 0; i < v->nchecks; i++) {
		const gw_check *c = &v->checks[i];
		json_t *j = json_object();

		json_object_set_new(j, "id", json_string(c->id));
		json_object_set_new(j, "status",
		                    json_string(gw_check_status_id(c->status)));
		json_object_set_new(j, "message", json_string(c->message));
		json_object_set_new(j, "fix", jstr(c->fix));
		json_array_append_new(checks, j);
	}
	json_object_set_new(o, "checks", checks);
	json_object_set_new(o, "mmio_size_gb", v->mmio_gb ?
	                    json_integer((json_int_t)v->mmio_gb) : json_null());
	json_object_set_new(o, "nvidia_smi_q", nvsmi ? nvsmi : json_null());
	if (qv) {
		np += qv->npass;
		ni += qv->ninfo;
		nw += qv->nwarn;
		nf += qv->nfail;
	}
	json_object_set_new(sum, "pass", json_integer((json_int_t)np));
	json_object_set_new(sum, "info", json_integer((json_int_t)ni));
	json_object_set_new(sum, "warn", json_integer((json_int_t)nw));
	json_object_set_new(sum, "fail", json_integer((json_int_t)nf));
	json_object_set_new(o, "summary", sum);
	return o;
}

/* ---- the support bundle ------------------------------------------------- */

static const char bundle_readme[] =
	/* Not translated: it is read by NVIDIA / VMware support. */
	"gpuwiz support bundle\n"
	"=====================\n\n"
	"Written by `gpuwiz verify --bundle` in the guest.  It holds:\n\n"
	"  README.txt                    this file\n"
	"  verify.txt, verify.json       the gpuwiz verify report\n"
	"  nvidia-smi-q.txt              the nvidia-smi -q capture given with\n"
	"                                --nvidia-smi-q (when given)\n"
	"  proc-driver-nvidia-version.txt  /proc/driver/nvidia/version (when\n"
	"                                the driver is loaded)\n"
	"  proc-cmdline.txt              /proc/cmdline\n"
	"  lspci.txt                     the NVIDIA PCI devices as sysfs shows\n"
	"                                them: ids, class, driver, resources\n\n"
	"It never holds secrets: no environment variables, no vGPU license\n"
	"tokens (/etc/nvidia/ClientConfigToken/), no ssh keys, no passwords.\n\n"
	"Add to the support ticket yourself:\n"
	"  - the vLLM and NCCL versions in the image, and those of the last\n"
	"    image that worked;\n"
	"  - the hypervisor and its version, the vGPU profile in use and the\n"
	"    number of vGPUs on the VM;\n"
	"  - the GPU driver and CUDA versions on the hypervisor host;\n"
	"  - the output of nvidia-smi, nvidia-smi -q and nvidia-smi topo -m\n"
	"    from inside the container;\n"
	"  - confirmation that enable_uvm is set for every vGPU on the VM and\n"
	"    that the VM was power-cycled afterwards;\n"
	"  - the NCCL_DEBUG=INFO log from a failing start;\n"
	"  - whether the minimal NCCL test passes or fails.\n";

static char *
lspci_text(const live_sys *l)
{
	gw_buf b;
	size_t i;
	int k;

	gw_buf_init(&b);
	gw_buf_puts(&b, "");
	for (i = 0; i < l->ngpus; i++) {
		const live_gpu *g = &l->gpus[i];

		gw_buf_printf(&b, "%s vendor 0x%04x device 0x%04x class 0x%06x "
		              "subsystem 0x%04x:0x%04x\n", g->bdf, g->vendor,
		              g->device, g->cls, g->subv, g->subd);
		gw_buf_printf(&b, "\tKernel driver in use: %s\n",
		              g->driver ? g->driver : "(none)");
		for (k = 0; k < g->nres; k++) {
			const live_bar *r = &g->bars[k];

			if (r->start == 0 && r->end == 0)
				gw_buf_printf(&b, "\tRegion %d: unassigned "
				              "(config 0x%08x)\n", k,
				              g->cfg_ok ? g->cfg_bar[k] : 0);
			else
				gw_buf_printf(&b, "\tRegion %d: start 0x%llx end "
				              "0x%llx flags 0x%llx\n", k, r->start,
				              r->end, r->flags);
		}
	}
	if (l->ngpus == 0)
		gw_buf_puts(&b, "no NVIDIA display device\n");
	return gw_buf_steal(&b);
}

static int
stage_put(const char *dir, const char *name, const char *data, size_t len,
          char ***names, size_t *n)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644), rc = 0;

	if (fd < 0 || gw_write_all(fd, data, len) != 0)
		rc = -1;
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (fd >= 0) {
		*names = gw_xrealloc(*names, (*n + 1) * sizeof **names);
		(*names)[(*n)++] = p;
	} else {
		free(p);
	}
	return rc;
}

static int
run_tar(const char *out, const char *stage)
{
	static char *const envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	const char *tar = access("/bin/tar", X_OK) == 0 ? "/bin/tar"
	                                                : "/usr/bin/tar";
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *argv[] = { (char *)"tar", (char *)"-czf", (char *)out,
		                 (char *)"-C", (char *)stage,
		                 (char *)"gpuwiz-support", NULL };
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
		}
		execve(tar, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return gw_xstrdup(".");
	if (s == path)
		return gw_xstrdup("/");
	return gw_xstrndup(path, (size_t)(s - path));
}

static int
write_bundle(const char *out, const live_sys *l, const char *nvsmi_data,
             size_t nvsmi_len, const char *text, const char *js, gw_err *e)
{
	char *dir = dir_of(out), *stage = NULL, *sub = NULL, *tmp = NULL;
	char **names = NULL, *lsp;
	size_t n = 0, i;
	int rc = -1, fd;

	stage = gw_xasprintf("%s/.gpuwiz-bundle-XXXXXX", dir);
	if (mkdtemp(stage) == NULL) {
		gw_err_set(e, _("--bundle %s: cannot create a temporary "
		                "directory in %s: %s"), out, dir, strerror(errno));
		free(stage);
		free(dir);
		return -1;
	}
	sub = gw_xasprintf("%s/gpuwiz-support", stage);
	if (mkdir(sub, 0755) != 0)
		goto io;
	lsp = lspci_text(l);
	if (stage_put(sub, "README.txt", bundle_readme,
	              sizeof bundle_readme - 1, &names, &n) != 0 ||
	    stage_put(sub, "verify.txt", text, strlen(text), &names, &n) != 0 ||
	    stage_put(sub, "verify.json", js, strlen(js), &names, &n) != 0 ||
	    (nvsmi_data && stage_put(sub, "nvidia-smi-q.txt", nvsmi_data,
	                             nvsmi_len, &names, &n) != 0) ||
	    (l->version_text &&
	     stage_put(sub, "proc-driver-nvidia-version.txt", l->version_text,
	               strlen(l->version_text), &names, &n) != 0) ||
	    (l->cmdline && stage_put(sub, "proc-cmdline.txt", l->cmdline,
	                             strlen(l->cmdline), &names, &n) != 0) ||
	    stage_put(sub, "lspci.txt", lsp, strlen(lsp), &names, &n) != 0) {
		free(lsp);
		goto io;
	}
	free(lsp);
	tmp = gw_xasprintf("%s/.gpuwiz-bundle-XXXXXX.tar.gz", dir);
	fd = mkstemps(tmp, 7);
	if (fd < 0)
		goto io;
	close(fd);
	if (run_tar(tmp, stage) != 0) {
		gw_err_set(e, _("--bundle %s: tar failed"), out);
		unlink(tmp);
		goto done;
	}
	if (link(tmp, out) != 0) {
		if (errno == EEXIST)
			gw_err_set(e, _("--bundle %s: the file exists; the bundle "
			                "never overwrites a file"), out);
		else
			gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
		unlink(tmp);
		goto done;
	}
	unlink(tmp);
	rc = 0;
	goto done;
io:
	gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
done:
	for (i = 0; i < n; i++) {
		unlink(names[i]);
		free(names[i]);
	}
	free(names);
	rmdir(sub);
	rmdir(stage);
	free(sub);
	free(stage);
	free(tmp);
	free(dir);
	return rc;
}

static char *
json_text_of(json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *r = gw_xasprintf("%s\n", s ? s : "null");

	free(s);
	return r;
}

int
gw_verify_live_command(const gw_table *t, const char *sysroot,
                       const char *nvsmi_path, const char *bundle,
                       int json, gw_err *e)
{
	live_sys l;
	gw_verify v, qv;
	gw_nvsmi q;
	char *data = NULL, *text = NULL, *js = NULL;
	size_t len = 0, tlen = 0;
	int have_q = 0, rc;
	json_t *o, *jq = NULL;
	FILE *f;
	struct stat st;

	if (bundle != NULL && *bundle == '\0') {
		gw_err_set(e, _("--bundle: no file given"));
		return GW_VERIFY_INPUT;
	}
	if (bundle != NULL && lstat(bundle, &st) == 0) {
		gw_err_set(e, _("--bundle %s: the file exists; the bundle never "
		                "overwrites a file"), bundle);
		return GW_VERIFY_INPUT;
	}
	if (nvsmi_path != NULL) {
		if (*nvsmi_path == '\0') {
			gw_err_set(e, _("--nvidia-smi-q: no file given"));
			return GW_VERIFY_INPUT;
		}
		if (gw_read_file(nvsmi_path, GW_NVSMI_MAX_BYTES, &data, &len,
		                 e) != 0)
			return GW_VERIFY_INPUT;
		if (gw_nvsmi_parse(&q, data, len, nvsmi_path, e) != 0) {
			free(data);
			return GW_VERIFY_INPUT;
		}
		have_q = 1;
	}
	if (live_scan(&l, t, sysroot, e) != 0) {
		if (have_q)
			gw_nvsmi_free(&q);
		free(data);
		return GW_VERIFY_INPUT;
	}
	live_checks(&l, &v);
	if (have_q) {
		gw_verify_run(&q, t, &qv);
		jq = verify_json(&q, &qv, nvsmi_path);
	}
	o = live_json(&l, &v, jq, have_q ? &qv : NULL);
	js = json_text_of(o);
	json_decref(o);
	f = open_memstream(&text, &tlen);
	if (f == NULL)
		abort();
	live_text(f, &l, &v);
	if (have_q) {
		fputs("\n", f);
		print_text(f, &q, &qv, nvsmi_path);
	}
	fclose(f);
	rc = v.nfail > 0 || (have_q && qv.nfail > 0) ? GW_VERIFY_FAILED
	                                             : GW_VERIFY_OK;
	if (bundle != NULL &&
	    write_bundle(bundle, &l, data, len, text, js, e) != 0)
		rc = GW_VERIFY_INPUT;
	if (rc != GW_VERIFY_INPUT) {
		fputs(json ? js : text, stdout);
		fflush(stdout);
		if (bundle != NULL)
			fprintf(stderr, _("gpuwiz verify: support bundle written "
			                  "to %s\n"), bundle);
	}
	free(text);
	free(js);
	free(data);
	gw_verify_free(&v);
	if (have_q) {
		gw_verify_free(&qv);
		gw_nvsmi_free(&q);
	}
	live_free(&l);
	return rc;
}
