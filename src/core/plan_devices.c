/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_devices.c: the devices of the VM: pair the operator's host PCI
 * addresses (BDFs) with the passthrough GPUs being added, in order; add
 * the GPUs asked for to the plan; count the VM's devices; write the
 * pciPassthruN blocks of the new ones.  A BDF already attached in the
 * .vmx is not added twice.
 */
#include "plan_int.h"
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The present, unmatched DirectPath block at nd's address, or NULL. */
static vdev *
find_attached(scan *sc, const newdev *nd)
{
	size_t j;

	for (j = 0; j < sc->ndevs; j++) {
		vdev *d = &sc->devs[j];

		if (!d->present || !d->has_addr || d->vgpu || d->matched)
			continue;
		if (d->dom == nd->dom && d->bus == nd->bus &&
		    d->dev == nd->dev && d->fn == nd->fn)
			return d;
	}
	return NULL;
}

/* Pair the next BDF with one GPU of want i. */
static int
pair_one(plan_ctx *c, size_t i, gw_err *e)
{
	const gw_gpu_want *w = &c->a->gpus[i];
	newdev *nd = &c->nds[c->nnd];

	nd->want = i;
	nd->bdf = c->a->bdfs[c->nnd];
	if (w->gpu == NULL) {
		gw_err_set(e, _("--bdf: %s pairs with a GPU given "
		                "only by size (%s); give that GPU "
		                "by id (--gpu) so its PCI ids can be "
		                "written"), nd->bdf,
		           w->spec ? w->spec : "--vram");
		/* TRANSLATORS: the wizard's words for the error above. */
		gw_err_set_ui(e, _("Host PCI address %s pairs with a GPU given only by its size: choose that GPU from the list on the GPU step, so that its PCI ids can be written."),
		              nd->bdf);
		return -1;
	}
	if (gw_bdf_parse(nd->bdf, &nd->dom, &nd->bus, &nd->dev,
	                 &nd->fn) != 0) {
		gw_err_set(e, _("--bdf: '%s' is not a PCI address "
		                "(expected 0000:42:00.0)"), nd->bdf);
		/* TRANSLATORS: the wizard's words for the error above. */
		gw_err_set_ui(e, _("Host PCI addresses: '%s' is not a PCI address (expected 0000:42:00.0)."),
		              nd->bdf);
		return -1;
	}
	nd->existing = find_attached(&c->sc, nd);
	if (nd->existing)
		nd->existing->matched = 1;
	if (nd->existing && nd->existing->ids_ok) {
		if (nd->existing->vendor == w->gpu->vendor_id &&
		    nd->existing->device == w->gpu->device_id) {
			nd->same = 1;
			nd->existing->counted = 1;
			c->dedup[i]++;
		} else {
			nd->same = -1;
		}
	}
	c->nnd++;
	return 0;
}

/* Pair BDFs with the passthrough GPUs being added, in order. */
int
pl_pair_bdfs(plan_ctx *c, gw_err *e)
{
	const gw_answers *a = c->a;
	size_t i;
	int k;

	c->dedup = gw_xcalloc(a->ngpus ? a->ngpus : 1, sizeof *c->dedup);
	if (a->nbdfs)
		c->nds = gw_xcalloc(a->nbdfs, sizeof *c->nds);
	for (i = 0; i < a->ngpus && c->nnd < a->nbdfs; i++) {
		if (a->gpus[i].profile)
			continue;
		for (k = 0; k < a->gpus[i].count && c->nnd < a->nbdfs; k++)
			if (pair_one(c, i, e) != 0)
				return -1;
	}
	return 0;
}

int
gw_want_is_device(const gw_gpu_want *w, const char *vgpu, unsigned vendor,
                  unsigned device)
{
	char *esx;
	int r;

	if (w->profile == NULL)
		return vgpu == NULL && w->gpu != NULL &&
		       vendor == w->gpu->vendor_id && device == w->gpu->device_id;
	if (vgpu == NULL)
		return 0;
	if (gw_strieq(vgpu, w->profile))
		return 1;
	esx = w->gpu ? gw_gpu_vgpu_profile(w->gpu, w->profile) : NULL;
	r = esx != NULL && gw_strieq(vgpu, esx);
	free(esx);
	return r;
}

