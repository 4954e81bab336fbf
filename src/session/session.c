/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session.c: answers + host -> plan -> review -> apply (session.h), for the
 * command line and the wizard alike. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
gw_session_init(gw_session *s, gw_host *h)
{
	memset(s, 0, sizeof *s);
	s->host = h;
	s->vm = -1;
}

static void
clear_queue(gw_session *s)
{
	size_t i;

	for (i = 0; i < s->nqueue; i++) {
		free(s->queue[i].bdf);
		free(s->queue[i].host_name);
		gw_finding_free(&s->queue[i].row);
	}
	free(s->queue);
	s->queue = NULL;
	s->nqueue = 0;
}

void
gw_session_free(gw_session *s)
{
	gw_host_vms_free(&s->vms);
	free(s->vms_error);
	free(s->vmx_where);
	free(s->vm_key);
	free(s->picked);
	clear_queue(s);
	gw_host_write_free(&s->last);
	free(s->backup_first);
	if (s->have_gpus)
		gw_host_probe_free(&s->gpus);
	memset(s, 0, sizeof *s);
	s->vm = -1;
}

/* ---- the VMs ----------------------------------------------------------- */

/* The open VM in a new listing, by its key. */
static void
refind(gw_session *s)
{
	size_t i;
	long k = -1;
	gw_err e;

	if (s->vm < 0)
		return;
	for (i = 0; s->vm_key && i < s->vms.list.n && k < 0; i++) {
		char *key = NULL;

		if (gw_host_vm_key(s->host, &s->vms.list.vms[i], &key, &e) == 0 &&
		    strcmp(key, s->vm_key) == 0)
			k = (long)i;
		free(key);
	}
	s->vm = k;
	if (k >= 0 && s->vms.power)
		s->power = s->vms.power[k];
}

void
gw_session_take_vms(gw_session *s, gw_host_vms *vms, char **error)
{
	gw_host_vms_free(&s->vms);
	s->vms = *vms;
	memset(vms, 0, sizeof *vms);
	free(s->vms_error);
	s->vms_error = error ? *error : NULL;
	if (error)
		*error = NULL;
	refind(s);
}

int
gw_session_list_vms(gw_session *s, gw_err *e)
{
	gw_host_vms v;
	char *err = NULL;
	int rc = 0;

	if (gw_host_list_vms(s->host, &v, e) != 0) {
		err = gw_xstrdup(e->msg);
		rc = -1;
	}
	gw_session_take_vms(s, &v, &err);
	return rc;
}

long
gw_session_find_vm(const gw_session *s, const char *spec, gw_err *e)
{
	const gw_vm_list *l = &s->vms.list;
	unsigned long long id;
	size_t i, hits = 0;
	long k = -1;

	if (gw_parse_uint(spec, ~0UL, &id) == 0)
		for (i = 0; i < l->n; i++)
			if (l->vms[i].vmid == (unsigned long)id)
				return (long)i;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->vms[i].name, spec) == 0) {
			k = (long)i;
			hits++;
		}
	if (hits == 1)
		return k;
	if (hits > 1)
		gw_err_set(e, P_("--vm: %zu VM is named '%s'; give the Vmid instead (gpuwiz vms lists them)",
		                 "--vm: %zu VMs are named '%s'; give the Vmid instead (gpuwiz vms lists them)",
		                 hits),
		           hits, spec);
	else
		gw_err_set(e, _("--vm: no VM '%s' on the host (expected a name or Vmid that gpuwiz vms lists)"),
		           spec);
	return -1;
}

const gw_vm *
gw_session_vm(const gw_session *s)
{
	if (s->vm < 0 || (size_t)s->vm >= s->vms.list.n)
		return NULL;
	return &s->vms.list.vms[s->vm];
}

void
gw_session_close_vm(gw_session *s)
{
	s->vm = -1;
	free(s->vmx_where);
	s->vmx_where = NULL;
	free(s->vm_key);
	s->vm_key = NULL;
	free(s->picked);
	s->picked = NULL;
}

int
gw_session_open_vm(gw_session *s, long idx, gw_vmx **vmx, char **release,
                   gw_err *e)
{
	const gw_vm *vm;
	gw_power pw = GW_POWER_UNKNOWN;
	char *where = NULL, *rel = NULL;
	gw_vmx *v = NULL;

	if (release)
		*release = NULL;
	if (s->host == NULL || idx < 0 || (size_t)idx >= s->vms.list.n) {
		gw_err_set(e, _("No VM %ld on the host."), idx + 1);
		return -1;
	}
	vm = &s->vms.list.vms[idx];
	if (gw_host_power(s->host, vm, &pw, e) != 0 ||
	    gw_host_read_vmx(s->host, vm, &v, &where, &rel, e) != 0) {
		gw_vmx_free(v);
		free(where);
		free(rel);
		return -1;
	}
	gw_session_close_vm(s);
	s->vm = idx;
	s->power = pw;
	s->vmx_where = where;
	/* the path on the host, or the name through the API: the key the
	 * back end gives for a listed VM (gw_host_vm_key) */
	s->vm_key = gw_xstrdup(where);
	*vmx = v;
	if (release)
		*release = rel;
	else
		free(rel);
	return 0;
}

int
gw_session_vm_off(const gw_session *s)
{
	return gw_session_vm(s) != NULL && s->power == GW_POWER_OFF;
}

/* ---- answers -> plan ------------------------------------------------------ */

int
gw_session_answers(gw_session *s, const gw_answers *in, gw_answers *out,
                   int *attached, gw_err *e)
{
	const gw_vm *vm = gw_session_vm(s);

	gw_answers_copy(out, in);
	free(s->picked);
	s->picked = NULL;
	if (attached)
		*attached = 0;
	/* Dynamic DirectPath I/O on a host that does not place the VM */
	if (vm != NULL && gw_host_dynamic_check(s->host, in, e) != 0) {
		gw_answers_free(out);
		return -1;
	}
	if (vm == NULL || !host_can(s->host, HOST_PICK))
		return 0;
	if (gw_host_pick(s->host, vm, out, &s->picked, attached, e) != 0) {
		gw_answers_free(out);
		return -1;
	}
	return 0;
}

int
gw_session_answers_facts(gw_session *s, gw_answers *a, gw_err *e)
{
	gw_host_facts f;
	int rc = 0;

	if (s->host == NULL || (a->esxi_version && (a->nbdfs == 0 || a->system_id)))
		return 0;
	if (gw_host_facts_get(s->host, &f, e) != 0)
		return -1;
	if (a->esxi_version == NULL && f.release)
		a->esxi_version = gw_xstrdup(f.release);
	if (a->nbdfs > 0 && a->system_id == NULL) {
		if (f.system_id == NULL) {
			gw_err_set(e, "%s", f.system_id_error ? f.system_id_error : "");
			rc = -1;
		} else {
			rc = gw_answers_set_system_id(a, f.system_id,
			                              "esxcli system uuid get", e);
		}
	}
	gw_host_facts_free(&f);
	return rc;
}

/* ---- the hardware version ------------------------------------------------ */

int
gw_session_upgrade_target(const gw_session *s, const gw_plan *p)
{
	if (gw_session_vm(s) == NULL || !host_can(s->host, HOST_UPGRADE) ||
	    p == NULL)
		return 0;
	if (p->hw_current > 0 && p->hw_target > p->hw_current)
		return p->hw_target;
	return 0;
}
