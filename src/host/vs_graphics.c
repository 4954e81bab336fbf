/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_graphics.c: the host graphics type through the vSphere API
 * (doc/design.md, section 15.6).  The inventory reads it from each
 * HostSystem: config.graphicsConfig (HostConfigInfo, vSphere 6.5 and
 * later: hostDefaultGraphicsType "shared" or "sharedDirect"),
 * config.graphicsInfo (each graphics device's graphicsType: basic,
 * shared, direct, sharedDirect) and config.sharedPassthruGpuTypes (the
 * vGPU profiles the host offers: none without the NVIDIA vGPU manager).
 * gw_vs_parse_graphics_config reads the same HostGraphicsConfig from a
 * HostGraphicsManager's graphicsConfig, for an answer of its own. */
#include "vsphere_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
vs_api_at_least(const gw_vs *s, int major, int minor)
{
	int ma = 0, mi = 0;

	if (s->api_version == NULL ||
	    sscanf(s->api_version, "%d.%d", &ma, &mi) < 1)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

int
vs_host_graphics_prop(gw_vs_host *h, const char *name, xmlNodePtr val,
                      xmlNodePtr *ginfo)
{
	if (strcmp(name, "config.graphicsConfig") == 0) {
		vs_set_str(&h->graphics_type,
		           vs_nonempty(vs_child_text(val,
		                                     "hostDefaultGraphicsType")));
		return 1;
	}
	if (strcmp(name, "config.graphicsInfo") == 0) {
		*ginfo = val;
		return 1;
	}
	if (strcmp(name, "config.sharedPassthruGpuTypes") == 0) {
		h->nvgpu_types = 0;
		FOR_EL(t, val, "string") {
			if (h->nvgpu_types++ == 0)
				vs_set_str(&h->vgpu_type,
				           vs_nonempty(vs_el_text(t)));
		}
		return 1;
	}
	return 0;
}

void
vs_host_graphics_info(xmlNodePtr ginfo, gw_vs_host *h)
{
	FOR_EL(gi, ginfo, NULL) {
		char *id = vs_child_text(gi, "pciId");

		for (size_t i = 0; id && i < h->npci; i++)
			if (vs_bdf_eq(id, h->pci[i].id)) {
				vs_set_str(&h->pci[i].graphics_type,
				           vs_nonempty(vs_child_text(gi,
				                                     "graphicsType")));
				break;
			}
		free(id);
	}
}

/* The propSet named graphicsConfig, under returnval (RetrieveProperties)
 * or returnval/objects (RetrievePropertiesEx). */
static char *
graphics_type_in(xmlNodePtr parent)
{
	char *type = NULL;

	FOR_EL(ps, parent, "propSet") {
		char *name = vs_child_text(ps, "name");

		if (type == NULL && name && strcmp(name, "graphicsConfig") == 0)
			type = vs_nonempty(vs_child_text(vs_first_el(ps, "val"),
			                                 "hostDefaultGraphicsType"));
		free(name);
	}
	return type;
}

int
gw_vs_parse_graphics_config(const char *text, size_t len, char **type,
                            gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	*type = NULL;
	if (vs_parse_answer(text, len, "RetrievePropertiesEx", &doc, &el,
	                    e) != 0)
		return -1;
	FOR_EL(rv, el, "returnval") {
		if (*type == NULL)
			*type = graphics_type_in(rv);
		FOR_EL(obj, rv, "objects")
			if (*type == NULL)
				*type = graphics_type_in(obj);
	}
	xmlFreeDoc(doc);
	if (*type == NULL) {
		gw_err_set(e, _("the answer holds no graphicsConfig with a "
		                "hostDefaultGraphicsType"));
		return -1;
	}
	return 0;
}
