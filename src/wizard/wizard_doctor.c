/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_doctor.c: the doctor (wizard_doctor.h; doc/design.md, section
 * 9, "The doctor"): diagnose a pasted error or a vmware.log with
 * gpuwiz diagnose's rules, propose the VM's .vmx found beside the log,
 * pre-fill the answers where a fix is a .vmx change, and walk the steps
 * to the review.  Nothing here draws; ui/step_doctor.c shows it. */
#include "wizard_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct gw_wizard_doctor {
	gw_diag_result res;
	char *source;       /* the file read, or NULL */
	char *vmx;          /* the one .vmx beside a vmware.log, or NULL */
	size_t nvmx;        /* .vmx files beside it */
	int pending;        /* a step stopped the walk to the review */
};

/* The rules whose fix is a .vmx change, and how each pre-fills: a table
 * from the rule id, so a new rule only needs a row. */
typedef void (*fill_fn)(gw_wizard_doctor *d, gw_wizard *w,
                        const gw_diag_finding *f);

static void
fill_mmio(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	const gw_plan *p;
	uint64_t want = 0;
	size_t i;
	gw_err e;

	/* both MMIO rules may match: the larger need */
	(void)f;
	for (i = 0; i < d->res.n; i++)
		if (d->res.findings[i].mmio_gb > want)
			want = d->res.findings[i].mmio_gb;

	/* the plan's size first (the rule for the VM's GPUs, or the window
	 * it already has): the diagnosis only raises it, since the log may
	 * count part of the BARs (diagnose.h).  Without a plan yet (no .vmx)
	 * the rule is not known: the size waits for the resume, so that it
	 * cannot stand below the rule when the .vmx comes. */
	gw_wizard_set_mmio(w, 0, 0, &e);
	p = gw_wizard_plan(w);
	if (p != NULL && want > 0 && p->mmio_gb < want)
		gw_wizard_set_mmio(w, want, 0, &e);
}

static void
fill_reserve(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	(void)f;
	(void)d;
	gw_wizard_set_reserve(w, 1);
}

static void
fill_uvm(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	(void)f;
	(void)d;
	gw_wizard_set_uvm(w, 1);
}

/* NCCL's 'operation not supported' with no vGPU in sight when it was
 * diagnosed (nccl-operation-not-supported): UVM only once the VM's .vmx
 * shows vGPUs; a VM of passthrough GPUs gets nothing. */
static void
fill_uvm_if_vgpu(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	gw_diag_ctx ctx;

	(void)d;
	(void)f;
	if (gw_wizard_vmx(w) == NULL)
		return;
	gw_diag_ctx_from_plan(&ctx, gw_wizard_plan(w));
	if (ctx.vgpus > 0)
		gw_wizard_set_uvm(w, 1);
}

/* Nothing to set: the plan rewrites a hexadecimal pciPassthruN.id in
 * the decimal form once the .vmx is open (plan_devices.c, vmx-id-hex). */
static void
fill_hex_id(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	(void)d;
	(void)w;
	(void)f;
}

/* A BOSH director's vSphere CPI log (diagnose's bosh-cpi-poweron-failed):
 * the Tanzu route.  The VM is gone with its vmware.log, so there is no
 * .vmx to open: the fix is the VM type's, made from the GPU model (the
 * walk stops on the GPU step for it).  The activity is the Tanzu one,
 * the outputs the VM type's (the tile's values, the BOSH VM extension
 * and the Ops Manager JSON: doc/design.md, 14.5 and 15.10), the MMIO
 * window the rule's for the GPU chosen. */
static void
fill_tanzu(gw_wizard_doctor *d, gw_wizard *w, const gw_diag_finding *f)
{
	gw_err e;

	(void)d;
	(void)f;
	/* its outputs are the activity's defaults (formats.def's FOR) */
	gw_wizard_set_activity(w, GW_ACT_TANZU);
	gw_wizard_set_mmio(w, 0, 0, &e);
}

