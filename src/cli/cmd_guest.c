/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_guest.c: the commands that run inside the guest or read what it
 * logged: verify (its body in cmd_verify.c), diagnose (read the input,
 * gw_diagnose_text, print gw_diag_render's report).
 */
#include "cli_int.h"
#include "cmd_guest.h"
#include "diagnose_report.h"
#include "out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `gpuwiz diagnose FILE|- [--vmx VMX]`: read FILE ("-": standard input),
 * diagnose it with what the VM's .vmx shows (its vGPUs: gw_diag_ctx) and
 * print the report (gw_diag_render) on stdout.  Returns the exit
 * status: 0 when at least one known failure was recognised, 1 when none
 * was, 2 on an input error (no name, missing, unreadable, a directory,
 * binary (NUL bytes), empty or blank, larger than GW_DIAG_MAX_INPUT; a
 * --vmx that cannot be read or is not a .vmx): then
 * e holds one translated line naming the input and nothing was printed on
 * stdout.  A failed write to stdout also returns 2, with e set ("standard
 * output: cannot write"). */
static int diagnose_file(const char *path, const char *vmx,
                         const gw_table *t, int json, gw_err *e);

/* diagnose FILE|-: cause and fix for a vmware.log excerpt or error text */
int
cmd_diagnose(cli_opts *o, const gw_table *t, gw_err *e)
{
	if (o->nargs != 1) {
		gw_err_set(e, o->nargs == 0
		           ? _("missing the FILE to read (a vmware.log excerpt or an error message; - reads standard input)")
		           : _("expected one FILE (or - for standard input)"));
		return EXIT_USAGE;
	}
	return diagnose_file(o->args[0], o->vmx_file, t, o->json, e);
}

/* verify (CMD_NOARGS): the checks inside the guest */
int
cmd_verify(cli_opts *o, const gw_table *t, gw_err *e)
{
	/* a saved capture alone: its checks only; otherwise the live guest
	 * (--sysroot DIR, else /), with the capture's checks when given */
	if (o->nvsmi != NULL && o->sysroot == NULL && o->bundle == NULL)
		return gw_verify_command(t, o->nvsmi, o->json, e);
	return gw_verify_live_command(t, o->sysroot, o->nvsmi, o->bundle,
	                              o->json, e);
}

/* ---- gpuwiz diagnose ---------------------------------------------------- */

/* What the input is as it is read: the scan, and what refuses it. */
typedef struct diag_input {
	gw_diag_scan *sc;
	int nul;                /* a NUL byte */
	int text;               /* a byte that is not a blank */
} diag_input;

static void
take_chunk(void *ctx, const char *data, size_t len)
{
	diag_input *in = ctx;
	size_t i;

	in->nul |= memchr(data, '\0', len) != NULL;
	for (i = 0; !in->text && i < len; i++)
		in->text = data[i] != ' ' && data[i] != '\t' && data[i] != '\n' &&
		           data[i] != '\r' && data[i] != '\f' && data[i] != '\v';
	gw_diag_scan_feed(in->sc, data, len);
}

/* Refuse binary and blank input: 0 when it is text worth a look. */
static int
check_input(const char *name, const diag_input *in, gw_err *e)
{
	if (in->nul) {
		gw_err_set(e, _("%s: is a binary file (it holds NUL bytes); "
		                "expected text: a vmware.log excerpt or an error "
		                "message, saved as UTF-8"), name);
		return -1;
	}
	if (!in->text) {
		gw_err_set(e, _("%s: is empty; expected a vmware.log excerpt or an "
		                "error message"), name);
		return -1;
	}
	return 0;
}

/* The VM's context from --vmx FILE; -1 and e when it cannot be read or
 * is not a .vmx. */
static int
vmx_context(const char *vmx, const gw_table *t, gw_diag_ctx *ctx, gw_err *e)
{
	gw_vmx *v = NULL;

	memset(ctx, 0, sizeof *ctx);
	if (vmx == NULL)
		return 0;
	if (gw_vmx_load_checked(&v, vmx, e) != 0)
		return -1;
	gw_diag_ctx_from_vmx(ctx, v, t);
	gw_vmx_free(v);
	return 0;
}

static int
diagnose_file(const char *path, const char *vmx, const gw_table *t, int json,
              gw_err *e)
{
	int from_stdin = path != NULL && strcmp(path, "-") == 0;
	const char *name;
	diag_input in;
	gw_diag_result res;
	gw_diag_ctx ctx;
	gw_buf out;
	int rc, fd;

	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("expected a file name or - (standard input)"));
		return 2;
	}
	if (vmx_context(vmx, t, &ctx, e) != 0)
		return 2;
	name = from_stdin ? _("standard input") : path;
	fd = from_stdin ? STDIN_FILENO : gw_open_regular(path, e);
	if (fd < 0)
		return 2;
	/* read in chunks, each scanned as it comes: nothing of the input is
	 * kept but what the findings quote */
	memset(&in, 0, sizeof in);
	in.sc = gw_diag_scan_new();
	rc = gw_read_stream(fd, name, GW_DIAG_MAX_INPUT, take_chunk, &in, e);
	if (!from_stdin)
		close(fd);
	if (rc != 0 || check_input(name, &in, e) != 0) {
		(void)gw_diag_scan_end(in.sc, NULL, NULL);
		return 2;
	}
	(void)gw_diag_scan_end(in.sc, &ctx, &res);
	gw_buf_init(&out);
	gw_diag_render(&res, name, json, &out);
	rc = res.n > 0 ? 0 : 1;
	gw_diag_result_free(&res);
	gw_out_flush();
	if (gw_write_all(STDOUT_FILENO, out.data, out.len) != 0) {
		gw_err_set(e, _("standard output: cannot write: %s"),
		           strerror(errno));
		rc = 2;
	}
	gw_buf_free(&out);
	return rc;
}
