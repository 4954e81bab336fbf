/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_vsphere.c: the vSphere back end of host.h: vCenter or ESXi through
 * the API (vsphere.h, vsapply.h).  One inventory read gives the rows, the
 * GPUs of every host, and the VMs (Vmid = position + 1 in the inventory);
 * changes go through ReconfigVM_Task and the inventory is read again
 * (in a batch never: the devices a task adds are noted in it, and the
 * tasks run together, gw_vs_set_parallel). */
#include "host_int.h"
#include "vsapply.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
vs_close(gw_host *h)
{
	gw_vs_inventory_free(&h->inv);
	gw_vs_close(h->vs);
	free(h->gpu_host);
}

static int
reread(gw_host *h, gw_err *e)
{
	gw_vs_inventory_free(&h->inv);
	h->have_inv = gw_vs_inventory_get(h->vs, &h->inv, e) == 0;
	return h->have_inv ? 0 : -1;
}

/* The inventory's VM behind a listed one. */
static const gw_vs_vm *
inv_vm(const gw_host *h, const gw_vm *vm, gw_err *e)
{
	if (!h->have_inv || vm == NULL || vm->vmid == 0 ||
	    vm->vmid > h->inv.nvms) {
		gw_err_set(e, _("No VM %ld on the host."), vm ? (long)vm->vmid : 0L);
		return NULL;
	}
	return &h->inv.vms[vm->vmid - 1];
}

/* "VMware vCenter Server 8.0.2 build-...: 2 hosts, 1 VM" */
static char *
server_line(const gw_host *h)
{
	const char *name = gw_vs_full_name(h->vs);
	char *nh, *nv, *s;

	/* TRANSLATORS: how many hosts a vSphere server has. */
	nh = gw_xasprintf(P_("%zu host", "%zu hosts", h->inv.nhosts),
	                  h->inv.nhosts);
	/* TRANSLATORS: how many VMs a vSphere server has. */
	nv = gw_xasprintf(P_("%zu VM", "%zu VMs", h->inv.nvms), h->inv.nvms);
	/* TRANSLATORS: the server's name and version, then its hosts and
	 * its VMs (the two texts above). */
	s = gw_xasprintf(_("%s: %s, %s"), name ? name : "?", nh, nv);
	free(nh);
	free(nv);
	return s;
}

static void
host_rows(gw_host *h, gw_host_probe *p)
{
	size_t i;

	gw_host_row(p, "vsphere-server", GW_SEV_PASS,
	            /* TRANSLATORS: %s is the server (its URL). */
	            gw_xasprintf(_("Checking the vSphere server %s"), h->label),
	            server_line(h), NULL);
	for (i = 0; i < h->inv.nhosts; i++) {
		const gw_vs_host *x = &h->inv.hosts[i];
		int hw = x->version ? gw_esxi_to_hw(x->version) : 0;

		gw_host_row(p, "esxi-host", GW_SEV_PASS,
		            gw_xasprintf(_("Checking the ESXi host %s"), x->name),
		            gw_xasprintf(_("%s %s (%s): VM hardware version up to %d"),
		                         "VMware ESXi", x->version ? x->version : "?",
		                         x->build ? x->build : "?", hw),
		            NULL);
	}
}

static void
vs_detected(const gw_table *t, const gw_vs_host *x, const gw_vs_pci *d,
            gw_gpu_dev *g)
{
	unsigned dom, bus, dev, fn;

	gw_gpu_dev_init(g);
	g->bdf = gw_xstrdup(d->id);
	if (gw_bdf_parse(d->id, &dom, &bus, &dev, &fn) == 0) {
		g->dom = dom;
		g->bus = bus;
		g->dev = dev;
		g->fn = fn;
	}
	g->vendor = d->vendor;
	g->device = d->device;
	g->subvendor = d->subvendor;
	g->subdevice = d->subdevice;
	g->subsys_known = 1;
	g->row = t ? gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
	                               d->subdevice, &g->ambiguous) : NULL;
	g->name = g->row ? gw_xstrdup(g->row->name) :
	          d->device_name ? gw_xstrdup(d->device_name) : NULL;
	g->vram_gb = g->row ? g->row->vram_gb : -1;
	/* the host, where the Linux list shows the driver */
	g->driver = gw_xstrdup(x->name);
	g->onboard = gw_is_onboard_display(d->vendor);
	g->passthru_capable = d->passthru_capable;
	g->passthru_enabled = d->passthru_enabled;
	g->passthru_active = d->passthru_active;
}