/* What the walk asks the operator for when the text does not tell it:
 * the VM's .vmx (the VM step: the log came from a VM that still exists)
 * or the GPU model (the GPU step: the VM is gone). */
enum { ASK_VMX, ASK_GPU };

static const struct {
	const char *id;
	fill_fn fill;
	int ask;
} fills[] = {
	{ GW_DIAG_HEX_BDF, fill_hex_id, ASK_VMX },
	{ GW_DIAG_MMIO_PAGES, fill_mmio, ASK_VMX },
	{ GW_DIAG_MMIO_FIRMWARE, fill_mmio, ASK_VMX },
	{ GW_DIAG_MEM_RESERVATION, fill_reserve, ASK_VMX },
	{ GW_DIAG_NCCL_UVM, fill_uvm, ASK_VMX },
	{ GW_DIAG_NCCL_ASK, fill_uvm_if_vgpu, ASK_VMX },
	{ GW_DIAG_BOSH_POWERON, fill_tanzu, ASK_GPU },
};

static int
fill_row(const gw_diag_finding *f)
{
	size_t i;

	for (i = 0; i < sizeof fills / sizeof fills[0]; i++)
		if (strcmp(fills[i].id, f->f.id) == 0)
			return (int)i;
	return -1;
}

static fill_fn
fill_of(const gw_diag_finding *f)
{
	int i = fill_row(f);

	return i < 0 ? NULL : fills[i].fill;
}

gw_wizard_doctor *
gw_wizard_doctor_new(void)
{
	return gw_xcalloc(1, sizeof(gw_wizard_doctor));
}

static void
forget(gw_wizard_doctor *d)
{
	gw_diag_result_free(&d->res);
	free(d->source);
	free(d->vmx);
	d->source = d->vmx = NULL;
	d->nvmx = 0;
	d->pending = 0;
}

void
gw_wizard_doctor_free(gw_wizard_doctor *d)
{
	if (d == NULL)
		return;
	forget(d);
	free(d);
}

/* The text, blanks trimmed, when it is one line naming an existing
 * regular file (malloc'ed, "~/" expanded); else NULL. */
static char *
named_file(const char *text, size_t len)
{
	char *t, *s, *p;
	struct stat sb;

	if (len == 0 || len > 4096 || memchr(text, '\0', len) != NULL)
		return NULL;
	t = gw_xstrndup(text, len);
	s = gw_trim(t);
	if (*s == '\0' || strpbrk(s, "\r\n") != NULL) {
		free(t);
		return NULL;
	}
	p = wz_expand_tilde(s);
	free(t);
	if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		free(p);
		return NULL;
	}
	return p;
}

int
gw_wizard_doctor_names_file(const char *text, size_t len)
{
	char *p = text != NULL ? named_file(text, len) : NULL;

	free(p);
	return p != NULL;
}

static int
ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* vmware.log and its rotated copies (vmware-1.log, ...) live in the VM's
 * directory, beside its .vmx. */
static int
is_vmware_log(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	return strncasecmp(b, "vmware", 6) == 0 && ends_with_ci(b, ".log");
}

/* The .vmx files in path's directory: their count; the first in d->vmx
 * when there is exactly one. */
static void
find_vmx(gw_wizard_doctor *d, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? gw_xstrndup(path, (size_t)(slash - path) + 1)
	                  : gw_xstrdup("./");
	DIR *dh = opendir(dir);
	struct dirent *de;
	char *one = NULL;

	while (dh != NULL && (de = readdir(dh)) != NULL) {
		char *p;
		struct stat sb;

		if (de->d_name[0] == '.' || !ends_with_ci(de->d_name, ".vmx"))
			continue;
		p = gw_xasprintf("%s%s", dir, de->d_name);
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
			d->nvmx++;
			free(one);
			one = p;
		} else {
			free(p);
		}
	}
	if (dh != NULL)
		closedir(dh);
	free(dir);
	if (d->nvmx == 1)
		d->vmx = one;
	else
		free(one);
}

