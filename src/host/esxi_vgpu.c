/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_vgpu.c: the parsers of esxi_vgpu.h: esxcli graphics host get,
 * esxcli software vib list and the ECC / MIG lines of nvidia-smi -q. */
#include "esxi_int.h"
#include "esxi_vgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- esxcli graphics host get ------------------------------------------ */

void
gw_esxi_graphics_free(gw_esxi_graphics *g)
{
	if (g == NULL)
		return;
	free(g->default_type);
	free(g->policy);
	g->default_type = g->policy = NULL;
}

int
gw_esxi_graphics_shared_direct(const char *type)
{
	return type && (gw_strieq(type, "SharedPassthru") ||
	                gw_strieq(type, "sharedDirect") ||
	                gw_strieq(type, "Shared Direct"));
}

/* "Key: Value" into *key / *value (pointers into buf); 0, or -1 when the
 * line has no ':'. */
static int
key_value(const char *line, char *buf, size_t n, char **key, char **value)
{
	char *c;

	snprintf(buf, n, "%s", esxi_skip_blanks(line));
	if ((c = strchr(buf, ':')) == NULL)
		return -1;
	*c = '\0';
	*key = gw_trim(buf);
	*value = gw_trim(c + 1);
	return 0;
}

static int
graphics_line(void *ctx, const char *line, unsigned ln)
{
	gw_esxi_graphics *g = ctx;
	char buf[256], *k, *v;

	(void)ln;
	if (key_value(line, buf, sizeof buf, &k, &v) != 0)
		return 0;
	if (gw_strieq(k, "Default Graphics Type") && g->default_type == NULL)
		g->default_type = gw_xstrdup(v);
	else if (gw_strieq(k, "Shared Passthru Assignment Policy") &&
	         g->policy == NULL)
		g->policy = gw_xstrdup(v);
	return 0;
}

int
gw_esxi_parse_graphics_host(const char *text, const char *name,
                            gw_esxi_graphics *out, gw_err *e)
{
	memset(out, 0, sizeof *out);
	if (esxi_each_line(text, name, GW_ESXI_CMD_GRAPHICS, graphics_line,
	                   out, e) != 0) {
		gw_esxi_graphics_free(out);
		return -1;
	}
	if (out->default_type == NULL || *out->default_type == '\0') {
		esxi_err_input(e, name, _("no 'Default Graphics Type' line in "
		                          "it; expected the output of %s"),
		               GW_ESXI_CMD_GRAPHICS);
		gw_esxi_graphics_free(out);
		return -1;
	}
	return 0;
}

/* ---- esxcli software vib list ------------------------------------------ */

void
gw_esxi_vib_free(gw_esxi_vib *v)
{
	if (v == NULL)
		return;
	free(v->name);
	free(v->version);
	v->name = v->version = NULL;
}

/* Is this VIB name the NVIDIA vGPU host driver: NVD-AIE_..., NVD-VMware_...,
 * NVIDIA-VMware_..., NVIDIA-vGPU-... (any case); not the GPU management
 * daemon (nvd-gpu-mgmt-daemon)? */
