/* vs_graphics.c: the host graphics type through the vSphere API: the
 * graphicsConfig property of a HostGraphicsManager (configManager.
 * graphicsManager of a HostSystem), its hostDefaultGraphicsType "shared"
 * or "sharedDirect" (vSphere Web Services API, HostGraphicsConfig;
 * doc/design.md, section 15.6).  The parser only: govmomi's vcsim names
 * the manager in configManager but serves no such object, so the live
 * back end does not ask for it yet (gw_esxi_graphics_shared_direct reads
 * the value). */
#include "vsphere_int.h"

#include <stdlib.h>
#include <string.h>

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