/* What the doctor knows of the VM: the .vmx the wizard has open, else
 * the one beside the vmware.log; nothing without either. */
static void
vm_context(const gw_wizard_doctor *d, const gw_wizard *w, gw_diag_ctx *ctx)
{
	gw_vmx *v = NULL;
	gw_err e;

	memset(ctx, 0, sizeof *ctx);
	if (w != NULL && gw_wizard_vmx(w) != NULL) {
		gw_diag_ctx_from_plan(ctx, gw_wizard_plan(w));
		return;
	}
	if (d->vmx == NULL || gw_vmx_load_checked(&v, d->vmx, &e) != 0)
		return;
	gw_diag_ctx_from_vmx(ctx, v, w ? gw_wizard_table(w) : NULL);
	gw_vmx_free(v);
}

int
gw_wizard_doctor_text(gw_wizard_doctor *d, const gw_wizard *w,
                      const char *text, size_t len, gw_err *e)
{
	char *file, *data = NULL;
	size_t dlen = 0;
	gw_diag_ctx ctx;
	int n;

	forget(d);
	if (text == NULL)
		len = 0;
	if (len > GW_DIAG_MAX_INPUT) {
		gw_err_set(e, _("The text is larger than %zu bytes: give the vmware.log's path instead, or paste the lines around the failure."),
		           (size_t)GW_DIAG_MAX_INPUT);
		return -1;
	}
	if ((file = named_file(text, len)) != NULL) {
		if (gw_read_file(file, GW_DIAG_MAX_INPUT, &data, &dlen, e) != 0) {
			free(file);
			return -1;
		}
		d->source = file;
		if (is_vmware_log(file))
			find_vmx(d, file);
		text = data;
		len = dlen;
	}
	vm_context(d, w, &ctx);
	n = gw_diagnose_text_ctx(text, len, &ctx, &d->res);
	free(data);
	return n < 0 ? 0 : n;
}

size_t
gw_wizard_doctor_count(const gw_wizard_doctor *d)
{
	return d->res.n;
}

const gw_diag_finding *
gw_wizard_doctor_finding(const gw_wizard_doctor *d, size_t i)
{
	return i < d->res.n ? &d->res.findings[i] : NULL;
}

/* Does finding i's fix change the .vmx (so the doctor pre-fills it)? */
static int
fixes_vmx(const gw_wizard_doctor *d, size_t i)
{
	return i < d->res.n && fill_of(&d->res.findings[i]) != NULL;
}

const char *
gw_wizard_doctor_source(const gw_wizard_doctor *d)
{
	return d->source;
}

const char *
gw_wizard_doctor_vmx(const gw_wizard_doctor *d)
{
	return d->vmx;
}

size_t
gw_wizard_doctor_nvmx(const gw_wizard_doctor *d)
{
	return d->nvmx;
}

int
gw_wizard_doctor_pending(const gw_wizard_doctor *d)
{
	return d->pending;
}

void
gw_wizard_doctor_stop(gw_wizard_doctor *d)
{
	d->pending = 0;
}

static int
any_vmx_fix(const gw_wizard_doctor *d)
{
	size_t i;

	for (i = 0; i < d->res.n; i++)
		if (fixes_vmx(d, i))
			return 1;
	return 0;
}

/* Does a finding's row ask for the GPU model (the Tanzu route)? */
static int
asks_gpu(const gw_wizard_doctor *d)
{
	size_t i;
	int r;

	for (i = 0; i < d->res.n; i++)
		if ((r = fill_row(&d->res.findings[i])) >= 0 &&
		    fills[r].ask == ASK_GPU)
			return 1;
	return 0;
}

int
gw_wizard_doctor_tanzu(const gw_wizard_doctor *d)
{
	return asks_gpu(d);
}

