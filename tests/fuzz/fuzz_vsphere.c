/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_vsphere.c: the SOAP answers of the vSphere back end
 * (src/host/vs_parse.c, vs_inventory.c, vs_graphics.c, vs_actions.c: the
 * gw_vs_parse_* functions), as tests/unit/host/test_vsphere*.c call them:
 * a fault, a RetrievePropertiesEx inventory page (then finished), a
 * QueryConfigTarget answer for a host with three devices, a
 * graphicsConfig and a task's info; and the short answers that the
 * calling code reads whole (src/host/vs_answers.c), from the body element
 * that vs_parse_answer gives as vs_call does: RetrieveServiceContent's
 * ServiceContent, the moref that CreateContainerView, CreateFilter
 * and ReconfigVM_Task return, and the task states that a quiet wait asks
 * again (vs_task_states_from_el, src/host/vs_task_parse.c).  Invariants:
 * a service content that reads has an API version, a root folder and the
 * three managers; a moref read is not empty, one not read leaves an
 * error; each task state read names its task and is 0..3. */
#include "fuzz.h"
#include "vsphere_int.h"   /* vs_seams.h, vs_parse_answer, vs_answers.c */

static const char *const fz_pci_ids[] = {
	"0000:3b:00.0", "0000:18:00.0", "0000:5e:00.0"
};
#define FZ_NPCI (sizeof fz_pci_ids / sizeof fz_pci_ids[0])

static void
fz_inventory(const char *s, size_t len)
{
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	gw_vs_inventory inv;
	char *token = NULL;
	size_t i;
	gw_err e;

	memset(&inv, 0, sizeof inv);
	if (gw_vs_parse_inventory_page(ps, s, len, &inv, &token, &e) == 0) {
		gw_vs_parse_inventory_finish(ps, &inv);
		for (i = 0; i < inv.nvms; i++)
			FZ_CHECK(gw_vs_find_vm(&inv, inv.vms[i].moref) != NULL);
		for (i = 0; i < inv.nhosts; i++)
			FZ_CHECK(gw_vs_find_host(&inv, inv.hosts[i].moref) != NULL);
	}
	free(token);
	gw_vs_parse_state_free(ps);
	gw_vs_inventory_free(&inv);
}

static void
fz_config_target(const char *s, size_t len)
{
	gw_vs_pci pci[FZ_NPCI];
	gw_vs_host h;
	size_t i;
	gw_err e;

	memset(&h, 0, sizeof h);
	memset(pci, 0, sizeof pci);
	for (i = 0; i < FZ_NPCI; i++)
		pci[i].id = (char *)fz_pci_ids[i];
	h.moref = (char *)"host-1";
	h.name = (char *)"esx01";
	h.pci = pci;
	h.npci = FZ_NPCI;
	(void)gw_vs_parse_config_target(s, len, &h, &e);
	for (i = 0; i < FZ_NPCI; i++)
		free(pci[i].system_id);
}

static void
fz_service_content(const char *s, size_t len)
{
	vs_service_content sc;
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_err e;

	if (vs_parse_answer(s, len, "RetrieveServiceContent", &doc, &el,
	                    &e) != 0)
		return;
	memset(&sc, 0, sizeof sc);
	if (vs_service_content_from(el, "https://vc.example/sdk", &sc,
	                            &e) == 0) {
		FZ_CHECK(sc.api_version[0] != '\0' && sc.root_folder[0] != '\0');
		FZ_CHECK(sc.property_collector && sc.session_manager &&
		         sc.view_manager);
	} else {
		FZ_CHECK(e.msg[0] != '\0');
	}
	FZ_CHECK(sc.api_type && sc.api_version && sc.full_name);
	vs_service_content_free(&sc);
	xmlFreeDoc(doc);
}

static void
fz_moref_results(const char *s, size_t len)
{
	static const char *const methods[] = {
		"CreateContainerView", "CreateFilter", "ReconfigVM_Task"
	};
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_err e;

	if (vs_parse_answer(s, len, "CreateFilter", &doc, &el, &e) != 0)
		return;
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		char *moref;

		e.msg[0] = '\0';
		moref = vs_moref_result(el, "vc.example", methods[i], &e);
		FZ_CHECK(moref ? moref[0] != '\0' : e.msg[0] != '\0');
		free(moref);
	}
	xmlFreeDoc(doc);
}

static void
fz_task_states(const char *s, size_t len)
{
	vs_updates a = { NULL, 0, 0 };
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_err e;

	if (vs_parse_answer(s, len, "RetrievePropertiesEx", &doc, &el,
	                    &e) != 0)
		return;
	vs_task_states_from_el(el, &a);
	xmlFreeDoc(doc);
	for (size_t i = 0; i < a.n; i++) {
		FZ_CHECK(a.ups[i].task && a.ups[i].task[0] != '\0');
		FZ_CHECK(a.ups[i].state >= 0 && a.ups[i].state <= 3);
	}
	gw_vs_task_updates_free(a.ups, a.n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	gw_vs_fault f;
	gw_vs_task_info ti;
	char *type = NULL;
	gw_err e;

	memset(&f, 0, sizeof f);
	(void)gw_vs_parse_fault(s, size, &f, &e);
	gw_vs_fault_free(&f);
	fz_inventory(s, size);
	fz_config_target(s, size);
	if (gw_vs_parse_graphics_config(s, size, &type, &e) == 0)
		FZ_CHECK(type != NULL);
	free(type);
	memset(&ti, 0, sizeof ti);
	(void)gw_vs_parse_task_info(s, size, &ti, &e);
	gw_vs_task_info_free(&ti);
	fz_service_content(s, size);
	fz_moref_results(s, size);
	fz_task_states(s, size);
	return 0;
}
