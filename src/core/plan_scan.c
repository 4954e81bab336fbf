/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_scan.c: scan the .vmx's pciPassthruN blocks (which indices are in
 * use, which devices are present, their ids and host addresses) and turn
 * the GPUs already attached into plan GPUs, with findings for the ones
 * the GPU table cannot size. */
#include "plan_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
used_has(const scan *sc, unsigned idx)
{
	size_t i;

	for (i = 0; i < sc->nused; i++)
		if (sc->used[i] == idx)
			return 1;
	return 0;
}

static void
used_add(scan *sc, unsigned idx)
{
	if (used_has(sc, idx))
		return;
	sc->used = gw_xrealloc(sc->used, (sc->nused + 1) * sizeof *sc->used);
	sc->used[sc->nused++] = idx;
}

unsigned
pl_next_free(scan *sc)
{
	unsigned i = 0;

	while (used_has(sc, i))
		i++;
	used_add(sc, i);
	return i;
}

/* "pciPassthru12.foo" -> 12.  Returns 0 when the key is one. */
static int
key_index(const char *key, unsigned *idx)
{
	static const char pre[] = "pcipassthru";
	const char *p = key;
	unsigned v;
	size_t i;

	for (i = 0; pre[i]; i++)
		if (tolower((unsigned char)key[i]) != pre[i])
			return -1;
	p = key + i;
	if (pl_parse_dec_field(&p, 4, &v) != 0 || *p != '.')
		return -1;
	*idx = v;
	return 0;
}

/* pciPassthru<idx>.<suffix> of v. */
static const char *
pl_vget(const gw_vmx *v, unsigned idx, const char *suffix)
{
	char key[64];

	snprintf(key, sizeof key, "pciPassthru%u.%s", idx, suffix);
	return gw_vmx_get(v, key);
}

static int
cmp_vdev(const void *a, const void *b)
{
	unsigned x = ((const vdev *)a)->idx, y = ((const vdev *)b)->idx;

	return x < y ? -1 : x > y;
}

/* "0000:42:00.0": the host address as lspci and esxcli print it, in
 * hexadecimal, copied into pciPassthruN.id where ESXi wants its decimal
 * form "00000:066:00.0" (doc/design.md, section 15.4).  ESXi itself never
 * writes this shape (4:2:2 digits). */
static int
hex_shaped(const char *s)
{
	static const char shape[] = "xxxx:xx:xx.x";
	size_t i;

	if (s == NULL || strlen(s) != sizeof shape - 1)
		return 0;
	for (i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i])
		                    : s[i] != shape[i])
			return 0;
	return 1;
}

/* A PCI id as ESXi writes it ("0x26b9"), or in decimal ("9913": *dec
 * set; the write puts it in ESXi's form, plan_devices.c). */
static int
pci_id(const char *s, unsigned *out, int *dec)
{
	*dec = 0;
	if (pl_parse_pci_id(s, out) == 0)
		return 0;
	if (pl_parse_pci_id_dec(s, out) != 0)
		return -1;
	*dec = 1;
	return 0;
}

/* A Dynamic DirectPath I/O block's allowedDevices, "0x10de:0x26b9" as
 * ESXi writes it (the first pair when it lists several). */
static int
allowed_ids(const char *s, unsigned *vendor, unsigned *device)
{
	char buf[16];
	const char *colon, *end;
	size_t n;

	if (s == NULL || (colon = strchr(s, ':')) == NULL)
		return -1;
	n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (pl_parse_pci_id(buf, vendor) != 0)
		return -1;
	end = colon + 1 + strcspn(colon + 1, ", ");
	n = (size_t)(end - colon - 1);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, colon + 1, n);
	buf[n] = '\0';
	return pl_parse_pci_id(buf, device);
}

void
pl_scan_vmx(const gw_vmx *v, scan *sc)
{
	size_t i, n = v ? gw_vmx_count(v) : 0, j;
	unsigned idx;

	memset(sc, 0, sizeof *sc);
	for (i = 0; i < n; i++) {
		if (key_index(gw_vmx_key_at(v, i), &idx) != 0)
			continue;
		if (used_has(sc, idx))
			continue;
		used_add(sc, idx);
	}
	if (sc->nused == 0)
		return;
	sc->devs = gw_xcalloc(sc->nused, sizeof *sc->devs);
	for (j = 0; j < sc->nused; j++) {
		vdev *d = &sc->devs[sc->ndevs++];
		char key[64];
		const char *s;

		d->idx = sc->used[j];
		snprintf(key, sizeof key, "pciPassthru%u.present", d->idx);
		d->present = gw_vmx_get_bool(v, key, 0);
		s = pl_vget(v, d->idx, "vgpu");
		d->vgpu = s && *s ? s : NULL;
		d->ids_ok = pci_id(pl_vget(v, d->idx, "vendorId"), &d->vendor,
		                   &d->dec_vendor) == 0 &&
		            pci_id(pl_vget(v, d->idx, "deviceId"), &d->device,
		                   &d->dec_device) == 0;
		if (!d->ids_ok && d->vgpu == NULL &&
		    allowed_ids(pl_vget(v, d->idx, "allowedDevices"),
		                &d->vendor, &d->device) == 0) {
			d->ids_ok = 1;
			d->dynamic = 1;
		}
		s = pl_vget(v, d->idx, "id");
		d->hex_id = hex_shaped(s) &&
		            gw_bdf_parse(s, &d->dom, &d->bus, &d->dev,
		                         &d->fn) == 0;
		d->has_addr = d->hex_id ||
		              pl_parse_vmx_id(s, &d->dom, &d->bus, &d->dev,
		                              &d->fn) == 0;
		d->system_id = pl_vget(v, d->idx, "systemId");
	}
	qsort(sc->devs, sc->ndevs, sizeof *sc->devs, cmp_vdev);
}

