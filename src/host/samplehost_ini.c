/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_ini.c: reading a sample's host.ini (see samplehost.h for the
 * schema): typed keys whose errors name the file, the section and the key,
 * the known sections and keys, and a linux sample's [host]. */
#include "samplehost_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host.ini --------------------------------------------------------- */


dictionary *
smp_load_ini(const char *path, gw_err *e)
{
	dictionary *d;

	/* gw_ini_load names a file it cannot open (iniparser only says
	 * NULL) and refuses one that is not a regular file */
	if ((d = gw_ini_load(path, e)) == NULL)
		return NULL;
	return d;
}

const char *
smp_ini_get(const dictionary *d, const char *sec, const char *key)
{
	char full[256];

	snprintf(full, sizeof full, "%s:%s", sec, key);
	return iniparser_getstring(d, full, NULL);
}

static int
missing(const ini_ctx *c, const char *sec, const char *key)
{
	gw_err_set(c->e, _("%s: [%s] %s is missing"), c->path, sec, key);
	return -1;
}

/* A required (or, with required 0, optional: *out untouched) string. */
int
smp_get_str(const ini_ctx *c, const char *sec, const char *key, int required,
            const char **out)
{
	const char *v = smp_ini_get(c->d, sec, key);

	if (v == NULL || *v == '\0')
		return required ? missing(c, sec, key) : 0;
	*out = v;
	return 0;
}

/* One of choices ("on", "off", NULL).  Returns the index, or -1 with e set;
 * an absent optional key gives dflt. */
