/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_host.c: the host step's probes and the host changes the screens
 * ask for (wizard.h), through the host interface (host.h) and the
 * session (session.h): no branch here on what reaches the host. */
#include "wizard_queue.h"
#include "esxi.h"
#include "lspci.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Free the probes (rows, GPUs) of the last read and the capture read. */
void
wz_free_probes(gw_wizard *w)
{
	gw_linux_checks_free(w->checks, w->nchecks);
	w->checks = NULL;
	w->nchecks = 0;
	free(w->checks_error);
	w->checks_error = NULL;
	gw_gpu_devs_free(w->detected, w->ndetected);
	w->detected = NULL;
	w->ndetected = 0;
	free(w->detected_added);
	w->detected_added = NULL;
	free(w->detect_error);
	w->detect_error = NULL;
	free(w->capture);
	w->capture = NULL;
}

/* Forget the probes of the last read: the host's choices are its own again. */
void
wz_clear_probes(gw_wizard *w)
{
	wz_free_probes(w);
	w->host_override = 0;
	wz_fill_avail(w);
}

/* The probe's rows and GPUs become the wizard's. */
static void
take_probe(gw_wizard *w, gw_host_probe *p)
{
	w->checks = p->checks;
	w->nchecks = p->nchecks;
	w->checks_error = p->checks_error;
	w->detected = p->gpus;
	w->ndetected = p->ngpus;
	w->detect_error = p->gpus_error;
	if (w->detected)
		w->detected_added = gw_xcalloc(w->ndetected ? w->ndetected : 1,
		                               sizeof *w->detected_added);
	p->checks = NULL;
	p->nchecks = 0;
	p->checks_error = NULL;
	p->gpus = NULL;
	p->ngpus = 0;
	p->gpus_error = NULL;
	wz_queue_rows(w);
	wz_fill_avail(w);
}

int
gw_wizard_probe_host(gw_wizard *w)
{
	const char *root = w->sysroot ? w->sysroot : gw_wizard_sysroot();
	gw_host_probe p;
	int fails;

	wz_begin(w);
	wz_clear_probes(w);
	w->probed = 1;
	if (w->local && strcmp(gw_host_sysroot(w->local), root) != 0) {
		gw_host_close(w->local);
		w->local = NULL;
	}
	if (w->local == NULL)
		w->local = gw_host_open_linux(root);
	fails = gw_host_probe_all(w->local, gw_wizard_table(w), &p);
	take_probe(w, &p);
	gw_host_probe_free(&p);
	wz_end(w);
	return fails;
}

int
gw_wizard_probe_esxi(gw_wizard *w)
{
	/* the mode's attached host; a mode without one reads as the ESXi
	 * shell's (the public "probe the attached host") */
	int own = wz_mode(w->mode)->reach == WZ_REACH_ATTACHED;
	gw_mode m = own ? w->mode : GW_MODE_ESXI_SSH;
	const wz_mode_desc *d = wz_mode(m);
	gw_host *h = wz_host_for(w, m);
	gw_host_probe p;
	gw_err le;
	int fails;

	wz_clear_probes(w);
	w->probed = 1;
	if (h == NULL) {
		w->checks_error = gw_xstrdup(_(d->no_host));
		gw_host_vms_free(&w->sess.vms);
		free(w->sess.vms_error);
		w->sess.vms_error = d->no_host_vms ? gw_xstrdup(w->checks_error)
		                                   : NULL;
		w->sess.vm = -1;
		return 1;
	}
	fails = gw_host_probe_all(h, gw_wizard_table(w), &p);
	wz_begin(w);   /* the rows, the release, the system id: one plan */
	take_probe(w, &p);
	/* the host's release: the plan knows the newest hardware version;
	 * its system id: a GPU added from the host gets a whole block */
	if (p.facts.release)
		gw_wizard_set_esxi(w, p.facts.release, &le);
	if (p.facts.system_id)
		gw_wizard_set_system_id(w, p.facts.system_id, &le);
	gw_session_take_vms(&w->sess, &p.vms, &p.vms_error);
	gw_host_probe_free(&p);
	wz_end(w);
	return fails;
}

void
wz_reread_rows(gw_wizard *w)
{
	const wz_mode_desc *d = wz_mode(w->mode);
	gw_host *h = wz_host_for(w, w->mode);
	gw_host_probe p;

	if (!w->probed || d->probe == NULL)
		return;
	if (h == NULL) {
		free(w->checks_error);
		w->checks_error = d->no_host ? gw_xstrdup(_(d->no_host)) : NULL;
		if (d->no_host_vms && w->sess.vms_error) {
			free(w->sess.vms_error);
			w->sess.vms_error = gw_xstrdup(w->checks_error);
		}
		return;
	}
	gw_host_relabel(h);
	gw_host_probe_all(h, gw_wizard_table(w), &p);
	gw_linux_checks_free(w->checks, w->nchecks);
	w->checks = p.checks;
	w->nchecks = p.nchecks;
	p.checks = NULL;
	p.nchecks = 0;
	free(w->checks_error);
	w->checks_error = p.checks_error;
	p.checks_error = NULL;
	free(w->detect_error);
	w->detect_error = p.gpus_error;
	p.gpus_error = NULL;
	if (h == w->host && w->sess.vms_error && p.vms_error) {
		free(w->sess.vms_error);
		w->sess.vms_error = p.vms_error;
		p.vms_error = NULL;
	}
	gw_host_probe_free(&p);
	wz_queue_rows(w);   /* the queued changes' rows over the new ones */
}