void
pl_scan_free(scan *sc)
{
	free(sc->devs);
	free(sc->used);
}

/* Look a device up by PCI id.  Rows sharing the id (25b6 = A2/A16) that
 * agree on VRAM still give the VRAM (gpu stays NULL). */
static const gw_gpu *
lookup_pci(const gw_table *t, const gw_vmx *v, unsigned idx, unsigned ven,
           unsigned dev, int *vram)
{
	unsigned sv = 0, sd = 0;
	const gw_gpu *g;
	int amb = 0, common = -2;
	size_t i;

	*vram = -1;
	if (pl_parse_pci_id(pl_vget(v, idx, "subVendorId"), &sv) != 0 ||
	    pl_parse_pci_id(pl_vget(v, idx, "subDeviceId"), &sd) != 0)
		sv = sd = 0;
	g = gw_table_find_pci(t, ven, dev, sv, sd, &amb);
	if (g == NULL && !amb && (sv || sd))
		g = gw_table_find_pci(t, ven, dev, 0, 0, &amb);
	if (g) {
		*vram = g->vram_gb;
		return g;
	}
	for (i = 0; amb && i < t->n; i++) {
		if (t->gpus[i].vendor_id != ven || t->gpus[i].device_id != dev)
			continue;
		if (common == -2)
			common = t->gpus[i].vram_gb;
		else if (common != t->gpus[i].vram_gb)
			common = -1;
	}
	if (common >= 0)
		*vram = common;
	return NULL;
}

gw_plan_gpu *
pl_gpu_push(gw_plan *p)
{
	gw_plan_gpu *g;

	p->gpus = gw_xrealloc(p->gpus, (p->ngpus + 1) * sizeof *p->gpus);
	g = &p->gpus[p->ngpus++];
	memset(g, 0, sizeof *g);
	return g;
}

/* Existing devices with the same identity are merged into one group. */
static void
add_existing_gpu(gw_plan *p, const vdev *d, const gw_gpu *gpu,
                 const char *profile, int vram, unsigned ven, unsigned dev,
                 const char *label)
{
	gw_plan_gpu *g;
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		g = &p->gpus[i];
		if (g->existing && g->gpu == gpu && g->vram_gb == vram &&
		    g->vendor_id == ven && g->device_id == dev &&
		    strcmp(g->label, label) == 0 &&
		    ((g->profile == NULL && profile == NULL) ||
		     (g->profile && profile && strcmp(g->profile, profile) == 0))) {
			g->count++;
			g->counted += d->counted;
			return;
		}
	}
	g = pl_gpu_push(p);
	g->gpu = gpu;
	g->label = gw_xstrdup(label);
	g->vram_gb = vram;
	g->count = 1;
	g->counted = d->counted;
	g->profile = profile ? gw_xstrdup(profile) : NULL;
	g->existing = 1;
	g->vendor_id = ven;
	g->device_id = dev;
}

/* The fixes of an uncounted framebuffer name --vram GB; the wizard has
 * no such field, but its MMIO step takes a size that covers it. */
static void
vram_ui(gw_finding *f)
{
	/* TRANSLATORS: the wizard's words for "add its framebuffer with
	 * --vram GB": "Your size in GB" is the MMIO step's field label
	 * (without its colon), "MMIO size" its step title. */
	pl_fix_ui(f, gw_xstrdup(_("Count its framebuffer yourself: type a size that covers it in \"Your size in GB\" on the MMIO size step (the rule is shown there).")));
}

