/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_report.c: the output of gpuwiz verify (verify_report.h): the
 * capture's report and the live guest's, as text or JSON, rendered from
 * what the command (src/cli/cmd_verify.c) read. */
#include "verify_report.h"
#include "verify_live.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "out.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* ---- JSON --------------------------------------------------------------- */

static char *
pci_text(unsigned vendor, unsigned device)
{
	if (vendor == 0 && device == 0)
		return NULL;
	return gw_xasprintf("%04x:%04x", vendor, device);
}

/* What the capture or the guest said: any bytes, so gw_json_text (an
 * invalid one would make json_string NULL and drop the key). */
static json_t *
jstr(const char *s)
{
	return s != NULL ? gw_json_text(s) : json_null();
}

static json_t *
jmib(long long x)
{
	return x >= 0 ? json_integer((json_int_t)x) : json_null();
}

/* One GPU of the capture; row is its table row or NULL. */
static json_t *
capture_gpu_json(const gw_nvsmi_gpu *g, const gw_gpu *row)
{
	json_t *j = json_object();
	char *pci = pci_text(g->vendor_id, g->device_id);
	char *sub = pci_text(g->subsys_vendor, g->subsys_device);

	json_object_set_new(j, "bus_id", json_string(g->bus_id));
	json_object_set_new(j, "product_name", jstr(g->product_name));
	json_object_set_new(j, "pci_id", jstr(pci));
	json_object_set_new(j, "subsys_id", jstr(sub));
	json_object_set_new(j, "table_id", jstr(row ? row->id : NULL));
	json_object_set_new(j, "virtualization_mode", jstr(g->virt_mode_text));
	json_object_set_new(j, "host_vgpu_mode", jstr(g->host_vgpu_mode));
	json_object_set_new(j, "addressing_mode", jstr(g->addressing_mode));
	json_object_set_new(j, "fb_total_mib", jmib(g->fb_total_mib));
	json_object_set_new(j, "bar1_total_mib", jmib(g->bar1_total_mib));
	json_object_set_new(j, "licensed_product", jstr(g->licensed_product));
	json_object_set_new(j, "license_status", jstr(g->license_status));
	free(pci);
	free(sub);
	return j;
}

/* The "gpu" key of a capture's rows: its GPU's bus id, or null. */
static void
gpu_key(json_t *j, const gw_finding *f, size_t i, void *arg)
{
	const gw_nvsmi *q = arg;

	json_object_set_new(j, "gpu", f->gpu >= 0 ?
	                    json_string(q->gpus[f->gpu].bus_id) : json_null());
}

/* [{"id", "status", "gpu", "message", "fix"}]: with q, "gpu" is the bus
 * id of the row's GPU (or null); without (the live rows), no "gpu". */
static json_t *
checks_json(const gw_verify *v, const gw_nvsmi *q)
{
	gw_finding_extra x = { NULL, gpu_key, (void *)q };

	return gw_findings_json_ext(v->checks, v->nchecks, GW_LAYOUT_VERIFY,
	                            GW_TOPIC_ALL, q ? &x : NULL);
}

static json_t *
summary_json(size_t np, size_t ni, size_t nw, size_t nf)
{
	json_t *sum = json_object();

	json_object_set_new(sum, "pass", json_integer((json_int_t)np));
	json_object_set_new(sum, "info", json_integer((json_int_t)ni));
	json_object_set_new(sum, "warn", json_integer((json_int_t)nw));
	json_object_set_new(sum, "fail", json_integer((json_int_t)nf));
	return sum;
}

static json_t *
mmio_json(const gw_verify *v)
{
	return v->mmio_gb ? json_integer((json_int_t)v->mmio_gb) : json_null();
}

/* The keys before "gpus": what the capture says about the machine. */
static void
head_json(json_t *o, const gw_nvsmi *q, const gw_verify *v, const char *path)
{
	json_object_set_new(o, "file", gw_json_text(path));
	json_object_set_new(o, "driver_version", jstr(q->driver_version));
	json_object_set_new(o, "cuda_version", jstr(q->cuda_version));
	json_object_set_new(o, "attached_gpus", q->attached_gpus >= 0 ?
	                    json_integer(q->attached_gpus) : json_null());
	json_object_set_new(o, "host", json_boolean(v->host));
	json_object_set_new(o, "nvidia_smi_error", jstr(q->error_text));
}