static int
vib_vgpu_manager(const char *name)
{
	static const char *const prefixes[] = {
		"NVD-AIE", "NVD-VMware", "NVD-VGPU", "NVIDIA-VMware",
		"NVIDIA-vGPU", "NVIDIA-AIE"
	};
	size_t i;

	if (name == NULL || strcasestr(name, "mgmt") != NULL)
		return 0;
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncasecmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* The parser's state: 0 before the header, 1 after it, 2 after the
 * dashes under it. */
typedef struct vib_parse {
	int state;
	gw_esxi_vib *out;
} vib_parse;

/* The first two blank-separated words of s (name and version). */
static int
two_words(const char *s, char *a, char *b, size_t n)
{
	const char *p = esxi_skip_blanks(s), *q;
	size_t w;

	for (q = p; *q && !esxi_is_blank(*q); q++)
		;
	if ((w = (size_t)(q - p)) == 0 || w >= n)
		return -1;
	memcpy(a, p, w);
	a[w] = '\0';
	p = esxi_skip_blanks(q);
	for (q = p; *q && !esxi_is_blank(*q); q++)
		;
	if ((w = (size_t)(q - p)) == 0 || w >= n)
		return -1;
	memcpy(b, p, w);
	b[w] = '\0';
	return 0;
}

static int
vib_line(void *ctx, const char *line, unsigned ln)
{
	vib_parse *ps = ctx;
	char a[160], b[160];

	(void)ln;
	if (ps->state == 0) {
		if (two_words(line, a, b, sizeof a) == 0 &&
		    gw_strieq(a, "Name") && gw_strieq(b, "Version"))
			ps->state = 1;
		return 0;
	}
	if (ps->state == 1) {
		ps->state = esxi_dash_line(line) ? 2 : 0;
		return 0;
	}
	if (ps->out->name == NULL && two_words(line, a, b, sizeof a) == 0 &&
	    vib_vgpu_manager(a)) {
		ps->out->name = gw_xstrdup(a);
		ps->out->version = gw_xstrdup(b);
	}
	return 0;
}

int
gw_esxi_parse_vib_list(const char *text, const char *name, gw_esxi_vib *out,
                       gw_err *e)
{
	vib_parse ps = { .state = 0, .out = out };

	memset(out, 0, sizeof *out);
	if (esxi_each_line(text, name, GW_ESXI_CMD_VIBS, vib_line, &ps,
	                   e) != 0) {
		gw_esxi_vib_free(out);
		return -1;
	}
	if (ps.state != 2) {
		esxi_err_input(e, name, _("no table with the columns 'Name' and "
		                          "'Version' in it; expected the output "
		                          "of %s"), GW_ESXI_CMD_VIBS);
		gw_esxi_vib_free(out);
		return -1;
	}
	return 0;
}

/* ---- nvidia-smi -q: ECC and MIG mode ----------------------------------- */

void
gw_esxi_gpu_modes_free(gw_esxi_gpu_modes *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->v[i].bus_id);
		free(m->v[i].product);
		free(m->v[i].ecc);
		free(m->v[i].mig);
	}
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* The parser's state. */
typedef struct modes_parse {
	gw_esxi_gpu_modes *out;
	size_t cap;
	char section[64];        /* the sub-section of the GPU we are in */
} modes_parse;

/* "GPU 00000000:3B:00.0" at the start of a line: a GPU's section. */
static int
gpu_header(modes_parse *ps, const char *line)
{
	gw_esxi_gpu_mode *g;

	if (strncmp(line, "GPU ", 4) != 0 || strchr(line + 4, ':') == NULL ||
	    strchr(line + 4, ' ') != NULL)
		return 0;
	ps->out->v = esxi_grow(ps->out->v, ps->out->n, &ps->cap,
	                       sizeof *ps->out->v, 8);
	g = &ps->out->v[ps->out->n++];
	memset(g, 0, sizeof *g);
	g->bus_id = gw_xstrdup(line + 4);
	ps->section[0] = '\0';
	return 1;
}

static void
set_once(char **field, const char *value)
{
	if (*field == NULL)
		*field = gw_xstrdup(value);
}

static int
modes_line(void *ctx, const char *line, unsigned ln)
{
	modes_parse *ps = ctx;
	gw_esxi_gpu_mode *g;
	char buf[256], *k, *v;
	size_t indent = (size_t)(esxi_skip_blanks(line) - line);

	(void)ln;
	if (gpu_header(ps, line) || ps->out->n == 0)
		return 0;
	g = &ps->out->v[ps->out->n - 1];
	if (key_value(line, buf, sizeof buf, &k, &v) != 0) {
		/* a section title: "    ECC Mode" */
		if (indent > 0 && indent <= 4)
			snprintf(ps->section, sizeof ps->section, "%s",
			         esxi_skip_blanks(line));
		return 0;
	}
	if (indent <= 4) {
		ps->section[0] = '\0';
		if (gw_strieq(k, "Product Name"))
			set_once(&g->product, v);
	} else if (gw_strieq(k, "Current") &&
	           gw_strieq(ps->section, "ECC Mode")) {
		set_once(&g->ecc, v);
	} else if (gw_strieq(k, "Current") &&
	           gw_strieq(ps->section, "MIG Mode")) {
		set_once(&g->mig, v);
	}
	return 0;
}