/* A vGPU block: counted with its physical GPU's framebuffer. */
static void
existing_vgpu(plan_ctx *c, const vdev *d)
{
	gw_plan *p = c->p;
	char *prof = pl_lower_dup(d->vgpu);
	const gw_gpu *g;
	gw_err le;
	int vram;

	g = c->t ? gw_table_lookup(c->t, prof, &le) : NULL;
	vram = g ? g->vram_gb : -1;
	if (g == NULL)
		vram_ui(pl_finding(p, GW_SEV_WARN, "vgpu-profile-unknown", GW_TOPIC_GPU,
		           SRC_VGPU_MMIO,
		           gw_xasprintf(_("pciPassthru%u is vGPU "
		                          "profile '%s', whose GPU "
		                          "is not in the GPU table: "
		                          "its framebuffer is not "
		                          "counted and the MMIO size "
		                          "may be too small"),
		                        d->idx, d->vgpu),
		           gw_xasprintf(_("Add the physical GPU's "
		                          "framebuffer with --vram "
		                          "GB."))));
	else if (vram < 0)
		vram_ui(pl_finding(p, GW_SEV_WARN, "gpu-vram-unknown", GW_TOPIC_GPU,
		           SRC_VGPU_MMIO,
		           gw_xasprintf(_("pciPassthru%u is vGPU "
		                          "profile '%s' on %s, "
		                          "whose VRAM is unknown: "
		                          "the MMIO size may be too "
		                          "small"),
		                        d->idx, d->vgpu, g->id),
		           gw_xasprintf(_("Add the physical GPU's "
		                          "framebuffer with --vram "
		                          "GB."))));
	if (g && gw_gpu_vgpu_check(g, prof, &le) != 0)
		pl_finding(p, GW_SEV_WARN, "vgpu-profile-size", GW_TOPIC_GPU,
		           gw_vgpu_types_source(prof),
		           /* TRANSLATORS: %u the pciPassthru index, then the
		            * refusal's text (it names the valid sizes). */
		           gw_xasprintf(_("pciPassthru%u: %s"), d->idx, le.msg),
		           gw_xasprintf(_("Change the VM's vGPU to a profile "
		                          "NVIDIA lists for the board in the "
		                          "vSphere Client (Edit Settings).")));
	add_existing_gpu(p, d, g, prof, vram, g ? g->vendor_id : 0,
	                 g ? g->device_id : 0, prof);
	free(prof);
}

/* A block without usable PCI ids: counted as unknown. */
static void
existing_noids(plan_ctx *c, const vdev *d)
{
	const char *dv = pl_vget(c->v, d->idx, "deviceId");
	char label[32];

	vram_ui(pl_finding(c->p, GW_SEV_WARN, "gpu-unknown", GW_TOPIC_GPU, SRC_DEVICE,
	           gw_xasprintf(_("pciPassthru%u has no usable "
	                          "vendorId/deviceId (deviceId = "
	                          "'%s'; ESXi writes 0x%%04x): it "
	                          "cannot be identified, and if it "
	                          "is a GPU the MMIO size may be "
	                          "too small"),
	                        d->idx, dv ? dv : ""),
	           gw_xasprintf(_("If it is a GPU, add its "
	                          "framebuffer with --vram GB."))));
	snprintf(label, sizeof label, "pciPassthru%u", d->idx);
	add_existing_gpu(c->p, d, NULL, NULL, -1, 0, 0, label);
}

/* A DirectPath block with PCI ids: looked up in the table. */
static void
existing_pci(plan_ctx *c, const vdev *d)
{
	gw_plan *p = c->p;
	const gw_gpu *g = NULL;
	char label[32];
	int vram = -1;

	if (c->t)
		g = lookup_pci(c->t, c->v, d->idx, d->vendor, d->device, &vram);
	snprintf(label, sizeof label, "%04x:%04x", d->vendor, d->device);
	if (g == NULL && vram < 0) {
		const char *cls = pl_vget(c->v, d->idx, "class");
		int display = d->vendor == NVIDIA_VENDOR ||
		              (cls && strncmp(cls, "0x03", 4) == 0);

		vram_ui(pl_finding(p, GW_SEV_WARN, "gpu-unknown",
		           GW_TOPIC_GPU, SRC_MMIO,
		           display
		           ? gw_xasprintf(_("pciPassthru%u (%s) is a "
		                            "display device that is not "
		                            "in the GPU table: its "
		                            "framebuffer is not counted "
		                            "and the MMIO size may be too "
		                            "small"), d->idx, label)
		           : gw_xasprintf(_("pciPassthru%u (%s) is not in "
		                            "the GPU table: if it is a "
		                            "GPU, its framebuffer is not "
		                            "counted and the MMIO size "
		                            "may be too small"),
		                          d->idx, label),
		           gw_xasprintf(_("Add its framebuffer with --vram "
		                          "GB."))));
	} else if (vram < 0) {
		vram_ui(pl_finding(p, GW_SEV_WARN, "gpu-vram-unknown", GW_TOPIC_GPU,
		           SRC_MMIO,
		           gw_xasprintf(_("pciPassthru%u (%s, %s): its "
		                          "VRAM is unknown in the GPU "
		                          "table, so it is not counted "
		                          "and the MMIO size may be too "
		                          "small"),
		                        d->idx, label, g ? g->id : label),
		           gw_xasprintf(_("Add its framebuffer with --vram "
		                          "GB."))));
	}
	add_existing_gpu(p, d, g, NULL, vram, d->vendor, d->device,
	                 g ? g->id : label);
}

/* Read the devices already in the .vmx into plan GPUs + findings. */
void
pl_existing(plan_ctx *c)
{
	size_t i;

	for (i = 0; i < c->sc.ndevs; i++) {
		const vdev *d = &c->sc.devs[i];

		if (!d->present)
			continue;
		if (d->vgpu)
			existing_vgpu(c, d);
		else if (!d->ids_ok)
			existing_noids(c, d);
		else
			existing_pci(c, d);
	}
}