/* The GPUs of every host. */
static void
gpus_of_hosts(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	size_t i, k, n = 0;

	for (i = 0; i < h->inv.nhosts; i++)
		n += h->inv.hosts[i].npci;
	p->gpus = gw_xcalloc(n ? n : 1, sizeof *p->gpus);
	free(h->gpu_host);
	h->gpu_host = gw_xcalloc(n ? n : 1, sizeof *h->gpu_host);
	for (i = 0; i < h->inv.nhosts; i++) {
		const gw_vs_host *x = &h->inv.hosts[i];

		for (k = 0; k < x->npci; k++) {
			const gw_vs_pci *d = &x->pci[k];

			if ((d->class_id >> 8) != 0x03 || gw_is_onboard_display(d->vendor))
				continue;
			vs_detected(t, x, d, &p->gpus[p->ngpus]);
			h->gpu_host[p->ngpus++] = i;
		}
	}
	gw_host_keep_bdfs(h, p->gpus, p->ngpus);
}

static void
passthru_rows(gw_host *h, gw_host_probe *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_vs_host *x = &h->inv.hosts[h->gpu_host[i]];
		const gw_vs_pci *d = gw_vs_host_pci(x, p->gpus[i].bdf);
		/* TRANSLATORS: a PCI address, the GPU's name, its host. */
		char *title = gw_xasprintf(_("Checking passthrough of %s (%s) on %s"),
		                           p->gpus[i].bdf,
		                           p->gpus[i].name ? p->gpus[i].name : "?",
		                           x->name);

		gw_host_passthru_row(p, title, d ? d->passthru_capable : -1,
		                     d && d->passthru_enabled == 1,
		                     d && d->passthru_active == 1,
		                     gw_xstrdup(_("passthrough enabled, active after the host's next reboot")),
		                     /* TRANSLATORS: the PCI address, then
		                      * the host's name. */
		                     gw_xasprintf(_("Enable it: gpuwiz vsphere ... passthru --enable %s --host %s (UpdatePassthruConfig; a free ESXi licence refuses it: then gpuwiz passthru --enable %s --ssh root@HOST)."),
		                                  p->gpus[i].bdf, x->name,
		                                  p->gpus[i].bdf),
		                     /* TRANSLATORS: the wizard's words: the
		                      * Welcome step's choice as it is shown. */
		                     gw_xstrdup(_("Press e on this row to enable it (UpdatePassthruConfig; a free ESXi licence refuses it: then choose \"An ESXi host over SSH\" on the Welcome step).")));
	}
}

/* One host's vGPU readiness (host_vgpu_rows.c): its default graphics
 * type, whether it offers vGPU profiles (the NVIDIA vGPU manager is
 * loaded), and where it does, each GPU's graphics type. */