void
gw_wizard_set_host_override(gw_wizard *w, int on)
{
	w->host_override = on ? 1 : 0;
}

const gw_finding *
gw_wizard_host_fail(const gw_wizard *w)
{
	size_t i;

	if (!gw_wizard_can(w, GW_CAN_PROBE))
		return NULL;
	for (i = 0; i < w->nchecks; i++)
		if (w->checks[i].sev == GW_SEV_ERROR)
			return &w->checks[i];
	return NULL;
}

int
gw_wizard_detected_passthru(const gw_wizard *w, size_t idx)
{
	gw_host *h = wz_host_for(w, w->mode);

	if (idx >= w->ndetected || h == NULL || h != w->host)
		return -1;
	/* a queued enable counts as done: the GPU can be chosen */
	return gw_session_gpu_passthru(&w->sess, h, idx);
}

/* The open VM's .vmx is v now (from the host). */
static void
set_vmx(gw_wizard *w, gw_vmx *v)
{
	gw_vmx_free(w->vmx);
	w->vmx = v;
	free(w->vmx_error);
	w->vmx_error = NULL;
}

int
gw_wizard_esxi_open_vm(gw_wizard *w, long idx, gw_err *e)
{
	gw_vmx *v = NULL;
	char *release = NULL;

	if (idx < 0) {
		wz_drop_upgrade(w);
		set_vmx(w, NULL);
		gw_session_close_vm(&w->sess);
		wz_changed(w);
		return 0;
	}
	if (gw_session_open_vm(&w->sess, idx, &v, &release, e) != 0)
		return -1;
	wz_begin(w);
	wz_drop_upgrade(w);   /* it was the other VM's */
	set_vmx(w, v);
	/* the VM's own host (the API): its release for the plan */
	if (release) {
		free(w->af.a.esxi_version);
		w->af.a.esxi_version = release;
	}
	wz_changed(w);
	wz_end(w);
	return 0;
}

const char *
gw_wizard_vmx_where(const gw_wizard *w)
{
	static char buf[4096];

	if (w->vmx == NULL)
		return NULL;
	if (gw_wizard_host_mode(w) && w->sess.vm >= 0 && w->sess.vmx_where) {
		snprintf(buf, sizeof buf, "%s:%s",
		         w->host ? gw_host_label(w->host) : "", w->sess.vmx_where);
		return buf;
	}
	return w->af.vmx_path;
}

int
gw_wizard_esxi_upgrade_target(const gw_wizard *w)
{
	if (!gw_wizard_host_mode(w) || wz_plan(w) == NULL)
		return 0;
	return gw_session_upgrade_target(&w->sess, &w->plan);
}

/* ---- offline: a saved capture of the host's PCI devices ----------------- */

int
gw_wizard_read_capture(gw_wizard *w, const char *path, gw_err *e)
{
	const gw_table *t = gw_wizard_table(w);
	gw_gpu_list l;
	char *data = NULL;
	size_t len = 0, i, n = 0;
	int rc;

	if (gw_wizard_can(w, GW_CAN_PROBE)) {
		gw_err_set(e, "%s", _("The host is read already: its GPUs are listed above the table."));
		return -1;
	}
	if (path == NULL || *path == '\0') {
		gw_err_set(e, "%s", _("Type the path of the saved lspci -nnvv or esxcli hardware pci list output."));
		return -1;
	}
	if (gw_read_text_file(path, GW_LSPCI_MAX_BYTES, "lspci -nnvv", &data,
	                      &len, e) != 0)
		return -1;
	/* which capture it is: an lspci device line says lspci */
	if (gw_lspci_is_capture(data))
		rc = gw_lspci_gpu_list_read(t, data, path, &l, e);
	else if (strstr(data, "Address:") != NULL)
		rc = gw_esxi_gpu_list_read(t, data, path, &l, e);
	else {
		gw_err_set(e, _("%s: expected the output of lspci -nnvv or of "
		                "esxcli hardware pci list (no device of either "
		                "in it)"), path);
		rc = -1;
	}
	free(data);
	if (rc != 0)
		return -1;
	wz_clear_probes(w);
	/* the GPUs, onboard displays left out, as a probe lists them */
	w->detected = gw_xcalloc(l.n ? l.n : 1, sizeof *w->detected);
	for (i = 0; i < l.n; i++) {
		if (l.gpus[i].onboard) {
			gw_host_gpu_drop(&l.gpus[i]);
			continue;
		}
		w->detected[n++] = l.gpus[i];
	}
	free(l.gpus);
	l.gpus = NULL;
	l.n = 0;
	gw_gpu_list_free(&l);
	w->ndetected = n;
	w->detected_added = gw_xcalloc(n ? n : 1, sizeof *w->detected_added);
	w->capture = gw_xstrdup(path);
	wz_fill_avail(w);
	return (int)n;
}

const char *
gw_wizard_capture(const gw_wizard *w)
{
	return w->capture;
}