/* Does present device d of the .vmx count as one GPU of want w? */
static int
is_of_want(const vdev *d, const gw_gpu_want *w)
{
	if (!d->present || (d->vgpu == NULL && !d->ids_ok))
		return 0;
	return gw_want_is_device(w, d->vgpu, d->vendor, d->device);
}

/* The BDFs of the answers that pair with want i. */
static int
bdfs_of(const plan_ctx *c, size_t i)
{
	size_t k;
	int n = 0;

	for (k = 0; k < c->nnd; k++)
		if (c->nds[k].want == i)
			n++;
	return n;
}

/* More of want w in the VM than asked for: refused, naming them.  The
 * plan never removes a device; the operator chooses which goes. */
static int
too_many(const plan_ctx *c, const gw_gpu_want *w, gw_err *e)
{
	gw_buf all, extra;
	size_t j;
	int have = 0, nextra = 0;

	gw_buf_init(&all);
	gw_buf_init(&extra);
	for (j = 0; j < c->sc.ndevs; j++) {
		const vdev *d = &c->sc.devs[j];

		if (!is_of_want(d, w))
			continue;
		gw_buf_printf(&all, "%spciPassthru%u", have ? ", " : "", d->idx);
		have++;
		if (d->claimed || d->matched)
			continue;
		gw_buf_printf(&extra, "%spciPassthru%u", nextra ? ", " : "",
		              d->idx);
		nextra++;
	}
	/* TRANSLATORS: the GPU as typed (l40s=2), the devices of it in the
	 * VM and their pciPassthruN, the count asked for, then the ones
	 * that are more than that. */
	gw_err_set(e, _("%s: the VM already has %d of it (%s), more than the %d asked for; gpuwiz does not remove devices: ask for %d, or remove %s with the VM off (vSphere Client: Edit Settings)"),
	           w->spec ? w->spec : "?", have, all.data ? all.data : "",
	           w->count, have, extra.data ? extra.data : "");
	/* TRANSLATORS: the wizard's words for the error above; "Selected
	 * for this VM" is the GPU step's list. */
	gw_err_set_ui(e, _("The VM already has %d of %s (%s), more than the %d chosen: raise its count to %d under \"Selected for this VM\" on the GPU step, or remove %s with the VM off in the vSphere Client."),
	              have, w->spec ? w->spec : "?", all.data ? all.data : "",
	              w->count, have, extra.data ? extra.data : "");
	gw_buf_free(&all);
	gw_buf_free(&extra);
	return -1;
}