static void
host_vgpu_rows(gw_host *h, gw_host_probe *p, size_t first, size_t end)
{
	const gw_vs_host *x = &h->inv.hosts[h->gpu_host[first]];
	int sd;
	size_t i;

	sd = gw_host_graphics_row(p, x->name, x->graphics_type,
	                          x->nvgpu_types < 0
	                          ? _("the server is older than vSphere 6.5, which reports config.graphicsConfig")
	                          : _("the server does not report config.graphicsConfig"),
	                          1);
	if (x->nvgpu_types < 0)
		return;
	if (x->nvgpu_types == 0) {
		gw_host_manager_row(p, x->name, 0,
		                    gw_xstrdup(_("the host offers no vGPU profile (config.sharedPassthruGpuTypes): the NVIDIA vGPU manager is not installed or not loaded; needed for vGPU, not for passthrough")),
		                    sd);
		return;
	}
	gw_host_manager_row(p, x->name, 1,
	                    /* TRANSLATORS: how many vGPU profiles, then
	                     * one of them (nvidia_l40s-4c). */
	                    gw_xasprintf(P_("the host offers %ld vGPU profile, %s (config.sharedPassthruGpuTypes): the NVIDIA vGPU manager is loaded",
	                                    "the host offers %ld vGPU profiles, such as %s (config.sharedPassthruGpuTypes): the NVIDIA vGPU manager is loaded",
	                                    x->nvgpu_types),
	                                 x->nvgpu_types,
	                                 x->vgpu_type ? x->vgpu_type : "?"),
	                    sd);
	for (i = first; i < end; i++) {
		const gw_vs_pci *d;

		if ((d = gw_vs_host_pci(x, p->gpus[i].bdf)) == NULL ||
		    d->graphics_type == NULL)
			continue;
		gw_host_gpu_graphics_row(p, p->gpus[i].bdf, p->gpus[i].name,
		                         d->graphics_type, -1, sd);
	}
}

/* The vGPU rows of every host with a GPU (gpus_of_hosts lists each
 * host's GPUs together). */
static void
vgpu_rows(gw_host *h, gw_host_probe *p)
{
	size_t i = 0, j;

	while (i < p->ngpus) {
		for (j = i + 1; j < p->ngpus && h->gpu_host[j] == h->gpu_host[i]; j++)
			;
		host_vgpu_rows(h, p, i, j);
		i = j;
	}
}

/* The VMs in the common list (Vmid = position + 1), with their power. */
static void
vm_list(const gw_host *h, gw_host_vms *out)
{
	size_t i, n = h->inv.nvms;

	out->list.vms = gw_xcalloc(n ? n : 1, sizeof *out->list.vms);
	out->power = gw_xcalloc(n ? n : 1, sizeof *out->power);
	for (i = 0; i < n; i++) {
		const gw_vs_vm *vm = &h->inv.vms[i];
		gw_vm *x = &out->list.vms[i];

		x->vmid = (unsigned long)i + 1;
		x->name = gw_xstrdup(vm->name);
		x->file = gw_xstrdup(vm->vmx_path ? vm->vmx_path : "");
		x->version = gw_xasprintf("vmx-%02d", vm->hw_version);
		x->hw_version = vm->hw_version;
		x->guest_os = gw_xstrdup("");
		x->annotation = gw_xstrdup("");
		out->power[i] = gw_vs_power_esxi(vm->power);
	}
	out->list.n = n;
}

static int
vs_probe(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	gw_err e;

	e.msg[0] = '\0';
	gw_host_drop_bdfs(h);
	/* in a batch the inventory is kept current (read again after an
	 * attach): the probe of the host's GPU counts reuses it */
	if (h->vs == NULL ||
	    ((!h->batch || !h->have_inv) && reread(h, &e) != 0)) {
		p->checks_error = gw_xstrdup(h->vs ? e.msg : _("no vSphere connection"));
		p->vms_error = gw_xstrdup(p->checks_error);
		p->fails = 1;
		return 1;
	}
	host_rows(h, p);
	gpus_of_hosts(h, t, p);
	gw_host_gpus_row(p, gw_xstrdup(_("no host of this server has a GPU (hardware.pciDevice)")));
	passthru_rows(h, p);
	vgpu_rows(h, p);
	gw_host_above4g_row(p);
	/* a batch asks the probe for its GPUs' counts once per VM (the
	 * session's gw_session_host_avail) and keeps its VMs' list itself
	 * (gw_session_list_vms): no copy of every VM per VM */
	if (!h->batch)
		vm_list(h, &p->vms);
	return p->fails;
}

static int
vs_list_vms(gw_host *h, gw_host_vms *out, gw_err *e)
{
	if (!h->have_inv && reread(h, e) != 0)
		return -1;
	vm_list(h, out);
	return 0;
}

static int
vs_power(gw_host *h, const gw_vm *vm, gw_power *out, gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);

	if (v == NULL)
		return -1;
	*out = gw_vs_power_esxi(v->power);
	return 0;
}

