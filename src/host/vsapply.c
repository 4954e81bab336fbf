/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsapply.c: the plan through the vSphere API (see vsapply.h). */
#include "vsapply.h"
#include "idset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
put_line(gw_buf *b, const char *key, const char *value)
{
	const char *p;

	gw_buf_printf(b, "%s = \"", key);
	for (p = value; *p; p++) {
		/* a .vmx value cannot hold a newline or a double quote */
		if (*p == '\n' || *p == '\r')
			gw_buf_add(b, " ", 1);
		else if (*p == '"')
			gw_buf_add(b, "'", 1);
		else
			gw_buf_add(b, p, 1);
	}
	gw_buf_puts(b, "\"\n");
}

gw_vmx *
gw_vs_vm_as_vmx(const gw_vs_vm *vm, gw_err *e)
{
	gw_buf b;
	gw_vmx *v = NULL;
	size_t i;
	char *name, num[32];

	gw_buf_init(&b);
	if (vm->hw_version > 0) {
		snprintf(num, sizeof num, "%d", vm->hw_version);
		put_line(&b, "virtualHW.version", num);
	}
	if (vm->firmware && *vm->firmware)
		put_line(&b, "firmware", vm->firmware);
	if (vm->memory_mb > 0) {
		snprintf(num, sizeof num, "%ld", vm->memory_mb);
		put_line(&b, "memsize", num);
		if (vm->reserve_locked == 1) {
			/* memoryReservationLockedToMax: the whole memory,
			 * locked, as the plan's three keys say it */
			put_line(&b, "sched.mem.min", num);
			put_line(&b, "sched.mem.minSize", num);
			put_line(&b, "sched.mem.pin", "TRUE");
		}
	}
	for (i = 0; i < vm->nec; i++) {
		/* the API's own view of these wins (devices, reservation) */
		if (strncasecmp(vm->ec_keys[i], "pciPassthru", 11) == 0 &&
		    vm->ec_keys[i][11] >= '0' && vm->ec_keys[i][11] <= '9' &&
		    strstr(vm->ec_keys[i], ".cfg.") == NULL)
			continue;
		if (strncasecmp(vm->ec_keys[i], "sched.mem.", 10) == 0)
			continue;
		put_line(&b, vm->ec_keys[i], vm->ec_vals[i] ? vm->ec_vals[i] : "");
	}
	for (i = 0; i < vm->ndevs; i++) {
		const gw_vs_dev *d = &vm->devs[i];
		char key[64], val[64];
		unsigned dom, bus, dev, fn;

		snprintf(key, sizeof key, "pciPassthru%zu.present", i);
		put_line(&b, key, "TRUE");
		if (d->vgpu) {
			snprintf(key, sizeof key, "pciPassthru%zu.vgpu", i);
			put_line(&b, key, d->vgpu);
			continue;
		}
		if (d->dynamic) {
			snprintf(key, sizeof key, "pciPassthru%zu.allowedDevices", i);
			snprintf(val, sizeof val, "0x%04x:0x%04x", d->vendor, d->device);
			put_line(&b, key, val);
			continue;
		}
		if (d->id && gw_bdf_parse(d->id, &dom, &bus, &dev, &fn) == 0) {
			gw_bdf_vmx_id(dom, bus, dev, fn, val, sizeof val);
			snprintf(key, sizeof key, "pciPassthru%zu.id", i);
			put_line(&b, key, val);
		}
		snprintf(key, sizeof key, "pciPassthru%zu.deviceId", i);
		snprintf(val, sizeof val, "0x%04x", d->device);
		put_line(&b, key, val);
		snprintf(key, sizeof key, "pciPassthru%zu.vendorId", i);
		snprintf(val, sizeof val, "0x%04x", d->vendor);
		put_line(&b, key, val);
		if (d->system_id) {
			snprintf(key, sizeof key, "pciPassthru%zu.systemId", i);
			put_line(&b, key, d->system_id);
		}
	}
	name = gw_xasprintf("vsphere:%s", vm->name ? vm->name : "?");
	if (gw_vmx_parse(&v, b.data ? b.data : "", b.len, name, e) != 0)
		v = NULL;
	free(name);
	gw_buf_free(&b);
	return v;
}