static int
smp_get_enum(const ini_ctx *c, const char *sec, const char *key,
             const char *const *choices, int dflt)
{
	const char *v = smp_ini_get(c->d, sec, key);
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
smp_get_uint(const ini_ctx *c, const char *sec, const char *key, unsigned lo,
             unsigned hi, unsigned dflt, unsigned *out)
{
	const char *v = smp_ini_get(c->d, sec, key);
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
int
smp_parse_hex(const char *s, uint64_t max, uint64_t *out)
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

int
smp_get_hex(const ini_ctx *c, const char *sec, const char *key, uint64_t max,
            int required, uint64_t dflt, uint64_t *out)
{
	const char *v = smp_ini_get(c->d, sec, key);

	if (v == NULL || *v == '\0') {
		if (required)
			return missing(c, sec, key);
		*out = dflt;
		return 0;
	}
	if (smp_parse_hex(v, max, out) != 0) {
		gw_err_set(c->e, _("%s: [%s] %s: expected a hex number up to "
		                   "0x%llx, found \"%s\""),
		           c->path, sec, key, (unsigned long long)max, v);
		return -1;
	}
	return 0;
}

static const char *const kind_words[] = { "linux", "esxi", NULL };

/* [host] title and kind of a host.ini (pointers into d). */
int
smp_host_title_kind(const ini_ctx *c, const char **title, const char **kind)
{
	int k;

	if (smp_get_str(c, "host", "title", 1, title) != 0)
		return -1;
	if ((k = smp_get_enum(c, "host", "kind", kind_words, -1)) < 0)
		return -1;
	*kind = kind_words[k];
	return 0;
}

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
smp_check_keys(const ini_ctx *c, int esxi)
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

static const char *const cpu_words[] = { "intel", "amd", NULL };
static const char *const onoff_words[] = { "on", "off", NULL };
static const char *const acpi_words[] = { "DMAR", "IVRS", "none", NULL };

/* cpu, virt, iommu, interrupt_remapping, acpi. */
static int
linux_host_words(const ini_ctx *c, shost *h)
{
	int k;

	if ((k = smp_get_enum(c, "host", "cpu", cpu_words, -1)) < 0)
		return -1;
	h->amd = k == 1;
	if ((k = smp_get_enum(c, "host", "virt", onoff_words, 0)) < 0)
		return -1;
	h->virt = k == 0;
	if ((k = smp_get_enum(c, "host", "iommu", onoff_words, -1)) < 0)
		return -1;
	h->iommu = k == 0;
	if ((k = smp_get_enum(c, "host", "interrupt_remapping", onoff_words,
	                      h->iommu ? 0 : 1)) < 0)
		return -1;
	h->ir = k == 0;
	if ((k = smp_get_enum(c, "host", "acpi", acpi_words, -1)) < 0)
		return -1;
	h->acpi = k == 2 ? NULL : acpi_words[k];
	return 0;
}

/* cpu_model, kernel, cmdline, proc_version. */
static int
linux_host_texts(const ini_ctx *c, shost *h)
{
	h->cpu_model = h->amd ? "AMD Ryzen 9 5950X 16-Core Processor"
	                      : "Intel(R) Xeon(R) Gold 6146 CPU @ 3.20GHz";
	if (smp_get_str(c, "host", "cpu_model", 0, &h->cpu_model) != 0 ||
	    smp_get_str(c, "host", "kernel", 1, &h->kernel) != 0 ||
	    smp_get_str(c, "host", "cmdline", 1, &h->cmdline) != 0)
		return -1;
	h->proc_version = NULL;
	if (smp_get_str(c, "host", "proc_version", 0, &h->proc_version) != 0)
		return -1;
	if (!smp_word_ok(h->kernel, ".-_+~")) {
		gw_err_set(c->e, _("%s: [%s] %s: expected a kernel release such "
		                   "as 6.1.0-18-amd64, found \"%s\""),
		           c->path, "host", "kernel", h->kernel);
		return -1;
	}
	return 0;
}

/* The CPU numbers, the IOMMU units and their cap / ecap. */
static int
linux_host_numbers(const ini_ctx *c, shost *h)
{
	if (smp_get_uint(c, "host", "cpu_family", 0, 255, h->amd ? 25 : 6,
	                 &h->family) != 0 ||
	    smp_get_uint(c, "host", "cpu_model_number", 0, 255, h->amd ? 33 : 85,
	                 &h->model) != 0 ||
	    smp_get_uint(c, "host", "cpu_stepping", 0, 15, 0, &h->stepping) != 0 ||
	    smp_get_uint(c, "host", "cpus", 1, SAMPLE_MAX_CPUS, 4, &h->cpus) != 0 ||
	    smp_get_uint(c, "host", "iommu_units", 0, SAMPLE_MAX_UNITS,
	                 h->iommu ? 1 : 0, &h->units) != 0)
		return -1;
	/* A real Skylake-SP unit (dmesg "cap 8d2078c106f0466 ecap f020df"). */
	if (smp_get_hex(c, "host", "cap", UINT64_MAX, 0, 0x8d2078c106f0466ULL,
	                &h->cap) != 0 ||
	    smp_get_hex(c, "host", "ecap", UINT64_MAX, 0,
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
	return 0;
}

/* One [devN] section more, its address not seen before. */
static int
linux_dev(const ini_ctx *c, const char *sec, shost *h)
{
	sdev *d;

	if (h->ndevs >= SAMPLE_MAX_DEVS) {
		gw_err_set(c->e, _("%s: more than %d devices"), c->path,
		           SAMPLE_MAX_DEVS);
		return -1;
	}
	h->devs = gw_xrealloc(h->devs, (h->ndevs + 1) * sizeof *h->devs);
	d = &h->devs[h->ndevs];
	if (smp_parse_dev(c, sec, h, d) != 0)
		return -1;
	for (size_t j = 0; j < h->ndevs; j++)
		if (strcmp(h->devs[j].bdf, d->bdf) == 0) {
			gw_err_set(c->e, _("%s: [%s] bdf %s is also in [%s]"),
			           c->path, sec, d->bdf, h->devs[j].sec);
			return -1;
		}
	h->ndevs++;
	return 0;
}

/* A function shares its slot with another: the multi-function bit. */
static void
linux_multi(shost *h)
{
	for (size_t j = 0; j < h->ndevs; j++)
		for (size_t m = 0; m < h->ndevs; m++)
			if (m != j && h->devs[m].dom == h->devs[j].dom &&
			    h->devs[m].bus == h->devs[j].bus &&
			    h->devs[m].dev == h->devs[j].dev)
				h->devs[j].multi = 1;
}

/* The [host] and [devN] of a linux sample (strings point into c->d). */
static int
smp_parse_linux(const ini_ctx *c, shost *h)
{
	int nsec, i;

	memset(h, 0, sizeof *h);
	if (linux_host_words(c, h) != 0 || linux_host_texts(c, h) != 0 ||
	    linux_host_numbers(c, h) != 0)
		return -1;
	nsec = iniparser_getnsec(c->d);
	for (i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(c->d, i);

		if (strcmp(sec, "host") != 0 && linux_dev(c, sec, h) != 0)
			return -1;
	}
	linux_multi(h);
	return 0;
}

/* host.ini at path read and checked whole: *d the dictionary (NULL when
 * the file did not load; the caller frees it, on failure too), *title and
 * *kind pointing into it, and for a linux sample *h (h->devs the caller's
 * to free, on failure too). */
int
smp_read_host(const char *path, dictionary **d, const char **title,
              const char **kind, shost *h, gw_err *e)
{
	ini_ctx c;

	memset(h, 0, sizeof *h);
	if ((*d = smp_load_ini(path, e)) == NULL)
		return -1;
	c.d = *d;
	c.path = path;
	c.e = e;
	if (smp_host_title_kind(&c, title, kind) != 0 ||
	    smp_check_keys(&c, strcmp(*kind, "esxi") == 0) != 0)
		return -1;
	if (strcmp(*kind, "linux") == 0 && smp_parse_linux(&c, h) != 0)
		return -1;
	return 0;
}
