/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session_queue.c: the queue of host changes (session.h).
 *
 * The review lists every change waiting here with the command that makes
 * it; nothing runs until the operator confirms the write (the wizard) or
 * asks for it on the command line (--upgrade-hw).  Then they run in
 * order, before the .vmx is written: the upgrade's .vmx is read again and
 * the plan applied to that (doc/design.md, the session).  Until then a
 * queued enable counts as enabled for the plan's host counts. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *gw_session_change_doing(const gw_session *s,
                                     const gw_session_change *c);

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
gw_session_queue_enable_bdf(gw_session *s, const char *bdf,
                            const char *host_name)
{
	gw_session_change *c = queue_new(s, GW_CHANGE_ENABLE);

	c->gpu = GW_CHANGE_BY_BDF;
	c->bdf = gw_xstrdup(bdf);
	c->host_name = host_name ? gw_xstrdup(host_name) : NULL;
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

int
gw_session_unqueue(gw_session *s, size_t k)
{
	if (k >= s->nqueue || s->queue[k].done)
		return -1;
	free(s->queue[k].bdf);
	free(s->queue[k].host_name);
	gw_finding_free(&s->queue[k].row);
	memmove(&s->queue[k], &s->queue[k + 1],
	        (s->nqueue - k - 1) * sizeof *s->queue);
	s->nqueue--;
	return 0;
}

long
gw_session_find_enable(const gw_session *s, size_t idx)
{
	size_t k;

	for (k = 0; k < s->nqueue; k++)
		if (s->queue[k].kind == GW_CHANGE_ENABLE && s->queue[k].gpu == idx)
			return (long)k;
	return -1;
}

long
gw_session_find_upgrade(const gw_session *s)
{
	size_t k;

	for (k = 0; k < s->nqueue; k++)
		if (s->queue[k].kind == GW_CHANGE_UPGRADE && !s->queue[k].done)
			return (long)k;
	return -1;
}

size_t
gw_session_pending(const gw_session *s)
{
	size_t k, n = 0;

	for (k = 0; k < s->nqueue; k++)
		n += !s->queue[k].done;
	return n;
}

void
gw_session_set_steps(gw_session *s, gw_session_step_fn fn, void *ctx)
{
	s->on_step = fn;
	s->step_ctx = ctx;
}

void
gw_session_report(const gw_session *s, size_t k, size_t n, const char *what)
{
	if (s->on_step)
		s->on_step(s->step_ctx, k, n, what);
}

/* ---- running them ------------------------------------------------------- */

/* Upgrade the open VM, then list the VMs again and read its .vmx anew. */
static int
run_upgrade(gw_session *s, gw_session_change *c, gw_vmx **vmx, gw_err *e)
{
	const gw_vm *vm = gw_session_vm(s);
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

/* Run change k now.  An upgrade reads the VM's .vmx again into *vmx (may
 * be NULL for an enable).  -1 and e: the change stays queued, not
 * done. */
static int
run_change(gw_session *s, size_t k, gw_vmx **vmx, gw_err *e)
{
	gw_session_change *c;
	int rc;

	if (k >= s->nqueue)
		return -1;
	c = &s->queue[k];
	if (c->done)
		return 0;
	if (s->host == NULL) {
		gw_err_set(e, "%s", _("No host: a host change needs one."));
		return -1;
	}
	if (c->kind == GW_CHANGE_ENABLE && c->gpu == GW_CHANGE_BY_BDF)
		rc = gw_host_enable_bdf(s->host, c->bdf, c->host_name,
		                        &c->reboot, e);
	else if (c->kind == GW_CHANGE_ENABLE)
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
	size_t k, i = 0, n = gw_session_pending(s) + s->steps_after;
	char *what;

	for (k = 0; k < s->nqueue; k++) {
		if (s->queue[k].done)
			continue;
		what = gw_session_change_doing(s, &s->queue[k]);
		gw_session_report(s, ++i, n, what);
		free(what);
		if (run_change(s, k, vmx, e) != 0)
			return -1;
	}
	return 0;
}

/* ---- what the review and the progress say -------------------------------- */

char *
gw_session_change_title(const gw_session *s, const gw_session_change *c)
{
	const gw_vm *vm = gw_session_vm(s);

	if (c->kind == GW_CHANGE_ENABLE)
		/* TRANSLATORS: a host change in the review; %s is a PCI
		 * address. */
		return gw_xasprintf(_("Enable passthrough on %s"),
		                    c->bdf ? c->bdf : "?");
	/* TRANSLATORS: a host change in the review: the VM's name, then
	 * the hardware versions. */
	return gw_xasprintf(_("Upgrade VM %s from vmx-%d to vmx-%d"),
	                    vm ? vm->name : "?", c->from, c->to);
}

char *
gw_session_change_command(const gw_session *s, const gw_session_change *c)
{
	const gw_vm *vm = gw_session_vm(s);
	/* the ESXi shell saves and reloads a .vmx; the API reconfigures */
	int shell = host_can(s->host, HOST_RELOAD);

	if (c->kind == GW_CHANGE_ENABLE)
		return shell ? gw_xasprintf("esxcli hardware pci pcipassthru set -d %s -e true -a",
		                            c->bdf ? c->bdf : "?")
		             : gw_xasprintf("UpdatePassthruConfig (%s, passthruEnabled = true)",
		                            c->bdf ? c->bdf : "?");
	if (shell)
		return gw_xasprintf("vim-cmd vmsvc/upgrade %lu vmx-%02d",
		                    vm ? vm->vmid : 0UL, c->to);
	return gw_xasprintf("UpgradeVM_Task (%s, version = vmx-%02d)",
	                    vm ? vm->name : "?", c->to);
}

static char *
gw_session_change_doing(const gw_session *s, const gw_session_change *c)
{
	(void)s;
	if (c->kind == GW_CHANGE_ENABLE)
		/* TRANSLATORS: progress of a host change; %s is a PCI
		 * address. */
		return gw_xasprintf(_("Enabling passthrough on %s..."),
		                    c->bdf ? c->bdf : "?");
	/* TRANSLATORS: progress of vim-cmd vmsvc/upgrade. */
	return gw_xstrdup(_("Upgrading the VM's hardware version..."));
}

/* ---- the host's GPUs for the plan ----------------------------------------- */

int
gw_session_gpu_passthru(const gw_session *s, const gw_host *h, size_t idx)
{
	if (h == NULL)
		return -1;
	if (h == s->host && gw_session_find_enable(s, idx) >= 0)
		return 1;
	return gw_host_gpu_passthru(h, idx);
}

void
gw_session_fill_avail(const gw_session *s, const gw_host *h, gw_answers *a,
                      const gw_gpu_dev *gpus, size_t n)
{
	size_t i;

	gw_answers_clear_avail(a);
	if (n == 0)
		return;
	/* a host with GPUs: the plan checks the counts against it; a GPU
	 * whose state is unknown counts as free */
	a->avail = gw_xcalloc(1, sizeof *a->avail);
	for (i = 0; i < n; i++)
		gw_answers_add_avail(a, gpus[i].vendor, gpus[i].device,
		                     gw_session_gpu_passthru(s, h, i) != 0);
}

int
gw_session_host_avail(gw_session *s, gw_answers *a, gw_err *e)
{
	if (s->host == NULL || !host_can(s->host, HOST_GPUS))
		return 0;
	if (!s->keep_gpus || !s->have_gpus) {
		if (s->have_gpus)
			gw_host_probe_free(&s->gpus);
		gw_host_probe_all(s->host, NULL, &s->gpus);
		s->have_gpus = 1;
	}
	if (s->gpus.gpus_error) {
		gw_err_set(e, "%s", s->gpus.gpus_error);
		return -1;
	}
	gw_session_fill_avail(s, s->host, a, s->gpus.gpus, s->gpus.ngpus);
	if (!s->keep_gpus) {
		gw_host_probe_free(&s->gpus);
		s->have_gpus = 0;
	}
	return 0;
}