/* The keys after "checks": what the rows decided, and their tally. */
static void
tail_json(json_t *o, const gw_verify *v)
{
	json_object_set_new(o, "mmio_size_gb", mmio_json(v));
	json_object_set_new(o, "torchrun", jstr(v->torchrun));
	json_object_set_new(o, "summary", summary_json(v->npass, v->ninfo,
	                                               v->nwarn, v->nfail));
}

/* ---- text --------------------------------------------------------------- */

/* The check rows like virt-host-validate ("Checking ... : PASS", titles
 * padded in cells; GW_LAYOUT_VERIFY), each with its message and fix. */
static void
print_rows(FILE *f, const gw_verify *v)
{
	gw_findings_print(f, v->checks, v->nchecks, GW_LAYOUT_VERIFY,
	                  GW_TOPIC_ALL);
}

/* The tally after the rows. */
static void
print_tally(FILE *f, const gw_verify *v)
{
	fputs("\n", f);
	fprintf(f, _("Result: %zu PASS, %zu INFO, %zu WARN, %zu FAIL\n"),
	        v->npass, v->ninfo, v->nwarn, v->nfail);
}

/* "-" for what the capture lacks. */
static const char *
dash(const char *s)
{
	return s ? s : "-";
}

/* A GPU of the capture: what it is, its modes and memory, its license. */
static void
print_capture_gpu(FILE *f, const gw_nvsmi_gpu *g, const gw_gpu *row)
{
	char *pci = pci_text(g->vendor_id, g->device_id);

	if (row != NULL)
		fprintf(f, _("  GPU %s: %s (PCI %s, table row %s)\n"), g->bus_id,
		        dash(g->product_name), dash(pci), row->id);
	else
		fprintf(f, _("  GPU %s: %s (PCI %s, not in the table)\n"),
		        g->bus_id, dash(g->product_name), dash(pci));
	free(pci);
	fprintf(f, _("    Virtualization Mode: %s   Addressing Mode: %s\n"),
	        dash(g->virt_mode_text), dash(g->addressing_mode));
	fprintf(f, _("    FB Memory Usage Total: %s   BAR1 Memory Usage "
	             "Total: %s\n"),
	        dash(g->fb_total_text), dash(g->bar1_total_text));
	if (g->licensed_product != NULL || g->license_status != NULL)
		fprintf(f, _("    vGPU Software Licensed Product: %s (%s)\n"),
		        dash(g->licensed_product), dash(g->license_status));
}

/* The capture's facts before its GPUs. */
static void
print_capture_head(FILE *f, const gw_nvsmi *q, const char *path)
{
	char att[24] = "-";

	if (q->attached_gpus >= 0)
		snprintf(att, sizeof att, "%d", q->attached_gpus);
	fprintf(f, _("Capture: %s\n"), path);
	if (q->attached_vgpus)
		/* TRANSLATORS: nvidia-smi's field names: keep them as they are. */
		fprintf(f, _("  Driver Version: %s   CUDA Version: %s   Attached vGPUs: %s\n"),
		        dash(q->driver_version), dash(q->cuda_version), att);
	else
		/* TRANSLATORS: nvidia-smi's field names: keep them as they are. */
		fprintf(f, _("  Driver Version: %s   CUDA Version: %s   Attached GPUs: %s\n"),
		        dash(q->driver_version), dash(q->cuda_version), att);
	if (q->error_text != NULL)
		fprintf(f, "  nvidia-smi: %s\n", q->error_text);
}

/* ---- the capture's report as its rows are made -------------------------- */

/* The rest of the checks of v (begun) in their steps, each GPU's, then
 * the end's: the rows made so far, then after each step its rows, each
 * time handed to put(ctx, v) and dropped. */
