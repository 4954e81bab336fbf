/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_tile.c: the AI Services tile's custom VM type form, as YAML: the
 * processing technology, the PCI Passthrough vendor and device id, the
 * 64-bit MMIO fields.  One GPU model per VM type; vGPUs get a note. */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels of the AI Services tile's custom VM type form (doc/design.md,
 * section 15.8). */
#define TILE_TECH    "Processing technology"
#define TILE_VENDOR  "PCI Passthrough Vendor ID"
#define TILE_DEVICE  "PCI Passthrough Device ID"
#define TILE_MMIO    "use 64bit MMIO"
#define TILE_MMIO_GB "size for 64bit MMIO"

static int
tile_check(const gw_plan *p, int *npt, int *nvg, gw_err *e)
{
	if (emit_count_listed(p, "tile", 1, npt, nvg, e) != 0)
		return -1;
	if (*npt + *nvg == 0) {
		gw_err_set(e, _("%s: the plan adds no GPU; a custom VM type needs "
		                "a GPU to pass through"), "tile");
		return -1;
	}
	if (*npt > 0 && *nvg > 0) {
		gw_err_set(e, _("tile: the plan mixes passthrough GPUs and vGPUs; a "
		                "custom VM type has one processing technology"));
		return -1;
	}
	if (p->mmio_gb == 0) {
		gw_err_set(e, _("%s: the plan has no 64-bit MMIO size "
		                "(pciPassthru.64bitMMIOSizeGB)"), "tile");
		return -1;
	}
	return 0;
}

/* Add g's profile to the list unless an earlier GPU to add has it. */
static void
add_profile(const gw_plan *p, size_t i, gw_buf *profiles)
{
	const gw_plan_gpu *g = &p->gpus[i];
	size_t k;

	for (k = 0; k < i; k++)
		if (emit_listed(&p->gpus[k], 1) &&
		    emit_str_eq_null(p->gpus[k].profile, g->profile))
			return;
	gw_buf_printf(profiles, "%s%s", profiles->len ? ", " : "", g->profile);
}

/* The one passthrough GPU model (*pt, NULL for vGPUs) and the vGPU
 * profiles of the GPUs to add. */
static int
tile_gpus(const gw_plan *p, const gw_plan_gpu **pt, gw_buf *profiles,
          gw_err *e)
{
	char lb[32], lb2[32];
	size_t i;

	*pt = NULL;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (!emit_listed(g, 1))
			continue;
		if (g->profile && *g->profile) {
			add_profile(p, i, profiles);
			continue;
		}
		if (g->vendor_id == 0 || g->device_id == 0 ||
		    g->vendor_id > 0xffff || g->device_id > 0xffff) {
			gw_err_set(e, _("tile: GPU %s has no known PCI vendor/device "
			                "id; the tile's PCI Passthrough fields need "
			                "both"), emit_gpu_label(g, lb, sizeof lb));
			return -1;
		}
		if (*pt && ((*pt)->vendor_id != g->vendor_id ||
		            (*pt)->device_id != g->device_id)) {
			gw_err_set(e, _("tile: the plan has two GPU models (%s and %s); "
			                "a custom VM type takes one PCI vendor/device "
			                "id"), emit_gpu_label(*pt, lb, sizeof lb),
			           emit_gpu_label(g, lb2, sizeof lb2));
			return -1;
		}
		*pt = g;
	}
	return 0;
}

static int
set_note(json_t *root, char *n)
{
	int rc = emit_json_set(root, "note", json_string(n));

	free(n);
	return rc;
}

/* The form's fields; -1 when out of memory. */
static int
tile_fields(json_t *root, const gw_plan *p, const gw_plan_gpu *pt, int npt,
            const char *profiles)
{
	char hex[16], size[32];

	snprintf(size, sizeof size, "%llu", (unsigned long long)p->mmio_gb);
	if (pt) {
		if (emit_json_set(root, TILE_TECH,
		                  json_string("PCI Passthrough")) != 0)
			return -1;
		snprintf(hex, sizeof hex, "0x%04X", pt->vendor_id);
		if (emit_json_set(root, TILE_VENDOR, json_string(hex)) != 0)
			return -1;
		snprintf(hex, sizeof hex, "0x%04X", pt->device_id);
		if (emit_json_set(root, TILE_DEVICE, json_string(hex)) != 0)
			return -1;
	}
	if (emit_json_set(root, TILE_MMIO, json_string("TRUE")) != 0 ||
	    emit_json_set(root, TILE_MMIO_GB, json_string(size)) != 0)
		return -1;
	if (pt == NULL)
		return set_note(root, gw_xasprintf(_("The tile documents only \"PCI "
		                         "Passthrough\" as processing technology; a "
		                         "vGPU choice is not documented. Pick the "
		                         "tile's vGPU option if it has one, with "
		                         "profile %s; the 64-bit MMIO fields apply "
		                         "to vGPU VMs as well."), profiles));
	if (npt > 1)
		return set_note(root, gw_xasprintf(P_("The MMIO size is for %d GPU; the tile "
		                         "documents one vendor/device id and not how "
		                         "many GPUs a VM type gets: check the form.",
		                         "The MMIO size is for %d GPUs; the tile "
		                         "documents one vendor/device id and not how "
		                         "many GPUs a VM type gets: check the form.",
		                         npt),
		                       npt));
	return 0;
}

int
gw_emit_tile(const gw_plan *p, const gw_emit_opts *o, char **out, gw_err *e)
{
	const gw_plan_gpu *pt = NULL;
	json_t *root;
	gw_buf profiles;
	int npt, nvg, rc;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("tile: no plan to render"));
		return -1;
	}
	if (tile_check(p, &npt, &nvg, e) != 0)
		return -1;
	gw_buf_init(&profiles);
	if (tile_gpus(p, &pt, &profiles, e) != 0) {
		gw_buf_free(&profiles);
		return -1;
	}
	root = json_object();
	if (root == NULL || tile_fields(root, p, pt, npt, profiles.data) != 0) {
		json_decref(root);
		gw_buf_free(&profiles);
		gw_err_set(e, _("%s: out of memory"), "tile");
		return -1;
	}
	gw_buf_free(&profiles);
	rc = emit_yaml_render(root, "tile", out, e);
	json_decref(root);
	return rc;
}

/* The tile's values are typed into Ops Manager by hand. */
void
gw_next_tile(const gw_next_ctx *c)
{
	c->push(c->list, gw_xasprintf(_("AI Services tile: enter the values of %s as a custom VM type in Infrastructure Config, save, then Apply Changes (select the BOSH Director and the AI Services tile)"),
	                              c->path));
}