/* ---- the plan's changes as a spec --------------------------------------- */

typedef struct dev_acc {
	unsigned idx;
	int present;
	const char *id, *vgpu, *system_id;   /* the plan's values */
	unsigned vendor, device;
	int dynamic;                         /* allowedDevices given */
} dev_acc;

static int
setting_changes(const gw_setting *s)
{
	if (s->keep)
		return 0;
	return s->old_value == NULL || strcmp(s->old_value, s->value) != 0;
}

/* "pciPassthru12.deviceId" -> 12 and "deviceId"; 0 when key is not a
 * device-block key. */
static int
device_key(const char *key, unsigned *idx, const char **suffix)
{
	const char *p;
	char *end;
	unsigned long n;

	if (strncasecmp(key, "pciPassthru", 11) != 0)
		return 0;
	p = key + 11;
	if (*p < '0' || *p > '9')
		return 0;
	n = strtoul(p, &end, 10);
	if (*end != '.')
		return 0;
	*idx = (unsigned)n;
	*suffix = end + 1;
	return 1;
}

static char *
keep_str(gw_vs_plan_spec *s, const char *v)
{
	s->strs = gw_xrealloc(s->strs, (s->nstrs + 1) * sizeof *s->strs);
	s->strs[s->nstrs] = gw_xstrdup(v);
	return s->strs[s->nstrs++];
}