static void
rows_by_step(const gw_nvsmi *q, gw_verify *v,
             void (*put)(void *ctx, const gw_verify *v), void *ctx)
{
	size_t i;

	put(ctx, v);
	gw_verify_drop_checks(v);
	for (i = 0; i < q->ngpus; i++) {
		gw_verify_gpu(v, q, i);
		put(ctx, v);
		gw_verify_drop_checks(v);
	}
	gw_verify_end(v);
	put(ctx, v);
	gw_verify_drop_checks(v);
}

static void
print_rows_to(void *f, const gw_verify *v)
{
	print_rows(f, v);
}

/* The capture's text report (v begun) to f, each GPU's rows dropped once
 * printed. */
static void
stream_text(FILE *f, const gw_nvsmi *q, gw_verify *v, const char *path)
{
	size_t i;

	print_capture_head(f, q, path);
	for (i = 0; i < q->ngpus; i++)
		print_capture_gpu(f, &q->gpus[i], v->rows[i]);
	fputs("\n", f);
	rows_by_step(q, v, print_rows_to, f);
	print_tally(f, v);
}

/* The rows made since the last drop as elements of "checks". */
typedef struct rows_out {
	gw_json_out *o;
	const gw_nvsmi *q;
} rows_out;

static void
put_rows(void *ctx, const gw_verify *v)
{
	rows_out *r = ctx;
	json_t *a = checks_json(v, r->q), *x;
	size_t i;

	json_array_foreach(a, i, x)
		gw_json_out_element(r->o, x);
	json_decref(a);
}

/* The capture's JSON report (v begun) as json_dumps would print the
 * whole object at depth levels of nesting (no newline after it), its
 * "gpus" and "checks" one element at a time. */
static void
stream_json(FILE *out, const gw_nvsmi *q, gw_verify *v, const char *path,
            int depth)
{
	gw_json_out o = { out, depth, 1, 0 };
	json_t *x = json_object();
	size_t i;

	head_json(x, q, v, path);
	gw_json_out_members(&o, x);
	json_decref(x);
	gw_json_out_open_array(&o, "gpus");
	for (i = 0; i < q->ngpus; i++) {
		x = capture_gpu_json(&q->gpus[i], v->rows[i]);
		gw_json_out_element(&o, x);
		json_decref(x);
	}
	gw_json_out_close_array(&o);
	gw_json_out_open_array(&o, "checks");
	rows_by_step(q, v, put_rows, &(rows_out){ &o, q });
	gw_json_out_close_array(&o);
	x = json_object();
	tail_json(x, v);
	gw_json_out_members(&o, x);
	json_decref(x);
	gw_json_out_close(&o);
}

size_t
gw_verify_print(FILE *out, const gw_nvsmi *q, const gw_table *t,
                const char *path, unsigned how)
{
	gw_verify v;
	size_t nfail;

	gw_verify_begin(q, t, &v);
	if (how & GW_VERIFY_JSON) {
		stream_json(out, q, &v, path, 0);
		fputs("\n", out);
	} else {
		gw_out_esc x;
		FILE *f = gw_out_escaped_open(out, (how & GW_VERIFY_RAW) != 0, &x);

		stream_text(f, q, &v, path);
		gw_out_escaped_close(f, out);
	}
	nfail = v.nfail;
	gw_verify_free(&v);
	return nfail;
}

/* ---- gpuwiz verify on the live guest ------------------------------------ */

static char *
live_pci(const gw_live_gpu *g)
{
	return gw_xasprintf("%04x:%04x", g->vendor, g->device);
}

/* The live guest's text report: the system, the driver, each NVIDIA GPU,
 * then the rows and their tally. */
static void
live_text(FILE *f, const gw_live_sys *l, const gw_verify *v)
{
	size_t i;

	fprintf(f, _("System: %s\n"), l->sysroot && *l->sysroot ? l->sysroot
	                                                        : "/");
	fprintf(f, _("  NVIDIA driver: %s\n"),
	        l->driver_version ? l->driver_version :
	        l->version_text ? "?" : _("not loaded"));
	for (i = 0; i < l->ngpus; i++) {
		const gw_live_gpu *g = &l->gpus[i];
		char *pci = live_pci(g);

		if (g->row != NULL)
			fprintf(f, _("  GPU %s: %s (PCI %s, table row %s)\n"),
			        g->bdf, g->row->name, pci, g->row->id);
		else
			fprintf(f, _("  GPU %s: %s (PCI %s, not in the table)\n"),
			        g->bdf, "-", pci);
		free(pci);
	}
	fputs("\n", f);
	print_rows(f, v);
	print_tally(f, v);
}

