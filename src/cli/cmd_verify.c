/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_verify.c: gpuwiz verify: read a saved nvidia-smi -q and the guest
 * (or a copy of its / under --sysroot), run the checks (verify.h,
 * verify_live.h), print the report of verify_report.h and write the
 * support bundle.  Everything is known before anything is printed, so an
 * input error leaves stdout empty.
 */
#include "cli_int.h"
#include "cmd_guest.h"
#include "out.h"
#include "verify_report.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- gpuwiz verify --nvidia-smi-q FILE ---------------------------------- */

/* Read and parse the capture at path: 0, or -1 with e set (*data and *q
 * then need no freeing).  data NULL: read in chunks, its text not kept. */
static int
load_capture(const char *path, char **data, size_t *len, gw_nvsmi *q,
             gw_err *e)
{
	if (data != NULL) {
		*data = NULL;
		*len = 0;
	}
	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("--nvidia-smi-q: no file given"));
		return -1;
	}
	if (data == NULL)
		return gw_nvsmi_parse_file(q, path, e);
	if (gw_read_file(path, GW_NVSMI_MAX_BYTES, data, len, e) != 0)
		return -1;
	if (gw_nvsmi_parse(q, *data, *len, path, e) != 0) {
		free(*data);
		*data = NULL;
		return -1;
	}
	return 0;
}

int
gw_verify_command(const gw_table *t, const char *nvsmi_path, int json,
                  gw_err *e)
{
	gw_nvsmi q;
	size_t nfail;

	if (load_capture(nvsmi_path, NULL, NULL, &q, e) != 0)
		return GW_VERIFY_INPUT;
	nfail = gw_verify_print(stdout, &q, t, nvsmi_path,
	                        json ? GW_VERIFY_JSON : 0);
	gw_out_flush();
	gw_nvsmi_free(&q);
	return nfail > 0 ? GW_VERIFY_FAILED : GW_VERIFY_OK;
}

/* ---- gpuwiz verify on the live guest ------------------------------------ */

/* Everything one live run knows, and its report. */
typedef struct live_run {
	gw_live_sys l;
	gw_verify v;             /* the live rows */
	int have_q;              /* a capture was given: */
	gw_nvsmi q;
	char *data;              /* its text (for the bundle) */
	size_t len;
	size_t qfail;            /* its FAIL rows */
	char *text, *js;         /* the report (for the bundle) */
} live_run;

/* The bundle's file must be new. */
static int
bundle_arg_ok(const char *bundle, gw_err *e)
{
	struct stat st;

	if (bundle != NULL && *bundle == '\0') {
		gw_err_set(e, _("--bundle: no file given"));
		return 0;
	}
	if (bundle != NULL && lstat(bundle, &st) == 0) {
		gw_err_set(e, _("--bundle %s: the file exists; the bundle never "
		                "overwrites a file"), bundle);
		return 0;
	}
	return 1;
}

/* The capture (when given; its text kept for the bundle when keep), then
 * the guest, then the guest's checks (the capture's run as its report is
 * printed). */
static int
live_load(live_run *r, const gw_table *t, const char *sysroot,
          const char *nvsmi_path, int keep, gw_err *e)
{
	memset(r, 0, sizeof *r);
	if (nvsmi_path != NULL) {
		if (load_capture(nvsmi_path, keep ? &r->data : NULL, &r->len,
		                 &r->q, e) != 0)
			return -1;
		r->have_q = 1;
	}
	if (gw_live_scan(&r->l, t, sysroot, e) != 0) {
		if (r->have_q)
			gw_nvsmi_free(&r->q);
		free(r->data);
		return -1;
	}
	gw_live_checks(&r->l, &r->v);
	return 0;
}

/* The report printed to out (how: verify_report.h); r->qfail set. */
static void
live_print(live_run *r, FILE *out, const gw_table *t, const char *nvsmi_path,
           unsigned how)
{
	r->qfail = gw_verify_live_print(out, &r->l, &r->v,
	                                r->have_q ? &r->q : NULL, t,
	                                nvsmi_path, how);
}

/* Both reports, text (as it is) and JSON, in memory (the bundle holds
 * both). */
static void
live_render(live_run *r, const gw_table *t, const char *nvsmi_path)
{
	size_t tlen = 0, jlen = 0;
	FILE *f = open_memstream(&r->text, &tlen);
	FILE *g = open_memstream(&r->js, &jlen);

	if (f == NULL || g == NULL)
		abort();
	live_print(r, f, t, nvsmi_path, GW_VERIFY_RAW);
	live_print(r, g, t, nvsmi_path, GW_VERIFY_JSON);
	fclose(f);
	fclose(g);
}

static void
live_run_free(live_run *r)
{
	free(r->text);
	free(r->js);
	free(r->data);
	gw_verify_free(&r->v);
	if (r->have_q)
		gw_nvsmi_free(&r->q);
	gw_live_free(&r->l);
}

int
gw_verify_live_command(const gw_table *t, const char *sysroot,
                       const char *nvsmi_path, const char *bundle,
                       int json, gw_err *e)
{
	live_run r;
	int rc;

	if (!bundle_arg_ok(bundle, e) ||
	    live_load(&r, t, sysroot, nvsmi_path, bundle != NULL, e) != 0)
		return GW_VERIFY_INPUT;
	if (bundle == NULL) {
		/* the report printed as it is made */
		live_print(&r, stdout, t, nvsmi_path, json ? GW_VERIFY_JSON : 0);
		gw_out_flush();
		rc = r.v.nfail > 0 || r.qfail > 0 ? GW_VERIFY_FAILED
		                                  : GW_VERIFY_OK;
		live_run_free(&r);
		return rc;
	}
	live_render(&r, t, nvsmi_path);
	rc = r.v.nfail > 0 || r.qfail > 0 ? GW_VERIFY_FAILED : GW_VERIFY_OK;
	if (gw_live_bundle_write(bundle, &r.l, r.data, r.len, r.text, r.js,
	                         e) != 0)
		rc = GW_VERIFY_INPUT;
	if (rc != GW_VERIFY_INPUT) {
		if (json)
			fputs(r.js, stdout);
		else
			gw_fputs_escaped(r.text, stdout);
		gw_out_flush();
		if (gw_verbosity() != GW_QUIET)
			fprintf(stderr, _("gpuwiz verify: support bundle written "
			                  "to %s\n"), bundle);
	}
	live_run_free(&r);
	return rc;
}
