/* session_apply.c: the queue of host changes and the apply (session.h). */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the queue of host changes -------------------------------------------- */

static gw_session_change *
queue_new(gw_session *s, gw_change_kind kind)
{
	gw_session_change *c;

	s->queue = gw_xrealloc(s->queue, (s->nqueue + 1) * sizeof *s->queue);
	c = &s->queue[s->nqueue++];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	return c;
}

size_t
gw_session_queue_enable(gw_session *s, size_t idx, const char *bdf)
{
	gw_session_change *c = queue_new(s, GW_CHANGE_ENABLE);

	c->gpu = idx;
	c->bdf = bdf ? gw_xstrdup(bdf) : NULL;
	return s->nqueue - 1;
}

size_t
gw_session_queue_upgrade(gw_session *s, int from, int to)
{
	gw_session_change *c = queue_new(s, GW_CHANGE_UPGRADE);

	c->from = from;
	c->to = to;
	return s->nqueue - 1;
}

/* Upgrade the open VM, then list the VMs again and read its .vmx anew. */
static int
run_upgrade(gw_session *s, gw_session_change *c, gw_vmx **vmx, gw_err *e)
{
	const gw_esxi_vm *vm = gw_session_vm(s);
	char *name;
	gw_vmx *v = NULL;
	int rc;

	if (vm == NULL) {
		gw_err_set(e, _("No VM %ld on the host."), s->vm + 1);
		return -1;
	}
	name = gw_xstrdup(vm->name);
	rc = gw_host_upgrade(s->host, vm, c->from, c->to, e);
	if (rc == 0 && gw_session_list_vms(s, e) == 0 && s->vm < 0) {
		gw_err_set(e, _("%s: not found after the upgrade"), name);
		rc = -1;
	}
	if (rc == 0)
		rc = gw_session_open_vm(s, s->vm, &v, NULL, e);
	if (rc == 0 && vmx) {
		gw_vmx_free(*vmx);
		*vmx = v;
	} else {
		gw_vmx_free(v);
	}
	free(name);
	return rc;
}

int
gw_session_run(gw_session *s, size_t k, gw_vmx **vmx, gw_err *e)
{
	gw_session_change *c;
	int rc;

	if (k >= s->nqueue)
		return -1;
	c = &s->queue[k];
	if (c->done)
		return 0;
	if (c->kind == GW_CHANGE_ENABLE)
		rc = gw_host_enable_gpu(s->host, c->gpu, &c->reboot, e);
	else
		rc = run_upgrade(s, c, vmx, e);
	if (rc == 0)
		s->queue[k].done = 1;
	return rc;
}

int
gw_session_run_queue(gw_session *s, gw_vmx **vmx, gw_err *e)
{
	size_t k;

	for (k = 0; k < s->nqueue; k++)
		if (gw_session_run(s, k, vmx, e) != 0)
			return -1;
	return 0;
}

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
	const gw_esxi_vm *vm = gw_session_vm(s);

	if (vm == NULL || !host_can(s->host, HOST_RELOAD) || !s->last.changed ||
	    s->last.reloaded)
		return 0;
	/* TRANSLATORS: %s says why vim-cmd vmsvc/reload failed. */
	snprintf(buf, n,
	         _("Saved, but the VM could not be reloaded: %s; run vim-cmd vmsvc/reload %lu on the host."),
	         s->last.reload_error, vm->vmid);
	return 1;
}