/* "00000:059:00.0" (ESXi's decimal form) or a hex BDF -> "0000:3b:00.0" */
static int
api_id(const char *vmx_id, char *out, size_t n)
{
	unsigned dom, bus, dev, fn;
	int used = 0;

	/* ESXi's decimal form first: 5, 3 and 2 decimal digits */
	if (strlen(vmx_id) == 14 &&
	    sscanf(vmx_id, "%5u:%3u:%2u.%1u%n", &dom, &bus, &dev, &fn, &used) == 4 &&
	    used == 14 && vmx_id[5] == ':' && vmx_id[9] == ':') {
		if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
			return -1;
	} else if (gw_bdf_parse(vmx_id, &dom, &bus, &dev, &fn) != 0) {
		return -1;
	}
	snprintf(out, n, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

/* The device block idx among devs (added when new). */
static dev_acc *
dev_block(dev_acc **devs, size_t *ndevs, unsigned idx)
{
	dev_acc *d;

	for (size_t k = 0; k < *ndevs; k++)
		if ((*devs)[k].idx == idx)
			return &(*devs)[k];
	*devs = gw_xrealloc(*devs, (*ndevs + 1) * sizeof **devs);
	d = &(*devs)[(*ndevs)++];
	memset(d, 0, sizeof *d);
	d->idx = idx;
	return d;
}

/* One pciPassthruN.SUFFIX setting into its block. */
static void
dev_setting(dev_acc *d, const char *suffix, const char *value)
{
	if (strcasecmp(suffix, "present") == 0)
		d->present = strcasecmp(value, "TRUE") == 0;
	else if (strcasecmp(suffix, "id") == 0)
		d->id = value;
	else if (strcasecmp(suffix, "vgpu") == 0)
		d->vgpu = value;
	else if (strcasecmp(suffix, "systemId") == 0)
		d->system_id = value;
	else if (strcasecmp(suffix, "deviceId") == 0)
		d->device = (unsigned)strtoul(value, NULL, 16);
	else if (strcasecmp(suffix, "vendorId") == 0)
		d->vendor = (unsigned)strtoul(value, NULL, 16);
	else if (strcasecmp(suffix, "allowedDevices") == 0) {
		/* "0x10de:0x26b9" (plan_devices.c writes this form) */
		char *end;

		d->dynamic = 1;
		d->vendor = (unsigned)strtoul(value, &end, 16);
		d->device = *end == ':' ? (unsigned)strtoul(end + 1, NULL, 16) : 0;
	}
}

/* The present device blocks as adds; -1 and e for one the API cannot
 * express. */
static int
adds_from_devs(gw_vs_plan_spec *out, const dev_acc *devs, size_t ndevs,
               gw_err *e)
{
	out->adds = gw_xcalloc(ndevs ? ndevs : 1, sizeof *out->adds);
	for (size_t k = 0; k < ndevs; k++) {
		const dev_acc *d = &devs[k];
		gw_vs_add *a;
		char id[32];

		if (!d->present)
			continue;
		a = &out->adds[out->nadds];
		if (d->vgpu) {
			a->vgpu = keep_str(out, d->vgpu);
		} else if (d->dynamic) {
			if (d->vendor == 0 || d->vendor > 0xffff ||
			    d->device == 0 || d->device > 0xffff) {
				gw_err_set(e, _("pciPassthru%u: allowedDevices is not a vendor:device pair like 0x10de:0x26b9"),
				           d->idx);
				return -1;
			}
			a->dynamic = 1;
			a->vendor = d->vendor;
			a->device = d->device;
		} else {
			if (d->id == NULL || api_id(d->id, id, sizeof id) != 0 ||
			    d->device == 0 || d->vendor == 0) {
				gw_err_set(e, _("pciPassthru%u: the API needs the device's address, deviceId and vendorId (a host PCI address with --bdf, or let gpuwiz pick a free one)"),
				           d->idx);
				return -1;
			}
			a->id = keep_str(out, id);
			a->vendor = d->vendor;
			a->device = d->device;
			a->system_id = d->system_id ? keep_str(out, d->system_id) : NULL;
		}
		out->nadds++;
	}
	return 0;
}

int
gw_vs_spec_from_plan(const gw_plan *p, gw_vs_plan_spec *out, gw_err *e)
{
	dev_acc *devs = NULL;
	size_t ndevs = 0, i;
	int rc;

	memset(out, 0, sizeof *out);
	out->spec.reserve_locked = -1;
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		const char *suffix;
		unsigned idx;

		if (!setting_changes(s))
			continue;
		if (s->kind == GW_SET_MEM) {
			out->spec.reserve_locked = 1;
			continue;
		}
		if (s->kind == GW_SET_DEVICE && device_key(s->key, &idx, &suffix)) {
			dev_setting(dev_block(&devs, &ndevs, idx), suffix, s->value);
			continue;
		}
		out->keys = gw_xrealloc(out->keys, (out->nec + 1) * sizeof *out->keys);
		out->vals = gw_xrealloc(out->vals, (out->nec + 1) * sizeof *out->vals);
		out->keys[out->nec] = gw_xstrdup(s->key);
		out->vals[out->nec] = gw_xstrdup(s->value);
		out->nec++;
	}
	rc = adds_from_devs(out, devs, ndevs, e);
	free(devs);
	if (rc != 0) {
		gw_vs_plan_spec_free(out);
		return -1;
	}
	out->spec.ec_keys = (const char *const *)out->keys;
	out->spec.ec_vals = (const char *const *)out->vals;
	out->spec.nec = out->nec;
	out->spec.adds = out->adds;
	out->spec.nadds = out->nadds;
	return 0;
}

void
gw_vs_plan_spec_free(gw_vs_plan_spec *s)
{
	size_t i;

	for (i = 0; i < s->nec; i++) {
		free(s->keys[i]);
		free(s->vals[i]);
	}
	free(s->keys);
	free(s->vals);
	free(s->adds);
	gw_strs_free(s->strs, s->nstrs);
	memset(s, 0, sizeof *s);
	s->spec.reserve_locked = -1;
}

int
gw_vs_spec_empty(const gw_vs_plan_spec *s)
{
	return s->nec == 0 && s->nadds == 0 && s->spec.reserve_locked < 0;
}

/* ---- picking free devices ------------------------------------------------- */

/* The devices attached to a VM of host h (a VM of another host holds
 * that host's device of the same address; a VM whose host is not known
 * counts here): the inventory's index when it has one and h is among its
 * hosts, else a set of them made here (*own set, to be freed), read once.
 * *slots: the gw_vs_attached_key slots to look in (two at most). */
static const gw_idset *
attached_on(const gw_vs_inventory *inv, const gw_vs_host *h, gw_idset *own,
            unsigned slots[2], size_t *nslots)
{
	uint64_t key;
	size_t i, k;

	gw_idset_init(own);
	if (inv->indexed && h >= inv->hosts && h < inv->hosts + inv->nhosts &&
	    inv->nhosts < 0xfffd) {
		/* no moref: every VM's devices; else its own VMs' and
		 * those whose host is not known */
		slots[0] = h->moref ? 1 : 0;
		slots[1] = 2 + (unsigned)(h - inv->hosts);
		*nslots = h->moref ? 2 : 1;
		return &inv->attached;
	}
	slots[0] = 0;
	*nslots = 1;
	for (i = 0; i < inv->nvms; i++) {
		const gw_vs_vm *v = &inv->vms[i];

		if (v->host_moref && h->moref && strcmp(v->host_moref, h->moref) != 0)
			continue;
		for (k = 0; k < v->ndevs; k++)
			if (gw_vs_attached_key(0, v->devs[k].id, &key) == 0)
				gw_idset_put(own, key, i);
	}
	return own;
}

/* Is device id attached (in the set attached_on gave, under its slots)? */
static int
is_attached(const gw_idset *set, const unsigned *slots, size_t nslots,
            const char *id)
{
	uint64_t key;

	for (size_t i = 0; i < nslots; i++)
		if (gw_vs_attached_key(slots[i], id, &key) == 0 &&
		    gw_idset_get(set, key) != NULL)
			return 1;
	return 0;
}

/* How many devices of vm are GPUs of want g without a host address
 * (Dynamic DirectPath I/O: vCenter picks the host's device at power-on). */
static int
own_unaddressed(const gw_vs_vm *vm, const gw_gpu_want *g)
{
	size_t k;
	int n = 0;

	for (k = 0; vm != NULL && k < vm->ndevs; k++)
		n += vm->devs[k].id == NULL &&
		     gw_want_is_device(g, vm->devs[k].vgpu, vm->devs[k].vendor,
		                       vm->devs[k].device);
	return n;
}

/* A device of vm that is one GPU of want g, not among the n of taken. */
static const char *
own_device(const gw_vs_vm *vm, const gw_gpu_want *g, char **taken, size_t n)
{
	size_t k, j;

	for (k = 0; vm != NULL && k < vm->ndevs; k++) {
		const gw_vs_dev *d = &vm->devs[k];
		int dup = 0;

		if (d->id == NULL ||
		    !gw_want_is_device(g, d->vgpu, d->vendor, d->device))
			continue;
		for (j = 0; j < n; j++)
			dup |= strcasecmp(taken[j], d->id) == 0;
		if (!dup)
			return d->id;
	}
	return NULL;
}

int
gw_vs_is_own_device(const gw_vs_vm *vm, const char *id)
{
	size_t k;

	for (k = 0; vm != NULL && id != NULL && k < vm->ndevs; k++)
		if (vm->devs[k].id && strcasecmp(vm->devs[k].id, id) == 0)
			return 1;
	return 0;
}

int
gw_vs_pick_devices(const gw_vs_inventory *inv, const gw_vs_host *h,
                   const gw_vs_vm *vm, const gw_answers *a, char ***bdfs,
                   size_t *n, gw_err *e)
{
	char **out = NULL;
	size_t nout = 0, i, k;
	gw_idset made;
	const gw_idset *used;
	unsigned slots[2];
	size_t nslots;
	int c, dyn;

	*bdfs = NULL;
	*n = 0;
	used = attached_on(inv, h, &made, slots, &nslots);
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *g = &a->gpus[i];

		if (g->profile || g->gpu == NULL)
			continue;
		dyn = own_unaddressed(vm, g);
		for (c = 0; c < g->count; c++) {
			const gw_vs_pci *pick = NULL;
			const char *own = own_device(vm, g, out, nout);

			/* the VM's own device of the model counts: the VM
			 * ends with it (the plan pairs it and claims it) */
			if (own != NULL) {
				out = gw_xrealloc(out, (nout + 1) * sizeof *out);
				out[nout++] = gw_xstrdup(own);
				continue;
			}
			/* so does one by ids only: no address to pair, the
			 * plan counts its allowedDevices block */
			if (dyn > 0) {
				dyn--;
				continue;
			}

			for (k = 0; k < h->npci && pick == NULL; k++) {
				const gw_vs_pci *d = &h->pci[k];
				size_t j;
				int taken = 0;

				if (d->vendor != g->gpu->vendor_id ||
				    d->device != g->gpu->device_id ||
				    d->passthru_enabled != 1 ||
				    is_attached(used, slots, nslots, d->id))
					continue;
				for (j = 0; j < nout; j++)
					taken |= strcasecmp(out[j], d->id) == 0;
				if (!taken)
					pick = d;
			}
			if (pick == NULL) {
				/* TRANSLATORS: a GPU id (l40s), a count, a host. */
				gw_err_set(e, _("%s: host %s has no free passthrough-enabled %s for GPU %d of %d (enable passthrough first, or name the device with --bdf)"),
				           vm && vm->name ? vm->name : "?",
				           h->name ? h->name : "?", g->gpu->id, c + 1,
				           g->count);
				/* TRANSLATORS: the wizard's words for the error
				 * above: a VM, its host, a GPU id, a count. */
				gw_err_set_ui(e, _("%s: host %s has no free passthrough-enabled %s for GPU %d of %d. A GPU whose passthrough is queued (e on the host step) can be attached only once the write has enabled it and the host is rebooted if it says so: choose fewer GPUs now and add the others then."),
				              vm && vm->name ? vm->name : "?",
				              h->name ? h->name : "?", g->gpu->id,
				              c + 1, g->count);
				gw_strs_free(out, nout);
				gw_idset_free(&made);
				return -1;
			}
			out = gw_xrealloc(out, (nout + 1) * sizeof *out);
			out[nout++] = gw_xstrdup(pick->id);
		}
	}
	gw_idset_free(&made);
	*bdfs = out;
	*n = nout;
	return 0;
}