static int
vs_vm_key(gw_host *h, const gw_vm *vm, char **key, gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);

	if (v == NULL)
		return -1;
	*key = gw_xstrdup(v->name);
	return 0;
}

static int
vs_read_vmx(gw_host *h, const gw_vm *vm, gw_vmx **out, char **where,
            char **release, gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);
	const gw_vs_host *x;

	if (v == NULL || (*out = gw_vs_vm_as_vmx(v, e)) == NULL)
		return -1;
	*where = gw_xstrdup(v->name);
	x = v->host_moref ? gw_vs_find_host(&h->inv, v->host_moref) : NULL;
	if (x && x->version && gw_esxi_to_hw(x->version) > 0)
		*release = gw_xstrdup(x->version);
	return 0;
}

/* The plan's changes through ReconfigVM_Task (powered off only), its
 * progress shown; the inventory is read again afterwards (a second write
 * sees the devices now attached). */
static int
vs_write_vmx(gw_host *h, const gw_vm *vm, const char *where,
             const gw_plan *p, const gw_vmx *before, const gw_vmx *after,
             const char *taken, int force, gw_host_write *res, gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);
	gw_vs_plan_spec spec;
	int rc = 0;

	(void)before;
	(void)after;
	(void)taken;   /* no backup through the API (no HOST_BACKUP) */
	(void)force;   /* no file mode through the API */
	if (v == NULL)
		return -1;
	if (gw_vs_spec_from_plan(p, &spec, e) != 0)
		return -1;
	(void)where;
	/* shown as written: "server:VM" */
	res->where = gw_xasprintf("%s:%s", h->label, v->name);
	res->changed = !gw_vs_spec_empty(&spec);
	if (res->changed && v->power != GW_VS_POWER_OFF) {
		gw_err_set(e, _("%s is %s: gpuwiz does not change a VM that is not powered off; shut the guest down (or power the VM off), then run this again"),
		           v->name, gw_power_id(gw_vs_power_esxi(v->power)));
		rc = -1;
	} else if (res->changed) {
		rc = gw_vs_reconfigure(h->vs, v, &spec.spec, h->progress,
		                       h->progress_ctx, e);
	}
	/* in a batch the task may still run (gw_vs_set_parallel): the next
	 * VM's pick sees the devices as taken from here, with no inventory
	 * read per VM; else the server's view after the change, for the
	 * screens */
	if (rc == 0 && res->changed && h->batch) {
		gw_vs_inventory_note_adds(&h->inv, &h->inv.vms[vm->vmid - 1],
		                          &spec.spec);
	} else if (rc == 0 && res->changed) {
		gw_err le;

		reread(h, &le);
	}
	gw_vs_plan_spec_free(&spec);
	return rc;
}

static int
vs_gpu_passthru(const gw_host *h, size_t idx)
{
	const gw_vs_pci *d;

	if (h->gpu_host == NULL || idx >= h->ngpu)
		return -1;
	d = gw_vs_host_pci(&h->inv.hosts[h->gpu_host[idx]], h->gpu_bdf[idx]);
	return d ? d->passthru_enabled : -1;
}

/* After enabling: active now (no reboot), from the inventory read again. */
static int
active_now(const gw_host *h, const char *hname, const char *bdf)
{
	size_t i;

	for (i = 0; i < h->inv.nhosts; i++) {
		const gw_vs_pci *d;

		if (strcmp(h->inv.hosts[i].name, hname) != 0)
			continue;
		d = gw_vs_host_pci(&h->inv.hosts[i], bdf);
		if (d && d->passthru_active == 1)
			return 1;
	}
	return 0;
}

static int
enable_on(gw_host *h, const gw_vs_host *x, const char *bdf, int *reboot,
          gw_err *e)
{
	char *id = gw_xstrdup(bdf), *hname = gw_xstrdup(x->name);
	int rc = -1;

	if (gw_vs_enable_passthru(h->vs, x, id, e) == 0 && reread(h, e) == 0) {
		if (reboot)
			*reboot = !active_now(h, hname, id);
		rc = 0;
	}
	free(id);
	free(hname);
	return rc;
}