/* Is BAR k of g worth listing: BAR1 always, else one with an address or
 * one the config space has although it got none. */
static int
live_bar_shown(const gw_live_gpu *g, int k)
{
	const gw_live_bar *b = &g->bars[k];

	return k == 1 || b->start != 0 || b->end != 0 ||
	       (g->cfg_ok && g->cfg_bar[k] != 0 && !gw_live_upper_half(g, k));
}

static json_t *
live_gpu_json(const gw_live_gpu *g)
{
	json_t *j = json_object(), *bars = json_array();
	char *pci = live_pci(g), *sub = pci_text(g->subv, g->subd);
	int k;

	json_object_set_new(j, "bdf", json_string(g->bdf));
	json_object_set_new(j, "pci_id", json_string(pci));
	json_object_set_new(j, "subsys_id", jstr(sub));
	json_object_set_new(j, "table_id", jstr(g->row ? g->row->id : NULL));
	json_object_set_new(j, "driver", jstr(g->driver));
	for (k = 0; k < g->nres; k++) {
		const gw_live_bar *b = &g->bars[k];
		json_t *jb;

		if (!live_bar_shown(g, k))
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
	free(pci);
	free(sub);
	return j;
}

/* The live report's keys before "nvidia_smi_q". */
static void
live_head_json(json_t *o, const gw_live_sys *l, const gw_verify *v)
{
	json_t *gpus = json_array();
	size_t i;

	json_object_set_new(o, "sysroot", gw_json_text(l->sysroot && *l->sysroot
	                                               ? l->sysroot : "/"));
	json_object_set_new(o, "driver_version", jstr(l->driver_version));
	for (i = 0; i < l->ngpus; i++)
		json_array_append_new(gpus, live_gpu_json(&l->gpus[i]));
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "checks", checks_json(v, NULL));
	json_object_set_new(o, "mmio_size_gb", mmio_json(v));
}

/* The tally of v's rows and qv's (qv may be NULL). */
static json_t *
live_summary_json(const gw_verify *v, const gw_verify *qv)
{
	size_t np = v->npass, ni = v->ninfo, nw = v->nwarn, nf = v->nfail;

	if (qv) {
		np += qv->npass;
		ni += qv->ninfo;
		nw += qv->nwarn;
		nf += qv->nfail;
	}
	return summary_json(np, ni, nw, nf);
}

size_t
gw_verify_live_print(FILE *out, const gw_live_sys *l, const gw_verify *v,
                     const gw_nvsmi *q, const gw_table *t, const char *path,
                     unsigned how)
{
	gw_verify qv;
	size_t nfail;

	memset(&qv, 0, sizeof qv);
	if (q != NULL)
		gw_verify_begin(q, t, &qv);
	if (how & GW_VERIFY_JSON) {
		gw_json_out o = { out, 0, 1, 0 };
		json_t *x = json_object();

		live_head_json(x, l, v);
		gw_json_out_members(&o, x);
		json_decref(x);
		gw_json_out_key(&o, "nvidia_smi_q");
		if (q != NULL)
			stream_json(out, q, &qv, path, 1);
		else
			fputs("null", out);
		gw_json_out_key(&o, "summary");
		x = live_summary_json(v, q ? &qv : NULL);
		gw_json_put(out, x, 1);
		json_decref(x);
		gw_json_out_close(&o);
		fputs("\n", out);
	} else {
		gw_out_esc x;
		FILE *f = gw_out_escaped_open(out, (how & GW_VERIFY_RAW) != 0, &x);

		live_text(f, l, v);
		if (q != NULL) {
			fputs("\n", f);
			stream_text(f, q, &qv, path);
		}
		gw_out_escaped_close(f, out);
	}
	nfail = qv.nfail;
	gw_verify_free(&qv);
	return nfail;
}
