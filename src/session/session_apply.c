/* session_apply.c: the apply (session.h); the queue of host changes that
 * runs before it is session_queue.c. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- apply ------------------------------------------------------------------ */

/* A private copy of v (gw_apply and the plan change it). */
static int
vmx_copy(const gw_vmx *v, gw_vmx **out, gw_err *e)
{
	size_t len;
	char *bytes;
	int rc;

	*out = NULL;
	if (v == NULL)
		return 0;
	bytes = gw_vmx_serialize(v, &len);
	rc = gw_vmx_parse(out, bytes, len, gw_vmx_name(v), e);
	free(bytes);
	return rc;
}

/* The host refused the change after the snippets were written: take them
 * back, so that the write is all or nothing here too. */
static void
unwrite(gw_apply_result *res)
{
	size_t i;

	for (i = 0; i < res->nwritten; i++)
		unlink(res->written[i]);
	gw_apply_result_free(res);
}

/* The snippets locally, then the VM's .vmx on the host. */
static int
apply_host(gw_session *s, const gw_answers_file *af, const gw_plan *p,
           const gw_vmx *vmx, gw_apply_result *res, gw_err *e)
{
	gw_vmx *after = NULL;

	if (vmx_copy(vmx, &after, e) != 0 || gw_plan_apply_vmx(p, after, e) != 0) {
		gw_vmx_free(after);
		return -1;
	}
	if (af->formats && gw_apply(af, p, NULL, af->force, res, e) != 0) {
		gw_vmx_free(after);
		return -1;
	}
	gw_host_write_free(&s->last);
	if (gw_host_write_vmx(s->host, gw_session_vm(s), s->vmx_where, p, vmx,
	                      after, &s->last, e) != 0) {
		unwrite(res);
		gw_vmx_free(after);
		return -1;
	}
	gw_vmx_free(after);
	free(res->vmx_path);
	res->vmx_path = gw_xstrdup(s->last.where);
	free(res->backup);
	res->backup = s->last.backup ? gw_xstrdup(s->last.backup) : NULL;
	res->vmx_unchanged = !s->last.changed;
	return 0;
}

int
gw_session_apply(gw_session *s, const gw_answers_file *af, const gw_plan *p,
                 const gw_vmx *vmx, gw_apply_result *res, gw_err *e)
{
	gw_vmx *copy = NULL;
	int rc;

	if (!gw_session_may_write(p, af->force)) {
		gw_err_set(e, "%s", _("The plan has failures (FAIL): fix them, or turn on force to write anyway."));
		return -1;
	}
	if (vmx != NULL && gw_session_vm(s) != NULL)
		return apply_host(s, af, p, vmx, res, e);
	if (vmx_copy(vmx, &copy, e) != 0)
		return -1;
	rc = gw_apply(af, p, copy, af->force, res, e);
	gw_vmx_free(copy);
	return rc;
}

int
gw_session_reload_warning(const gw_session *s, char *buf, size_t n)
{
	const gw_vm *vm = gw_session_vm(s);

	if (vm == NULL || !host_can(s->host, HOST_RELOAD) || !s->last.changed ||
	    s->last.reloaded)
		return 0;
	/* TRANSLATORS: %s says why vim-cmd vmsvc/reload failed. */
	snprintf(buf, n,
	         _("Saved, but the VM could not be reloaded: %s; run vim-cmd vmsvc/reload %lu on the host."),
	         s->last.reload_error, vm->vmid);
	return 1;
}