int
gw_esxi_parse_gpu_modes(const char *text, const char *name,
                        gw_esxi_gpu_modes *out, gw_err *e)
{
	modes_parse ps = { .out = out, .cap = 0 };

	memset(out, 0, sizeof *out);
	if (esxi_each_line(text, name, GW_ESXI_CMD_NVSMI, modes_line, &ps,
	                   e) != 0) {
		gw_esxi_gpu_modes_free(out);
		return -1;
	}
	return 0;
}

/* ---- esxcli graphics device list --------------------------------------- */

void
gw_esxi_gdevs_free(gw_esxi_gdevs *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].id);
		free(d->v[i].vendor);
		free(d->v[i].device);
		free(d->v[i].module);
		free(d->v[i].type);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

typedef struct gdev_parse {
	gw_esxi_gdevs *out;
	size_t cap;
	const char *name;
	gw_err *e;
} gdev_parse;

/* A device's block starts with its address alone at the start of the
 * line. */
static int
gdev_start(gdev_parse *ps, const char *line)
{
	unsigned dom, bus, dev, fn;
	char buf[64];
	gw_esxi_gdev *g;

	if (esxi_is_blank(*line) || strlen(line) >= sizeof buf)
		return 0;
	snprintf(buf, sizeof buf, "%s", line);
	gw_trim(buf);
	if (esxi_parse_addr(buf, 0, &dom, &bus, &dev, &fn) != 0)
		return 0;
	ps->out->v = esxi_grow(ps->out->v, ps->out->n, &ps->cap,
	                       sizeof *ps->out->v, 8);
	g = &ps->out->v[ps->out->n++];
	memset(g, 0, sizeof *g);
	g->id = gw_xstrdup(buf);
	g->vms = -1;
	return 1;
}

static int
gdev_line(void *ctx, const char *line, unsigned ln)
{
	gdev_parse *ps = ctx;
	gw_esxi_gdev *g;
	char buf[256], *k, *v, *end, ex[64];

	if (gdev_start(ps, line) || key_value(line, buf, sizeof buf, &k, &v) != 0)
		return 0;
	if (ps->out->n == 0) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a device address (0000:3b:00.0) "
		                "before '%s'; expected the output of %s"),
		              esxi_excerpt(line, ex, sizeof ex),
		              GW_ESXI_CMD_GDEVICES);
		return -1;
	}
	g = &ps->out->v[ps->out->n - 1];
	if (gw_strieq(k, "Vendor Name"))
		set_once(&g->vendor, v);
	else if (gw_strieq(k, "Device Name"))
		set_once(&g->device, v);
	else if (gw_strieq(k, "Module Name"))
		set_once(&g->module, v);
	else if (gw_strieq(k, "Graphics Type"))
		set_once(&g->type, v);
	else if (gw_strieq(k, "Number of VMs") && g->vms < 0) {
		long n = strtol(v, &end, 10);

		if (end != v && *end == '\0' && n >= 0)
			g->vms = n;
	}
	return 0;
}

int
gw_esxi_parse_graphics_devices(const char *text, const char *name,
                               gw_esxi_gdevs *out, gw_err *e)
{
	gdev_parse ps = { .out = out, .cap = 0, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	if (esxi_each_line(text, name, GW_ESXI_CMD_GDEVICES, gdev_line, &ps,
	                   e) != 0) {
		gw_esxi_gdevs_free(out);
		return -1;
	}
	return 0;
}
