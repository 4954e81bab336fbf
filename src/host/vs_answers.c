/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_answers.c: the short answers that the calling code reads whole, each
 * from the body element that vs_call (or vs_parse_answer, for a saved
 * answer) gives: RetrieveServiceContent's ServiceContent (vsphere.c's
 * login) and the moref that CreateContainerView (vs_inventory.c),
 * CreateListView and CreateFilter (vs_tasks.c) and the *_Task methods (vs_actions.c) return.
 * The unit tests (tests/unit/host/test_vsphere.c) and the fuzz target
 * tests/fuzz/fuzz_vsphere.c call them on saved answers. */
#include "vsphere_int.h"

#include <stdlib.h>
#include <string.h>

static char *
or_empty(char *s)
{
	return s ? s : gw_xstrdup("");
}

int
vs_service_content_from(xmlNodePtr el, const char *url,
                        vs_service_content *sc, gw_err *e)
{
	xmlNodePtr rv = vs_first_el(el, "returnval");
	xmlNodePtr about = vs_first_el(rv, "about");

	sc->root_folder = vs_child_text(rv, "rootFolder");
	sc->property_collector = vs_child_text(rv, "propertyCollector");
	sc->session_manager = vs_child_text(rv, "sessionManager");
	sc->view_manager = vs_child_text(rv, "viewManager");
	sc->api_type = or_empty(vs_child_text(about, "apiType"));
	sc->api_version = or_empty(vs_child_text(about, "apiVersion"));
	sc->full_name = or_empty(vs_child_text(about, "fullName"));
	if (!*sc->api_version || !sc->root_folder || !*sc->root_folder ||
	    !sc->property_collector || !sc->session_manager ||
	    !sc->view_manager) {
		gw_err_set(e, _("%s is not a vSphere endpoint: its service content lacks the API version or the managers gpuwiz needs"),
		           url);
		return -1;
	}
	return 0;
}

char *
vs_moref_result(xmlNodePtr el, const char *host, const char *method,
                gw_err *e)
{
	char *moref = vs_nonempty(vs_child_text(el, "returnval"));

	if (moref != NULL)
		return moref;
	if (strcmp(method, "CreateContainerView") == 0 ||
	    strcmp(method, "CreateListView") == 0)
		/* TRANSLATORS: %s the server, %s CreateContainerView or
		 * CreateListView (the SOAP method, not translated). */
		gw_err_set(e, _("%s: %s returned no view"), host, method);
	else if (strcmp(method, "CreateFilter") == 0)
		gw_err_set(e, _("%s: CreateFilter returned no filter"), host);
	else
		gw_err_set(e, _("%s: %s returned no task"), host, method);
	return NULL;
}

char *
vs_call_moref(gw_vs *s, const char *method, req *r, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	char *moref;
	int rc = vs_call_simple(s, method, r, &doc, &el, e);

	vs_req_free(r);
	if (rc != 0)
		return NULL;
	moref = vs_moref_result(el, s->host, method, e);
	xmlFreeDoc(doc);
	return moref;
}