int
pl_claim_present(plan_ctx *c, gw_err *e)
{
	const gw_answers *a = c->a;
	size_t i, j;
	int rc = 0;

	c->npt_noaddr = c->npt_slots > c->nnd ? c->npt_slots - c->nnd : 0;
	if (c->v == NULL)
		return 0;
	/* the devices at an answers BDF belong to their GPU (pair_one) */
	for (j = 0; j < c->sc.ndevs; j++)
		if (c->sc.devs[j].matched)
			c->sc.devs[j].claimed = 1;
	c->npt_noaddr = 0;
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *w = &a->gpus[i];
		int room = w->count - bdfs_of(c, i);

		for (j = 0; j < c->sc.ndevs && room > 0; j++) {
			vdev *d = &c->sc.devs[j];

			if (d->claimed || !is_of_want(d, w))
				continue;
			d->claimed = 1;
			d->counted = 1;
			c->dedup[i]++;
			room--;
		}
		if (w->profile == NULL)
			c->npt_noaddr += (size_t)room;
		/* every GPU of the want named by its host address (a device
		 * picked from the host's list): the VM ends with those
		 * devices; others of the model at other addresses are other
		 * GPUs, kept and counted as the VM's own */
		if (w->count > 0 && bdfs_of(c, i) >= w->count)
			continue;
		for (j = 0; j < c->sc.ndevs && rc == 0; j++)
			if (!c->sc.devs[j].claimed &&
			    is_of_want(&c->sc.devs[j], w))
				rc = too_many(c, w, e);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static char *
want_label(const gw_gpu_want *w)
{
	if (w->profile)
		return gw_xstrdup(w->profile);
	if (w->gpu)
		return gw_xstrdup(w->gpu->id);
	return gw_xasprintf("%dGB", w->vram_gb);
}

/* The GPUs asked for, less the ones already attached at their BDF. */
void
pl_add_wanted(plan_ctx *c)
{
	gw_plan *p = c->p;
	size_t i;

	for (i = 0; i < c->a->ngpus; i++) {
		const gw_gpu_want *w = &c->a->gpus[i];
		gw_plan_gpu *g;
		int n = w->count - c->dedup[i];

		if (n <= 0)
			continue;
		g = pl_gpu_push(p);
		g->gpu = w->gpu;
		g->vram_gb = w->vram_gb;
		g->bar1_bytes = w->bar1_bytes;
		g->count = n;
		g->profile = w->profile ? pl_esxi_profile(p, w) : NULL;
		g->existing = 0;
		g->label = want_label(w);
		if (w->gpu) {
			g->vendor_id = w->gpu->vendor_id;
			g->device_id = w->gpu->device_id;
		}
		if (w->profile) {
			p->n_vgpu += n;
			c->nvgpu_all += n;
		} else {
			p->n_passthru += n;
		}
		c->ndevices += n;
	}
}

/* The devices of the VM: the present ones of the file and the new ones.
 * Fails over the maximum any hardware version allows. */
int
pl_count_devices(plan_ctx *c, gw_err *e)
{
	size_t i;

	/* A BDF already attached adds no device (whatever is counted for
	 * MMIO in the mismatch case). */
	for (i = 0; i < c->nnd; i++)
		if (c->nds[i].existing && c->nds[i].same <= 0)
			c->ndevices--;
	if (c->ndevices > GW_MMIO_MAX_COUNT) {
		gw_err_set(e, P_("%d passthrough device in one VM: more than "
		                 "the maximum of %d (hardware version 21)",
		                 "%d passthrough devices in one VM: more than "
		                 "the maximum of %d (hardware version 21)",
		                 c->ndevices),
		           c->ndevices, GW_MMIO_MAX_COUNT);
		return -1;
	}
	return 0;
}

static void
device_block(gw_plan *p, const gw_vmx *v, unsigned idx, const newdev *nd,
             const gw_gpu *g, const char *system_id)
{
	char key[64], val[32];

	snprintf(key, sizeof key, "pciPassthru%u.present", idx);
	pl_setting(p, v, GW_SET_DEVICE, key, "TRUE",
	           gw_xasprintf(_("Attach host GPU %s (%s) as pciPassthru%u."),
	                        nd->bdf, g->id, idx), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.id", idx);
	gw_bdf_vmx_id(nd->dom, nd->bus, nd->dev, nd->fn, val, sizeof val);
	pl_setting(p, v, GW_SET_DEVICE, key, val,
	           gw_xasprintf(_("Host address %s in ESXi's decimal form."),
	                        nd->bdf), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.deviceId", idx);
	snprintf(val, sizeof val, "0x%04x", g->device_id);
	pl_setting(p, v, GW_SET_DEVICE, key, val,
	           gw_xasprintf(_("PCI device id of %s."), g->id), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.vendorId", idx);
	snprintf(val, sizeof val, "0x%04x", g->vendor_id);
	pl_setting(p, v, GW_SET_DEVICE, key, val,
	           gw_xasprintf(_("PCI vendor id of %s."), g->id), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.systemId", idx);
	pl_setting(p, v, GW_SET_DEVICE, key, system_id,
	           gw_xstrdup(_("The host's system id (esxcli system uuid "
	                        "get).")), SRC_DEVICE);
}

/* A BDF that is already attached: say so; fix its systemId. */
static void
already_attached(plan_ctx *c, const newdev *nd, const gw_gpu *g)
{
	gw_plan *p = c->p;
	const gw_answers *a = c->a;
	vdev *d = nd->existing;
	char vmxid[32], key[64];

	gw_bdf_vmx_id(nd->dom, nd->bus, nd->dev, nd->fn, vmxid, sizeof vmxid);
	if (nd->same < 0) {
		pl_finding(p, GW_SEV_WARN, "device-mismatch", GW_TOPIC_DEVICE,
		           SRC_DEVICE,
		           gw_xasprintf(_("pciPassthru%u already has "
		                          "host address %s, but as "
		                          "%04x:%04x, not %s: not "
		                          "added again; both are "
		                          "counted for MMIO"),
		                        d->idx, nd->bdf, d->vendor,
		                        d->device, g->id),
		           gw_xasprintf(_("Check the address; if the "
		                          "card was replaced, remove "
		                          "the old pciPassthru%u "
		                          "block and add the device "
		                          "again."), d->idx));
		return;
	}
	pl_finding(p, GW_SEV_INFO, "device-already-attached", GW_TOPIC_DEVICE,
	           SRC_DEVICE,
	           nd->same
	           ? gw_xasprintf(_("Host GPU %s (%s) is already "
	                            "attached as pciPassthru%u: "
	                            "not added twice"),
	                          nd->bdf, vmxid, d->idx)
	           : gw_xasprintf(_("Host address %s (%s) is "
	                            "already attached as "
	                            "pciPassthru%u (device ids "
	                            "not readable there): not "
	                            "added twice; counted as %s"),
	                          nd->bdf, vmxid, d->idx, g->id),
	           NULL);
	if (d->system_id == NULL || a->system_id == NULL ||
	    gw_strieq(d->system_id, a->system_id))
		return;
	snprintf(key, sizeof key, "pciPassthru%u.systemId", d->idx);
	pl_setting(p, c->v, GW_SET_DEVICE, key, a->system_id,
	           gw_xasprintf(_("The systemId of "
	                          "pciPassthru%u must match "
	                          "this host (else: The "
	                          "systemId does not match "
	                          "the current system)."),
	                        d->idx), SRC_DEVICE);
}

/* GPUs without a host address get no device block: the VM powers on
 * without them, so it is a WARN (doc/design.md, section 15.4; the
 * wizard's next steps start with it). */
static void
no_address(gw_plan *p, size_t n)
{
	gw_finding *f;

	f = pl_finding(p, GW_SEV_WARN, "devices-without-address",
	               GW_TOPIC_DEVICE, SRC_DEVICE,
	               gw_xasprintf(P_("%zu passthrough GPU has no host PCI "
	                               "address: it is counted for MMIO but "
	                               "not written",
	                               "%zu passthrough GPUs have no host "
	                               "PCI address: they are counted for "
	                               "MMIO but not written", n), n),
	               gw_xasprintf(_("Give each GPU's host PCI address and "
	                              "the host's system id (--bdf and "
	                              "--system-id, or the wizard's VM step), "
	                              "or add the device with the VM off: "
	                              "vSphere Client: Edit Settings > Add New "
	                              "Device > PCI Device; ESXi Host Client: "
	                              "Edit Settings > Add other device > PCI "
	                              "device.")));
	/* TRANSLATORS: the wizard's words for the fix above: "Host PCI
	 * addresses" and "Host system id" are the VM step's field labels
	 * (without their colon), "Virtual machine" its step title. */
	pl_fix_ui(f, gw_xstrdup(_("Fill \"Host PCI addresses\" and \"Host system id\" on the Virtual machine step (esxcli system uuid get gives the id), or, with the VM off, add the device: vSphere Client: Edit Settings > Add New Device > PCI Device; ESXi Host Client: Edit Settings > Add other device > PCI device.")));
}

/* One key of an existing device block that ESXi cannot read as it is
 * written: set to its ESXi form by the write, with a WARN saying why.
 * Takes ownership of reason and msg. */
static void
id_fix(plan_ctx *c, unsigned idx, const char *field, const char *to,
       const char *fid, char *reason, char *msg)
{
	char key[64];

	snprintf(key, sizeof key, "pciPassthru%u.%s", idx, field);
	pl_setting(c->p, c->v, GW_SET_DEVICE, key, to, reason, SRC_DEVICE);
	pl_fix_ui(pl_finding(c->p, GW_SEV_WARN, fid, GW_TOPIC_DEVICE,
	          SRC_DEVICE, msg,
	          /* TRANSLATORS: a key (pciPassthru0.id) and its new value. */
	          gw_xasprintf(_("Write the plan: %s becomes \"%s\" (gpuwiz vmx FILE --write)."),
	                       key, to)),
	          /* TRANSLATORS: a key (pciPassthru0.id) and its new value. */
	          gw_xasprintf(_("The write step sets %s to \"%s\"; nothing else to do."),
	                       key, to));
}

/* A PCI id in decimal ("9913"): ESXi wants "0x26b9" (govmomi issue
 * 2248: a device id that is not the device's hexadecimal one fails
 * power-on with "the deviceId and vendorId do not match the device"). */
static void
id_fix_dec(plan_ctx *c, const vdev *d, const char *field, unsigned id)
{
	char key[64], hex[16];
	const char *old;

	snprintf(key, sizeof key, "pciPassthru%u.%s", d->idx, field);
	old = gw_vmx_get(c->v, key);
	snprintf(hex, sizeof hex, "0x%04x", id);
	id_fix(c, d->idx, field, hex, "vmx-id-decimal",
	       /* TRANSLATORS: a PCI id as it was, in decimal, then in
	        * ESXi's hexadecimal form. */
	       gw_xasprintf(_("The PCI id %s was written in decimal; ESXi wants it in hexadecimal (%s)."),
	                    old, hex),
	       /* TRANSLATORS: a key (pciPassthru0.deviceId), its value in
	        * decimal, then the same id in ESXi's hexadecimal form. */
	       gw_xasprintf(_("%s = \"%s\" is a PCI id in decimal: ESXi wants it in hexadecimal (\"%s\"), else the VM does not power on (the deviceId and vendorId do not match the device); the write sets it to \"%s\""),
	                    key, old, hex, hex));
}

/* What ESXi cannot read in the device blocks already in the .vmx, one
 * fixer for each: an id holding the host address in hexadecimal
 * ("0000:42:00.0", as lspci prints it) does not power on ("No device
 * hints found") and is rewritten in ESXi's decimal form (doc/design.md,
 * section 15.4); a vendorId/deviceId in decimal is rewritten as 0x%04x. */
static void
id_fixes(plan_ctx *c)
{
	size_t j;

	for (j = 0; j < c->sc.ndevs; j++) {
		const vdev *d = &c->sc.devs[j];
		char key[64], dec[32];
		const char *old;

		if (!d->present)
			continue;
		if (d->dec_vendor)
			id_fix_dec(c, d, "vendorId", d->vendor);
		if (d->dec_device)
			id_fix_dec(c, d, "deviceId", d->device);
		if (!d->hex_id)
			continue;
		snprintf(key, sizeof key, "pciPassthru%u.id", d->idx);
		old = gw_vmx_get(c->v, key);
		gw_bdf_vmx_id(d->dom, d->bus, d->dev, d->fn, dec, sizeof dec);
		id_fix(c, d->idx, "id", dec, "vmx-id-hex",
		       /* TRANSLATORS: the hexadecimal address as it was. */
		       gw_xasprintf(_("The host address %s was written in hexadecimal; ESXi reads the id as decimal."),
		                    old),
		       /* TRANSLATORS: pciPassthruN, its id as written, then
		        * the same address in ESXi's decimal form. */
		       gw_xasprintf(_("pciPassthru%u.id = \"%s\" is the host address in hexadecimal (as lspci prints it): ESXi reads the id as decimal and the VM does not power on (No device hints found); the write sets it to \"%s\""),
		                    d->idx, old, dec));
	}
}

/* One Dynamic DirectPath I/O block: the GPU by its PCI ids, as ESXi
 * writes it ("0x10de:0x26b9"), no host address and no systemId: the
 * host and the device are chosen when the VM powers on (doc/design.md,
 * section 15.4). */
static void
dynamic_block(gw_plan *p, const gw_vmx *v, unsigned idx, const gw_gpu *g)
{
	char key[64], val[32];

	snprintf(key, sizeof key, "pciPassthru%u.present", idx);
	pl_setting(p, v, GW_SET_DEVICE, key, "TRUE",
	           /* TRANSLATORS: the GPU (l40s), then pciPassthruN's N. */
	           gw_xasprintf(_("Attach a %s by Dynamic DirectPath I/O as pciPassthru%u."),
	                        g->id, idx), SRC_DDPIO);
	snprintf(key, sizeof key, "pciPassthru%u.allowedDevices", idx);
	snprintf(val, sizeof val, "0x%04x:0x%04x", g->vendor_id, g->device_id);
	pl_setting(p, v, GW_SET_DEVICE, key, val,
	           /* TRANSLATORS: the GPU (l40s). */
	           gw_xasprintf(_("PCI vendor and device id of %s: the host and its free GPU are chosen when the VM powers on, no host address is pinned."),
	                        g->id), SRC_DDPIO);
}

/* The Dynamic DirectPath I/O blocks: as many of each passthrough GPU as
 * the VM does not have yet (a block of its ids already in the VM, fixed
 * or dynamic, counts: pl_claim_present). */
static void
dynamic_blocks(plan_ctx *c)
{
	size_t i;
	int k;

	for (i = 0; i < c->a->ngpus; i++) {
		const gw_gpu_want *w = &c->a->gpus[i];

		if (w->profile || w->gpu == NULL)
			continue;
		for (k = c->dedup[i]; k < w->count; k++)
			dynamic_block(c->p, c->v, pl_next_free(&c->sc), w->gpu);
	}
}

/* New device blocks for the BDFs, what the VM's blocks need fixed. */
void
pl_device_blocks(plan_ctx *c)
{
	gw_plan *p = c->p;
	size_t i;

	if (c->a->dynamic) {
		dynamic_blocks(c);
		id_fixes(c);
		return;
	}
	for (i = 0; i < c->nnd; i++) {
		const newdev *nd = &c->nds[i];
		const gw_gpu *g = c->a->gpus[nd->want].gpu;

		if (nd->existing)
			already_attached(c, nd, g);
		else
			device_block(p, c->v, pl_next_free(&c->sc), nd, g,
			             c->a->system_id);
	}
	if (c->v && c->npt_noaddr > 0)
		no_address(p, c->npt_noaddr);
	id_fixes(c);
}

/* Passthrough GPUs asked for with PCI ids vendor:device. */
static int
asked_of(const gw_answers *a, unsigned vendor, unsigned device)
{
	size_t i;
	int n = 0;

	for (i = 0; i < a->ngpus; i++)
		if (a->gpus[i].profile == NULL && a->gpus[i].gpu &&
		    a->gpus[i].gpu->vendor_id == vendor &&
		    a->gpus[i].gpu->device_id == device)
			n += a->gpus[i].count;
	return n;
}

/* What the host has of vendor:device (NULL when it has none). */
static const gw_gpu_avail *
host_has(const gw_answers *a, unsigned vendor, unsigned device)
{
	size_t i;

	for (i = 0; i < a->navail; i++)
		if (a->avail[i].vendor_id == vendor &&
		    a->avail[i].device_id == device)
			return &a->avail[i];
	return NULL;
}

/* More asked for than have free, but the host has them with passthrough
 * off: enabling it is the fix. */
static void
passthrough_off(gw_plan *p, const char *model, int asked, int has,
                int detected)
{
	pl_fix_ui(pl_finding(p, GW_SEV_WARN, "gpu-count-host", GW_TOPIC_GPU,
	          SRC_DEVICE,
	          /* TRANSLATORS: %s: the GPU ("l40s (AD102GL [L40S])"), then
	           * the passthrough GPUs asked for, the host's ones with
	           * passthrough on, and all the host's ones. */
	          gw_xasprintf(_("%s: %d asked for in passthrough, but the host has %d with passthrough on (%d detected)"),
	                       model, asked, has, detected),
	          gw_xasprintf(_("Enable passthrough of the others on the host (esxcli hardware pci pcipassthru set; vSphere Client: the host, Configure > Hardware > PCI Devices; ESXi Host Client: Manage > Hardware > PCI Devices, Toggle passthrough), or ask for at most %d."),
	                       has)),
	          /* TRANSLATORS: the wizard's words for the fix above; the
	           * Host check step's key e enables a GPU's passthrough. */
	          gw_xasprintf(_("Enable passthrough of the others on the Host check step (e on their row), or lower its count to %d under \"Selected for this VM\"."),
	                       has));
}

/* Is want i the first passthrough one of its PCI ids (counted once)? */
static int
first_of_ids(const gw_answers *a, size_t i)
{
	const gw_gpu *g = a->gpus[i].gpu;
	size_t j;

	if (a->gpus[i].profile || g == NULL)
		return 0;
	for (j = 0; j < i; j++)
		if (a->gpus[j].profile == NULL && a->gpus[j].gpu &&
		    a->gpus[j].gpu->vendor_id == g->vendor_id &&
		    a->gpus[j].gpu->device_id == g->device_id)
			return 0;
	return 1;
}

/* More passthrough GPUs of a model than the host has (a->avail: the
 * wizard's detected GPUs): the VM cannot get them, a WARN.  Without a
 * known host (avail NULL) nothing is said. */
void
pl_host_counts(plan_ctx *c)
{
	const gw_answers *a = c->a;
	size_t i;

	if (a->avail == NULL)
		return;
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu *g = a->gpus[i].gpu;
		const gw_gpu_avail *v;
		int asked, has;
		char *model;

		if (!first_of_ids(a, i))
			continue;
		asked = asked_of(a, g->vendor_id, g->device_id);
		v = host_has(a, g->vendor_id, g->device_id);
		has = v ? v->count : 0;
		if (asked <= has)
			continue;
		model = gw_xasprintf("%s (%s)", g->id, g->name);
		if (v && asked <= v->detected) {
			passthrough_off(c->p, model, asked, has, v->detected);
			free(model);
			continue;
		}
		pl_fix_ui(pl_finding(c->p, GW_SEV_WARN, "gpu-count-host",
		          GW_TOPIC_GPU, SRC_DEVICE,
		          /* TRANSLATORS: %s: the GPU ("l40s (AD102GL [L40S])"),
		           * then the passthrough GPUs asked for and the ones
		           * the host has. */
		          gw_xasprintf(_("%s: %d asked for in passthrough, but the host has %d"),
		                       model, asked, has),
		          has > 0
		          ? gw_xasprintf(_("Ask for at most %d of it (--gpu %s=%d), or use a host that has more."),
		                         has, g->id, has)
		          : gw_xasprintf(_("Choose a GPU the host has (gpuwiz gpus lists them), or use a host that has this one."))),
		          has > 0
		          /* TRANSLATORS: the wizard's words for the fix above;
		           * "Selected for this VM" is the GPU step's list. */
		          ? gw_xasprintf(_("Lower its count to %d under \"Selected for this VM\" on the GPU step (- or Left), or use a host that has more."),
		                         has)
		          : gw_xstrdup(_("Pick one of the host's detected GPUs on the GPU step instead, or use a host that has this one.")));
		free(model);
	}
}

/* Dynamic DirectPath I/O: a host release that runs hardware version 17
 * (vSphere 7), and what it does and does not change, with its reason
 * (doc/design.md, section 15.4).  A VM below 17 on a host that runs it
 * gets the hardware rules' upgrade advice (plan_vm.c, which names
 * Dynamic DirectPath I/O's 17); the fixed passthrough limits
 * (plan_limits.c) give way to these. */
void
pl_dynamic(plan_ctx *c)
{
	gw_plan *p = c->p;
	const char *esxi = c->a->esxi_version;

	if (!c->a->dynamic && !(c->a->outputs_do & GW_OUT_DYNAMIC))
		return;
	if (c->ndevices - c->nvgpu_all <= 0)
		return;       /* vGPUs only */
	if (p->hw_target > 0 && p->hw_target < GW_HW_MIN_DYNAMIC) {
		pl_finding(p, GW_SEV_ERROR, "dynamic-esxi", GW_TOPIC_VERSION,
		           SRC_DDPIO,
		           /* TRANSLATORS: the ESXi version, its newest
		            * hardware version, then 17. */
		           gw_xasprintf(_("ESXi %s runs hardware version %d at most: Dynamic DirectPath I/O needs vSphere 7 or later (hardware version %d)"),
		                        esxi, p->hw_target, GW_HW_MIN_DYNAMIC),
		           c->a->dynamic
		           ? gw_xstrdup(_("Use fixed passthrough on this host (without --dynamic, with --bdf and --system-id), or upgrade the hosts to vSphere 7 or later."))
		           : gw_xstrdup(_("Upgrade the hosts to vSphere 7 or later: the BOSH vSphere CPI's pci_passthroughs need it.")));
	}
	for (size_t j = 0; j < c->sc.ndevs; j++) {
		const vdev *d = &c->sc.devs[j];

		if (!d->present || d->vgpu || d->dynamic || !d->has_addr)
			continue;
		pl_finding(p, GW_SEV_WARN, "dynamic-fixed-device",
		           GW_TOPIC_DEVICE, SRC_DDPIO,
		           /* TRANSLATORS: pciPassthruN's N. */
		           gw_xasprintf(_("pciPassthru%u is a fixed passthrough device (a host address): the VM stays on that host, whatever its Dynamic DirectPath I/O devices allow"),
		                        d->idx),
		           gw_xasprintf(_("For DRS placement, remove pciPassthru%u with the VM off and ask for its GPU with --dynamic too."),
		                        d->idx));
		break;
	}
	if (!c->a->dynamic)
		pl_finding(p, GW_SEV_INFO, "dynamic-outputs", GW_TOPIC_DEVICE,
		           SRC_BOSH_PCI,
		           gw_xstrdup(_("The outputs' pci_passthroughs add each GPU by its vendor and device id: the BOSH vSphere CPI makes them Dynamic DirectPath I/O devices")),
		           NULL);
	pl_finding(p, GW_SEV_INFO, "dynamic-directpath", GW_TOPIC_DEVICE,
	           SRC_DDPIO,
	           gw_xstrdup(_("Dynamic DirectPath I/O: the GPU is named by its PCI ids and chosen when the VM powers on, so DRS can place the VM on any host of the cluster with a free GPU of those ids and vSphere HA can restart it on another; it needs vCenter and vSphere 7 or later, and hardware version 17. The VM still has no vMotion, no DRS load balancing, no snapshots, no suspend and resume and no fault tolerance, and devices cannot be hot-added")),
	           gw_xstrdup(_("Enable passthrough of the GPU on every host the VM may run on; all guest memory stays reserved, as with fixed passthrough.")));
}