static int
vs_enable_gpu(gw_host *h, size_t idx, int *reboot, gw_err *e)
{
	if (h->gpu_host == NULL || !h->have_inv) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	return enable_on(h, &h->inv.hosts[h->gpu_host[idx]], h->gpu_bdf[idx],
	                 reboot, e);
}

/* The one host (host_name's, else any) that has device bdf; NULL and e
 * when none or several have it. */
static const gw_vs_host *
device_host(gw_host *h, const char *bdf, const char *host_name, gw_err *e)
{
	const gw_vs_host *hit = NULL;
	size_t i, nhave = 0;

	if (!h->have_inv && reread(h, e) != 0)
		return NULL;
	for (i = 0; i < h->inv.nhosts; i++) {
		if (host_name && strcmp(h->inv.hosts[i].name, host_name) != 0)
			continue;
		if (gw_vs_host_pci(&h->inv.hosts[i], bdf) != NULL) {
			hit = &h->inv.hosts[i];
			nhave++;
		}
	}
	if (nhave != 1) {
		gw_err_set(e, nhave == 0 ?
		           _("--enable: no device %s on %s (gpuwiz vsphere ... list shows them)") :
		           _("--enable: several hosts of %s have a device %s: name one with --host NAME"),
		           nhave == 0 ? bdf : h->label,
		           nhave == 0 ? (host_name ? host_name : h->label) : bdf);
		return NULL;
	}
	return hit;
}

static int
vs_enable_check(gw_host *h, const char *bdf, const char *host_name,
                gw_err *e)
{
	const gw_vs_host *x = device_host(h, bdf, host_name, e);
	const gw_vs_pci *d;

	if (x == NULL)
		return -1;
	d = gw_vs_host_pci(x, bdf);
	return d && d->passthru_enabled == 1 ? 1 : 0;
}

static int
vs_enable_bdf(gw_host *h, const char *bdf, const char *host_name, int *reboot,
              gw_err *e)
{
	const gw_vs_host *hit = device_host(h, bdf, host_name, e);

	if (hit == NULL)
		return -1;
	return enable_on(h, hit, bdf, reboot, e);
}

static int
vs_upgrade(gw_host *h, const gw_vm *vm, int current, int target,
           gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);
	gw_err le;
	int rc;

	(void)current;
	if (v == NULL)
		return -1;
	rc = gw_vs_upgrade(h->vs, v, target, h->progress, h->progress_ctx, e);
	/* the VM as the upgrade left it (whatever its task said); the rest
	 * of the inventory, read once per run, stays */
	if (gw_vs_vm_read_again(h->vs, &h->inv, v, rc == 0 ? e : &le) != 0 &&
	    rc == 0)
		rc = -1;
	return rc;
}