gw_power
gw_vs_power_esxi(gw_vs_power p)
{
	return p == GW_VS_POWER_ON ? GW_POWER_ON :
	       p == GW_VS_POWER_OFF ? GW_POWER_OFF :
	       p == GW_VS_POWER_SUSPENDED ? GW_POWER_SUSPENDED :
	       GW_POWER_UNKNOWN;
}

static void
vm_note_adds(gw_vs_vm *vm, const gw_vs_spec *spec)
{
	size_t i;

	if (spec->nadds == 0)
		return;
	vm->devs = gw_xrealloc(vm->devs, (vm->ndevs + spec->nadds) * sizeof *vm->devs);
	for (i = 0; i < spec->nadds; i++) {
		const gw_vs_add *a = &spec->adds[i];
		gw_vs_dev *d = &vm->devs[vm->ndevs++];

		memset(d, 0, sizeof *d);
		d->key = -1 - (int)i;
		d->id = a->id ? gw_xstrdup(a->id) : NULL;
		d->vendor = a->id || a->dynamic ? a->vendor : 0;
		d->device = a->id || a->dynamic ? a->device : 0;
		d->dynamic = a->dynamic;
		d->system_id = a->system_id ? gw_xstrdup(a->system_id) : NULL;
		d->vgpu = a->vgpu ? gw_xstrdup(a->vgpu) : NULL;
	}
}

void
gw_vs_inventory_note_adds(gw_vs_inventory *inv, gw_vs_vm *vm,
                          const gw_vs_spec *spec)
{
	size_t first = vm->ndevs;

	vm_note_adds(vm, spec);
	gw_vs_inventory_note_devs(inv, vm, first);
}