static void
prefill(gw_wizard_doctor *d, gw_wizard *w)
{
	size_t i;

	for (i = 0; i < d->res.n; i++) {
		fill_fn fill = fill_of(&d->res.findings[i]);

		if (fill != NULL)
			fill(d, w, &d->res.findings[i]);
	}
}

/* From the current step to the review, each step checked as Enter
 * would; the options step's proposals as when it is shown. */
static int
walk(gw_wizard_doctor *d, gw_wizard *w, char *why, size_t n)
{
	while (gw_wizard_step(w) < GW_STEP_REVIEW) {
		if (gw_wizard_step(w) == GW_STEP_GPU && w->af.a.ngpus == 0 &&
		    asks_gpu(d)) {
			/* TRANSLATORS: on the GPU step, after the doctor read
			 * a BOSH director's log. */
			wz_put_why(why, n, _("Choose the GPU model of the tile's VM type (BOSH deleted the VM and its vmware.log); Enter then goes straight to the review."));
			d->pending = 1;
			return 1;
		}
		if (gw_wizard_step(w) == GW_STEP_OPTIONS) {
			gw_wizard_propose_uvm(w);
			gw_wizard_fit_formats(w);
		}
		if (gw_wizard_next(w, why, n) != 0) {
			d->pending = 1;
			return 1;
		}
	}
	d->pending = 0;
	return 0;
}

int
gw_wizard_doctor_apply(gw_wizard_doctor *d, gw_wizard *w, char *why,
                       size_t n)
{
	gw_err e;

	wz_put_why(why, n, "");
	if (!any_vmx_fix(d))
		return -1;
	if (d->vmx != NULL && w->vmx == NULL) {
		e.msg[0] = '\0';
		(void)gw_wizard_open_vmx(w, d->vmx, &e);
	}
	/* passthrough on the host needs the IOMMU, and a GPU's 64-bit BARs
	 * above-4G decoding: the failing VM had both (doc/design.md, 15.10) */
	if (!gw_wizard_can(w, GW_CAN_PROBE)) {
		gw_wizard_set_host_ok(w, GW_HOST_IOMMU, 1);
		gw_wizard_set_host_ok(w, GW_HOST_ABOVE4G, 1);
	}
	prefill(d, w);
	return walk(d, w, why, n);
}

int
gw_wizard_doctor_resume(gw_wizard_doctor *d, gw_wizard *w, char *why,
                        size_t n)
{
	wz_put_why(why, n, "");
	if (!d->pending)
		return -1;
	prefill(d, w);
	return walk(d, w, why, n);
}

const char *
gw_wizard_doctor_next(const gw_wizard_doctor *d, const gw_wizard *w)
{
	if (d->res.n == 0)
		/* TRANSLATORS: the doctor found nothing it knows. */
		return _("Enter goes on with the normal steps; Esc goes back to try other text.");
	if (asks_gpu(d))
		return w != NULL && gw_wizard_answers(w)->a.ngpus > 0 ?
		       /* TRANSLATORS: the doctor's next action on the Tanzu
		        * route (a BOSH director's log). */
		       _("The Tanzu route: Enter opens the review with the tile's values, the BOSH VM extension and the Ops Manager JSON pre-filled; then Apply Changes in Ops Manager.") :
		       /* TRANSLATORS: as the one before, no GPU chosen yet. */
		       _("The Tanzu route: Enter asks for the GPU model, then opens the review with the tile's values, the BOSH VM extension and the Ops Manager JSON pre-filled; then Apply Changes in Ops Manager.");
	if (!any_vmx_fix(d))
		return _("Do the fix above on the host or in the guest, then power the VM on again. Enter goes on with the normal steps.");
	if (d->vmx != NULL || (w != NULL && gw_wizard_vmx(w) != NULL))
		return _("Enter opens the review with these changes pre-filled.");
	return _("Enter asks for the VM's .vmx on the VM step, then opens the review with these changes pre-filled.");
}