static int
vs_pick(gw_host *h, const gw_vm *vm, gw_answers *a, char **picked,
        int *attached, gw_err *e)
{
	const gw_vs_vm *v = inv_vm(h, vm, e);
	const gw_vs_host *x;

	if (v == NULL)
		return -1;
	x = v->host_moref ? gw_vs_find_host(&h->inv, v->host_moref) : NULL;
	if (x == NULL) {
		gw_err_set(e, _("%s: its host is not in the inventory"), v->name);
		return -1;
	}
	/* Dynamic DirectPath I/O on a standalone ESXi host was refused by
	 * gw_session_answers (gw_host_dynamic_check) before the pick */
	if (a->esxi_version == NULL && x->version && gw_esxi_to_hw(x->version) > 0)
		a->esxi_version = gw_xstrdup(x->version);
	if (a->nbdfs == 0) {
		char **ids = NULL;
		size_t n = 0, i, k = 0;
		gw_buf b;
		gw_vmx *vx = gw_vs_vm_as_vmx(v, e);

		/* more of a GPU in the VM than asked for: refused by the
		 * plan's rule before a device is picked; else how many of the
		 * VM's devices count, by the same rule */
		if (vx == NULL ||
		    gw_plan_check_present(a, vx, attached, e) != 0) {
			gw_vmx_free(vx);
			return -1;
		}
		gw_vmx_free(vx);
		/* the counts stay what the VM ends with: the VM's own
		 * devices are among the addresses, and the plan counts them
		 * as on a .vmx (gw_plan_gpu.counted).  Dynamic DirectPath
		 * I/O: no device to pick, vCenter chooses one at power-on */
		if (!a->dynamic && gw_vs_pick_devices(&h->inv, x, v, a, &ids, &n, e) != 0)
			return -1;
		gw_buf_init(&b);
		for (i = 0; i < n; i++) {
			gw_answers_add_bdf(a, ids[i], "--bdf", e);
			if (gw_vs_is_own_device(v, ids[i]))
				continue;
			gw_buf_printf(&b, "%s%s", k++ ? ", " : "", ids[i]);
		}
		if (k)
			*picked = gw_buf_steal(&b);
		else
			gw_buf_free(&b);
		gw_strs_free(ids, n);
	}
	if (a->nbdfs > 0 && a->system_id == NULL) {
		const gw_vs_pci *d;

		/* QueryConfigTarget only now that a device is to be picked
		 * (an apply's inventory leaves it out: gw_vs_set_vm_names) */
		if (gw_vs_host_system_ids(h->vs, &h->inv.hosts[x - h->inv.hosts], e) != 0)
			return -1;
		d = gw_vs_host_pci(x, a->bdfs[0]);

		if (d == NULL || d->system_id == NULL ||
		    gw_answers_set_system_id(a, d->system_id, "QueryConfigTarget", e) != 0) {
			gw_err_set(e, _("%s: host %s reports no system id for %s: is passthrough enabled and active for it?"),
			           v->name, x->name, a->bdfs[0]);
			return -1;
		}
	}
	return 0;
}

/* gpuwiz gpus: the display-class devices of every host of the server,
 * on-board displays too, as the inventory has them now. */
static int
vs_gpus(gw_host *h, const gw_table *t, gw_gpu_list *out, gw_err *e)
{
	size_t i, k, n = 0;

	if (reread(h, e) != 0)
		return -1;
	for (i = 0; i < h->inv.nhosts; i++)
		n += h->inv.hosts[i].npci;
	out->gpus = gw_xcalloc(n ? n : 1, sizeof *out->gpus);
	for (i = 0; i < h->inv.nhosts; i++) {
		const gw_vs_host *x = &h->inv.hosts[i];

		for (k = 0; k < x->npci; k++)
			if ((x->pci[k].class_id >> 8) == 0x03)
				vs_detected(t, x, &x->pci[k],
				            &out->gpus[out->n++]);
	}
	out->source = gw_xstrdup(h->label);
	gw_gpu_list_sum(out);
	return 0;
}

const gw_host_methods gw_host_vsphere_methods = {
	.name = "vsphere",
	.kind = GW_HOST_VSPHERE,
	.caps = HOST_CHECKS | HOST_GPUS | HOST_VMS | HOST_PASSTHRU |
	        HOST_UPGRADE | HOST_PICK,
	.close = vs_close,
	.probe = vs_probe,
	.list_vms = vs_list_vms,
	.power = vs_power,
	.vm_key = vs_vm_key,
	.read_vmx = vs_read_vmx,
	.write_vmx = vs_write_vmx,
	.gpu_passthru = vs_gpu_passthru,
	.pick = vs_pick,
	.enable_gpu = vs_enable_gpu,
	.enable_check = vs_enable_check,
	.enable_bdf = vs_enable_bdf,
	.upgrade = vs_upgrade,
	.gpus = vs_gpus,
};

gw_host *
gw_host_open_vsphere(gw_vs *s, const char *label)
{
	gw_host *h = gw_host_new(&gw_host_vsphere_methods, label);

	h->vs = s;
	return h;
}

/* The API session, for the CLI's list (round trips, server kind). */
gw_vs *
gw_host_vs(const gw_host *h)
{
	return h->vs;
}

/* The inventory as last read (NULL before the first). */
const gw_vs_inventory *
gw_host_inventory(gw_host *h, gw_err *e)
{
	if (h->vs == NULL)
		return NULL;
	if (!h->have_inv && reread(h, e) != 0)
		return NULL;
	return &h->inv;
}
